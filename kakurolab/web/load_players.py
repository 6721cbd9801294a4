"""The load test's players, watchers and server processes (see :mod:`.loadtest`).

Its own module so that the load test's runner and its attackers (:mod:`.load_attacks`)
share one HTTP client kit (:func:`client_at`, :func:`ok`, :func:`bearer`,
:func:`white_cells`) without one importing the other: here servers are started, players
seated in Arena games and set moving over their WebSockets, and a watcher's pushed views
timed (:func:`push_lags`).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Player:
    """One seated player (or watcher) of the load test, and what its socket saw."""

    game_id: str
    token: str
    cells: list[str]
    acked: int = 0
    errors: list[str] = field(default_factory=list)
    rtts: list[float] = field(default_factory=list)
    address: str = "127.0.0.1"
    sent: dict[int, float] = field(default_factory=dict)
    """Version of each acknowledged move -> when it was sent (``perf_counter``)."""
    views: list[tuple[int, float]] = field(default_factory=list)
    """(version, arrival) of every view pushed to this player's socket."""
    server: int = 0
    """Which of the servers this player's socket is on."""
    watcher: bool = False
    """A seated player who only watches (``--watchers``): the push's lag is timed on it."""


@contextmanager
def running_servers(store: Path | str, count: int, workers: int = 1) -> Iterator[list[str]]:
    """``count`` servers on one store, started side by side; yields their URLs."""
    started = start_servers(store, count, workers)
    try:
        yield [url for _, url in started]
    finally:
        for proc, _ in started:
            proc.terminate()
        for proc, _ in started:
            proc.wait(10)


@contextmanager
def running_server(store: Path | str, workers: int = 1) -> Iterator[str]:
    """``kakuro play serve`` in a subprocess on a free port; yields its URL."""
    with running_servers(store, 1, workers) as (url,):
        yield url


def start_servers(
    store: Path | str, count: int, workers: int = 1
) -> list[tuple[subprocess.Popen[str], str]]:
    """``count`` ``kakuro play serve`` processes on ``store`` (a SQLite file or a PostgreSQL
    URL), each on a free port, launched together and returned once all listen: each
    process with its URL."""
    argv = [sys.executable, "-m", "kakurolab", "play", "serve", "--no-browser", "--port", "0",
            "--store", str(store), "--workers", str(workers)]  # fmt: skip
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(count)]
    started = []
    for proc in procs:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "http://" not in line:
            for other in procs:
                other.kill()
                other.wait(10)
            raise RuntimeError(f"a server did not start: {line!r}")
        started.append((proc, line[line.index("http://") :].split()[0]))
    return started


def white_cells(view: dict[str, Any]) -> list[str]:
    """The white cells of ``view``'s puzzle, as moves name them (``r1c2``)."""
    grid = view["puzzle"]["grid"]
    return [
        f"r{r + 1}c{c + 1}" for r, row in enumerate(grid) for c, sq in enumerate(row) if sq == "."
    ]


def bearer(token: str) -> dict[str, str]:
    """The headers that act as the player of ``token``."""
    return {"Authorization": f"Bearer {token}"}


async def ok(response: Any) -> dict[str, Any]:
    """``response``'s JSON body; an error answer stops the load test, naming the path."""
    if response.status_code >= 400:
        raise RuntimeError(f"{response.request.url.path}: {response.status_code} {response.text}")
    data: dict[str, Any] = response.json()
    return data


def address(n: int) -> str:
    """The ``n``-th client's own loopback address (127.0.0.2, 127.0.0.3 ...; Linux answers
    on all of 127/8): the server counts its limits per address, as for people apart."""
    return f"127.0.{n // 200}.{2 + n % 200}"


def client_at(url: str, n: int | str) -> Any:
    """An HTTP client of ``url`` from :func:`address` ``n`` (or the address ``n``)."""
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=n if isinstance(n, str) else address(n))
    return httpx.AsyncClient(base_url=url, timeout=300, transport=transport)


async def seat_players(
    url: str, games: int, per_game: int, size: str, watchers: int = 0
) -> list[Player]:
    """Players register, the first of each game creates an Arena room, the others join, the
    host starts it (the start is a player move too: it counts as acknowledged).  Each game's
    players come from an address of their own (:func:`address`)."""
    players: list[Player] = []
    for g in range(games):
        async with client_at(url, g) as http:
            players.extend(await _seat_game(http, g, per_game, size, watchers))
    return players


async def _seat_game(
    http: Any, g: int, per_game: int, size: str, watchers: int = 0
) -> list[Player]:
    tokens = []
    for k in range(per_game + watchers):
        made = await ok(await http.post("/api/players", json={"name": f"load{g}-{k}"}))
        tokens.append(made["token"])
    new = {"mode": "arena", "size": size, "permanent": False}
    view = await ok(await http.post("/api/games", json=new, headers=bearer(tokens[0])))
    game_id = view["game_id"]
    for token in tokens[1:]:
        joined = await ok(await http.post(f"/api/games/{game_id}/join", headers=bearer(token)))
    if len(tokens) == 1 or joined.get("phase") != "active":  # a full Arena starts itself
        started = {"move": {"kind": "start"}}
        await ok(await http.post(f"/api/games/{game_id}/moves", json=started,
                                  headers=bearer(tokens[0])))  # fmt: skip
    return [Player(game_id, token, white_cells(view), acked=1 if k == 0 else 0, address=address(g),
                   watcher=k >= per_game)
            for k, token in enumerate(tokens)]  # fmt: skip


async def play(ws_url: str, player: Player, until: float, think: float, seed: int) -> None:
    """Move until ``until``; a reader task takes every frame as it arrives (a pushed view's
    arrival is timed even while this player thinks)."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
    async with connect(ws_url, max_size=None, local_addr=(player.address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "game": player.game_id, "token": player.token}))
        reader = loop.create_task(_read(ws, player, waiting))
        next_id = 1
        cell: str | None = None
        try:
            while time.monotonic() < until:
                move: dict[str, Any]
                if cell is None:
                    cell = rng.choice(player.cells)
                    move = {"kind": "place", "cell": cell, "digit": rng.randint(1, 9)}
                else:
                    move = {"kind": "erase", "cell": cell}
                    cell = None
                answer = waiting[next_id] = loop.create_future()
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "id": next_id, "move": move}))
                reply = await answer
                if reply.get("type") == "ack":
                    player.rtts.append(time.perf_counter() - sent_at)
                    player.acked += 1
                    player.sent[int(reply["view"]["version"])] = sent_at
                next_id += 1
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


async def _read(ws: Any, player: Player, waiting: dict[int, asyncio.Future[dict[str, Any]]]
                ) -> None:  # fmt: skip
    """Every frame of ``player``'s socket: errors noted, pushed views timed, replies handed
    to the move waiting for them."""
    async for raw in ws:
        now = time.perf_counter()
        msg = json.loads(raw)
        kind, ident = msg.get("type"), msg.get("id")
        if kind == "error":
            player.errors.append(str(msg.get("error")))
        view = msg.get("view")
        if kind == "view" and isinstance(view, dict):
            player.views.append((int(view["version"]), now))
        answer = waiting.pop(ident, None) if isinstance(ident, int) else None
        if answer is not None and not answer.done():
            answer.set_result(msg)


def push_lags(players: list[Player]) -> list[float]:
    """Seconds from a move's sending to a watcher's socket receiving a view that holds it,
    for every acknowledged move of a player on another server than the watcher (on one
    server, every move).  The watcher only watches, so nothing but the push shows it the
    move; a view that superseded older ones in the outbox shows them all."""
    lags = []
    for watcher in (p for p in players if p.watcher):
        versions = [v for v, _ in watcher.views]
        movers = [p for p in players if not p.watcher and p.game_id == watcher.game_id]
        across = [p for p in movers if p.server != watcher.server]
        for mover in across or movers:
            for version, sent_at in mover.sent.items():
                k = bisect.bisect_left(versions, version)
                if k < len(versions):
                    lags.append(watcher.views[k][1] - sent_at)
    return sorted(lags)


async def watch(ws_url: str, player: Player, until: float) -> None:
    """A watcher's socket: every view pushed to it, timed, until ``until``."""
    from websockets.asyncio.client import connect

    async with connect(ws_url, max_size=None, local_addr=(player.address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "game": player.game_id, "token": player.token}))
        reader = asyncio.get_running_loop().create_task(_read(ws, player, {}))
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
