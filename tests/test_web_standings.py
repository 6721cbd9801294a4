"""The standings over HTTP (kakurolab.web.boards): the Calendar and Arena leaderboards and
the archive carry the engine's JSON, a live day's board carries scores only (no grid, no
entry, no solution), and a future, unknown or malformed day is a clear 4xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _game import Clock, solution_of
from _web import auth, engine_games, live_server

from kakurolab.game import calendar as cal

DAY = 24 * 3600


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Any, httpx.Client, Clock]]:
    clock = Clock()  # Monday 2026-11-30
    games = engine_games(tmp_path / "games.sqlite", clock=clock)
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        yield games, http, clock
    games.close()


def player(http: httpx.Client, name: str) -> dict[str, str]:
    token = http.post("/api/players", json={"name": name}).json()["token"]
    return auth(token)


def solve(games: Any, http: httpx.Client, clock: Clock, who: dict[str, str], game: str) -> None:
    for cell, digit in solution_of(games.service, game).items():
        clock.advance(10)
        move = {"move": {"kind": "place", "cell": cell, "digit": digit}}
        assert http.post(f"/api/games/{game}/moves", json=move, headers=who).status_code == 200


def refused(response: httpx.Response, status: int, says: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(response.json()) == {"error"} and "\n" not in error and says in error, error


def test_a_live_days_board_carries_scores_only(site: Any) -> None:
    games, http, clock = site
    ann, ben = player(http, "ann"), player(http, "ben")
    won = http.post("/api/games", json={"mode": "campaign"}, headers=ann).json()
    running = http.post("/api/games", json={"mode": "campaign"}, headers=ben).json()["game_id"]
    solution = solution_of(games.service, won["game_id"])
    cell = next(iter(solution))
    move = {"move": {"kind": "place", "cell": cell, "digit": solution[cell]}}
    assert http.post(f"/api/games/{running}/moves", json=move, headers=ben).status_code == 200
    solve(games, http, clock, ann, won["game_id"])
    got = http.get("/api/standings/calendar", headers=ben)
    assert got.status_code == 200, got.text
    board = got.json()
    assert board["open"] and board["date"] == "2026-11-30" and board["size"] == "8x8"
    assert [(e["name"], e["rank"]) for e in board["ranked"]] == [("ann", 1)]
    assert board["ranked"][0]["score"] > 0 and board["ranked"][0]["time_s"] > 0
    assert "ben" not in got.text  # still playing: no result yet
    for word in ("solution", "entries", "board", "grid", "puzzle", "marks"):
        assert f'"{word}"' not in got.text
    assert "".join(str(d) for d in solution.values()) not in got.text
    same = http.get("/api/standings/calendar", params={"date": "2026-11-30"}, headers=ben)
    assert same.json() == board


def test_unknown_future_and_malformed_days_are_4xx(site: Any) -> None:
    _, http, clock = site
    me = player(http, "me")  # the server's first day: 2026-11-30
    clock.advance(2 * DAY)
    board = "/api/standings/calendar"
    refused(http.get(board, params={"date": "2026-12-03"}, headers=me), 404, "not out yet")
    refused(http.get(board, params={"date": "2026-11-29"}, headers=me), 404, "starts on")
    refused(http.get(board, params={"date": "yesterday"}, headers=me), 400, "YYYY-MM-DD")
    refused(http.get(board), 401, "")
    archive = "/api/calendar/archive"
    refused(http.get(archive, params={"month": "2027-05"}, headers=me), 404, "no day")
    refused(http.get(archive, params={"month": "May"}, headers=me), 400, "YYYY-MM")
    refused(http.get("/api/standings/arena", params={"period": "ever"}, headers=me), 400,
            "a period is one of")  # fmt: skip
    refused(http.post("/api/games", json={"mode": "practice", "date": "2026-12-09"},
                      headers=me), 404, "not out yet")  # fmt: skip


def test_the_arena_board_over_http(site: Any) -> None:
    games, http, clock = site
    ann, ben = player(http, "ann"), player(http, "ben")
    game = http.post("/api/games", json={"mode": "arena"}, headers=ann).json()["game_id"]
    assert http.post(f"/api/games/{game}/join", headers=ben).status_code == 200
    start = {"move": {"kind": "start"}}
    assert http.post(f"/api/games/{game}/moves", json=start, headers=ann).status_code == 200
    solve(games, http, clock, ann, game)
    submit = {"move": {"kind": "submit"}}
    assert http.post(f"/api/games/{game}/moves", json=submit, headers=ann).status_code == 200
    for period in ("today", "week", "all"):
        got = http.get("/api/standings/arena", params={"period": period}, headers=ben)
        assert got.status_code == 200, got.text
        racers = {r["name"]: r for r in got.json()["racers"]}
        assert (racers["ann"]["rank"], racers["ann"]["wins"]) == (1, 1)
        assert (racers["ben"]["rank"], racers["ben"]["wins"], racers["ben"]["races"]) == (2, 0, 1)
    assert http.get("/api/standings/arena", headers=ben).json()["period"] == "week"


def test_the_archive_plays_an_old_day_for_practice(site: Any) -> None:
    games, http, clock = site
    ann, me = player(http, "ann"), player(http, "me")
    day = http.post("/api/games", json={"mode": "campaign"}, headers=ann).json()
    kept = games.service.store.cached_puzzle(cal.seed_of(cal.today(clock.now)))
    solve(games, http, clock, ann, day["game_id"])
    practice = {"mode": "practice", "date": "2026-11-30"}
    refused(http.post("/api/games", json=practice, headers=me), 409, "still played for a score")
    clock.advance((cal.ARCHIVE_DAYS + 1) * DAY)
    listing = http.get("/api/calendar/archive", params={"month": "2026-11"}, headers=me).json()
    assert [(d["date"], d["state"], d["solvers"]) for d in listing["days"]] == [
        ("2026-11-30", "practice", 1)]  # fmt: skip
    made = http.post("/api/games", json=practice, headers=me)
    assert made.status_code == 201, made.text
    view = made.json()
    assert view["mode"] == "practice" and view["spec"]["source"] == "archive"
    assert view["puzzle"]["grid"] == day["puzzle"]["grid"]
    assert games.service.store.cached_puzzle("calendar:2026-11-30") == kept  # kept, not remade
    board = http.get("/api/standings/calendar", params={"date": "2026-11-30"}, headers=me)
    assert not board.json()["live"] and [e["name"] for e in board.json()["ranked"]] == ["ann"]
    assert json.dumps(board.json()).count('"rank"') == 1
