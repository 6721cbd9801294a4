"""The audit of a spectator's frame (tests/test_game_spectate.py, tests/test_web_spectate.py,
tests/test_browser_spectate.py): what a frame may carry while a game runs."""

from __future__ import annotations

import json
import re
from typing import Any

CELL = re.compile(r"r\d+c\d+")
HIDDEN = {"marks", "fixes", "sets", "cleared", "shield", "outcome", "move", "token"}
"""Keys that would carry a player's pencil marks, a shield's answer or a move's details."""


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def audit(frame: dict[str, Any], public: dict[str, int]) -> None:
    """One spectator frame against the public board at its version: no cell named outside the
    grid and the board, no pencil mark, shield answer or move detail, and while the game
    runs no solution and no standings."""
    assert frame["spectator"] is True and frame["you"] is None
    assert frame["board"] == public
    assert not keys(frame) & HIDDEN, keys(frame) & HIDDEN
    rest = {k: v for k, v in frame.items() if k not in ("puzzle", "board")}
    named = CELL.findall(json.dumps(rest))
    assert not named, f"cells named outside the board: {named}"
    if frame["phase"] != "finished":
        assert frame["solution"] is None and frame["standings"] == [] and frame["reasons"] == []
