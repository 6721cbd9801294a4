"""Denser layouts after the fact: whiten black cells of a finished puzzle while it still
passes every gate.

Published puzzles are about 0.73 white in the interior; the generator's layouts end at
0.65-0.71 once long runs are cut and blocking repairs have run, and drawing denser layouts
from the start made generation 5-50 times slower (branch ``share70``, docs/generator.md):
denser grids are more ambiguous, and a white floor takes away the repair of last resort.
A finished unique puzzle can be made denser cheaply instead.  A black cell with white cells
on both axes joins their runs when it turns white; given a digit none of its merged runs
holds, the grid keeps every clue rule, and the change is kept when the puzzle passes the
generator's gates again (unique, solved by deduction, at its level: the caller's
``keeps``).  Cells go in mirror pairs, so half-turn symmetry holds; black areas only
shrink and two-cell runs only merge into longer ones, so the other look figures do not
get worse.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from itertools import product

from ..model import Cell
from .layout import Layout, mirror, problems

DIGIT_TRIES = 6
"""Digit choices tried per candidate (a pair of cells has up to 81)."""

Keeps = Callable[[Layout, dict[Cell, int]], bool]
"""Whether a grown layout with its digits still passes the generator's gates."""


def whiten(
    layout: Layout,
    values: Mapping[Cell, int],
    rng: random.Random,
    goal: float,
    keeps: Keeps,
    *,
    max_run: int,
    symmetric: bool = True,
) -> tuple[Layout, dict[Cell, int], int]:
    """Whiten candidates (in ``rng``'s order) until the interior white share reaches
    ``goal`` or none is left: the layout, its digits and how many candidates were kept."""
    values = dict(values)
    nrows, ncols = layout.nrows, layout.ncols
    interior = [(r, c) for r in range(1, nrows) for c in range(1, ncols)]
    candidates = sorted(
        {min(cell, mirror(cell, nrows, ncols)) if symmetric else cell for cell in interior}
        - layout.whites
    )
    rng.shuffle(candidates)
    kept = 0
    progress = True
    while progress:  # a whitened cell changes its runs: earlier misses may fit now
        progress = False
        for cell in candidates:
            if len(layout.whites) >= goal * layout.interior:
                return layout, values, kept
            pair = frozenset({cell, mirror(cell, nrows, ncols)} if symmetric else {cell})
            grown = Layout(nrows, ncols, layout.whites | pair, layout.full_frame)
            if pair & layout.whites or problems(grown, max_run=max_run):
                continue
            for digits in _digit_choices(grown, values, sorted(pair), rng):
                trial = {**values, **digits}
                if keeps(grown, trial):
                    layout, values = grown, trial
                    kept += 1
                    progress = True
                    break
        candidates = [cell for cell in candidates if cell not in layout.whites]
    return layout, values, kept


def _digit_choices(
    grown: Layout, values: Mapping[Cell, int], cells: list[Cell], rng: random.Random
) -> Iterator[dict[Cell, int]]:
    """Up to :data:`DIGIT_TRIES` digit assignments of ``cells`` that repeat no digit in any
    run through them (none when a merged run already repeats one)."""
    options: list[list[int]] = []
    for cell in cells:
        held: set[int] = set()
        for i in grown.runs_of[cell]:
            digits = [values[c] for c in grown.runs[i][1] if c not in cells]
            if len(set(digits)) < len(digits):
                return
            held.update(digits)
        options.append([d for d in range(1, 10) if d not in held])
    shared = len(cells) == 2 and bool(set(grown.runs_of[cells[0]]) & set(grown.runs_of[cells[1]]))
    choices = [
        dict(zip(cells, digits, strict=True))
        for digits in product(*options)
        if not (shared and digits[0] == digits[1])
    ]
    rng.shuffle(choices)
    yield from choices[:DIGIT_TRIES]
