"""Spectators on the web (issue 50 §1): anyone may watch a running Arena or Battle, by its
link or from the "live now" list, over a socket that is pushed the engine's spectator view
and refuses every move; a solo game is nobody's show; a watched game's every pushed frame
carries no solution and no digit that is not on the public board.  Across processes on
both stores: a spectator on one server sees a move made on another."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from _game import Clock, service, tiny_chooser
from _spectate import audit
from _web import auth, live_server, published_solution, shipped_chooser, with_players
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as connect_sync

from kakurolab.game import GameService, Mode, NewGame
from kakurolab.web.gateway import EngineGames, Makers
from kakurolab.web.limits import Limits
from kakurolab.web.load_players import start_servers


def _battle(http: httpx.Client, tokens: dict[str, str]) -> dict[str, Any]:
    """A Battle between ann and bob, started (the last seat starts it): ann's view."""
    view = http.post("/api/games", json={"mode": "battle", "size": "8x8"},
                     headers=auth(tokens["ann"])).json()  # fmt: skip
    http.post(f"/api/games/{view['game_id']}/join", headers=auth(tokens["bob"]))
    return dict(http.get(f"/api/games/{view['game_id']}", headers=auth(tokens["ann"])).json())


def _recv(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=10)))


def _until(
    ws: ClientConnection, test: Any, kept: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The next message that passes ``test``; every message on the way is put in ``kept``."""
    while True:
        message = _recv(ws)
        if kept is not None:
            kept.append(message)
        if test(message):
            return message


def _solution(games: Any, game_id: str) -> dict[str, int]:
    """The solution the shipped file publishes for the game's puzzle (not the engine's)."""
    puzzle_id = games.spectate(game_id)["puzzle"]["id"]
    return {f"r{r + 1}c{c + 1}": d for (r, c), d in published_solution(puzzle_id).items()}


def test_a_spectator_is_pushed_a_duel_move_by_move_and_every_frame_is_public(
    tmp_path: Path,
) -> None:
    with with_players(tmp_path / "w.sqlite", ("ann", "bob"), timeout=30) as (games, live, http,
                                                                            tokens):  # fmt: skip
        first = _battle(http, tokens)
        game = first["game_id"]
        solution = _solution(games, game)
        ids = {p["name"]: p["player_id"] for p in first["players"]}
        seen: list[dict[str, Any]] = []
        every: list[dict[str, Any]] = []
        with connect_sync(live.ws_url, max_size=None) as ws:
            ws.send(json.dumps({"type": "watch", "game": game}))
            hello = _recv(ws)
            assert hello["type"] == "view" and hello["view"]["spectator"] is True
            seen.append(hello["view"])
            public: dict[str, int] = {}
            turn, count = hello["view"]["turn"], 0
            while seen[-1]["phase"] != "finished":
                who = "ann" if turn == ids["ann"] else "bob"
                cell = next(c for c in solution if c not in public)
                far = next(c for c in reversed(solution) if c not in public)
                http.post(f"/api/games/{game}/moves", headers=auth(tokens[who]),
                          json={"move": {"kind": "mark", "cell": far, "digit": 5}})  # fmt: skip
                digit = solution[cell] if count % 4 else solution[cell] % 9 + 1  # some wrong
                answer = http.post(f"/api/games/{game}/moves", headers=auth(tokens[who]),
                                   json={"move": {"kind": "place", "cell": cell,
                                                  "digit": digit}}).json()  # fmt: skip
                if answer["outcome"].get("correct"):
                    public[cell] = digit
                version = answer["view"]["version"]
                pushed = _until(ws, lambda m, v=version: m["type"] in ("view", "over")
                                and m["view"]["version"] >= v, every)  # fmt: skip
                seen.append(pushed["view"])
                audit(pushed["view"], public)  # the move's digit is there when it is public
                turn, count = pushed["view"]["turn"], count + 1
            assert public == solution and count > len(solution)
            over = seen[-1]
            assert over["solution"] and over["standings"]
            # the spectator's socket acts for nobody: a move is refused, the game unchanged
            ws.send(json.dumps({"type": "move", "id": 7,
                                "move": {"kind": "mark", "cell": "r2c2", "digit": 1}}))  # fmt: skip
            refused = _until(ws, lambda m: m.get("id") == 7)
            assert refused["type"] == "error" and "watching" in refused["error"]
        for frame in seen[:-1]:
            assert frame["solution"] is None
        assert games.version(game) == over["version"]
        views = [m["view"] for m in every if "view" in m]  # the frames skipped on the way too
        assert len(views) >= len(seen) - 1
        for frame in views:
            audit(frame, frame["board"])  # nothing hidden, no cell named but the board's
            assert set(frame["board"].items()) <= set(solution.items())  # right digits only
            if frame["phase"] != "finished":
                assert len(frame["board"]) < len(solution)


def test_a_spectators_moves_are_refused_and_its_socket_never_takes_a_seat(
    tmp_path: Path,
) -> None:
    with with_players(tmp_path / "w.sqlite", ("ann", "bob", "cy"), timeout=30) as (
        games, live, http, tokens,
    ):  # fmt: skip
        race = http.post("/api/games", json={"mode": "arena", "size": "8x8"},
                         headers=auth(tokens["ann"])).json()["game_id"]  # fmt: skip
        http.post(f"/api/games/{race}/join", headers=auth(tokens["bob"]))
        before = games.version(race)
        with connect_sync(live.ws_url, max_size=None) as ws:
            ws.send(json.dumps({"type": "watch", "game": race}))
            assert _recv(ws)["view"]["phase"] == "waiting"  # a race may be watched in its lobby
            moves = [{"kind": "start"}, {"kind": "place", "cell": "r2c2", "digit": 1},
                     {"kind": "submit"}, {"kind": "shield", "shield": "hint"}]  # fmt: skip
            for ident, move in enumerate(moves, start=1):
                ws.send(json.dumps({"type": "move", "id": ident, "move": move}))
                reply = _until(ws, lambda m, i=ident: m.get("id") == i)
                assert reply["type"] == "error" and "only the game's players move" in reply["error"]
            # a seat's hello on a spectator's socket is refused: it stays a spectator's
            ws.send(json.dumps({"type": "hello", "game": race, "token": tokens["cy"]}))
            assert _until(ws, lambda m: m["type"] == "error")["error"] == "already joined"
            ws.send(json.dumps({"type": "move", "id": 9, "move": {"kind": "start"}}))
            assert _until(ws, lambda m: m.get("id") == 9)["type"] == "error"
            ws.send(json.dumps({"type": "view", "id": 10}))
            asked = _until(ws, lambda m: m.get("id") == 10)
            assert asked["type"] == "ack" and asked["view"]["spectator"] is True
        assert games.version(race) == before  # nothing reached the game
        view = games.view(race, tokens["ann"])
        assert [p["name"] for p in view["players"]] == ["ann", "bob"]
        # and a player's socket stays a player's: a watch on it is refused
        with connect_sync(live.ws_url, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "game": race, "token": tokens["bob"]}))
            assert _recv(ws)["view"]["you"] == view["players"][1]["player_id"]
            ws.send(json.dumps({"type": "watch", "game": race}))
            assert _until(ws, lambda m: m["type"] == "error")["error"] == "already joined"


def test_who_may_watch_what_over_http_and_the_socket(tmp_path: Path) -> None:
    with with_players(tmp_path / "w.sqlite", ("ann", "bob"), timeout=30) as (_, live, http,
                                                                            tokens):  # fmt: skip
        duel = _battle(http, tokens)["game_id"]
        solo = http.post("/api/games", json={"mode": "practice", "size": "8x8"},
                         headers=auth(tokens["ann"])).json()["game_id"]  # fmt: skip
        seen = http.get(f"/api/watch/{duel}")  # no token: a shared link
        assert seen.status_code == 200 and seen.json()["spectator"] is True
        assert seen.json()["solution"] is None
        assert [g["game_id"] for g in http.get("/api/live").json()["games"]] == [duel]
        refused = http.get(f"/api/watch/{solo}")
        assert refused.status_code == 409 and "can be watched" in refused.json()["error"]
        assert http.get("/api/watch/g-00000000").status_code == 404
        assert http.get("/api/watch/bad%20id").status_code == 400
        # a spectator's link gives no seat and no player's view
        assert http.post(f"/api/games/{duel}/join").status_code == 401
        assert http.get(f"/api/games/{duel}").status_code == 401
        for game, code in ((solo, 4409), ("g-00000000", 4404)):
            with connect_sync(live.ws_url, max_size=None) as ws:
                ws.send(json.dumps({"type": "watch", "game": game}))
                assert _recv(ws)["type"] == "fatal"
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        malformed = ws_reply(live.ws_url, {"type": "watch", "game": duel, "token": "x" * 20})
        assert malformed["type"] == "error"


def ws_reply(url: str, message: dict[str, Any]) -> dict[str, Any]:
    with connect_sync(url, max_size=None) as ws:
        ws.send(json.dumps(message))
        return _recv(ws)


def test_a_spectator_on_another_server_sees_a_move_at_its_commit(store_at: Path | str) -> None:
    maker = service(store_at, Clock(time.time()), chooser=tiny_chooser)
    ann, bob = maker.register("ann"), maker.register("bob")
    game = maker.create(ann.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    maker.join(game, bob.token)
    first = maker.view(game, ann.token).to_json()
    maker.close()
    (one, url_one), (two, url_two) = start_servers(store_at, 2)
    try:
        asyncio.run(_across(url_one, url_two, game, first, ann.token, bob.token))
    finally:
        for proc in (one, two):
            proc.terminate()
            proc.wait(10)


async def _across(url_one: str, url_two: str, game: str, first: dict[str, Any],
                  ann: str, bob: str) -> None:  # fmt: skip
    ws_url = url_two.replace("http://", "ws://").rstrip("/") + "/ws"
    async with connect(ws_url, max_size=None) as watcher:
        await watcher.send(json.dumps({"type": "watch", "game": game}))
        hello = json.loads(await watcher.recv())
        assert hello["view"]["board"] == {}
        token = ann if first["turn"] == first["you"] else bob
        async with httpx.AsyncClient(base_url=url_one, timeout=30) as http:
            answer = (await http.post(f"/api/games/{game}/moves", headers=auth(token),
                                      json={"move": {"kind": "place", "cell": "r2c2",
                                                     "digit": 2}})).json()  # fmt: skip
        assert answer["outcome"]["correct"] is True  # tiny-a holds 2 at r2c2
        async with asyncio.timeout(10):  # the SQLite poll's period, LISTEN's commit
            while True:
                pushed = json.loads(await watcher.recv())
                if pushed["view"]["version"] >= answer["view"]["version"]:
                    break
        assert pushed["view"]["board"] == {"r2c2": 2}
        assert pushed["view"]["spectator"] is True and pushed["view"]["solution"] is None


class CountingSpectate(EngineGames):
    """The engine's service, counting the spectator views it computes."""

    calls = 0

    def spectate(self, game_id: str) -> dict[str, Any]:
        CountingSpectate.calls += 1
        return super().spectate(game_id)


def test_spectators_cost_one_view_a_push_and_never_crowd_out_a_player(tmp_path: Path) -> None:
    limits = Limits(sockets_per_game=3)  # per game: three players' sockets, three spectators
    games = CountingSpectate(GameService(tmp_path / "w.sqlite", chooser=shipped_chooser),
                             makers=Makers(1, limits=limits))  # fmt: skip
    with (
        live_server(games) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
        ExitStack() as st,
    ):
        tokens = {who: http.post("/api/players", json={"name": who}).json()["token"]
                  for who in ("ann", "bob")}  # fmt: skip
        first = _battle(http, tokens)
        game = first["game_id"]
        most = limits.sockets_per_game  # spectators on the game (per address: 4)
        watchers = [st.enter_context(connect_sync(live.ws_url, max_size=None))
                    for _ in range(most)]  # fmt: skip
        for ws in watchers:
            ws.send(json.dumps({"type": "watch", "game": game}))
            seen = _recv(ws)
            assert seen.get("view", {}).get("spectator") is True, seen
        over = ws_reply(live.ws_url, {"type": "watch", "game": game})  # one spectator too many
        assert over["type"] == "fatal" and "at most" in over["error"]
        players = []
        for who in ("ann", "bob"):  # the spectators took none of the players' sockets
            ws = st.enter_context(connect_sync(live.ws_url, max_size=None))
            ws.send(json.dumps({"type": "hello", "game": game, "token": tokens[who]}))
            assert _recv(ws)["type"] == "view"
            players.append(ws)
        settled = -1  # the hellos' pushes are out: no spectator view computed for 0.5 s
        for _ in range(40):
            if settled == CountingSpectate.calls:
                break
            settled = CountingSpectate.calls
            time.sleep(0.5)
        before = CountingSpectate.calls
        mover = "ann" if first["turn"] == first["you"] else "bob"
        cell = next(f"r{r + 1}c{c + 1}" for r, row in enumerate(first["puzzle"]["grid"])
                    for c, sq in enumerate(row) if sq == ".")  # fmt: skip
        answer = http.post(f"/api/games/{game}/moves", headers=auth(tokens[mover]),
                           json={"move": {"kind": "mark", "cell": cell, "digit": 1}})  # fmt: skip
        assert answer.status_code == 200, answer.text
        for ws in watchers:
            pushed = _until(ws, lambda m: m["type"] == "view")
            assert pushed["view"]["version"] == answer.json()["view"]["version"]
        spent = CountingSpectate.calls - before
    games.close()
    assert spent == 1, spent  # one spectator view for all four spectators
