r"""kakuro: our native text format, readable by people and able to hold everything the model does.

A file is a sequence of puzzles.  Each puzzle is optional header lines ``key: value`` (``id``
names it; every other key lands in ``meta`` as text), a grid of whitespace-separated cell
tokens, and an optional ``solution:`` section::

    id: tiny
    source: hand-made
       #    4\  16\
     \3     .    .
    \10     .    .
    solution:
       -    -    -
       -    1    2
       -    3    7

Cell tokens: ``#`` block, ``.`` white, ``A``-``J`` white cell showing a letter, ``DOWN\ACROSS``
clue cell where each side is a number, one or two letters A-J, or empty (``16\``, ``\7``,
``12\7``, ``AB\C``).  Solution rows hold digits for white cells, ``.`` for an empty one and
``-`` (or ``#``) elsewhere; a cryptic solution writes the ten letter digits A..J after
``solution:``.  Lines starting with ``;`` are comments.  A blank line ends a puzzle; so does a
header line after a grid.  Ids default to the 1-based position of the puzzle in the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError
from ..model import BLOCK, LETTERS, WHITE, Cell, Clue, ClueCell, Puzzle, Solution, Square, White
from .format import Format, check_size, is_number, parse_int, short

_SIDE = r"([0-9]+|[A-J]{1,2})?"
_CLUE = re.compile(rf"{_SIDE}\\{_SIDE}")
_HEADER = re.compile(r"([A-Za-z][\w-]*):(.*)")
_GRID_TOKEN = re.compile(rf"#|\.|[A-J]|{_SIDE}\\{_SIDE}")
_SOLUTION_TOKEN = re.compile(r"[0-9]+|[.#-]")
_RESERVED = ("id", "solution")
_BANNER = "; kakuro format (docs/formats.md): # block, . white, DOWN\\ACROSS clue, A-J letter"


class KakuroFormat(Format):
    name = "kakuro"
    doc = "kakurolab's native text: header lines, a grid of '#', '.', 'D\\A' tokens, solution"
    suffixes = (".kakuro",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        for _, line in _meaningful(text):
            header = _HEADER.match(line.strip())
            if header:
                return not header.group(2).startswith("//")  # 'https://...' is a URL, no header
            # lazily: the first line of another format can be megabytes of tokens
            return all(_GRID_TOKEN.fullmatch(m.group()) for m in re.finditer(r"\S+", line))
        return False

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        return _Parser(source).run(text)

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.id != puzzle.id.strip() or not puzzle.id or "\n" in puzzle.id:
            return f"the kakuro format needs a one-line id without outer spaces, not {puzzle.id!r}"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        blocks = [_BANNER]
        for puzzle in puzzles:
            lines = [f"id: {puzzle.id}"]
            for key, value in puzzle.meta.items():
                if _writable_meta(key, value):
                    lines.append(f"{key}: {value}".rstrip())
            lines.extend(grid_lines(puzzle))
            solution = puzzle.meta.get("solution")
            if isinstance(solution, Solution):
                lines.append(f"solution: {solution.answer or ''}".rstrip())
                lines.extend(solution_lines(puzzle, solution))
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks) + "\n"


def _writable_meta(key: str, value: object) -> bool:
    """Scalar one-line metadata under a header-shaped key survives a round trip as text."""
    return (
        key not in _RESERVED
        and _HEADER.fullmatch(f"{key}:") is not None
        and isinstance(value, str | int | float)
        and "\n" not in str(value)
        and "\r" not in str(value)
    )


# ---------------------------------------------------------------- writing (also used by `show`)


def _clue_text(clue: Clue | None) -> str:
    return "" if clue is None else str(clue)


def _widths(puzzle: Puzzle) -> tuple[int, int]:
    """The widest down and across clue texts, so every backslash lines up in one column."""
    down = across = 0
    for row in puzzle.grid:
        for sq in row:
            if isinstance(sq, ClueCell):
                down = max(down, len(_clue_text(sq.down)))
                across = max(across, len(_clue_text(sq.across)))
    return down, across


def grid_lines(puzzle: Puzzle, fill: Mapping[Cell, str] | None = None) -> list[str]:
    r"""The grid as aligned token rows; ``fill`` replaces the token of some white cells (digits).

    Clue cells read ``DOWN\ACROSS`` with the backslashes in one column; other tokens sit in that
    column too, so a grid reads like a table.

    Examples:
        >>> from kakurolab.formats import grid_lines
        >>> digits = {cell: str(d) for cell, d in kl.solve(puzzle).solution.values.items()}
        >>> grid_lines(puzzle, fill=digits)[2].split()[1:]
        ['5', '4', '8', '9']
    """
    down_w, across_w = _widths(puzzle)
    width = down_w + 1 + across_w
    lines = []
    for r, row in enumerate(puzzle.grid):
        cells = []
        for c, sq in enumerate(row):
            if isinstance(sq, ClueCell) and (sq.down or sq.across):
                text = (
                    _clue_text(sq.down).rjust(down_w) + "\\" + _clue_text(sq.across).ljust(across_w)
                )
            else:
                token = _token(sq)
                if fill is not None and (r, c) in fill:
                    token = fill[(r, c)]
                text = (" " * down_w + token).ljust(width)
            cells.append(text)
        lines.append(" ".join(cells).rstrip())
    return lines


def solution_lines(puzzle: Puzzle, solution: Solution) -> list[str]:
    """Solution rows aligned under :func:`grid_lines`: digits, ``.`` empty, ``-`` elsewhere."""
    down_w, across_w = _widths(puzzle)
    width = down_w + 1 + across_w
    lines = []
    for r, row in enumerate(puzzle.grid):
        cells = []
        for c, sq in enumerate(row):
            value = solution.values.get((r, c))
            blank = "." if isinstance(sq, White) else "-"
            token = blank if value is None else str(value)
            cells.append((" " * down_w + token).ljust(width))
        lines.append(" ".join(cells).rstrip())
    return lines


def _token(square: Square) -> str:
    if isinstance(square, White):
        return square.letter or "."
    if isinstance(square, ClueCell) and (square.down or square.across):
        return f"{_clue_text(square.down)}\\{_clue_text(square.across)}"
    return "#"


# ---------------------------------------------------------------- reading


def _meaningful(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for lines that are neither blank nor comments."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith(";"):
            yield number, raw.rstrip()


def _tokens(line: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens with their 1-based columns."""
    return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]


@dataclass
class _Draft:
    """One puzzle while its lines come in."""

    first_line: int
    pid: str | None = None
    meta: dict[str, object] = field(default_factory=dict)
    rows: list[tuple[int, str]] = field(default_factory=list)
    answer: tuple[int, str] | None = None  # (line, text after "solution:")
    solution_rows: list[tuple[int, str]] = field(default_factory=list)


class _Parser:
    def __init__(self, source: str | None) -> None:
        self.source = source
        self.puzzles: list[Puzzle] = []
        self.draft: _Draft | None = None
        self.state = "idle"  # idle | header | grid | solution

    def fail(self, message: str, line: int, column: int | None = None) -> FormatError:
        pid = self.draft.pid if self.draft and self.draft.pid else None
        if pid is None and self.draft is not None:
            pid = str(len(self.puzzles) + 1)
        return FormatError(message, source=self.source, puzzle_id=pid, line=line, column=column)

    def run(self, text: str) -> list[Puzzle]:
        for number, raw in enumerate(text.splitlines(), start=1):
            self._line(number, raw.rstrip())
        if self.draft is not None:
            self._finish()
        if not self.puzzles:
            raise FormatError("no puzzle in the file", source=self.source)
        return self.puzzles

    def _line(self, number: int, line: str) -> None:
        """One line: a comment, a blank that ends a puzzle, a header, or a grid or solution
        row."""
        stripped = line.strip()
        if stripped.startswith(";"):
            return
        if not stripped:
            if self.state in ("grid", "solution"):
                self._finish()
            return
        header = _HEADER.fullmatch(stripped)
        if header:
            self._header(header.group(1), header.group(2).strip(), number)
        elif ":" in stripped:
            raise self.fail(f"bad header line {short(stripped)!r} (expected 'key: value')", number)
        elif self.state == "solution":
            assert self.draft is not None
            self.draft.solution_rows.append((number, line))
        else:
            if self.draft is None:
                self.draft = _Draft(number)
            self.state = "grid"
            self.draft.rows.append((number, line))

    def _header(self, key: str, value: str, number: int) -> None:
        if key == "solution":
            if self.state != "grid" or self.draft is None:
                raise self.fail("'solution:' must follow a puzzle's grid", number)
            self.draft.answer = (number, value)
            self.state = "solution"
            return
        if self.state in ("grid", "solution"):
            self._finish()
        if self.draft is None:
            self.draft = _Draft(number)
        self.state = "header"
        if key == "id":
            if self.draft.pid is not None:
                raise self.fail("a second 'id:' line in one puzzle", number)
            if not value:
                raise self.fail("empty id", number)
            self.draft.pid = value
        elif key in self.draft.meta:
            raise self.fail(f"a second {short(key)!r} line in one puzzle", number)
        else:
            self.draft.meta[key] = value

    def _finish(self) -> None:
        draft = self.draft
        assert draft is not None
        self.draft, self.state = None, "idle"
        pid = draft.pid or str(len(self.puzzles) + 1)
        where: dict[str, Any] = {"source": self.source, "puzzle_id": pid}
        if not draft.rows:
            raise FormatError("header lines without a grid", line=draft.first_line, **where)
        if any(p.id == pid for p in self.puzzles):
            raise FormatError("duplicate puzzle id", line=draft.first_line, **where)
        grid = []
        width = None
        for number, line in draft.rows:
            tokens = _tokens(line)
            if width is None:
                width = len(tokens)
                check_size(len(draft.rows), width, line=draft.rows[0][0], **where)
            elif len(tokens) != width:
                raise FormatError(
                    f"expected {width} cells like the first row, got {len(tokens)}",
                    line=number,
                    column=len(line) + 1,
                    **where,
                )
            row = []
            for token, column in tokens:
                try:
                    row.append(_square(token))
                except ValueError as exc:
                    raise FormatError(str(exc), line=number, column=column, **where) from None
            grid.append(tuple(row))
        puzzle = Puzzle(pid, tuple(grid))
        meta = dict(draft.meta)
        if draft.answer is not None:
            meta["solution"] = read_solution(
                draft.answer[1], draft.solution_rows, puzzle, draft.answer[0], self.source
            )
        self.puzzles.append(Puzzle(pid, puzzle.grid, meta))


def _square(token: str) -> Square:
    if token == "#":
        return BLOCK
    if token == ".":
        return WHITE
    if len(token) == 1 and token in LETTERS:
        return White(token)
    match = _CLUE.fullmatch(token)
    if match is None:
        raise ValueError(f"unknown cell {short(token)!r} (expected '#', '.', A-J or DOWN\\ACROSS)")
    down, across = (_clue(side) for side in match.groups())
    if down is None and across is None:
        raise ValueError("a clue cell needs a clue on one side (write '#' for a block)")
    return ClueCell(down=down, across=across)


def _clue(side: str | None) -> Clue | None:
    if not side:
        return None
    return Clue(value=parse_int(side)) if is_number(side) else Clue(letters=side)


def _solution_row(
    r: int, number: int, text: str, ncols: int, where: dict[str, Any]
) -> dict[Cell, int]:
    """The digits of solution row ``r`` (line ``number``), by cell; empty cells left out."""
    tokens = _tokens(text)
    if len(tokens) == 1 and ncols > 1 and len(tokens[0][0]) == ncols:
        start = tokens[0][1]
        tokens = [(ch, start + i) for i, ch in enumerate(tokens[0][0])]  # compact row
    if len(tokens) != ncols:
        raise FormatError(
            f"expected {ncols} solution cells, got {len(tokens)}",
            line=number,
            column=len(text) + 1,
            **where,
        )
    values: dict[Cell, int] = {}
    for c, (token, column) in enumerate(tokens):
        if not _SOLUTION_TOKEN.fullmatch(token):
            raise FormatError(
                f"unknown solution cell {short(token)!r} (expected a digit, '.' or '-')",
                line=number,
                column=column,
                **where,
            )
        if is_number(token):
            try:
                value = parse_int(token)
            except ValueError as exc:
                raise FormatError(str(exc), line=number, column=column, **where) from None
            if value:
                values[(r, c)] = value
    return values


def read_solution(
    answer: str,
    rows: Sequence[tuple[int, str]],
    puzzle: Puzzle,
    line: int,
    source: str | None = None,
) -> Solution:
    """A solution section: the text after ``solution:`` (cryptic answer) and its rows.

    Digits land where they are written, even outside white cells, so the rule checker can
    report them (``0`` and ``.`` leave a cell empty); the shape must match the puzzle's.
    """
    where: dict[str, Any] = {"source": source, "puzzle_id": puzzle.id}
    letters: dict[str, int] = {}
    if answer:
        if not (len(answer) == len(LETTERS) and is_number(answer)):
            raise FormatError(
                f"expected the ten digits of A..J after 'solution:', got {short(answer)!r}",
                line=line,
                **where,
            )
        letters = {ch: int(d) for ch, d in zip(LETTERS, answer, strict=True)}
    if len(rows) != puzzle.nrows:
        last = rows[-1][0] + 1 if rows else line + 1
        raise FormatError(
            f"solution has {len(rows)} rows, the grid {puzzle.nrows}", line=last, **where
        )
    values: dict[Cell, int] = {}
    for r, (number, text) in enumerate(rows):
        values.update(_solution_row(r, number, text, puzzle.ncols, where))
    return Solution(values, letters)
