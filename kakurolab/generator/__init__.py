"""Puzzle generation: unique standard and cryptic Kakuro puzzles by size and difficulty.

The pipeline (``core``) draws a layout with a published look (``draw.published_layout``:
about 72% of the interior white, blocks scattered so no black area grows past a few cells,
few two-cell runs, half-turn symmetric unless ``symmetric=False``), fills it
(``fill.fill_grid``, conflict repair), writes the run sums as clues and repairs until root
propagation alone decides every cell (``logic_only``, the default): such a puzzle is unique
and ``logic.deduce`` solves it without search.  The check (``spot_checks.RegionCheck``)
splits the cells propagation leaves open into independent regions (``region_search``) and,
with a small search per region, names the cells where a second solution differs; repairs
(``repair``) change digits and clues first (one digit, then a few run-mates), undo a round
that leaves far more open than the best grid so far, and block cells only when a spot
resists ``GenerationLimits.stall`` checks, in mirror pairs, while the white share stays
above the level's floor; the unique grid is whitened towards the published share
(``density``).  Checks are bounded by search nodes, not the clock, so a seed gives the same
puzzle on any machine.
``transforms`` maps a puzzle through the 16 symmetries (8 geometric x digit complement);
``encrypt`` turns a unique standard puzzle into a Project Euler 424 style cryptic one;
``tighten`` makes the ambiguity knob's puzzles (a planted fill with a share of its
uniqueness repairs applied, and twins with two clues raised: issue 47's phase transition);
``sets`` rebuilds the shipped sets; ``kakurolab.bank`` keeps verified puzzles for instant
play.

Sizes are ``ROWSxCOLS`` (rows first) and include the first row and column, which hold only
clue cells and blocks; each side is 4-60 (4 only as 4x4), the longer at most three times the
shorter (``core.size_problem``), and ``full_frame`` (on by default, in the API and on the
command line) keeps every row and column in use; presets: ``beginner`` 8x8, ``intermediate``
12x12, ``grandmaster`` 16x22 (16 rows, 22 columns: the rulebook sheet).

Levels are ``logic.levels.LEVELS`` (easy, normal, hard, expert), the grader's own: a
hardest technique and a band of mean clue ambiguity (digit sets a clue's length and sum admit,
PuzzleHub's measure; bands are disjoint, so means rise strictly from level to level).
``steering.DIFFICULTIES`` holds the generator's means to each (a cap per clue, fill
preferences, and gates a little inside the level): ``easy`` mean 1.0-1.4, clues of at most two
sets, nothing beyond run sets; ``normal`` above 1.4 to 2.0 (cap 2); ``hard`` 2.05-2.6 (cap 4),
at least run sets; ``expert`` 2.65-4.0 (cap 5), and it must need exact run consistency.  So
``kakuro grade`` names the level a puzzle was made for.  Published puzzles (the janko dev
set) range 1.3-4.1 with a median of 2.75.  ``logic_only=False`` accepts unique puzzles
that need search.
"""

from __future__ import annotations

from .clues import build_puzzle, from_clues
from .core import (
    GENERATOR_VERSION,
    MAX_ASPECT,
    MAX_SIZE,
    MIN_SIZE,
    PRESETS,
    Generated,
    derive_seed,
    generate,
    generate_spec,
    parse_size,
)
from .draw import published_layout
from .encrypt import generate_cryptic
from .fill import fill_grid
from .job import (
    WHITE_GOAL,
    GenerationLimits,
    GenerationSpec,
    GenerationStats,
    white_goal_arg,
)
from .layout import Layout
from .speed import BENCH_SIZES
from .steering import DIFFICULTIES, mean_ambiguity
from .tighten import Tightening, tightened, tightening, twin
from .transforms import Transform, transform_puzzle, transform_solution

__all__ = [
    "BENCH_SIZES",
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "MAX_ASPECT",
    "MAX_SIZE",
    "MIN_SIZE",
    "PRESETS",
    "WHITE_GOAL",
    "Generated",
    "GenerationLimits",
    "GenerationSpec",
    "GenerationStats",
    "Layout",
    "Tightening",
    "Transform",
    "build_puzzle",
    "derive_seed",
    "fill_grid",
    "from_clues",
    "generate",
    "generate_cryptic",
    "generate_spec",
    "mean_ambiguity",
    "parse_size",
    "published_layout",
    "tightened",
    "tightening",
    "transform_puzzle",
    "transform_solution",
    "twin",
    "white_goal_arg",
]
