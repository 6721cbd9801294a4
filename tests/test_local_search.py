"""Local search (propagation.local): every grid it yields obeys every rule, it finds grids
of loose puzzles where they exist, it never invents a second grid for a unique puzzle, and it
stays out of puzzles it does not suit.

Answers are checked by the rule checker (shares no code with the search) and cross-checked
against CP-SAT; work is counted in moves and decisions, never in seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab import bank
from kakurolab.check import solution_problems
from kakurolab.formats import load
from kakurolab.model import Puzzle, Solution
from kakurolab.propagation import Propagator, held_at, learning, local
from kakurolab.uniqueness import count

HARD = Path(__file__).resolve().parents[1] / "data" / "hard"
PE424 = Path(__file__).resolve().parents[1] / "data" / "p424_kakuro200.txt"


def _member(family: str, name: str) -> Puzzle:
    return next(p for p in load(HARD / f"{family}.txt") if p.id == name)


def _grids(puzzle: Puzzle, wanted: int, work: int) -> tuple[list[Solution], local.LocalStats]:
    """Up to ``wanted`` distinct grids local search yields within ``work`` moves and
    repair decisions (a budget that stops at the same point on any machine)."""
    propagator = Propagator(puzzle)
    stats = local.LocalStats()
    grids: list[Solution] = []
    for found in local.search(propagator, stats=stats, out_of_time=lambda: stats.work >= work):
        if found is None:
            break
        solution = propagator.solution(found)
        if solution not in grids:
            grids.append(solution)
        if len(grids) == wanted:
            break
    return grids, stats


@pytest.mark.parametrize("name", ["loose-10x10-s1", "loose-20x20-s1"])
def test_loose_grids_are_found_and_obey_every_rule(name: str) -> None:
    puzzle = _member("loose", name)
    grids, stats = _grids(puzzle, 3, 200_000)
    assert len(grids) == 3, stats
    for grid in grids:
        assert solution_problems(puzzle, grid) == []
    # An independent solver agrees that the puzzle has that many grids.
    require_backend("cpsat")
    assert len(count(puzzle, limit=3, backend="cpsat").solutions) == 3


def test_a_unique_puzzle_gets_its_one_grid_and_never_a_second() -> None:
    picked = bank.pick("12x12", "hard", seed=3)
    grids, stats = _grids(picked.puzzle, 2, 20_000)
    assert grids == [picked.solution]
    assert stats.neighbourhoods > 0  # it looked for another grid, and found none


def test_unbalanced_totals_end_the_search_without_a_grid() -> None:
    # A loose grid with one clue moved by one: across and down totals differ, so the flow
    # start cannot meet every clue (or root propagation already refutes it).
    puzzle = _member("loose-unsat", "loose-unsat-10x10-s1")
    grids, stats = _grids(puzzle, 1, 10_000)
    assert grids == [] and stats.moves == 0


def test_cryptic_puzzles_are_left_to_the_complete_searches() -> None:
    puzzle = load(PE424)[0]
    propagator = Propagator(puzzle)
    assert not local.applies(propagator)
    assert list(local.search(propagator)) == []


def test_the_same_seed_walks_the_same_way() -> None:
    puzzle = _member("loose", "loose-20x20-s1")
    first, stats_a = _grids(puzzle, 2, 100_000)
    again, stats_b = _grids(puzzle, 2, 100_000)
    assert first == again and stats_a == stats_b


def test_a_region_search_on_its_own_runs_ignores_a_conflict_held_elsewhere() -> None:
    """What a mend relies on: with ``runs=`` the learning search checks the runs that touch
    the free region only, so a repeated digit held far away no longer refutes the region,
    and the grid it yields is right on every run that touches the region."""
    puzzle = _member("loose", "loose-20x20-s1")
    propagator = Propagator(puzzle)
    root = propagator.root()
    assert root is not None
    grid = list(next(found for found in learning.search(propagator) if found)[0])
    runs, cell_runs = propagator.run_cells, propagator.cell_runs
    free = set(runs[0])
    touching = sorted({r for c in free for r in cell_runs[c]})
    near = {c for r in touching for c in runs[r]}
    far = next(r for r, cells in enumerate(runs) if len(cells) > 1 and not near & set(cells))
    broken = grid[:]
    broken[runs[far][1]] = broken[runs[far][0]]  # a repeated digit, away from the region
    fill = [1 << (digit - 1) for digit in broken]

    def first(**kwargs: object) -> list[int] | None:
        state = held_at(root, fill, free)
        for found in learning.search(propagator, state, **kwargs):  # type: ignore[arg-type]
            return list(found[0]) if found else None
        return None

    assert first() is None  # every run checked: the held conflict refutes the region
    mended = first(runs=touching)
    assert mended is not None
    assert all(mended[c] == broken[c] for c in range(len(broken)) if c not in free)
    for r in touching:
        digits = [mended[c] for c in runs[r]]
        assert len(set(digits)) == len(digits)
        assert sum(digits) == puzzle.runs[r].clue.value  # type: ignore[union-attr]
