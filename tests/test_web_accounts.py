"""One player on several devices over HTTP and the WebSocket (issue 50, "Across devices"):
a code made on one device is redeemed on another for a new token of the same player, who
sees the same games and continues them; attacks (another player's code or device, reuse,
expiry, a revoked token, guessing, a cross-site page) are refused with one line and never a
500; a revoked device's open socket is told and closed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _game import Clock
from _web import ONE_ADDRESS, auth, live_server, served, shipped_chooser, with_players
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kakurolab.game import GameService
from kakurolab.game.accounts import CODE_LIFETIME_S
from kakurolab.web.gateway import EngineGames, Makers
from kakurolab.web.limits import Limits, Rate


@pytest.fixture
def two(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """Ann (with a practice game and one move in it) and Bob, on a live server."""
    store = tmp_path / "games.sqlite"
    with with_players(store, ("Ann", "Bob"), timeout=10) as (games, live, http, tokens):
        made = http.post("/api/games", json={"mode": "practice"}, headers=auth(tokens["Ann"]))
        assert made.status_code == 201, made.text
        yield {"games": games, "http": http, "live": live, "game": made.json()["game_id"],
               **tokens}  # fmt: skip


def _code(http: httpx.Client, token: str) -> dict[str, Any]:
    made = http.post("/api/codes", headers=auth(token))
    assert made.status_code == 201, made.text
    return dict(made.json())


def _redeem(http: httpx.Client, code: str, device: str = "phone") -> httpx.Response:
    return http.post("/api/signin", json={"code": code, "device": device})


def _a_place(games: EngineGames, game: str, token: str) -> dict[str, Any]:
    view = games.view(game, token)
    cell = next(
        f"r{r + 1}c{c + 1}" for r, row in enumerate(view["puzzle"]["grid"])
        for c, square in enumerate(row)
        if square == "." and f"r{r + 1}c{c + 1}" not in view["board"]
    )  # fmt: skip
    return {"kind": "place", "cell": cell, "digit": 1}


def test_a_second_device_sees_and_continues_the_games(two: dict[str, Any]) -> None:
    http, game = two["http"], two["game"]
    code = _code(http, two["Ann"])
    assert code["link"] == f"/#/signin/{code['code']}"
    signed = _redeem(http, code["code"])
    assert signed.status_code == 201, signed.text
    phone = signed.json()
    assert phone["name"] == "Ann" and phone["token"] != two["Ann"]
    mine = http.get("/api/games", headers=auth(phone["token"])).json()["games"]
    assert [g["game_id"] for g in mine] == [game]
    moved = http.post(f"/api/games/{game}/moves", headers=auth(phone["token"]),
                      json={"move": _a_place(two["games"], game, phone["token"])})  # fmt: skip
    assert moved.status_code == 200, moved.text
    first = http.get(f"/api/games/{game}", headers=auth(two["Ann"])).json()
    assert first["board"] == moved.json()["view"]["board"] != {}
    listed = http.get("/api/devices", headers=auth(phone["token"])).json()
    assert sorted((d["label"], d["current"]) for d in listed["devices"]) == [
        ("first device", False), ("phone", True)]  # fmt: skip
    assert listed["codes"] == []  # used up


def test_a_revoked_device_is_refused_at_once(two: dict[str, Any]) -> None:
    http, game = two["http"], two["game"]
    phone = _redeem(http, _code(http, two["Ann"])["code"]).json()
    gone = http.delete(f"/api/devices/{phone['device_id']}", headers=auth(two["Ann"]))
    assert gone.status_code == 200, gone.text
    for method, path in (("GET", "/api/games"), ("GET", f"/api/games/{game}"),
                         ("GET", "/api/devices"), ("POST", "/api/codes")):  # fmt: skip
        refused = http.request(method, path, headers=auth(phone["token"]))
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json() == {"error": "unknown player token"}
    assert http.get("/api/games", headers=auth(two["Ann"])).status_code == 200


def test_attacks_on_codes_and_devices_are_refused(two: dict[str, Any]) -> None:
    http = two["http"]
    anns = _code(http, two["Ann"])
    bob_devices = http.get("/api/devices", headers=auth(two["Bob"])).json()["devices"]
    ann_devices = http.get("/api/devices", headers=auth(two["Ann"])).json()["devices"]
    cases = [
        # Bob revokes Ann's code or device: as if it did not exist
        ("DELETE", f"/api/codes/{anns['code_id']}", two["Bob"], None, 404),
        ("DELETE", f"/api/devices/{ann_devices[0]['device_id']}", two["Bob"], None, 404),
        # Bob's only device cannot be revoked (he would be locked out)
        ("DELETE", f"/api/devices/{bob_devices[0]['device_id']}", two["Bob"], None, 409),
        # guessed, malformed and oversized codes
        ("POST", "/api/signin", None, {"code": "ABCD-EFGH-JKMN-PQRS"}, 403),
        ("POST", "/api/signin", None, {"code": "not a code"}, 403),
        ("POST", "/api/signin", None, {"code": "A" * 41}, 400),
        ("POST", "/api/signin", None, {"code": anns["code"], "token": two["Bob"]}, 400),
        ("POST", "/api/signin", None, {"code": anns["code"], "device": "x\u0007"}, 400),
        ("POST", "/api/signin", None, {}, 400),
        ("POST", "/api/signin", None, {"code": "x", "\n": None}, 400),  # one line, still
        # the routes with a token, without one
        ("GET", "/api/devices", None, None, 401),
        ("POST", "/api/codes", None, None, 401),
        ("DELETE", "/api/devices/d-1", "x" * 20, None, 403),
        ("DELETE", "/api/devices/d%20x", two["Ann"], None, 400),
    ]
    for method, path, token, body, status in cases:
        headers = auth(token) if token else {}
        got = http.request(method, path, headers=headers, json=body)
        assert got.status_code == status, (method, path, body, got.text)
        assert set(got.json()) == {"error"} and "\n" not in got.json()["error"]
    # Bob redeeming Ann's code becomes a device of Ann (the code is the credential), never
    # gets Ann's own token, and the code is then spent for everyone
    taken = _redeem(http, anns["code"]).json()
    assert taken["name"] == "Ann" and taken["token"] not in (two["Ann"], two["Bob"])
    again = _redeem(http, anns["code"])
    assert again.status_code == 403 and "used already" in again.json()["error"]
    # a cross-site page cannot redeem or revoke
    evil = {"Origin": "http://evil.example"}
    code = _code(http, two["Ann"])
    assert http.post("/api/signin", json={"code": code["code"]}, headers=evil).status_code == 403
    assert _redeem(http, code["code"]).status_code == 201  # still good: the page got nothing


def test_an_expired_code_is_refused(tmp_path: Path) -> None:
    clock = Clock()
    service = GameService(tmp_path / "games.sqlite", chooser=shipped_chooser, clock=clock)
    games = EngineGames(service, makers=Makers(1, limits=ONE_ADDRESS))
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=10) as http:
        ann = http.post("/api/players", json={"name": "Ann"}).json()["token"]
        code = _code(http, ann)
        clock.advance(CODE_LIFETIME_S + 1)
        late = _redeem(http, code["code"])
        assert late.status_code == 403 and "expired" in late.json()["error"]
    games.close()


def test_sign_ins_are_counted_per_address(tmp_path: Path) -> None:
    limits = Limits(register=Rate(burst=3, per_minute=1))
    games = EngineGames(GameService(tmp_path / "games.sqlite", chooser=shipped_chooser),
                        makers=Makers(1, limits=limits))  # fmt: skip
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=10) as http:
        answers = [_redeem(http, "ABCD-EFGH-JKMN-PQRS").status_code for _ in range(5)]
        assert answers == [403, 403, 403, 429, 429]
    games.close()


def _told_signed_out_and_closed(ws: Any) -> None:
    """The socket of a revoked device is told so, then closed with code 4403."""
    told = json.loads(ws.recv(timeout=10))
    assert told == {"type": "fatal", "error": "this device was signed out (revoked from "
                    "another device)"}  # fmt: skip
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_revoked_devices_socket_is_told_and_closed(two: dict[str, Any]) -> None:
    http, game = two["http"], two["game"]
    phone = _redeem(http, _code(http, two["Ann"])["code"]).json()
    with connect(two["live"].ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": phone["token"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        gone = http.delete(f"/api/devices/{phone['device_id']}", headers=auth(two["Ann"]))
        assert gone.json()["sockets_closed"] == 1
        _told_signed_out_and_closed(ws)
    # a new socket with the revoked token is refused at hello
    with connect(two["live"].ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": phone["token"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "fatal"


def test_a_device_revoked_on_another_server_has_its_socket_closed_there(tmp_path: Path) -> None:
    """Two servers on one store: the phone's socket is open on the second when the first
    revokes it; the second finds the token revoked at its next check and tells and closes
    the socket within a few seconds, while Ann's own socket there stays open."""
    store = tmp_path / "games.sqlite"
    with with_players(store, ("Ann",), timeout=10) as (_, _live, http, tokens):
        game = http.post("/api/games", json={"mode": "practice"},
                         headers=auth(tokens["Ann"])).json()["game_id"]  # fmt: skip
        phone = _redeem(http, _code(http, tokens["Ann"])["code"]).json()
        with served(store) as (_, other), connect(other.ws_url) as ws, connect(
            other.ws_url
        ) as own:
            for socket, token in ((ws, phone["token"]), (own, tokens["Ann"])):
                socket.send(json.dumps({"type": "hello", "game": game, "token": token}))
                assert json.loads(socket.recv(timeout=10))["type"] == "view"
            gone = http.delete(f"/api/devices/{phone['device_id']}", headers=auth(tokens["Ann"]))
            assert gone.json()["sockets_closed"] == 0  # none on the first server
            _told_signed_out_and_closed(ws)
            own.send(json.dumps({"type": "view", "id": 1}))
            assert json.loads(own.recv(timeout=10))["type"] == "ack"  # Ann's stays open
