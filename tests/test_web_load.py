"""The bounded load test (kakurolab/web/loadtest.py): players in Arena games make moves over
their sockets; no error, no lost move (every acknowledged move is in the store's log, read
by a separate connection), median move round trip under 20 ms, the new-game page for 16x22
under 200 ms.

The default suite runs a short version on an in-process server whose chooser serves the
shipped, verified sets (what the bank does); ``-m bench`` runs the issue's full one: 50
players in 25 games for 60 s against ``kakuro play serve`` in its own process, with the
engine's own chooser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _web import engine_games, live_server

from kakurolab.web import loadtest


def check(figures: loadtest.Figures) -> None:
    assert figures.errors == 0, figures.error_samples
    assert figures.lost == 0 and figures.extra == 0
    assert figures.moves > 0
    assert figures.rtt_median_ms < 20, figures
    assert figures.new_game_16x22_median_ms < 200, figures


def test_short_load(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite"
    games = engine_games(store)
    args = loadtest.parser().parse_args(
        ["--seconds", "4", "--games", "6", "--think", "0.1", "--new-games", "5"]
    )
    with live_server(games) as live:
        figures = loadtest.run(args, url=live.url + "/", store=store)
    games.close()
    assert figures.players == 12
    check(figures)


@pytest.mark.bench
def test_full_load() -> None:
    """50 players, 25 games, 60 s (python -m kakurolab.web.loadtest prints the same)."""
    figures = loadtest.run(loadtest.parser().parse_args(["--seconds", "60"]))
    print(figures)
    assert figures.players == 50
    check(figures)


def test_a_slow_new_game_holds_up_no_move(tmp_path: Path) -> None:
    """A puzzle that takes seconds to choose (the generator on a big size) runs beside the
    engine thread: another player's moves keep their usual round trip meanwhile."""
    import threading
    import time

    import httpx
    from _web import shipped_chooser

    from kakurolab.game import GameService
    from kakurolab.web.gateway import EngineGames

    def slow_chooser(size: str, difficulty: str, seed: str | int) -> object:
        if size == "12x12":
            time.sleep(3)
        return shipped_chooser(size, difficulty, seed)

    games = EngineGames(GameService(tmp_path / "games.sqlite", chooser=slow_chooser))  # type: ignore[arg-type]
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        token = http.post("/api/players", json={"name": "a"}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        view = http.post("/api/games", json={"mode": "practice"}, headers=headers).json()
        cell = next(
            f"r{r + 1}c{c + 1}"
            for r, row in enumerate(view["puzzle"]["grid"])
            for c, sq in enumerate(row)
            if sq == "."
        )
        slow = threading.Thread(
            target=lambda: httpx.post(
                live.url + "/api/games", json={"mode": "practice", "size": "12x12"},
                headers=headers, timeout=30,
            )
        )  # fmt: skip
        slow.start()
        time.sleep(0.3)  # the slow choice is under way
        began = time.perf_counter()
        moves = f"/api/games/{view['game_id']}/moves"
        for digit in (1, 2, 3, 4):
            move = {"kind": "place", "cell": cell, "digit": digit}
            answer = http.post(moves, json={"move": move}, headers=headers)
            assert answer.status_code == 200, answer.text
        took = time.perf_counter() - began
        assert slow.is_alive(), "the slow new game should still be choosing"
        slow.join()
    games.close()
    assert took < 1.5, took
