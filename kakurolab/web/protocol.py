"""The messages a browser may send, checked for shape before anything reaches the engine.

This layer only decides whether a message is well formed (JSON, size, field types, known
kinds); whether a move is legal (a white cell, whose turn, a shield left) is the engine's
decision.  Every refusal is a :class:`ProtocolError` whose text goes back to the client as
an error reply; nothing here raises anything else on hostile input.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..errors import KakuroError

MAX_MESSAGE = 4096
"""Largest accepted message or request body in bytes (a move is under 100)."""

MAX_NAME = 24
MAX_GRID = 64
"""Cell coordinates beyond this are refused before the engine sees them."""

TOKEN = re.compile(r"[A-Za-z0-9_\-]{8,128}")
GAME_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
ROOM_CODE = re.compile(r"[A-Za-z0-9\-]{1,16}")
SIZE = re.compile(r"([1-9][0-9]?)x([1-9][0-9]?)")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

MODES = ("practice", "arena", "battle", "calendar")
DIFFICULTIES = ("easy", "normal", "hard", "expert")
SHIELD_USES = ("reveal", "hint", "clear", "unlock")
DIRECTIONS = ("a", "d")


class ProtocolError(KakuroError, ValueError):
    """A malformed message: refused with this one-line reason, nothing changes."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move as the browser states it; ``cell`` and ``clue`` are (row, column)."""

    kind: str
    cell: tuple[int, int] | None = None
    digit: int | None = None
    use: str | None = None
    clue: tuple[int, int] | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    mode: str
    name: str
    size: str | None = None
    difficulty: str | None = None
    players: int = 1
    permanent: bool = False
    date: str | None = None


@dataclass(frozen=True, slots=True)
class Join:
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Hello:
    game: str
    token: str


@dataclass(frozen=True, slots=True)
class MoveMessage:
    id: int
    move: Move


@dataclass(frozen=True, slots=True)
class ViewRequest:
    id: int


def decode(raw: str | bytes) -> dict[str, Any]:
    """A JSON object from at most :data:`MAX_MESSAGE` bytes, or a ProtocolError."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too large ({len(raw)} bytes, at most {MAX_MESSAGE})")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    return data


def _only(data: dict[str, Any], allowed: set[str], what: str) -> None:
    extra = set(data) - allowed
    if extra:
        names = ", ".join(sorted(repr(k)[:30] for k in extra)[:5])
        raise ProtocolError(f"{what}: unknown field(s) {names}")


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f"{key!r} must be an integer from {low} to {high}")
    return value


def _str(data: dict[str, Any], key: str, pattern: re.Pattern[str] | None = None) -> str:
    value = data.get(key)
    if not isinstance(value, str) or (pattern is not None and not pattern.fullmatch(value)):
        raise ProtocolError(f"{key!r} is missing or malformed")
    return value


def _choice(data: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in choices:
        raise ProtocolError(f"{key!r} must be one of {', '.join(choices)}")
    return str(value)


def _cell(data: dict[str, Any], key: str) -> tuple[int, int]:
    value = data.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v < MAX_GRID for v in value)
    ):
        raise ProtocolError(f"{key!r} must be [row, column] with small non-negative integers")
    return value[0], value[1]


def name(data: dict[str, Any]) -> str:
    """A player name: 1 to MAX_NAME printable characters."""
    value = data.get("name")
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_NAME:
        raise ProtocolError(f"'name' must be 1 to {MAX_NAME} characters")
    if not value.isprintable():
        raise ProtocolError("'name' must be printable")
    return value.strip()


def _place(data: dict[str, Any]) -> Move:
    _only(data, {"kind", "cell", "digit"}, "place")
    return Move("place", cell=_cell(data, "cell"), digit=_int(data, "digit", 1, 9))


def _erase(data: dict[str, Any]) -> Move:
    _only(data, {"kind", "cell"}, "erase")
    return Move("erase", cell=_cell(data, "cell"))


def _mark(data: dict[str, Any]) -> Move:
    _only(data, {"kind", "cell", "digit"}, "mark")
    return Move("mark", cell=_cell(data, "cell"), digit=_int(data, "digit", 1, 9))


def _shield(data: dict[str, Any]) -> Move:
    _only(data, {"kind", "use", "cell", "clue", "dir"}, "shield")
    use = _choice(data, "use", SHIELD_USES)
    if use == "reveal":
        return Move(
            "shield", use=use, clue=_cell(data, "clue"), direction=_choice(data, "dir", DIRECTIONS)
        )
    if use == "unlock":
        return Move("shield", use=use, cell=_cell(data, "cell"))
    return Move("shield", use=use)


def _submit(data: dict[str, Any]) -> Move:
    _only(data, {"kind"}, "submit")
    return Move("submit")


MOVES = {"place": _place, "erase": _erase, "mark": _mark, "shield": _shield, "submit": _submit}
"""Move parsers by kind: the one table of what a browser may ask for."""


def parse_move(data: object) -> Move:
    if not isinstance(data, dict):
        raise ProtocolError("'move' must be a JSON object")
    kind = data.get("kind")
    parser = MOVES.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise ProtocolError(f"'kind' must be one of {', '.join(MOVES)}")
    return parser(data)


def parse_new_game(data: dict[str, Any]) -> NewGame:
    _only(data, {"mode", "name", "size", "difficulty", "players", "permanent", "date"}, "new game")
    mode = _choice(data, "mode", MODES)
    size = _str(data, "size", SIZE) if data.get("size") is not None else None
    difficulty = (
        _choice(data, "difficulty", DIFFICULTIES) if data.get("difficulty") is not None else None
    )
    players = _int(data, "players", 1, 4) if "players" in data else 1
    permanent = data.get("permanent", False)
    if not isinstance(permanent, bool):
        raise ProtocolError("'permanent' must be true or false")
    date = _str(data, "date", DATE) if data.get("date") is not None else None
    return NewGame(mode, name(data), size, difficulty, players, permanent, date)


def parse_join(data: dict[str, Any]) -> Join:
    _only(data, {"code", "name"}, "join")
    return Join(_str(data, "code", ROOM_CODE).upper(), name(data))


def parse_socket(raw: str | bytes) -> Hello | MoveMessage | ViewRequest:
    """One WebSocket message from a browser."""
    data = decode(raw)
    kind = data.get("type")
    if kind == "hello":
        _only(data, {"type", "game", "token"}, "hello")
        return Hello(_str(data, "game", GAME_ID), _str(data, "token", TOKEN))
    if kind == "move":
        _only(data, {"type", "id", "move"}, "move message")
        return MoveMessage(_int(data, "id", 0, 2**53), parse_move(data.get("move")))
    if kind == "view":
        _only(data, {"type", "id"}, "view message")
        return ViewRequest(_int(data, "id", 0, 2**53))
    raise ProtocolError("'type' must be hello, move or view")
