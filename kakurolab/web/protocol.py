"""The messages a browser may send: one declared schema (msgspec), checked before anything
reaches the engine.

Every untrusted input (an HTTP body, a socket frame, a move inside either) is decoded by
``msgspec`` into one of the structs below, which say each field's type, range and pattern
and refuse unknown fields; the same structs write docs/web.md's message table
(:func:`message_table`; ``python -m kakurolab.web.protocol`` prints it, and a test checks
the page holds it).  A move that fits its struct is then read by the engine's own parser
(:meth:`kakurolab.game.Move.from_json`), so there is one move vocabulary; whether a move is
*allowed* (a white cell, your turn, a shield left) is the engine's decision.  Every refusal
here is a :class:`ProtocolError` (or the engine's ``MoveSyntaxError``), never anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

from ..errors import KakuroError, one_line
from ..game import RULES, Mode, Move, NewGame, Options
from ..model import Puzzle
from .limits import Limits

MAX_MESSAGE = 4096
"""Largest accepted message or request body in bytes (a move is under 100)."""

MAX_NAME = 24

TOKEN_PATTERN = r"^[A-Za-z0-9_\-]{16,128}$"
GAME_PATTERN = r"^[A-Za-z0-9_\-]{1,40}$"
TOKEN = re.compile(TOKEN_PATTERN[1:-1])
GAME_ID = re.compile(GAME_PATTERN[1:-1])
DIFFICULTIES = ("easy", "normal", "hard", "expert")
SIZES = ("8x8", "10x10", "12x12", "16x22", "20x20")
"""The sizes the page offers (static/index.html), the only ones the API makes: a bigger
one would take the generator minutes (the terminal's ``kakuro play new`` takes any)."""

Cell = Annotated[str, Meta(pattern=r"^r[1-9][0-9]{0,2}c[1-9][0-9]{0,2}$")]
Digit = Annotated[int, Meta(ge=1, le=9)]
Ident = Annotated[int, Meta(ge=0, le=2**53)]
Token = Annotated[str, Meta(pattern=TOKEN_PATTERN)]
GameId = Annotated[str, Meta(pattern=GAME_PATTERN)]
Name = Annotated[str, Meta(min_length=1, max_length=MAX_NAME, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$")]
Run = Annotated[str, Meta(pattern=r"^r[1-9][0-9]{0,2}c[1-9][0-9]{0,2} (across|down)$")]


class ProtocolError(KakuroError, ValueError):
    """A malformed message: refused with this one-line reason, nothing changes."""

    status = 400


class TooLarge(ProtocolError):
    """A body over :data:`MAX_MESSAGE` bytes, however it was sent (announced or chunked)."""

    status = 413


class TooSlow(ProtocolError):
    """A request body not all in within its deadline (:attr:`Limits.body_s`)."""

    status = 408


# --- the schema ---------------------------------------------------------------------------------

_STRICT: dict[str, Any] = {"forbid_unknown_fields": True, "tag_field": "kind",
                           "omit_defaults": True}  # fmt: skip


class Place(Struct, tag="place", **_STRICT):
    cell: Cell
    digit: Digit


class Erase(Struct, tag="erase", **_STRICT):
    cell: Cell


class Mark(Struct, tag="mark", **_STRICT):
    """Toggles a pencil mark."""

    cell: Cell
    digit: Digit


class Shield(Struct, tag="shield", **_STRICT):
    """``candidates`` needs ``run``, ``unlock`` needs ``cell`` (the engine checks which)."""

    shield: Literal["candidates", "hint", "clear", "unlock"]
    run: Run | None = None
    cell: Cell | None = None


class Submit(Struct, tag="submit", **_STRICT):
    pass


class Start(Struct, tag="start", **_STRICT):
    """The creator starts a waiting Arena."""


class Pause(Struct, tag="pause", **_STRICT):
    """Stops the clock of a solo game (the engine refuses it in a race or a duel)."""


class Resume(Struct, tag="resume", **_STRICT):
    """Starts a paused game's clock again."""


MoveBody = Place | Erase | Mark | Shield | Submit | Start | Pause | Resume
"""A player's move, tagged by ``kind``."""


class PlayerRequest(Struct, forbid_unknown_fields=True):
    """``POST /api/players``."""

    name: Name


class NewGameRequest(Struct, forbid_unknown_fields=True):
    """``POST /api/games``.  ``permanent`` defaults to on in an Arena (the rulebook's rule for
    competitive play), off elsewhere; ``date`` is a campaign's day (default today), or in
    practice a past calendar day to play from the archive."""

    mode: Literal["practice", "campaign", "arena", "battle"]
    size: Literal["8x8", "10x10", "12x12", "16x22", "20x20"] = "8x8"
    difficulty: Literal["easy", "normal", "hard", "expert"] = "easy"
    date: Annotated[str, Meta(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None
    permanent: bool | None = None
    time_limit_s: Annotated[int, Meta(ge=1, le=7 * 24 * 3600)] | None = None
    shields: Annotated[int, Meta(ge=0, le=20)] = Options().shields
    seed: Annotated[str, Meta(pattern=r"^[A-Za-z0-9:_\-]{1,40}$")] | None = None
    """Practice only: the same puzzle again (Restart)."""
    puzzle: Annotated[str, Meta(min_length=1, max_length=MAX_MESSAGE)] | None = None
    """Practice only: a puzz.link URL or the kakuro text of one puzzle."""
    computer: Literal["easy", "medium", "hard"] | None = None
    """Battle only: the computer takes the second seat at this strength (the game starts)."""


class MoveRequest(Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/moves``."""

    move: MoveBody


class HelloFrame(Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    """The first socket frame: the game to watch and the player's token."""

    game: GameId
    token: Token


class WatchFrame(Struct, tag="watch", tag_field="type", forbid_unknown_fields=True):
    """The first socket frame of a spectator: the Arena or Battle to watch, no token (the
    socket then only receives; a move on it is refused)."""

    game: GameId


class MoveFrame(Struct, tag="move", tag_field="type", forbid_unknown_fields=True):
    """A move; answered ``ack`` or ``error`` with the same ``id``."""

    id: Ident
    move: MoveBody


class ViewFrame(Struct, tag="view", tag_field="type", forbid_unknown_fields=True):
    """Ask for one's view; answered ``ack`` with the same ``id``."""

    id: Ident


Frame = HelloFrame | WatchFrame | MoveFrame | ViewFrame

MESSAGES: tuple[tuple[str, Any], ...] = (
    ("`POST /api/players` body", PlayerRequest),
    ("`POST /api/games` body", NewGameRequest),
    ("`POST /api/games/{id}/moves` body", MoveRequest),
    ("socket `hello`", HelloFrame),
    ("socket `watch`", WatchFrame),
    ("socket `move`", MoveFrame),
    ("socket `view`", ViewFrame),
    ("`MOVE` `place`", Place),
    ("`MOVE` `erase`", Erase),
    ("`MOVE` `mark`", Mark),
    ("`MOVE` `shield`", Shield),
    ("`MOVE` `submit`", Submit),
    ("`MOVE` `start`", Start),
    ("`MOVE` `pause`", Pause),
    ("`MOVE` `resume`", Resume),
)
"""Every message a client may send, in the order docs/web.md lists them."""


# --- decoding -----------------------------------------------------------------------------------

T = TypeVar("T")


def _check_size(raw: str | bytes) -> None:
    if len(raw) > MAX_MESSAGE:
        raise TooLarge(f"message too large ({len(raw)} bytes, at most {MAX_MESSAGE})")


def read(raw: str | bytes, kind: type[T] | Any) -> T:
    """``raw`` JSON as the schema type ``kind``, or a one-line ProtocolError."""
    _check_size(raw)
    try:
        found: T = msgspec.json.decode(raw, type=kind)
        return found
    except msgspec.ValidationError as exc:
        raise ProtocolError(one_line(exc)) from None
    except (msgspec.DecodeError, RecursionError):
        raise ProtocolError("malformed JSON") from None


def convert(data: object, kind: type[T] | Any) -> T:
    """An already decoded JSON value as the schema type ``kind``."""
    try:
        found: T = msgspec.convert(data, kind)
        return found
    except msgspec.ValidationError as exc:
        raise ProtocolError(one_line(exc)) from None
    except RecursionError:
        raise ProtocolError("message nested too deep") from None


def decode(raw: str | bytes) -> dict[str, Any]:
    """A JSON object from at most :data:`MAX_MESSAGE` bytes, or a ProtocolError."""
    return read(raw, dict[str, Any])


def engine_move(body: Struct) -> Move:
    """A schema move as the engine's record (the engine's parser: one vocabulary)."""
    return Move.from_json(msgspec.to_builtins(body))


def parse_move(data: object) -> Move:
    """A player's move given as decoded JSON."""
    return engine_move(convert(data, MoveBody))


def name(data: object) -> str:
    """A player name: 1 to MAX_NAME printable characters, trimmed."""
    request: PlayerRequest = convert(data, PlayerRequest)
    found = request.name.strip()
    if not found or not found.isprintable():
        raise ProtocolError(f"'name' must be 1 to {MAX_NAME} printable characters")
    return found


def parse_new_game(data: object, limits: Limits | None = None) -> NewGame:
    """The new-game form as the engine's record (the engine checks the combination); a
    practice game's ``seed`` or pasted ``puzzle`` is read here, by the formats layer, and a
    pasted grid bigger than the page's sizes (``limits``) is refused."""
    form: NewGameRequest = convert(data, NewGameRequest)
    mode = Mode(form.mode)
    rules = RULES[mode]
    permanent = rules.permanent_default if form.permanent is None else form.permanent
    options = Options(permanent=permanent, time_limit_s=form.time_limit_s, shields=form.shields)
    if (form.seed is not None or form.puzzle is not None) and not rules.chooses_puzzle:
        raise ProtocolError("'seed' and 'puzzle' choose a practice game's puzzle only")
    puzzle = _puzzle(form.puzzle, limits or Limits()) if form.puzzle is not None else None
    return NewGame(mode, size=form.size, difficulty=form.difficulty, seed=form.seed,
                   date=form.date, puzzle=puzzle, options=options,
                   computer=form.computer)  # fmt: skip


def _puzzle(text: str, limits: Limits) -> Puzzle:
    """One puzzle from a puzz.link URL or kakuro text (the formats layer reads it), within
    the size bounds of ``limits``: proving a bigger one unique could take minutes."""
    from ..formats import loads

    if not text.strip():
        raise ProtocolError("'puzzle' must be a puzz.link URL or the text of one puzzle")
    try:
        found = loads(text.strip())
    except (KakuroError, ValueError) as exc:
        raise ProtocolError(f"'puzzle': {str(exc).splitlines()[0][:200]}") from None
    if len(found) != 1:
        raise ProtocolError(f"'puzzle' must hold one puzzle, it holds {len(found)}")
    puzzle = found[0]
    side, area = limits.paste_side, limits.paste_area
    if max(puzzle.nrows, puzzle.ncols) > side or puzzle.nrows * puzzle.ncols > area:
        raise ProtocolError(f"'puzzle' is {puzzle.nrows}x{puzzle.ncols}; a pasted puzzle may "
                            f"have at most {side} rows or columns and {area} squares")  # fmt: skip
    return puzzle


@dataclass(frozen=True, slots=True)
class Hello:
    game: str
    token: str


@dataclass(frozen=True, slots=True)
class Watch:
    game: str


@dataclass(frozen=True, slots=True)
class MoveMessage:
    id: int
    move: Move


@dataclass(frozen=True, slots=True)
class ViewRequest:
    id: int


def parse_socket(raw: str | bytes) -> Hello | Watch | MoveMessage | ViewRequest:
    """One WebSocket frame from a browser."""
    frame: HelloFrame | WatchFrame | MoveFrame | ViewFrame = read(raw, Frame)
    if isinstance(frame, HelloFrame):
        return Hello(frame.game, frame.token)
    if isinstance(frame, WatchFrame):
        return Watch(frame.game)
    if isinstance(frame, MoveFrame):
        return MoveMessage(frame.id, engine_move(frame.move))
    return ViewRequest(frame.id)


# --- the docs' table ----------------------------------------------------------------------------


def _type_text(info: Any) -> str:
    """A field's type in a few words, from msgspec's own description of it."""
    from msgspec import inspect as mi

    if isinstance(info, mi.UnionType):
        parts = [_type_text(t) for t in info.types if not isinstance(t, mi.NoneType)]
        if any(isinstance(t, mi.StructType) for t in info.types):
            return "MOVE"
        nullable = any(isinstance(t, mi.NoneType) for t in info.types)
        return " or ".join(parts) + (" or null" if nullable else "")
    if isinstance(info, mi.LiteralType):
        return " | ".join(f'`"{v}"`' for v in info.values)
    if isinstance(info, mi.IntType):
        low, high = info.ge, info.le
        return f"integer {low}–{high}" if low is not None and high is not None else "integer"
    if isinstance(info, mi.StrType):
        bits = []
        if info.pattern is not None:
            bits.append(f"`{info.pattern}`")
        if info.max_length is not None:
            bits.append(f"{info.min_length or 0}–{info.max_length} characters")
        return "string " + ", ".join(bits) if bits else "string"
    if isinstance(info, mi.BoolType):
        return "true or false"
    return type(info).__name__.removesuffix("Type").lower()


def message_table() -> str:
    """docs/web.md's table of client messages, written from the schema above (through
    :mod:`kakurolab.tables`, which escapes the ``|`` of unions and patterns)."""
    from operator import itemgetter

    from msgspec import inspect as mi

    from ..tables import Column, Table

    rows: list[tuple[str, str, str, str]] = []
    for title, kind in MESSAGES:
        info = mi.type_info(kind)
        assert isinstance(info, mi.StructType)
        tag = f'`{info.tag_field}: "{info.tag}"`' if info.tag_field else ""
        if tag:
            rows.append((title, tag, "", ""))
        if not info.fields and not tag:
            rows.append((title, "", "", ""))
        for f in info.fields:
            default = "required" if f.required else (
                "mode's" if f.default is None and f.name == "permanent" else
                "none" if f.default is None else f"`{f.default}`")  # fmt: skip
            shown = title if not tag and f is info.fields[0] else ""
            rows.append((shown, f"`{f.name}`", _type_text(f.type), default))
    headers = ("message", "field", "type", "default")
    columns = [Column(h, itemgetter(i)) for i, h in enumerate(headers)]
    table = Table(columns, rows).markdown()
    return table.rstrip("\n") + "\n\nEvery message refuses fields it does not list."


# --- the OpenAPI document ----------------------------------------------------------------------

_ERROR = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"],
          "additionalProperties": False}  # fmt: skip
_OBJECT = {"type": "object"}
_REFUSALS = {
    "400": "a malformed request (one line says why)",
    "401": "no token, or one of a malformed form",
    "403": "a token that names nobody, or not a player of this game",
    "404": "no such game",
    "408": "the request body did not come in time",
    "409": "a well-formed move the rules refuse",
    "413": f"a body over {MAX_MESSAGE} bytes",
    "429": "over a per-player or per-address limit (see Retry-After)",
    "503": "the server is busy or stopping (see Retry-After)",
}
_ROUTES: tuple[tuple[str, str, str, Any, str, bool], ...] = (
    # (path, method, summary, request body, success status, needs a token)
    ("/api/health", "get", "Liveness and the puzzles in the making", None, "200", False),
    ("/api/combos", "get", "Every run length and sum with its digit sets", None, "200", False),
    ("/api/modes", "get", "Every game mode and its facts (the new-game form's list)", None,
     "200", False),
    ("/api/openapi.json", "get", "This document", None, "200", False),
    ("/api/players", "post", "A new player and its secret token", PlayerRequest, "201", False),
    ("/api/games", "post", "A new game; the answer is the creator's view", NewGameRequest,
     "201", True),
    ("/api/games", "get", "The player's games, wherever they were started", None, "200",
     True),
    ("/api/games/{game_id}", "get", "The player's view of a game", None, "200", True),
    ("/api/games/{game_id}/candidates", "get",
     "Every empty cell's candidates from the player's own entries (practice only)", None,
     "200", True),
    ("/api/games/{game_id}/join", "post", "Take a seat; the answer is the view", None,
     "200", True),
    ("/api/games/{game_id}/moves", "post", "Make a move; its outcome and the new view",
     MoveRequest, "200", True),
    ("/api/live", "get", "The running Arena and Battle games anyone may watch", None, "200",
     False),
    ("/api/watch/{game_id}", "get",
     "A running Arena or Battle as a spectator sees it (never a solution before the end)",
     None, "200", False),
    ("/api/replays/{game_id}", "get",
     "A finished game's move log replayed into frames (once its competition is over)", None,
     "200", False),
    ("/api/calendar", "get", "The player's calendar campaign", None, "200", True),
    ("/api/stats", "get", "The player's statistics (and Battle ratings)", None, "200", True),
    ("/api/ratings", "get", "A Battle rating table (?pool=battle|computer) and the player's",
     None, "200", True),
    ("/api/standings/calendar", "get",
     "A calendar day's leaderboard: finished results only, scores and times", None, "200",
     True),
    ("/api/standings/arena", "get", "The Arena leaderboard of a period", None, "200", True),
    ("/api/calendar/archive", "get", "The calendar archive's days of a month", None, "200",
     True),
)  # fmt: skip

_QUERIES: dict[str, tuple[str, dict[str, Any]]] = {
    "/api/standings/calendar": ("date", {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
    "/api/standings/arena": ("period", {"type": "string", "enum": ["today", "week", "all"]}),
    "/api/calendar/archive": ("month", {"type": "string", "pattern": r"^\d{4}-\d{2}$"}),
}
"""The optional query parameter of a route (kakurolab.web.boards)."""


def openapi(extra: tuple[tuple[str, str, str, Any, str, bool], ...] = ()) -> dict[str, Any]:
    """The HTTP API as an OpenAPI 3.1 document, its request bodies written from the structs
    above (served at ``/api/openapi.json``; the WebSocket's frames are in docs/web.md);
    ``extra`` routes are listed too (another module's, in the shape of ``_ROUTES``)."""
    routes = (*_ROUTES, *extra)
    bodies = [body for *_, body, _, _ in routes if body is not None]
    schemas, components = msgspec.json.schema_components(
        bodies, ref_template="#/components/schemas/{name}")
    by_type = dict(zip(bodies, schemas, strict=True))
    paths: dict[str, dict[str, Any]] = {}
    for path, method, summary, body, status, secured in routes:
        responses: dict[str, Any] = {
            status: {"description": "done", "content": {"application/json": {"schema": _OBJECT}}}
        }
        for code, why in _REFUSALS.items():
            if code in {"401", "403"} and not secured:
                continue
            if code in {"404", "409"} and not secured and "{game_id}" not in path:
                continue
            responses[code] = {"description": why,
                               "content": {"application/json": {"schema": _ERROR}}}  # fmt: skip
        operation: dict[str, Any] = {"summary": summary, "responses": responses,
                                     "operationId": f"{method}_{path}"}  # fmt: skip
        if body is not None:
            operation["requestBody"] = {
                "required": True, "content": {"application/json": {"schema": by_type[body]}}}
        parameters = []
        if path in _QUERIES:
            query, schema = _QUERIES[path]
            parameters.append({"name": query, "in": "query", "required": False,
                               "schema": schema})  # fmt: skip
        for n in re.findall(r"\{(\w+)\}", path):  # every path parameter: an id of a game's form
            parameters.append({"name": n, "in": "path", "required": True,
                               "schema": {"type": "string", "pattern": GAME_PATTERN}})
        if parameters:
            operation["parameters"] = parameters
        if secured:
            operation["security"] = [{"token": []}]
        paths.setdefault(path, {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kakuro Master", "version": "1",
                 "description": "The game engine's API; docs/web.md describes it."},
        "paths": paths,
        "components": {"schemas": components,
                       "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
    }  # fmt: skip


if __name__ == "__main__":
    print(message_table())
