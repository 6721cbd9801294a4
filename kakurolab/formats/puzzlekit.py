"""puzzlekit text: header ``R C``, then R rows of C tokens (``-`` block, ``0`` white, ``D,R``
clue cell with down sum D and right sum R, either side may be empty).

A puzzlekit JSON collection (``{"data": {id: {"problem", "solution", ...}}}``) holds many
puzzles; each keeps its key as id and its published solution under ``meta["solution"]``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from ..errors import FormatError
from ..model import BLOCK, WHITE, Clue, ClueCell, Puzzle, Solution, Square, White
from .format import (
    Format,
    all_parsed,
    check_size,
    is_number,
    load_json,
    parse_int,
    short,
    sniff_json,
)


class PuzzlekitFormat(Format):
    name = "puzzlekit"
    doc = "puzzlekit text (R C header, '-', '0', 'D,R' tokens) or its JSON collection"
    suffixes = (".json", ".txt")

    @classmethod
    def sniff(cls, text: str) -> bool:
        stripped = text.lstrip()
        if stripped.startswith("{"):
            data = sniff_json(stripped)
            return isinstance(data, dict) and isinstance(data.get("data"), dict)
        header = stripped.split("\n", 1)[0].split()
        return len(header) == 2 and all(is_number(part) for part in header)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        return all_parsed(cls.parse_entries(text, source))

    @classmethod
    def parse_entries(cls, text: str, source: str | None = None) -> list[Puzzle | FormatError]:
        if not text.lstrip().startswith("{"):
            return [parse_problem(text, "1", source)]
        data = load_json(text, source)
        _check_numbers(data, source)
        entries = data.get("data") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            raise FormatError('expected {"data": {id: {"problem": ...}}}', source=source)
        found: list[Puzzle | FormatError] = []
        for pid, entry in entries.items():
            try:
                found.append(_entry(str(pid), entry, source))
            except FormatError as exc:
                found.append(exc)
        return found

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.is_cryptic:
            return "the puzzlekit format holds numeric clues only"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        data = {}
        for puzzle in puzzles:
            entry: dict[str, object] = {"problem": dump_problem(puzzle)}
            solution = puzzle.meta.get("solution")
            if isinstance(solution, Solution):
                entry["solution"] = dump_solution(puzzle, solution)
            entry.update({k: v for k, v in puzzle.meta.items() if k != "solution"})
            data[puzzle.id] = entry
        return json.dumps({"name": "Kakuro", "count": len(data), "data": data}, indent=1) + "\n"


def _inside_json(exc: FormatError, field: str) -> FormatError:
    """Line numbers of an embedded text count inside that JSON string: say so."""
    where = ""
    if exc.line is not None:
        where = f"{field} text line {exc.line}" + (
            f", column {exc.column}" if exc.column is not None else ""
        )
    detail = f"{where}: {exc.detail}" if where else f"{field} text: {exc.detail}"
    return FormatError(detail, source=exc.source, puzzle_id=exc.puzzle_id)


def _header(lines: list[str], pid: str, source: str | None) -> tuple[int, int]:
    parts = lines[0].split() if lines else []
    if len(parts) != 2 or not all(is_number(p) for p in parts):
        raise FormatError("expected a header 'ROWS COLS'", source=source, puzzle_id=pid, line=1)
    try:
        rows, cols = map(parse_int, parts)
    except ValueError as exc:
        raise FormatError(str(exc), source=source, puzzle_id=pid, line=1) from None
    if rows == 0 or cols == 0:
        raise FormatError("the grid is empty", source=source, puzzle_id=pid, line=1)
    check_size(rows, cols, source=source, puzzle_id=pid, line=1)
    if len(lines) - 1 < rows:
        raise FormatError(
            f"expected {rows} rows, got {len(lines) - 1}",
            source=source,
            puzzle_id=pid,
            line=len(lines) + 1,
        )
    return rows, cols


def _rows(text: str, pid: str, source: str | None) -> list[list[tuple[str, int]]]:
    """Rows of (token, column) after the header, checked against the header's size."""
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]
    rows, cols = _header(lines, pid, source)
    out = []
    for lineno, line in enumerate(lines[1 : rows + 1], start=2):
        tokens, pos = [], 0
        for tok in line.split():
            pos = line.index(tok, pos)
            tokens.append((tok, pos + 1))
            pos += len(tok)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {len(tokens)}",
                source=source,
                puzzle_id=pid,
                line=lineno,
                column=len(line) + 1,
            )
        out.append(tokens)
    if any(line.strip() for line in lines[rows + 1 :]):
        raise FormatError(
            f"text after the {rows} rows the header announces",
            source=source,
            puzzle_id=pid,
            line=rows + 2,
        )
    return out


def parse_problem(text: str, pid: str, source: str | None = None) -> Puzzle:
    grid = []
    for lineno, row in enumerate(_rows(text, pid, source), start=2):
        squares = []
        for token, column in row:
            try:
                squares.append(_square(token))
            except ValueError as exc:
                raise FormatError(
                    str(exc), source=source, puzzle_id=pid, line=lineno, column=column
                ) from None
        grid.append(tuple(squares))
    return Puzzle(pid, tuple(grid))


def _square(token: str) -> Square:
    if token == "-":
        return BLOCK
    if token == "0":
        return WHITE
    if "," in token:
        down_text, _, across_text = token.partition(",")
        if "," in across_text:
            raise ValueError(f"bad clue cell {short(token)!r}")
        down = _number(down_text, token)
        across = _number(across_text, token)
        return ClueCell(down=down, across=across) if down or across else BLOCK
    raise ValueError(f"unknown cell {short(token)!r} (expected '-', '0' or 'D,R')")


def _number(text: str, token: str) -> Clue | None:
    if not text:
        return None
    if not is_number(text):
        raise ValueError(f"bad clue cell {short(token)!r}: {short(text)!r} is not a number")
    return Clue(parse_int(text))


def parse_solution(text: str, puzzle: Puzzle, source: str | None = None) -> Solution:
    """A solution grid (header, then digits and ``-``) for the white cells of ``puzzle``."""
    rows = _rows(text, puzzle.id, source)
    if (len(rows), len(rows[0])) != puzzle.shape:
        raise FormatError(
            f"solution is {len(rows)}x{len(rows[0])}, puzzle is {puzzle.nrows}x{puzzle.ncols}",
            source=source,
            puzzle_id=puzzle.id,
            line=1,
        )
    values = {}
    for r, row in enumerate(rows):
        for c, (token, column) in enumerate(row):
            if is_number(token) and isinstance(puzzle.grid[r][c], White):
                try:
                    values[(r, c)] = parse_int(token)
                except ValueError as exc:
                    raise FormatError(
                        str(exc), source=source, puzzle_id=puzzle.id, line=r + 2, column=column
                    ) from None
            elif token not in ("-", "0") and not is_number(token):
                raise FormatError(
                    f"unknown solution cell {short(token)!r}",
                    source=source,
                    puzzle_id=puzzle.id,
                    line=r + 2,
                    column=column,
                )
    return Solution(values)


def dump_problem(puzzle: Puzzle) -> str:
    lines = [f"{puzzle.nrows} {puzzle.ncols}"]
    for row in puzzle.grid:
        lines.append(" ".join(_token(sq) for sq in row))
    return "\n".join(lines)


def _token(square: Square) -> str:
    if isinstance(square, White):
        return "0"
    if isinstance(square, ClueCell):
        return f"{square.down or ''},{square.across or ''}"
    return "-"


def dump_solution(puzzle: Puzzle, solution: Solution) -> str:
    lines = [f"{puzzle.nrows} {puzzle.ncols}"]
    for r in range(puzzle.nrows):
        lines.append(
            " ".join(
                str(solution.values.get((r, c), "-")) if (r, c) in solution.values else "-"
                for c in range(puzzle.ncols)
            )
        )
    return "\n".join(lines)


def _entry(pid: str, entry: object, source: str | None) -> Puzzle:
    """One ``{"problem": ..., "solution": ...}`` entry of a puzzlekit JSON collection."""
    if not isinstance(entry, dict) or not isinstance(entry.get("problem"), str):
        raise FormatError('entry has no "problem" text', source=source, puzzle_id=pid)
    try:
        puzzle = parse_problem(entry["problem"], pid, source)
    except FormatError as exc:
        raise _inside_json(exc, "problem") from None
    meta = {k: v for k, v in entry.items() if k not in ("problem", "solution")}
    if isinstance(entry.get("solution"), str):
        try:
            meta["solution"] = parse_solution(entry["solution"], puzzle, source)
        except FormatError as exc:
            raise _inside_json(exc, "solution") from None
    return Puzzle(puzzle.id, puzzle.grid, meta)


def _check_numbers(data: object, source: str | None) -> None:
    """No number that is not one: Python's JSON reads ``NaN``, ``Infinity`` and ``1e999``
    (as infinity), which JSON itself does not have; and ``count``, when given, is a count."""
    if isinstance(data, dict) and "count" in data:
        count = data["count"]
        if type(count) is not int or count < 0:
            raise FormatError(f"count is {count!r}, not a number of puzzles", source=source)
    stack = [data]
    while stack:  # no recursion: load_json bounds the depth, this stays flat anyway
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise FormatError(f"{item!r} is not a finite number (NaN, Infinity)", source=source)
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
