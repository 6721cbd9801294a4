"""The computer opponent's brain (issue 50 §1, ``kakurolab/game/computer.py``): it plays only
digits the logic engine derives from what a player sees (the view's clues and board, the
public events), never reads the solution, spends a hint shield or guesses among its
candidates when its techniques stop, and its three strengths differ measurably (techniques
used, moves per minute), seeded so that a position always takes the same time."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service
from _web import published_solution, shipped

from kakurolab.combos import bit
from kakurolab.game import GameService, Mode, NewGame, puzzles
from kakurolab.game import computer as cpu
from kakurolab.game.computer import GUESS, HINT, STRENGTHS, Decision, Seen, decide
from kakurolab.game.moves import cell_text, parse_cell
from kakurolab.logic import Engine, State
from kakurolab.model import Puzzle, Solution

Chooser = Callable[[str, str, str | int], puzzles.Chosen]


def fixed(size: str, difficulty: str, index: int = 0) -> Chooser:
    """A chooser that always gives the same shipped puzzle (with its published solution)."""

    def choose(_size: str, _difficulty: str, seed: str | int) -> puzzles.Chosen:
        puzzle = shipped(size, difficulty)[index]
        solution = puzzle.meta["solution"]
        assert isinstance(solution, Solution)
        return puzzles.Chosen(Puzzle(puzzle.id, puzzle.grid), solution)

    return choose


def _seen(svc: GameService, game: str, token: str) -> tuple[dict[str, Any], list[Any]]:
    view = svc.view(game, token).to_json()
    return view, [e.to_json() for e in svc.events_since(game, token, 0)]


def _check(decision: Decision, view: dict[str, Any], events: list[Any],
           solution: dict[str, int], strength: cpu.Strength) -> None:  # fmt: skip
    """A deduced digit is one the logic engine derives, from the view alone, with the
    strength's own techniques; a guess is one of the cell's candidates; a digit from a hint
    shield is the one the shield named."""
    if decision.move["kind"] != "place":
        return
    cell, digit = parse_cell(decision.move["cell"]), decision.move["digit"]
    puzzle = cpu.puzzle_from_view(view["puzzle"]["grid"])
    board = {parse_cell(k): v for k, v in view["board"].items()}
    seen = Seen.from_events(events, view["you"])
    assert cell not in board
    if decision.technique == HINT:
        assert seen.hinted[cell] == digit
        return
    state = State.from_digits(puzzle, board)
    for where, mask in seen.wrong.items():
        state.cands[where] &= ~mask
    if decision.technique == GUESS:
        assert state.cands[cell] & bit(digit)
        assert not seen.wrong.get(cell, 0) & bit(digit)  # never the same wrong guess again
        return
    engine = Engine(state, strength.ladder)
    engine.run()
    assert engine.state.placed.get(cell) == digit, decision
    assert solution[cell_text(cell)] == digit  # and deduction is sound


def play(svc: GameService, game: str, tokens: dict[str, str],
         clock: Clock) -> dict[str, list[Decision]]:  # fmt: skip
    """Play a Battle between computers (player id -> token) through the service, checking
    every decision; the decisions per player."""
    played: dict[str, list[Decision]] = {p: [] for p in tokens}
    first = next(iter(tokens.values()))
    view = svc.view(game, first).to_json()
    solution = {cell_text(c): d for c, d in published_solution(view["puzzle"]["id"]).items()}
    while True:
        view = svc.view(game, first).to_json()
        if view["phase"] == "finished":
            return played
        me = view["turn"]
        seen, events = _seen(svc, game, tokens[me])
        name = next(p["name"] for p in seen["players"] if p["player_id"] == me)
        strength = STRENGTHS[name.removeprefix("Computer (").removesuffix(")")]
        decision = decide(seen, events, strength)
        assert decision is not None
        _check(decision, seen, events, solution, strength)
        clock.advance(decision.think_s)
        svc.act(game, tokens[me], decision.move)
        played[me].append(decision)


def computers(store: Path | str, chooser: Chooser, first: str, second: str,
              clock: Clock) -> tuple[GameService, str, dict[str, str]]:  # fmt: skip
    svc = service(store, clock, chooser=chooser)
    a, b = svc.computer(first), svc.computer(second)
    game = svc.create(a.token, NewGame(Mode.BATTLE, size="8x8", computer=second)).game_id
    return svc, game, {a.player_id: a.token, b.player_id: b.token}


def test_the_computer_reads_no_solution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It decides from its view's JSON alone: with every road to the solution closed (the
    referee, the solvers), it still finds the same right digit."""
    clock = Clock()
    svc, game, tokens = computers(tmp_path, fixed("8x8", "normal"), "hard", "easy", clock)
    token = next(iter(tokens.values()))
    view, events = _seen(svc, game, token)
    assert view["solution"] is None
    expected = decide(view, events, STRENGTHS["hard"])

    def closed(*args: object, **kwargs: object) -> None:
        raise AssertionError("the computer looked at the solution")

    from kakurolab import uniqueness
    from kakurolab.game import state

    for name in ("digit", "right", "reveal", "solved", "wrong_cells"):
        monkeypatch.setattr(state.Referee, name, closed)
    for name in ("solve", "count", "prove_unique"):
        monkeypatch.setattr(uniqueness, name, closed)
    found = decide(view, events, STRENGTHS["hard"])
    assert found == expected and found is not None and found.deduced
    puzzle = cpu.puzzle_from_view(view["puzzle"]["grid"])
    assert puzzle.grid == svc._game(game).puzzle.grid and not puzzle.meta


def test_a_game_between_computers_finishes_and_every_digit_is_derived(tmp_path: Path) -> None:
    clock = Clock()
    svc, game, tokens = computers(tmp_path, fixed("8x8", "hard"), "easy", "hard", clock)
    played = play(svc, game, tokens, clock)
    first, second = tokens
    view = svc.view(game, tokens[first])
    assert view.phase == "finished" and view.end_reason == "completed"
    placed = [d for ds in played.values() for d in ds if d.move["kind"] == "place"]
    assert len({d.move["cell"] for d in placed if d.technique != GUESS}) == len(
        [d for d in placed if d.technique != GUESS])  # fmt: skip
    assert all(d.deduced for d in played[second])  # hard needs no help on this grid
    winner = next(s["name"] for s in view.standings if s["rank"] == 1)
    assert svc.ratings("computer")[0]["name"] == winner  # rated, in the computers' pool


def test_easy_asks_for_hints_and_guesses_where_its_techniques_stop(tmp_path: Path) -> None:
    clock = Clock()
    svc, game, tokens = computers(tmp_path, fixed("8x8", "expert", 1), "easy", "medium", clock)
    played = play(svc, game, tokens, clock)
    easy = played[cpu.player_id("easy")]
    kinds = {d.technique for d in easy}
    assert "hint" in kinds and HINT in kinds  # a shield spent, its digit played
    assert sum(d.technique == "hint" for d in easy) == 3  # every shield it had, no more
    assert GUESS in kinds or all(d.deduced for d in played[cpu.player_id("medium")])
    assert svc.view(game, tokens[cpu.player_id("easy")]).phase == "finished"


def _measure(strength: str, chooser: Chooser, tmp: Path) -> tuple[float, set[str], int]:
    """(mean seconds per move, techniques used, moves needing help) of ``strength`` playing
    against the hard computer (medium against medium would be one player)."""
    clock = Clock()
    rival = "hard" if strength != "hard" else "medium"
    svc, game, tokens = computers(tmp, chooser, strength, rival, clock)
    mine = play(svc, game, tokens, clock)[cpu.player_id(strength)]
    moves = [d for d in mine if d.move["kind"] == "place"]
    return (statistics.mean(d.think_s for d in moves), {d.technique for d in moves},
            sum(not d.deduced for d in mine))  # fmt: skip


def test_the_three_strengths_differ_measurably(tmp_path: Path) -> None:
    chooser = fixed("8x8", "hard", 1)
    found = {s: _measure(s, chooser, tmp_path / s) for s in STRENGTHS}
    per_minute = {s: 60 / found[s][0] for s in found}
    assert per_minute["easy"] < per_minute["medium"] < per_minute["hard"], per_minute
    assert found["easy"][2] > 0 and found["medium"][2] == found["hard"][2] == 0
    basics = set(STRENGTHS["easy"].techniques)
    assert found["easy"][1] - {GUESS, HINT} <= basics
    assert found["medium"][1] - basics  # medium's run arithmetic does what easy cannot
    slowest, fastest = min(per_minute.values()), max(per_minute.values())
    assert fastest > 2 * slowest  # hard plays more than twice as many moves a minute


def test_think_times_are_seeded_and_grow_with_the_technique() -> None:
    easy = STRENGTHS["easy"]
    assert cpu.think_time(easy, 3, "g:1:easy") == cpu.think_time(easy, 3, "g:1:easy")
    draws = [cpu.think_time(easy, w, f"g:{i}:easy") for i in range(200) for w in (1,)]
    harder = [cpu.think_time(easy, 8, f"g:{i}:easy") for i in range(200)]
    assert statistics.median(harder) > statistics.median(draws) + 5
    assert all(0 < t <= easy.max_s for t in draws + harder)
    pauses = sum(t > 30 for t in draws)  # a median move takes ~9 s; easy sometimes stops
    assert 0 < pauses < 100


def test_take_turn_plays_through_the_service_on_its_turn_only(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=fixed("8x8", "normal"))
    ann = svc.register("ann")
    game = svc.create(ann.token, NewGame(Mode.BATTLE, size="8x8", computer="medium")).game_id
    bot = svc.computer("medium")
    medium = STRENGTHS["medium"]
    assert cpu.take_turn(svc, game, bot.token, medium) is None  # ann moves first
    view = svc.view(game, ann.token)
    solution = {cell_text(c): d for c, d in published_solution(view.puzzle["id"]).items()}
    cell = min(solution)
    svc.act(game, ann.token, {"kind": "place", "cell": cell, "digit": solution[cell]})
    decision = cpu.take_turn(svc, game, bot.token, medium)
    assert decision is not None and decision.deduced
    board = svc.view(game, ann.token).board
    assert len(board) == 2 and board[decision.move["cell"]] == solution[decision.move["cell"]]
    assert svc.view(game, ann.token).turn == ann.player_id


def test_one_holder_at_a_time_plays_a_games_computer(store_at: Path | str) -> None:
    """The computer lease (``GameService.lease_computer``): the first holder has it and
    renews it, a second waits while it runs, takes it once it has run out or been given
    back, and a lease is per game."""
    clock = Clock()
    svc = service(store_at, clock)
    assert svc.lease_computer("g-1", "a", 30) and not svc.lease_computer("g-1", "b", 30)
    clock.advance(20)
    assert svc.lease_computer("g-1", "a", 30)  # renewed: runs to 50 s from the start
    clock.advance(20)
    assert not svc.lease_computer("g-1", "b", 30)  # 40 s: still a's
    assert svc.lease_computer("g-2", "b", 30)  # another game's is free
    clock.advance(11)
    assert svc.lease_computer("g-1", "b", 30)  # 51 s: a's ran out, b takes it
    assert not svc.lease_computer("g-1", "a", 30)
    svc.release_computer("g-1", "a")  # a gives back what it no longer has: nothing happens
    assert not svc.lease_computer("g-1", "a", 30)
    svc.release_computer("g-1", "b")
    assert svc.lease_computer("g-1", "a", 30)  # given back: the next one has it at once
