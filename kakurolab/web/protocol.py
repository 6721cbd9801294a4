"""The messages a browser may send, checked for shape before anything reaches the engine.

Moves travel in the engine's own JSON (``{"kind": "place", "cell": "r3c4", "digit": 7}``) and
are parsed by the engine's parser (:meth:`kakurolab.game.Move.from_json`), so there is one
move vocabulary; this module adds what only the web has: a size limit before JSON is parsed,
the envelope of socket messages, the new-game form and the token's form.  Whether a move is
*allowed* (a white cell, your turn, a shield left) is the engine's decision.  Every refusal
here is a :class:`ProtocolError` (or the engine's ``MoveSyntaxError``), never anything else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..errors import KakuroError
from ..game import Mode, Move, NewGame, Options
from ..model import Puzzle

MAX_MESSAGE = 4096
"""Largest accepted message or request body in bytes (a move is under 100)."""

MAX_NAME = 24

TOKEN = re.compile(r"[A-Za-z0-9_\-]{16,128}")
GAME_ID = re.compile(r"[A-Za-z0-9_\-]{1,40}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
SEED = re.compile(r"[A-Za-z0-9:_\-]{1,40}")
DIFFICULTIES = ("easy", "normal", "hard", "expert")
SIZES = ("8x8", "10x10", "12x12", "16x22", "20x20")
"""The sizes the page offers (static/index.html), the only ones the API makes: a bigger
one would take the generator minutes (the terminal's ``kakuro play new`` takes any)."""


class ProtocolError(KakuroError, ValueError):
    """A malformed message: refused with this one-line reason, nothing changes."""

    status = 400


class TooLarge(ProtocolError):
    """A body over :data:`MAX_MESSAGE` bytes, however it was sent (announced or chunked)."""

    status = 413


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
        raise TooLarge(f"message too large ({len(raw)} bytes, at most {MAX_MESSAGE})")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    return data


def only(data: dict[str, Any], allowed: set[str], what: str) -> None:
    """Refuse fields nobody asked for (a typo or a probe), naming a few of them."""
    extra = set(data) - allowed
    if extra:
        names = ", ".join(sorted(repr(k)[:30] for k in extra)[:5])
        raise ProtocolError(f"{what}: unknown field(s) {names}")


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f"{key!r} must be an integer from {low} to {high}")
    return value


def _str(data: dict[str, Any], key: str, pattern: re.Pattern[str]) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise ProtocolError(f"{key!r} is missing or malformed")
    return value


def name(data: dict[str, Any]) -> str:
    """A player name: 1 to MAX_NAME printable characters."""
    value = data.get("name")
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_NAME:
        raise ProtocolError(f"'name' must be 1 to {MAX_NAME} characters")
    if not value.isprintable():
        raise ProtocolError("'name' must be printable")
    return value.strip()


def parse_move(data: object) -> Move:
    """A player's move, by the engine's parser (one vocabulary for CLI, web and log)."""
    if not isinstance(data, dict):
        raise ProtocolError("'move' must be a JSON object")
    return Move.from_json(data)


def parse_new_game(data: dict[str, Any]) -> NewGame:
    """The new-game form: mode, size, difficulty, date (campaign), permanent placement, a
    sprint countdown and starting shields; for practice also a ``seed`` (the same puzzle
    again: Restart) or a ``puzzle`` (a puzz.link URL or the kakuro text of a grid) read by
    the formats layer.  The engine checks the combination."""
    fields = {"mode", "size", "difficulty", "date", "permanent", "time_limit_s", "shields",
              "seed", "puzzle"}  # fmt: skip
    only(data, fields, "new game")
    mode_text = data.get("mode")
    modes = {m.value: m for m in Mode}
    if mode_text not in modes:
        raise ProtocolError(f"'mode' must be one of {', '.join(modes)}")
    size = data.get("size") if data.get("size") is not None else "8x8"
    if size not in SIZES:
        raise ProtocolError(f"'size' must be one of {', '.join(SIZES)}")
    difficulty = data.get("difficulty", "easy")
    if difficulty not in DIFFICULTIES:
        raise ProtocolError(f"'difficulty' must be one of {', '.join(DIFFICULTIES)}")
    date = _str(data, "date", DATE) if data.get("date") is not None else None
    mode = modes[mode_text]
    permanent = data.get("permanent", mode is Mode.ARENA)  # the rulebook's competitive default
    if not isinstance(permanent, bool):
        raise ProtocolError("'permanent' must be true or false")
    limit = data.get("time_limit_s")
    if limit is not None:
        limit = _int(data, "time_limit_s", 1, 7 * 24 * 3600)
    shields = _int(data, "shields", 0, 20) if "shields" in data else Options().shields
    options = Options(permanent=permanent, time_limit_s=limit, shields=shields)
    seed = _str(data, "seed", SEED) if data.get("seed") is not None else None
    puzzle = _puzzle(data["puzzle"]) if data.get("puzzle") is not None else None
    if (seed is not None or puzzle is not None) and mode is not Mode.PRACTICE:
        raise ProtocolError("'seed' and 'puzzle' choose a practice game's puzzle only")
    return NewGame(
        mode, size=size, difficulty=difficulty, seed=seed, date=date, puzzle=puzzle,
        options=options,
    )


def _puzzle(value: object) -> Puzzle:
    """One puzzle from a puzz.link URL or kakuro text (the formats layer reads it)."""
    from ..formats import loads

    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("'puzzle' must be a puzz.link URL or the text of one puzzle")
    try:
        found = loads(value.strip())
    except (KakuroError, ValueError) as exc:
        raise ProtocolError(f"'puzzle': {str(exc).splitlines()[0][:200]}") from None
    if len(found) != 1:
        raise ProtocolError(f"'puzzle' must hold one puzzle, it holds {len(found)}")
    return found[0]


def parse_socket(raw: str | bytes) -> Hello | MoveMessage | ViewRequest:
    """One WebSocket message from a browser."""
    data = decode(raw)
    kind = data.get("type")
    if kind == "hello":
        only(data, {"type", "game", "token"}, "hello")
        return Hello(_str(data, "game", GAME_ID), _str(data, "token", TOKEN))
    if kind == "move":
        only(data, {"type", "id", "move"}, "move message")
        return MoveMessage(_int(data, "id", 0, 2**53), parse_move(data.get("move")))
    if kind == "view":
        only(data, {"type", "id"}, "view message")
        return ViewRequest(_int(data, "id", 0, 2**53))
    raise ProtocolError("'type' must be hello, move or view")
