"""Puzzle generation: unique standard and cryptic Kakuro puzzles by size and difficulty.

The pipeline (``core``) draws a layout, fills it (``fill.fill_grid``, conflict repair), writes
the run sums as clues and proves uniqueness region by region (``regions``: root propagation of
the native backend splits the open cells into independent regions, each searched or probed
on its own), repairing every ambiguous spot a check names before the next check.  Checks are
bounded by search nodes, not the clock, so a seed gives the same puzzle on any machine.
``transforms`` maps a puzzle through the 16 symmetries (8 geometric x digit complement);
``cryptic`` turns a unique standard puzzle into a Project Euler 424 style cryptic one;
``sets`` rebuilds the shipped sets.

Sizes are ``ROWSxCOLS`` (rows first) and include the first row and column, which hold only
clue cells and blocks; each side is 4-60 (4 only as 4x4), the longer at most three times the
shorter (``core.size_problem``), and ``full_frame`` (on by default, in the API and on the
command line) keeps every row and column in use; presets: ``beginner`` 8x8, ``intermediate``
12x12, ``grandmaster`` 16x22 (16 rows, 22 columns: the rulebook sheet).

Levels cap every clue's combination ambiguity (digit sets its length and sum admit) and keep
the mean ambiguity in a band, so means rise strictly from level to level: ``easy`` 1 (only
unique-partition clues), ``normal`` <= 2 (mean 1.25-2), ``hard`` <= 4 (mean 2.1-3.2),
``expert`` <= 6 (mean 3.3-6).  ``easy`` is structurally hard: every unique-partition set of
up to five digits holds a 1 (low sums) or a 9 (high sums), so those cells must pick exactly one
cell from every run; ``core.shape_for_level`` blocks the cells where fills keep dying until
the layout takes such a fill (16x22 and 20x20 in a few seconds).  ``logic_only`` keeps
puzzles that root propagation alone solves (no undecided region; with other backends, the
solver's ``max_depth`` or ``decisions`` statistic is 0).
"""

from __future__ import annotations

from .core import GENERATOR_VERSION, PRESETS, Generated, generate, generate_spec, parse_size
from .difficulty import DIFFICULTIES, mean_ambiguity
from .records import GenerationLimits, GenerationSpec, GenerationStats

__all__ = [
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "PRESETS",
    "Generated",
    "GenerationLimits",
    "GenerationSpec",
    "GenerationStats",
    "generate",
    "generate_spec",
    "mean_ambiguity",
    "parse_size",
]
