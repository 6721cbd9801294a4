"""Puzzle data as the browser draws it: the grid's geometry and clues, never a solution.

The board JSON is ``{"id", "rows", "cols", "cells"}`` where each cell is ``"#"`` (a block),
``"."`` (a white cell) or ``[down, across]`` (a clue cell; ``null`` where a direction has no
clue).  Cryptic (letter) clues are not playable in the browser and are refused.
"""

from __future__ import annotations

from typing import Any

from ..model import Block, ClueCell, Puzzle, White
from .port import Refused


def board_json(puzzle: Puzzle) -> dict[str, Any]:
    if puzzle.is_cryptic:
        raise Refused(f"puzzle {puzzle.id} is cryptic: the browser plays standard puzzles")
    rows: list[list[Any]] = []
    for row in puzzle.grid:
        out: list[Any] = []
        for square in row:
            if isinstance(square, White):
                out.append(".")
            elif isinstance(square, ClueCell):
                down, across = square.down, square.across
                out.append(
                    [None if down is None else down.value, None if across is None else across.value]
                )
            else:
                assert isinstance(square, Block)
                out.append("#")
        rows.append(out)
    return {"id": puzzle.id, "rows": puzzle.nrows, "cols": puzzle.ncols, "cells": rows}
