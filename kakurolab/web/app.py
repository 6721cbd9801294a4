"""The Starlette application: static front end, a small JSON API and one WebSocket.

Routes (docs/web.md has the message formats):

* ``GET /`` and ``/static/*``: the front end (plain HTML/CSS/JS shipped as package data);
* ``POST /api/games``, ``POST /api/join``: a seat (game id, secret token, room code);
* ``GET /api/games/{id}``, ``POST /api/games/{id}/moves``: a view / a move, with
  ``Authorization: Bearer TOKEN`` (checked for form by :class:`TokenAuth`, for truth by the
  engine);
* ``GET /api/combos``, ``GET /api/calendar``: the digit-set table and the calendar week;
* ``WS /ws``: ``hello`` with game and token first, then moves; acks, errors and pushed views.

The engine is called on the event loop thread, one call at a time: its SQLite store then
sees a single writer and calls are short (a move is a transaction), so no lock is needed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import combos
from . import protocol
from .hub import Hub, Subscriber
from .port import Games, Unauthorized, WebError
from .protocol import MAX_MESSAGE, ProtocolError

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files(__package__).joinpath("static")))


def combos_table() -> dict[str, list[list[int]]]:
    """Every (length, sum) with its digit sets, from :mod:`kakurolab.combos`, keyed "len,sum"."""
    table: dict[str, list[list[int]]] = {}
    for length in range(1, combos.MAX_RUN + 1):
        for total in combos.feasible_sums(length):
            table[f"{length},{total}"] = [
                list(combos.digits_of(m)) for m in combos.combos(length, total)
            ]
    return table


class TokenAuth:
    """Per-game routes need ``Authorization: Bearer TOKEN`` of a sane form; the token is put
    in ``scope["state"]["token"]``.  Whether it is the right one is the engine's answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/games/"):
            header = dict(scope.get("headers") or ()).get(b"authorization", b"")
            scheme, _, token = header.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer" or not protocol.TOKEN.fullmatch(token.strip()):
                response = JSONResponse({"error": "a player token is required"}, 401)
                await response(scope, receive, send)
                return
            scope.setdefault("state", {})["token"] = token.strip()
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse request bodies over :data:`MAX_MESSAGE` bytes before they are read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = dict(scope.get("headers") or ()).get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
                response = JSONResponse({"error": f"body over {MAX_MESSAGE} bytes"}, 413)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _error(exc: Exception) -> JSONResponse:
    status = exc.status if isinstance(exc, WebError) else 400
    return JSONResponse({"error": str(exc)}, status)


async def _body(request: Request) -> dict[str, Any]:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise ProtocolError(f"message too large (over {MAX_MESSAGE} bytes)")
        chunks.append(chunk)
    return protocol.decode(b"".join(chunks))


def create_app(games: Games, *, poll_s: float = 0.5) -> Starlette:
    """The ASGI app over ``games`` (the engine adapter, or a stand-in in tests)."""
    hub = Hub(games, poll_s=poll_s)
    table = combos_table()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def combos_route(request: Request) -> Response:
        return JSONResponse({"combos": table}, headers={"Cache-Control": "max-age=3600"})

    async def new_game(request: Request) -> Response:
        try:
            spec = protocol.parse_new_game(await _body(request))
            seat = games.create(spec)
        except WebError as exc:
            return _error(exc)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(seat.to_json(), 201)

    async def join(request: Request) -> Response:
        try:
            spec = protocol.parse_join(await _body(request))
            seat = games.join(spec.code, spec.name)
        except (WebError, ProtocolError) as exc:
            return _error(exc)
        hub.publish(seat.game_id)
        return JSONResponse(seat.to_json(), 201)

    async def view(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            if not protocol.GAME_ID.fullmatch(game_id):
                raise ProtocolError("malformed game id")
            return JSONResponse(games.view(game_id, request.state.token))
        except (WebError, ProtocolError) as exc:
            return _error(exc)

    async def move(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        token = request.state.token
        try:
            if not protocol.GAME_ID.fullmatch(game_id):
                raise ProtocolError("malformed game id")
            data = await _body(request)
            protocol._only(data, {"move"}, "move request")
            result = games.act(game_id, token, protocol.parse_move(data.get("move")))
            state = games.view(game_id, token)
        except (WebError, ProtocolError) as exc:
            return _error(exc)
        hub.publish(game_id)
        return JSONResponse({"result": result, "view": state})

    async def calendar(request: Request) -> Response:
        try:
            name = protocol.name({"name": request.query_params.get("name", "")})
            return JSONResponse(games.calendar(name))
        except (WebError, ProtocolError) as exc:
            return _error(exc)

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        sub: Subscriber | None = None
        try:
            sub = await _socket_session(ws, games, hub)
        except WebSocketDisconnect:
            pass
        finally:
            if sub is not None:
                hub.unsubscribe(sub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await hub.close()

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/combos", combos_route),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/games/{game_id}", view),
        Route("/api/games/{game_id}/moves", move, methods=["POST"]),
        Route("/api/calendar", calendar),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(TokenAuth)
    app.add_middleware(BodyLimit)
    app.state.hub = hub
    app.state.games = games
    return app


async def _socket_session(ws: WebSocket, games: Games, hub: Hub) -> Subscriber | None:
    """Serve one socket: a ``hello`` proves the seat, then moves and view requests.

    A malformed message gets an error reply and the socket stays open; a wrong token in
    ``hello`` closes it (nothing to talk about).  The mover gets its ack with its new view;
    the other players of the game get theirs pushed.
    """
    sub: Subscriber | None = None
    pump = None

    async def reply(message: dict[str, Any]) -> None:
        if sub is None:
            await ws.send_json(message)
        else:
            sub.offer(message)

    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return sub
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                parsed = protocol.parse_socket(raw)
            except ProtocolError as exc:
                await reply({"type": "error", "id": None, "error": str(exc)})
                continue
            if isinstance(parsed, protocol.Hello):
                if sub is not None:
                    await reply({"type": "error", "id": None, "error": "already joined"})
                    continue
                try:
                    first = games.view(parsed.game, parsed.token)
                except WebError as exc:
                    await ws.send_json({"type": "fatal", "error": str(exc)})
                    await ws.close(code=4403 if isinstance(exc, Unauthorized) else 4404)
                    return None
                sub = Subscriber(parsed.game, parsed.token, ws.send_json)
                hub.subscribe(sub)
                pump = _start(sub)
                sub.offer({"type": "view", "view": first})
                continue
            if sub is None:
                await reply({"type": "error", "id": None, "error": "say hello first"})
                continue
            if isinstance(parsed, protocol.ViewRequest):
                sub.offer(
                    {"type": "ack", "id": parsed.id, "result": None, "view": _safe_view(games, sub)}
                )
                continue
            try:
                result = games.act(sub.game_id, sub.token, parsed.move)
            except WebError as exc:
                sub.offer({"type": "error", "id": parsed.id, "error": str(exc)})
                continue
            except Exception:  # an engine bug must not take the server down with it
                log.exception("move failed in game %s", sub.game_id)
                sub.offer({"type": "error", "id": parsed.id, "error": "internal error"})
                continue
            sub.offer(
                {"type": "ack", "id": parsed.id, "result": result, "view": _safe_view(games, sub)}
            )
            hub.publish(sub.game_id, skip=sub)
    finally:
        if pump is not None:
            pump.cancel()


def _safe_view(games: Games, sub: Subscriber) -> dict[str, Any] | None:
    try:
        return games.view(sub.game_id, sub.token)
    except WebError:
        return None


def _start(sub: Subscriber) -> Any:
    import asyncio

    async def run() -> None:
        with contextlib.suppress(Exception):
            await sub.pump()

    return asyncio.get_running_loop().create_task(run())
