"""A socket's outbox: replies keep their order, a pushed view supersedes an older waiting one,
and a browser that lets replies pile up is let go once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from kakurolab.web.hub import MAX_OUTBOX, Subscriber


def delivered(offers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a socket sends when ``offers`` are queued before its pump starts."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        sub = Subscriber("g-1", "t" * 20, send)
        for message in offers:
            sub.offer(message)
        pump = asyncio.get_running_loop().create_task(sub.pump())
        await asyncio.sleep(0.01)
        sub.closed = True
        sub.wake.set()
        await pump

    asyncio.run(run())
    return sent


def test_views_supersede_views_but_replies_keep_their_order() -> None:
    sent = delivered(
        [
            {"type": "view", "view": 1},
            {"type": "ack", "id": 1},
            {"type": "view", "view": 2},
            {"type": "error", "id": 2},
            {"type": "view", "view": 3},
        ]
    )
    assert sent == [
        {"type": "ack", "id": 1},
        {"type": "error", "id": 2},
        {"type": "view", "view": 3},
    ]


def test_a_socket_is_not_pushed_a_version_it_already_has() -> None:
    """The poller can see a move's new version before the move's publish records it; the
    mover, whose ack carried that view, must not get it again (its board would redraw under
    the pointer)."""
    sent = delivered(
        [
            {"type": "view", "view": {"version": 3}},
            {"type": "ack", "id": 1, "view": {"version": 4}},
            {"type": "view", "view": {"version": 4}},  # the poller's late copy
            {"type": "view", "view": {"version": 2}},  # older still
            {"type": "over", "view": {"version": 4}},  # never dropped
        ]
    )
    assert [(m["type"], m["view"]["version"]) for m in sent] == [
        ("view", 3),
        ("ack", 4),
        ("over", 4),
    ]


def test_a_stuck_browser_is_let_go_once() -> None:
    stuck: list[int] = []

    async def send(message: dict[str, Any]) -> None:  # never called: nobody pumps
        raise AssertionError(message)

    async def run() -> Subscriber:
        sub = Subscriber("g-1", "t" * 20, send, on_stuck=lambda: stuck.append(1))
        for i in range(MAX_OUTBOX + 10):
            sub.offer({"type": "ack", "id": i})
        return sub

    sub = asyncio.run(run())
    assert sub.closed and stuck == [1] and not sub.outbox


def test_time_runs_on_the_server_every_socket_is_told_within_a_second(tmp_path: Any) -> None:
    """An Arena race with a 2 s limit, nobody moving after the start: when the clock runs out
    the engine ends the game and both racers' sockets get ``over`` (reason ``time``, a
    finished view) within a second of the deadline, with no key pressed."""
    import json
    import threading
    import time

    import httpx
    from _web import engine_games, live_server
    from websockets.sync.client import connect

    games = engine_games(tmp_path / "games.sqlite")
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=10) as http:
        tokens = [http.post("/api/players", json={"name": n}).json()["token"] for n in "ab"]
        heads = [{"Authorization": f"Bearer {t}"} for t in tokens]
        new = {"mode": "arena", "time_limit_s": 2}
        game = http.post("/api/games", json=new, headers=heads[0]).json()["game_id"]
        assert http.post(f"/api/games/{game}/join", headers=heads[1]).status_code == 200
        got: list[tuple[float, dict[str, Any]]] = []

        def watch(token: str) -> None:
            with connect(live.ws_url) as ws:
                ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] == "over":
                        got.append((time.time(), message))
                        return

        watchers = [threading.Thread(target=watch, args=(t,)) for t in tokens]
        for w in watchers:
            w.start()
        time.sleep(0.3)  # both sockets said hello
        start = {"move": {"kind": "start"}}
        started = http.post(f"/api/games/{game}/moves", json=start, headers=heads[0]).json()
        deadline = started["view"]["started_at"] + 2
        for w in watchers:
            w.join(15)
        assert len(got) == 2, got
        for at, message in got:
            assert message["reason"] == "time" and message["view"]["phase"] == "finished"
            assert message["view"]["end_reason"] == "time"
            assert 0 <= at - deadline < 1.0, at - deadline
        after = http.get(f"/api/games/{game}", headers=heads[1]).json()
        assert after["phase"] == "finished"
    games.close()


class _ClockedGames:
    """An engine stand-in whose one game ends when its clock is settled; each call yields to
    the event loop first, as a call on the engine thread does."""

    def __init__(self) -> None:
        self.version_no = 1
        self.phase = "active"

    async def call(self, method: Any, *args: Any) -> Any:
        await asyncio.sleep(0)
        return method(*args)

    def tick(self, game_id: str) -> None:
        self.phase, self.version_no = "finished", self.version_no + 1

    def version(self, game_id: str) -> int:
        return self.version_no

    def listen(self, callback: Any) -> None:
        return None  # a store that cannot push: the hub polls

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        return {"phase": self.phase, "end_reason": "time", "remaining_s": 0.0}


def test_time_up_is_pushed_once_while_the_poller_spins() -> None:
    """The clock runs out with the poller checking versions on every turn of the loop: the
    socket gets the finished view once, as ``over``, and no second ``view`` of it."""
    from kakurolab.web.hub import Hub

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        games = _ClockedGames()
        hub = Hub(games, poll_s=0)  # type: ignore[arg-type]
        sub = Subscriber("g-1", "t" * 20, send)
        hub.subscribe(sub, version=games.version_no)
        pump = asyncio.get_running_loop().create_task(sub.pump())
        hub.arm("g-1", {"phase": "active", "remaining_s": 0.0})
        for _ in range(200):  # the timer's slack, then many poller turns
            await asyncio.sleep(0.001)
        hub.unsubscribe(sub)
        await pump
        await hub.close()

    asyncio.run(run())
    assert [m["type"] for m in sent] == ["over"], sent
    assert sent[0]["view"]["phase"] == "finished"


class _PushingGames(_ClockedGames):
    """A stand-in whose store pushes: ``listen`` keeps the callback, as PostgreSQL's
    listener thread calls it when another process commits."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: Any = None
        self.version_calls = 0
        self.stopped = False

    def version(self, game_id: str) -> int:
        self.version_calls += 1
        return self.version_no

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        return {"phase": self.phase, "remaining_s": None}  # no clock running

    def listen(self, callback: Any) -> Any:
        self.heard = callback

        def stop() -> None:
            self.stopped = True

        return stop


def test_another_process_move_is_pushed_when_heard_not_polled() -> None:
    """On a store that pushes, a move committed elsewhere reaches the socket as soon as the
    listener hears it (from its own thread), and the version poll drops to its slow safety
    period (no poll at all within the test's second, where SQLite's would run twice)."""
    import threading

    from kakurolab.web.hub import SAFETY_POLL_S, Hub

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    games = _PushingGames()

    async def run() -> tuple[float, int]:
        hub = Hub(games, poll_s=0.5)  # type: ignore[arg-type]
        sub = Subscriber("g-1", "t" * 20, send)
        hub.subscribe(sub, version=games.version_no)
        for _ in range(500):  # the listener starts off the event loop, then checks once
            if hub.listening and games.version_calls:
                break
            await asyncio.sleep(0.01)
        assert hub.listening and games.heard is not None
        calls = games.version_calls  # the one check once listening
        pump = asyncio.get_running_loop().create_task(sub.pump())
        games.version_no = 2  # another process moved
        began = time.perf_counter()
        threading.Thread(target=games.heard, args=("g-1", 2)).start()
        while not sent and time.perf_counter() - began < 5:
            await asyncio.sleep(0.001)
        took = time.perf_counter() - began
        games.heard("g-2", 9)  # a game nobody here watches: nothing
        games.heard("g-1", 2)  # old news: nothing
        await asyncio.sleep(1.0)
        hub.unsubscribe(sub)
        await pump
        await hub.close()
        return took, calls

    took, calls = asyncio.run(run())
    assert [(m["type"], m["view"].get("phase")) for m in sent] == [("view", "active")]
    assert took < SAFETY_POLL_S  # heard, not found by the poll
    assert games.version_calls == calls + 1  # the one publish; the poll never ran
    assert games.stopped
