"""The run propagator of the ``lcg`` backend: Kakuro runs inside CaDiCaL, explained as clauses.

CaDiCaL 1.9.5 searches over the digit literals of a small CNF base (one variable per cell and
digit left by the root fixpoint, exactly-one per cell; the letters of a cryptic puzzle and
their bijection).  The run constraints are not in that CNF: :class:`RunEngine`, attached
through IPASIR-UP (``pysat.engines``), watches the digit literals, keeps each cell's domain
as a mask, and revises every run whose cells changed with the native kernel's tables
(:func:`kakurolab.propagation.kernel.revise_cached`: generalised arc consistency on sum plus
all-different, so hidden singles are inside it; letter clues through the kernel's pair
tables).  Each digit a revision removes is returned as a negative literal.

Explanations are lazy, as in the native learning search (:mod:`kakurolab.propagation.learning`):
a propagated literal remembers the run and the run's masks it was revised from; only when
CaDiCaL asks for the reason (conflict analysis) is it built, from every removal in the
run's other slots at that moment, then minimised by giving whole slots back their root
domain as long as the run still rules the digit out (one cached revision per try).  A wiped
out run gives an external clause the same way.  Every such clause is implied by the puzzle's
run constraint (and the root fixpoint, itself implied), which ``tests/test_lcg.py`` checks
with a second solver on the exact encoding.

The hot path is the notification: CaDiCaL calls :meth:`RunEngine.on_assignment` once per
assigned observed literal (a decided cell brings eight negative literals besides its own),
so it does a mask update and a list append only; the runs are revised once per
``propagate`` call, in a batch, from the slots changed since the last one.  The undo trail
is a pair of flat lists cut at each decision level.  CaDiCaL runs with ``chrono=0``, so no
literal is assigned below the current decision level and a level's undo is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pysat.engines import Propagator as _UserPropagator

from ..propagation import Propagator
from ..propagation.kernel import (
    PAIR_FILTER,
    PAIR_SUMS,
    TABLES,
    pair_filter,
    pair_sums,
    revise_cached,
    run_table,
)
from ..propagation.propagator import NUMBER, ONE_LETTER, SAME_LETTERS, TWO_LETTERS
from ..propagation.protocol import POP

BITS = [tuple(i for i in range(10) if m >> i & 1) for m in range(1 << 10)]
"""The bit positions of each 10-bit mask (cells: bit ``d - 1`` is digit ``d``; letters: bit
``d`` is digit ``d``)."""

_WITHOUT = [sum(1 << u for u in range(512) if not u >> b & 1) for b in range(9)]
"""Per digit bit, the digit sets (bit ``u`` of a 512-bit int) without it."""
_OF_SUM = [sum(1 << u for u in range(512) if sum(BITS[u]) + POP[u] == t) for t in range(46)]
"""Per total, the digit sets summing to it (digit ``b + 1`` for bit ``b``)."""
_FINALS: dict[int, int] = {}


def _feasible(masks: Sequence[int], banned: int, sums: int) -> bool:
    """Whether the cells with these digit masks take distinct digits, none of ``banned``,
    adding up to a total in ``sums`` (a sum mask): reachable digit sets cell by cell, as
    bits of one integer, shifted in by the digit each cell adds."""
    layer = 1  # the empty set
    for m in masks:
        nxt = 0
        for b in BITS[m & ~banned]:
            nxt |= (layer & _WITHOUT[b]) << (1 << b)
        if not nxt:
            return False
        layer = nxt
    finals = _FINALS.get(sums)
    if finals is None:
        finals = 0
        for t in range(46):
            if sums >> t & 1:
                finals |= _OF_SUM[t]
        if len(_FINALS) > EXPLAINED_LIMIT:
            _FINALS.clear()
        _FINALS[sums] = finals
    return bool(layer & finals)


EXPLAINED_LIMIT = 200_000
"""Cached explanations kept at most (emptied past it: long counts stay bounded)."""


@dataclass
class EngineStats:
    """What the engine counts: callbacks by kind, literals propagated, reasons built and
    their lengths, conflicts it raised.  Read by the session's ``stats`` (notifications are
    counted apart, in :attr:`RunEngine.notified`, a plain int on the hot path)."""

    propagate_calls: int = 0
    revisions: int = 0
    propagated: int = 0
    reasons: int = 0
    reason_literals: int = 0
    conflicts: int = 0
    model_checks: int = 0
    backtracks: int = 0


class RunEngine(_UserPropagator):
    """The Kakuro run propagator (see the module docstring).

    ``propagator`` gives the run structure and the kernel tables; ``base`` is the root
    fixpoint (a mask per slot: cells, then letters); ``var_of[slot][bit]`` the CNF variable of
    a slot's digit (0: none, the digit is outside the root domain).
    """

    def __init__(
        self,
        propagator: Propagator,
        base: Sequence[int],
        var_of: Sequence[Sequence[int]],
        n_vars: int,
        fixpoint: bool = True,
    ) -> None:
        """``fixpoint``: whether ``base`` is the root fixpoint already; if not, the first
        ``propagate`` revises every run (CaDiCaL asks before its first decision)."""
        super().__init__()
        self.base = list(base)
        self.dom = list(base)
        self.keep = list(base)  # permanent masks: fixed literals are never undone
        self.var_of = var_of
        self.n_cells = n = propagator.n_cells
        self.var_slot = [0] * (n_vars + 1)
        self.var_bit = [0] * (n_vars + 1)
        for slot, row in enumerate(var_of):
            for i, v in enumerate(row):
                if v:
                    self.var_slot[v] = slot
                    self.var_bit[v] = 1 << i
        self.run_cells = propagator.run_cells
        self.run_get = propagator.run_get
        self.tables = propagator.tables
        self.sums = propagator.fixed
        self.reach = propagator.reach
        self.shape = propagator.kind
        self.clue_slots = propagator.clue_slots
        self.letter_slots: list[tuple[int, ...]] = [
            () if shape == NUMBER else (tens,) if shape != TWO_LETTERS else (tens, units)
            for shape, (tens, units) in zip(propagator.kind, propagator.clue_slots, strict=True)
        ]
        # The runs each slot takes part in (a cell: its two runs; a letter: its clue runs).
        self.slot_runs: list[tuple[int, ...]] = [tuple(rs) for rs in propagator.cell_runs]
        if propagator.cryptic:
            self.slot_runs += [tuple(rs) for rs in propagator.letter_runs[n:]]
        self.trail_slot: list[int] = []
        self.trail_mask: list[int] = []
        self.lim: list[int] = []
        self.changed: list[int] = [] if fixpoint else list(range(len(self.base)))
        self.why: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.pending: list[int] | None = None
        self.explained: dict[tuple[int, int, int, tuple[int, ...]], tuple[int, ...]] = {}
        self.stats = EngineStats()
        self.notified = 0  # notifications: a plain int, counted on the hot path
        self.log: list[list[int]] | None = None
        """When a list, every explanation and conflict clause is appended to it (the
        soundness test checks each against the exact encoding)."""
        self.solver: Any = None

    def setup_observe(self, solver: Any) -> None:
        """Observe every variable of a slot the root left open (a decided slot's one
        variable is a unit: its value is in ``base`` already)."""
        self.solver = solver
        observe = solver.observe
        for slot, row in enumerate(self.var_of):
            if POP[self.base[slot]] > 1:
                for v in row:
                    if v:
                        observe(v)

    # -- notifications (the hot path) ------------------------------------------------------

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        self.notified += 1
        if lit > 0:
            s = self.var_slot[lit]
            b = self.var_bit[lit]
            m = self.dom[s]
            if fixed:
                self.keep[s] &= b
            if m == b:
                return
            new = m & b
        else:
            s = self.var_slot[-lit]
            b = self.var_bit[-lit]
            m = self.dom[s]
            if fixed:
                self.keep[s] &= ~b
            if not m & b:
                return
            new = m & ~b
        self.trail_slot.append(s)
        self.trail_mask.append(m)
        self.dom[s] = new
        self.changed.append(s)

    def on_new_level(self) -> None:
        self.lim.append(len(self.trail_slot))

    def on_backtrack(self, to: int) -> None:
        lim = self.lim
        if to >= len(lim):
            return
        self.stats.backtracks += 1
        start = lim[to]
        del lim[to:]
        dom, keep = self.dom, self.keep
        slots, masks = self.trail_slot, self.trail_mask
        for i in range(len(slots) - 1, start - 1, -1):
            s = slots[i]
            dom[s] = masks[i] & keep[s]
        del slots[start:]
        del masks[start:]

    # -- propagation -----------------------------------------------------------------------

    def _revise(self, r: int, dom: list[int]) -> tuple[tuple[int, ...], int, int] | None:
        """The kernel's revision of run ``r`` under the masks ``dom`` (a state: cells, then
        letters): the kernel answer, and the clue letters' new masks (0 for a number)."""
        doms = self.run_get[r](dom)
        shape = self.shape[r]
        if shape == NUMBER:
            table = self.tables[r]
            found = table.get(doms)  # type: ignore[union-attr]
            if found is None:
                found = revise_cached(table, doms, self.sums[r])  # type: ignore[arg-type]
            return (found, 0, 0) if found else None
        tens, units = self.clue_slots[r]
        t = dom[tens]
        if shape == ONE_LETTER:
            sums = t
        else:
            same = shape == SAME_LETTERS
            u = dom[units]
            pair = t << 11 | u << 1 | same
            cached = PAIR_SUMS.get(pair)
            sums = cached if cached is not None else pair_sums(t, u, same)
        reachable = sums & self.reach[r]
        table = TABLES.get(reachable)
        if table is None:
            table = run_table(reachable)
        found = table.get(doms)
        if found is None:
            found = revise_cached(table, doms, reachable)
        if not found:
            return None
        if shape == ONE_LETTER:
            return found, t & found[0], 0
        cut = PAIR_FILTER.get((pair, found[0]))
        if cut is None:
            cut = pair_filter(t, u, same, found[0])
        if not cut[0] or not cut[1]:
            return None
        return found, cut[0], cut[1]

    def propagate(self) -> list[int]:
        """Revise the runs of the slots changed since the last call; the removed digits as
        negative literals (a wiped-out run leaves its clause for :meth:`add_clause`)."""
        changed = self.changed
        stats = self.stats
        stats.propagate_calls += 1
        if not changed or self.pending is not None:
            return []
        slot_runs = self.slot_runs
        if len(changed) == 1:
            runs: Any = slot_runs[changed[0]]
        else:
            runs = {r for s in changed for r in slot_runs[s]}
        changed.clear()
        dom, var_of, why = self.dom, self.var_of, self.why
        run_cells, letter_slots = self.run_cells, self.letter_slots
        out: list[int] = []
        for r in runs:
            stats.revisions += 1
            answer = self._revise(r, dom)
            if answer is None:
                self.pending = self._conflict(r)
                stats.conflicts += 1
                return []
            found, t, u = answer
            if len(found) == 1 and not letter_slots[r]:
                continue
            snap = self._snapshot(r)
            members = run_cells[r]
            for j in range(1, len(found), 2):
                s = members[found[j]]
                row = var_of[s]
                for i in BITS[dom[s] & ~found[j + 1]]:
                    lit = -row[i]
                    why[lit] = (r, snap)
                    out.append(lit)
            for s, new in zip(letter_slots[r], (t, u), strict=False):
                row = var_of[s]
                for i in BITS[dom[s] & ~new]:
                    lit = -row[i]
                    why[lit] = (r, snap)
                    out.append(lit)
        stats.propagated += len(out)
        return out

    def _snapshot(self, r: int) -> tuple[int, ...]:
        """The run's masks now: its cells, then its clue letters."""
        dom = self.dom
        cells = self.run_get[r](dom)
        letters = self.letter_slots[r]
        if not letters:
            return cells
        return (*cells, *(dom[s] for s in letters))

    # -- explanations ----------------------------------------------------------------------

    def _inputs(self, r: int) -> tuple[int, ...]:
        """The slots of run ``r``'s snapshot, in its order."""
        return (*self.run_cells[r], *self.letter_slots[r])

    def _implies(
        self, r: int, slots: tuple[int, ...], masks: list[int], target: int, bit: int
    ) -> bool:
        """Whether run ``r`` with its slots at ``masks`` rules out ``bit`` of slot position
        ``target`` (``target < 0``: whether it has no assignment at all).

        A support check, not a revision: the forward half of the kernel's subset programme
        over the other cells, the target's digit banned (an explanation asks about one digit
        only, and its relaxed masks rarely repeat, so the kernel's cache seldom hits)."""
        n = len(self.run_cells[r])
        shape = self.shape[r]
        if shape == NUMBER:
            sums = self.sums[r]
        else:
            t = bit if target == n else masks[n]
            if shape == ONE_LETTER:
                sums = t
            else:
                same = shape == SAME_LETTERS
                u = t if same else bit if target == n + 1 else masks[n + 1]
                sums = pair_sums(t, u, same)
        if 0 <= target < n:
            d = bit.bit_length()  # cell bit d - 1 is digit d
            others = masks[:target] + masks[target + 1 : n]
            return not _feasible(others, bit, sums >> d)
        return not _feasible(masks[:n], 0, sums)

    def _kept(self, r: int, snap: tuple[int, ...], target: int, bit: int) -> tuple[int, ...]:
        """The snapshot positions whose removals the explanation keeps: all of them, then
        each given back its root domain while the run still implies the deduction."""
        key = (r, target, bit, snap)
        kept = self.explained.get(key)
        if kept is not None:
            return kept
        slots = self._inputs(r)
        base = self.base
        masks = list(snap)
        if target >= 0:
            masks[target] = base[slots[target]]
        out = []
        for i, s in enumerate(slots):
            if i == target or masks[i] == base[s]:
                continue
            then = masks[i]
            masks[i] = base[s]
            if not self._implies(r, slots, masks, target, bit):
                masks[i] = then
                out.append(i)
        kept = tuple(out)
        if len(self.explained) > EXPLAINED_LIMIT:
            self.explained.clear()
        self.explained[key] = kept
        return kept

    def _clause(self, r: int, snap: tuple[int, ...], kept: tuple[int, ...]) -> list[int]:
        """The false literals of the kept removals: a removed digit's literal, or for a slot
        decided to one digit (and missing more than one), that digit's negation."""
        slots = self._inputs(r)
        base, var_of = self.base, self.var_of
        out = []
        for i in kept:
            s = slots[i]
            m = snap[i]
            row = var_of[s]
            gone = base[s] & ~m
            if POP[m] == 1 and POP[gone] > 1:
                out.append(-row[BITS[m][0]])
            else:
                out += [row[j] for j in BITS[gone]]
        return out

    def _conflict(self, r: int) -> list[int]:
        snap = self._snapshot(r)
        clause = self._clause(r, snap, self._kept(r, snap, -1, 0))
        self.stats.reason_literals += len(clause)
        if self.log is not None:
            self.log.append(clause)
        return clause

    def explain(self, lit: int) -> list[int]:
        """The reason clause of a literal this engine propagated (the literal first)."""
        r, snap = self.why[lit]
        v = -lit
        s, bit = self.var_slot[v], self.var_bit[v]
        target = self._inputs(r).index(s)
        clause = [lit, *self._clause(r, snap, self._kept(r, snap, target, bit))]
        self.stats.reasons += 1
        self.stats.reason_literals += len(clause)
        if self.log is not None:
            self.log.append(clause)
        return clause

    def provide_reason(self, lit: int) -> list[int]:
        return self.explain(lit)

    def has_clause(self) -> bool:
        return self.pending is not None

    def add_clause(self) -> list[int]:
        clause, self.pending = self.pending, None
        return clause or []

    def decide(self) -> int:
        return 0

    def check_model(self, model: list[int]) -> bool:
        """Every run right under a complete assignment (propagation has revised them all,
        so this only guards against a missed revision: a violated run is blocked)."""
        self.stats.model_checks += 1
        dom = list(self.base)
        var_slot, var_bit = self.var_slot, self.var_bit
        for lit in model:
            if lit > 0 and lit < len(var_slot):
                dom[var_slot[lit]] = var_bit[lit]
        for r in range(len(self.run_cells)):
            if self._revise(r, dom) is None:
                slots = self._inputs(r)
                self.pending = [
                    -self.var_of[s][BITS[dom[s]][0]]
                    for s in slots
                    if POP[self.base[s]] > 1
                ]
                self.stats.conflicts += 1
                return False
        return True
