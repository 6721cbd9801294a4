"""Replays of finished games (issue 50 §1): the engine replays the stored move log into frames
(the cells each move changed), and shows them only once the game's competition is over: a
game still running never, a calendar day's game not while the day can still be played (its
digits are the solution everyone races for)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service, solution_of, tiny, tiny_chooser

from kakurolab.game import GameService, IllegalMoveError, Mode, NewGame, Options
from kakurolab.game.calendar import ARCHIVE_DAYS


def play(frames: list[dict[str, Any]], upto: int) -> dict[str, dict[str, Any]]:
    """Each player's board after the first ``upto`` frames: cell -> {digit, marks}."""
    boards: dict[str, dict[str, Any]] = {}
    for frame in frames[:upto]:
        board = boards.setdefault(frame["player_id"] or "", {})
        for change in frame["cells"]:
            board[change["cell"]] = {"digit": change["digit"], "marks": change["marks"]}
    return boards


def seen(board: dict[str, Any]) -> tuple[dict[str, int], dict[str, list[int]]]:
    digits = {c: v["digit"] for c, v in board.items() if v["digit"] is not None}
    marks = {c: v["marks"] for c, v in board.items() if v["marks"]}
    return digits, marks


def test_a_replay_rebuilds_every_step_of_a_finished_practice_game(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    me = svc.register("ada")
    game = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    with pytest.raises(IllegalMoveError, match="not over"):
        svc.replay(game)
    solution = solution_of(svc, game)
    moves: list[dict[str, Any]] = [
        {"kind": "mark", "cell": "r2c2", "digit": 1},
        {"kind": "mark", "cell": "r2c2", "digit": 2},
        {"kind": "place", "cell": "r2c2", "digit": 1},  # wrong, then right
        {"kind": "place", "cell": "r2c2", "digit": 2},
        {"kind": "place", "cell": "r2c3", "digit": 7},
        {"kind": "erase", "cell": "r2c3"},
    ] + [{"kind": "place", "cell": c, "digit": d} for c, d in solution.items() if c != "r2c2"]
    after = []  # the player's board and marks after every move, as the engine's view said
    for move in moves:
        clock.advance(5)
        view = svc.act(game, me.token, move).view
        after.append((view.board, view.marks))
    assert view.phase == "finished"
    replay = svc.replay(game).to_json()
    assert replay["game_id"] == game and replay["puzzle"]["grid"] == view.puzzle["grid"]
    assert [p["name"] for p in replay["players"]] == ["ada"]
    seated = [f["kind"] for f in replay["frames"]][: len(replay["frames"]) - len(moves)]
    assert seated == ["join", "start"], seated  # the service's own moves come first
    frames = replay["frames"][len(seated) :]
    assert len(frames) == len(moves)
    for k, (board, marks) in enumerate(after, start=1):
        assert seen(play(frames, k)[me_id(svc, me.token)]) == (board, marks), k
    assert [f["t"] for f in frames[:3]] == [5.0, 10.0, 15.0]
    assert frames[0]["text"] == "ada: pencil 1 at r2c2"
    assert frames[2]["text"] == "ada: 1 at r2c2"
    assert frames[5]["text"] == "ada: erase r2c3"
    assert replay["duration_s"] == 5.0 * len(moves)


def me_id(svc: GameService, token: str) -> str:
    return svc.whoami(token)[0]


def test_an_arena_replays_once_the_race_is_over(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    a, b = svc.register("ann"), svc.register("bob")
    game = svc.create(a.token, NewGame(Mode.ARENA, size="8x8", options=Options())).game_id
    svc.join(game, b.token)
    svc.act(game, a.token, {"kind": "start"})
    solution = solution_of(svc, game)
    svc.act(game, b.token, {"kind": "place", "cell": "r2c2", "digit": 3})  # bob, wrong
    for cell, digit in solution.items():
        with pytest.raises(IllegalMoveError, match="not over"):
            svc.replay(game)  # never while anyone races
        svc.act(game, a.token, {"kind": "place", "cell": cell, "digit": digit})
    svc.act(game, a.token, {"kind": "submit"})
    frames = svc.replay(game).to_json()["frames"]
    boards = play(frames, len(frames))
    assert seen(boards[me_id(svc, a.token)])[0] == solution
    assert seen(boards[me_id(svc, b.token)])[0] == {"r2c2": 3}


def test_a_calendar_day_replays_only_once_it_leaves_the_archive(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    me = svc.register("cal")
    game = svc.create(me.token, NewGame(Mode.CAMPAIGN)).game_id
    for cell, digit in solution_of(svc, game).items():
        svc.act(game, me.token, {"kind": "place", "cell": cell, "digit": digit})
    assert svc.view(game, me.token).phase == "finished"
    with pytest.raises(IllegalMoveError, match="played until"):
        svc.replay(game)  # its digits are the day's solution, still raced for
    clock.advance((ARCHIVE_DAYS + 1) * 86400)
    assert svc.replay(game).frames


def test_an_unknown_game_has_no_replay(tmp_path: Path) -> None:
    svc = service(tmp_path)
    with pytest.raises(KeyError):
        svc.replay("g-00000000")


def test_a_battle_replays_on_its_one_board_with_the_points_in_words(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    alice, bob = svc.register("alice"), svc.register("bob")
    game = svc.create(alice.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    svc.join(game, bob.token)
    script = [
        (alice, "r2c2", 2), (bob, "r2c3", 1), (alice, "r3c2", 4), (bob, "r3c2", 3),
        (alice, "r3c3", 5), (bob, "r3c4", 2), (alice, "r4c3", 9), (bob, "r4c4", 7),
    ]  # fmt: skip
    for who, cell, digit in script:
        clock.advance(10)
        svc.act(game, who.token, {"kind": "place", "cell": cell, "digit": digit})
    replay = svc.replay(game).to_json()
    assert replay["shared_board"] is True
    board: dict[str, int] = {}
    for frame in replay["frames"]:  # one board: every player's frames land on it
        for change in frame["cells"]:
            board[change["cell"]] = change["digit"]
    assert board == svc.view(game, alice.token).board
    texts = [f["text"] for f in replay["frames"] if f["kind"] == "place"]
    assert texts[1] == "bob: 1 at r2c3 (+101)"
    assert texts[2] == "alice: 4 at r3c2 (-150; wrong)"  # not placed: no cell changed
    wrong = [f for f in replay["frames"] if f["kind"] == "place"][2]
    assert wrong["cells"] == []


@pytest.mark.bench
def test_a_long_game_replays_about_as_fast_as_the_store_loads_it(tmp_path: Path) -> None:
    """A 16x22 game of 910 moves (two pencil marks, a wrong digit and the right one per
    cell): its replay against the peer that does the same work, a cold load of the game
    (which applies every logged move again and checks the hash chain).  Prints the ratio."""
    import time

    from _web import published_solution, shipped_chooser

    from kakurolab.game.moves import cell_text

    svc = GameService(tmp_path / "g.sqlite", chooser=shipped_chooser)
    me = svc.register("b")
    game = svc.create(me.token, NewGame(Mode.PRACTICE, size="16x22", difficulty="hard"))
    solution = published_solution(game.puzzle["id"])
    act = functools.partial(svc.act, game.game_id, me.token)
    for cell, digit in sorted(solution.items()):
        act({"kind": "mark", "cell": cell_text(cell), "digit": digit})
        act({"kind": "mark", "cell": cell_text(cell), "digit": digit % 9 + 1})
    for cell, digit in sorted(solution.items()):
        act({"kind": "place", "cell": cell_text(cell), "digit": digit % 9 + 1})
        act({"kind": "place", "cell": cell_text(cell), "digit": digit})
    assert svc.store.version(game.game_id) == 910

    def best(work: Any) -> float:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        return min(times)

    replay_s = best(lambda: svc.replay(game.game_id))
    load_s = best(lambda: GameService(tmp_path / "g.sqlite").view(game.game_id, me.token))
    print(f"replay {replay_s * 1000:.0f} ms, cold load {load_s * 1000:.0f} ms, "
          f"ratio {replay_s / load_s:.2f}")  # fmt: skip
    assert replay_s <= 3 * load_s
