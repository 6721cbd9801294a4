"""Spectators (issue 50 §1): a running Arena or Battle watched by someone who is not seated,
through the engine's own spectator view, which never carries a solution or anything a seated
player's view does not already show of the others.

Every test plays a whole game through the service and audits the spectator's view after every
move (the frames a watching socket would be pushed): no cell is named outside the grid and the
public board, no pencil mark, shield answer or rejected digit, the board holds exactly the
digits placed in public (a Battle's right digits; an Arena racer's none), and the solution
only once the game is over, where it equals an independent solve of the puzzle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service, solution_of, tiny_chooser
from _spectate import HIDDEN, audit, keys

from kakurolab.formats import load
from kakurolab.game import GameService, IllegalMoveError, Mode, NewGame, Options, UnknownGameError
from kakurolab.model import Puzzle, Solution

GENERATED = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "generated"


def eight_chooser(size: str, difficulty: str, seed: str | int) -> tuple[Puzzle, Solution]:
    """The first shipped 8x8 easy puzzle (its published solution proven unique elsewhere):
    big enough for a Battle of many turns."""
    puzzle = load(GENERATED / "standard-8x8-easy.kakuro")[0]
    solution = puzzle.meta["solution"]
    assert isinstance(solution, Solution)
    return Puzzle(f"eight-{seed}", puzzle.grid), solution


def same_as_seated(svc: GameService, game: str, frame: dict[str, Any], tokens: list[str]) -> None:
    """What the spectator sees of each player is what every seated player sees of them."""
    for token in tokens:
        view = svc.view(game, token).to_json()
        assert view["version"] == frame["version"]
        mine = {p["player_id"]: {k: v for k, v in p.items() if k != "marks"}
                for p in view["players"]}  # fmt: skip
        assert {p["player_id"]: p for p in frame["players"]} == mine
        if view["rules"]["shared_board"]:
            assert frame["board"] == view["board"]


def test_a_battle_watched_move_by_move_shows_only_the_public_board(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=eight_chooser)
    alice, bob = svc.register("alice"), svc.register("bob")
    tokens = {}
    game = svc.create(alice.token, NewGame(Mode.BATTLE, size="8x8")).game_id
    first = svc.spectate(game).to_json()
    audit(first, {})
    assert first["phase"] == "waiting"
    svc.join(game, bob.token)
    for who in (alice, bob):
        tokens[who.player_id] = who.token
    solution = solution_of(svc, game)
    public: dict[str, int] = {}
    frames = [svc.spectate(game).to_json()]
    turns = spent = 0
    while frames[-1]["phase"] != "finished":
        assert turns < 200, "the battle does not end"
        token = tokens[frames[-1]["turn"]]
        empty = [c for c in solution if c not in public]
        cell, then = empty[0], empty[-1]
        svc.act(game, token, {"kind": "mark", "cell": then, "digit": solution[then]})
        frames.append(svc.spectate(game).to_json())
        if spent < 2:  # a hint and a candidates shield: their answers are the spender's
            shield = {"kind": "shield", "shield": "hint"} if spent == 0 else \
                {"kind": "shield", "shield": "candidates", "run": f"{cell} across"}
            svc.act(game, token, shield)
            spent += 1
            frames.append(svc.spectate(game).to_json())
        if turns % 3 == 1:  # a wrong digit: -150, not placed, the turn passes
            svc.act(game, token, {"kind": "place", "cell": cell,
                                  "digit": solution[cell] % 9 + 1})  # fmt: skip
        else:
            svc.act(game, token, {"kind": "place", "cell": cell, "digit": solution[cell]})
            public[cell] = solution[cell]
        clock.advance(3)
        turns += 1
        frames.append(svc.spectate(game).to_json())
        audit(frames[-1], public)
        if frames[-1]["phase"] != "finished":
            same_as_seated(svc, game, frames[-1], list(tokens.values()))
    for frame in frames[:-1]:
        audit(frame, {c: d for c, d in public.items() if c in frame["board"]})
        assert set(frame["board"].items()) <= set(solution.items())
    end = frames[-1]
    assert end["board"] == solution
    assert "".join(end["solution"]).replace("-", "") == "".join(
        str(solution[c]) for c in sorted(solution, key=lambda t: tuple(map(int, t[1:].split("c")))))
    assert [s["player_id"] for s in end["standings"]] and end["end_reason"] == "completed"
    assert {p["points"] for p in end["players"]} == {s["score"] for s in end["standings"]}


def test_an_arena_watched_shows_progress_never_a_racers_digits(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    ann, bob = svc.register("ann"), svc.register("bob")
    game = svc.create(ann.token, NewGame(Mode.ARENA, size="4x4",
                                         options=Options(permanent=False))).game_id  # fmt: skip
    svc.join(game, bob.token)
    svc.act(game, ann.token, {"kind": "start"})
    solution = solution_of(svc, game)
    cells = list(solution)
    frames = [svc.spectate(game).to_json()]
    moves: list[tuple[Any, dict[str, Any]]] = [
        (bob, {"kind": "shield", "shield": "hint"}),  # its answer fixes a cell: bob's alone
        (bob, {"kind": "mark", "cell": cells[0], "digit": solution[cells[0]]}),
        (bob, {"kind": "place", "cell": cells[0], "digit": solution[cells[0]]}),
        (ann, {"kind": "place", "cell": cells[1], "digit": solution[cells[1]] % 9 + 1}),
    ]
    moves += [(ann, {"kind": "place", "cell": c, "digit": d}) for c, d in solution.items()]
    for who, move in moves:
        svc.act(game, who.token, move)
        frames.append(svc.spectate(game).to_json())
        same_as_seated(svc, game, frames[-1], [ann.token, bob.token])
    progress = {p["name"]: p["progress"] for p in frames[-1]["players"]}
    assert progress == {"ann": 1.0, "bob": pytest.approx(1 / len(cells), abs=1e-4)}
    svc.act(game, ann.token, {"kind": "submit"})
    frames.append(svc.spectate(game).to_json())
    for frame in frames:
        audit(frame, {})  # a racer's digits are never on a spectator's board
    assert [f["phase"] for f in frames[:-1]] == ["active"] * (len(frames) - 1)
    end = frames[-1]
    assert end["phase"] == "finished" and end["end_reason"] == "submission"
    digits = {f"r{r + 1}c{c + 1}": int(ch) for r, row in enumerate(end["solution"])
              for c, ch in enumerate(row) if ch != "-"}  # fmt: skip
    assert digits == solution  # the end screen's solution, once the race is over
    assert end["standings"][0]["name"] == "ann" and end["reasons"]


def test_a_solo_game_cannot_be_watched_nor_an_unknown_one(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    me = svc.register("solo")
    for mode in (Mode.PRACTICE, Mode.CAMPAIGN):
        game = svc.create(me.token, NewGame(mode, size="4x4")).game_id
        with pytest.raises(IllegalMoveError, match="only Arena and Battle games can be watched"):
            svc.spectate(game)
    with pytest.raises(UnknownGameError):
        svc.spectate("g-00000000")


def test_a_watched_race_ends_when_its_countdown_runs_out(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, bob = svc.register("ann"), svc.register("bob")
    game = svc.create(ann.token, NewGame(Mode.ARENA, size="4x4",
                                         options=Options(time_limit_s=60))).game_id  # fmt: skip
    svc.join(game, bob.token)
    svc.act(game, ann.token, {"kind": "start"})
    clock.advance(20)
    assert svc.spectate(game).remaining_s == pytest.approx(40)
    clock.advance(50)
    end = svc.spectate(game).to_json()  # the spectator's call settles the clock, once
    assert end["phase"] == "finished" and end["end_reason"] == "time"
    assert end["solution"] is not None
    assert svc.view(game, bob.token).phase == "finished"


def test_the_live_list_holds_running_races_and_duels_only(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    ann, bob = svc.register("ann"), svc.register("bob")
    waiting = svc.create(ann.token, NewGame(Mode.ARENA, size="4x4")).game_id
    svc.create(ann.token, NewGame(Mode.PRACTICE, size="4x4"))
    duel = svc.create(ann.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    svc.join(duel, bob.token)  # the last seat starts a duel
    race = svc.create(bob.token, NewGame(Mode.ARENA, size="4x4")).game_id
    svc.join(race, ann.token)
    svc.act(race, bob.token, {"kind": "start"})
    live = svc.live_games()
    assert {card["game_id"] for card in live} == {duel, race}
    assert waiting not in {card["game_id"] for card in live}
    card = next(c for c in live if c["game_id"] == duel)
    assert card["mode"] == "battle" and card["players"] == ["ann", "bob"]
    assert not keys(live) & HIDDEN
