"""All-different per run: for each digit, at most one cell of the run holds it.

The at-most-one is any ``pysat.card`` encoding.  ``none`` is for sum encodings that already
forbid repeats (``SumEncoding.implies_alldiff``); the spec parser refuses it with the others.
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from operator import neg
from typing import TYPE_CHECKING

from ...model import Run
from .pool import Clauses, Pick, Pool, pairwise, picker

if TYPE_CHECKING:
    from pysat.formula import IDPool

CARD_ENCODINGS = (
    "pairwise",
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "bitwise",
    "ladder",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
)
"""Every clause-producing ``pysat.card.EncType`` (``native`` needs a cardinality solver)."""


AUTO_PAIRWISE = 9
"""``auto``: pairwise up to this many literals (a cell's nine digits), sequential beyond."""


@cache
def _sequential_layout(n: int) -> tuple[Pick, Pick]:
    """The two columns of Sinz's clauses over ``n`` literals, as positions in ``[-x_0 ..
    -x_{n-1}, s_0 .. s_{n-2}, -s_0 .. -s_{n-2}]``, in :func:`_sequential`'s clause order."""
    x, s, ns = range(n), range(n, 2 * n - 1), range(2 * n - 1, 3 * n - 2)
    pairs = [(x[0], s[0])]
    for i in range(1, n - 1):
        pairs += [(x[i], s[i]), (ns[i - 1], s[i]), (x[i], ns[i - 1])]
    pairs.append((x[n - 1], ns[n - 2]))
    return picker(tuple(a for a, _ in pairs)), picker(tuple(b for _, b in pairs))


def _sequential(pool: IDPool, lits: list[int]) -> list[list[int]]:
    """Sinz's sequential at-most-one (3n - 4 clauses, n - 1 auxiliaries), written here:
    ``auto`` uses it on every letter and selector group, where a pysat.card call per group
    costs more than the clauses: ``[-x_0, s_0]``, per middle i ``[-x_i, s_i]``, ``[-s_{i-1},
    s_i]``, ``[-x_i, -s_{i-1}]``, and ``[-x_{n-1}, -s_{n-2}]``."""
    first = pool.top + 1
    pool.top += len(lits) - 1
    aux = range(first, pool.top + 1)
    items = [*map(neg, lits), *aux, *map(neg, aux)]
    left, right = _sequential_layout(len(lits))
    return list(map(list, zip(left(items), right(items), strict=True)))


def at_most_one(pool: IDPool, lits: list[int], how: str) -> list[list[int]]:
    """Clauses for ``at most one of lits`` by the named pysat.card encoding (or ``auto``),
    auxiliaries from ``pool``, as ``CardEnc.atmost(lits, 1, vpool)`` returns them."""
    if len(lits) < 2:
        return []
    if how == "auto":
        if len(lits) > AUTO_PAIRWISE:
            return _sequential(pool, lits)
        how = "pairwise"
    if how == "pairwise":  # written directly: the commonest case, no pysat round trip
        return pairwise(lits)
    from pysat.card import CardEnc, EncType

    formula = CardEnc.atmost(lits, 1, vpool=pool, encoding=getattr(EncType, how))
    return formula.clauses


@cache
def _run_pairs(sizes: tuple[int, ...]) -> tuple[Pick, Pick]:
    """Pairwise all-different of a run whose digits have ``sizes`` literals each: the two
    columns of every pair within each digit's group, as positions in the groups laid end to
    end (in the order of one :func:`at_most_one` per digit)."""
    pairs = []
    start = 0
    for size in sizes:
        pairs += [(start + i, start + j) for i in range(size) for j in range(i + 1, size)]
        start += size
    return picker(tuple(a for a, _ in pairs)), picker(tuple(b for _, b in pairs))


def encode_alldiff(pool: Pool, run: Run, how: str) -> Clauses:
    """The run's all-different: per digit, at most one of its cells holds it (``how``: a
    pysat.card encoding, ``auto``, or ``none`` for no clauses)."""
    clauses: Clauses = []
    if how == "none":
        return clauses
    if how == "pairwise":  # the default: the run's pairs in one pass, by its shape
        by_digit = pool.cells.by_digit(run.cells)
        left, right = _run_pairs(tuple(map(len, by_digit)))
        flat = list(map(neg, chain.from_iterable(by_digit)))
        return list(map(list, zip(left(flat), right(flat), strict=True)))
    for lits in pool.cells.by_digit(run.cells):
        if len(lits) > 1:
            clauses += at_most_one(pool.pool, lits, how)
    return clauses
