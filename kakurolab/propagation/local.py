"""Local search for numeric puzzles: finds grids fast where clues leave many, proves nothing.

On a loose grid (clues copied from one random fill, so thousands of grids fit) the complete
searches fail for a reason that has nothing to do with the answer's rarity: an early choice
dooms a distant corner, and even learned clauses need tens of thousands of decisions to
find the way back (a 1,095-cell loose grid: no grid in 120 s).  Local search never commits:

1. **Every sum at once.**  Digits with every run's sum right are a flow problem (across runs
   feed cells, cells feed down runs, a cell carries its digit within its root domain's
   range), so one maximum flow (networkx) gives a start where only repeated digits (and
   strays, below) are wrong.  If the flow cannot meet every clue, no grid exists; the
   search stops (the complete searches say so).
2. **Moves that keep every sum.**  A digit changed by ``+d`` is paid back along an
   alternating cycle (``-d`` in its across run, ``+d`` in that cell's down run, and so on,
   back to the first cell's down run), found breadth first; a move that leaves more conflicts
   is taken with a probability that falls with how much worse it is (annealing at a fixed
   temperature).  A conflict is a repeated digit, or a *stray*: the flow knows each cell's
   range only, so a cell whose root domain is {7, 9} may start at 8 (59 cells of the
   2,497-cell loose grid do); moves only ever take a cell to a digit of its domain.  Now
   and then a move instead gives a whole run in conflict a digit set that fits, changing up
   to :data:`RESET_CELLS` of its cells at once and paying each change back along an
   alternating chain (:meth:`Walk.reset`), and runs that stay in conflict gain weight in
   the score (:data:`WEIGHT_EVERY`): a cycle move changes two cells of a run, and some runs
   need three.
3. **Exact repair of the last conflicts.**  Local search gets within a few runs of a grid
   and stalls there, so every :data:`REPAIR_EVERY` moves with few conflicts left, the learning
   search is run on a region around them (the rest of the grid fixed), the region doubling
   until it holds a grid or the budget of the try is spent.  The search tries the walk's
   digits first (its phase saving seeded with them: solution-guided search); without that,
   one walk in three on a 1,095-cell loose grid found a grid within 40 s, with it three in
   three (3.5, 3.5 and 35 s, two walks sharing the 2 cores).
   Before that, every :data:`MEND_EVERY` moves with at most :data:`MEND_CONFLICTS` runs in
   conflict, each such run is *mended* on its own (:meth:`Walk.mend`): a growing region
   around it, only the runs touching the region checked (``learning.search(runs=)``), so
   the other conflicts held outside do not refute it, and every mend that works is kept.

After the first grid, :func:`search` keeps finding new ones the same way a puzzle author
would: it frees a region around a random run of a known grid and asks the learning search
for every grid of that region but the known one.  On a loose grid a small region almost
always has a second filling, which refutes uniqueness in milliseconds.

All of it is driven by one seeded :class:`random.Random`: the same seed reaches the same grids.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations

from ..combos import combos, digits_of
from ..model import Direction
from . import learning
from .flow import flow_start
from .propagator import Propagator
from .protocol import Clock, Found, Key, budgeted, spent_or
from .roots import held_at

TEMPERATURE = 1.0
"""Annealing temperature: a move adding ``k`` conflicts is taken with probability
``exp(-k / TEMPERATURE)`` (0.37 for one more, 0.14 for two).  Walks on loose grids stall with
a handful of conflicts left; at 0.6 (the first setting) the 2,497-cell loose grid's walks
stalled at 7-14 runs in conflict, at 1.0 at 3-6 (four seeds each, 40 s).  With this setting,
strays counted as conflicts and the cheaper cycle search, the 1,095-cell grid's search found
two grids for four seeds of four within 40 CPU s (median 6 s) against three of four before."""

START_SECONDS_PER_CELL = 1.2e-4
"""About what the flow start (``flow.flow_start``, networkx's preflow push) costs per cell, which
it spends without looking at the clock: 0.9 s on the 8,780-cell pattern grid on a 2-core
machine.  :func:`start_seconds` tells a caller with a deadline whether to begin."""

MEND_EVERY = 1000
"""Moves between two mends (each run in conflict repaired on its own, see :meth:`Walk.mend`)."""

MEND_CONFLICTS = 30
"""A mend is only tried with at most this many runs in conflict."""

MEND_REGIONS = (50, 100, 200, 400, 800)
"""Cells freed around one run in conflict by the successive tries of a mend."""

MEND_DECISIONS = 2
"""Learning-search decisions a mend's region gets per cell freed."""

REPAIR_EVERY = 2000
"""Moves between two exact repairs of the conflicts left."""

REPAIR_CONFLICTS = 8
"""An exact repair is only tried with at most this many runs in conflict (a region around
more would be most of the grid)."""

REGIONS = (200, 400, 800, 1600)
"""Cells freed by the successive repairs of one try (whole runs, grown breadth first)."""

REPAIR_DECISIONS = 500
"""Learning-search decisions the smallest repair region gets (a region twice as large gets
twice as many) before the next, larger one."""

NEIGHBOUR_REGIONS = (24, 48, 96, 192)
"""Cells freed around a known grid when looking for another one."""

RESET_CELLS = 4
"""Most cells of a run a re-set may change (their digit orders are tried in full)."""

CYCLE_LENGTH = 200
"""Longest alternating chain a move may change (cells).  At 40 (until 2026-12-02) the walks
on ``loose-60x60`` froze with four runs in conflict: from their cells, every one of 2,138
cycle searches found no cycle that short, so no move was left to try."""

WEIGHT_EVERY = 100
"""Moves between two raises of the weight of every run in conflict (a breakout scheme: a
move is judged by its runs' conflicts times their weights, so a conflict that stays becomes
worth removing at the price of a few lighter ones elsewhere)."""

RESET_SHARE = 0.1
"""Share of moves that re-set a run in conflict to a fitting digit set (:meth:`Walk.reset`).
A cycle move changes two cells of a run; a run such as 7, 6, 1, 1, 4 (sum 19, the last cell
4, 5 or 7) needs three changed at once (2, 9, 1, 3, 4), and a walk of cycle moves stayed
with that one run in conflict for minutes.  With the three settings, local search alone
found two grids of ``loose-60x60`` for five seeds of five in 31-52 CPU s (none within
120 s before)."""


@dataclass
class LocalStats:
    """What the local search counts, shared with its caller (read them while it runs)."""

    moves: int = 0
    repairs: int = 0
    repair_decisions: int = 0
    neighbourhoods: int = 0

    @property
    def work(self) -> int:
        """Moves, region searches and their decisions: the unit the native portfolio slices
        by (a region that propagation settles costs no decision, but it still costs)."""
        return self.moves + self.repairs + self.repair_decisions


def applies(propagator: Propagator) -> bool:
    """Numeric puzzles whose every run has a clue and every cell one across and one down
    run: the flow start needs both."""
    if propagator.cryptic or any(len(runs) != 2 for runs in propagator.cell_runs):
        return False
    return all(sums & (sums - 1) == 0 for sums in propagator.fixed)


def start_seconds(propagator: Propagator) -> float:
    """Seconds the first step of :func:`search` may take before it can stop (its flow
    start), estimated from the cells."""
    return START_SECONDS_PER_CELL * propagator.n_cells


def search(
    propagator: Propagator,
    start: list[int] | None = None,
    *,
    node_limit: int | None = None,
    stats: LocalStats | None = None,
    out_of_time: Callable[[], bool] | None = None,
    seed: int = 0,
) -> Iterator[Found | None]:
    """Yield grids of the puzzle inside ``start`` (default: the root fixpoint), each once, or
    ``None`` when ``out_of_time()`` says so (resuming goes on) or ``node_limit`` units of
    :attr:`LocalStats.work` are spent (``None`` from then on; the budget is looked at when
    the clock is).  It never ends on its own unless the puzzle does not suit it
    (:func:`applies`) or no grid exists (propagation or the flow refutes it):
    incompleteness is the caller's to handle."""
    stats = LocalStats() if stats is None else stats
    if node_limit is None:
        return _search(propagator, start, stats, out_of_time, seed)
    stop = spent_or(stats, node_limit, out_of_time)
    return budgeted(_search(propagator, start, stats, stop, seed), stats, node_limit)


def _search(
    propagator: Propagator,
    start: list[int] | None,
    stats: LocalStats,
    out_of_time: Callable[[], bool] | None,
    seed: int,
) -> Iterator[Found | None]:
    """:func:`search` without a budget."""
    root = _start(propagator, start)
    if root is None:
        return
    walk = Walk(propagator, root, random.Random(seed), stats)
    if not walk.start():
        return
    tick = Clock(out_of_time)
    yield from _first_grid(walk, tick)
    known: list[Key] = [walk.key()]
    yield known[0], ()
    while True:
        grid = known[walk.rng.randrange(len(known))]
        other = yield from walk.neighbour(grid, tick)
        if other is not None and other not in known:
            known.append(other)
            yield other, ()
        elif tick.now():
            yield None  # a region settled without a decision never asked the clock


def _start(propagator: Propagator, start: list[int] | None) -> list[int] | None:
    """The domains the walk starts in: ``start`` propagated, or the root; None when the
    puzzle does not suit local search or propagation refutes it."""
    if not applies(propagator):
        return None
    if start is None:
        return propagator.root()
    root = start[:]
    return root if propagator.propagate(root, range(len(propagator.run_cells))) else None


def _first_grid(walk: Walk, tick: Clock) -> Iterator[None]:
    """Moves, mends and repairs until the walk holds a grid (``None`` at each clock stop)."""
    while walk.bad:
        walk.move()
        if tick():
            yield None
        if walk.moves_since_mend >= MEND_EVERY and len(walk.bad) <= MEND_CONFLICTS:
            walk.moves_since_mend = 0
            yield from walk.mend(tick)
        if (
            walk.bad
            and walk.moves_since_repair >= REPAIR_EVERY
            and len(walk.bad) <= REPAIR_CONFLICTS
        ):
            walk.moves_since_repair = 0
            repaired = yield from walk.repair(tick)
            if repaired is not None:
                walk.adopt(list(repaired))


class Walk:
    """The local search's state: a digit per cell, each run's digit counts and strays, the
    runs in conflict."""

    def __init__(
        self, propagator: Propagator, root: list[int], rng: random.Random, stats: LocalStats
    ) -> None:
        self.propagator, self.root, self.rng, self.stats = propagator, root, rng, stats
        n = propagator.n_cells
        directions = [run.direction for run in propagator.puzzle.runs]
        self.across = [0] * n
        self.down = [0] * n
        for c, runs in enumerate(propagator.cell_runs):
            for r in runs:
                if directions[r] is Direction.ACROSS:
                    self.across[c] = r
                else:
                    self.down[c] = r
        self.targets = [sums.bit_length() - 1 for sums in propagator.fixed]
        self.digits: list[int] = []
        self.counts: list[list[int]] = []
        self.strays: list[int] = []
        self.bad: set[int] = set()
        self.weight = [1] * len(propagator.run_cells)
        """Each run's weight in a move's score (:data:`WEIGHT_EVERY`)."""
        self.moves_since_repair = 0
        self.moves_since_mend = 0
        self.failed: set[tuple[int, tuple[int, ...]]] = set()
        """Mends that found nothing: a run and the digits its searches held (the cells of
        the runs around it, in cell order)."""

    # -- state -----------------------------------------------------------------------------

    def start(self) -> bool:
        """Digits with every run's sum right (False when no such digits exist)."""
        digits = flow_start(self.propagator, self.root, self.across, self.down, self.targets)
        if digits is None:
            return False
        self.adopt(digits)
        return True

    def adopt(self, digits: list[int]) -> None:
        self.digits = digits
        self.counts = [[0] * 10 for _ in self.propagator.run_cells]
        self.strays = [0] * len(self.counts)
        for r, members in enumerate(self.propagator.run_cells):
            for c in members:
                self.counts[r][digits[c]] += 1
                self.strays[r] += not self._allowed(c, digits[c])
        self.bad = {r for r in range(len(self.counts)) if self._conflicts(r)}

    def key(self) -> Key:
        return tuple(self.digits)

    def _conflicts(self, r: int) -> int:
        """The run's conflicts: repeated digits, and digits its root domains rule out."""
        return sum(k - 1 for k in self.counts[r] if k > 1) + self.strays[r]

    def _allowed(self, c: int, digit: int) -> bool:
        return 0 < digit < 10 and bool(self.root[c] >> (digit - 1) & 1)

    # -- moves -----------------------------------------------------------------------------

    def move(self) -> None:
        """One move from a run in conflict: an alternating cycle from one of its cells (a
        repeated digit or a stray), or now and then a new digit set for the whole run."""
        stats = self.stats
        stats.moves += 1
        self.moves_since_repair += 1
        self.moves_since_mend += 1
        if stats.moves % WEIGHT_EVERY == 0:
            for q in self.bad:
                self.weight[q] += 1
        rng = self.rng
        r = rng.choice(tuple(self.bad))
        changes = self.reset(r) if rng.random() < RESET_SHARE else self._cycle_move(r)
        if changes:
            self._try(changes)

    def _cycle_move(self, r: int) -> list[tuple[int, int, int]] | None:
        """A cell of run ``r`` in conflict changed by ``+d``, paid back along an alternating
        cycle back to its own down run."""
        rng, digits, counts, allowed = self.rng, self.digits, self.counts, self._allowed
        c = rng.choice(
            [
                x
                for x in self.propagator.run_cells[r]
                if counts[r][digits[x]] > 1 or not allowed(x, digits[x])
            ]
        )
        options = [d for d in range(1, 10) if d != digits[c] and allowed(c, d)]
        if not options:
            return None
        row, column = counts[self.across[c]], counts[self.down[c]]
        fresh = [d for d in options if not row[d] and not column[d]]
        delta = rng.choice(fresh or options) - digits[c]
        chain = self._chain(self.across[c], delta, {c}, end_minus=self.down[c])
        if chain is None:
            return None
        return [(c, digits[c], digits[c] + delta), *chain]

    def reset(self, r: int) -> list[tuple[int, int, int]] | None:
        """Run ``r`` given a digit set that fits (distinct digits, its sum, each cell's root
        domain) with as few cells changed as can be (or one more, at random), each change
        paid back along an alternating chain from the crossing run it unbalanced to one
        unbalanced the other way (never through ``r``)."""
        digits = self.digits
        cells = self.propagator.run_cells[r]
        options = self._reset_options(r)
        if not options:
            return None
        fewest = min(option[0] for option in options)
        chosen = min(option for option in options if option[0] <= fewest + 1)[2]
        changes = [(x, digits[x], d) for x, d in zip(cells, chosen, strict=True) if d != digits[x]]
        locked = {x for x, _, _ in changes}
        owed = [(self._crossing(x, r), after - before) for x, before, after in changes]
        surplus = [[q, t] for q, t in owed if t > 0]
        deficit = [[q, -t] for q, t in owed if t < 0]
        while surplus and deficit:
            t = min(surplus[0][1], deficit[0][1])
            chain = self._chain(surplus[0][0], t, locked, end_plus=deficit[0][0], avoid=r)
            if chain is None:
                return None
            changes += chain
            locked.update(x for x, _, _ in chain)
            for side in (surplus, deficit):
                side[0][1] -= t
                if not side[0][1]:
                    side.pop(0)
        return changes

    def _reset_options(self, r: int) -> list[tuple[int, float, tuple[int, ...]]]:
        """Every digit set of run ``r``'s total placed with its present digits kept where
        they fit: (cells changed, a random tie-break, the run's new digits), at most
        :data:`RESET_CELLS` changed."""
        rng, digits, allowed = self.rng, self.digits, self._allowed
        cells = self.propagator.run_cells[r]
        options: list[tuple[int, float, tuple[int, ...]]] = []
        for mask in combos(len(cells), self.targets[r]):
            spare = set(digits_of(mask))
            moved = []
            for k, x in enumerate(cells):
                if digits[x] in spare and allowed(x, digits[x]):
                    spare.discard(digits[x])
                else:
                    moved.append(k)
            if len(moved) > RESET_CELLS:
                continue
            for order in permutations(sorted(spare)):
                if all(allowed(cells[k], d) for k, d in zip(moved, order, strict=True)):
                    new = [digits[x] for x in cells]
                    for k, d in zip(moved, order, strict=True):
                        new[k] = d
                    options.append((len(moved), rng.random(), tuple(new)))
        return options

    def _try(self, changes: list[tuple[int, int, int]]) -> None:
        """Make the changes, and undo them with a probability that grows with how much
        worse (by weighted conflicts) they leave their runs (annealing)."""
        across, down, weight, conflicts = self.across, self.down, self.weight, self._conflicts
        touched = {q for x, _, _ in changes for q in (across[x], down[x])}
        before = sum(weight[q] * conflicts(q) for q in touched)
        self._apply(changes)
        worse = sum(weight[q] * conflicts(q) for q in touched) - before
        if worse > 0 and self.rng.random() >= math.exp(-worse / TEMPERATURE):
            self._apply([(x, new, old) for x, old, new in reversed(changes)])
            return
        for q in touched:
            if conflicts(q):
                self.bad.add(q)
            else:
                self.bad.discard(q)

    def _crossing(self, x: int, run: int) -> int:
        """The other run through cell ``x`` of ``run``."""
        return self.down[x] if self.across[x] == run else self.across[x]

    def _chain(
        self,
        start: int,
        delta: int,
        locked: set[int],
        *,
        end_minus: int = -1,
        end_plus: int = -1,
        avoid: int = -1,
    ) -> list[tuple[int, int, int]] | None:
        """Changes (cell, old, new) that take ``delta`` out of run ``start``: a cell of it
        ``-delta``, a cell of that cell's crossing run ``+delta``, whose crossing run then
        gives ``delta`` back the same way, breadth first over runs, until a ``-delta`` cell
        lies in run ``end_minus`` or a ``+delta`` cell in run ``end_plus``; at most
        :data:`CYCLE_LENGTH` cells, never a ``locked`` cell or a crossing run ``avoid``.
        Each run's cells are scanned from a random point on (cheaper than shuffling them,
        which took half of a move's time)."""
        run_cells, digits, rand = self.propagator.run_cells, self.digits, self.rng.random
        allowed, crossing = self._allowed, self._crossing
        parent: dict[int, tuple[int, int, int] | None] = {start: None}
        level = [start]

        def back(a: int, tail: list[tuple[int, bool]]) -> list[tuple[int, int, int]]:
            signed = tail
            while (link := parent[a]) is not None:
                a, x, y = link
                signed += [(y, True), (x, False)]
            return [(x, digits[x], digits[x] + (delta if plus else -delta)) for x, plus in signed]

        for _ in range(CYCLE_LENGTH // 2):
            following = []
            for a in level:
                link = parent[a]
                entered = -1 if link is None else link[2]
                minus = run_cells[a]
                k = int(rand() * len(minus))
                for x in minus[k:] + minus[:k]:
                    if x == entered or x in locked or not allowed(x, digits[x] - delta):
                        continue
                    c = crossing(x, a)
                    if c == end_minus:
                        return back(a, [(x, False)])
                    if c == avoid:
                        continue
                    plus = run_cells[c]
                    j = int(rand() * len(plus))
                    for y in plus[j:] + plus[:j]:
                        if y == x or y in locked or not allowed(y, digits[y] + delta):
                            continue
                        b = crossing(y, c)
                        if b == end_plus:
                            return back(a, [(x, False), (y, True)])
                        if b not in parent:
                            parent[b] = (a, x, y)
                            following.append(b)
            if not following:
                return None
            level = following
        return None

    def _apply(self, changes: list[tuple[int, int, int]]) -> None:
        digits, counts, across, down = self.digits, self.counts, self.across, self.down
        strays, allowed = self.strays, self._allowed
        for x, old, new in changes:
            digits[x] = new
            stray = allowed(x, old) - allowed(x, new)
            for q in (across[x], down[x]):
                counts[q][old] -= 1
                counts[q][new] += 1
                strays[q] += stray

    # -- exact search on regions -----------------------------------------------------------

    def region(self, runs: list[int], size: int) -> set[int]:
        """Whole runs around ``runs``, breadth first, until ``size`` cells."""
        run_cells, cell_runs = self.propagator.run_cells, self.propagator.cell_runs
        cells: set[int] = set()
        seen = set(runs)
        queue = deque(runs)
        while queue and len(cells) < size:
            for c in run_cells[queue.popleft()]:
                cells.add(c)
                for q in cell_runs[c]:
                    if q not in seen:
                        seen.add(q)
                        queue.append(q)
        return cells

    def solve_region(
        self,
        grid: Sequence[int],
        free: set[int],
        tick: Clock,
        skip: Key | None,
        decisions: int = REPAIR_DECISIONS,
        *,
        alone: bool = False,
    ) -> Generator[None, None, Key | None]:
        """The learning search on ``free`` with every other cell fixed to ``grid``: the
        first grid other than ``skip`` it reaches within ``decisions``, else ``None``
        (yields ``None`` when out of time).  ``alone``: only the runs that touch ``free``
        are checked (a mend: conflicts held elsewhere stay, and do not refute the region)."""
        fill = [1 << (digit - 1) for digit in grid]
        state = held_at(self.root, fill, free)
        cell_runs = self.propagator.cell_runs
        runs = sorted({r for c in free for r in cell_runs[c]}) if alone else None
        counts = learning.LearningStats()
        self.stats.repairs += 1
        try:
            for found in learning.search(
                self.propagator,
                state,
                node_limit=decisions,
                stats=counts,
                out_of_time=tick,
                phase=fill,
                runs=runs,
            ):
                if found is None:
                    if counts.decisions >= decisions:
                        return None
                    yield None
                elif found[0] != skip:
                    return found[0]
            return None
        finally:
            self.stats.repair_decisions += counts.decisions

    def mend(self, tick: Clock) -> Generator[None, None, None]:
        """Each run in conflict on its own: growing regions around it, solved exactly with
        the rest of the grid held and only the region's runs checked, and each mended
        region adopted at once.  A repair of all conflicts together (:meth:`repair`) fails
        as a whole whenever one of them is hard to mend; one by one, the easy ones go, and
        the walk moves on from fewer.  Local search alone, seeds 0-4, CPU seconds to the first
        grid: 32.0 s in all without mends and 24.1 s with them on loose-40x40 seed 1 (1,095
        cells); on the loose 40x40 grid of seed 4 one seed of five found a grid within 40 s
        without mends, three with them."""
        n = self.propagator.n_cells
        run_cells, cell_runs = self.propagator.run_cells, self.propagator.cell_runs
        for r in sorted(self.bad):
            if r not in self.bad:  # mended with an earlier region
                continue
            widest = self.region([r], MEND_REGIONS[-1])
            seen = sorted({x for c in widest for q in cell_runs[c] for x in run_cells[q]})
            held = (r, tuple(self.digits[c] for c in seen))  # the cells follow from r
            if held in self.failed:  # the same digits around it: the same searches fail
                continue
            grid = None
            for size in MEND_REGIONS:
                free = self.region([r], size)
                grid = yield from self.solve_region(
                    self.digits, free, tick, None, MEND_DECISIONS * size, alone=True
                )
                if grid is not None or len(free) >= n:
                    break
            if grid is None:
                self.failed.add(held)
            else:
                self.adopt(list(grid))

    def repair(self, tick: Clock) -> Generator[None, None, Key | None]:
        """Growing regions around the runs still in conflict, solved exactly: the repaired
        grid, or ``None``."""
        for size in REGIONS:
            free = self.region(sorted(self.bad), size)
            decisions = REPAIR_DECISIONS * size // REGIONS[0]
            grid = yield from self.solve_region(self.digits, free, tick, None, decisions)
            if grid is not None or len(free) >= self.propagator.n_cells:
                return grid
        return None

    def neighbour(self, grid: Key, tick: Clock) -> Generator[None, None, Key | None]:
        """Another grid that differs from ``grid`` only around a random run, or ``None``."""
        self.stats.neighbourhoods += 1
        centre = self.rng.randrange(len(self.propagator.run_cells))
        for size in NEIGHBOUR_REGIONS:
            free = self.region([centre], size)
            other = yield from self.solve_region(grid, free, tick, grid)
            if other is not None or len(free) >= self.propagator.n_cells:
                return other
        return None


__all__ = ["LocalStats", "applies", "search", "start_seconds"]
