"""The pencil-and-paper state of a deduction: candidates per white cell and placed digits.

A human solver's grid is digits plus pencil marks; this module is exactly that, with digit
sets as 9-bit masks from :mod:`kakurolab.combos`.  Candidates only ever shrink, so a deduction
that was sound when found stays sound later; the engine relies on that when it applies a batch
of steps found in one sweep.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .. import combos
from ..errors import KakuroError
from ..model import LETTERS, Cell, Puzzle, Run, White


class Contradiction(KakuroError):
    """A state that no completion can satisfy (an empty cell, a broken sum, a repeat).

    Examples:
        >>> from kakurolab.logic import Contradiction, State
        >>> try:
        ...     State.from_digits(puzzle, {(2, 1): 9, (2, 2): 9})
        ... except Contradiction as error:
        ...     print(error)
        the state breaks the rules: row 3, cells 2-5 repeats 9 (and 1 more)
    """


def cell_name(cell: Cell) -> str:
    """``r3c2``: 1-based, the way puzzles are spoken about.

    Examples:
        >>> from kakurolab.logic import cell_name
        >>> cell_name((1, 2))  # 0-based (row, col) to the 1-based name players read
        'r2c3'
    """
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def run_label(run: Run) -> str:
    """``row 3, cells 2-3`` or ``column 2, cells 4-7``: where a run sits, in words."""
    (r0, c0), (r1, c1) = run.cells[0], run.cells[-1]
    if run.direction.value == "across":
        return f"row {r0 + 1}, cells {c0 + 1}-{c1 + 1}"
    return f"column {c0 + 1}, cells {r0 + 1}-{r1 + 1}"


def clue_total(run: Run) -> int:
    """The numeric clue of a standard run (cryptic runs go through :meth:`State.total`)."""
    if run.clue is None or run.clue.value is None:
        raise KakuroError(f"run {run.name} has no numeric clue")
    return run.clue.value


def letter_digits(mask: int) -> tuple[int, ...]:
    """The digits 0-9 of a letter mask (bit ``d`` for digit ``d``)."""
    return tuple(d for d in range(10) if mask >> d & 1)


def letter_words(mask: int) -> str:
    """``0, 3 or 7``: a letter's possible digits in a sentence."""
    digits = [str(d) for d in letter_digits(mask)]
    return digits[0] if len(digits) == 1 else ", ".join(digits[:-1]) + " or " + digits[-1]


@dataclass
class State:
    """Candidates (masks) for every white cell and the digits placed so far.

    ``placed`` is the set of cells a solver has written a digit into; a cell whose candidates
    shrank to one digit is not placed until a step places it, so a hint can say *why*.

    Examples:
        >>> from kakurolab.logic import State
        >>> state = State.from_digits(puzzle, {(1, 2): 8})
        >>> state.placed, bin(state.cands[1, 3]), state.solved  # r2c4 lost its run-mate's 8
        ({(1, 2): 8}, '0b101111111', False)
    """

    puzzle: Puzzle
    cands: dict[Cell, int]
    placed: dict[Cell, int] = field(default_factory=dict)
    letters: dict[str, int] = field(default_factory=dict)
    """Cryptic puzzles only: each letter's possible digits 0-9 (bit ``d`` for digit ``d``)."""

    @classmethod
    def initial(cls, puzzle: Puzzle) -> State:
        """Every white cell may hold any digit 1-9 (and every letter any digit 0-9): the blank
        grid before any reasoning."""
        require_deducible(puzzle)
        letters = dict.fromkeys(LETTERS, combos.ALL_LETTER_DIGITS) if puzzle.is_cryptic else {}
        return cls(puzzle, dict.fromkeys(puzzle.whites, combos.ALL_DIGITS), letters=letters)

    def total(self, run: Run) -> int | None:
        """The run's clue as a number: given, or read from its letters once they are decided."""
        clue = run.clue
        if clue is None:
            return None
        if clue.value is not None:
            return clue.value
        total = 0
        for ch in clue.letters or "":
            mask = self.letters[ch]
            if mask & (mask - 1):
                return None
            total = 10 * total + mask.bit_length() - 1
        return total

    @classmethod
    def from_digits(cls, puzzle: Puzzle, digits: Mapping[Cell, int]) -> State:
        """A blank grid with some digits written in; checked against the rules.

        The written digits are removed from the candidates of the other cells of their runs
        (the no-repeat rule is part of writing a digit, not a deduction).
        """
        state = cls.initial(puzzle)
        _refuse_misplaced(state, digits)
        state_problems = _digit_problems(puzzle, digits)
        if state_problems:
            more = f" (and {len(state_problems) - 1} more)" if len(state_problems) > 1 else ""
            raise Contradiction(f"the state breaks the rules: {state_problems[0]}{more}")
        for cell, digit in digits.items():
            state.cands[cell] = combos.bit(digit)
            state.placed[cell] = digit
        for cell, digit in digits.items():
            state.remove_from_runs(cell, digit)
        for cell, mask in state.cands.items():
            if not mask:
                raise Contradiction(
                    f"the state breaks the rules: {cell_name(cell)} has no digit left"
                )
        return state

    def remove_from_runs(self, cell: Cell, digit: int) -> None:
        """Take ``digit`` from the candidates of the other cells of ``cell``'s runs."""
        for run in self.puzzle.runs_of[cell]:
            for other in run.cells:
                if other != cell:
                    self.cands[other] &= ~combos.bit(digit)

    def copy(self) -> State:
        return State(self.puzzle, dict(self.cands), dict(self.placed), dict(self.letters))

    @property
    def solved(self) -> bool:
        """Every cell written (and, for a cryptic puzzle, every letter decided)."""
        return len(self.placed) == len(self.cands) and all(
            not m & (m - 1) for m in self.letters.values()
        )

    def unplaced(self, run: Run) -> list[Cell]:
        return [cell for cell in run.cells if cell not in self.placed]

    def remaining_sets(self, run: Run) -> tuple[list[Cell], int, tuple[int, ...]]:
        """The run's empty cells, the digits already written in it, and the digit sets the
        empty cells may still take: they must sum to the remainder and avoid written digits."""
        empty = self.unplaced(run)
        used = 0
        known = self.total(run)
        if known is None:
            return empty, used, ()
        total = known
        for cell in run.cells:
            if cell in self.placed:
                used |= combos.bit(self.placed[cell])
                total -= self.placed[cell]
        if not empty:
            return empty, used, ()
        sets = tuple(m for m in combos.combos(len(empty), total) if not m & used)
        return empty, used, sets

    def grid_rows(self) -> list[str]:
        """The state in the ``--state`` text format (see :func:`parse_state`)."""
        puzzle = self.puzzle
        return [
            "".join(
                (str(self.placed[(r, c)]) if (r, c) in self.placed else ".")
                if isinstance(puzzle.grid[r][c], White)
                else "-"
                for c in range(puzzle.ncols)
            )
            for r in range(puzzle.nrows)
        ]


def require_deducible(puzzle: Puzzle) -> None:
    """Deduction needs a clue on every run and runs of at most nine cells."""
    missing = [run.name for run in puzzle.runs if run.clue is None]
    if missing:
        raise KakuroError(f"puzzle {puzzle.id}: run {missing[0]} has no clue")
    long = [run.name for run in puzzle.runs if len(run) > combos.MAX_RUN]
    if long:
        raise KakuroError(f"puzzle {puzzle.id}: run {long[0]} is longer than 9 cells")


def _refuse_misplaced(state: State, digits: Mapping[Cell, int]) -> None:
    """A digit written outside the white cells or outside 1-9 is the user's error."""
    for cell, digit in digits.items():
        if cell not in state.cands:
            raise KakuroError(f"{cell_name(cell)} is not a white cell")
        if not 1 <= digit <= 9:
            raise KakuroError(f"{cell_name(cell)} holds {digit}, outside 1-9")


def _digit_problems(puzzle: Puzzle, digits: Mapping[Cell, int]) -> list[str]:
    """Rule violations among written digits: repeats, full runs with a wrong sum, partial runs
    whose remaining cells cannot reach the clue."""
    problems: list[str] = []
    for run in puzzle.runs:
        written = [digits[cell] for cell in run.cells if cell in digits]
        if not written:
            continue
        repeated = sorted({d for d in written if written.count(d) > 1})
        if repeated:
            problems.append(f"{run_label(run)} repeats {', '.join(map(str, repeated))}")
            continue
        if run.clue is None or run.clue.value is None:
            continue  # a letter clue: its number is not known yet
        total = run.clue.value
        left = len(run) - len(written)
        used = combos.mask_of(written)
        rest = total - sum(written)
        if left == 0 and rest != 0:
            problems.append(f"{run_label(run)} sums to {sum(written)}, its clue is {total}")
        elif left and not any(not m & used for m in combos.combos(left, rest)):
            problems.append(
                f"{run_label(run)}: the {left} empty cell(s) cannot make up the remaining "
                f"{rest} of clue {total} with unused digits"
            )
    return problems


STATE_HELP = (
    "a partially filled grid, same shape as the puzzle: one line per row, one character per "
    "cell; a digit 1-9 for a filled white cell, '.' or '0' for an empty white cell, '-' for "
    "every clue or block cell (spaces ignored; '/' may separate rows); write --state=GRID "
    "since rows often start with '-', or --state @FILE to read a file"
)


def parse_state(puzzle: Puzzle, text: str) -> dict[Cell, int]:
    """Read the ``--state`` grid format into written digits.

    Format: one line per puzzle row (blank lines and lines starting with ``#`` skipped), one
    character per cell after removing spaces: ``1``-``9`` a written digit, ``.`` or ``0`` an
    empty white cell, ``-`` (or ``#``/``x``) a clue or block cell.  Rows are separated by
    newlines or ``/``, so a small state fits on one command line.

    Examples:
        >>> from kakurolab.logic import parse_state
        >>> parse_state(puzzle, "-----\\n--8.-\\n-....\\n-....\\n--..-")
        {(1, 2): 8}
    """
    lines = [
        line.replace(" ", "").replace("\t", "")
        for chunk in text.splitlines()
        for line in chunk.split("/")
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if len(lines) != puzzle.nrows:
        raise KakuroError(
            f"state grid has {len(lines)} row(s), puzzle {puzzle.id} has {puzzle.nrows}"
        )
    digits: dict[Cell, int] = {}
    for r, line in enumerate(lines):
        if len(line) != puzzle.ncols:
            raise KakuroError(
                f"state grid row {r + 1} has {len(line)} cell(s), puzzle {puzzle.id} has "
                f"{puzzle.ncols} columns"
            )
        for c, ch in enumerate(line):
            white = isinstance(puzzle.grid[r][c], White)
            if ch in "-#xX":
                if white:
                    raise KakuroError(
                        f"state grid: {cell_name((r, c))} is a white cell, got {ch!r}"
                    )
            elif ch in ".0" or ch.isdigit():
                if not white:
                    raise KakuroError(
                        f"state grid: {cell_name((r, c))} is a clue or block cell, got {ch!r} "
                        "(write '-')"
                    )
                if ch not in ".0":
                    digits[(r, c)] = int(ch)
            else:
                raise KakuroError(f"state grid: unexpected character {ch!r} at {cell_name((r, c))}")
    return digits


def cells_text(cells: Sequence[Cell]) -> str:
    return ", ".join(cell_name(cell) for cell in cells)
