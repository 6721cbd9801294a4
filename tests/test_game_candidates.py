"""The whole-grid candidates view (issue 50 §1): the engine computes, for every empty cell,
the digits its two clue entries still allow given the player's *own* entries, and the mode's
record (``ModeRules.candidates_view``) decides whether a player may see it: free in practice,
nothing in the competitive and calendar modes (the rulebook's Logic Shield reveals one clue's
sets there).  It never reads the solution: a wrong entry that breaks no rule leads it where
the entry leads."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _game import service, tiny, tiny_chooser

from kakurolab.combos import combos, digits_of
from kakurolab.game import RULES, GameService, IllegalMoveError, Mode, NewGame
from kakurolab.game.moves import cell_text, parse_cell
from kakurolab.model import Cell, Puzzle


def expected(puzzle: Puzzle, entries: dict[Cell, int]) -> dict[str, list[int]]:
    """Written independently of the engine: per empty cell, the digits of the sum table's sets
    of each of its entries that hold every digit written in that entry, less those digits
    (none where an entry repeats a digit)."""
    out = {}
    for cell in puzzle.whites:
        if cell in entries:
            continue
        allowed = set(range(1, 10))
        for run in puzzle.runs_of[cell]:
            listed = [entries[c] for c in run.cells if c in entries]
            written = set(listed)
            assert run.clue is not None and run.clue.value is not None
            union: set[int] = set()
            sets = combos(len(run.cells), run.clue.value) if len(written) == len(listed) else ()
            for mask in sets:
                digits = set(digits_of(mask))
                if written <= digits:
                    union |= digits - written
            allowed &= union
        out[cell_text(cell)] = sorted(allowed)
    return dict(sorted(out.items()))


def practice(tmp_path: Path) -> tuple[GameService, str, str]:
    svc = service(tmp_path, chooser=tiny_chooser)
    me = svc.register("solo")
    view = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny()))
    return svc, me.token, view.game_id


def test_the_view_says_which_modes_show_candidates() -> None:
    shown = {mode for mode, rules in RULES.items() if rules.candidates_view}
    assert shown == {Mode.PRACTICE}
    for mode, rules in RULES.items():
        assert rules.facts()["candidates_view"] is (mode is Mode.PRACTICE)


def test_practice_candidates_follow_the_players_entries_not_the_solution(
    tmp_path: Path,
) -> None:
    svc, token, game = practice(tmp_path)
    puzzle = tiny()
    blank = svc.candidates(game, token)
    assert blank.cells == expected(puzzle, {})
    assert blank.cells["r2c2"] == [1, 2] and blank.version == svc.view(game, token).version
    # r2c2 = 1 is wrong (the solution has 2) but breaks no rule: the view follows it
    svc.act(game, token, {"kind": "place", "cell": "r2c2", "digit": 1})
    after = svc.candidates(game, token)
    assert "r2c2" not in after.cells
    assert after.cells["r2c3"] == [2]  # 3 in two cells, 1 written
    assert after.cells["r3c2"] == [4]  # 5 in two cells, 1 written (the solution has 3)
    assert after.cells == expected(puzzle, {(1, 1): 1})
    assert after.to_json() == {"version": after.version, "cells": after.cells}


def test_random_entries_give_the_independent_candidates(tmp_path: Path) -> None:
    svc, token, game = practice(tmp_path)
    puzzle = tiny()
    rng = random.Random(50)
    whites = sorted(puzzle.whites)
    for _ in range(20):
        cell, digit = cell_text(rng.choice(whites)), rng.randint(1, 9)
        held = svc.view(game, token).board.get(cell)
        if held is not None and rng.random() < 0.3:
            svc.act(game, token, {"kind": "erase", "cell": cell})
        elif held != digit:
            svc.act(game, token, {"kind": "place", "cell": cell, "digit": digit})
        if svc.view(game, token).phase != "active":
            break
        entries = {parse_cell(c): d for c, d in svc.view(game, token).board.items()}
        assert svc.candidates(game, token).cells == expected(puzzle, entries)


def test_a_repeat_leaves_its_entry_no_candidate(tmp_path: Path) -> None:
    svc, token, game = practice(tmp_path)
    svc.act(game, token, {"kind": "place", "cell": "r3c2", "digit": 5})
    svc.act(game, token, {"kind": "place", "cell": "r3c3", "digit": 5})
    cells = svc.candidates(game, token).cells
    assert cells["r3c4"] == []  # row 3 repeats its 5: no set completes it
    assert cells["r2c2"] == []  # 5 down in two cells with a 5 written: none either
    assert cells["r2c3"] == [1, 2]  # 3 across; 15 down holding a 5 allows both


@pytest.mark.parametrize("mode", [Mode.ARENA, Mode.BATTLE, Mode.CAMPAIGN])
def test_competitive_and_calendar_games_show_no_candidates(tmp_path: Path, mode: Mode) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    me = svc.register("racer")
    view = svc.create(me.token, NewGame(mode, size="8x8", difficulty="easy"))
    with pytest.raises(IllegalMoveError, match="Logic Shield"):
        svc.candidates(view.game_id, me.token)


def test_only_a_seated_player_sees_candidates(tmp_path: Path) -> None:
    svc, _, game = practice(tmp_path)
    other = svc.register("other")
    with pytest.raises(PermissionError):
        svc.candidates(game, other.token)
