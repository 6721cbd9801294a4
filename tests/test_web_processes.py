"""Several ``kakuro play serve`` processes on one store (a SQLite file, or a database of a
real PostgreSQL cluster): a rival's move made on one server is pushed to a player on the
other; ``kill -9`` of a server mid-game loses no move it acknowledged, and its player
reconnects to the other server and plays on."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

from _game import Clock, service, tiny_chooser
from websockets.asyncio.client import ClientConnection, connect

from kakurolab.game import GameService, Mode, NewGame
from kakurolab.game.moves import PLAYER_KINDS
from kakurolab.web.load_players import start_servers


def _ws(url: str) -> str:
    return url.replace("http://", "ws://").rstrip("/") + "/ws"


async def _hello(url: str, game: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(_ws(url), max_size=None)
    await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
    first = json.loads(await ws.recv())
    assert first["type"] == "view", first
    return ws, first["view"]


async def _move(ws: ClientConnection, ident: int, move: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "move", "id": ident, "move": move}))
    while True:
        reply = json.loads(await ws.recv())
        if reply.get("id") == ident:
            assert reply["type"] == "ack", reply
            return dict(reply)


async def _pushed(ws: ClientConnection, version: int, within: float) -> float:
    """Seconds until a pushed view of at least ``version`` arrives."""
    began = time.perf_counter()
    async with asyncio.timeout(within):
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "view" and message["view"]["version"] >= version:
                return time.perf_counter() - began


def _marks(cells: list[str], count: int, first: int = 0) -> list[dict[str, Any]]:
    return [{"kind": "mark", "cell": cells[(first + k) % len(cells)], "digit": 1 + k % 9}
            for k in range(count)]  # fmt: skip


def test_a_killed_server_loses_no_acknowledged_move(store_at: Path | str) -> None:
    (one, url_one), (two, url_two) = start_servers(store_at, 2)
    try:
        asyncio.run(_play(store_at, one, url_one, url_two))
    finally:
        for proc in (one, two):
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)


async def _play(store_at: Path | str, one: Any, url_one: str, url_two: str) -> None:
    # the Arena is made by the engine on the same store (a third process, in effect), with
    # the 4x4 test puzzle: a server would spend seconds generating a fresh 8x8 one
    maker = service(store_at, Clock(time.time()), chooser=tiny_chooser)
    players = [maker.register(name) for name in ("ann", "bo")]
    made = [p.to_json() for p in players]
    view = maker.create(players[0].token, NewGame(Mode.ARENA, size="4x4")).to_json()
    game = view["game_id"]
    maker.join(game, players[1].token)
    maker.act(game, players[0].token, {"kind": "start"})
    maker.close()
    grid = view["puzzle"]["grid"]
    cells = [f"r{r + 1}c{c + 1}" for r, row in enumerate(grid) for c, sq in enumerate(row)
             if sq == "."]  # fmt: skip
    ws_ann, _ = await _hello(url_one, game, made[0]["token"])
    ws_bo, _ = await _hello(url_two, game, made[1]["token"])
    acked = {"ann": 1, "bo": 0}  # ann's start
    # a move on server one reaches bo on server two (a poll's period at most on SQLite)
    ack = await _move(ws_ann, 1, _marks(cells, 1)[0])
    acked["ann"] += 1
    assert await _pushed(ws_bo, ack["view"]["version"], within=3.0) < 3.0
    # ann moves on server one, which is killed between two moves
    for ident, move in enumerate(_marks(cells, 15, 1), start=2):
        await _move(ws_ann, ident, move)
        acked["ann"] += 1
    await ws_ann.send(json.dumps({"type": "move", "id": 99, "move": _marks(cells, 1, 5)[0]}))
    os.kill(one.pid, signal.SIGKILL)  # with a move in flight: kept or not, never half
    one.wait(10)
    assert one.returncode == -signal.SIGKILL
    # ann reconnects to server two and plays on; bo too
    ws_ann2, again = await _hello(url_two, game, made[0]["token"])
    assert again["phase"] == "active" and again["version"] >= acked["ann"]
    for ident, move in enumerate(_marks(cells, 10, 7), start=100):
        await _move(ws_ann2, ident, move)
        acked["ann"] += 1
    for ident, move in enumerate(_marks(cells, 10, 3), start=1):
        await _move(ws_bo, ident, move)
        acked["bo"] += 1
    for ws in (ws_ann, ws_ann2, ws_bo):
        await ws.close()
    svc = GameService(store_at)
    kinds = {k.value for k in PLAYER_KINDS}
    logged = {"ann": 0, "bo": 0}
    ids = {made[0]["player_id"]: "ann", made[1]["player_id"]: "bo"}
    for row in svc.store.log(game):
        if row.move["kind"] in kinds and row.player_id in ids:
            logged[ids[row.player_id]] += 1
    svc.close()
    assert logged["bo"] == acked["bo"]
    assert acked["ann"] <= logged["ann"] <= acked["ann"] + 1  # the one in flight at the kill
