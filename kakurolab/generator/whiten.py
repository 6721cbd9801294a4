"""Denser layouts after the fact: whiten black cells of a finished puzzle while it still
passes every gate.

Published puzzles are about 0.71-0.73 white in the interior; the generator's layouts end at
0.65-0.71 once long runs are cut and blocking repairs have run, and drawing denser layouts
from the start made generation 5-50 times slower (branch ``share70``, docs/generator.md):
denser grids are more ambiguous, and a white floor takes away the repair of last resort.
A finished unique puzzle can be made denser cheaply instead.  A black cell (or two side by
side, where one alone would make a one-cell run) joins the runs around it when it turns
white; given digits none of its merged runs holds, the grid keeps every clue rule, and the
change is kept when the puzzle passes the generator's gates again (unique, solved by
deduction, at its level: the caller's ``keeps``).  When no digit passes, the caller's
``mend`` may re-fill the merged runs and repair the grown grid (the generator's repair
loop, on a small budget): a merged run may repeat a digit or break the level's cap on clue
ambiguity, and a longer run is often ambiguous only until a digit or two nearby change.
Cells go with their mirror images, so half-turn symmetry holds; black areas only shrink
and two-cell runs only merge into longer ones, so the other look figures do not get worse.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Iterator, Mapping
from itertools import islice, product

from ..model import Cell
from .layout import Layout, line_through, mirror, whitened, within

DIGIT_TRIES = 6
"""Digit choices tried per candidate, the best drawn of up to :data:`COMBOS`."""

MEND_STEPS = 3
"""How far mends reach, in run steps from the whitened cells: the merged runs (1), then
also the runs crossing them (2), and one step further (3), each reach in passes of its own
after the digits-only passes (30x30 expert: a mend costs about 0.2 s, one in ten works)."""

COMBOS = 400
"""Digit combinations weighed per candidate (two side-by-side pairs have up to 9^4)."""

Keeps = Callable[[Layout, dict[Cell, int]], bool]
"""Whether a grown layout with its digits still passes the generator's gates."""

Mend = Callable[[Layout, dict[Cell, int], set[Cell]], "tuple[Layout, dict[Cell, int]] | None"]
"""``mend(grown, values, region)``: a grown grid that passes the gates with new digits in
``region`` (cells around the whitened ones; ``values`` has no digits for those) and
perhaps repairs elsewhere, or None."""


def whiten(
    layout: Layout,
    values: Mapping[Cell, int],
    rng: random.Random,
    goal: float,
    keeps: Keeps,
    mend: Mend | None = None,
    *,
    max_run: int,
    symmetric: bool = True,
    weight: Callable[[int], float] = lambda mask: 1.0,
    on_keep: Callable[[Layout, dict[Cell, int]], None] | None = None,
) -> tuple[Layout, dict[Cell, int], int]:
    """Whiten candidates (in ``rng``'s order) until the interior white share reaches
    ``goal`` or none is left: the layout, its digits and how many candidates were kept.
    ``weight`` rates a run's digit set as the level does (0: not allowed); digit choices
    are drawn in that preference, so a merged run tends to stay in the level's band.
    ``on_keep`` hears of each kept grid right after the ``keeps`` or ``mend`` call that
    made it."""
    values = dict(values)
    candidates = shapes(layout, symmetric)
    rng.shuffle(candidates)
    kept = 0
    # Digits alone first (one check a try); mends (a re-fill and a few repair rounds each)
    # only for what is still short of the goal after that, the merged runs before the
    # wider regions around them.
    for steps in range(MEND_STEPS + 1 if mend is not None else 1):
        progress = True
        while progress:  # a whitened cell changes its runs: earlier misses may fit now
            progress = False
            for shape in candidates:
                if len(layout.whites) >= goal * layout.interior:
                    return layout, values, kept
                if shape & layout.whites:  # a shape whitened earlier in this pass overlaps
                    continue
                grown = whitened(layout, shape, max_run)
                if grown is None:
                    continue
                trials = [
                    {**values, **digits}
                    for digits in _digit_choices(grown, values, sorted(shape), rng, weight)
                ]
                found = next(((grown, trial) for trial in trials if keeps(grown, trial)), None)
                if found is None and steps and mend is not None:
                    found = mend(grown, values, within(grown, shape, steps))
                if found is not None and len(found[0].whites) > len(layout.whites):
                    layout, values = found
                    kept += 1
                    progress = True
                    if on_keep is not None:
                        on_keep(layout, values)
            candidates = [shape for shape in candidates if not shape & layout.whites]
    return layout, values, kept


def shapes(
    layout: Layout, symmetric: bool, near: Collection[Cell] | None = None
) -> list[frozenset[Cell]]:
    """The cells whitened together, in a fixed order: each black interior cell, and each
    pair of side-by-side black cells (a cell alone between blocks on one axis would make a
    one-cell run there; two make a run of two), with their mirror images when
    ``symmetric``; with ``near``, only those that touch one of its cells."""
    nrows, ncols = layout.nrows, layout.ncols

    def black(cell: Cell) -> bool:
        return 0 < cell[0] < nrows and 0 < cell[1] < ncols and cell not in layout.whites

    if near is None:
        starts = [(r, c) for r in range(1, nrows) for c in range(1, ncols)]
    else:
        starts = sorted(
            {(r + dr, c + dc) for r, c in near for dr in range(-2, 3) for dc in range(-2, 3)}
        )
    touching = None if near is None else set(near)
    found: set[frozenset[Cell]] = set()
    for r, c in starts:
        if not black((r, c)):
            continue
        for cells in ({(r, c)}, {(r, c), (r, c + 1)}, {(r, c), (r + 1, c)}):
            if not all(black(cell) for cell in cells):
                continue
            if touching is not None and not any(
                (r2 + dr, c2 + dc) in touching
                for r2, c2 in cells
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            ):
                continue
            mirrored = {mirror(cell, nrows, ncols) for cell in cells} if symmetric else set()
            found.add(frozenset(cells | mirrored))
    return sorted(found, key=sorted)


def _digit_choices(
    grown: Layout,
    values: Mapping[Cell, int],
    cells: list[Cell],
    rng: random.Random,
    weight: Callable[[int], float],
) -> Iterator[dict[Cell, int]]:
    """Up to :data:`DIGIT_TRIES` digit assignments of ``cells`` that repeat no digit in any
    run through them (none when a merged run already repeats one), in a random order
    weighted by ``weight`` of the runs' digit sets (an exponential race, as the fill
    draws digits)."""
    lines = _lines_through(grown.whites, cells)
    runs = sorted({run for cell in cells for run in lines[cell]})  # as in grown.runs
    held: dict[_Line, int] = {}  # run -> mask of the digits it keeps
    for run in runs:
        others = [values[c] for c in run[1] if c not in cells]
        if len(set(others)) < len(others):
            return
        held[run] = sum(1 << (d - 1) for d in others)
    options = [
        [d for d in range(1, 10) if not any(held[run] >> (d - 1) & 1 for run in lines[c])]
        for c in cells
    ]
    scored: list[tuple[float, dict[Cell, int]]] = []
    for option in options:
        rng.shuffle(option)
    for digits in islice(product(*options), COMBOS):
        masks = dict(held)
        repeat = False
        for cell, d in zip(cells, digits, strict=True):
            for run in lines[cell]:
                repeat = repeat or bool(masks[run] >> (d - 1) & 1)
                masks[run] |= 1 << (d - 1)
        score = 0.0 if repeat else math.prod(weight(m) for m in masks.values())
        if score > 0:
            race = -math.log(1.0 - rng.random()) / score
            scored.append((race, dict(zip(cells, digits, strict=True))))
    scored.sort(key=lambda item: item[0])
    yield from (choice for _, choice in scored[:DIGIT_TRIES])


_Line = tuple[int, tuple[Cell, ...]]
"""A run as ``(0 across or 1 down, its cells)``: sorted, runs come in ``Layout.runs`` order."""


def _lines_through(whites: Collection[Cell], cells: list[Cell]) -> dict[Cell, tuple[_Line, _Line]]:
    """Each cell's across and down run, walked on the grid: a grown layout's
    ``runs_of`` maps all its 2,400 cells (60x60), and most grown layouts whitening tries
    need the runs through their new cells only."""
    return {
        cell: ((0, line_through(whites, cell, (0, 1))), (1, line_through(whites, cell, (1, 0))))
        for cell in cells
    }
