"""Conflict-driven search with learned clauses over a :class:`Propagator` (numeric puzzles).

The second of the three searches (:mod:`.searches`), beside the depth-first one
(:mod:`.depth_first`): :func:`search` has their shape (a start state, a node budget, shared
counters, a clock hook) and yields the same :data:`Found` answers, each grid once.  The native
backend uses it for large numeric puzzles.

Chronological depth-first search thrashes on large loose grids: an early guess can doom a
distant area that propagation only reaches a hundred decisions later, and the search then
retries every combination of the guesses in between.  This search learns instead (a small
*lazy clause generation*):

* Facts on the trail are removals "cell != d" only.  A decision "x = d" is one trail entry that
  removes the other digits of x; a run revision or a clause that narrows a cell is one entry
  too, with its *reason*.
* A run revision's reason starts from every removal made in the run's other cells before the
  revision (all the revision looked at), then gives whole cells back their root domains as
  long as the run still rules out the digits the analysis needs (one cached run revision per
  try).  Reasons are built lazily, during conflict analysis only, from ``fact_entry`` (which
  trail entry removed each digit).  Giving cells back halved the conflicts on the stress grid
  (7,061 -> 2,879; CP-SAT needs ~2,200).
* Clauses are disjunctions of "cell in S" (one set of digits per cell, a *signed clause*);
  a learned clause is the negation of the removals that caused a conflict, cut at the first
  unique implication point, and is watched by two literals.
* Non-chronological backjumps, Luby restarts, phase saving and VSIDS activity on cells.
  Like any such search its run time is heavy-tailed in these settings: on the stress grid
  restart units 32/64/128 with decays 0.9/0.95 took from 680 to over 7,500 conflicts; the
  defaults (64, 0.95) sit in the middle, chosen on that one grid (no wider tuning yet).
  Known weakness: some small unsat puzzles take it far longer than depth-first search
  (``_random_puzzle(2031, rows=4, cols=6, skew=2)`` in tests/test_native.py: 5,600
  decisions, ~25 s, against 0.3 s), which is one reason the native backend's ``auto`` keeps
  it for large puzzles only.

Each grid found is blocked by a clause (its negation over the cells the root left open), so
it is never found again, across restarts too; learned clauses follow from the puzzle plus those
blocking clauses, so they exclude no grid that was not returned or blocked, and a conflict at
level 0 proves that nothing else is left.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .kernel import revise_cached
from .propagator import Propagator
from .protocol import CHECK_EVERY, Found

RESTART_UNIT = 64
"""Conflicts of the first Luby restart interval."""
DECAY = 0.95
"""Activity decay per conflict (VSIDS): recent conflicts weigh more."""

_POP = [m.bit_count() for m in range(1 << 9)]
_DECISION, _RUN, _CLAUSE = range(3)


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@dataclass
class LearningStats:
    """What the learning search counts, shared with its caller (read them while it runs);
    ``decisions`` are the search's nodes."""

    decisions: int = 0
    revisions: int = 0
    conflicts: int = 0
    learned: int = 0
    restarts: int = 0
    max_level: int = 0

    @property
    def work(self) -> int:
        """The decisions: what a node budget counts."""
        return self.decisions


class LearningSearch:
    """One resumable search over a numeric puzzle's cells (see the module docstring).

    ``propagator`` gives the puzzle's run structures; ``root`` is a propagated state (the
    root fixpoint, or any state narrowed from it and propagated).  :meth:`solutions` yields
    each grid (as its state of singleton masks) once, or ``None`` when ``stop`` says so.
    """

    def __init__(
        self, propagator: Propagator, root: list[int], stats: LearningStats | None = None
    ) -> None:
        tables = [table for table in propagator.tables if table is not None]
        if propagator.cryptic or len(tables) != len(propagator.tables):
            raise ValueError("the learning search takes numeric puzzles only")
        run_cells = propagator.run_cells
        self.root = root
        self.dom = root[:]
        self.run_cells, self.cell_runs = run_cells, propagator.cell_runs
        self.run_get = propagator.run_get
        self.tables, self.fixed = tables, propagator.fixed
        n = len(root)
        self.n = n
        self.fact_entry = [0] * (n * 9)
        # The trail, one entry per narrowing: cell, removed digits, reason kind, reason data
        # (run or clause), the trail length when a run revision started, decision level.
        self.t_cell: list[int] = []
        self.t_bits: list[int] = []
        self.t_kind: list[int] = []
        self.t_data: list[int] = []
        self.t_from: list[int] = []
        self.t_level: list[int] = []
        self.level_start: list[int] = []
        self.level = 0
        self.c_cells: list[list[int]] = []
        self.c_bits: list[list[int]] = []
        self.watches: list[list[int]] = [[] for _ in range(n)]
        self.activity = [0.0] * n
        self.bump = 1.0
        self.heap = [(0.0, c) for c in range(n) if _POP[root[c]] > 1]
        heapq.heapify(self.heap)
        self.phase = [0] * n
        self.queue: deque[int] = deque()
        self.queued = bytearray(len(run_cells))
        self.changed: list[int] = []
        self.stats = LearningStats() if stats is None else stats
        self.explained: dict[tuple[int, int, int, tuple[int, ...]], tuple[int, ...]] = {}

    # -- trail -----------------------------------------------------------------------------

    def _narrow(self, y: int, keep: int, kind: int, data: int, start: int) -> None:
        """Record the removal of ``dom[y] & ~keep`` from cell ``y`` (``keep`` is non-empty)."""
        dom = self.dom
        gone = dom[y] & ~keep
        e = len(self.t_cell)
        self.t_cell.append(y)
        self.t_bits.append(gone)
        self.t_kind.append(kind)
        self.t_data.append(data)
        self.t_from.append(start)
        self.t_level.append(self.level)
        dom[y] = keep
        fact_entry, base = self.fact_entry, y * 9
        while gone:
            low = gone & -gone
            fact_entry[base + low.bit_length() - 1] = e
            gone ^= low
        queued, queue = self.queued, self.queue
        for r in self.cell_runs[y]:
            if not queued[r]:
                queued[r] = 1
                queue.append(r)
        self.changed.append(y)

    def _backjump(self, level: int) -> None:
        """Undo every entry above ``level``; reopened cells go back on the decision heap."""
        if self.level <= level:
            return
        start = self.level_start[level]
        dom, phase, heap, activity = self.dom, self.phase, self.heap, self.activity
        t_cell, t_bits = self.t_cell, self.t_bits
        for e in range(len(t_cell) - 1, start - 1, -1):
            y = t_cell[e]
            m = dom[y]
            if _POP[m] == 1:
                phase[y] = m
                heapq.heappush(heap, (-activity[y], y))
            dom[y] = m | t_bits[e]
        for trail in (t_cell, t_bits, self.t_kind, self.t_data, self.t_from, self.t_level):
            del trail[start:]
        del self.level_start[level:]
        self.level = level
        self.queue.clear()
        self.queued = bytearray(len(self.run_cells))
        self.changed.clear()

    # -- propagation -----------------------------------------------------------------------

    def _propagate(self) -> tuple[int, int] | None:
        """Watched clauses and run revisions to a fixpoint; the conflict (kind, data) or None."""
        dom, queue, queued, changed = self.dom, self.queue, self.queued, self.changed
        run_get, run_cells, tables, fixed = self.run_get, self.run_cells, self.tables, self.fixed
        watches, c_cells, c_bits = self.watches, self.c_cells, self.c_bits
        narrow = self._narrow
        done = 0
        while True:
            while done < len(changed):
                y = changed[done]
                done += 1
                ws = watches[y]
                if not ws:
                    continue
                keep: list[int] = []
                watches[y] = keep
                for i, ci in enumerate(ws):
                    cells, bits = c_cells[ci], c_bits[ci]
                    if cells[0] == y:
                        cells[0], cells[1] = cells[1], y
                        bits[0], bits[1] = bits[1], bits[0]
                    if dom[y] & bits[1]:
                        keep.append(ci)
                        continue
                    o, ob = cells[0], bits[0]
                    dm = dom[o]
                    if dm & ob and not dm & ~ob:  # the other watch is true
                        keep.append(ci)
                        continue
                    for k in range(2, len(cells)):
                        z = cells[k]
                        if dom[z] & bits[k]:
                            cells[1], cells[k] = z, y
                            bits[1], bits[k] = bits[k], bits[1]
                            watches[z].append(ci)
                            break
                    else:
                        keep.append(ci)
                        if not dm & ob:
                            keep.extend(ws[i + 1 :])
                            return _CLAUSE, ci
                        narrow(o, dm & ob, _CLAUSE, ci, 0)
            if not queue:
                changed.clear()
                return None
            r = queue.popleft()
            queued[r] = 0
            self.stats.revisions += 1
            doms = run_get[r](dom)
            table = tables[r]
            found = table.get(doms)
            if found is None:
                found = revise_cached(table, doms, fixed[r])
            if not found:
                return _RUN, r
            if len(found) > 1:
                members = run_cells[r]
                start = len(self.t_cell)
                for j in range(1, len(found), 2):
                    narrow(members[found[j]], found[j + 1], _RUN, r, start)

    # -- conflict analysis -----------------------------------------------------------------

    def _reason(
        self, kind: int, data: int, cell: int, before: int, needed: int = 0
    ) -> list[tuple[int, int]]:
        """The removals (cell, digits) that implied removing ``needed`` from ``cell`` (or a
        conflict when ``cell`` is -1), made before trail position ``before``.

        A run's reason starts from every earlier removal in its other cells, then gives back
        whole cells (their root domains) while the run still rules ``needed`` out: shorter
        reasons make shorter, stronger learned clauses."""
        if kind != _RUN:
            return [
                (y, bits)
                for y, bits in zip(self.c_cells[data], self.c_bits[data], strict=True)
                if y != cell
            ]
        dom, root, fact_entry = self.dom, self.root, self.fact_entry
        members = self.run_cells[data]
        then = []
        gone_then = []
        for y in members:
            gone = root[y] & ~dom[y]
            base, bits = y * 9, 0
            if y != cell:
                while gone:
                    low = gone & -gone
                    if fact_entry[base + low.bit_length() - 1] < before:
                        bits |= low
                    gone ^= low
            gone_then.append(bits)
            then.append(root[y] & ~bits)
        key = (data, cell, needed, tuple(then))
        kept = self.explained.get(key)
        if kept is None:
            kept = self._relax(
                data, members, then, gone_then, members.index(cell) if cell >= 0 else -1, needed
            )
            if len(self.explained) > 200_000:
                self.explained.clear()
            self.explained[key] = kept
        return [(members[i], gone_then[i]) for i in kept]

    def _relax(
        self,
        r: int,
        members: tuple[int, ...],
        then: list[int],
        gone: list[int],
        pos: int,
        needed: int,
    ) -> tuple[int, ...]:
        """The positions whose removals a run's reason keeps (see :meth:`_reason`)."""
        root, table, sums = self.root, self.tables[r], self.fixed[r]
        doms = then[:]
        kept = []
        for i, y in enumerate(members):
            if not gone[i]:
                continue
            doms[i] = root[y]
            key = tuple(doms)
            found = table.get(key)
            if found is None:
                found = revise_cached(table, key, sums)
            if found:
                if pos < 0:
                    ok = False
                else:
                    keep = doms[pos]
                    for j in range(1, len(found), 2):
                        if found[j] == pos:
                            keep = found[j + 1]
                    ok = not keep & needed
            else:
                ok = True
            if not ok:
                doms[i] = then[i]
                kept.append(i)
        return tuple(kept)

    def _analyze(self, kind: int, data: int) -> tuple[list[int], list[int], int]:
        """First-UIP learning: the learned clause (cells, digit sets; the asserting literal
        first, the deepest other one second) and the level to jump back to."""
        cur = self.level
        fact_entry, t_level, t_cell = self.fact_entry, self.t_level, self.t_cell
        need: dict[int, int] = {}  # current-level entries -> the digits that matter
        lower: dict[int, int] = {}  # cell -> digits removed below the current level
        lower_level: dict[int, int] = {}
        count = 0

        def add(facts: list[tuple[int, int]]) -> None:
            nonlocal count
            for y, gone in facts:
                base = y * 9
                while gone:
                    low = gone & -gone
                    gone ^= low
                    e = fact_entry[base + low.bit_length() - 1]
                    lv = t_level[e]
                    if lv == cur:
                        if e in need:
                            need[e] |= low
                        else:
                            need[e] = low
                            count += 1
                    elif lv:
                        lower[y] = lower.get(y, 0) | low
                        if lv > lower_level.get(y, 0):
                            lower_level[y] = lv

        add(self._reason(kind, data, -1, len(t_cell)))
        e = len(t_cell) - 1
        while True:
            while e not in need:
                e -= 1
            if count == 1:
                break
            count -= 1
            needed = need.pop(e)
            add(self._reason(self.t_kind[e], self.t_data[e], t_cell[e], self._from(e), needed))
            e -= 1
        uip = t_cell[e]
        cells = [uip]
        bits = [need[e] | lower.pop(uip, 0)]
        lower_level.pop(uip, None)
        back, second = 0, -1
        for y, b in lower.items():
            cells.append(y)
            bits.append(b)
            lv = lower_level[y]
            if lv > back:
                back, second = lv, len(cells) - 1
        if second > 1:
            cells[1], cells[second] = cells[second], cells[1]
            bits[1], bits[second] = bits[second], bits[1]
        activity, inc, heap, dom = self.activity, self.bump, self.heap, self.dom
        for y in cells:
            activity[y] += inc
            if _POP[dom[y]] > 1:
                heapq.heappush(heap, (-activity[y], y))
        self.bump = inc / DECAY
        if self.bump > 1e100:
            for y in range(self.n):
                activity[y] *= 1e-100
            self.bump *= 1e-100
            self.heap = [(-activity[y], y) for y in range(self.n) if _POP[dom[y]] > 1]
            heapq.heapify(self.heap)
        return cells, bits, back

    def _from(self, e: int) -> int:
        """Where an entry's reason stops: a run revision saw the trail as it was when it
        started; a clause or decision entry sees everything before itself."""
        return self.t_from[e] if self.t_kind[e] == _RUN else e

    def _add_clause(self, cells: list[int], bits: list[int]) -> int:
        """Store a clause, watched by its first two literals; returns its index."""
        ci = len(self.c_cells)
        self.c_cells.append(cells)
        self.c_bits.append(bits)
        if len(cells) > 1:
            self.watches[cells[0]].append(ci)
            self.watches[cells[1]].append(ci)
        return ci

    def _learn(self, kind: int, data: int) -> bool:
        """Analyse a conflict, jump back and assert the learned clause; False at level 0
        (nothing is left)."""
        self.stats.conflicts += 1
        if self.level == 0:
            return False
        cells, bits, back = self._analyze(kind, data)
        self._backjump(back)
        ci = self._add_clause(cells, bits)
        self.stats.learned += 1
        self._narrow(cells[0], self.dom[cells[0]] & bits[0], _CLAUSE, ci, 0)
        return True

    def _block(self, state: list[int]) -> tuple[int, int] | None:
        """Add the clause that excludes a complete grid; it is false now: the conflict."""
        root = self.root
        cells = [c for c in range(self.n) if _POP[root[c]] > 1]
        if not cells:
            return None
        bits = [root[c] & ~state[c] for c in cells]
        ci = self._add_clause(cells, bits)
        return _CLAUSE, ci

    # -- search ----------------------------------------------------------------------------

    def _decide(self) -> int:
        """The undecided cell of highest activity, or -1 when every cell is decided."""
        heap, dom, activity = self.heap, self.dom, self.activity
        while heap:
            act, y = heap[0]
            if _POP[dom[y]] > 1 and -act == activity[y]:
                return y
            heapq.heappop(heap)
        for y in range(self.n):  # stale heap (cannot happen, but stay complete)
            if _POP[dom[y]] > 1:
                return y
        return -1

    def solutions(self, stop: Callable[[], bool]) -> Iterator[list[int] | None]:
        """Yield each grid once (its state), ``None`` whenever ``stop()`` is true."""
        stats = self.stats
        restart_index, budget = 1, RESTART_UNIT
        conflict = self._propagate()
        while True:
            if conflict is not None:
                if not self._learn(*conflict):
                    return
                budget -= 1
                conflict = self._propagate()
                continue
            if stop():
                yield None
                continue
            if budget <= 0:
                restart_index += 1
                budget = RESTART_UNIT * luby(restart_index)
                stats.restarts += 1
                self._backjump(0)
            y = self._decide()
            if y < 0:
                state = self.dom[:]
                yield state
                conflict = self._block(state)
                if conflict is None:
                    return
                continue
            stats.decisions += 1
            m = self.dom[y]
            keep = self.phase[y] & m or m & -m
            self.level_start.append(len(self.t_cell))
            self.level += 1
            if self.level > stats.max_level:
                stats.max_level = self.level
            self._narrow(y, keep, _DECISION, 0, 0)
            conflict = self._propagate()


def search(
    propagator: Propagator,
    start: list[int] | None = None,
    *,
    node_limit: int | None = None,
    stats: LearningStats | None = None,
    out_of_time: Callable[[], bool] | None = None,
    phase: Sequence[int] | None = None,
    runs: Sequence[int] | None = None,
) -> Iterator[Found | None]:
    """The learning search from ``start`` (default: the initial state), with the interface of
    :meth:`Propagator.search`: yields each solution inside it once, or ``None`` when
    ``out_of_time()`` says so (resuming goes on) or the node budget (decisions) is spent
    (``None`` from then on).  Numeric puzzles only (a ``ValueError`` otherwise).

    ``phase`` (a digit mask per cell) seeds phase saving: decisions try those digits first,
    so a nearly right grid from local search guides the search (solution-guided search).

    ``runs`` (default: every run) are the runs revised before the first decision; a run
    outside them is only revised once one of its cells changes.  Local search mends a region
    of a grid that is wrong elsewhere this way (:mod:`.local`): the runs that touch the
    region's free cells are checked, the held conflicts far from it are not, and a grid
    yielded is right on every run that touches the region (not a solution of the puzzle)."""
    state = (propagator.initial if start is None else start)[:]
    if not propagator.propagate(state, range(len(propagator.run_cells)) if runs is None else runs):
        return
    if runs is None and propagator.cuts_refute(state):
        return
    learning = LearningSearch(propagator, state, stats)
    if phase is not None:
        learning.phase[:] = phase[: learning.n]
    counts = learning.stats
    countdown = CHECK_EVERY
    limit = -1 if node_limit is None else node_limit

    def stop() -> bool:
        nonlocal countdown
        if counts.decisions == limit:
            return True
        countdown -= 1
        if not countdown:
            countdown = CHECK_EVERY
            return out_of_time is not None and out_of_time()
        return False

    key = propagator.key
    for found in learning.solutions(stop):
        yield None if found is None else (key(found), ())
