"""The blocking repair's and whitening's local checks give the whole-grid answers
(generator speed, issue 27).

``block_cascade`` decides whether a layout with a few more blocks is still valid by looking
around the new blocks, and ``_block_one`` measures only the black area through them; both
must agree with the whole-grid functions (``problems``, ``largest_black_region``) on every
candidate, valid or not, including blocks that cut the layout apart or leave a one-cell run.
Whitening finds a grown layout's runs around the whitened shape (``Layout.grown``) and
checks it there (``fine_after_whitening``): the same runs, in the same order, and the same
verdict as the whole grid's on every shape.  A blocked layout finds its runs around the new
blocks (``Layout.blocked_with``), and they are the whole grid's too.
"""

from __future__ import annotations

import random

import pytest

from kakurolab.generator.draw import published_layout
from kakurolab.generator.layout import (
    Layout,
    block_cascade,
    fine_after_blocking,
    fine_after_whitening,
    mirror,
    problems,
    runs_fit,
    segments,
)
from kakurolab.generator.whiten import shapes
from kakurolab.model import Cell
from kakurolab.shape import black_area_through, largest_black_region


def _layouts() -> list[tuple[Layout, bool]]:
    rng = random.Random(5)
    found = []
    for size, symmetric, frame in ((8, True, True), (12, False, False), (16, True, True)):
        for _ in range(3):
            layout = published_layout(size, size, rng, symmetric=symmetric, full_frame=frame)
            found.append((layout, symmetric))
    return found


LAYOUTS = _layouts()


def _removals(layout: Layout, rng: random.Random) -> list[set[Cell]]:
    """Single cells, mirror pairs, side-by-side pairs and random handfuls of white cells."""
    whites = sorted(layout.whites)
    found = [{cell} for cell in whites]
    found += [{cell, mirror(cell, layout.nrows, layout.ncols)} & layout.whites for cell in whites]
    found += [{(r, c), (r, c + 1)} for r, c in whites if (r, c + 1) in layout.whites]
    found += [set(rng.sample(whites, k)) for k in (3, 6, 12) for _ in range(40)]
    found.append(set(whites))
    return found


@pytest.mark.parametrize(("layout", "symmetric"), LAYOUTS)
def test_the_local_check_after_blocking_agrees_with_the_whole_grid(
    layout: Layout, symmetric: bool
) -> None:
    max_run = max(len(cells) for _, cells in layout.runs)
    assert layout.fine(max_run)
    answers = set()
    for removed in _removals(layout, random.Random(len(layout.whites))):
        smaller = layout.blocked_with(layout.whites - removed)
        whole = not problems(smaller, max_run=max_run)
        assert fine_after_blocking(layout, smaller, removed) == whole, sorted(removed)
        answers.add(whole)
    assert answers == {True, False}


@pytest.mark.parametrize(("layout", "symmetric"), LAYOUTS)
def test_block_cascade_keeps_only_valid_layouts(layout: Layout, symmetric: bool) -> None:
    max_run = max(len(cells) for _, cells in layout.runs)
    kept = 0
    for cell in sorted(layout.whites):
        found = block_cascade(layout, cell, max_run=max_run, symmetric=symmetric)
        if found is not None:
            smaller, removed = found
            assert smaller.whites == layout.whites - removed
            assert not problems(smaller, max_run=max_run)
            kept += 1
    assert kept


@pytest.mark.parametrize(("layout", "symmetric"), LAYOUTS)
def test_the_black_area_through_new_blocks_matches_the_whole_grid(
    layout: Layout, symmetric: bool
) -> None:
    rng = random.Random(len(layout.whites))
    cap = 8
    for _ in range(60):
        removed = set(rng.sample(sorted(layout.whites), rng.choice((1, 2, 4, 8))))
        whites = layout.whites - removed
        whole = largest_black_region(layout.nrows, layout.ncols, whites)
        local = max(
            layout.largest_black,
            black_area_through(layout.nrows, layout.ncols, whites, removed, cap),
        )
        assert (local > cap) == (whole > cap)
        if whole <= cap:
            assert local == whole


L_SHAPE = frozenset({(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3)})


@pytest.mark.parametrize(
    ("layout", "removed", "problem"),
    [
        # the two cells below a 2x3 block: what is left is a closed white rectangle
        (Layout(4, 4, L_SHAPE), {(3, 2), (3, 3)}, "closed off"),
        # the last row of a full-frame layout: the rest is fine, but that row is blank
        (Layout(5, 4, L_SHAPE | {(4, 2), (4, 3)}, True), {(4, 2), (4, 3)}, "row 5 has no white"),
    ],
)
def test_the_local_check_sees_closed_rectangles_and_blank_lines(
    layout: Layout, removed: set[Cell], problem: str
) -> None:
    assert layout.fine()
    smaller = layout.blocked_with(layout.whites - removed)
    assert [p for p in problems(smaller) if problem in p] == problems(smaller)
    assert not fine_after_blocking(layout, smaller, removed)


@pytest.mark.parametrize(("layout", "symmetric"), LAYOUTS)
def test_whitening_finds_the_grown_runs_and_verdict_locally(
    layout: Layout, symmetric: bool
) -> None:
    """Every whitening shape, and random handfuls of black cells (which may leave one-cell
    runs or pieces cut off from the rest)."""
    max_run = max(len(cells) for _, cells in layout.runs)
    assert layout.fine(max_run)
    rng = random.Random(len(layout.whites))
    blacks = sorted(
        (r, c)
        for r in range(1, layout.nrows)
        for c in range(1, layout.ncols)
        if (r, c) not in layout.whites
    )
    handfuls = [frozenset(rng.sample(blacks, k)) for k in (1, 3, 6) for _ in range(30)]
    verdicts = set()
    for shape in shapes(layout, symmetric) + handfuls:
        grown = layout.grown(shape)
        near = sorted({m for cell in shape for m in grown.lines_of(cell)[0]})
        walked = {cell: grown.lines_of(cell) for cell in near}  # before its runs are found
        assert list(grown.runs) == segments(grown.whites, grown.nrows, grown.ncols)
        fresh = Layout(layout.nrows, layout.ncols, grown.whites, layout.full_frame)
        assert grown.runs_of == fresh.runs_of
        assert walked == {cell: grown.lines_of(cell) for cell in near}  # from runs_of now
        if runs_fit(grown.whites, shape, max_run):
            whole = not problems(fresh, max_run=max_run)
            assert fine_after_whitening(layout, grown, shape, max_run) == whole, sorted(shape)
            verdicts.add(whole)
    assert True in verdicts


@pytest.mark.parametrize(("layout", "symmetric"), LAYOUTS)
def test_a_blocked_layout_finds_its_runs_around_the_blocks(layout: Layout, symmetric: bool) -> None:
    """Every cascade a blocking repair would try, and random handfuls of white cells (which
    may empty a run, leave one-cell runs or cut the layout apart): the runs found around
    the blocks are the whole grid's, in the same order."""
    rng = random.Random(len(layout.whites) + 1)
    whites = sorted(layout.whites)
    cascades = [block_cascade(layout, cell, symmetric=symmetric) for cell in whites[::3]]
    removed = [found[1] for found in cascades if found is not None]
    removed += [frozenset(rng.sample(whites, k)) for k in (1, 2, 5, 12) for _ in range(20)]
    assert len(removed) > 80
    for cells in removed:
        smaller = layout.blocked_with(layout.whites - cells)
        assert list(smaller.runs) == segments(smaller.whites, smaller.nrows, smaller.ncols)
        fresh = Layout(layout.nrows, layout.ncols, smaller.whites, layout.full_frame)
        assert smaller.runs_of == fresh.runs_of


STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def test_whitening_near_cells_keeps_the_shapes_that_touch_them() -> None:
    layout, symmetric = LAYOUTS[-1]
    near = set(sorted(layout.whites)[:12])
    every = shapes(layout, symmetric)
    close = shapes(layout, symmetric, near=near)
    assert close and set(close) <= set(every)
    touching = [
        shape
        for shape in every
        if any((r + dr, c + dc) in near for r, c in shape for dr, dc in STEPS)
    ]
    # a mirrored shape touches through either half; ``near`` lists the shapes whose first
    # half (the cells drawn before mirroring) touches
    assert set(close) <= set(touching) and len(close) >= len(touching) // 2
