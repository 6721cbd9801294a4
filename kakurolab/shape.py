"""Layout statistics: how a puzzle's pattern of white and black cells looks.

Published Kakuro puzzles have a recognisable look: dense (about three quarters of the area
white), no large solid black areas, a mix of run lengths that is not dominated by two-cell
runs, and (almost always) half-turn symmetry.  These numbers let anyone compare a generated
set with a published one (``kakuro info``; ``tests/test_shape.py`` compares the generator
with the janko dev set).

The *interior* is the grid without its first row and column: those hold only clue cells and
blocks in every puzzle, so counting them would make every puzzle look sparser and connect all
black cells into one region.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from .combos import MAX_RUN
from .model import Cell, Puzzle


@dataclass(frozen=True)
class LayoutStats:
    """A puzzle's layout statistics (see the module docstring for the interior)."""

    white_share: float
    """White cells as a share of the interior area."""
    two_cell_share: float
    """Share of runs (across and down) with exactly two cells."""
    largest_black: int
    """Cells of the largest 4-connected region of interior non-white cells."""
    symmetric: bool
    """The interior's white pattern is unchanged by a half-turn."""
    run_lengths: tuple[int, ...]
    """Runs of 1, 2, ..., 9 cells (index 0 counts one-cell runs)."""

    def to_json(self) -> dict[str, object]:
        return {
            "white_share": round(self.white_share, 3),
            "two_cell_share": round(self.two_cell_share, 3),
            "largest_black": self.largest_black,
            "symmetric": self.symmetric,
            "run_lengths": list(self.run_lengths),
        }


def interior_whites(puzzle: Puzzle) -> frozenset[Cell]:
    """White cells outside the first row and column (all of them, in a valid puzzle)."""
    return frozenset((r, c) for r, c in puzzle.whites if r and c)


def layout_stats(puzzle: Puzzle) -> LayoutStats:
    """The statistics of ``puzzle``'s pattern (digits and clues play no part)."""
    return pattern_stats(puzzle.nrows, puzzle.ncols, interior_whites(puzzle), puzzle)


def pattern_stats(
    nrows: int, ncols: int, whites: frozenset[Cell], puzzle: Puzzle | None = None
) -> LayoutStats:
    """The statistics of a white pattern on an ``nrows`` x ``ncols`` grid (interior cells
    only); ``puzzle``, when given, supplies its runs instead of re-deriving them."""
    area = (nrows - 1) * (ncols - 1)
    lengths = [len(r.cells) for r in puzzle.runs] if puzzle else _run_lengths(whites)
    mix = Counter(min(n, MAX_RUN) for n in lengths)
    return LayoutStats(
        white_share=len(whites) / area if area > 0 else 0.0,
        two_cell_share=mix[2] / len(lengths) if lengths else 0.0,
        largest_black=largest_black_region(nrows, ncols, whites),
        symmetric=is_half_turn_symmetric(nrows, ncols, whites),
        run_lengths=tuple(mix[n] for n in range(1, MAX_RUN + 1)),
    )


def _run_lengths(whites: frozenset[Cell]) -> list[int]:
    """Lengths of the maximal across and down lines of ``whites``."""
    lengths = []
    for dr, dc in ((0, 1), (1, 0)):
        for r, c in whites:
            if (r - dr, c - dc) in whites:
                continue
            n = 0
            while (r + n * dr, c + n * dc) in whites:
                n += 1
            lengths.append(n)
    return lengths


def pieces(cells: Collection[Cell]) -> list[set[Cell]]:
    """The 4-connected pieces of ``cells``, in the order their first cells come in
    ``cells``: one flood fill for black areas, a layout's white network and the logic
    engine's bands."""
    inside = cells if isinstance(cells, (set, frozenset)) else set(cells)
    seen: set[Cell] = set()
    found = []
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        todo, piece = [start], {start}
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in inside and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
                    piece.add(nb)
        found.append(piece)
    return found


def largest_black_region(nrows: int, ncols: int, whites: frozenset[Cell]) -> int:
    """The largest 4-connected group of interior cells that are not white."""
    black = {(r, c) for r in range(1, nrows) for c in range(1, ncols)} - whites
    return max(map(len, pieces(black)), default=0)


def black_area_through(
    nrows: int, ncols: int, whites: frozenset[Cell], cells: Collection[Cell], cap: int
) -> int:
    """The largest 4-connected group of interior non-white cells holding one of ``cells``,
    counted until it passes ``cap``: whether a block just placed at ``cells`` made a black
    area larger than ``cap``, found around it (the other areas are as they were)."""
    seen: set[Cell] = set()
    largest = 0
    for start in cells:
        if start in seen or start in whites:
            continue
        seen.add(start)
        todo, size = [start], 1
        while todo and size <= cap:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb not in seen and 0 < nb[0] < nrows and 0 < nb[1] < ncols and nb not in whites:
                    seen.add(nb)
                    todo.append(nb)
                    size += 1
        largest = max(largest, size)
    return largest


def is_half_turn_symmetric(nrows: int, ncols: int, whites: frozenset[Cell]) -> bool:
    """Whether turning the interior by 180 degrees maps the white cells onto themselves."""
    return all((nrows - r, ncols - c) in whites for r, c in whites)
