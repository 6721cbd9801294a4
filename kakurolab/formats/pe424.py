"""Project Euler 424: one cryptic puzzle per line, ``N,`` then N*N cells row by row.

Cells: ``X`` block, ``O`` white, ``A``-``J`` a white cell showing a letter, ``(hXY,vZ)`` a clue
cell (``h`` the sum to the right, ``v`` the sum downward; across first).  Ids are the 1-based
line numbers, so ``--select 7`` is the seventh puzzle of the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..errors import FormatError
from ..model import BLOCK, LETTERS, WHITE, Clue, ClueCell, Puzzle, Square, White
from .format import Format, all_parsed, check_size, is_number, line_entries, parse_int, short

_TOKEN = re.compile(r"\([^()]*\)|[^,]*")
_CLUE_PART = re.compile(r"([hv])([A-J]{1,2})$")


class Pe424Format(Format):
    name = "pe424"
    doc = "Project Euler 424 cryptic puzzles, one per line"
    suffixes = (".txt",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        first = text.lstrip().split("\n", 1)[0]
        return bool(re.match(r"[0-9]+,(X|O|[A-J]|\()", first))

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        return all_parsed(cls.parse_entries(text, source))

    @classmethod
    def parse_entries(cls, text: str, source: str | None = None) -> list[Puzzle | FormatError]:
        return line_entries(text, lambda line, n: _parse_line(line.rstrip(), str(n), n, source))

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.nrows != puzzle.ncols:
            return "the pe424 format holds square grids only"
        for row in puzzle.grid:
            for sq in row:
                if isinstance(sq, ClueCell) and any(
                    clue is not None and not clue.is_cryptic for clue in (sq.down, sq.across)
                ):
                    return "the pe424 format writes clues in letters only"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        lines = []
        for puzzle in puzzles:
            tokens = [str(puzzle.nrows)] + [_token(sq) for row in puzzle.grid for sq in row]
            lines.append(",".join(tokens))
        return "\n".join(lines) + "\n"


def _token(square: Square) -> str:
    if isinstance(square, White):
        return square.letter or "O"
    if isinstance(square, ClueCell) and (square.down or square.across):
        parts = []
        if square.across is not None:
            parts.append(f"h{square.across}")
        if square.down is not None:
            parts.append(f"v{square.down}")
        return "(" + ",".join(parts) + ")"
    return "X"


def _parse_line(line: str, pid: str, lineno: int, source: str | None) -> Puzzle:
    def fail(message: str, column: int) -> FormatError:
        return FormatError(message, source=source, puzzle_id=pid, line=lineno, column=column)

    size_text = line.partition(",")[0]
    try:
        n = parse_int(size_text) if is_number(size_text) else 0
    except ValueError as exc:
        raise fail(str(exc), 1) from None
    if n == 0:
        raise fail(f"expected the grid size, got {short(size_text)!r}", 1)
    check_size(n, n, source=source, puzzle_id=pid, line=lineno)  # before reading the cells
    tokens: list[tuple[str, int]] = []
    pos = 0
    while pos <= len(line):
        match = _TOKEN.match(line, pos)
        assert match is not None  # the pattern matches the empty string
        tokens.append((match.group(), pos + 1))
        pos = match.end()
        if pos < len(line) and line[pos] != ",":
            raise fail(f"unexpected {line[pos]!r}", pos + 1)
        pos += 1
    cells = tokens[1:]
    if len(cells) != n * n:
        raise fail(f"expected {n * n} cells for a {n}x{n} grid, got {len(cells)}", len(line))
    squares = [_square(tok, col, fail) for tok, col in cells]
    grid = tuple(tuple(squares[r * n : (r + 1) * n]) for r in range(n))
    return Puzzle(pid, grid)


def _square(token: str, column: int, fail: Callable[..., FormatError]) -> Square:
    if token == "X":
        return BLOCK
    if token == "O":
        return WHITE
    if len(token) == 1 and token in LETTERS:
        return White(token)
    if token.startswith("(") and token.endswith(")") and len(token) > 2:
        across = down = None
        for part in token[1:-1].split(","):
            match = _CLUE_PART.match(part)
            if match is None:
                raise fail(f"bad clue part {short(part)!r} in {short(token)}", column)
            clue = Clue(letters=match.group(2))
            if match.group(1) == "h":
                if across is not None:
                    raise fail(f"two across clues in {short(token)}", column)
                across = clue
            else:
                if down is not None:
                    raise fail(f"two down clues in {short(token)}", column)
                down = clue
        return ClueCell(down=down, across=across)
    raise fail(f"unknown cell {short(token)!r}", column)
