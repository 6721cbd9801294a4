"""Fill a layout with digits: no repeat inside a run, every run's digit set allowed.

The fill is a randomized depth-first search over cells, most-constrained cell first (MRV).
Each run keeps the digit sets its difficulty allows; a cell may take a digit only when both
of its runs still have an allowed set containing their placed digits plus that digit, so an
``easy`` fill is steered onto unique-partition sums from the start instead of being filtered
afterwards.  Digits are tried in a weighted random order that prefers the sets the level
likes.  Fixed cells and forbidden digits let the generator re-fill a small region to repair
an ambiguous puzzle.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from functools import lru_cache

from ..combos import ALL_DIGITS, combos, digits_of, sum_range
from ..model import Cell
from .layout import Layout


@lru_cache(maxsize=256)
def allowed_sets(length: int, allows: Callable[[int], bool]) -> tuple[int, ...]:
    """Every digit set of ``length`` digits that a level accepts (cached: a repair re-fills
    often, and recomputing this per run per fill was most of the generator's time)."""
    lo, hi = sum_range(length)
    return tuple(m for total in range(lo, hi + 1) for m in combos(length, total) if allows(m))


def fill(
    layout: Layout,
    rng: random.Random,
    *,
    allows: Callable[[int], bool] = lambda mask: True,
    weight: Callable[[int], float] = lambda mask: 1.0,
    fixed: Mapping[Cell, int] | None = None,
    forbid: Mapping[Cell, int] | None = None,
    node_limit: int = 20_000,
) -> dict[Cell, int] | None:
    """Digits for every white cell, or None when the search fails within ``node_limit``.

    ``fixed`` cells keep their digits; ``forbid`` maps cells to masks of digits they must not
    take.  Deterministic for a given ``rng`` state.
    """
    runs = [cells for _, cells in layout.runs]
    runs_of = layout.runs_of
    sets = [allowed_sets(len(cells), allows) for cells in runs]
    weights = {m: weight(m) for options in set(sets) for m in options}
    used = [0] * len(runs)
    union = [0] * len(runs)
    values: dict[Cell, int] = {}
    forbid = forbid or {}

    def refresh(i: int) -> bool:
        """Recompute the digits still open to run i; False when no allowed set fits."""
        u = used[i]
        acc = 0
        fits = False
        for m in sets[i]:
            if m & u == u:
                acc |= m
                fits = True
        union[i] = acc & ~u
        return fits

    def domain(cell: Cell) -> int:
        a, b = runs_of[cell]
        return union[a] & union[b] & ~forbid.get(cell, 0) & ALL_DIGITS

    for i in range(len(runs)):
        if not refresh(i):
            return None
    for cell, digit in sorted((fixed or {}).items()):
        bit = 1 << (digit - 1)
        if not domain(cell) & bit:
            return None
        values[cell] = digit
        for i in runs_of[cell]:
            used[i] |= bit
            if not refresh(i):
                return None

    # A stable random tie-break keeps MRV deterministic yet varied between seeds.
    order = sorted(cell for cell in layout.whites if cell not in values)
    rng.shuffle(order)
    rank = {cell: i for i, cell in enumerate(order)}
    open_cells = set(order)

    def choose() -> Cell | None:
        best, best_key = None, (10, 0)
        for cell in open_cells:
            key = (domain(cell).bit_count(), rank[cell])
            if key < best_key:
                best, best_key = cell, key
        return best

    def ranked(cell: Cell) -> list[int]:
        """The cell's digits in weighted random order (preferred sets first, usually)."""
        scores: dict[int, float] = {}
        dom = domain(cell)
        for d in digits_of(dom):
            bit = 1 << (d - 1)
            score = 1.0
            for i in runs_of[cell]:
                u = used[i] | bit
                score *= max((weights[m] for m in sets[i] if m & u == u), default=0.0)
            if score > 0:
                scores[d] = score
        # Exponential race: sorting by -log(U)/w draws a weighted random permutation.
        return sorted(scores, key=lambda d: -math.log(1.0 - rng.random()) / scores[d])

    def place(cell: Cell, digit: int) -> bool:
        values[cell] = digit
        open_cells.discard(cell)
        ok = True
        for i in runs_of[cell]:
            used[i] |= 1 << (digit - 1)
            ok = refresh(i) and ok
        return ok

    def unplace(cell: Cell) -> None:
        digit = values.pop(cell)
        open_cells.add(cell)
        for i in runs_of[cell]:
            used[i] &= ~(1 << (digit - 1))
            refresh(i)

    stack: list[tuple[Cell, list[int]]] = []
    nodes = 0
    cell = choose()
    if cell is None:
        return values
    stack.append((cell, ranked(cell)))
    while stack:
        cell, digits = stack[-1]
        if cell in values:
            unplace(cell)
        if not digits:
            stack.pop()
            continue
        nodes += 1
        if nodes > node_limit:
            return None
        digit = digits.pop(0)
        if not place(cell, digit):
            continue
        nxt = choose()
        if nxt is None:
            return values
        if domain(nxt):
            stack.append((nxt, ranked(nxt)))
    return None
