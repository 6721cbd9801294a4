"""The computer opponent over HTTP (issue 50 §1): a Battle started with ``"computer"`` is
seated and running at once; the server's task plays the computer's turns through the engine
(pushed to the person like a rival's moves), stops at the end, resumes after a restart, and the
finished game moves the ratings shown by ``/api/stats`` and ``/api/ratings``."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from _web import auth, engine_games, live_server, published_solution

from kakurolab.game.moves import cell_text

PACE = 0.005
"""The tests' think-time factor: a move of the easy computer takes ~0.05 s, not ~10 s."""


def _wait_turn(http: httpx.Client, game: str, token: str, seconds: float = 30) -> dict[str, Any]:
    """The person's view once it is their turn again, or the game is over."""
    deadline = time.monotonic() + seconds
    while True:
        view = http.get(f"/api/games/{game}", headers=auth(token)).json()
        if view["phase"] == "finished" or view["turn"] == view["you"]:
            return view
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.02)


def _place(http: httpx.Client, game: str, token: str, cell: str, digit: int) -> httpx.Response:
    move = {"kind": "place", "cell": cell, "digit": digit}
    return http.post(f"/api/games/{game}/moves", headers=auth(token), json={"move": move})


def _play_out(http: httpx.Client, game: str, token: str) -> dict[str, Any]:
    """The person places right digits (the shipped file's solution) until the end."""
    view = _wait_turn(http, game, token)
    solution = {cell_text(c): d for c, d in published_solution(view["puzzle"]["id"]).items()}
    while view["phase"] != "finished":
        cell = next(c for c in sorted(solution) if c not in view["board"])
        answer = _place(http, game, token, cell, solution[cell])
        assert answer.status_code == 200, answer.text
        view = _wait_turn(http, game, token)
    return view


def test_a_battle_against_the_computer_is_played_to_the_end_and_rated(tmp_path: Path) -> None:
    games = engine_games(tmp_path / "games.sqlite")
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        live.app.state.bots.pace = PACE
        token = http.post("/api/players", json={"name": "ann"}).json()["token"]
        made = http.post("/api/games", headers=auth(token),
                         json={"mode": "battle", "computer": "easy"})  # fmt: skip
        assert made.status_code == 201, made.text
        view = made.json()
        assert view["phase"] == "active" and view["turn"] == view["you"]
        assert [p["name"] for p in view["players"]] == ["ann", "Computer (easy)"]
        assert view["rules"]["rated"] is True
        final = _play_out(http, view["game_id"], token)
        bot_moves = live.app.state.bots.moves[view["game_id"]]
        assert bot_moves and all(d.move["kind"] == "place" for d in bot_moves)
        assert final["end_reason"] == "completed"
        scores = {line["name"]: line["score"] for line in final["standings"]}
        assert scores["Computer (easy)"] > 0 and scores["ann"] > 0
        stats = http.get("/api/stats", headers=auth(token)).json()
        mine = stats["ratings"]["computer"]
        assert mine["games"] == 1 and mine["wins"] + mine["losses"] + mine["draws"] == 1
        assert mine["sigma"] < 25 / 3 and "±" in mine["shown"]
        assert "battle" not in stats["ratings"]  # the people's pool saw no game
        table = http.get("/api/ratings?pool=computer", headers=auth(token)).json()["table"]
        assert {r["name"] for r in table} == {"ann", "Computer (easy)"}
        assert [r["rank"] for r in table] == [1, 2]
        assert table[0]["conservative"] >= table[1]["conservative"]
        people = http.get("/api/ratings", headers=auth(token)).json()
        assert people["pool"] == "battle" and people["table"] == []
        time.sleep(0.2)
        assert view["game_id"] not in live.app.state.bots.tasks  # it stopped at the end
    games.close()


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"mode": "practice", "computer": "easy"}, 400, "Battle Matrix only"),
        ({"mode": "arena", "computer": "hard"}, 400, "Battle Matrix only"),
        ({"mode": "battle", "computer": "grandmaster"}, 400, "computer"),
    ],
)
def test_a_computer_outside_a_battle_is_refused(
    tmp_path: Path, body: dict[str, object], status: int, says: str
) -> None:
    games = engine_games(tmp_path / "games.sqlite")
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        token = http.post("/api/players", json={"name": "ann"}).json()["token"]
        answer = http.post("/api/games", headers=auth(token), json=body)
        assert answer.status_code == status and says in answer.json()["error"]
        bad = http.get("/api/ratings?pool=nobody", headers=auth(token))
        assert bad.status_code == 400 and "unknown rating pool" in bad.json()["error"]
    games.close()


def test_a_restarted_server_resumes_its_computers(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite"
    games = engine_games(store)
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        live.app.state.bots.pace = 1000.0  # this server's computer never gets to move
        token = http.post("/api/players", json={"name": "ann"}).json()["token"]
        view = http.post("/api/games", headers=auth(token),
                         json={"mode": "battle", "computer": "medium"}).json()  # fmt: skip
        game = view["game_id"]
        solution = {cell_text(c): d for c, d in published_solution(view["puzzle"]["id"]).items()}
        cell = min(solution)
        assert _place(http, game, token, cell, solution[cell]).status_code == 200
        assert game in live.app.state.bots.tasks  # thinking, very slowly
    games.close()  # the server stopped mid-thought: nothing of the computer's was played
    again = engine_games(store)
    with live_server(again) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        live.app.state.bots.pace = PACE
        view = _wait_turn(http, game, token)
        assert view["turn"] == view["you"] and len(view["board"]) == 2
        assert game in live.app.state.bots.tasks
    again.close()


def test_two_servers_on_one_store_play_the_computer_once(tmp_path: Path) -> None:
    """Every server resumes every computer game at its start, and the lease makes one play
    it: while the first server runs, the second makes no move; once it stops (giving the
    lease back), the second plays the computer to the end, and no move was made twice."""
    store = tmp_path / "games.sqlite"
    first, second = engine_games(store), engine_games(store)
    with contextlib.ExitStack() as running:
        a = running.enter_context(live_server(first))
        a.app.state.bots.pace = 0.2  # ~2 s a move: the second server looks meanwhile
        http = running.enter_context(httpx.Client(base_url=a.url, timeout=30))
        token = http.post("/api/players", json={"name": "ann"}).json()["token"]
        view = http.post("/api/games", headers=auth(token),
                         json={"mode": "battle", "computer": "easy"}).json()  # fmt: skip
        game = view["game_id"]
        solution = {cell_text(c): d for c, d in published_solution(view["puzzle"]["id"]).items()}
        with live_server(second) as b, httpx.Client(base_url=b.url, timeout=30) as other:
            b.app.state.bots.pace = PACE
            assert game in b.app.state.bots.tasks  # resumed there too, waiting for the lease
            view = _wait_turn(http, game, token)  # Ann's digit, then the first server's answer
            cell = next(c for c in sorted(solution) if c not in view["board"])
            assert _place(http, game, token, cell, solution[cell]).status_code == 200
            _wait_turn(http, game, token)
            by_a = list(a.app.state.bots.moves.get(game, []))
            assert by_a and not b.app.state.bots.moves.get(game)
            running.close()  # the first server stops; the second goes on
            final = _play_out(other, game, token)
            by_b = list(b.app.state.bots.moves.get(game, []))
    assert final["phase"] == "finished" and by_b
    placed = [e for e in second.service.events_since(game, token, 0)
              if e.kind.value == "place" and e.player_id != final["you"]]  # fmt: skip
    # every digit the computer placed was one server's decision, played once
    assert len(placed) == sum(d.move["kind"] == "place" for d in by_a + by_b)
    first.close()
    second.close()
