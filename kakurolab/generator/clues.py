"""Clues from a filled layout: each run's clue is the sum of its digits.

Clue cells are re-derived from the white pattern (the non-white cell in front of each run),
so any layout with digits — a fresh fill, a repaired one, a rotated one — becomes a puzzle
the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model import BLOCK, WHITE, Cell, Clue, ClueCell, Direction, Puzzle, Solution, Square, White
from .layout import Layout


def build_puzzle(
    layout: Layout,
    values: Mapping[Cell, int],
    pid: str = "1",
    meta: Mapping[str, object] | None = None,
) -> Puzzle:
    """The standard puzzle whose clues are the run sums of ``values`` on ``layout``."""
    return from_clues(layout, run_clues(layout, values), pid, meta)


def run_clues(layout: Layout, values: Mapping[Cell, int]) -> dict[tuple[Direction, Cell], Clue]:
    """Each run's clue, keyed by direction and first cell."""
    return {
        (direction, cells[0]): Clue(sum(values[c] for c in cells))
        for direction, cells in layout.runs
    }


def from_clues(
    layout: Layout,
    clues: Mapping[tuple[Direction, Cell], Clue],
    pid: str = "1",
    meta: Mapping[str, object] | None = None,
    letters: Mapping[Cell, str] | None = None,
) -> Puzzle:
    """A puzzle from a layout and a clue per run (keyed by direction and first cell)."""
    heads: dict[Cell, dict[Direction, Clue]] = {}
    for direction, cells in layout.runs:
        dr, dc = direction.step
        first = cells[0]
        front = (first[0] - dr, first[1] - dc)
        heads.setdefault(front, {})[direction] = clues[(direction, first)]
    letters = letters or {}
    grid: list[tuple[Square, ...]] = []
    for r in range(layout.nrows):
        row: list[Square] = []
        for c in range(layout.ncols):
            if (r, c) in layout.whites:
                letter = letters.get((r, c))
                row.append(WHITE if letter is None else White(letter))
            elif (r, c) in heads:
                head = heads[(r, c)]
                row.append(
                    ClueCell(down=head.get(Direction.DOWN), across=head.get(Direction.ACROSS))
                )
            else:
                row.append(BLOCK)
        grid.append(tuple(row))
    return Puzzle(pid, tuple(grid), dict(meta or {}))


def solution_of(values: Mapping[Cell, int], letters: Mapping[str, int] | None = None) -> Solution:
    return Solution(dict(sorted(values.items())), dict(sorted((letters or {}).items())))
