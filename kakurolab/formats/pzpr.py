"""pzpr: the puzzle community's sharing format, puzz.link / pzprjs Kakuro URLs and pzprv3 files.

A URL ``https://puzz.link/p?kakuro/COLS/ROWS/BODY`` gives the size of the playable board; the
clue border above and left of it (pzprjs's "excells") is implicit, so a kakurolab grid has one
row and one column more.  BODY walks the board's cells row by row: ``k``..``z`` skip 1..16
white cells, ``.`` is a clue cell without clues, and two characters are a clue cell (down
clue, then across clue).  The clues of the border follow: the down clue above each column
whose first cell is white, then the across clue left of each row whose first cell is white.
A clue character is ``1``-``9``, ``a``-``j`` (10-19) or ``A``-``Z`` (20-45); ``0`` and ``-`` mean
no clue (older pzprjs writes ``0``, puzz.link today ``-``, which the writer uses too).

A pzprv3 file (``pzprv3``, ``kakuro``, ROWS, COLS on their own lines) holds the same board as
ROWS+1 lines of COLS+1 tokens (corner, then the border's down clues; each row: its across
clue, then ``.`` for a white cell or ``ACROSS,DOWN`` for a clue cell, ``0`` or ``-1`` meaning
no clue), then ROWS lines of answers (a digit or ``.`` per cell).  pzprjs reads ``/`` as a line
break, so the one-line form ``pzprv3/kakuro/5/5/...`` of its test scripts reads too.

A text of URLs, one per line, is a collection whose ids are the 1-based line numbers (as in
PE424).  The writer writes puzz.link URLs; :func:`dump_pzprv3` writes one puzzle as a file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from ..errors import FormatError
from ..model import BLOCK, WHITE, Clue, ClueCell, Puzzle, Solution, Square, White
from .format import (
    Format,
    NumberTooLong,
    all_parsed,
    check_size,
    is_number,
    line_entries,
    parse_int,
    short,
)

URL_PREFIX = "https://puzz.link/p?kakuro/"
"""What the writer puts in front of COLS/ROWS/BODY."""

_HOSTS = (
    r"(?:www\.)?puzz\.link/p",
    r"pzprxs\.vercel\.app/p",
    r"(?:www\.)?pzv\.jp/p",
    r"indi\.s58\.xrea\.com/pzpr/v3/p",
)
_URL_START = re.compile(rf"https?://(?:{'|'.join(_HOSTS)})(?:\.html)?\?")
_DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_MAX_CLUE = 45  # the largest clue a pzprjs URL character holds ('Z')
_MAX_SKIP = 16  # 'z' skips 16 white cells
_ANSWER_MARKS = ("+", "-", "=", "%", "[")  # pzprjs's background marks and candidates: no digit


def is_url(text: str) -> bool:
    """Whether the text is a URL of a pzprjs site (any puzzle: the parser names wrong ones)."""
    return _URL_START.match(text.strip()) is not None


class PzprFormat(Format):
    name = "pzpr"
    doc = "puzz.link / pzprjs Kakuro URLs, one per line, or a pzprv3 file"
    suffixes = (".txt", ".url")

    @classmethod
    def sniff(cls, text: str) -> bool:
        stripped = text.lstrip()
        if stripped.startswith("pzprv3"):
            return True
        first = stripped.split("\n", 1)[0]
        return is_url(first)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        return all_parsed(cls.parse_entries(text, source))

    @classmethod
    def parse_entries(cls, text: str, source: str | None = None) -> list[Puzzle | FormatError]:
        if text.lstrip().startswith("pzprv3"):
            return [parse_pzprv3(text, "1", source)]
        return line_entries(text, lambda line, n: parse_url(line, str(n), source, n))

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        return _cannot_write(puzzle)

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return "".join(encode_url(puzzle) + "\n" for puzzle in puzzles)


# ---------------------------------------------------------------- what pzpr can express


def _cannot_write(puzzle: Puzzle) -> str | None:
    """The first thing about the grid that a pzprjs board cannot hold, or None."""
    if puzzle.is_cryptic:
        return "the pzpr format holds numeric clues only"
    if puzzle.nrows < 2 or puzzle.ncols < 2:
        return "the pzpr format needs a clue row and column plus at least one more of each"
    for r, row in enumerate(puzzle.grid):
        for c, square in enumerate(row):
            reason = _square_problem(puzzle, r, c, square)
            if reason:
                return f"the pzpr format cannot write r{r + 1}c{c + 1}: {reason}"
    return None


def _square_problem(puzzle: Puzzle, r: int, c: int, square: Square) -> str | None:
    if isinstance(square, White):
        return "a white cell in the first row or column" if r == 0 or c == 0 else None
    if not isinstance(square, ClueCell):
        return None
    for clue in (square.down, square.across):
        if clue is not None and not 1 <= (clue.value or 0) <= _MAX_CLUE:
            return f"clue {clue} (pzprjs clues are 1-{_MAX_CLUE})"
    if r == 0 or c == 0:
        # The border holds only the clue pointing into the board, and a URL only the clues
        # of border cells in front of a white cell.
        down_ok = square.down is None or (r == 0 and c > 0 and isinstance(puzzle.grid[1][c], White))
        across_ok = square.across is None or (
            c == 0 and r > 0 and isinstance(puzzle.grid[r][1], White)
        )
        if not (down_ok and across_ok):
            return "a border clue without a white cell after it"
    return None


# ---------------------------------------------------------------- URL


def encode_url(puzzle: Puzzle) -> str:
    """The puzz.link URL of a puzzle that :func:`_cannot_write` accepts."""
    grid = puzzle.grid
    rows, cols = puzzle.nrows - 1, puzzle.ncols - 1
    parts = _body(puzzle)
    for c in range(1, cols + 1):
        if isinstance(grid[1][c], White):
            parts.append(_encval(_clue_of(grid[0][c], down=True)))
    for r in range(1, rows + 1):
        if isinstance(grid[r][1], White):
            parts.append(_encval(_clue_of(grid[r][0], down=False)))
    return f"{URL_PREFIX}{cols}/{rows}/{''.join(parts)}"


def _body(puzzle: Puzzle) -> list[str]:
    """The URL's body: the inner grid row by row, a clue cell's pair of clues, a stretch of
    white cells as one skip letter (at most :data:`_MAX_SKIP` each)."""
    grid = puzzle.grid
    parts: list[str] = []
    whites = 0
    for r in range(1, puzzle.nrows):
        for c in range(1, puzzle.ncols):
            square = grid[r][c]
            if isinstance(square, White):
                whites += 1
                if whites == _MAX_SKIP:
                    parts.append(_skip(whites))
                    whites = 0
                continue
            if whites:
                parts.append(_skip(whites))
                whites = 0
            parts.append(_clue_pair(square))
    if whites:
        parts.append(_skip(whites))
    return parts


def _skip(count: int) -> str:
    return _DIGITS36[count + 19]  # 1 -> 'k' ... 16 -> 'z'


def _clue_of(square: Square, *, down: bool) -> Clue | None:
    if not isinstance(square, ClueCell):
        return None
    return square.down if down else square.across


def _clue_pair(square: Square) -> str:
    down, across = _clue_of(square, down=True), _clue_of(square, down=False)
    if down is None and across is None:
        return "."
    return _encval(down) + _encval(across)


def _encval(clue: Clue | None) -> str:
    if clue is None or clue.value is None:
        return "-"  # as puzz.link writes a missing clue today, so its URLs come back unchanged
    if clue.value < 20:
        return _DIGITS36[clue.value]
    return chr(ord("A") + clue.value - 20)


def _decval(ch: str) -> int | None:
    """A clue character's number, 0 for "no clue", None when it is no clue character."""
    if ch == "-":
        return 0
    if "0" <= ch <= "9" or "a" <= ch <= "j":
        return int(ch, 36)
    if "A" <= ch <= "Z":
        return int(ch, 36) + 10
    return None


def parse_url(line: str, pid: str, source: str | None = None, lineno: int | None = None) -> Puzzle:
    """One puzzle from a pzprjs Kakuro URL; errors name the line and column."""
    text = line.strip()
    indent = len(line) - len(line.lstrip())

    def fail(message: str, offset: int | None = None) -> FormatError:
        column = None if offset is None else indent + offset + 1
        return FormatError(message, source=source, puzzle_id=pid, line=lineno, column=column)

    start = _URL_START.match(text)
    if start is None:
        raise fail("expected a puzz.link URL such as https://puzz.link/p?kakuro/COLS/ROWS/BODY", 0)
    pid_end = text.find("/", start.end())
    variety = text[start.end() : pid_end if pid_end >= 0 else len(text)]
    if variety != "kakuro":
        raise fail(f"a URL of the pzprjs puzzle {variety!r}, not 'kakuro'", start.end())
    fields = text[pid_end + 1 :].split("/") if pid_end >= 0 else []
    if len(fields) != 3:
        raise fail("expected COLS/ROWS/BODY after 'kakuro/'", pid_end + 1 if pid_end >= 0 else 0)
    cols_text, rows_text, body = fields
    offset = pid_end + 1
    cols = _size(cols_text, "columns", lambda m: fail(m, offset))
    offset += len(cols_text) + 1
    rows = _size(rows_text, "rows", lambda m: fail(m, offset))
    offset += len(rows_text) + 1
    check_size(rows + 1, cols + 1, source=source, puzzle_id=pid, line=lineno)
    return _decode_body(body, rows, cols, pid, lambda m, i: fail(m, offset + i))


def _size(text: str, what: str, fail: Callable[[str], FormatError]) -> int:
    """A board side: a positive number of ASCII digits, not absurdly long."""
    try:
        value = parse_int(text)
    except NumberTooLong as exc:
        raise fail(str(exc)) from None
    except ValueError:
        raise fail(f"expected the number of {what}, got {short(text)!r}") from None
    if value == 0:
        raise fail(f"expected the number of {what}, got {text!r}")
    return value


def _decode_body(
    body: str, rows: int, cols: int, pid: str, fail: Callable[[str, int], FormatError]
) -> Puzzle:
    """The board behind a URL body; ``fail(message, index)`` locates an error in the body."""
    total = rows * cols
    cells: list[Square] = []
    i = 0
    while len(cells) < total:
        if i >= len(body):
            raise fail(f"the body ends after {len(cells)} of the {rows}x{cols} cells", i)
        ch = body[i]
        if "k" <= ch <= "z":
            count = int(ch, 36) - 19
            if len(cells) + count > total:
                raise fail(f"{ch!r} skips {count} white cells past the last cell", i)
            cells.extend([WHITE] * count)
            i += 1
        elif ch == ".":
            cells.append(BLOCK)
            i += 1
        else:
            if i + 1 >= len(body):
                raise fail("a clue cell needs two characters (down, across)", i)
            down, across = _url_clue(body, i, fail), _url_clue(body, i + 1, fail)
            cells.append(_clue_square(down, across))
            i += 2
    top, left = [], []
    for c in range(cols):
        top.append(_border_clue(body, i, fail) if isinstance(cells[c], White) else None)
        i += isinstance(cells[c], White)
    for r in range(rows):
        left.append(_border_clue(body, i, fail) if isinstance(cells[r * cols], White) else None)
        i += isinstance(cells[r * cols], White)
    if i < len(body):
        raise fail(f"unexpected {body[i:]!r} after the clues of the border", i)
    return Puzzle(pid, _grid(rows, cols, cells, top, left))


def _url_clue(body: str, i: int, fail: Callable[[str, int], FormatError]) -> Clue | None:
    value = _decval(body[i])
    if value is None:
        raise fail(f"bad clue character {body[i]!r} (expected 0-9, a-j, A-Z or '-')", i)
    return Clue(value) if value > 0 else None


def _border_clue(body: str, i: int, fail: Callable[[str, int], FormatError]) -> Clue | None:
    if i >= len(body):
        raise fail("the body ends before the clues of the border", i)
    return _url_clue(body, i, fail)


def _clue_square(down: Clue | None, across: Clue | None) -> Square:
    return ClueCell(down=down, across=across) if down or across else BLOCK


def _grid(
    rows: int,
    cols: int,
    cells: list[Square],
    top: list[Clue | None],
    left: list[Clue | None],
) -> tuple[tuple[Square, ...], ...]:
    """The kakurolab grid: pzprjs's board below a clue row, right of a clue column."""
    grid = [(BLOCK, *(_clue_square(down, None) for down in top))]
    for r in range(rows):
        grid.append((_clue_square(None, left[r]), *cells[r * cols : (r + 1) * cols]))
    return tuple(grid)


# ---------------------------------------------------------------- pzprv3 file


def dump_pzprv3(puzzle: Puzzle) -> str:
    """The pzprv3 file of one puzzle, with its solution as the answer when it carries one.

    Like pzprjs, every token ends with a space and a missing clue is written ``0``.
    """
    grid = puzzle.grid
    rows, cols = puzzle.nrows - 1, puzzle.ncols - 1
    lines = ["pzprv3", "kakuro", str(rows), str(cols)]
    lines.append(
        _tokens(["0"] + [_number(_clue_of(grid[0][c], down=True)) for c in range(1, cols + 1)])
    )
    for r in range(1, rows + 1):
        tokens = [_number(_clue_of(grid[r][0], down=False))]
        for c in range(1, cols + 1):
            square = grid[r][c]
            if isinstance(square, White):
                tokens.append(".")
            else:
                across = _number(_clue_of(square, down=False))
                tokens.append(f"{across},{_number(_clue_of(square, down=True))}")
        lines.append(_tokens(tokens))
    solution = puzzle.meta.get("solution")
    values = solution.values if isinstance(solution, Solution) else {}
    for r in range(1, rows + 1):
        lines.append(_tokens([str(values.get((r, c), ".")) for c in range(1, cols + 1)]))
    return "\n".join(lines) + "\n"


def _tokens(tokens: list[str]) -> str:
    return "".join(token + " " for token in tokens)


def _number(clue: Clue | None) -> str:
    return "0" if clue is None or clue.value is None else str(clue.value)


def parse_pzprv3(text: str, pid: str = "1", source: str | None = None) -> Puzzle:
    """One puzzle (and its answer, when complete) from a pzprv3 file."""
    lines = text.lstrip().replace("/", "\n").splitlines()
    skipped = len(text) - len(text.lstrip())
    first_line = text[:skipped].count("\n") + 1  # blank lines before the header

    def fail(message: str, index: int, column: int | None = None) -> FormatError:
        return FormatError(
            message, source=source, puzzle_id=pid, line=first_line + index, column=column
        )

    def line(index: int, what: str) -> str:
        if index >= len(lines):
            raise fail(f"the file ends before {what}", index)
        return lines[index].strip()

    if not re.fullmatch(r"pzprv3(\.\d+)?", line(0, "the header")):
        raise fail(f"expected the header 'pzprv3', got {lines[0].strip()!r}", 0)
    variety = line(1, "the puzzle name")
    if variety != "kakuro":
        raise fail(f"a pzprv3 file of the puzzle {variety!r}, not 'kakuro'", 1)
    size = []
    for index, what in ((2, "rows"), (3, "columns")):
        value = line(index, f"the number of {what}")
        size.append(_size(value, what, partial(fail, index=index)))
    rows, cols = size
    check_size(rows + 1, cols + 1, source=source, puzzle_id=pid)
    clue_rows = [
        _file_row(lines, 4 + r, cols + 1, fail, f"clue row {r + 1}") for r in range(rows + 1)
    ]
    _file_clue(*clue_rows[0][0], 4, fail)  # the corner holds no clue, but must be a number
    top = [_file_clue(tok, col, 4, fail) for tok, col in clue_rows[0][1:]]
    left: list[Clue | None] = []
    cells: list[Square] = []
    for r, row in enumerate(clue_rows[1:], start=1):
        left.append(_file_clue(row[0][0], row[0][1], 4 + r, fail))
        cells.extend(_file_cell(tok, col, 4 + r, fail) for tok, col in row[1:])
    puzzle = Puzzle(pid, _grid(rows, cols, cells, top, left))
    answer_start = 4 + rows + 1
    if answer_start < len(lines) and _is_answer_row(lines[answer_start]):
        solution = _answers(lines, answer_start, puzzle, fail)
        if solution is not None:
            return Puzzle(pid, puzzle.grid, {"solution": solution})
    return puzzle


def _file_row(
    lines: list[str], index: int, width: int, fail: Callable[..., FormatError], what: str
) -> list[tuple[str, int]]:
    """The tokens of one line with their 1-based columns, exactly ``width`` of them."""
    if index >= len(lines):
        raise fail(f"the file ends before {what}", index)
    text = lines[index]
    tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    if len(tokens) != width:
        raise fail(f"expected {width} tokens, got {len(tokens)}", index, len(text.rstrip()) + 1)
    return tokens


def _file_number(token: str) -> int | None:
    digits = token.removeprefix("-")
    if not is_number(digits) or len(digits) > 3:  # clues are at most 45; no huge numbers
        return None
    return -int(digits) if token.startswith("-") else int(digits)


def _file_clue(
    token: str, column: int, index: int, fail: Callable[..., FormatError]
) -> Clue | None:
    if token == ".":
        return None
    value = _file_number(token)
    if value is None:
        raise fail(f"expected a clue number, got {token!r}", index, column)
    return Clue(value) if value > 0 else None


def _file_cell(token: str, column: int, index: int, fail: Callable[..., FormatError]) -> Square:
    if token == ".":
        return WHITE
    across_text, comma, down_text = token.partition(",")
    across, down = _file_number(across_text), _file_number(down_text)
    if not comma or across is None or down is None:
        raise fail(f"expected '.' or a clue cell 'ACROSS,DOWN', got {token!r}", index, column)
    return _clue_square(Clue(down) if down > 0 else None, Clue(across) if across > 0 else None)


def _is_answer_row(line: str) -> bool:
    """pzprjs may follow the board with ``info:``/``history:`` JSON instead of answers."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(("info:", "history:", "__HISTORY__"))


def _answers(
    lines: list[str], start: int, puzzle: Puzzle, fail: Callable[..., FormatError]
) -> Solution | None:
    """The answer digits, as a solution when every white cell holds one (else None)."""
    rows, cols = puzzle.nrows - 1, puzzle.ncols - 1
    values: dict[tuple[int, int], int] = {}
    for r in range(rows):
        row = _file_row(lines, start + r, cols, fail, f"answer row {r + 1}")
        for c, (token, column) in enumerate(row):
            value = _file_number(token)
            if value is None and (token == "." or token.startswith(_ANSWER_MARKS)):
                continue  # an empty cell, maybe with a background mark or candidates
            if value is None:
                raise fail(f"expected an answer digit or '.', got {token!r}", start + r, column)
            if 1 <= value <= 9 and isinstance(puzzle.grid[r + 1][c + 1], White):
                values[(r + 1, c + 1)] = value
    if len(values) != len(puzzle.whites):
        return None
    return Solution(values)
