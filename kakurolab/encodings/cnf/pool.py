"""The explicit pool every CNF part builds over, and what it offers.

A part is a function like ``pysat.card.CardEnc.atmost(lits, bound, vpool)``: it takes the
pool and *returns* its clauses; it never appends to the formula.  The pool is the one place
with state: named variables (``var``, over one PySAT ``IDPool``, which ``pysat.card`` and
``pysat.pb`` also draw their auxiliaries from), the cells' literals (:class:`CellLiterals`),
the spec's exactly-one encoding, the letters' digits a presolve left, and notes about
fallbacks.  :class:`~kakurolab.encodings.cnf.CNFEncoding` is the pool; the parts only know
these protocols, which is why no part imports the encoding it builds.

One kind of clause does not come back from a part: the definition of a literal the pool
makes on demand (an order or log cell's ``x = d``, channelled on first use), which the pool
adds to the formula itself (:meth:`VarPool.define`), once, however many parts use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from operator import call, itemgetter, neg
from typing import TYPE_CHECKING, Any, Protocol

from ...model import Cell

if TYPE_CHECKING:
    from pysat.formula import IDPool

Clauses = list[list[int]]

Pick = Callable[[list[int]], tuple[int, ...]]
"""Items of a list at fixed positions, as one tuple (``operator.itemgetter``, always a tuple)."""


def picker(positions: tuple[int, ...]) -> Pick:
    """The :data:`Pick` of ``positions``.  Builders whose clauses follow a pattern fixed by a
    run's shape pick their literals column by column and ``zip`` them into clauses: the
    per-clause work then happens in C, a third of the time of a Python loop per clause."""
    if len(positions) == 1:
        (i,) = positions
        return lambda items: (items[i],)
    return itemgetter(*positions) if positions else lambda items: ()


@cache
def pairs(n: int) -> tuple[Pick, Pick]:
    """The two columns of every pair ``i < j`` of ``n`` positions (a pairwise at-most-one)."""
    firsts = tuple(i for i in range(n) for _ in range(i + 1, n))
    seconds = tuple(j for i in range(n) for j in range(i + 1, n))
    return picker(firsts), picker(seconds)


@dataclass(frozen=True)
class Template:
    """Clauses whose literals sit at fixed positions of an item list, in a fixed order: a
    part whose clauses follow a run's shape builds this once per shape and instantiates it
    per run.

    The clauses are cut into segments, in order.  A long enough stretch of clauses of one
    width is *zipped*: one :data:`Pick` per column, the clauses ``zip``-ped from them.  What
    is left (a wide clause alone, short stretches: a cryptic run's guard links alternate
    widths) is *picked*: consecutive clauses form one segment, each clause its own ``Pick``,
    all of them called by one ``map`` in C.  Per segment the Python work is the same, so the
    fewer segments the better; a stretch is zipped where that takes fewer picks (``len > width
    + 1``), or always for unit clauses (a one-position ``Pick`` returns no tuple)."""

    segments: tuple[tuple[tuple[Pick, ...], tuple[Pick, ...] | None], ...]
    """``(columns, None)`` for a zipped stretch, ``((), picks)`` for a picked one."""

    @classmethod
    def of(cls, clauses: list[tuple[int, ...]]) -> Template:
        segments: list[tuple[tuple[Pick, ...], tuple[Pick, ...] | None]] = []
        loose: list[Pick] = []
        i = 0
        while i < len(clauses):
            j = i + 1
            width = len(clauses[i])
            while j < len(clauses) and len(clauses[j]) == width:
                j += 1
            if width < 2 or j - i > width + 1:
                if loose:
                    segments.append(((), tuple(loose)))
                    loose = []
                columns = zip(*clauses[i:j], strict=True)
                segments.append((tuple(map(picker, columns)), None))
            else:
                loose += [picker(clause) for clause in clauses[i:j]]
            i = j
        if loose:
            segments.append(((), tuple(loose)))
        return cls(tuple(segments))

    def clauses(self, items: list[int]) -> Clauses:
        out: Clauses = []
        for columns, picks in self.segments:
            if picks is None:
                out.extend(map(list, zip(*[pick(items) for pick in columns], strict=True)))
            else:
                out.extend(map(list, map(call, picks, repeat(items))))
        return out


def pairwise(lits: list[int]) -> Clauses:
    """``[[-a, -b] for a, b in combinations(lits, 2)]``, in that order, built in C."""
    negated = list(map(neg, lits))
    first, second = pairs(len(lits))
    return list(map(list, zip(first(negated), second(negated), strict=True)))


class VarPool(Protocol):
    """What a cell encoding needs: named variables (and the ``IDPool`` behind them), the
    exactly-one encoding (returned as clauses), and where definitions of on-demand literals
    go."""

    @property
    def pool(self) -> IDPool: ...

    def var(self, *key: Any) -> int: ...

    def vars(self, keys: list[tuple[Any, ...]]) -> list[int]:
        """``[var(*key) for key in keys]``, faster when all are new (one block of ids)."""
        ...

    def one_of(self, lits: list[int]) -> Clauses: ...

    @property
    def amo(self) -> str:
        """The ``amo`` part :meth:`one_of` writes its at-most-ones by."""
        ...

    def define(self, clauses: Clauses) -> None: ...


class CellLiterals(Protocol):
    """The cells' views a constraint part reads (see :mod:`.cells`): the digits each cell may
    take, ``x = d`` literals, per-digit literal lists of a run, own-literal conjunctions and
    pseudo-Boolean terms."""

    @property
    def allowed(self) -> dict[Cell, tuple[int, ...]]: ...

    def eq(self, cell: Cell, d: int) -> int: ...

    def by_digit(self, cells: tuple[Cell, ...]) -> list[list[int]]: ...

    def value_lits(self, cell: Cell, d: int) -> list[int]: ...

    def pb_terms(self, cell: Cell) -> tuple[list[int], list[int], int]: ...


class Pool(VarPool, Protocol):
    """What a constraint part (sum, all-different, letters, redundant) may use: the
    :class:`VarPool`, the cells' literals, whether a presolve narrowed the domains (and the
    letters' digits it left, bit d; empty: no presolve; and whether only those digits, of
    undecided letters, get variables), how guarded runs' digit sets are encoded, and notes
    about fallbacks."""

    @property
    def cells(self) -> CellLiterals: ...

    @property
    def presolved(self) -> bool: ...

    @property
    def letter_masks(self) -> dict[str, int]: ...

    @property
    def live_letters(self) -> bool:
        """Whether letter variables exist only for the digits the presolve left
        (``letters=live`` with ``pre=root``); else all 100 exist."""
        ...

    @property
    def fixed_letters(self) -> dict[str, int]:
        """With :attr:`live_letters`, the letters the presolve decided, each a constant (its
        digit) with no variable at all; else empty."""
        ...

    @property
    def exclusion(self) -> bool:
        """Whether ``combo:lean`` may encode guarded runs by exclusion clauses (``sets=exclude``
        and an explicit all-different, which those clauses rely on)."""
        ...

    def note(self, message: str) -> None: ...
