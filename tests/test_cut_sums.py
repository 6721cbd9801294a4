"""Cut sums (propagation.totals): the band totals refute unbalanced clues at the root, and
never a puzzle that has a solution.

Refutations are counted in work (propagations, search nodes), not seconds, and the answers
are cross-checked against CP-SAT, which shares nothing with the kernel but the model.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab import datasets
from kakurolab.formats import load
from kakurolab.model import Clue, ClueCell, Puzzle
from kakurolab.propagation import Propagator, root_state
from kakurolab.propagation.totals import CutSums, high, low
from kakurolab.rulebook import structure_problems
from kakurolab.uniqueness import count

HARD = Path(__file__).resolve().parents[1] / "data" / "hard"


def _moved(puzzle: Puzzle) -> tuple[int, int, int]:
    """The run a near-miss moved (its index) and its old and new totals, from the meta."""
    match = re.fullmatch(r"(\S+ \w+): (\d+) -> (\d+)", str(puzzle.meta["changed"]))
    assert match, puzzle.meta
    names = [run.name for run in puzzle.runs]
    return names.index(match[1]), int(match[2]), int(match[3])


def _small(family: str, n: int) -> list[Puzzle]:
    return sorted(load(HARD / f"{family}.txt"), key=lambda p: len(p.whites))[:n]


def test_digit_sum_bounds() -> None:
    assert [low(n) for n in (1, 2, 9)] == [1, 3, 45]
    assert [high(n) for n in (1, 2, 9)] == [9, 17, 45]


@pytest.mark.parametrize("family", ["loose-unsat", "unsat"])
def test_near_misses_refuted_at_the_root_by_native(family: str) -> None:
    """Every shipped near-miss: native proves it unsat at the root, with no search node and
    at most the root fixpoint's run revisions (the loose ones took native past 20 s before);
    CP-SAT agrees on the small ones (below)."""
    puzzles = load(HARD / f"{family}.txt")
    assert len(puzzles) >= 3
    for puzzle in puzzles:
        result = count(puzzle, 2, backend="native", timeout=60)
        assert result.complete and not result.solutions, puzzle.id
        assert result.stats["nodes"] == 0, puzzle.id
        assert result.stats["propagations"] <= 4 * len(puzzle.runs), puzzle.id
        assert root_state(puzzle) is None, puzzle.id  # so the presolved CNF is refuted too


@pytest.mark.parametrize("family", ["loose-unsat", "unsat"])
def test_near_miss_refutations_agree_with_cpsat(family: str) -> None:
    backend = require_backend("cpsat")
    for puzzle in _small(family, 2):
        result = count(puzzle, 1, backend=backend, timeout=60)
        assert result.complete and not result.solutions, puzzle.id


def test_moving_the_clue_back_balances_the_cuts() -> None:
    """``with_totals`` redoes only the changed run: moving the near-miss's clue back gives a
    puzzle the cuts do not refute, and moving it again gives the very same cut intervals."""
    for puzzle in _small("loose-unsat", 3):
        r, old, new = _moved(puzzle)
        prop = Propagator(puzzle)
        assert prop.refuted and prop.root() is None
        back = prop.with_totals({r: old})
        assert not back.refuted and back.root() is not None
        again = back.with_totals({r: new})
        assert again.refuted
        assert prop.cuts is not None and again.cuts is not None
        assert (again.cuts.lo, again.cuts.hi) == (prop.cuts.lo, prop.cuts.hi)


def _with_clue(puzzle: Puzzle, r: int, total: int) -> Puzzle:
    """``puzzle`` with run ``r``'s clue set to ``total``."""
    run = puzzle.runs[r]
    (cr, cc), grid = run.clue_cell, [list(row) for row in puzzle.grid]
    square = grid[cr][cc]
    assert isinstance(square, ClueCell)
    field = "across" if run.direction.value == "across" else "down"
    grid[cr][cc] = replace(square, **{field: Clue(total)})
    return Puzzle(puzzle.id, tuple(tuple(row) for row in grid))


def test_with_totals_equals_rebuilding() -> None:
    """Changing totals in place gives the intervals of the rebuilt puzzle's cuts."""
    rng = random.Random(26)
    puzzle = _small("loose", 2)[1]
    cuts = CutSums.of(puzzle)
    for _ in range(20):
        r = rng.randrange(len(puzzle.runs))
        total = rng.randint(low(len(puzzle.runs[r])), high(len(puzzle.runs[r])))
        rebuilt = CutSums.of(_with_clue(puzzle, r, total))
        moved = cuts.with_totals({r: total})
        assert (moved.lo, moved.hi, moved.refuted) == (rebuilt.lo, rebuilt.hi, rebuilt.refuted)


def test_puzzles_with_solutions_are_never_refuted() -> None:
    """Soundness on every puzzle that has a solution: janko, PE424 (letter clues count as
    any total of their run) and the loose and unique hard families."""
    puzzles = [*load(datasets.JANKO_DEV), *load(datasets.PE424)]
    for family in ("loose", "large-unique", "ambiguous", "cryptic"):
        puzzles += load(HARD / f"{family}.txt")
    assert len(puzzles) > 300
    refuted = [p.id for p in puzzles if CutSums.of(p).refuted]
    assert refuted == []


def test_random_clue_moves_refuted_only_when_cpsat_agrees() -> None:
    """A clue of a small janko puzzle moved by one: whenever the cuts refute it, CP-SAT finds
    no solution either; and a move the cuts refute is most of them (a unique grid's band
    totals are tight)."""
    backend = require_backend("cpsat")
    rng = random.Random(424)
    puzzles = sorted(load(datasets.JANKO_DEV), key=lambda p: len(p.whites))[:15]
    refuted = tried = 0
    for puzzle in puzzles:
        r = rng.randrange(len(puzzle.runs))
        clue = puzzle.runs[r].clue
        assert clue is not None and clue.value is not None
        moved = _with_clue(puzzle, r, clue.value + rng.choice((-1, 1)))
        if structure_problems(moved):  # moved past its run's range: refused before solving
            continue
        tried += 1
        if CutSums.of(moved).refuted:
            refuted += 1
            result = count(moved, 1, backend=backend, timeout=60)
            assert result.complete and not result.solutions, puzzle.id
    assert tried >= 8 and refuted >= tried // 2
