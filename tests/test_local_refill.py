"""A re-fill tracks only the runs through its region (``refill``, generator speed, issue 27)
and answers exactly as ``fill`` with every other cell fixed, which tracks every run of the
grid: it must refuse the same grids and draw the same digits from the same ``rng``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kakurolab.generator.draw import published_layout
from kakurolab.generator.fill import fill, fill_grid, refill
from kakurolab.generator.layout import Layout, within
from kakurolab.generator.steering import get_difficulty
from kakurolab.model import Cell


def _cases(level: str, seed: int) -> list[tuple[Layout, dict[Cell, int], set[Cell], dict]]:
    """Regions of a filled grid to re-fill, with forbidden digits; some with a fixed run
    that repeats a digit, holds a set the level forbids, or a forbidden fixed digit."""
    rng = random.Random(seed)
    layout = published_layout(16, 16, rng, white_share=0.72, max_run=7)
    values = fill_grid(layout, rng, allows=get_difficulty(level).allows)
    assert values is not None
    cells = sorted(values)
    found = []
    for k in range(60):
        region = within(layout, [rng.choice(cells)], rng.choice((0, 1, 2)))
        grid = dict(values)
        forbid = {c: 1 << (values[c] - 1) for c in rng.sample(sorted(region), 1)}
        if k % 5 == 1:  # a repeated digit in a run outside the region
            outside = [c for c in cells if c not in region]
            cell = rng.choice(outside)
            mate = next(m for i in layout.runs_of[cell] for m in layout.runs[i][1] if m != cell)
            grid[cell] = grid[mate]
        elif k % 5 == 2:  # any other digit for an outside cell: an unallowed set, often
            cell = rng.choice([c for c in cells if c not in region])
            grid[cell] = 1 + grid[cell] % 9
        elif k % 5 == 3:  # a fixed cell's own digit forbidden
            cell = rng.choice([c for c in cells if c not in region])
            forbid[cell] = 1 << (grid[cell] - 1)
        found.append((layout, grid, region, forbid))
    return found


def _region_refills(level: str, seed: int) -> list[tuple[Any, Any]]:
    """``refill`` (the board over the region's runs only) and ``fill`` with the cells outside
    fixed, on the cases whose runs outside the region are the fill's (``refill``'s
    precondition: a repair's grid), each pair from equal ``rng`` states."""
    difficulty = get_difficulty(level)
    pairs = []
    for k, (layout, grid, region, forbid) in enumerate(_cases(level, seed)):
        if k % 5 in (1, 2):  # a broken run outside the region: not a repair's grid
            continue
        budget = {"allows": difficulty.allows, "weight": difficulty.weight, "node_limit": 400}
        whole = fill(
            layout,
            random.Random(k),
            fixed={c: d for c, d in grid.items() if c not in region},
            forbid=forbid,
            **budget,
        )
        local = refill(layout, grid, region, random.Random(k), forbid=forbid, **budget)
        pairs.append((local, whole))
    return pairs


@pytest.mark.parametrize(("level", "seed"), [("easy", 1), ("normal", 2), ("expert", 3)])
def test_a_region_refill_answers_as_fill_with_the_rest_fixed(level: str, seed: int) -> None:
    pairs = _region_refills(level, seed)
    assert [local for local, _ in pairs] == [whole for _, whole in pairs]
    assert [list(a or {}) for a, _ in pairs] == [list(b or {}) for _, b in pairs]  # same order
    assert any(local is None for local, _ in pairs)  # a forbidden fixed digit, a dead end
    assert any(local is not None for local, _ in pairs)


def test_a_region_refill_keeps_every_cell_outside_the_region() -> None:
    """The answer is the whole grid: the region re-filled, every other cell as given, and
    every run through the region a set of distinct digits."""
    layout, grid, region, _ = _cases("normal", 5)[0]
    found = refill(layout, grid, region, random.Random(0), node_limit=2_000)
    assert found is not None and set(found) == set(grid)
    assert all(found[c] == d for c, d in grid.items() if c not in region)
    for _, cells in layout.runs:
        digits = [found[c] for c in cells]
        assert len(set(digits)) == len(digits)
