"""What a technique looks at (its *scope*) and which changes make it look again.

The engine keeps one agenda per technique of targets still to examine.  A scope lists a
puzzle's targets once (cells, runs, regions of runs, swap rectangles, or the whole grid) and,
per white cell, the targets whose argument may change when that cell's candidates change; so a
step re-queues only what it touched.  Targets are built once per puzzle and cached, since a
hint sequence builds an engine per hint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .. import deadline as deadlines
from ..model import Cell, Puzzle, Run
from .region_sums import regions_of
from .swaps import rectangles_of


@dataclass(frozen=True)
class Targets:
    """A scope's targets for one puzzle and, per cell, the targets to re-queue on a change.

    ``always`` re-queues every target after every step (the grid scope: one target).
    """

    items: tuple[Any, ...]
    watch: dict[Cell, tuple[int, ...]]
    always: bool = False


def _watching(items: Iterable[Any], cells_of: Callable[[Any], Iterable[Cell]]) -> dict:
    watch: dict[Cell, list[int]] = {}
    for i, item in enumerate(items):
        if not i % 1024:
            deadlines.check()
        for cell in cells_of(item):
            watch.setdefault(cell, []).append(i)
    return {cell: tuple(dict.fromkeys(ids)) for cell, ids in watch.items()}


def _cells(puzzle: Puzzle) -> Targets:
    """A cell is looked at again when anything in its runs changes (its runs' sets shift)."""
    items = puzzle.whites
    index = {c: i for i, c in enumerate(items)}
    watch = {
        cell: tuple(dict.fromkeys(index[o] for run in puzzle.runs_of[cell] for o in run.cells))
        for cell in items
    }
    return Targets(items, watch)


def _runs(puzzle: Puzzle) -> Targets:
    items = puzzle.runs
    return Targets(items, _watching(items, lambda run: run.cells))


def _grid(puzzle: Puzzle) -> Targets:
    return Targets((None,), {}, always=True)


def _regions(puzzle: Puzzle) -> Targets:
    items = regions_of(puzzle)
    return Targets(items, _watching(items, lambda region: region.watch))


def _rectangles(puzzle: Puzzle) -> Targets:
    items = rectangles_of(puzzle)
    return Targets(items, _watching(items, lambda rect: rect.watch))


SCOPES: dict[str, Callable[[Puzzle], Targets]] = {
    "cell": _cells,
    "run": _runs,
    "region": _regions,
    "rectangle": _rectangles,
    "grid": _grid,
}
"""Scope name -> builder of that scope's targets for a puzzle."""

_CACHE: dict[int, tuple[Puzzle, dict[str, Targets]]] = {}
_CACHE_SIZE = 32


def targets(puzzle: Puzzle, scope: str) -> Targets:
    """The scope's targets for ``puzzle`` (built once per puzzle object).  Building them
    checks the current deadline (:class:`~kakurolab.deadline.EncodingTimeout`): a large
    grid's rectangles take most of a second."""
    entry = _CACHE.get(id(puzzle))
    if entry is None or entry[0] is not puzzle:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        entry = _CACHE[id(puzzle)] = (puzzle, {})
    built = entry[1]
    found = built.get(scope)
    if found is None:
        found = built[scope] = SCOPES[scope](puzzle)
    return found


def clued_cells(puzzle: Puzzle, letters: Iterable[str]) -> set[Cell]:
    """Cells whose runs' clues use one of ``letters``, and cells showing one of them: what a
    change of those letters' digits touches (cryptic puzzles)."""
    wanted = set(letters)
    cells: set[Cell] = {c for c, ch in puzzle.shown_letters.items() if ch in wanted}
    for run in _lettered_runs(puzzle):
        if run.clue is not None and set(run.clue.letters or "") & wanted:
            cells.update(run.cells)
    return cells


def _lettered_runs(puzzle: Puzzle) -> list[Run]:
    return [run for run in puzzle.runs if run.clue is not None and run.clue.letters]
