"""The game's state records: boards, players, what a move showed (:class:`Outcome`), and the
:class:`Referee` that alone holds the solution.

Shields and the engine both work on these; the solution is reachable only through the
referee's questions (is this digit right? which entries are wrong?), never as a whole, until
the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..model import Cell, Puzzle, White
from .errors import IllegalMoveError
from .moves import Move, MoveKind, ShieldKind, cell_text


class Referee:
    """The hidden solution, behind the questions the rules need to ask."""

    def __init__(self, solution: Mapping[Cell, int]) -> None:
        self._solution = dict(solution)

    def right(self, cell: Cell, digit: int) -> bool:
        return self._solution[cell] == digit

    def digit(self, cell: Cell) -> int:
        """One cell of the solution (a hint shield pays for it)."""
        return self._solution[cell]

    def wrong_cells(self, board: Board) -> list[Cell]:
        return sorted(c for c, d in board.entries.items() if self._solution[c] != d)

    def solved(self, board: Board) -> bool:
        return len(board.entries) == len(self._solution) and not self.wrong_cells(board)

    def reveal(self) -> dict[Cell, int]:
        """The whole solution: the engine calls this only for a finished game."""
        return dict(self._solution)


def require_white(puzzle: Puzzle, cell: Cell | None) -> Cell:
    r, c = cell if cell is not None else (-1, -1)
    if not (0 <= r < puzzle.nrows and 0 <= c < puzzle.ncols) or not isinstance(
        puzzle.grid[r][c], White
    ):
        where = cell_text(cell) if cell is not None else "that cell"
        raise IllegalMoveError(f"{where} is not a white cell of this puzzle")
    return (r, c)


@dataclass
class Board:
    """Digits written on a grid; ``locked`` are permanent placements."""

    entries: dict[Cell, int] = field(default_factory=dict)
    locked: set[Cell] = field(default_factory=set)


@dataclass
class Player:
    player_id: str
    name: str
    board: Board
    shields_left: int
    marks: dict[Cell, int] = field(default_factory=dict)
    """Pencil marks as 9-bit masks (public in turn-based play)."""
    shields_used: int = 0
    illegal: int = 0
    """Placed digits that differed from the solution (Battle: refused ones)."""
    wrong_submissions: int = 0
    points: int = 0
    """Battle Matrix points."""
    time_s: float | None = None
    """Completion time: seconds from the start to solving (Battle: time spent on own turns)."""
    turn_time: float = 0.0
    best_clue: int = 0
    """Battle: the highest clue of an entry this player completed."""
    placed: int = 0
    """Battle: the digits this player placed on the shared board (right ones)."""
    solved: bool = False


@dataclass(frozen=True)
class ShieldResult:
    """What a spent shield showed its player."""

    kind: ShieldKind
    text: str
    cells: tuple[Cell, ...] = ()
    """Cells to highlight."""
    fixes: tuple[tuple[Cell, int], ...] = ()
    sets: tuple[tuple[int, ...], ...] = ()
    cleared: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "shield": self.kind.value,
            "text": self.text,
            "cells": [cell_text(c) for c in self.cells],
            "fixes": {cell_text(c): d for c, d in self.fixes},
            "sets": [list(s) for s in self.sets],
            "cleared": [cell_text(c) for c in self.cleared],
        }


@dataclass(frozen=True)
class Outcome:
    """The public result of an applied move: what its player (and, in Battle, everyone) sees.

    It is stored with the move and compared on replay, so it never holds hidden state."""

    kind: MoveKind
    player_id: str | None
    points: int = 0
    correct: bool | None = None
    completed: tuple[str, ...] = ()
    shield: ShieldResult | None = None
    submission: str | None = None
    finished: bool = False
    message: str = ""

    def to_json(self) -> dict[str, object]:
        record: dict[str, object] = {"kind": self.kind.value, "player_id": self.player_id}
        if self.points:
            record["points"] = self.points
        if self.correct is not None:
            record["correct"] = self.correct
        if self.completed:
            record["completed"] = list(self.completed)
        if self.shield is not None:
            record["shield"] = self.shield.to_json()
        if self.submission is not None:
            record["submission"] = self.submission
        record["finished"] = self.finished
        record["message"] = self.message
        return record


@dataclass(frozen=True)
class ShieldContext:
    """What a shield may look at: the puzzle, the referee, the player and the move."""

    puzzle: Puzzle
    referee: Referee
    player: Player
    move: Move
    permanent: bool
