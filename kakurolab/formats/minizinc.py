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
``kakuro check`` reads; the reader takes the data items back out of such a file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import FormatError
from ..model import BLOCK, WHITE, Clue, ClueCell, Direction, Puzzle, Square, White
from .base import Format, check_size, parse_int, short

DATA_NAMES = ("h", "w", "grid_data", "n_h", "h_clue", "n_v", "v_clue")
CLUE_FIELDS = ("row", "col", "len", "sum")
SIDES = ((Direction.ACROSS, "n_h", "h_clue"), (Direction.DOWN, "n_v", "v_clue"))

MODEL = """\
% Kakuro: every run of white cells holds distinct digits 1-9 that add up to its clue.
include "alldifferent.mzn";

int: h;
int: w;
array[1..h, 1..w] of 0..1: grid_data;  % 1: white cell, 0: block or clue cell
int: n_h;
array[1..n_h, 1..4] of int: h_clue;    % row, col of the clue cell, run length, sum (across)
int: n_v;
array[1..n_v, 1..4] of int: v_clue;    % the same for the runs downward

array[1..h, 1..w] of var 0..9: x;

constraint forall (r in 1..h, c in 1..w) (
    if grid_data[r, c] = 1 then x[r, c] >= 1 else x[r, c] = 0 endif
);
constraint forall (i in 1..n_h) (
    sum (j in 1..h_clue[i, 3]) (x[h_clue[i, 1], h_clue[i, 2] + j]) = h_clue[i, 4]
    /\\ alldifferent ([x[h_clue[i, 1], h_clue[i, 2] + j] | j in 1..h_clue[i, 3]])
);
constraint forall (i in 1..n_v) (
    sum (j in 1..v_clue[i, 3]) (x[v_clue[i, 1] + j, v_clue[i, 2]]) = v_clue[i, 4]
    /\\ alldifferent ([x[v_clue[i, 1] + j, v_clue[i, 2]] | j in 1..v_clue[i, 3]])
);

solve satisfy;

% One line per grid row: a digit per white cell, '-' for any other (kakuro solution rows).
output [
    (if grid_data[r, c] = 1 then show(x[r, c]) else "-" endif)
    ++ (if c = w then "\\n" else "" endif)
    | r in 1..h, c in 1..w
];
"""
"""A MiniZinc model for the classic data layout (written for kakurolab, not the benchmarks'
model): ``minizinc MODEL.mzn p.dzn`` solves a ``.dzn`` this module writes or reads."""


@dataclass(frozen=True)
class RunClue:
    """One clue of the data: its clue cell (0-based here), run length and sum."""

    row: int
    col: int
    length: int
    total: int


def _cannot_write(puzzle: Puzzle, name: str) -> str | None:
    if puzzle.is_cryptic:
        return f"the {name} format holds numeric clues only"
    return None


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
            assert clue.value is not None  # cannot_write refuses letter clues
            length, rr, cc = 0, r + dr, c + dc
            while rr < puzzle.nrows and cc < puzzle.ncols and isinstance(grid[rr][cc], White):
                length, rr, cc = length + 1, rr + dr, cc + dc
            out.append(RunClue(r, c, length, clue.value))
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
        body = " |\n    ".join(f"{k.row + 1}, {k.col + 1}, {k.length}, {k.total}" for k in clues)
        lines.append(f"{name} = [|\n    {body}\n|];" if clues else f"{name} = [| |];")
    return "\n".join(lines) + "\n"


def _plain(pid: str) -> bool:
    """Whether an id reads back from a comment line as it is."""
    return pid == " ".join(pid.split()) and bool(pid)


ID_COMMENT = re.compile(r"^% kakuro puzzle (.+)$", re.M)


# ---------------------------------------------------------------- reading

_TOKEN = re.compile(
    r"\s+|%[^\n]*|/\*.*?\*/|(?P<tok>\[\||\|\]|[A-Za-z_][A-Za-z0-9_]*|\d+|-|[=;,|()\[\]:])",
    re.S,
)


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    column: int


def _tokens(text: str, source: str | None) -> list[Token]:
    tokens: list[Token] = []
    pos, line, start_of_line = 0, 1, 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise FormatError(
                f"unexpected {short(text[pos:pos + 10])!r}",
                source=source,
                line=line,
                column=pos - start_of_line + 1,
            )
        if match.group("tok"):
            tokens.append(Token(match.group("tok"), line, pos - start_of_line + 1))
        newlines = text.count("\n", pos, match.end())
        if newlines:
            line += newlines
            start_of_line = text.rindex("\n", pos, match.end()) + 1
        pos = match.end()
    return tokens


Value = int | list[list[int]] | list[dict[str, int]]


class _Reader:
    """Recursive descent over the few value shapes the data uses: integers, 2D arrays
    ``[| ... |]`` and 1D arrays of records ``[(row: 1, ...), ...]``."""

    def __init__(self, tokens: list[Token], source: str | None) -> None:
        self.tokens, self.pos, self.source = tokens, 0, source

    def fail(self, message: str, token: Token | None = None) -> FormatError:
        token = token or (self.tokens[self.pos] if self.pos < len(self.tokens) else None)
        if token is None:
            return FormatError(f"{message} at the end of the data", source=self.source)
        return FormatError(message, source=self.source, line=token.line, column=token.column)

    @property
    def last(self) -> Token:
        return self.tokens[self.pos - 1]

    def peek(self) -> str | None:
        return self.tokens[self.pos].text if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> Token:
        if self.pos >= len(self.tokens):
            raise self.fail(f"expected {expected!r}" if expected else "unexpected end")
        token = self.tokens[self.pos]
        if expected is not None and token.text != expected:
            raise self.fail(f"expected {expected!r}, got {short(token.text)!r}", token)
        self.pos += 1
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


def read_dzn(text: str, source: str | None, *, only_data: bool = False) -> list[Puzzle]:
    """Puzzles from data items; a name given a second time starts the next puzzle
    (kakurolab's extension for several puzzles in one file).  ``only_data`` skips items of
    other names (a ``.mzn`` model's own)."""
    items = _Reader(_tokens(text, source), source).items()
    groups: list[dict[str, tuple[Token, Value]]] = [{}]
    for name, value in items:
        if name.text not in DATA_NAMES:
            if only_data:
                continue
            raise FormatError(
                f"unknown data item {short(name.text)!r} (a Kakuro .dzn has "
                f"{', '.join(DATA_NAMES)})",
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
    clues: dict[tuple[int, int], dict[Direction, int]] = {}
    for direction, count, name in SIDES:
        token, value = items[name]
        runs = _run_clues(value, name, _at(fail, token, ""))
        if count in items and items[count][1] != len(runs):
            given, at = items[count][1], items[count][0]
            raise fail(f"{count} = {given!r} but {name} has {len(runs)} clues", at)
        for index, run in enumerate(runs, start=1):
            _place(run, direction, cells, clues, _at(fail, token, f"{name} {index}: "))
    for (r, c), sides in clues.items():
        cells[r][c] = ClueCell(
            down=Clue(value=sides[Direction.DOWN]) if Direction.DOWN in sides else None,
            across=Clue(value=sides[Direction.ACROSS]) if Direction.ACROSS in sides else None,
        )
    return Puzzle(pid, tuple(tuple(row) for row in cells))


def _at(
    fail: Callable[[str, Token | None], FormatError], token: Token, prefix: str
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


def _place(
    run: RunClue,
    direction: Direction,
    cells: list[list[Square]],
    clues: dict[tuple[int, int], dict[Direction, int]],
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
    sides[direction] = run.total


_DATA_ITEM = re.compile(r"^\s*(?:h|w|grid_data|n_h|h_clue|n_v|v_clue)\s*=", re.M)


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
        return _cannot_write(puzzle, cls.name)

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return "\n".join(dzn_text(puzzle) for puzzle in puzzles)


def _is_model(text: str) -> bool:
    return bool(re.search(r"^\s*solve\b", text, re.M))


class MznFormat(Format):
    name = "mzn"
    doc = "a self-contained MiniZinc model: the .dzn data items and a Kakuro model"
    suffixes = (".mzn",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        return bool(re.search(r"^\s*grid_data\s*=", text, re.M)) and _is_model(text)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        """The data items of the file (model items are skipped), as :class:`DznFormat`
        reads them."""
        return read_dzn(_data_items(text), source, only_data=True)

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        return _cannot_write(puzzle, cls.name)

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return "\n".join(f"{dzn_text(puzzle)}\n{MODEL}" for puzzle in puzzles)


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
