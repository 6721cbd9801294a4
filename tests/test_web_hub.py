"""A socket's outbox: replies keep their order, a pushed view supersedes an older waiting one,
and a browser that lets replies pile up is let go once."""

from __future__ import annotations

import asyncio
from typing import Any

from kakurolab.web.hub import MAX_OUTBOX, Subscriber


def test_views_supersede_views_but_replies_keep_their_order() -> None:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        sub = Subscriber("g-1", "t" * 20, send)
        sub.offer({"type": "view", "view": 1})
        sub.offer({"type": "ack", "id": 1})
        sub.offer({"type": "view", "view": 2})
        sub.offer({"type": "error", "id": 2})
        sub.offer({"type": "view", "view": 3})
        pump = asyncio.get_running_loop().create_task(sub.pump())
        await asyncio.sleep(0.01)
        sub.closed = True
        sub.wake.set()
        await pump

    asyncio.run(run())
    assert sent == [
        {"type": "ack", "id": 1},
        {"type": "error", "id": 2},
        {"type": "view", "view": 3},
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
