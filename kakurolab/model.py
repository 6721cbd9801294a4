"""The puzzle model: immutable grids of blocks, clue cells and white cells.

Every format parses into these types and every solver answers in them, so this module is the
one vocabulary the rest of the package shares.  Derived structure (runs, the runs through a
cell) is computed once per puzzle and cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType

from .errors import PuzzleError

Cell = tuple[int, int]
"""A cell position ``(row, column)``, 0-based."""

LETTERS = "ABCDEFGHIJ"
"""Cryptic puzzles write digits 0-9 with these ten letters under an unknown bijection."""


class Direction(StrEnum):
    """Which way a run reads: across (left to right) or down.

    Examples:
        >>> [run.direction.value for run in puzzle.runs_of[2, 1]]
        ['across', 'down']
    """

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> Cell:
        return (0, 1) if self is Direction.ACROSS else (1, 0)


@dataclass(frozen=True, slots=True)
class Clue:
    """A run's clue: a number, or one or two letters of a cryptic puzzle.

    A two-letter clue ``"XY"`` stands for the number ``10*X + Y`` with ``X`` non-zero.

    Examples:
        >>> kl.Clue(23).value, kl.Clue(letters="AB").evaluate({"A": 1, "B": 2})
        (23, 12)
    """

    value: int | None = None
    letters: str | None = None

    def __post_init__(self) -> None:
        if (self.value is None) == (self.letters is None):
            raise ValueError("a clue is either a number or letters")
        if self.letters is not None and (
            not 1 <= len(self.letters) <= 2 or any(ch not in LETTERS for ch in self.letters)
        ):
            raise ValueError(f"cryptic clue must be one or two letters A-J, got {self.letters!r}")
        if self.value is not None and self.value < 0:
            raise ValueError(f"clue must be non-negative, got {self.value}")

    @property
    def is_cryptic(self) -> bool:
        return self.letters is not None

    def evaluate(self, letters: Mapping[str, int]) -> int:
        """The clue's number, reading letters through ``letters`` for cryptic clues."""
        if self.value is not None:
            return self.value
        assert self.letters is not None
        total = 0
        for ch in self.letters:
            total = 10 * total + letters[ch]
        return total

    def __str__(self) -> str:
        return str(self.value) if self.value is not None else str(self.letters)


@dataclass(frozen=True, slots=True)
class Block:
    """A black cell that carries no clue."""


@dataclass(frozen=True, slots=True)
class ClueCell:
    """A black cell carrying the clue of the run below (``down``) and/or to its right.

    Examples:
        >>> puzzle[1, 1]  # the clue cell at row 2, column 2 (0-based (row, col))
        ClueCell(down=Clue(value=6, letters=None), across=Clue(value=17, letters=None))
    """

    down: Clue | None = None
    across: Clue | None = None

    def clue(self, direction: Direction) -> Clue | None:
        return self.down if direction is Direction.DOWN else self.across


@dataclass(frozen=True, slots=True)
class White:
    """A cell to fill with a digit 1-9; in cryptic puzzles it may show a letter.

    Examples:
        >>> puzzle[2, 1], cryptic[1, 2]
        (White(letter=None), White(letter='I'))
    """

    letter: str | None = None


Square = Block | ClueCell | White

BLOCK = Block()
WHITE = White()


@dataclass(frozen=True, slots=True)
class Run:
    """A maximal line of white cells, with the clue cell in front of it.

    Examples:
        >>> run = puzzle.runs[0]
        >>> run.name, run.cells, run.clue.value
        ('r2c2 across', ((1, 2), (1, 3)), 17)
    """

    direction: Direction
    clue_cell: Cell
    cells: tuple[Cell, ...]
    clue: Clue | None

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        """A readable name such as ``r3c2 across``, for messages."""
        r, c = self.clue_cell
        return f"r{r + 1}c{c + 1} {self.direction.value}"


@dataclass(frozen=True)
class Puzzle:
    """A Kakuro puzzle: an id and a rectangular grid of squares.

    ``meta`` carries format-specific extras (source, published solution) that writers may
    keep; it never influences solving.

    Examples:
        >>> puzzle.id, puzzle.shape, len(puzzle.whites), len(puzzle.runs)
        ('standard', (5, 5), 12, 8)
        >>> cryptic.is_cryptic
        True
    """

    id: str
    grid: tuple[tuple[Square, ...], ...]
    meta: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        """Refuse a grid that is not rectangular: every derived structure (``runs``, the rule
        checker, the solvers) indexes rows by the first row's length.  An empty grid is kept
        (a parser reports it as an invalid puzzle); the solving API refuses it."""
        if not isinstance(self.grid, tuple) or not all(isinstance(r, tuple) for r in self.grid):
            raise TypeError(f"puzzle {self.id}: grid must be a tuple of tuples of squares")
        if len({len(row) for row in self.grid}) > 1:
            lengths = sorted({len(row) for row in self.grid})
            raise PuzzleError(
                f"puzzle {self.id}: the grid is ragged (rows of {lengths[0]} to {lengths[-1]} "
                "squares)"
            )

    @property
    def nrows(self) -> int:
        return len(self.grid)

    @property
    def ncols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    @property
    def shape(self) -> tuple[int, int]:
        return self.nrows, self.ncols

    def __getitem__(self, cell: Cell) -> Square:
        return self.grid[cell[0]][cell[1]]

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.nrows) for c in range(self.ncols)]

    @cached_property
    def whites(self) -> tuple[Cell, ...]:
        """White cells in row-major order."""
        return tuple(cell for cell in self.cells() if isinstance(self[cell], White))

    @cached_property
    def runs(self) -> tuple[Run, ...]:
        """Every maximal run of white cells, across runs first, in reading order."""
        found: list[Run] = []
        grid, nrows, ncols = self.grid, self.nrows, self.ncols
        # One isinstance per square, not one per visit (a generator builds thousands).
        white = [[isinstance(square, White) for square in row] for row in grid]
        for direction in (Direction.ACROSS, Direction.DOWN):
            dr, dc = direction.step
            for r in range(nrows):
                for c in range(ncols):
                    if not white[r][c]:
                        continue
                    pr, pc = r - dr, c - dc
                    if pr >= 0 and pc >= 0 and white[pr][pc]:
                        continue  # not the first cell of its run
                    cells = []
                    rr, cc = r, c
                    while rr < nrows and cc < ncols and white[rr][cc]:
                        cells.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    front = grid[pr][pc] if pr >= 0 and pc >= 0 else None
                    clue = front.clue(direction) if isinstance(front, ClueCell) else None
                    found.append(Run(direction, (pr, pc), tuple(cells), clue))
        found.sort(key=lambda run: (run.direction is Direction.DOWN, run.cells[0]))
        return tuple(found)

    @cached_property
    def runs_of(self) -> Mapping[Cell, tuple[Run, ...]]:
        """The runs through each white cell (across first)."""
        table: dict[Cell, list[Run]] = {cell: [] for cell in self.whites}
        for run in self.runs:
            for cell in run.cells:
                table[cell].append(run)
        return MappingProxyType({cell: tuple(runs) for cell, runs in table.items()})

    @cached_property
    def is_cryptic(self) -> bool:
        """True when any clue is written in letters or any white cell shows a letter."""
        for row in self.grid:
            for sq in row:
                if isinstance(sq, White) and sq.letter is not None:
                    return True
                if isinstance(sq, ClueCell) and any(
                    clue is not None and clue.is_cryptic for clue in (sq.down, sq.across)
                ):
                    return True
        return False

    @cached_property
    def shown_letters(self) -> Mapping[Cell, str]:
        """White cells that show a letter (cryptic puzzles)."""
        return MappingProxyType(
            {
                cell: sq.letter
                for cell in self.whites
                if isinstance(sq := self[cell], White) and sq.letter is not None
            }
        )

    @cached_property
    def used_letters(self) -> frozenset[str]:
        """Letters that occur in a clue or a white cell; the grid determines their digits."""
        used = set(self.shown_letters.values())
        for row in self.grid:
            for sq in row:
                if isinstance(sq, ClueCell):
                    for clue in (sq.down, sq.across):
                        if clue is not None and clue.letters is not None:
                            used.update(clue.letters)
        return frozenset(used)

    def with_id(self, new_id: str) -> Puzzle:
        return Puzzle(new_id, self.grid, self.meta)


@dataclass(frozen=True)
class Solution:
    """Digits for the white cells and, for cryptic puzzles, the letter bijection.

    Examples:
        >>> solution = kl.solve(puzzle).solution
        >>> solution.rows(puzzle)
        ['-----', '--89-', '-5489', '-1268', '--13-']
        >>> kl.solve(cryptic).solution.answer  # the digits of A..J
        '2561079384'
    """

    values: Mapping[Cell, int]
    letters: Mapping[str, int] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.values.items())), tuple(sorted(self.letters.items()))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Solution):
            return NotImplemented
        return dict(self.values) == dict(other.values) and dict(self.letters) == dict(other.letters)

    @property
    def answer(self) -> str | None:
        """The cryptic answer: the digits of A..J in order (None when letters are unknown)."""
        if len(self.letters) != len(LETTERS):
            return None
        return "".join(str(self.letters[ch]) for ch in LETTERS)

    def rows(self, puzzle: Puzzle) -> list[str]:
        """The grid as text rows: digits for white cells, ``-`` elsewhere."""
        return [
            "".join(
                str(self.values.get((r, c), 0) or ".")
                if isinstance(puzzle.grid[r][c], White)
                else "-"
                for c in range(puzzle.ncols)
            )
            for r in range(puzzle.nrows)
        ]

    def differences(self, other: Solution) -> list[Cell]:
        """Cells where two solutions disagree, in reading order."""
        cells = set(self.values) | set(other.values)
        return sorted(cell for cell in cells if self.values.get(cell) != other.values.get(cell))
