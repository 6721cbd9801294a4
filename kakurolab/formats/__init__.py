"""Formats: the registry (:data:`FORMATS`) and the face of loading, detection and writing.

One :class:`Format` subclass per format (:mod:`.format` holds the base class); the registry,
detection and writing in :mod:`.registry`; loading with validation, id selection and invalid
puzzles kept in place in :mod:`.loading`; solution files in :mod:`.solutions`.
"""

from __future__ import annotations

from .cpmodels import CP_MODELS
from .format import Format
from .kakuro import grid_lines
from .loading import (
    Entry,
    InvalidPuzzle,
    LoadReport,
    load,
    load_report,
    loads,
    loads_report,
    read_text,
    selection,
)
from .registry import FORMATS, detect, dumps, get_format
from .solutions import embedded_solution, load_solutions, solutions_from_text

__all__ = [
    "CP_MODELS",
    "FORMATS",
    "Entry",
    "Format",
    "InvalidPuzzle",
    "LoadReport",
    "detect",
    "dumps",
    "embedded_solution",
    "get_format",
    "grid_lines",
    "load",
    "load_report",
    "load_solutions",
    "loads",
    "loads_report",
    "read_text",
    "selection",
    "solutions_from_text",
]
