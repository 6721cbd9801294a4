"""``serve``: run the web app with uvicorn on 127.0.0.1, print its URL, open a browser.

The browser opens the *sign-in link* of the terminal's player (``--player NAME``, default
``local``, or ``--token``): ``/login/CODE`` hands that player's token to the page, so a game
started with ``kakuro play new --player NAME`` opens in the browser as NAME's.

SIGTERM (or Ctrl+C) stops it within seconds: puzzle generation is killed first (its worker
processes; an unfinished new game is no acknowledged move), open requests get
:data:`GRACE_S` to finish, and every acknowledged move was committed before its answer.

Starlette and uvicorn come with the ``web`` extra; without it the command fails with one
line naming that extra (:func:`kakurolab.errors.require`), never an ImportError traceback.
"""

from __future__ import annotations

import json
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Any

from ..errors import KakuroError, require
from .limits import Limits
from .protocol import MAX_MESSAGE

GRACE_S = 2
"""Seconds open requests and sockets get to finish once the server is told to stop."""

WS_MAX_SIZE = 16 * MAX_MESSAGE
"""Frames above this are cut by the WebSocket layer itself; between MAX_MESSAGE and this the
app answers with an error reply and keeps the socket."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound socket with Nagle's algorithm off (accepted connections inherit it on Linux):
    a response written in two pieces then never waits for the client's delayed ACK (~40 ms
    per request on localhost otherwise)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    return sock


def uvicorn_config(app: Any, limits: Limits, **options: Any) -> Any:
    """uvicorn's settings for ``app`` under ``limits``: frame size, the request-head deadline
    (:mod:`.timeouts`), the kept-alive idle time, the grace period; ``options`` add to them
    (host, port, log level)."""
    import uvicorn

    from .timeouts import protocol

    return uvicorn.Config(
        app,
        ws_max_size=WS_MAX_SIZE,
        access_log=False,
        timeout_graceful_shutdown=GRACE_S,
        timeout_keep_alive=max(1, round(limits.keep_alive_s)),
        http=protocol(limits.header_s),
        **options,
    )


def _limits(given: Limits | list[str] | None) -> Limits:
    """``serve``'s limits: the defaults, changed by ``--limit NAME=VALUE`` settings."""
    if isinstance(given, Limits):
        return given
    return Limits().changed(given or [])


def check_installed() -> None:
    """Raise MissingExtraError (one line, naming the ``web`` extra) when a part is missing."""
    for module in ("starlette", "uvicorn", "websockets", "msgspec"):
        require(module, extra="web", feature="kakuro play serve")


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8421,
    store: Path | str | None = None,
    open_browser: bool = True,
    as_json: bool = False,
    log_level: str = "warning",
    player: str | None = "local",
    token: str | None = None,
    workers: int | None = None,
    allowed_hosts: tuple[str, ...] = (),
    limits: Limits | list[str] | None = None,
) -> None:
    """Serve until interrupted.  ``port=0`` picks a free port (the printed URL tells which).
    The browser signs in as ``token``'s player, else the local player ``player``.
    ``limits`` are a public server's (:class:`Limits`, or ``NAME=VALUE`` settings changing
    the defaults)."""
    check_installed()
    import uvicorn

    from .app import create_app
    from .gateway import EngineGames, Makers, default_workers

    makers = Makers(workers or default_workers(), limits=_limits(limits))
    games = EngineGames.open(store, makers=makers)
    try:
        if token is not None:
            player_id, name = games.service.whoami(token)
        else:
            cred = games.service.local_player(player or "local")
            player_id, name, token = cred.player_id, cred.name, cred.token
    except KakuroError:
        games.close()
        raise
    app = create_app(games, calendar_ahead=True, allowed_hosts=allowed_hosts)
    code = app.state.logins.add(name, player_id, token)
    config = uvicorn_config(app, games.makers.limits, host=host, port=port, log_level=log_level)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            games.stop()  # generations first: they are what could hold the exit up
            await super().shutdown(sockets)

    server = Server(config)
    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        games.close()
        raise KakuroError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None

    def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.05)
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{bound}/"
        login = f"{url}login/{code}"
        if as_json:
            print(json.dumps({"url": url, "address": host, "port": bound, "login": login,
                              "player": name}), flush=True)  # fmt: skip
        else:
            print(f"kakuro: serving on {url} (Ctrl+C to stop)", flush=True)
            print(f"kakuro: playing as {name}: {login}", flush=True)
        if open_browser:
            webbrowser.open(login)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        games.close()
