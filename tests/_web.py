"""Test support for the web layer: a real uvicorn server in a thread (port 0, so tests never
collide) and Debian's chromium driven by Playwright (its own browser download is not used)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from kakurolab.web.app import create_app
from kakurolab.web.port import Games
from kakurolab.web.server import WS_MAX_SIZE

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu"]


class LiveServer:
    def __init__(self, games: Games, *, poll_s: float = 0.2) -> None:
        self.games = games
        self.app = create_app(games, poll_s=poll_s)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.sock = sock
        config = uvicorn.Config(
            self.app, log_level="warning", ws_max_size=WS_MAX_SIZE, access_log=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            assert self.thread.is_alive(), "the web server thread died"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@contextmanager
def live_server(games: Games, **options: Any) -> Iterator[LiveServer]:
    server = LiveServer(games, **options).start()
    try:
        yield server
    finally:
        server.stop()


def launch(playwright: Any) -> Any:
    """Debian's chromium (installed by .ci/run when missing) under Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def ws_exchange(url: str, messages: list[Any], *, replies: int | None = None) -> list[dict]:
    """Send raw messages on one socket and collect the JSON replies (sync websockets client)."""
    from websockets.sync.client import connect

    out: list[dict] = []
    with connect(url, max_size=None) as ws:
        for message in messages:
            ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
        want = len(messages) if replies is None else replies
        while len(out) < want:
            out.append(json.loads(ws.recv(timeout=10)))
    return out
