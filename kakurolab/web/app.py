"""The Starlette application: static front end, a small JSON API and one WebSocket.

Routes (docs/web.md has the message formats):

* ``GET /`` and ``/static/NAME``: the front end (plain HTML/CSS/JS shipped as package data,
  served from memory); ``/sw.js`` and ``/manifest.webmanifest``, the installable app's
  service worker and manifest, from the root (a worker's scope is its own path);
* ``POST /api/players``: a player and the secret token every later call presents;
* ``POST /api/games``, ``POST /api/games/{id}/join``, ``GET /api/games/{id}``,
  ``POST /api/games/{id}/moves``, ``GET /api/games/{id}/candidates``, ``GET /api/calendar``:
  with ``Authorization: Bearer TOKEN`` (its form checked by :class:`TokenAuth`, its truth by
  the engine);
* ``GET /api/ratings``: a Battle rating table and the player's ratings (with a token);
* ``GET /api/combos``: the digit-set table of :mod:`kakurolab.combos`;
* ``GET /api/replays/{id}``: a finished game's replay, no token (shared by its link);
* ``POST /api/signin``, ``GET /api/devices``, ``POST /api/codes``, ``DELETE
  /api/devices/{id}``, ``DELETE /api/codes/{id}``: one player on several devices
  (:mod:`.accounts`);
* ``GET /api/live`` and ``GET /api/watch/{id}``: the running Arena and Battle games, and one
  as a spectator sees it, no token;
* ``GET /api/standings/calendar``, ``/api/standings/arena``, ``/api/calendar/archive``: the
  leaderboards and the archive (:mod:`.boards`), with a token;
* ``WS /ws``: ``hello`` with game and token first, then moves; acks, errors and pushed views
  (or ``watch`` with a game: a spectator's socket, pushed views only, every move refused).

Every engine call goes through :meth:`EngineGames.call` (one worker thread), so the event
loop keeps serving sockets while a move commits.  The computer opponents of Battles are tasks of
:class:`~kakurolab.web.bots.Bots`, started with their game and resumed at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import KakuroError
from ..game import RULES
from . import accounts, boards, protocol
from .assets import Logins, combos_table, static_files
from .bots import Bots
from .gateway import EngineGames, web_error
from .guard import BodyLimit, HostGuard, TokenAuth, client_address, read_body
from .hub import MAX_OUTBOX, SPECTATOR, Hub, SocketCounts, Subscriber
from .limits import Buckets, Limits
from .port import Busy, Refused, Unauthorized, WebError
from .protocol import ProtocolError

log = logging.getLogger(__name__)

T = TypeVar("T")

def _error(request: Request, exc: Exception) -> Response:
    """Every route's refusal: a user error (malformed message, unknown game, illegal move
    ...) becomes one JSON error reply with its status, registered once on the app."""
    if not isinstance(exc, KakuroError):  # pragma: no cover - registered for KakuroError only
        raise exc
    mapped = web_error(exc) if not isinstance(exc, ProtocolError) else exc
    status = mapped.status if isinstance(mapped, WebError | ProtocolError) else 400
    headers = {"Retry-After": str(mapped.retry_after)} if isinstance(mapped, Busy) else None
    return JSONResponse({"error": str(exc)}, status, headers=headers)


def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (an unknown path, a method a route does not take) in the
    API's one shape, ``{"error": ...}``, with their status and headers (``Allow``)."""
    if not isinstance(exc, HTTPException):  # pragma: no cover - registered for it only
        raise exc
    return JSONResponse({"error": str(exc.detail)}, exc.status_code, headers=exc.headers)


async def _body(request: Request) -> dict[str, Any]:
    return protocol.decode(await read_body(request))


def _game_id(request: Request) -> str:
    game_id = request.path_params["game_id"]
    if not protocol.GAME_ID.fullmatch(game_id):
        raise ProtocolError("malformed game id")
    return str(game_id)


def _games(request: Request | WebSocket) -> EngineGames:
    games: EngineGames = request.app.state.games
    return games


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _file(name: str, request: Request) -> Response:
    found = request.app.state.files.get(name)
    if found is None:
        return JSONResponse({"error": "not found"}, 404)
    body, media_type, etag = found
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


async def index(request: Request) -> Response:
    return _file("index.html", request)


async def worker(request: Request) -> Response:
    """The service worker, served from the root so that its scope is the whole page."""
    return _file("sw.js", request)


async def manifest(request: Request) -> Response:
    return _file("manifest.webmanifest", request)


async def static(request: Request) -> Response:
    return _file(request.path_params["name"], request)


async def login(request: Request) -> Response:
    game = request.query_params.get("game")
    if game is not None and not protocol.GAME_ID.fullmatch(game):
        game = None
    logins: Logins = request.app.state.logins
    return logins.page(request.path_params["code"], game)


async def health(request: Request) -> Response:
    makers = _games(request).makers
    lanes = {name: lane.queued for name, lane in makers.lanes.items()}
    return JSONResponse({"ok": True, "queued": makers.queued, "lanes": lanes})


async def combos_route(request: Request) -> Response:
    return JSONResponse({"combos": request.app.state.combos},
                        headers={"Cache-Control": "max-age=3600"})  # fmt: skip


async def openapi(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi, headers={"Cache-Control": "max-age=3600"})


async def modes(request: Request) -> Response:
    return JSONResponse({"modes": {m.value: r.facts() for m, r in RULES.items()}})


async def my_games(request: Request) -> Response:
    """The player's games, wherever they were started (the terminal's too)."""
    games = _games(request)
    found = await games.call(games.service.games, request.state.token)
    return JSONResponse({"games": found})


async def register(request: Request) -> Response:
    games = _games(request)
    name = protocol.name(await _body(request))
    request.app.state.registrations.take(client_address(request), "new players")
    player = await games.call(games.register, name)
    return JSONResponse(player, 201)


async def new_game(request: Request) -> Response:
    spec = protocol.parse_new_game(await _body(request), _games(request).makers.limits)
    work = _games(request).new_game(request.state.token, spec, client_address(request))
    view = await _unless_gone(request, work)
    if view is None:  # nobody to answer: the slot and the worker are free already
        return Response(status_code=499)
    if spec.computer is not None:  # the computer took the second seat: it plays from now
        await request.app.state.bots.seat(view["game_id"], spec.computer)
    return JSONResponse(view, 201)


async def _unless_gone(request: Request, work: Awaitable[T]) -> T | None:
    """``work``'s result, or None as soon as the client hangs up (``work`` is cancelled:
    a generation or a paste nobody waits for gives its slot back at once)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_hung_up(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for pending in (task, gone):
            if not pending.done():
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pending
    if task.cancelled():
        return None
    return task.result()


async def _hung_up(request: Request) -> None:
    """Return when the client of a request whose body is read has disconnected."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def join(request: Request) -> Response:
    games, game_id = _games(request), _game_id(request)
    view = await games.call(games.join, game_id, request.state.token)
    await _hub(request).publish(game_id)
    return JSONResponse(view)


async def view(request: Request) -> Response:
    games, game_id = _games(request), _game_id(request)
    return JSONResponse(await games.call(games.view, game_id, request.state.token))


async def candidates(request: Request) -> Response:
    games, game_id = _games(request), _game_id(request)
    return JSONResponse(await games.call(games.candidates, game_id, request.state.token))


async def replay(request: Request) -> Response:
    """A finished game's replay: no token (a shared link), so counted per address like a
    move, and made beside the engine thread (a long game's frames take a while)."""
    games, game_id = _games(request), _game_id(request)
    request.app.state.moves.take(client_address(request), "requests")
    return JSONResponse(await games.call_slow(games.replay, game_id))


async def watch(request: Request) -> Response:
    """A running Arena or Battle as a spectator sees it: no token (a shared link), so
    counted per address like a move."""
    games, game_id = _games(request), _game_id(request)
    request.app.state.moves.take(client_address(request), "requests")
    return JSONResponse(await games.call(games.spectate, game_id))


async def live(request: Request) -> Response:
    games = _games(request)
    request.app.state.moves.take(client_address(request), "requests")
    return JSONResponse({"games": await games.call(games.live)})


async def move(request: Request) -> Response:
    games, game_id = _games(request), _game_id(request)
    raw = await read_body(request)
    parsed = protocol.engine_move(protocol.read(raw, protocol.MoveRequest).move)
    request.app.state.moves.take(client_address(request), "moves")
    result = await games.call(games.act, game_id, request.state.token, parsed)
    await _hub(request).publish(game_id)
    return JSONResponse(result)


async def calendar(request: Request) -> Response:
    games = _games(request)
    return JSONResponse(await games.call(games.calendar, request.state.token))


async def stats(request: Request) -> Response:
    games = _games(request)
    found = await games.call(games.stats, request.state.token)
    ratings = await games.call(games.service.my_ratings, request.state.token)
    return JSONResponse({**found, "ratings": ratings})


async def ratings(request: Request) -> Response:
    """A pool's Battle rating table (``?pool=battle``, the default, or ``computer``) and the
    player's own ratings."""
    games, token = _games(request), request.state.token
    pool = request.query_params.get("pool", "battle")[:20]
    table = await games.call(games.service.ratings, pool)
    mine = await games.call(games.service.my_ratings, token)
    return JSONResponse({"pool": pool, "table": table, "you": mine})


async def socket(ws: WebSocket) -> None:
    await ws.accept()
    counts: SocketCounts = ws.app.state.sockets
    address = client_address(ws)
    refusal = counts.open(address)
    if refusal is not None:
        await ws.close(code=OVER_CAP, reason=refusal)
        return
    session = _Session(ws, ws.app.state, address)
    try:
        await session.serve()
    except WebSocketDisconnect:
        pass
    finally:
        session.close()
        counts.close(address)


OVER_CAP = 4429
"""The close code of a socket over a cap (:class:`SocketCounts`; the reason says which)."""


async def _ahead(games: EngineGames) -> None:
    """Every hour: today's and tomorrow's calendar puzzles made before anyone asks."""
    while True:
        try:
            await games.calendar_ahead()
        except KakuroError as exc:
            if games.makers.closed:
                return  # the server is stopping: nothing to say
            log.warning("making the calendar ahead: %s", exc)
        except Exception:  # never take the server down for it
            log.exception("making the calendar ahead failed")
        await asyncio.sleep(3600)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The calendar made ahead in the background (when asked), the hub closed at the end."""
    state = app.state
    loop = asyncio.get_running_loop()
    task = loop.create_task(_ahead(state.games)) if state.calendar_ahead else None
    try:  # the computers of unfinished games play on (a restarted server)
        await state.bots.resume()
    except Exception:  # never keep the server from starting for it
        log.exception("resuming the computer players failed")
    yield
    await state.bots.close()
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    await state.hub.close()


ROUTES = [
    Route("/", index),
    Route("/sw.js", worker),
    Route("/manifest.webmanifest", manifest),
    Route("/login/{code}", login),
    Route("/api/health", health),
    Route("/api/combos", combos_route),
    Route("/api/modes", modes),
    Route("/api/openapi.json", openapi),
    Route("/api/players", register, methods=["POST"]),
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games", my_games, methods=["GET"]),
    Route("/api/games/{game_id}", view),
    Route("/api/games/{game_id}/candidates", candidates),
    Route("/api/games/{game_id}/join", join, methods=["POST"]),
    Route("/api/games/{game_id}/moves", move, methods=["POST"]),
    Route("/api/replays/{game_id}", replay),
    Route("/api/live", live),
    Route("/api/watch/{game_id}", watch),
    Route("/api/calendar", calendar),
    Route("/api/stats", stats),
    Route("/api/ratings", ratings),
    *accounts.ROUTES,
    *boards.ROUTES,
    WebSocketRoute("/ws", socket),
    Route("/static/{name}", static),
]


def create_app(
    games: EngineGames, *, poll_s: float = 0.5, calendar_ahead: bool = False,
    allowed_hosts: tuple[str, ...] = (), bot_pace: float = 1.0,
) -> Starlette:  # fmt: skip
    """The ASGI app over ``games`` (the engine's service); ``calendar_ahead`` makes the
    calendar's puzzles ahead in the background (what ``serve`` does); ``allowed_hosts`` are
    host names served besides loopback and the bound address (:mod:`kakurolab.web.guard`);
    ``bot_pace`` multiplies the computer opponents' think times (:mod:`.bots`).
    The handlers above are module-level and find what they share in ``app.state``."""
    handlers = {KakuroError: _error, HTTPException: _http_error}
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.add_middleware(TokenAuth)
    app.add_middleware(BodyLimit)
    app.add_middleware(HostGuard, allowed=allowed_hosts)
    app.state.games = games
    app.state.hub = Hub(games, poll_s=poll_s)
    app.state.bots = Bots(games, app.state.hub, pace=bot_pace)
    app.state.logins = Logins()
    app.state.combos = combos_table()
    app.state.openapi = accounts.document()
    app.state.files = static_files()
    app.state.calendar_ahead = calendar_ahead
    app.state.limits = limits = games.makers.limits
    app.state.registrations = Buckets(limits.register)
    app.state.signins = Buckets(limits.register)
    app.state.moves = Buckets(limits.moves)
    app.state.sockets = SocketCounts(limits.sockets_per_address, limits.sockets_per_token,
                                     limits.sockets_per_game)  # fmt: skip
    return app


class _Session:
    """One socket: a ``hello`` proves the seat, then moves and view requests.

    A malformed message gets an error reply and the socket stays open; a wrong token or an
    unknown game in ``hello`` gets a ``fatal`` reply and the socket is closed.  The mover gets
    an ack with its new view; the other players of the game get theirs pushed (:class:`Hub`).
    A ``watch`` instead of ``hello`` makes a spectator's socket: the engine's spectator view,
    pushed like a player's, counted apart from players' sockets (spectators never crowd a
    player out of a game's cap), and every move refused before it reaches the engine.
    """

    def __init__(self, ws: WebSocket, state: Any, address: str) -> None:
        self.ws, self.address = ws, address
        self.games: EngineGames = state.games
        self.hub: Hub = state.hub
        self.counts: SocketCounts = state.sockets
        self.moves: Buckets = state.moves
        self.limits: Limits = state.limits
        self.seated: tuple[str, str] | None = None
        """The keys this socket is counted under (:meth:`SocketCounts.seat`), once seated."""
        self.sub: Subscriber | None = None
        self.pump: asyncio.Task[None] | None = None

    async def reply(self, message: dict[str, Any]) -> None:
        if self.sub is None:
            await self.ws.send_json(message)
        else:
            self.sub.offer(message)

    async def serve(self) -> None:
        seconds = self.limits.hello_s
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            try:
                async with asyncio.timeout_at(deadline if self.sub is None else None):
                    message = await self.ws.receive()
            except TimeoutError:
                await self.ws.close(code=4408, reason=f"say hello within {seconds:g} s")
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await self.pace()
            try:
                parsed = protocol.parse_socket(raw)
            except KakuroError as exc:
                await self.reply({"type": "error", "id": None, "error": str(exc)})
                continue
            if isinstance(parsed, protocol.Hello):
                if not await self.hello(parsed):
                    return
            elif isinstance(parsed, protocol.Watch):
                if not await self.watch(parsed):
                    return
            elif self.sub is None:
                await self.reply({"type": "error", "id": None, "error": "say hello first"})
            elif isinstance(parsed, protocol.ViewRequest):
                await self.answer(parsed.id, None)
            else:
                await self.act(parsed)

    async def pace(self) -> None:
        """Wait until the address's rate allows one more move, view or hello (see
        :attr:`Limits.moves`): frames are read no faster, so an attacker's flood waits in
        its own TCP buffers and costs the event loop nothing."""
        while (wait := self.moves.wait_s(self.address)) > 0:
            await asyncio.sleep(wait)

    async def hello(self, hello: protocol.Hello) -> bool:
        if self.sub is not None:
            await self.reply({"type": "error", "id": None, "error": "already joined"})
            return True
        try:
            first = await self.games.call(self.games.view, hello.game, hello.token)
        except KakuroError as exc:
            await self.ws.send_json({"type": "fatal", "error": str(exc)})
            await self.ws.close(code=4403 if isinstance(exc, Unauthorized) else 4404)
            return False
        return await self._subscribe(hello.game, hello.token, (hello.token, hello.game), first)

    async def watch(self, watch: protocol.Watch) -> bool:
        """A spectator's socket on a running Arena or Battle (see the class doc)."""
        if self.sub is not None:
            await self.reply({"type": "error", "id": None, "error": "already joined"})
            return True
        try:
            first = await self.games.call(self.games.spectate, watch.game)
        except KakuroError as exc:
            await self.ws.send_json({"type": "fatal", "error": str(exc)})
            await self.ws.close(code=4409 if isinstance(exc, Refused) else 4404)
            return False
        keys = (f"watch {self.address}", f"watch {watch.game}")
        return await self._subscribe(watch.game, SPECTATOR, keys, first)

    async def _subscribe(
        self, game: str, token: str, keys: tuple[str, str], first: dict[str, Any]
    ) -> bool:
        refusal = self.counts.seat(*keys)
        if refusal is not None:
            await self.ws.send_json({"type": "fatal", "error": refusal})
            await self.ws.close(code=OVER_CAP, reason=refusal)
            return False
        self.seated = keys
        self.sub = Subscriber(game, token, self.ws.send_json)
        self.sub.on_stuck = self._stuck
        self.sub.kick = self._kick
        self.hub.subscribe(self.sub, version=first["version"])
        self.pump = asyncio.get_running_loop().create_task(self._pump(self.sub))
        self.sub.offer({"type": "view", "view": first})
        self.hub.arm(game, first)
        return True

    async def act(self, message: protocol.MoveMessage) -> None:
        sub = self.sub
        assert sub is not None
        if sub.token == SPECTATOR:
            sub.offer({"type": "error", "id": message.id,
                       "error": "you are watching: only the game's players move"})  # fmt: skip
            return
        try:
            result = await self.games.call(self.games.act, sub.game_id, sub.token, message.move)
        except KakuroError as exc:
            sub.offer({"type": "error", "id": message.id, "error": str(exc)})
            return
        except Exception:  # an engine bug must not take the server down with it
            log.exception("move failed in game %s", sub.game_id)
            sub.offer({"type": "error", "id": message.id, "error": "internal error"})
            return
        sub.offer({"type": "ack", "id": message.id, **result})
        self.hub.arm(sub.game_id, result["view"])
        await self.hub.publish(sub.game_id, skip=sub)

    async def answer(self, ident: int, result: dict[str, Any] | None) -> None:
        sub = self.sub
        assert sub is not None
        try:
            if sub.token == SPECTATOR:
                view = await self.games.call(self.games.spectate, sub.game_id)
            else:
                view = await self.games.call(self.games.view, sub.game_id, sub.token)
        except KakuroError as exc:
            sub.offer({"type": "error", "id": ident, "error": str(exc)})
            return
        sub.offer({"type": "ack", "id": ident, "outcome": result, "view": view})

    def _stuck(self) -> None:
        """A browser that reads nothing while replies pile up is let go (code 1008)."""
        log.warning("closing a socket of game %s: %d replies unread", self.sub and
                    self.sub.game_id, MAX_OUTBOX)  # fmt: skip
        asyncio.get_running_loop().create_task(self.ws.close(code=1008))

    def _kick(self, reason: str) -> None:
        """The token was revoked: say so (``fatal``) and close the socket (code 4403)."""

        async def kick() -> None:
            with contextlib.suppress(Exception):
                await self.ws.send_json({"type": "fatal", "error": reason})
                await self.ws.close(code=4403, reason=reason[:120])

        asyncio.get_running_loop().create_task(kick())

    @staticmethod
    async def _pump(sub: Subscriber) -> None:
        with contextlib.suppress(Exception):
            await sub.pump()

    def close(self) -> None:
        if self.sub is not None:
            self.hub.unsubscribe(self.sub)
            if self.seated is not None:
                self.counts.unseat(*self.seated)
        if self.pump is not None:
            self.pump.cancel()
