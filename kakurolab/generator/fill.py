"""Fill a layout with digits: no repeat inside a run, every run's digit set allowed.

Each run keeps the digit sets its difficulty allows; a cell may take a digit only when both
of its runs still have an allowed set containing their placed digits plus that digit, so an
``easy`` fill is steered onto unique-partition sums from the start instead of being filtered
afterwards.  Digits are drawn in a weighted random order that prefers the sets the level
likes, most-constrained cell first (MRV).

Two searches share that board.  ``refill`` (and ``fill``, its whole-grid reference) is a
depth-first search: complete, so it suits the small regions a repair re-fills around fixed
cells, and ``refill`` looks only at the runs through the region.  ``fill_grid`` fills a
whole grid by conflict repair: when a cell has no digit left it frees the cells of its runs
(and some of their run-mates) and carries on, instead of backtracking chronologically.  On
large grids (30x30) a depth-first fill mostly fails deep down, far from the choice that
caused it; the conflict repair succeeds on most layouts within a few hundred conflicts.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache

from ..combos import ALL_DIGITS, combos, digits_of, sum_range
from ..model import Cell
from .layout import Layout, within


@lru_cache(maxsize=256)
def allowed_sets(length: int, allows: Callable[[int], bool]) -> tuple[int, ...]:
    """Every digit set of ``length`` digits that a level accepts (cached: a repair re-fills
    often, and recomputing this per run per fill was most of the generator's time)."""
    lo, hi = sum_range(length)
    return tuple(m for total in range(lo, hi + 1) for m in combos(length, total) if allows(m))


@lru_cache(maxsize=256)
def _open_memo(sets: tuple[int, ...]) -> dict[int, tuple[int, bool]]:
    """Placed digits -> (the digits still open, whether a set fits) for runs with ``sets``."""
    return {}


@lru_cache(maxsize=256)
def _best_memo(sets: tuple[int, ...], weight: Callable[[int], float]) -> dict[int, float]:
    """Digits placed -> the weight of the best set holding them, for runs with ``sets``."""
    return {}


_DIGIT_COUNT = [mask.bit_count() for mask in range(ALL_DIGITS + 1)]

SCAN_CELLS = 64
"""Up to this many open cells, :meth:`_Board.choose` looks at each instead of keeping a heap:
most re-fills open 5 to 30 cells, and re-ranking a run's cells after every placement cost
more than the look."""


class _Board:
    """A layout being filled: the digits placed and, per run, the digits still open.

    Cells are slots (their index in ``cells``) inside: the search places and frees a cell
    a million times in a 60x60 generation, and re-ranking a run's open cells by list
    index instead of through dicts keyed by cell tuples halves that cost."""

    def __init__(
        self,
        runs: list[tuple[Cell, ...]],
        runs_of: Mapping[Cell, tuple[int, ...]],
        cells: list[Cell],
        rng: random.Random,
        allows: Callable[[int], bool],
        weight: Callable[[int], float],
        forbid: Mapping[Cell, int] | None,
    ) -> None:
        """``runs`` (cells), ``cells`` (those the board may place: a layout's white cells,
        or a re-filled region's, ``refill``) and ``runs_of`` (each such cell's two runs,
        indexes into ``runs``)."""
        self.rng = rng
        self.runs = runs
        self.cells = cells
        self.slot = {cell: k for k, cell in enumerate(cells)}
        slot = self.slot
        self.pair = [runs_of[cell] for cell in cells]
        self.members = [tuple(slot[c] for c in run if c in slot) for run in runs]
        """Per run, the slots of its cells the board may place."""
        # Runs of one length share one set list, looked up once per length (a 60x60 board
        # has 1,500 runs and about eight lengths).
        lengths = {len(run) for run in runs}
        kinds = {n: allowed_sets(n, allows) for n in lengths}
        self.sets = [kinds[len(run)] for run in runs]
        self.weights = {m: weight(m) for options in kinds.values() for m in options}
        # What refresh and ranked compute from a run's sets and placed digits, remembered
        # per distinct set list across boards.
        opens = {n: _open_memo(options) for n, options in kinds.items()}
        bests = {n: _best_memo(options, weight) for n, options in kinds.items()}
        self.opens = [opens[len(run)] for run in runs]
        self.bests = [bests[len(run)] for run in runs]
        self.used = [0] * len(runs)
        self.union = [0] * len(runs)
        self.values: dict[Cell, int] = {}
        self.forbid = forbid or {}
        self.allow = [ALL_DIGITS & ~self.forbid.get(cell, 0) for cell in cells]
        n = len(cells)
        self.placed = [0] * n
        """Per slot, its digit (0: none)."""
        self.open = [False] * n
        self.rank = [0] * n
        # MRV in O(log n): open slots by (domain size, rank) in a heap; an entry is stale
        # once its slot is placed or its size changed (a fresh entry was pushed then).
        self.size = [0] * n
        self.heap: list[tuple[int, int, int]] = []
        self.by_rank: list[int] = []
        self.ranking = False
        """Whether :meth:`choose` keeps the open slots in a heap (more than
        :data:`SCAN_CELLS` of them) or looks at each (a re-fill's region)."""
        self.ok = all(self.refresh(i) for i in range(len(runs)))

    def refresh(self, i: int) -> bool:
        """Recompute the digits still open to run i; False when no allowed set fits."""
        u = self.used[i]
        known = self.opens[i].get(u)
        if known is None:
            acc = 0
            fits = False
            for m in self.sets[i]:
                if m & u == u:
                    acc |= m
                    fits = True
            known = self.opens[i][u] = (acc & ~u, fits)
        self.union[i] = known[0]
        return known[1]

    def domain(self, k: int) -> int:
        a, b = self.pair[k]
        return self.union[a] & self.union[b] & self.allow[k]

    def fix(self, fixed: Mapping[Cell, int] | None) -> bool:
        """Place the fixed digits (before ``start``); False when they do not fit.

        All at once, then each run's open digits once: placing them one by one, each
        revising its runs, was most of a repair's time once."""
        if not fixed:
            return True
        used, slot = self.used, self.slot
        for cell, digit in fixed.items():
            bit = 1 << (digit - 1)
            if self.forbid.get(cell, 0) & bit:
                return False
            k = slot[cell]
            for i in self.pair[k]:
                if used[i] & bit:
                    return False
                used[i] |= bit
            self.values[cell] = digit
            self.placed[k] = digit
        return all([self.refresh(i) for i in range(len(self.runs))])

    def start(self, cells: list[Cell]) -> None:
        """Open ``cells`` with a stable random tie-break: MRV stays deterministic yet varied
        between seeds."""
        order = sorted(cells)
        self.rng.shuffle(order)
        slot = self.slot
        self.by_rank = [slot[cell] for cell in order]
        for r, k in enumerate(self.by_rank):
            self.rank[k] = r
            self.open[k] = True
        self.ranking = len(order) > SCAN_CELLS
        if self.ranking:
            self.heap = [(self.domain(k).bit_count(), r, k) for r, k in enumerate(self.by_rank)]
            for size, _, k in self.heap:
                self.size[k] = size
            heapq.heapify(self.heap)

    def choose(self) -> int | None:
        """The open slot with the fewest digits left (ties: lowest rank), None when full."""
        if not self.ranking:
            return self._scan()
        heap, is_open, sizes = self.heap, self.open, self.size
        while heap:
            size, _, k = heap[0]
            if is_open[k] and sizes[k] == size:
                return k
            heapq.heappop(heap)
        return None

    def _scan(self) -> int | None:
        """:meth:`choose` by looking at every open slot in rank order: the first with the
        fewest digits."""
        is_open, union, pair, allow = self.open, self.union, self.pair, self.allow
        best, fewest = None, 10
        for k in self.by_rank:
            if is_open[k]:
                a, b = pair[k]
                size = _DIGIT_COUNT[union[a] & union[b] & allow[k]]
                if size < fewest:
                    best, fewest = k, size
                    if not size:
                        break
        return best

    def _touch(self, i: int) -> None:
        """Re-rank the open cells of run i after its open digits changed."""
        is_open, sizes, union, pair, allow = self.open, self.size, self.union, self.pair, self.allow
        for m in self.members[i]:
            if is_open[m]:
                a, b = pair[m]
                size = (union[a] & union[b] & allow[m]).bit_count()
                if size != sizes[m]:
                    sizes[m] = size
                    heapq.heappush(self.heap, (size, self.rank[m], m))

    def ranked(self, k: int) -> list[int]:
        """The slot's digits in weighted random order (preferred sets first, usually)."""
        scores: dict[int, float] = {}
        used, sets, weights, bests = self.used, self.sets, self.weights, self.bests
        for d in digits_of(self.domain(k)):
            bit = 1 << (d - 1)
            score = 1.0
            for i in self.pair[k]:
                u = used[i] | bit
                best = bests[i].get(u)
                if best is None:
                    best = bests[i][u] = max(
                        (weights[m] for m in sets[i] if m & u == u), default=0.0
                    )
                score *= best
            if score > 0:
                scores[d] = score
        # Exponential race: sorting by -log(U)/w draws a weighted random permutation.
        rng = self.rng
        return sorted(scores, key=lambda d: -math.log(1.0 - rng.random()) / scores[d])

    def place(self, k: int, digit: int) -> bool:
        self.values[self.cells[k]] = digit
        self.placed[k] = digit
        self.open[k] = False
        ok = True
        bit = 1 << (digit - 1)
        for i in self.pair[k]:
            self.used[i] |= bit
            ok = self.refresh(i) and ok
            if self.ranking:
                self._touch(i)
        return ok

    def unplace(self, k: int) -> None:
        del self.values[self.cells[k]]
        digit = self.placed[k]
        self.placed[k] = 0
        self.open[k] = True
        self.size[k] = -1  # forces a fresh heap entry below
        bit = ~(1 << (digit - 1))
        for i in self.pair[k]:
            self.used[i] &= bit
            self.refresh(i)
            if self.ranking:
                self._touch(i)


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
    """Digits for every white cell by depth-first search, or None when it fails within
    ``node_limit`` (the reference that ``refill``, which the generator uses, answers as).

    ``fixed`` cells keep their digits; ``forbid`` maps cells to masks of digits they must not
    take.  Deterministic for a given ``rng`` state.
    """
    board = _whole_board(layout, rng, allows, weight, forbid, fixed)
    return board.values if board is not None and _search(board, node_limit) else None


def _whole_board(
    layout: Layout,
    rng: random.Random,
    allows: Callable[[int], bool],
    weight: Callable[[int], float],
    forbid: Mapping[Cell, int] | None,
    fixed: Mapping[Cell, int] | None,
) -> _Board | None:
    """A board over every run of ``layout`` with the ``fixed`` cells placed and every other
    white cell open (``fill``, ``fill_grid``); None when the fixed cells do not fit."""
    runs = [cells for _, cells in layout.runs]
    board = _Board(runs, layout.runs_of, sorted(layout.whites), rng, allows, weight, forbid)
    if not board.ok or not board.fix(fixed):
        return None
    board.start([cell for cell in layout.whites if cell not in board.values])
    return board


def refill(
    layout: Layout,
    values: Mapping[Cell, int],
    region: Collection[Cell],
    rng: random.Random,
    *,
    allows: Callable[[int], bool] = lambda mask: True,
    weight: Callable[[int], float] = lambda mask: 1.0,
    forbid: Mapping[Cell, int] | None = None,
    node_limit: int = 20_000,
) -> dict[Cell, int] | None:
    """``fill`` with every white cell outside ``region`` fixed at ``values``, for a grid
    whose runs outside the region are a fill's (digits distinct, sets allowed): only the
    runs through the region are looked at, so the cost follows the region, not the grid
    (a repair or a whitening mend re-fills about 20 cells of a 60x60 grid's 2,500).  The
    same digits, in the same order, as ``fill`` draws with the same ``rng``."""
    forbid = forbid or {}
    if _kept_forbidden(values, region, forbid):
        return None
    whites = layout.whites
    open_cells = [cell for cell in region if cell in whites]
    lines = {cell: layout.lines_of(cell) for cell in open_cells}
    local: dict[tuple[Cell, ...], int] = {}
    for pair in lines.values():
        for line in pair:
            local.setdefault(line, len(local))
    runs = list(local)
    runs_of = {cell: (local[a], local[d]) for cell, (a, d) in lines.items()}
    board = _Board(runs, runs_of, open_cells, rng, allows, weight, forbid)
    if not board.ok or not _fix_outside(board, runs, values):
        return None
    board.start(open_cells)
    if not _search(board, node_limit):
        return None
    found = dict(values)  # a copy in C, then the region moved to the end: ``fill``'s order
    for cell in region:
        found.pop(cell, None)
    found.update(board.values)
    return found


def _kept_forbidden(
    values: Mapping[Cell, int], region: Collection[Cell], forbid: Mapping[Cell, int]
) -> bool:
    """Whether a cell outside ``region`` keeps a digit ``forbid`` bars it from."""
    for cell, mask in forbid.items():
        digit = values.get(cell)
        if cell not in region and digit is not None and mask >> (digit - 1) & 1:
            return True
    return False


def _fix_outside(board: _Board, runs: list[tuple[Cell, ...]], values: Mapping[Cell, int]) -> bool:
    """Give each run through the region the digits its cells outside it keep; False when a
    run repeats one of those or no allowed set holds them."""
    inside = board.slot
    for k, cells in enumerate(runs):
        used = 0
        for cell in cells:
            if cell not in inside:
                bit = 1 << (values[cell] - 1)
                if used & bit:
                    return False
                used |= bit
        board.used[k] = used
    return all([board.refresh(k) for k in range(len(runs))])


def _search(board: _Board, node_limit: int) -> bool:
    """Depth-first search from ``board``'s started cells; True when it filled them all
    (in ``board.values``) within ``node_limit`` nodes."""
    stack: list[tuple[int, list[int]]] = []
    nodes = 0
    k = board.choose()
    if k is None:
        return True
    stack.append((k, board.ranked(k)))
    placed = board.placed
    while stack:
        k, digits = stack[-1]
        if placed[k]:
            board.unplace(k)
        if not digits:
            stack.pop()
            continue
        nodes += 1
        if nodes > node_limit:
            return False
        digit = digits.pop(0)
        if not board.place(k, digit):
            continue
        nxt = board.choose()
        if nxt is None:
            return True
        if board.domain(nxt):
            stack.append((nxt, board.ranked(nxt)))
    return False


ESCALATE = 0
"""Off (0, generator 3.2) by default: a dead end frees its two runs and some of their
run-mates, every time.  On (generator 3.4 turns it on for large grids only, through
``fill_grid``'s ``escalate``: it changes the puzzles of every seed that met a failed fill): the
``ESCALATE``-th dead end at one cell, and each after, frees every cell within ``1 + k //
ESCALATE`` run steps of it.  Failed fills spend their conflicts on one cell: 45x45 normal
fills that ran out had up to 2,759 of 2,773 dead ends at a single cell, rebuilt from the same
neighbours, and at 60x60 three fills in 28 succeeded (20x20: 5 in 8)."""


def fill_grid(
    layout: Layout,
    rng: random.Random,
    *,
    allows: Callable[[int], bool] = lambda mask: True,
    weight: Callable[[int], float] = lambda mask: 1.0,
    fixed: Mapping[Cell, int] | None = None,
    max_conflicts: int | None = None,
    spread: float = 0.3,
    dead_ends: dict[Cell, int] | None = None,
    escalate: int | None = None,
) -> dict[Cell, int] | None:
    """Digits for every white cell by conflict repair, or None after ``max_conflicts``
    (default: twice the open cells) dead ends.  ``dead_ends``, when given, counts the dead
    ends per cell: where a layout resists its level, for a caller that reshapes it.
    ``escalate``: as :data:`ESCALATE` (the default) for this fill.

    A cell left with no digit frees the placed cells of its two runs, and each run-mate of
    those with probability ``spread`` (freeing only the runs tends to rebuild the same dead
    end).  ``fixed`` cells are never freed.  Deterministic for a given ``rng`` state.
    """
    board = _whole_board(layout, rng, allows, weight, None, fixed)
    if board is None:
        return None
    keep = set(fixed or {})
    limit = 2 * sum(board.open) if max_conflicts is None else max_conflicts
    conflicts = 0
    again: dict[Cell, int] = {}  # dead ends per cell (``ESCALATE``)
    escalate = ESCALATE if escalate is None else escalate
    runs_of, slot = layout.runs_of, board.slot
    while True:
        k = board.choose()
        if k is None:
            return board.values
        digits = board.ranked(k)
        if digits:
            board.place(k, digits[0])
            continue
        cell = board.cells[k]
        conflicts += 1
        if dead_ends is not None:
            dead_ends[cell] = dead_ends.get(cell, 0) + 1
        if conflicts > limit:
            return None
        again[cell] = again.get(cell, 0) + 1
        if escalate and again[cell] >= escalate:
            # The same dead end keeps coming back: free a ball of cells around it, wider
            # each time, instead of rebuilding it from the same neighbours.
            freed = within(layout, [cell], 1 + again[cell] // escalate)
            freed = {m for m in freed if m in board.values and m not in keep}
        else:
            freed = _freed_around(board, runs_of, cell, keep, rng, spread)
        if not freed:
            return None  # boxed in by fixed cells
        for mate in sorted(freed):
            board.unplace(slot[mate])


def _freed_around(
    board: _Board,
    runs_of: Mapping[Cell, tuple[int, ...]],
    cell: Cell,
    keep: set[Cell],
    rng: random.Random,
    spread: float,
) -> set[Cell]:
    """The placed cells of a dead end's two runs, and each placed run-mate of those with
    probability ``spread`` (freeing only the runs tends to rebuild the same dead end)."""
    runs, placed = board.runs, board.values
    freed = {m for i in runs_of[cell] for m in runs[i] if m in placed and m not in keep}
    for mate in sorted(freed):
        for i in runs_of[mate]:
            for other in runs[i]:
                if other in placed and other not in keep and rng.random() < spread:
                    freed.add(other)
    return freed
