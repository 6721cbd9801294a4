"""CNF encodings through PySAT (filled in by issue 4)."""

from __future__ import annotations

from ..base import Part

CNF_ENCODERS: dict[str, dict[str, Part]] = {
    "cell": {"direct": Part("direct", "one-hot literal per digit")},
    "amo": {"pairwise": Part("pairwise", "exactly-one of a one-hot by pairwise clauses")},
    "sum": {"combo": Part("combo", "one selector per digit set", implies_alldiff=True)},
    "alldiff": {
        "none": Part("none", "nothing (the sum encoding implies it)"),
        "pairwise": Part("pairwise", "per run and digit at-most-one, pairwise"),
    },
    "redundant": {"none": Part("none", "no redundant constraints")},
}
CNF_DEFAULTS = {"cell": "direct", "amo": "pairwise", "sum": "combo", "redundant": "none"}
CNF_PRESETS: dict[str, tuple[str, str]] = {
    "strong": ("cell=direct,sum=combo", "placeholder"),
}


def encode_cnf(puzzle, spec):  # type: ignore[no-untyped-def]
    raise NotImplementedError
