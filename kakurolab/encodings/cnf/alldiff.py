"""All-different per run: for each digit, at most one cell of the run holds it.

The at-most-one is any ``pysat.card`` encoding.  ``none`` is for sum encodings that already
forbid repeats (``SumEncoding.implies_alldiff``); the spec parser refuses it with the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Run
from .pool import Clauses, Pool, pairwise

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


def _sequential(pool: IDPool, lits: list[int]) -> list[list[int]]:
    """Sinz's sequential at-most-one (3n - 4 clauses, n - 1 auxiliaries), written here:
    ``auto`` uses it on every letter and selector group, where a pysat.card call per group
    costs more than the clauses."""
    first = pool.top + 1
    pool.top += len(lits) - 1
    aux = range(first, first + len(lits) - 1)
    clauses = [[-lits[0], aux[0]]]
    for i in range(1, len(lits) - 1):
        x, s, prev = lits[i], aux[i], aux[i - 1]
        clauses += ([-x, s], [-prev, s], [-x, -prev])
    clauses.append([-lits[-1], -aux[-1]])
    return clauses


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


def encode_alldiff(pool: Pool, run: Run, how: str) -> Clauses:
    """The run's all-different: per digit, at most one of its cells holds it (``how``: a
    pysat.card encoding, ``auto``, or ``none`` for no clauses)."""
    clauses: Clauses = []
    if how == "none":
        return clauses
    if how == "pairwise":  # the default: no call per digit
        for lits in pool.cells.by_digit(run.cells):
            if len(lits) > 1:
                clauses += pairwise(lits)
        return clauses
    for lits in pool.cells.by_digit(run.cells):
        if len(lits) > 1:
            clauses += at_most_one(pool.pool, lits, how)
    return clauses
