"""PyCSP3 / XCSP3 Kakuro data: ``{"nRows", "nCols", "clues": [[{"x": across, "y": down}]]}``.

This is the layout of the Kakuro model in PyCSP3-models (``python Kakuro.py -data=FILE``):
``x`` is the sum of the run to the right, ``y`` the sum of the run below, ``-1`` marks a side
without a clue, and ``{"x": 0, "y": 0}`` is a white cell; a plain block is ``{"x": -1, "y": -1}``.
A file holds one such object (id ``"1"``) or a JSON list of them (ids ``"1"``, ``"2"``, ...).
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Sequence

from ..errors import FormatError
from ..model import BLOCK, WHITE, Clue, ClueCell, Puzzle, Square, White
from .format import Format, check_size, load_json, sniff_json

NO_CLUE = -1


class Pycsp3Format(Format):
    name = "pycsp3"
    doc = 'PyCSP3 JSON data {"nRows", "nCols", "clues": [[{"x", "y"}]]} (one object or a list)'
    suffixes = (".json",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        stripped = text.lstrip()
        if not stripped.startswith(("{", "[")):
            return False
        data = sniff_json(stripped)
        items = data if isinstance(data, list) else [data]
        return bool(items) and all(isinstance(d, dict) and "clues" in d for d in items)

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        data = load_json(text, source)
        if isinstance(data, dict):
            return [_puzzle(data, "1", source)]
        if isinstance(data, list) and data:
            return [_puzzle(item, str(i), source) for i, item in enumerate(data, start=1)]
        raise FormatError(
            'expected an object {"nRows", "nCols", "clues"} or a list of them', source=source
        )

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.is_cryptic:
            return "the pycsp3 format holds numeric clues only"
        for row in puzzle.grid:
            for sq in row:
                if isinstance(sq, ClueCell) and any(
                    clue is not None and clue.value == 0 for clue in (sq.down, sq.across)
                ):
                    return "the pycsp3 format cannot write a clue of 0 (0 marks white cells)"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        objects = [_object_text(puzzle) for puzzle in puzzles]
        if len(objects) == 1:
            return objects[0] + "\n"
        return "[\n" + ",\n".join(objects) + "\n]\n"


def _object_text(puzzle: Puzzle) -> str:
    """One data object, a grid row per line: as readable as the JSON allows."""
    rows = ["    [" + ", ".join(json.dumps(_cell(sq)) for sq in row) + "]" for row in puzzle.grid]
    return (
        "{\n"
        f'  "nRows": {puzzle.nrows},\n'
        f'  "nCols": {puzzle.ncols},\n'
        '  "clues": [\n' + ",\n".join(rows) + "\n  ]\n}"
    )


def _cell(square: Square) -> dict[str, int]:
    if isinstance(square, White):
        return {"x": 0, "y": 0}
    if isinstance(square, ClueCell):
        return {"x": _side(square.across), "y": _side(square.down)}
    return {"x": NO_CLUE, "y": NO_CLUE}


def _side(clue: Clue | None) -> int:
    if clue is None:
        return NO_CLUE
    assert clue.value is not None  # cannot_write refuses cryptic clues
    return clue.value


def _puzzle(data: object, pid: str, source: str | None) -> Puzzle:
    def fail(message: str) -> FormatError:
        return FormatError(message, source=source, puzzle_id=pid)

    if not isinstance(data, dict):
        raise fail('expected an object {"nRows", "nCols", "clues"}')
    missing = [key for key in ("nRows", "nCols", "clues") if key not in data]
    if missing:
        raise fail(f"missing {', '.join(map(repr, missing))}")
    nrows, ncols, clues = data["nRows"], data["nCols"], data["clues"]
    for key, value in (("nRows", nrows), ("nCols", ncols)):
        if not _is_int(value) or value <= 0:
            raise fail(f"{key} must be a positive integer, got {reprlib.repr(value)}")
    check_size(nrows, ncols, source=source, puzzle_id=pid)
    if not isinstance(clues, list) or len(clues) != nrows:
        got = len(clues) if isinstance(clues, list) else type(clues).__name__
        raise fail(f"clues must be a list of nRows={nrows} rows, got {got}")
    grid = []
    for r, row in enumerate(clues):
        if not isinstance(row, list) or len(row) != ncols:
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise fail(f"clues[{r}] must be a list of nCols={ncols} cells, got {got}")
        grid.append(tuple(_square(cell, f"clues[{r}][{c}]", fail) for c, cell in enumerate(row)))
    return Puzzle(pid, tuple(grid))


def _square(cell: object, where: str, fail: Callable[..., FormatError]) -> Square:
    if not isinstance(cell, dict) or not {"x", "y"} <= set(cell):
        raise fail(
            f'{where} must be an object {{"x": across, "y": down}}, got {reprlib.repr(cell)}'
        )
    x, y = cell["x"], cell["y"]
    if not (_is_int(x) and _is_int(y)) or x < NO_CLUE or y < NO_CLUE:
        raise fail(f"{where}: x and y must be integers, -1 or more, got {reprlib.repr(cell)}")
    if x == 0 and y == 0:
        return WHITE
    if x == 0 or y == 0:
        raise fail(
            f"{where}: 0 only appears in a white cell {{x: 0, y: 0}}, got {reprlib.repr(cell)}"
        )
    across = Clue(value=x) if x > 0 else None
    down = Clue(value=y) if y > 0 else None
    return BLOCK if across is None and down is None else ClueCell(down=down, across=across)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
