"""The 16 symmetries of a Kakuro puzzle: 8 geometric ones times the digit complement.

Geometric maps act on the *interior* of the grid (everything but the first row and column,
which never hold white cells).  Moving white cells moves runs, but a clue cell must stay in
front of its run (left of an across run, above a down run): after a half-turn the old clue
cell would sit at the wrong end.  So a transform never moves clue cells; it maps the white
cells, re-derives the runs of the new white pattern and places each run's clue at its new
head.  Every run maps onto exactly one run (a row of cells stays a line, possibly reversed
or turned into a column), so each new run's clue is the clue of the run it came from — no
solving needed, and solutions map across cell by cell.

The complement replaces every digit d by 10 - d; a run of k cells summing to S then sums to
10k - S, and digits stay distinct.  Cryptic puzzles take the geometric maps only (their
letter 0 has no complement among the digits 1-9).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import KakuroError
from ..model import Cell, Clue, Direction, Puzzle, Solution
from .clues import from_clues
from .layout import Layout


@dataclass(frozen=True)
class Transform:
    """Rotate clockwise by ``rotate`` degrees, then flip (``h``: mirror left-right, ``v``:
    mirror top-bottom), then optionally complement the digits.

    Examples:
        >>> from kakurolab.generator import Transform, transform_puzzle
        >>> turned = transform_puzzle(puzzle, Transform(rotate=90))
        >>> kl.solve(turned).solution.rows(turned)  # the clue border stays top and left
        ['-----', '--15-', '-1248', '-3689', '--89-']
    """

    rotate: int = 0
    flip: str | None = None
    complement: bool = False

    def __post_init__(self) -> None:
        if self.rotate not in (0, 90, 180, 270):
            raise KakuroError(f"rotation must be 0, 90, 180 or 270 degrees, got {self.rotate}")
        if self.flip not in (None, "h", "v"):
            raise KakuroError(f"flip must be 'h' or 'v', got {self.flip!r}")

    @property
    def name(self) -> str:
        parts = [f"r{self.rotate}"] if self.rotate else []
        if self.flip:
            parts.append(f"f{self.flip}")
        if self.complement:
            parts.append("c")
        return "-".join(parts) or "id"

    @property
    def transposes(self) -> bool:
        """Whether rows become columns (the grid shape turns)."""
        return self.rotate in (90, 270)

    def shape(self, nrows: int, ncols: int) -> tuple[int, int]:
        return (ncols, nrows) if self.transposes else (nrows, ncols)

    def cell(self, cell: Cell, nrows: int, ncols: int) -> Cell:
        """Where a cell of an ``nrows`` x ``ncols`` grid goes (interior coordinates kept)."""
        h, w = nrows - 1, ncols - 1
        i, j = cell[0] - 1, cell[1] - 1
        if self.rotate == 90:
            i, j, h, w = j, h - 1 - i, w, h
        elif self.rotate == 180:
            i, j = h - 1 - i, w - 1 - j
        elif self.rotate == 270:
            i, j, h, w = w - 1 - j, i, w, h
        if self.flip == "h":
            j = w - 1 - j
        elif self.flip == "v":
            i = h - 1 - i
        return i + 1, j + 1

    def digit(self, d: int) -> int:
        return 10 - d if self.complement else d


def all_transforms() -> Iterator[Transform]:
    """The 16 distinct variants: 4 rotations x (no flip, flip h) x (plain, complement).

    ``flip v`` equals ``rotate 180`` followed by ``flip h``, so it adds nothing new.
    """
    for complement in (False, True):
        for flip in (None, "h"):
            for rotate in (0, 90, 180, 270):
                yield Transform(rotate, flip, complement)


def transform_puzzle(puzzle: Puzzle, t: Transform) -> Puzzle:
    """The puzzle seen through ``t`` (id suffixed with the transform's name).

    Examples:
        >>> from kakurolab.generator import Transform, transform_puzzle
        >>> flipped = transform_puzzle(puzzle, Transform(flip="h", complement=True))
        >>> kl.prove_unique(flipped).verdict.value  # a symmetry keeps the puzzle unique
        'unique'
    """
    if t.complement and puzzle.is_cryptic:
        raise KakuroError("the digit complement applies to standard puzzles only")
    nrows, ncols = puzzle.shape
    layout = Layout.of(puzzle)
    if any(r == 0 or c == 0 for r, c in layout.whites):
        raise KakuroError(f"puzzle {puzzle.id}: white cell in the first row or column")
    new_rows, new_cols = t.shape(nrows, ncols)
    moved = {cell: t.cell(cell, nrows, ncols) for cell in layout.whites}
    new_layout = Layout(new_rows, new_cols, frozenset(moved.values()))
    by_cells: dict[frozenset[Cell], Clue] = {}
    for run in puzzle.runs:
        if run.clue is None:
            raise KakuroError(f"puzzle {puzzle.id}: run {run.name} has no clue")
        clue = run.clue
        if t.complement:
            assert clue.value is not None
            clue = Clue(10 * len(run) - clue.value)
        by_cells[frozenset(moved[c] for c in run.cells)] = clue
    clues: dict[tuple[Direction, Cell], Clue] = {}
    for direction, cells in new_layout.runs:
        clues[(direction, cells[0])] = by_cells[frozenset(cells)]
    letters = {moved[cell]: letter for cell, letter in puzzle.shown_letters.items()}
    meta = dict(puzzle.meta)
    meta.pop("solution", None)
    return from_clues(new_layout, clues, f"{puzzle.id}~{t.name}", meta, letters)


def transform_solution(solution: Solution, shape: tuple[int, int], t: Transform) -> Solution:
    """The solution of the transformed puzzle (``shape`` is the original grid's).

    Examples:
        >>> from kakurolab.generator import Transform, transform_puzzle, transform_solution
        >>> t = Transform(complement=True)  # every digit d becomes 10 - d
        >>> solution = transform_solution(kl.solve(puzzle).solution, puzzle.shape, t)
        >>> kl.solution_problems(transform_puzzle(puzzle, t), solution), solution.values[2, 1]
        ([], 5)
    """
    nrows, ncols = shape
    values = {t.cell(cell, nrows, ncols): t.digit(d) for cell, d in solution.values.items()}
    return Solution(dict(sorted(values.items())), dict(solution.letters))
