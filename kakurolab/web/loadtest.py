"""A bounded load test of ``kakuro play serve`` on localhost, and its figures.

``python -m kakurolab.web.loadtest --seconds 60`` starts the server as a subprocess on a
scratch store, seats ``--per-game`` players in each of ``--games`` Arena games over the HTTP
API, and lets every player make moves over its WebSocket for ``--seconds`` (a place, then an
erase of the same cell, so no board ever completes), pausing ``--think`` seconds (jittered)
between moves as a person would.  Then it stops the server and checks, in the store, that every
acknowledged move is in the game's log (no lost move) and that nothing else is.  It also
times the new-game page for a 16×22 puzzle: ``GET /``, the three static files, and ``POST
/api/games`` (whose answer is the first view).

The engine commits each move to SQLite's write-ahead log (``synchronous=NORMAL``, no fsync
per move, about 1 ms), and one store takes one writer at a time: that bounds one store's
throughput, so the pace matters (``--think``).

With ``--attack`` one client sits at every cap of the server's limits meanwhile; with
``--pastes N``, N players each keep one paste of the hardest in-bounds puzzle in flight
(:func:`paste_text`), until the new games have been timed too.

With ``--processes N`` N servers share the store (``--store``: a SQLite file or a
``postgresql://`` URL), each game's players on different servers, so a rival's move reaches
a player through the store: by the poll on SQLite, by ``LISTEN/NOTIFY`` on PostgreSQL.  The
push's lag (a move's sending to a watcher's socket on another server receiving its view,
``--watchers 1``) is timed too.

The figures (move round trip median / p90 / p95 / p99 / max, moves per second, errors, lost
and duplicated moves, the push's lag, new-game times, the attackers' answers) print as JSON;
``tests/test_web_load.py`` runs a short version in the default suite and the full one under
``-m bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Player:
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


@dataclass
class Figures:
    seconds: float
    processes: int
    games: int
    players: int
    moves: int
    moves_per_s: float
    errors: int
    lost: int
    extra: int
    rtt_median_ms: float
    rtt_p90_ms: float
    rtt_p95_ms: float
    rtt_p99_ms: float
    rtt_max_ms: float
    store: str
    """``sqlite`` or ``postgresql``."""
    pushes: int
    """Moves timed from their sending to a watcher's pushed view (:func:`push_lags`;
    ``--watchers``), across processes when there are several."""
    push_median_ms: float
    push_p95_ms: float
    push_max_ms: float
    new_size: str
    new_game_median_ms: float
    new_game_max_ms: float
    queued: int
    error_samples: list[str]
    attack: dict[str, int] = field(default_factory=dict)
    """With ``--attack``: the attacker's players, its sockets open and refused, its moves
    answered by the engine and those refused by the rate limit.  With ``--pastes``: the
    pasters, their pastes made (201), refused (4xx), rate-limited (429), turned away by a
    full lane (503), their total time and the addresses they used."""


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


def _whites(view: dict[str, Any]) -> list[str]:
    grid = view["puzzle"]["grid"]
    return [
        f"r{r + 1}c{c + 1}" for r, row in enumerate(grid) for c, sq in enumerate(row) if sq == "."
    ]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _ok(response: Any) -> dict[str, Any]:
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


async def _seat_players(
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
        made = await _ok(await http.post("/api/players", json={"name": f"load{g}-{k}"}))
        tokens.append(made["token"])
    new = {"mode": "arena", "size": size, "permanent": False}
    view = await _ok(await http.post("/api/games", json=new, headers=_auth(tokens[0])))
    game_id = view["game_id"]
    for token in tokens[1:]:
        joined = await _ok(await http.post(f"/api/games/{game_id}/join", headers=_auth(token)))
    if len(tokens) == 1 or joined.get("phase") != "active":  # a full Arena starts itself
        started = {"move": {"kind": "start"}}
        await _ok(await http.post(f"/api/games/{game_id}/moves", json=started,
                                  headers=_auth(tokens[0])))  # fmt: skip
    return [Player(game_id, token, _whites(view), acked=1 if k == 0 else 0, address=address(g),
                   watcher=k >= per_game)
            for k, token in enumerate(tokens)]  # fmt: skip


async def _play(ws_url: str, player: Player, until: float, think: float, seed: int) -> None:
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


async def _watch(ws_url: str, player: Player, until: float) -> None:
    """A watcher's socket: every view pushed to it, timed, until ``until``."""
    from websockets.asyncio.client import connect

    async with connect(ws_url, max_size=None, local_addr=(player.address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "game": player.game_id, "token": player.token}))
        reader = asyncio.get_running_loop().create_task(_read(ws, player, {}))
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def _new_game_times(client: Any, repeat: int, size: str = "16x22") -> list[float]:
    """The new-game page: the page, the new game (its first view comes back with it) and the
    static files the page loads, as a browser with a cold cache fetches them."""
    token = (await _ok(await client.post("/api/players", json={"name": "newgame"})))["token"]
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        for path in ("/", "/static/app.js", "/static/board.js", "/static/style.css"):
            (await client.get(path)).raise_for_status()
        new = {"mode": "practice", "size": size, "difficulty": "easy"}
        view = await _ok(await client.post("/api/games", json=new, headers=_auth(token)))
        shape = {view["puzzle"]["rows"], view["puzzle"]["cols"]}
        if shape != {int(n) for n in size.split("x")}:  # a variant may be turned: 22x16
            raise RuntimeError(f"the new game is not {size} but {shape}")
        times.append(time.perf_counter() - began)
    return times


async def _queue_generations(
    client: Any, url: str, count: int, first: int, stack: contextlib.AsyncExitStack
) -> list[asyncio.Task[Any]]:
    """``count`` expensive new games left in the making (two per player, each player from
    its own address from :func:`address` ``first`` on), once the server reports them queued."""
    tasks = []
    for k in range((count + 1) // 2):
        heavy = await stack.enter_async_context(client_at(url, first + k))
        token = (await _ok(await heavy.post("/api/players", json={"name": f"heavy{k}"})))["token"]
        for _ in range(min(2, count - 2 * k)):
            new = {"mode": "arena", "size": "20x20", "difficulty": "expert"}
            post = heavy.post("/api/games", json=new, headers=_auth(token))
            tasks.append(asyncio.get_running_loop().create_task(post))
    for _ in range(200):
        health = (await client.get("/api/health")).json()
        if health.get("queued", 0) >= count:
            break
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError(f"the server reports {health.get('queued')} queued, not {count}")
    return tasks


async def _run(
    urls: list[str], args: argparse.Namespace
) -> tuple[list[Player], list[float], float, dict[str, int]]:
    import httpx

    url = urls[0]
    async with contextlib.AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=300))
        players = await _seat_players(url, args.games, args.per_game, args.size, args.watchers)
        heavy = (await _queue_generations(client, url, args.queued, args.games, stack)
                 if args.queued else [])  # fmt: skip
        began = time.monotonic()
        until = began + args.seconds
        sockets = [u.replace("http://", "ws://").rstrip("/") + "/ws" for u in urls]
        seats = args.per_game + args.watchers
        for i, player in enumerate(players):  # a game's players (and watchers) on different
            player.server = (i // seats + i % seats) % len(sockets)  # servers, in turn
        attack: dict[str, int] = {}
        attacker = Attacker(url, sockets[0]) if args.attack else None
        pasters = Attacker(url, sockets[0], args.pastes) if args.pastes else None
        for one in (attacker, pasters):  # at every cap (or pasting) before anyone plays
            if one is not None:
                await asyncio.to_thread(one.start)
                began = time.monotonic()
                until = began + args.seconds
        await asyncio.gather(
            *(_watch(sockets[p.server], p, until + 1.0) if p.watcher
              else _play(sockets[p.server], p, until, args.think, i)
              for i, p in enumerate(players))
        )  # fmt: skip
        took = time.monotonic() - began
        if attacker is not None:
            attack = await asyncio.to_thread(attacker.stop)
        new_game = await _new_game_times(client, args.new_games, args.new_size)
        if pasters is not None:  # still pasting while the new games were timed
            attack.update(await asyncio.to_thread(pasters.stop))
        for task in heavy:
            if task.done():
                raise RuntimeError(f"a queued generation ended during the run: {task.result()}")
            task.cancel()
        await asyncio.gather(*heavy, return_exceptions=True)
    return players, new_game, took, attack


ATTACKER = "127.0.250.2"


class Attacker:
    """:func:`_attack` (or, with ``pastes``, :func:`_paste_attack`) in a process of its own,
    so its work on the client side does not
    delay the other players' clients (and inflate their round trips) in this one."""

    def __init__(self, url: str, ws_url: str, pastes: int = 0) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.stopping = context.Event()
        self.out: Any = context.Queue()
        args = (url, ws_url, self.stopping, self.out, pastes)
        self.process = context.Process(target=_attacker_main, daemon=True, args=args)

    def start(self) -> None:
        """Start it and wait until it holds every socket it may."""
        self.process.start()
        kind, report = self.out.get(timeout=600)
        if kind != "ready":
            raise RuntimeError(f"the attacker did not get going: {report}")

    def stop(self) -> dict[str, int]:
        self.stopping.set()
        kind, report = self.out.get(timeout=120)
        self.process.join(10)
        if kind != "done":
            raise RuntimeError(f"the attacker failed: {report}")
        return dict(report)


def _attacker_main(url: str, ws_url: str, stopping: Any, out: Any, pastes: int = 0) -> None:
    """The attacker's process, at the lowest CPU priority: a real attacker's client runs on
    its own machine, so on this one it should take no CPU the server could use (what is
    measured is what the attack costs the server)."""
    import os

    if hasattr(os, "nice"):
        os.nice(19)
    report: dict[str, int] = {}

    async def main() -> None:
        done = asyncio.Event()
        ready: Callable[[dict[str, int]], None] = lambda r: out.put(("ready", r))  # noqa: E731
        work = (_paste_attack(url, pastes, done, report, ready) if pastes
                else _attack(url, ws_url, done, report, ready))  # fmt: skip
        task = asyncio.get_running_loop().create_task(work)
        while not stopping.is_set() and not task.done():
            await asyncio.sleep(0.05)
        done.set()
        await task

    try:
        asyncio.run(main())
    except Exception as exc:  # reported to the load test, which says so
        out.put(("failed", {"error": str(exc)}))
        return
    out.put(("done", report))


async def _attack(
    url: str,
    ws_url: str,
    done: asyncio.Event,
    report: dict[str, int],
    ready: Callable[[dict[str, int]], None] | None = None,
) -> None:
    """One client (one address) at every cap: as many players as it may register, seated
    four to an Arena, each with as many sockets as it may open (and one more, refused), every
    player moving as fast as the server answers, every socket read, until ``done``.  Fills
    ``report``; ``ready`` is called once every socket is open."""
    seats = await _seat_attackers(url)
    report.update(players=len(seats), open=0, refused=0)
    async with contextlib.AsyncExitStack() as stack:
        movers, drains = await _open_sockets(stack, ws_url, seats, report)
        report.update(limited=0, moves=0, closed=0)
        if ready is not None:
            ready(dict(report))
        drained = [asyncio.get_running_loop().create_task(_drain(ws)) for ws in drains]
        await asyncio.gather(*(_flood(ws, seat, ws_url, done, report) for ws, seat in movers),
                             return_exceptions=True)  # fmt: skip
        for task in drained:
            task.cancel()
        await asyncio.gather(*drained, return_exceptions=True)


Seat = tuple[str, str, list[str]]
"""(game id, token, white cells) of one of the attacker's players."""


async def _seat_attackers(url: str) -> list[Seat]:
    """As many players as the attacker's address may register, four to a started Arena."""
    async with client_at(url, ATTACKER) as http:
        tokens = []
        for k in range(64):
            made = await http.post("/api/players", json={"name": f"attacker{k}"})
            if made.status_code != 201:
                break
            tokens.append(made.json()["token"])
        seats: list[Seat] = []
        for first in range(0, len(tokens) - 1, 4):
            group = tokens[first : first + 4]
            arena = {"mode": "arena", "permanent": False}
            view = await _ok(await http.post("/api/games", headers=_auth(group[0]), json=arena))
            for token in group[1:]:
                await _ok(await http.post(f"/api/games/{view['game_id']}/join",
                                          headers=_auth(token)))  # fmt: skip
            start = {"move": {"kind": "start"}}  # (a full Arena has started by itself: 409)
            await http.post(f"/api/games/{view['game_id']}/moves", json=start,
                            headers=_auth(group[0]))  # fmt: skip
            seats += [(view["game_id"], t, _whites(view)) for t in group]
    return seats


async def _open_sockets(
    stack: contextlib.AsyncExitStack, ws_url: str, seats: list[Seat], report: dict[str, int]
) -> tuple[list[tuple[Any, Seat]], list[Any]]:
    """Every socket the caps allow, each seat's first one to move on, the rest to read."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    movers: list[tuple[Any, Seat]] = []
    drains: list[Any] = []
    full = False  # the address's cap reached: every socket more is refused
    for seat in seats:
        for k in range(64 if not full else 0):
            ws = await stack.enter_async_context(
                connect(ws_url, max_size=None, local_addr=(ATTACKER, 0)))
            try:
                await ws.send(json.dumps({"type": "hello", "game": seat[0], "token": seat[1]}))
                reply = json.loads(await ws.recv())
            except ConnectionClosed:
                full, reply = True, {}
            if reply.get("type") != "view":
                report["refused"] += 1
                break
            report["open"] += 1
            if k:
                drains.append(ws)
            else:
                movers.append((ws, seat))
    return movers, drains


async def _drain(ws: Any) -> None:
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv()


async def _flood(
    ws: Any, seat: Seat, ws_url: str, done: asyncio.Event, report: dict[str, int]
) -> None:
    """Move as fast as answered until ``done``; a socket the server closes is opened again."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    game_id, token, cells = seat
    ident = 0
    while not done.is_set():
        try:
            ident += 1
            cell = cells[ident % len(cells)]
            body = ({"kind": "place", "cell": cell, "digit": 1 + ident % 9}
                    if ident % 2 else {"kind": "erase", "cell": cell})  # fmt: skip
            await ws.send(json.dumps({"type": "move", "id": ident, "move": body}))
            while (reply := json.loads(await ws.recv())).get("id") != ident:
                pass
            limited = "too many moves" in str(reply.get("error"))
            report["limited" if limited else "moves"] += 1
        except ConnectionClosed:
            report["closed"] += 1
            with contextlib.suppress(Exception):
                await ws.close()
            await asyncio.sleep(0.01)
            with contextlib.suppress(Exception):
                ws = await connect(ws_url, max_size=None, local_addr=(ATTACKER, 0))
                await ws.send(json.dumps({"type": "hello", "game": game_id, "token": token}))


PASTE_SET = ("16x22", "hard")
PASTE_ID = "g16x22-hard-s1"
"""The hardest paste found within the page's bounds: the shipped 16x22 hard puzzle whose
proof and grading take longest (0.26 s on the shared machine; the other 16x22s 0.07-0.18 s,
data/hard's 20x20 families 0.01-0.21 s: a loose grid's second solution is found at once)."""


def paste_text() -> str:
    """:data:`PASTE_ID` as a puzz.link URL, as the page pastes it (its kakuro text with
    the set's metadata is over the request's 4 KiB)."""
    from ..formats import dumps, load
    from ..generator.sets import DATA
    from ..model import Puzzle

    size, difficulty = PASTE_SET
    found = [p for p in load(DATA / f"standard-{size}-{difficulty}.kakuro") if p.id == PASTE_ID]
    return dumps([Puzzle(p.id, p.grid) for p in found[:1]], "pzpr").strip()


def paste_address(n: int) -> str:
    """The ``n``-th address the paste attackers use (127.1.0.1 ...), apart from the players'."""
    return f"127.1.{n // 250}.{1 + n % 250}"


async def _paste_attack(
    url: str,
    count: int,
    done: asyncio.Event,
    report: dict[str, int],
    ready: Callable[[dict[str, int]], None] | None = None,
) -> None:
    """``count`` players each keep one paste of :func:`paste_text` in flight (a new one as
    soon as one is answered) until ``done``.  A player whose address is over its rate of new
    games (429) goes on from a fresh address, as a botnet would: the paste lane stays as
    busy as its caps allow.  Fills ``report`` with the answers."""
    text = paste_text()
    report.update(pasters=count, pasted=0, paste_refused=0, paste_limited=0, paste_busy=0,
                  paste_ms_total=0, addresses=0)  # fmt: skip
    if ready is not None:
        ready(dict(report))
    await asyncio.gather(*(_paste_loop(url, text, done, report) for _ in range(count)))


async def _paste_loop(url: str, text: str, done: asyncio.Event, report: dict[str, int]) -> None:
    """One paste attacker: pastes from an address until it is rate-limited, then the next."""
    body = {"mode": "practice", "puzzle": text}
    while not done.is_set():
        report["addresses"] += 1
        async with client_at(url, paste_address(report["addresses"])) as http:
            made = await _ok(await http.post("/api/players", json={"name": "paster"}))
            while not done.is_set():
                began = time.perf_counter()
                request = http.post("/api/games", json=body, headers=_auth(made["token"]))
                # Until one paste is answered the run says nothing about pastes, so the first
                # is awaited past the end (a busy machine may take seconds: 20 s at most).
                answer = await (request if not report["pasted"] else _unless_done(request, done))
                if answer is None:
                    return
                status = answer.status_code
                if _tally(report, status, time.perf_counter() - began) == "paste_limited":
                    break
                if status == 503:
                    await asyncio.sleep(0.05)


async def _unless_done(request: Any, done: asyncio.Event) -> Any:
    """``request``'s answer, or None once ``done`` is set first (the request is cancelled:
    the client hangs up, and the server frees the lane)."""
    post = asyncio.ensure_future(request)
    stop = asyncio.ensure_future(done.wait())
    await asyncio.wait([post, stop], return_when=asyncio.FIRST_COMPLETED)
    for task in (post, stop):
        task.cancel()
    await asyncio.gather(post, stop, return_exceptions=True)
    return None if post.cancelled() else post.result()


def _tally(report: dict[str, int], status: int, took: float) -> str:
    """Count one paste's answer in ``report``; returns the key counted."""
    key = {201: "pasted", 429: "paste_limited", 503: "paste_busy"}.get(status, "paste_refused")
    report[key] += 1
    report["paste_ms_total"] += round(took * 1000)
    return key


def run(
    args: argparse.Namespace, url: str | None = None, store: Path | str | None = None
) -> Figures:
    """Run against ``url`` (a server on ``store``) or, by default, ``--processes`` fresh
    ``kakuro play serve`` subprocesses on ``--store`` (default: a scratch SQLite file)."""
    from ..game.store import is_url

    with tempfile.TemporaryDirectory() as tmp:
        if url is None or store is None:
            store = args.store or Path(tmp) / "load.sqlite"
            with running_servers(store, args.processes, args.workers) as urls:
                players, new_game, took, attack = asyncio.run(_run(urls, args))
        else:
            players, new_game, took, attack = asyncio.run(_run([url], args))
        lost, extra = check_log(store, players)
    rtts = sorted(t for p in players for t in p.rtts)
    lags = push_lags(players)
    errors = [e for p in players for e in p.errors]
    return Figures(
        seconds=round(took, 2),
        processes=args.processes if url is None else 1,
        games=args.games,
        players=sum(1 for p in players if not p.watcher),
        moves=len(rtts),
        moves_per_s=round(len(rtts) / took, 1) if took else 0.0,
        errors=len(errors),
        lost=lost,
        extra=extra,
        rtt_median_ms=_ms(rtts, 0.5),
        rtt_p90_ms=_ms(rtts, 0.90),
        rtt_p95_ms=_ms(rtts, 0.95),
        rtt_p99_ms=_ms(rtts, 0.99),
        rtt_max_ms=_ms(rtts, 1.0),
        store="postgresql" if is_url(store) else "sqlite",
        pushes=len(lags),
        push_median_ms=_ms(lags, 0.5),
        push_p95_ms=_ms(lags, 0.95),
        push_max_ms=_ms(lags, 1.0),
        new_size=args.new_size,
        new_game_median_ms=round(statistics.median(new_game) * 1000, 1),
        new_game_max_ms=round(max(new_game) * 1000, 1),
        queued=args.queued,
        error_samples=errors[:5],
        attack=attack,
    )


def _ms(ordered: list[float], share: float) -> float:
    """The ``share`` quantile of sorted seconds, in ms (the median interpolated)."""
    if not ordered:
        return 0.0
    if share == 0.5:
        return round(statistics.median(ordered) * 1000, 2)
    return round(ordered[int(share * (len(ordered) - 1))] * 1000, 2)


def check_log(store: Path | str, players: list[Player]) -> tuple[int, int]:
    """(lost, extra): acknowledged moves missing from each game's stored log, and logged
    player moves nobody was told about, read from the store by a separate connection."""
    from .gateway import EngineGames

    logged = EngineGames.open(store)
    lost = extra = 0
    try:
        for game_id in {p.game_id for p in players}:
            acked = sum(p.acked for p in players if p.game_id == game_id)
            in_log = logged.player_moves(game_id)
            lost += max(0, acked - in_log)
            extra += max(0, in_log - acked)
    finally:
        logged.close()
    return lost, extra


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m kakurolab.web.loadtest", description=__doc__)
    p.add_argument("--seconds", type=float, default=60.0, help="how long players move (60)")
    p.add_argument("--games", type=int, default=25, help="Arena games (25)")
    p.add_argument("--per-game", type=int, default=2, help="players per game (2)")
    p.add_argument("--watchers", type=int, default=0,
                   help="seated players per game who only watch, each on another server than "
                   "the movers where there is one: the push's lag is timed on them (0)")
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean pause between a player's moves (1 s: faster than people place digits)",
    )
    p.add_argument("--size", default="8x8", help="puzzle size of the Arena games (8x8)")
    p.add_argument("--new-games", type=int, default=20, help="new-game pages timed (20)")
    p.add_argument("--new-size", default="16x22", help="their size (16x22)")
    p.add_argument("--queued", type=int, default=0, metavar="N",
                   help="expensive new games (20x20 expert races) kept in the making (0)")
    p.add_argument("--attack", action="store_true",
                   help="one client at every cap of the server's limits meanwhile (sockets, "
                   "players, moves as fast as answered)")
    p.add_argument("--pastes", type=int, default=0, metavar="N",
                   help="N players meanwhile each keep one paste of the hardest in-bounds "
                   "puzzle in flight, re-pasting when answered, until the new games are "
                   "timed (0)")
    p.add_argument("--workers", type=int, default=1, help="each server's generating processes")
    p.add_argument("--processes", type=int, default=1, help="servers on the one store (1)")
    p.add_argument("--store", metavar="PATH|URL",
                   help="the store the servers share: a SQLite file or a postgresql:// URL "
                   "(an existing database; default: a scratch SQLite file)")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    figures = run(parser().parse_args(argv))
    print(json.dumps(asdict(figures), indent=1))
    ok = not figures.errors and not figures.lost and not figures.extra
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
