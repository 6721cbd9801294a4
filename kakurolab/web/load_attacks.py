"""The load test's attackers: one client at every cap, and the paste flood (``--attack``,
``--pastes``; see :mod:`.loadtest`).

Its own module because the attackers run in a process of their own (:class:`Attacker`), apart
from the players they are meant to slow down, and are a job of their own: to find what holding
every limit of :mod:`.limits` costs the server, not to measure a player's round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from .load_players import bearer, client_at, ok, white_cells

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
            view = await ok(await http.post("/api/games", headers=bearer(group[0]), json=arena))
            for token in group[1:]:
                await ok(await http.post(f"/api/games/{view['game_id']}/join",
                                          headers=bearer(token)))  # fmt: skip
            start = {"move": {"kind": "start"}}  # (a full Arena has started by itself: 409)
            await http.post(f"/api/games/{view['game_id']}/moves", json=start,
                            headers=bearer(group[0]))  # fmt: skip
            seats += [(view["game_id"], t, white_cells(view)) for t in group]
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
            made = await ok(await http.post("/api/players", json={"name": "paster"}))
            while not done.is_set():
                began = time.perf_counter()
                request = http.post("/api/games", json=body, headers=bearer(made["token"]))
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
