"""Who may talk to the server: the ``Host`` it is asked for and the page a request comes from.

:class:`HostGuard` is ASGI middleware in front of every route and socket (and
:class:`TokenAuth` and :class:`BodyLimit` in front of the API):

* ``Host`` must name this server: a loopback name (``localhost``, ``127.0.0.1``, ``::1``), the
  address the connection reached (so a LAN address works when bound to ``0.0.0.0``), or a
  name of the allowed-host list (``kakuro play serve --allow-host NAME``, for a deployment
  behind a domain).  Anything else is answered 421 before any route runs: a DNS-rebinding
  page (``evil.example`` resolving to 127.0.0.1) reaches nothing.
* A browser tells where a request comes from (``Origin``, ``Sec-Fetch-Site``).  A request
  that changes something (any method but GET, HEAD, OPTIONS) or opens a WebSocket from a
  page of another origin (an ``Origin`` that is not the ``Host`` asked for, port included,
  nor a name of the allowed-host list: another local server on another port is another
  origin) is refused (403; a socket is closed before it is accepted), so a
  cross-site "simple" POST (``text/plain``, no preflight) creates no player and moves
  nothing.  A client that sends no ``Origin`` (the command line, scripts) is not a browser
  page and passes.

A body is refused by its announced length here (:class:`BodyLimit`) and cut while read, by
size and time, in the one reader every route uses (:func:`read_body`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from . import protocol
from .protocol import MAX_MESSAGE

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names every server answers to."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

OPEN_ROUTES = ("/api/players", "/api/health", "/api/combos", "/api/modes", "/api/openapi.json",
               "/api/live", "/api/signin")
"""API routes that need no token; every other ``/api/`` route does (but those under
:data:`OPEN_PREFIXES`)."""
OPEN_PREFIXES = ("/api/replays/", "/api/watch/")
"""A finished game's replay and a live game's spectator view are shared by their links: the
engine decides what, and when, they may show."""


def host_name(value: str) -> str:
    """The host of a ``Host`` header value or URL netloc, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class HostGuard:
    """The checks of the module doc; ``allowed`` adds host names to the loopback ones."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.named = frozenset(host_name(h) for h in allowed if h.strip())
        """The deployment's own names: a page served under one of them may call."""
        self.allowed = LOOPBACK | self.named

    def hosts(self, scope: Scope) -> frozenset[str]:
        """The allowed names for this connection: the list and the address it reached."""
        server = scope.get("server")
        if server and server[0]:
            return self.allowed | {host_name(str(server[0]))}
        return self.allowed

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, reason) when the request is refused, else None."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        allowed = self.hosts(scope)
        host = headers.get("host")
        if host is None or host_name(host) not in allowed:
            shown = "no Host" if host is None else f"Host {host[:60]!r}"
            return 421, f"{shown} is not served here (allowed: kakuro play serve --allow-host)"
        changes = scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS
        if not changes:
            return None
        origin = headers.get("origin")
        if origin is not None:
            netloc = urlsplit(origin).netloc.lower() if origin != "null" else ""
            same = netloc and netloc == host.strip().lower()
            if not same and (not netloc or host_name(netloc) not in self.named):
                return 403, f"requests from the page {origin[:60]!r} are not accepted"
        elif headers.get("sec-fetch-site") == "cross-site":
            return 403, "cross-site requests are not accepted"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, reason = refused
        if scope["type"] == "websocket":
            await receive()  # the connect message; closing now refuses the handshake (403)
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
            return
        await JSONResponse({"error": reason}, status)(scope, receive, send)


def headers_of(scope: Scope) -> dict[bytes, bytes]:
    """A request's raw headers by (lower-case) name."""
    return dict(scope.get("headers") or ())


class TokenAuth:
    """API routes need ``Authorization: Bearer TOKEN`` of a sane form; the token is put in
    ``scope["state"]["token"]``.  Whether it names a player of the game is the engine's answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] == "http"
            and path.startswith("/api/")
            and path not in OPEN_ROUTES
            and not path.startswith(OPEN_PREFIXES)
        ):
            header = headers_of(scope).get(b"authorization", b"")
            scheme, _, token = header.decode("latin-1").partition(" ")
            token = token.strip()
            if scheme.lower() != "bearer" or not protocol.TOKEN.fullmatch(token):
                response = JSONResponse({"error": "a player token is required"}, 401)
                await response(scope, receive, send)
                return
            scope.setdefault("state", {})["token"] = token
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse request bodies announced over :data:`MAX_MESSAGE` bytes before reading them
    (a body that lies about its length is cut while read, by :func:`read_body`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = headers_of(scope).get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
                response = JSONResponse({"error": f"body over {MAX_MESSAGE} bytes"}, 413)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_body(request: Request) -> bytes:
    """The request body, cut (413) as soon as it passes :data:`MAX_MESSAGE` bytes, however
    it is sent (a chunked body announces no length), and refused (408) when it is not all
    in within :attr:`Limits.body_s` seconds (a body that trickles in holds a connection).
    Every route with a body reads it here."""
    chunks, size = [], 0
    seconds = request.app.state.limits.body_s
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_MESSAGE:
                    raise protocol.TooLarge(f"body over {MAX_MESSAGE} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise protocol.TooSlow(f"the request body was not all in within {seconds:g} s") from None
    return b"".join(chunks)


def client_address(request: Request | WebSocket) -> str:
    """The client's address (the TCP peer; see :mod:`.limits` about proxies)."""
    return request.client.host if request.client is not None else "unknown"
