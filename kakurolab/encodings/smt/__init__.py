"""SMT encodings, built with z3's Python API and exported as SMT-LIB2.

``SMT_ENCODERS`` maps the value of the ``smt=`` spec part to a :class:`~..encoding.Part` whose
``build(puzzle, spec)`` returns an :class:`~.common.SmtEncoding`; ``Part.options`` lists the
extra spec kinds it accepts (``logic``, ``tactic``, ``status``).  ``SMT_PRESETS`` adds named
presets.  The first logic of each entry is its default.
"""

from __future__ import annotations

from ..encoding import Part
from . import bv, lia, pb, table
from .common import LOGICS, SmtEncoding, smt_part

SMT_ENCODERS: dict[str, Part] = {
    "lia": smt_part(
        "lia",
        "integer cells 1..9, Distinct and Sum == clue per run (the textbook model)",
        lia.formula,
        logics=("QF_LIA", "QF_FD", "ALL"),
    ),
    "bv": smt_part(
        "bv",
        "4-bit bit-vector cells, Distinct per run, sums zero-extended to 8 bits",
        bv.formula,
        logics=("QF_BV", "QF_FD", "ALL"),
    ),
    "pb": smt_part(
        "pb",
        "one-hot Boolean cells; PbEq sums, AtMost(1) per digit and run",
        pb.formula,
        logics=("ALL", "QF_FD"),
    ),
    "table": smt_part(
        "table",
        "integer cells; each run one disjunction over its admissible digit sets",
        table.formula,
        logics=("QF_LIA", "QF_FD", "ALL"),
    ),
}

SMT_PRESETS: dict[str, tuple[str, str]] = {
    "smt": (
        "smt=bv,logic=QF_FD",
        "the fastest SMT encoding measured (bit-vectors in z3's SAT core; docs/encodings-smt.md)",
    ),
    "smt-textbook": ("smt=lia", "integer cells, Distinct and Sum per run, QF_LIA"),
}
"""Preset name -> (spec, one-line doc)."""

__all__ = ["LOGICS", "SMT_ENCODERS", "SMT_PRESETS", "SmtEncoding"]
