"""Puzzle generation: unique standard and cryptic Kakuro puzzles by size and difficulty.

The pipeline (``core``) draws a layout, fills it, writes the run sums as clues and proves
uniqueness with a real solver, repairing locally where a second solution differs.
``transforms`` maps a puzzle through the 16 symmetries (8 geometric x digit complement);
``cryptic`` turns a unique standard puzzle into a Project Euler 424 style cryptic one.
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
