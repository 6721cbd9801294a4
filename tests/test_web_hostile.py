"""Hostile input against a live server on the real engine: malformed and oversized messages,
moves out of turn, missing, malformed and wrong tokens, over HTTP and over the WebSocket.
Each is refused with an error reply, nothing in the game or the store changes, and the
server keeps serving (a valid move afterwards goes through and reaches the other player)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _web import auth, published_solution, view_puzzle, with_players
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kakurolab.web.gateway import EngineGames
from kakurolab.web.protocol import MAX_MESSAGE
from kakurolab.web.server import WS_MAX_SIZE


@pytest.fixture
def battle(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A running Battle Matrix between Ann (to move) and Bob, and Carl, who is not in it."""
    store = tmp_path / "games.sqlite"
    with with_players(store, ("Ann", "Bob", "Carl"), timeout=10) as (games, live, http, tokens):
        view = http.post("/api/games", json={"mode": "battle"}, headers=auth(tokens["Ann"]))
        game_id = view.json()["game_id"]
        joined = http.post(f"/api/games/{game_id}/join", headers=auth(tokens["Bob"]))
        assert joined.status_code == 200, joined.text
        yield {"games": games, "http": http, "ws": live.ws_url, "game": game_id, **tokens}


def snapshot(b: dict[str, Any]) -> tuple[Any, ...]:
    games: EngineGames = b["games"]
    views = [games.view(b["game"], b[who]) for who in ("Ann", "Bob")]
    for view in views:
        view.pop("elapsed_s")
    return games.version(b["game"]), games.player_moves(b["game"]), views


def a_move(b: dict[str, Any]) -> dict[str, Any]:
    """A right placement for the player to move (from the published solution)."""
    view = b["games"].view(b["game"], b["Ann"])
    puzzle = view_puzzle(view)
    solution = published_solution(view["puzzle"]["id"])
    cell = min(c for c in puzzle.whites if f"r{c[0] + 1}c{c[1] + 1}" not in view["board"])
    return {"kind": "place", "cell": f"r{cell[0] + 1}c{cell[1] + 1}", "digit": solution[cell]}


def test_hostile_http_is_refused_and_changes_nothing(battle: dict[str, Any]) -> None:
    b, http = battle, battle["http"]
    moves = f"/api/games/{b['game']}/moves"
    good = {"move": a_move(b)}
    before = snapshot(b)
    ann = auth(b["Ann"])

    def with_move(**fields: Any) -> dict[str, Any]:
        return {"json": {"move": {**good["move"], **fields}}, "headers": ann}

    cases: list[tuple[str, dict[str, Any], int]] = [
        ("malformed JSON", {"content": b'{"move": {', "headers": ann}, 400),
        ("not an object", {"content": b"[1, 2]", "headers": ann}, 400),
        ("oversized", {"content": b" " * (MAX_MESSAGE + 1), "headers": ann}, 413),
        # no Content-Length, sent in chunks: cut while read, the same status
        ("chunked", {"content": iter([b" " * MAX_MESSAGE, b" {}"]), "headers": ann}, 413),
        ("no token", {"json": good}, 401),
        ("malformed token", {"json": good, "headers": auth("x' OR 1=1 --")}, 401),
        ("wrong token", {"json": good, "headers": auth("A" * 32)}, 403),
        ("a stranger's token", {"json": good, "headers": auth(b["Carl"])}, 403),
        ("out of turn", {"json": good, "headers": auth(b["Bob"])}, 409),
        ("extra field", with_move(player="Bob"), 400),
        ("digit 0", with_move(digit=0), 400),
        (
            "players do not join",
            {"json": {"move": {"kind": "join", "name": "x"}}, "headers": ann},
            400,
        ),
        ("off the grid", with_move(cell="r99c99"), 409),
        ("unknown field", {"json": {**good, "player": "Bob"}, "headers": ann}, 400),
    ]
    for what, request, status in cases:
        response = http.post(moves, **request)
        assert response.status_code == status, (what, response.text)
        assert isinstance(response.json()["error"], str), what
    assert (
        http.post("/api/games/g-nothere/moves", json=good, headers=auth(b["Ann"])).status_code
        == 404
    )
    assert http.get(f"/api/games/{b['game']}", headers=auth(b["Carl"])).status_code == 403
    for size in ("40x40", "60x60", "7x7", "21x21"):  # only what the page offers
        big = http.post("/api/games", json={"mode": "practice", "size": size}, headers=ann)
        assert big.status_code == 400 and "size" in big.json()["error"], size
    assert (
        http.post("/api/games", json={"mode": "chess"}, headers=auth(b["Ann"])).status_code == 400
    )
    assert snapshot(b) == before
    # the server still serves, and the right player's move goes through
    health = http.get("/api/health").json()
    assert health["ok"] is True and health["queued"] == 0
    done = http.post(moves, json=good, headers=auth(b["Ann"]))
    assert done.status_code == 200, done.text
    assert done.json()["outcome"]["correct"] is True
    assert b["games"].view(b["game"], b["Bob"])["board"] == {
        good["move"]["cell"]: good["move"]["digit"]
    }


def recv(ws: Any) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=10))


def reply(ws: Any) -> dict[str, Any]:
    """The next answer to a message (pushed views, which may come at any time, skipped)."""
    message = recv(ws)
    while message["type"] == "view":
        message = recv(ws)
    return message


def test_hostile_socket_messages_are_refused_and_change_nothing(battle: dict[str, Any]) -> None:
    b = battle
    good = a_move(b)
    before = snapshot(b)
    with connect(b["ws"], max_size=None) as ws:
        ws.send(json.dumps({"type": "move", "id": 1, "move": good}))
        assert "hello" in reply(ws)["error"]  # nothing before the seat is proven
        ws.send(json.dumps({"type": "hello", "game": b["game"], "token": b["Bob"]}))
        assert recv(ws)["type"] == "view"
        hostile: list[str | bytes] = [
            "{",
            "[]",
            "null",
            b"\xff\xfe\x00",
            json.dumps({"type": "move", "id": 2, "move": good}),  # Bob, out of turn
            json.dumps({"type": "move", "id": 3, "move": {**good, "digit": 10}}),
            json.dumps({"type": "move", "id": 4, "move": {"kind": "expire"}}),
            json.dumps({"type": "move", "id": 5, "move": good, "token": b["Ann"]}),
            json.dumps({"type": "hello", "game": b["game"], "token": b["Ann"]}),  # no switching
            json.dumps({"type": "view", "id": 6, "pad": "x" * (MAX_MESSAGE + 10)}),
            "[" * 3000,
        ]
        for message in hostile:
            ws.send(message)
            answer = reply(ws)
            assert answer["type"] == "error", (message[:60], answer)
        rng = random.Random(7)
        for _ in range(300):  # random junk, never a well-formed message
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
            ws.send(junk if rng.random() < 0.5 else junk.decode("latin-1"))
            assert reply(ws)["type"] == "error"
        ws.send(json.dumps({"type": "view", "id": 7}))
        assert reply(ws)["type"] == "ack"  # still open, still answering
    with connect(b["ws"], max_size=None) as ws:  # a frame beyond the WebSocket limit
        ws.send(json.dumps({"type": "hello", "game": b["game"], "token": b["Bob"]}))
        assert recv(ws)["type"] == "view"
        ws.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed):
            while True:
                recv(ws)
    with connect(b["ws"], max_size=None) as ws:  # a wrong token ends the socket
        ws.send(json.dumps({"type": "hello", "game": b["game"], "token": "B" * 32}))
        assert recv(ws)["type"] == "fatal"
        with pytest.raises(ConnectionClosed):
            recv(ws)
    assert snapshot(b) == before
    # the server keeps serving: Ann's move goes through and is pushed to Bob's socket
    with connect(b["ws"]) as bob, connect(b["ws"]) as ann:
        bob.send(json.dumps({"type": "hello", "game": b["game"], "token": b["Bob"]}))
        ann.send(json.dumps({"type": "hello", "game": b["game"], "token": b["Ann"]}))
        assert recv(bob)["type"] == "view" and recv(ann)["type"] == "view"
        ann.send(json.dumps({"type": "move", "id": 1, "move": good}))
        ack = reply(ann)
        assert ack["type"] == "ack" and ack["outcome"]["correct"] is True
        pushed = recv(bob)
        assert pushed["type"] == "view"
        assert pushed["view"]["board"] == {good["cell"]: good["digit"]}
        assert pushed["view"]["turn"] == pushed["view"]["you"]
