"""A layout's propagator built from its runs (``Propagator.numeric``, generator speed,
issue 27) is the one its puzzle gives: every table, every root, on fresh and grown layouts.

``LayoutPropagators`` builds the propagator of each new layout the generator checks from
the layout's runs and totals instead of from a puzzle, and leaves out cut sums (a grid with
a fill never has clue totals that fail to balance).  Both must change nothing: the
structure must equal ``Propagator(puzzle, cut_sums=False)``'s, slot for slot and run for
run, and the roots must equal those of ``Propagator(puzzle)`` with cut sums, for the
grids the generator checks (digits distinct in every run).
"""

from __future__ import annotations

import random

import pytest

from kakurolab.generator.clues import build_puzzle
from kakurolab.generator.draw import published_layout
from kakurolab.generator.fill import fill_grid
from kakurolab.generator.layout import Layout, whitened
from kakurolab.generator.region_search import LayoutPropagators
from kakurolab.generator.steering import get_difficulty
from kakurolab.generator.whiten import shapes
from kakurolab.model import Cell
from kakurolab.propagation import Propagator

STRUCTURE = (
    "cells", "n_cells", "cryptic", "base", "run_cells", "cell_runs", "letter_runs", "reach",
    "fixed", "kind", "clue_slots", "cell_letter", "letter_cells", "order", "initial",
    "letter_slots",
)  # fmt: skip


def _grids() -> list[tuple[Layout, dict[Cell, int]]]:
    """Filled published layouts of three sizes, and grown ones: each with a whitening
    shape added (its new cells given digits no run through them holds yet, or none)."""
    rng = random.Random(11)
    found = []
    for size, level in ((8, "easy"), (12, "hard"), (20, "normal")):
        for _ in range(2):
            layout = published_layout(size, size, rng, white_share=0.7, max_run=7)
            values = fill_grid(layout, rng, allows=get_difficulty(level).allows)
            assert values is not None
            found.append((layout, values))
            options = shapes(layout, True)
            rng.shuffle(options)
            grown_count = 0
            for shape in options:
                grown = whitened(layout, shape, 9)
                if grown is None:
                    continue
                digits = _distinct_digits(grown, values, sorted(shape), rng)
                if digits is not None:
                    found.append((grown, {**values, **digits}))
                    grown_count += 1
                if grown_count == 3:
                    break
            assert grown_count
    return found


def _distinct_digits(
    layout: Layout, values: dict[Cell, int], cells: list[Cell], rng: random.Random
) -> dict[Cell, int] | None:
    """Digits for ``cells`` that repeat none in any run of ``layout`` (None: none found)."""
    digits: dict[Cell, int] = {}
    for cell in cells:
        held = {
            {**values, **digits}.get(mate)
            for i in layout.runs_of[cell]
            for mate in layout.runs[i][1]
            if mate != cell
        }
        free = [d for d in range(1, 10) if d not in held]
        if not free:
            return None
        digits[cell] = rng.choice(free)
    return digits


GRIDS = _grids()


@pytest.mark.parametrize(("layout", "values"), GRIDS)
def test_a_layouts_propagator_is_its_puzzles(layout: Layout, values: dict[Cell, int]) -> None:
    built = LayoutPropagators().of(layout, values)
    puzzle = build_puzzle(layout, values)
    fresh = Propagator(puzzle, cut_sums=False)
    for name in STRUCTURE:
        assert getattr(built, name) == getattr(fresh, name), name
    assert all(a is b for a, b in zip(built.tables, fresh.tables, strict=True))
    state = [random.Random(r).randrange(1, 512) for r in range(built.n_cells)]
    assert [get(state) for get in built.run_get] == [get(state) for get in fresh.run_get]
    assert built.root() == fresh.root() == Propagator(puzzle).root()
    assert not Propagator(puzzle).refuted  # a filled grid's totals balance
    assert built.puzzle.grid == puzzle.grid  # built on demand only


def test_the_propagators_of_a_layouts_grids_follow_their_digits() -> None:
    """One layout, one-digit changes that keep every run's digits distinct (the generator's
    repairs), then a grown layout: each grid's root is its puzzle's, and open cells are
    left open the same way."""
    rng = random.Random(4)
    grids = LayoutPropagators()
    layout, values = GRIDS[2]
    compared = opened = 0
    for cell in sorted(values)[:: max(1, len(values) // 25)]:
        held = {values[m] for i in layout.runs_of[cell] for m in layout.runs[i][1] if m != cell}
        free = [d for d in range(1, 10) if d not in held and d != values[cell]]
        if not free:
            continue
        values = {**values, cell: rng.choice(free)}
        root = grids.of(layout, values).root()
        assert root == Propagator(build_puzzle(layout, values)).root()
        compared += 1
        opened += root is not None and any(m & (m - 1) for m in root)
    assert compared > 10
    assert opened  # some changes leave cells open to propagation
    for grown, digits in GRIDS[3:6]:
        assert grids.of(grown, digits).root() == Propagator(build_puzzle(grown, digits)).root()
