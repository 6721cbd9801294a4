"""The CNF registries: every part's choices (:data:`CNF_ENCODERS`), the defaults a
canonical spec leaves out, and the named presets; read by the spec parser, ``kakuro
encodings`` and the tests."""

from __future__ import annotations

from ..encoding import Part
from .alldiff import CARD_ENCODINGS
from .cells import CELL_ENCODINGS
from .letters import (
    TIES,
)
from .sums import SUMS

ALL_CELLS = tuple(CELL_ENCODINGS)
"""Every constraint part works with every cell encoding: ``pb`` sums read the cells' own
variables (one-hot digits, ladder steps or binary bits, see ``CellEncoding.pb_terms``); the
others use ``x = d`` literals, which order and log cells define by channelling on demand."""

_IMPLYING = ", ".join(name for name, record in SUMS.items() if record.implies_alldiff)

CNF_ENCODERS: dict[str, dict[str, Part]] = {
    "cell": {name: Part(name, doc) for name, (_, doc) in CELL_ENCODINGS.items()},
    "amo": {
        "auto": Part(
            "auto", "exactly-one of each one-hot: pairwise up to 9 literals, else sequential"
        ),
        **{
            name: Part(name, f"exactly-one of each one-hot by pysat.card {name}")
            for name in CARD_ENCODINGS
        },
    },
    "sum": {
        name: Part(
            name,
            record.doc,
            build=record.build,
            args=record.args,
            cells=ALL_CELLS,
            implies_alldiff=record.implies_alldiff,
        )
        for name, record in SUMS.items()
    },
    "alldiff": {
        "none": Part("none", f"no clauses (only with {_IMPLYING}, which imply it)"),
        **{
            name: Part(name, f"per run and digit at-most-one by pysat.card {name}", cells=ALL_CELLS)
            for name in CARD_ENCODINGS
        },
    },
    "pre": {
        "none": Part("none", "no presolve: the whole puzzle is encoded (the default)"),
        "root": Part(
            "root", "presolve: cell and letter domains narrowed by native root propagation"
        ),
        "probe": Part(
            "probe",
            "presolve: root propagation, then the letters' digits probed (a digit whose "
            "propagation fails is removed), at most 16 probes; numeric puzzles as root",
        ),
    },
    "ties": {name: Part(name, doc) for name, (_, doc) in TIES.items()},
    "sets": {
        "exclude": Part(
            "exclude",
            "combo:lean on guarded (cryptic) runs: one clause per digit set (all its digits "
            "occur -> its sum's guard) where selectors cost more; needs an explicit alldiff",
        ),
        "select": Part(
            "select", "combo:lean on guarded runs: selectors everywhere (the encoder before)"
        ),
    },
    "guards": {
        "literal": Part(
            "literal",
            "a cryptic sum that is one letter's digit (one letter, AA, or one tens digit left) "
            "is selected by that letter literal itself",
        ),
        "own": Part("own", "every feasible cryptic sum gets its own guard (the encoder before)"),
    },
    "letters": {
        "live": Part(
            "live",
            "presolved (pre=root/probe) cryptic puzzles: letter variables only for the digits "
            "the presolve left to undecided letters; a decided letter is a constant",
        ),
        "all": Part("all", "presolved: all 100 letter variables (the encoder before)"),
    },
    "redundant": {
        "none": Part("none", "no redundant clauses"),
        "domain": Part("domain", "remove digits that no admissible digit set of a run holds"),
        "combo": Part("combo", "add the combo encoding on top of the sum encoding"),
    },
}

CNF_DEFAULTS = {"cell": "direct", "amo": "auto", "sum": "combo", "redundant": "none"}

DEFAULT_TIES = "split"
"""``ties`` when a spec names none: left out of canonical specs (as ``pre=none`` is), so the
spec strings from before the part existed keep their names."""

DEFAULT_SETS = "exclude"
"""``sets`` when a spec names none (left out of canonical specs, as ``ties``)."""

DEFAULT_GUARDS = "literal"
"""``guards`` when a spec names none (left out of canonical specs, as ``ties``)."""

DEFAULT_LETTERS = "live"
"""``letters`` when a spec names none (left out of canonical specs, as ``ties``)."""

OPTIONAL_DEFAULTS = {
    "pre": "none",
    "ties": DEFAULT_TIES,
    "sets": DEFAULT_SETS,
    "guards": DEFAULT_GUARDS,
    "letters": DEFAULT_LETTERS,
}
"""Parts a canonical spec leaves out when they have these values."""

CNF_PRESETS: dict[str, tuple[str, str]] = {
    "naive": (
        "cell=direct,sum=pb:best,alldiff=pairwise",
        "textbook: one-hot cells, pysat.pb sums, pairwise all-different",
    ),
    "compact": (
        "cell=log,sum=pb:bdd,alldiff=seqcounter",
        "few variables: binary cells, BDD sums, sequential-counter all-different",
    ),
    "order": (
        "cell=order,sum=pb:totalizer,alldiff=pairwise",
        "order-encoded cells with totalizer sums",
    ),
    "combo": ("cell=direct,sum=combo", "digit-set selectors (all-different implied)"),
    "fast": (
        "cell=direct,sum=combo:lean,alldiff=pairwise",
        "lean combo plus explicit all-different: small, propagates well (the default)",
    ),
    "presolved": (
        "cell=direct,sum=combo:lean,alldiff=pairwise,pre=root",
        "fast after root propagation by the native solver (fastest; not independent of native)",
    ),
    "probed": (
        "cell=direct,sum=combo:lean,alldiff=pairwise,pre=probe",
        "presolved plus probing of a cryptic puzzle's letters (not independent of native)",
    ),
    "table": ("cell=direct,sum=table", "tuple support encoding, GAC per run"),
    "strong": ("cell=direct,sum=mdd", "MDD per run, GAC on sum + all-different by propagation"),
    "lazy": (
        "cell=direct,sum=lazy,alldiff=pairwise",
        "sums checked by the solver loop, cuts added on demand",
    ),
}
