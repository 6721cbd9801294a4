"""Cell-value encodings: how the digit 1-9 of one white cell becomes Boolean variables.

Kept apart from the constraint encodings (as CPMpy keeps IntVarEncDirect/Order/Log apart):
a cell encoding owns its variables and their consistency clauses (:meth:`CellEncoding.declare`
returns them), and offers three views that constraint encodings build on (the
:class:`.pool.CellLiterals` protocol):

* ``eq(cell, d)`` -- a literal for ``x = d``.  For ``direct`` it is the cell's own variable;
  ``order`` and ``log`` define it on demand by a full equivalence (channelling, added to the
  formula by the pool), so their own structure stays intact and only the direct literals a
  constraint needs are created.
* ``pb_terms(cell)`` -- the value as ``offset + sum(weight * literal)`` over the cell's own
  variables, for pseudo-Boolean sums without channelling.
* ``value_lits(cell, d)`` -- the conjunction of own literals meaning ``x = d``: blocking
  clauses and lazy cuts are written over these, so they never mention auxiliaries.
"""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection

from ...model import Cell
from .pool import Clauses, VarPool, pairwise

DIGITS = range(1, 10)


class CellEncoding(ABC):
    """The variables of every white cell under one scheme."""

    def __init__(self, enc: VarPool) -> None:
        # A weak reference: the pool owns its cell encoding, and a cycle between them would
        # leave a finished encoding's thousands of clause lists to the cyclic garbage
        # collector instead of freeing them at once (on PE424 those collections cost more
        # than loading the clauses into the solver).
        self.enc: VarPool = weakref.proxy(enc)
        self._eq: dict[tuple[Cell, int], int] = {}
        self.allowed: dict[Cell, tuple[int, ...]] = {}
        self._by_digit: dict[tuple[Cell, ...], list[list[int]]] = {}
        """The digits each cell may take (1-9 unless the encoding pruned its domain)."""

    def declare(self, cell: Cell, allowed: tuple[int, ...] = tuple(DIGITS)) -> Clauses:
        """Create the cell's own variables; returns the clauses that make them a digit in
        ``allowed``.  Constraint encoders only ever ask for ``eq(cell, d)`` with d allowed."""
        self.allowed[cell] = allowed
        return self._declare(cell, allowed)

    @abstractmethod
    def _declare(self, cell: Cell, allowed: tuple[int, ...]) -> Clauses: ...

    def declare_all(self, domains: dict[Cell, tuple[int, ...]]) -> Clauses:
        """:meth:`declare` of each cell with its digits, in ``domains``' order."""
        clauses: Clauses = []
        for cell, allowed in domains.items():
            clauses += self.declare(cell, allowed)
        return clauses

    def declare_fixed(self, values: dict[Cell, int]) -> Clauses:
        """:meth:`declare` of each cell with its one digit, in ``values``' order: the same
        variables and clauses (a presolve that settled every cell writes only these)."""
        return self.declare_all({cell: (digit,) for cell, digit in values.items()})

    def _exclude(self, cell: Cell, allowed: tuple[int, ...]) -> Clauses:
        """Clauses forbidding the digits outside ``allowed`` (non-direct encodings)."""
        return [[-a for a in self.value_lits(cell, d)] for d in DIGITS if d not in allowed]

    @abstractmethod
    def own_vars(self, cell: Cell) -> list[int]: ...

    @abstractmethod
    def value_lits(self, cell: Cell, d: int) -> list[int]:
        """Own literals whose conjunction means ``x = d``."""

    @abstractmethod
    def pb_terms(self, cell: Cell) -> tuple[list[int], list[int], int]:
        """``(literals, weights, offset)`` with ``x = offset + sum(w * lit)``."""

    def by_digit(self, cells: tuple[Cell, ...]) -> list[list[int]]:
        """For each digit d (index 1-9), the ``x = d`` literals of the cells that allow d.
        Memoised per run: sum and all-different encoders of one run share it."""
        found = self._by_digit.get(cells)
        if found is None:
            found = [[] for _ in range(10)]
            eq, allowed = self.eq, self.allowed
            for cell in cells:
                for d in allowed[cell]:
                    found[d].append(eq(cell, d))
            self._by_digit[cells] = found
        return found

    def eq(self, cell: Cell, d: int) -> int:
        """The literal ``x = d`` (channelled on first use for non-direct encodings)."""
        key = (cell, d)
        lit = self._eq.get(key)
        if lit is None:
            lit = self._eq[key] = self.enc.var("cell", cell[0], cell[1], d)
            conj = self.value_lits(cell, d)
            self.enc.define([*([-lit, a] for a in conj), [lit, *(-a for a in conj)]])
        return lit

    def decode(self, cell: Cell, true: Collection[int]) -> int:
        for d in self.allowed[cell]:
            if all((a in true) if a > 0 else (-a not in true) for a in self.value_lits(cell, d)):
                return d
        return 0


class Direct(CellEncoding):
    """One variable per digit, exactly one true (cardinality encoding from ``amo=``)."""

    def __init__(self, enc: VarPool) -> None:
        super().__init__(enc)
        self._digits: dict[Cell, list[tuple[int, int]]] = {}
        """Per cell, its ``(digit, literal)`` pairs: what ``by_digit`` and ``decode`` walk,
        without building a ``(cell, digit)`` key per literal."""

    def _declare(self, cell: Cell, allowed: tuple[int, ...]) -> Clauses:
        r, c = cell
        # digits outside the domain get no variable at all
        lits = self.enc.vars([("cell", r, c, d) for d in allowed])
        self._eq.update(zip([(cell, d) for d in allowed], lits, strict=True))
        self._digits[cell] = list(zip(allowed, lits, strict=True))
        return self.enc.one_of(lits)

    def declare_all(self, domains: dict[Cell, tuple[int, ...]]) -> Clauses:
        """One block of variables for all the cells, then each cell's exactly-one: what
        ``declare`` makes cell by cell when the at-most-ones are pairwise (``amo=auto`` on at
        most nine digits, or ``pairwise``), which draw no auxiliaries in between."""
        if self.enc.amo not in ("auto", "pairwise"):
            return super().declare_all(domains)
        pairs = [(cell, d) for cell, allowed in domains.items() for d in allowed]
        lits = self.enc.vars([("cell", r, c, d) for (r, c), d in pairs])
        self._eq.update(zip(pairs, lits, strict=True))
        self.allowed.update(domains)
        clauses: Clauses = []
        digits = self._digits
        at = 0
        for cell, allowed in domains.items():
            row = lits[at : at + len(allowed)]
            at += len(allowed)
            digits[cell] = list(zip(allowed, row, strict=True))
            clauses.append(row)
            if len(row) > 1:
                clauses += pairwise(row)
        return clauses

    def declare_fixed(self, values: dict[Cell, int]) -> Clauses:
        """One block of variables, one unit each (what ``declare`` makes cell by cell: a
        one-digit exactly-one is that unit)."""
        keys = [("cell", r, c, d) for (r, c), d in values.items()]
        lits = self.enc.vars(keys)
        self._eq.update(zip(values.items(), lits, strict=True))
        self.allowed.update((cell, (d,)) for cell, d in values.items())
        pairs = zip(values.items(), lits, strict=True)
        self._digits.update((cell, [(d, lit)]) for (cell, d), lit in pairs)
        return [[lit] for lit in lits]

    def own_vars(self, cell: Cell) -> list[int]:
        return [self._eq[(cell, d)] for d in self.allowed[cell]]

    def value_lits(self, cell: Cell, d: int) -> list[int]:
        return [self._eq[(cell, d)]]

    def pb_terms(self, cell: Cell) -> tuple[list[int], list[int], int]:
        return self.own_vars(cell), list(self.allowed[cell]), 0

    def eq(self, cell: Cell, d: int) -> int:
        return self._eq[(cell, d)]

    def decode(self, cell: Cell, true: Collection[int]) -> int:
        for d, lit in self._digits[cell]:
            if lit in true:
                return d
        return 0

    def by_digit(self, cells: tuple[Cell, ...]) -> list[list[int]]:
        found = self._by_digit.get(cells)
        if found is None:
            found = [[] for _ in range(10)]
            digits = self._digits
            for cell in cells:
                for d, lit in digits[cell]:
                    found[d].append(lit)
            self._by_digit[cells] = found
        return found


class Order(CellEncoding):
    """The ladder ``x >= d`` for d = 2..9, each implying the one below."""

    def _declare(self, cell: Cell, allowed: tuple[int, ...]) -> Clauses:
        r, c = cell
        ge = [self.enc.var("ge", r, c, d) for d in range(2, 10)]
        ladder = [[-upper, lower] for upper, lower in zip(ge[1:], ge, strict=False)]
        return ladder + self._exclude(cell, allowed)

    def ge(self, cell: Cell, d: int) -> int:
        return self.enc.var("ge", cell[0], cell[1], d)

    def own_vars(self, cell: Cell) -> list[int]:
        return [self.ge(cell, d) for d in range(2, 10)]

    def value_lits(self, cell: Cell, d: int) -> list[int]:
        lits = []
        if d > 1:
            lits.append(self.ge(cell, d))
        if d < 9:
            lits.append(-self.ge(cell, d + 1))
        return lits

    def pb_terms(self, cell: Cell) -> tuple[list[int], list[int], int]:
        return self.own_vars(cell), [1] * 8, 1


class Log(CellEncoding):
    """Four binary digits ``x = b0 + 2 b1 + 4 b2 + 8 b3``; 0 and 10-15 are forbidden."""

    BITS = 4

    def _declare(self, cell: Cell, allowed: tuple[int, ...]) -> Clauses:
        b0, b1, b2, b3 = self.own_vars(cell)
        return [
            [b0, b1, b2, b3],  # not 0
            [-b3, -b1],  # not 10, 11, 14, 15
            [-b3, -b2],  # not 12, 13 (and 14, 15)
            *self._exclude(cell, allowed),
        ]

    def own_vars(self, cell: Cell) -> list[int]:
        return [self.enc.var("bit", cell[0], cell[1], i) for i in range(self.BITS)]

    def value_lits(self, cell: Cell, d: int) -> list[int]:
        return [b if d >> i & 1 else -b for i, b in enumerate(self.own_vars(cell))]

    def pb_terms(self, cell: Cell) -> tuple[list[int], list[int], int]:
        return self.own_vars(cell), [1 << i for i in range(self.BITS)], 0


CELL_ENCODINGS: dict[str, tuple[Callable[[VarPool], CellEncoding], str]] = {
    "direct": (Direct, "one-hot: a literal per digit, exactly one true (by amo=)"),
    "order": (Order, "order/ladder: literals x>=2..x>=9, each implying the one below"),
    "log": (Log, "log/binary: four bits, the values 0 and 10-15 excluded by clauses"),
}
