"""Puzzle generation: unique standard and cryptic Kakuro puzzles by size and difficulty.

The pipeline (``core``) draws a layout, fills it, writes the run sums as clues and proves
uniqueness with a real solver (``uniqueness.count(..., backend="native")`` up to two),
repairing locally where a second solution differs (and, in the same step, wherever root
propagation leaves cells undecided).  Checks are bounded by a search-node budget, not by
the clock, so a seed gives the same puzzle on any machine.  ``transforms`` maps a puzzle through
the 16 symmetries (8 geometric x digit complement); ``cryptic`` turns a unique standard
puzzle into a Project Euler 424 style cryptic one; ``sets`` rebuilds the shipped sets.

Sizes are ``ROWSxCOLS`` (rows first) and include the first row and column, which hold only
clue cells and blocks; presets: ``beginner`` 8x8, ``intermediate`` 12x12, ``grandmaster``
16x22 (16 rows, 22 columns: the rulebook sheet).

Levels cap every clue's combination ambiguity (digit sets its length and sum admit) and keep
the mean ambiguity in a band, so means rise strictly from level to level: ``easy`` 1 (only
unique-partition clues), ``normal`` <= 2 (mean 1.25-2), ``hard`` <= 4 (mean 2.1-3.2),
``expert`` <= 6 (mean 3.3-6).  ``easy`` is structurally hard: every unique-partition set
holds a 1 (low sums) or a 9 (high sums), so the cells holding them must match across runs to
down runs one to one; the generator repairs layouts towards such a matching, which works up
to about 12x12, and becomes impractical for large grids (16x22 and up) — it then gives up
with a one-line error.  ``logic_only`` keeps puzzles the native solver settles with no
branching (its ``max_depth`` statistic is 0).
"""

from __future__ import annotations

from .core import GENERATOR_VERSION, PRESETS, Generated, generate, parse_size
from .difficulty import DIFFICULTIES, mean_ambiguity

__all__ = [
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "PRESETS",
    "Generated",
    "generate",
    "mean_ambiguity",
    "parse_size",
]
