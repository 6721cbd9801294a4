"""MiniZinc: ``.dzn`` data of the MiniZinc benchmarks' Kakuro model, and a self-contained ``.mzn``.

The benchmarks' data (``kakuro/*.dzn`` in MiniZinc/minizinc-benchmarks) describes a grid by
``grid_data`` (``h`` rows of ``w`` entries, 1 for a white cell, 0 for any other) and one clue
per run: the row and column of its clue cell (counted from 1), the run's length and its sum,
in ``h_clue`` (runs to the right) and ``v_clue`` (runs downward).  Two layouts occur: the
classic one, with ``h``, ``w``, ``n_h``, ``n_v`` and the clues as ``[| r, c, len, sum | ... |]``
rows, and a newer one with the clues as records ``(row: r, col: c, len: l, sum: s)`` and the
sizes left to the arrays.  Both are read; the classic one is written, since MiniZinc before 2.7
(Debian's 2.6) has no records.

The ``.mzn`` writer puts the same data items in front of :data:`MODEL`, a Kakuro model that
reads them, so ``minizinc p.mzn`` solves the puzzle alone and prints the grid as solution rows
``kakuro check`` reads; the reader takes the data items back out of such a file.  A cryptic
puzzle's ``.mzn`` adds its letters (:data:`CRYPTIC_NAMES`) and uses :data:`CRYPTIC_MODEL`.
Those are the ``sum`` model; ``dumps(..., "mzn", model="table")`` writes the ``table`` model
(:mod:`.cpmodels`) after the same data items instead, so the reader is the same for both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import FormatError
from ..model import BLOCK, LETTERS, WHITE, Clue, ClueCell, Direction, Puzzle, Square, White
from .cpmodels import DEFAULT_MODEL
from .format import MAX_CELLS, MAX_JSON_CHARS, MAX_SIDE, Format, check_size, parse_int, short
from .minizinc_models import CRYPTIC_MODEL as CRYPTIC_MODEL
from .minizinc_models import MODEL as MODEL
from .minizinc_models import sum_model, table_model

DATA_NAMES = ("h", "w", "grid_data", "n_h", "h_clue", "n_v", "v_clue")
CRYPTIC_NAMES = ("h_letters", "v_letters", "n_shown", "shown")
"""The ``.mzn`` writer's items for cryptic puzzles (not in the benchmarks' layout): per clue
row its letters as ``tens, units`` (1-10 for A-J, 0 for none; ``0, 0`` a numeric clue), and
the letters shown in white cells as ``row, col, letter`` rows."""
CLUE_FIELDS = ("row", "col", "len", "sum")
SIDES = ((Direction.ACROSS, "n_h", "h_clue"), (Direction.DOWN, "n_v", "v_clue"))


@dataclass(frozen=True)
class RunClue:
    """One clue of the data: its clue cell (0-based here), run length and sum."""

    row: int
    col: int
    length: int
    total: int
    letters: str | None = None
    """A cryptic clue's letters (``total`` is then 0)."""

    @property
    def clue(self) -> Clue:
        return Clue(letters=self.letters) if self.letters else Clue(value=self.total)




def _clues(puzzle: Puzzle, direction: Direction) -> list[RunClue]:
    """Every clue of one direction with the length of the white run after it."""
    dr, dc = direction.step
    grid = puzzle.grid
    out = []
    for r, row in enumerate(grid):
        for c, square in enumerate(row):
            clue = square.clue(direction) if isinstance(square, ClueCell) else None
            if clue is None:
                continue
            length, rr, cc = 0, r + dr, c + dc
            while rr < puzzle.nrows and cc < puzzle.ncols and isinstance(grid[rr][cc], White):
                length, rr, cc = length + 1, rr + dr, cc + dc
            out.append(RunClue(r, c, length, clue.value or 0, clue.letters))
    return out


def dzn_text(puzzle: Puzzle) -> str:
    """The classic data items of one puzzle."""
    lines = [f"% kakuro puzzle {puzzle.id}"] if _plain(puzzle.id) else []
    lines += [f"h = {puzzle.nrows};", f"w = {puzzle.ncols};"]
    rows = [
        ", ".join("1" if isinstance(square, White) else "0" for square in row)
        for row in puzzle.grid
    ]
    lines.append("grid_data = [|\n    " + " |\n    ".join(rows) + "\n|];")
    for direction, count, name in SIDES:
        clues = _clues(puzzle, direction)
        lines.append(f"{count} = {len(clues)};")
        lines.append(_matrix(name, [[k.row + 1, k.col + 1, k.length, k.total] for k in clues]))
        if puzzle.is_cryptic:
            letters = [_letter_pair(k.letters) for k in clues]
            lines.append(_matrix(f"{name[0]}_letters", letters))
    if puzzle.is_cryptic:
        shown = [
            [r + 1, c + 1, LETTERS.index(ch) + 1] for (r, c), ch in puzzle.shown_letters.items()
        ]
        lines += [f"n_shown = {len(shown)};", _matrix("shown", shown)]
    return "\n".join(lines) + "\n"


def _matrix(name: str, rows: list[list[int]]) -> str:
    if not rows:
        return f"{name} = [| |];"
    body = " |\n    ".join(", ".join(map(str, row)) for row in rows)
    return f"{name} = [|\n    {body}\n|];"


def _letter_pair(letters: str | None) -> list[int]:
    """``tens, units`` letter numbers (A = 1); ``0, 0`` for a numeric clue."""
    numbers = [LETTERS.index(ch) + 1 for ch in letters or ""]
    return [0] * (2 - len(numbers)) + numbers


def _plain(pid: str) -> bool:
    """Whether an id reads back from a comment line as it is."""
    return pid == " ".join(pid.split()) and bool(pid)


ID_COMMENT = re.compile(r"^% kakuro puzzle (.+)$", re.M)


# ---------------------------------------------------------------- reading

_TOKEN = re.compile(
    r"(?P<skip>\s+|%[^\n]*|/\*.*?\*/)"
    r"|(?P<tok>\[\||\|\]|[A-Za-z_][A-Za-z0-9_]*|\d+|-|[=;,|()\[\]:])"
    r"|(?P<bad>.)",
    re.S,
)


class Token(NamedTuple):
    text: str
    line: int
    column: int


def _tokens(text: str, source: str | None) -> Iterator[Token]:
    """The tokens with their lines and columns (comments and blanks dropped), made as the
    reader asks for them: an error (an array beyond the limits) stops the reading at once."""
    if len(text) > MAX_JSON_CHARS:
        raise FormatError(
            f"MiniZinc data too large: {len(text):,} characters (at most {MAX_JSON_CHARS:,})",
            source=source,
        )
    line, start_of_line = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "tok":
            yield Token(match.group(), line, match.start() - start_of_line + 1)
        elif kind == "skip":
            newlines = match.group().count("\n")
            if newlines:
                line += newlines
                start_of_line = match.start() + match.group().rindex("\n") + 1
        else:
            raise FormatError(
                f"unexpected {short(text[match.start():match.start() + 10])!r}",
                source=source,
                line=line,
                column=match.start() - start_of_line + 1,
            )


Value = int | list[list[int]] | list[dict[str, int]]


class _Reader:
    """Recursive descent over the few value shapes the data uses: integers, 2D arrays
    ``[| ... |]`` and 1D arrays of records ``[(row: 1, ...), ...]``."""

    def __init__(self, tokens: Iterator[Token], source: str | None) -> None:
        self.tokens, self.source = tokens, source
        self.ahead: Token | None = next(tokens, None)
        self.last = Token("", 1, 1)
        """The token taken last (errors about a separator point at it)."""

    def fail(self, message: str, token: Token | None = None) -> FormatError:
        token = token or self.ahead
        if token is None:
            return FormatError(f"{message} at the end of the data", source=self.source)
        return FormatError(message, source=self.source, line=token.line, column=token.column)

    def peek(self) -> str | None:
        return self.ahead.text if self.ahead is not None else None

    def take(self, expected: str | None = None) -> Token:
        token = self.ahead
        if token is None:
            raise self.fail(f"expected {expected!r}" if expected else "unexpected end")
        if expected is not None and token.text != expected:
            raise self.fail(f"expected {expected!r}, got {short(token.text)!r}", token)
        self.last, self.ahead = token, next(self.tokens, None)
        return token

    def items(self) -> list[tuple[Token, Value]]:
        """``name = value;`` items in order."""
        out = []
        while self.peek() is not None:
            name = self.take()
            if not re.fullmatch(r"[A-Za-z_]\w*", name.text):
                raise self.fail(f"expected a name, got {short(name.text)!r}", name)
            self.take("=")
            out.append((name, self.value()))
            self.take(";")
        return out

    def number(self) -> int:
        token = self.take()
        negative = token.text == "-"
        if negative:
            token = self.take()
        try:
            value = parse_int(token.text)
        except ValueError as exc:
            raise self.fail(str(exc) if "too long" in str(exc) else
                            f"expected a number, got {short(token.text)!r}", token) from None
        return -value if negative else value

    def value(self) -> Value:
        nxt = self.peek()
        if nxt == "[|":
            return self.matrix()
        if nxt == "[":
            return self.records()
        return self.number()

    def matrix(self) -> list[list[int]]:
        self.take("[|")
        rows: list[list[int]] = []
        if self.peek() == "|]":
            self.take()
            return rows
        row: list[int] = []
        while True:
            row.append(self.number())
            if len(row) > MAX_SIDE or len(rows) > MAX_CELLS:
                raise self.fail(f"array too large (rows of at most {MAX_SIDE} entries, "
                                f"at most {MAX_CELLS:,} rows)")
            sep = self.take().text
            if sep == ",":
                if self.peek() in ("|", "|]"):  # a trailing comma before the row ends
                    sep = self.take().text
                else:
                    continue
            if sep not in ("|", "|]"):
                raise self.fail(f"expected ',', '|' or '|]', got {short(sep)!r}", self.last)
            rows.append(row)
            row = []
            if sep == "|]":
                return rows
            if self.peek() == "|]":  # '|' closing the last row, then '|]'
                self.take()
                return rows

    def records(self) -> list[dict[str, int]]:
        self.take("[")
        out: list[dict[str, int]] = []
        while self.peek() != "]":
            out.append(self.record())
            if len(out) > MAX_CELLS:
                raise self.fail(f"array too large (at most {MAX_CELLS:,} clues)")
            if self.peek() == ",":
                self.take()
            elif self.peek() != "]":
                raise self.fail("expected ',' or ']'")
        self.take("]")
        return out

    def record(self) -> dict[str, int]:
        start = self.take("(")
        fields: dict[str, int] = {}
        while True:
            key = self.take()
            self.take(":")
            if key.text in fields:
                raise self.fail(f"field {key.text!r} given twice", key)
            fields[key.text] = self.number()
            sep = self.take().text
            if sep == ")":
                break
            if sep != ",":
                raise self.fail(f"expected ',' or ')', got {short(sep)!r}", self.last)
        if sorted(fields) != sorted(CLUE_FIELDS):
            raise self.fail(f"a clue record has the fields {', '.join(CLUE_FIELDS)}", start)
        return fields


def read_dzn(
    text: str,
    source: str | None,
    *,
    only_data: bool = False,
    names: tuple[str, ...] = DATA_NAMES,
) -> list[Puzzle]:
    """Puzzles from data items; a name given a second time starts the next puzzle
    (kakurolab's extension for several puzzles in one file).  ``only_data`` skips items of
    other names (a ``.mzn`` model's own); ``names`` are the data items read."""
    items = _Reader(_tokens(text, source), source).items()
    groups: list[dict[str, tuple[Token, Value]]] = [{}]
    for name, value in items:
        if name.text not in names:
            if only_data:
                continue
            raise FormatError(
                f"unknown data item {short(name.text)!r} (a Kakuro .dzn has "
                f"{', '.join(names)})",
                source=source,
                line=name.line,
                column=name.column,
            )
        if name.text in groups[-1]:
            groups.append({})
        groups[-1][name.text] = (name, value)
    if not groups[0]:
        raise FormatError("no Kakuro data items (grid_data, h_clue, v_clue)", source=source)
    ids = ID_COMMENT.findall(text)
    if len(ids) != len(groups) or len(set(ids)) != len(ids):
        ids = [str(i) for i in range(1, len(groups) + 1)]
    return [_puzzle(group, pid, source) for pid, group in zip(ids, groups, strict=True)]


def _puzzle(items: dict[str, tuple[Token, Value]], pid: str, source: str | None) -> Puzzle:
    def fail(message: str, token: Token | None = None) -> FormatError:
        line = token.line if token else None
        return FormatError(message, source=source, puzzle_id=pid, line=line)

    missing = [name for name in ("grid_data", "h_clue", "v_clue") if name not in items]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    cells = _cells(items, fail, source, pid)
    clues: dict[tuple[int, int], dict[Direction, Clue]] = {}
    for direction, count, name in SIDES:
        _side(items, direction, count, name, cells, clues, fail)
    for (r, c), sides in clues.items():
        cells[r][c] = ClueCell(down=sides.get(Direction.DOWN), across=sides.get(Direction.ACROSS))
    if "shown" in items:
        token, shown = items["shown"]
        _show(shown, cells, _at(fail, token, "shown: "))
    return Puzzle(pid, tuple(tuple(row) for row in cells))


Locating = Callable[[str, Token | None], FormatError]
"""A puzzle's error maker: a message, located at a token's line when there is one."""


def _cells(
    items: dict[str, tuple[Token, Value]], fail: Locating, source: str | None, pid: str
) -> list[list[Square]]:
    """``grid_data`` as white and black squares (checked against ``h`` and ``w``)."""
    where, grid_data = items["grid_data"]
    if not isinstance(grid_data, list) or not grid_data or not isinstance(grid_data[0], list):
        raise fail("grid_data must be a 2D array [| ... |]", where)
    nrows, ncols = len(grid_data), len(grid_data[0])
    check_size(nrows, ncols, source=source, puzzle_id=pid, line=where.line)
    for name, size in (("h", nrows), ("w", ncols)):
        if name in items and items[name][1] != size:
            raise fail(f"{name} = {items[name][1]!r} but grid_data has {size}", items[name][0])
    cells: list[list[Square]] = []
    for r, row in enumerate(grid_data):
        if not isinstance(row, list) or len(row) != ncols:
            raise fail(f"grid_data row {r + 1} has {len(row)} entries, not {ncols}", where)
        if any(value not in (0, 1) for value in row):
            raise fail(f"grid_data row {r + 1}: entries are 0 or 1", where)
        cells.append([WHITE if value == 1 else BLOCK for value in row])
    return cells


def _side(
    items: dict[str, tuple[Token, Value]],
    direction: Direction,
    count: str,
    name: str,
    cells: list[list[Square]],
    clues: dict[tuple[int, int], dict[Direction, Clue]],
    fail: Locating,
) -> None:
    """One side's clue rows (``h_clue`` or ``v_clue``, with their letters) placed on the grid."""
    token, value = items[name]
    runs = _run_clues(value, name, _at(fail, token, ""))
    letter_name = f"{name[0]}_letters"
    if letter_name in items:
        where_letters, pairs = items[letter_name]
        runs = _with_letters(runs, pairs, _at(fail, where_letters, f"{letter_name}: "))
    if count in items and items[count][1] != len(runs):
        given, at = items[count][1], items[count][0]
        raise fail(f"{count} = {given!r} but {name} has {len(runs)} clues", at)
    for index, run in enumerate(runs, start=1):
        _place(run, direction, cells, clues, _at(fail, token, f"{name} {index}: "))


def _at(
    fail: Locating, token: Token, prefix: str
) -> Callable[[str], FormatError]:
    return lambda message: fail(prefix + message, token)


def _run_clues(value: Value, name: str, fail: Callable[[str], FormatError]) -> list[RunClue]:
    if isinstance(value, int):
        raise fail(f"{name} must be an array of clues")
    out = []
    for entry in value:
        numbers = [entry[key] for key in CLUE_FIELDS] if isinstance(entry, dict) else entry
        if len(numbers) != 4:
            raise fail(f"{name}: a clue has 4 numbers (row, col, len, sum), got {len(numbers)}")
        row, col, length, total = numbers
        out.append(RunClue(row - 1, col - 1, length, total))
    return out


def _with_letters(
    runs: list[RunClue], pairs: Value, fail: Callable[[str], FormatError]
) -> list[RunClue]:
    """The runs with the letters of their clues (one ``tens, units`` row per clue)."""
    if isinstance(pairs, int) or len(pairs) != len(runs):
        raise fail(f"expected one row per clue ({len(runs)})")
    out = []
    for run, pair in zip(runs, pairs, strict=True):
        if not isinstance(pair, list) or len(pair) != 2 or not all(0 <= n <= 10 for n in pair):
            raise fail("a row is tens, units: letter numbers 1-10 (A-J) or 0")
        tens, units = pair
        if tens and not units:
            raise fail("a clue with a tens letter needs a units letter")
        letters = "".join(LETTERS[n - 1] for n in pair if n) or None
        out.append(RunClue(run.row, run.col, run.length, run.total, letters))
    return out


def _show(shown: Value, cells: list[list[Square]], fail: Callable[[str], FormatError]) -> None:
    """Letters shown in white cells: ``row, col, letter`` rows (counted from 1)."""
    if isinstance(shown, int):
        raise fail("expected rows row, col, letter")
    for entry in shown:
        if not isinstance(entry, list) or len(entry) != 3:
            raise fail("expected rows row, col, letter")
        r, c, k = entry[0] - 1, entry[1] - 1, entry[2]
        if not (0 <= r < len(cells) and 0 <= c < len(cells[0])) or not isinstance(
            cells[r][c], White
        ):
            raise fail(f"({r + 1}, {c + 1}) is not a white cell")
        if not 1 <= k <= 10:
            raise fail(f"letter number {k} is not 1-10 (A-J)")
        cells[r][c] = White(letter=LETTERS[k - 1])


def _place(
    run: RunClue,
    direction: Direction,
    cells: list[list[Square]],
    clues: dict[tuple[int, int], dict[Direction, Clue]],
    fail: Callable[[str], FormatError],
) -> None:
    """Put one clue in its cell after checking that its run is the white run that follows."""
    nrows, ncols = len(cells), len(cells[0])
    r, c = run.row, run.col
    if not (0 <= r < nrows and 0 <= c < ncols):
        raise fail(f"clue cell ({r + 1}, {c + 1}) is outside the {nrows}x{ncols} grid")
    if isinstance(cells[r][c], White):
        raise fail(f"clue cell ({r + 1}, {c + 1}) is white in grid_data")
    if run.total < 0 or run.length < 0:
        raise fail("length and sum must not be negative")
    dr, dc = direction.step
    length, rr, cc = 0, r + dr, c + dc
    while rr < nrows and cc < ncols and isinstance(cells[rr][cc], White):
        length, rr, cc = length + 1, rr + dr, cc + dc
    if length != run.length:
        raise fail(f"run length {run.length}, but {length} white cells follow the clue cell")
    sides = clues.setdefault((r, c), {})
    if direction in sides:
        raise fail(f"clue cell ({r + 1}, {c + 1}) has two {direction.value} clues")
    sides[direction] = run.clue


_DATA_ITEM = re.compile(
    r"^\s*(?:h|w|grid_data|n_h|h_clue|n_v|v_clue|h_letters|v_letters|n_shown|shown)\s*=", re.M
)


class DznFormat(Format):
    name = "dzn"
    doc = "MiniZinc data for the MiniZinc benchmarks' Kakuro model (grid_data, h_clue, v_clue)"
    suffixes = (".dzn",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        return bool(re.search(r"^\s*grid_data\s*=", text, re.M)) and not _is_model(text)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        return read_dzn(text, source)

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.is_cryptic:
            return "the dzn format holds numeric clues only (the mzn format holds letters)"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return "\n".join(dzn_text(puzzle) for puzzle in puzzles)


def _is_model(text: str) -> bool:
    return bool(re.search(r"^\s*solve\b", text, re.M))


MODEL_WRITERS: dict[str, Callable[[Puzzle], str]] = {"sum": sum_model, "table": table_model}
"""The model text after a puzzle's data items, by CP model name (:mod:`.cpmodels`)."""


class MznFormat(Format):
    name = "mzn"
    doc = "a self-contained MiniZinc model: the .dzn data items and a Kakuro model"
    suffixes = (".mzn",)
    models = tuple(MODEL_WRITERS)

    @classmethod
    def sniff(cls, text: str) -> bool:
        return bool(re.search(r"^\s*grid_data\s*=", text, re.M)) and _is_model(text)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        """The data items of the file (model items are skipped), as :class:`DznFormat`
        reads them."""
        return read_dzn(_data_items(text), source, only_data=True, names=DATA_NAMES + CRYPTIC_NAMES)

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return cls.dump_model(puzzles, DEFAULT_MODEL)

    @classmethod
    def dump_model(cls, puzzles: Sequence[Puzzle], model: str) -> str:
        write = MODEL_WRITERS[model]
        return "\n".join(f"{dzn_text(puzzle)}\n{write(puzzle)}" for puzzle in puzzles)


def _data_items(text: str) -> str:
    """The data items of a model file, in place: every other line is blanked (kept as an
    empty line, so errors keep their line numbers)."""
    lines = text.split("\n")
    keep = [False] * len(lines)
    inside = False
    for i, line in enumerate(lines):
        if ID_COMMENT.match(line):
            keep[i] = True
        code = line.split("%", 1)[0]
        if not inside and _DATA_ITEM.match(code):
            inside = True
        if inside:
            keep[i] = True
            if ";" in code:
                inside = False
    return "\n".join(line if k else "" for line, k in zip(lines, keep, strict=True))
