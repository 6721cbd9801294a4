"""Local search (propagation.local): every grid it yields obeys every rule, it finds grids
of loose puzzles where they exist, it never invents a second grid for a unique puzzle, and it
stays out of puzzles it does not suit.

Answers are checked by the rule checker (shares no code with the search) and cross-checked
against CP-SAT; work is counted in moves and decisions, never in seconds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab import bank
from kakurolab.formats import load
from kakurolab.model import Puzzle, Solution
from kakurolab.propagation import Propagator, held_at, learning, local
from kakurolab.rulebook import solution_problems
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


def _books_right(walk: local.Walk, propagator: Propagator) -> None:
    """Every run's sum is its clue, and the walk's digit counts, strays and runs in
    conflict are what its digits say."""
    for r, cells in enumerate(propagator.run_cells):
        digits = [walk.digits[c] for c in cells]
        assert sum(digits) == walk.targets[r]
        assert walk.counts[r] == [digits.count(d) for d in range(10)]
        strays = sum(not propagator.root()[c] >> (walk.digits[c] - 1) & 1 for c in cells)  # type: ignore[index]
        assert walk.strays[r] == strays
        repeats = len(digits) - len(set(digits))
        assert (r in walk.bad) == bool(repeats or strays)


def _walk(name: str, seed: int = 0) -> tuple[local.Walk, Propagator]:
    propagator = Propagator(_member("loose", name))
    root = propagator.root()
    assert root is not None
    walk = local.Walk(propagator, root, random.Random(seed), local.LocalStats())
    assert walk.start()
    return walk, propagator


def test_moves_keep_every_sum_and_the_books_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cycle moves and run re-sets (half the moves here) change many cells at once; each
    must keep every run's sum, touch a cell once, and leave the counts true."""
    monkeypatch.setattr(local, "RESET_SHARE", 0.5)
    walk, propagator = _walk("loose-40x40-s1")
    for _ in range(6):
        for _ in range(400):
            if not walk.bad:
                break
            walk.move()
        _books_right(walk, propagator)
    assert walk.stats.moves >= 400


def test_a_reset_gives_its_run_a_fitting_digit_set_and_keeps_every_sum() -> None:
    walk, propagator = _walk("loose-40x40-s1", seed=3)
    root = propagator.root()
    assert root is not None
    done = 0
    for r in sorted(walk.bad):
        changes = walk.reset(r)
        if changes is None:
            continue
        cells = [x for x, _, _ in changes]
        assert len(cells) == len(set(cells))  # each cell changed once
        assert all(walk.digits[x] == old for x, old, _ in changes)
        after = walk.digits[:]
        for x, _, new in changes:
            after[x] = new
            assert root[x] >> (new - 1) & 1  # within its root domain
        for q, members in enumerate(propagator.run_cells):
            assert sum(after[c] for c in members) == walk.targets[q]
        mine = [after[c] for c in propagator.run_cells[r]]
        assert len(set(mine)) == len(mine)  # the run itself is out of conflict
        done += 1
    assert done >= 1


def test_weights_rise_on_runs_that_stay_in_conflict() -> None:
    walk, _ = _walk("loose-40x40-s1")
    for _ in range(local.WEIGHT_EVERY - 1):
        walk.move()
    assert set(walk.weight) == {1}
    bad = set(walk.bad)
    assert bad  # the walk is still in conflict after 99 moves
    walk.move()  # the hundredth raises the weight of every run then in conflict
    assert {r for r, w in enumerate(walk.weight) if w == 2} == bad
    assert max(walk.weight) == 2


@pytest.mark.slow
def test_local_search_finds_two_grids_of_the_60x60_loose_grid() -> None:
    """With cycles of 40 cells and no re-sets, walks froze here with four runs in conflict
    and found no grid in 120 CPU s (seeds 0-4)."""
    puzzle = _member("loose", "loose-60x60-s1")
    grids, stats = _grids(puzzle, 2, 200_000)
    assert len(grids) == 2, stats
    for grid in grids:
        assert solution_problems(puzzle, grid) == []
