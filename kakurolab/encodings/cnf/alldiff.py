"""All-different per run: for each digit, at most one cell of the run holds it.

The at-most-one is any ``pysat.card`` encoding.  ``none`` is for sum encodings that already
forbid repeats (combo, table, mdd); the spec parser refuses it with the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Run

if TYPE_CHECKING:
    from . import CNFEncoding

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


def at_most_one(enc: CNFEncoding, lits: list[int], how: str) -> None:
    """Clauses for ``at most one of lits`` by the named pysat.card encoding."""
    if len(lits) < 2:
        return
    if how == "pairwise":  # written directly: the commonest case, no pysat round trip
        add = enc.clauses.append
        for i, a in enumerate(lits):
            for b in lits[i + 1 :]:
                add([-a, -b])
        return
    from pysat.card import CardEnc, EncType

    formula = CardEnc.atmost(lits, 1, vpool=enc.pool, encoding=getattr(EncType, how))
    enc.clauses.extend(formula.clauses)


def encode_alldiff(enc: CNFEncoding, run: Run, how: str) -> None:
    if how == "none":
        return
    eq = enc.cells.eq
    for d in range(1, 10):
        at_most_one(enc, [eq(cell, d) for cell in run.cells], how)
