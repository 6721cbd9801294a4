"""``serve``: run the web app with uvicorn on 127.0.0.1, print its URL, open a browser.

Starlette and uvicorn come with the ``web`` extra; without it the command fails with one
line naming that extra (:func:`kakurolab.errors.require`), never an ImportError traceback.
"""

from __future__ import annotations

import json
import socket
import threading
import webbrowser
from pathlib import Path

from ..errors import KakuroError, require
from .protocol import MAX_MESSAGE

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


def check_installed() -> None:
    """Raise MissingExtraError (one line, naming the ``web`` extra) when a part is missing."""
    for module in ("starlette", "uvicorn", "websockets"):
        require(module, extra="web", feature="kakuro play serve")


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8421,
    store: Path | str | None = None,
    open_browser: bool = True,
    as_json: bool = False,
    log_level: str = "warning",
) -> None:
    """Serve until interrupted.  ``port=0`` picks a free port (the printed URL tells which)."""
    check_installed()
    import uvicorn

    from .app import create_app
    from .gateway import EngineGames

    games = EngineGames.open(store)
    app = create_app(games)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_SIZE,
        access_log=False,
    )
    server = uvicorn.Server(config)
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
        if as_json:
            print(json.dumps({"url": url, "address": host, "port": bound}), flush=True)
        else:
            print(f"kakuro: serving on {url} (Ctrl+C to stop)", flush=True)
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        games.close()
