"""The technique ladder: every rung, simplest first, in one ordered registry.

The engine always applies the first rung that finds something, so the order *is* the
difficulty order.  The per-run rungs come from :mod:`.techniques`; after them come subsets
inside a run, region sums (innies/outies across runs), the uniqueness argument (swap
rectangles, which assumes one solution) and, last, bounded contradiction.  Cryptic letter
rungs (:mod:`.cryptic`) sit among the per-run ones: they only ever fire on cryptic puzzles.
"""

from __future__ import annotations

from .contradiction import bounded_contradiction
from .letter_techniques import CRYPTIC
from .region_sums import region_sum, run_group_sum
from .subsets import run_subsets
from .swaps import swap_rectangle
from .techniques import BASIC, Technique

_BY_BASIC = {t.name: t for t in BASIC}

TECHNIQUES: tuple[Technique, ...] = (
    *CRYPTIC[:1],  # clue bounds: the first thing a cryptic solver writes down
    *(_BY_BASIC[name] for name in ("naked single", "unique partition", "cross-intersection")),
    *CRYPTIC[1:3],  # letter singles, tied letters
    *(_BY_BASIC[name] for name in ("excluded digits", "hidden single", "sum arithmetic")),
    *CRYPTIC[3:4],  # letter sums
    _BY_BASIC["run sets"],
    *CRYPTIC[4:5],  # letter subsets
    Technique(
        "run subsets",
        6,
        "run",
        run_subsets,
        "naked and hidden pairs/triples inside a run",
    ),
    _BY_BASIC["run permutations"],
    Technique(
        "region sum",
        10,
        "region",
        region_sum,
        "innies minus outies of an area of whole runs equal the difference of clue totals",
    ),
    Technique(
        "run-group sum",
        11,
        "grid",
        run_group_sum,
        "region sums over any connected group of runs whose empty cells nearly coincide",
    ),
    Technique(
        "swap rectangle",
        14,
        "rectangle",
        swap_rectangle,
        "uniqueness: digits that could be exchanged around a rectangle keeping every sum",
        assumes_unique=True,
    ),
    Technique(
        "bounded contradiction",
        20,
        "grid",
        bounded_contradiction,
        "one supposition refuted by run consistency within a bounded number of revisions",
    ),
)
"""The ladder, simplest first."""

BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}

SOUND: tuple[Technique, ...] = tuple(t for t in TECHNIQUES if not t.assumes_unique)
"""The ladder without arguments that assume a unique solution: what proves a grid forced."""

PURE: tuple[Technique, ...] = tuple(
    t for t in TECHNIQUES if not t.assumes_unique and t.name != "bounded contradiction"
)
"""The ladder without uniqueness arguments and without suppositions: arithmetic and logic
only (what a generator that promises "no guessing" should require)."""
