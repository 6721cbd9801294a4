"""The attack suite (issue 45): what a racer or a foreign page tries against a live server
on the real engine, each refused with a clear 4xx and nothing learnt.

* Item 1: the grid of a live Arena, Battle or today's calendar puzzle, pasted into a practice
  game with a 1 s sprint (or sent as the page's Restart does), would end with ``solution``
  in the finished view; it is refused (409) in every dress: as the page's grid text, turned
  and complemented, as a puzz.link URL.
* Item 6: a cross-site simple POST (``text/plain``, a foreign ``Origin``) creates no player;
  a foreign ``Host`` (DNS rebinding) and a foreign socket ``Origin`` reach nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _web import auth, engine_games, view_puzzle, with_players
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from kakurolab.formats import dumps
from kakurolab.generator.transforms import Transform, transform_puzzle


@pytest.fixture
def server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    store = tmp_path / "games.sqlite"
    with with_players(store, ("Ann", "Racer"), timeout=30) as (games, live, http, tokens):
        yield {"games": games, "http": http, "live": live, **tokens}


def page_grid_text(view: dict[str, Any]) -> str:
    """The grid as the page's Restart sends it (app.js restartBody)."""
    return "\n".join(" ".join(row) for row in view["puzzle"]["grid"])


def sprint(s: dict[str, Any], puzzle: str) -> httpx.Response:
    """The racer's paste: a practice game on ``puzzle`` with a 1 s countdown."""
    body = {"mode": "practice", "puzzle": puzzle, "time_limit_s": 1}
    return s["http"].post("/api/games", json=body, headers=auth(s["Racer"]))


def leaked(s: dict[str, Any], answer: httpx.Response) -> object:
    """What the racer's finished sprint shows: its solution (None: nothing leaked)."""
    if answer.status_code != 201:
        return None
    game_id = answer.json()["game_id"]
    time.sleep(1.2)
    return s["http"].get(f"/api/games/{game_id}", headers=auth(s["Racer"])).json()["solution"]


def live_race(s: dict[str, Any], mode: str) -> dict[str, Any]:
    """Ann's live ``mode`` game with the racer seated in it: the racer's view of it."""
    http = s["http"]
    made = http.post("/api/games", json={"mode": mode}, headers=auth(s["Ann"]))
    assert made.status_code == 201, made.text
    game_id = made.json()["game_id"]
    joined = http.post(f"/api/games/{game_id}/join", headers=auth(s["Racer"]))
    assert joined.status_code == 200, joined.text
    return dict(joined.json())


@pytest.mark.parametrize("mode", ["arena", "battle"])
def test_a_live_race_grid_in_a_sprint_is_refused(server: dict[str, Any], mode: str) -> None:
    view = live_race(server, mode)
    answer = sprint(server, page_grid_text(view))  # what the page's Restart sends
    assert leaked(server, answer) is None
    assert answer.status_code == 409, answer.text
    assert "live Arena, Battle or calendar puzzle" in answer.json()["error"]
    assert view["rules"]["restart"] is False  # the page hides Restart: it reads this flag


def test_every_dress_of_a_live_grid_is_refused(server: dict[str, Any]) -> None:
    view = live_race(server, "arena")
    puzzle = view_puzzle(view)
    turned = transform_puzzle(puzzle, Transform(90, "h", complement=True))
    assert turned.grid != puzzle.grid
    for text in (dumps([turned], "kakuro"), dumps([turned], "pzpr").strip(),
                 dumps([puzzle], "pzpr").strip()):  # fmt: skip
        answer = sprint(server, text)
        assert leaked(server, answer) is None
        assert answer.status_code == 409, (text[:60], answer.text)


def test_todays_calendar_grid_is_refused(server: dict[str, Any]) -> None:
    http = server["http"]
    day = http.post("/api/games", json={"mode": "campaign"}, headers=auth(server["Ann"]))
    assert day.status_code == 201, day.text
    answer = sprint(server, page_grid_text(day.json()))
    assert leaked(server, answer) is None
    assert answer.status_code == 409, answer.text
    assert day.json()["rules"]["restart"] is False


def test_practice_restart_still_works(server: dict[str, Any]) -> None:
    """The guard is not a wall: a practice grid (no competition) is played again."""
    http = server["http"]
    first = http.post("/api/games", json={"mode": "practice"}, headers=auth(server["Ann"]))
    assert first.json()["rules"]["restart"] is True
    again = sprint(server, page_grid_text(first.json()))
    assert again.status_code == 201, again.text


def test_a_cross_site_simple_post_creates_no_player(server: dict[str, Any]) -> None:
    http, games = server["http"], server["games"]
    before = games.service.store.db.execute("SELECT count(*) FROM players").fetchone()[0]
    body = json.dumps({"name": "csrf"}).encode()
    other_port = server["live"].url.rsplit(":", 1)[0] + ":1"  # another local server's page
    for headers in (
        {"Content-Type": "text/plain", "Origin": "https://evil.example"},
        {"Content-Type": "text/plain", "Origin": "null"},
        {"Content-Type": "text/plain", "Origin": other_port},
        {"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"},
    ):
        answer = http.post("/api/players", content=body, headers=headers)
        assert answer.status_code == 403, (headers, answer.text)
        assert "not accepted" in answer.json()["error"]
    after = games.service.store.db.execute("SELECT count(*) FROM players").fetchone()[0]
    assert after == before
    same = http.post("/api/players", content=body, headers={"Origin": server["live"].url})
    assert same.status_code == 201  # the page's own origin is welcome


def test_a_foreign_host_reaches_nothing(server: dict[str, Any]) -> None:
    http = server["http"]
    for path in ("/", "/api/health"):
        answer = http.get(path, headers={"Host": "evil.example"})
        assert answer.status_code == 421, answer.text
        assert "not served here" in answer.json()["error"]
    assert http.get("/api/health", headers={"Host": "localhost"}).status_code == 200


def test_a_foreign_socket_origin_is_refused(server: dict[str, Any]) -> None:
    url = server["live"].ws_url
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="https://evil.example").close()  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(url, origin=server["live"].url) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "view", "id": 1}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"  # served: no hello yet


def test_allowed_hosts_are_configurable(tmp_path: Path) -> None:
    """``serve --allow-host NAME`` (create_app's ``allowed_hosts``) serves that name too."""
    import asyncio

    from kakurolab.web.app import create_app

    async def health(app: Any, host: str) -> int:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.2") as c:
            return (await c.get("/api/health", headers={"Host": host})).status_code

    async def register(app: Any, origin: str) -> int:
        """A page's POST through a proxy that passes the bound address as ``Host``."""
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.2") as c:
            answer = await c.post("/api/players", json={"name": "p"}, headers={"Origin": origin})
            return answer.status_code

    games = engine_games(tmp_path / "games.sqlite")
    try:
        plain = create_app(games)
        named = create_app(games, allowed_hosts=("Kakuro.Example.org",))
        assert asyncio.run(health(plain, "kakuro.example.org")) == 421
        assert asyncio.run(health(named, "kakuro.example.org:8421")) == 200
        assert asyncio.run(health(named, "evil.example")) == 421
        assert asyncio.run(register(named, "https://kakuro.example.org")) == 201
        assert asyncio.run(register(plain, "https://kakuro.example.org")) == 403
    finally:
        games.close()


def test_serve_takes_allowed_hosts_from_the_command_line(tmp_path: Path) -> None:
    """``kakuro play serve --allow-host NAME`` reaches the guard."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "kakurolab", "play", "serve", "--port", "0", "--no-browser",
         "--json", "--store", str(tmp_path / "g.sqlite"), "--allow-host", "kakuro.example.org"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        url = json.loads(proc.stdout.readline())["url"]
        named = httpx.get(url + "api/health", headers={"Host": "kakuro.example.org"}, timeout=10)
        other = httpx.get(url + "api/health", headers={"Host": "evil.example"}, timeout=10)
        assert (named.status_code, other.status_code) == (200, 421)
    finally:
        proc.terminate()
        proc.wait(10)
