"""The bounded load test (kakurolab/web/loadtest.py): players in Arena games make moves over
their sockets; no error, no lost move (every acknowledged move is in the store's log, read
by a separate connection), median move round trip under 20 ms, the new-game page for 16x22
under 200 ms; and the same for a new 8x8 game and moves while 20 expensive new games are in
the making, the 21st refused with 503 and a third of one player's with 429.

The default suite runs a short version on an in-process server whose chooser serves the
shipped, verified sets (what the bank does); ``-m bench`` runs the issue's full one: 50
players in 25 games for 60 s against ``kakuro play serve`` in its own process, with the
engine's own chooser.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _web import engine_games, live_server

from kakurolab.web import loadtest


def check(figures: loadtest.Figures) -> None:
    assert figures.errors == 0, figures.error_samples
    assert figures.lost == 0 and figures.extra == 0
    assert figures.moves > 0
    assert figures.rtt_median_ms < 20, figures
    assert figures.new_game_median_ms < 200, figures


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


PROCESSES_ARGV = ["--seconds", "15", "--games", "10", "--think", "0.02", "--new-games", "3",
                  "--new-size", "8x8"]  # fmt: skip


@pytest.mark.bench
@pytest.mark.parametrize("processes", [1, 2, 4])
def test_processes_on_one_store(processes: int, store_at: Path | str) -> None:
    """Several servers on one store (SQLite, PostgreSQL), each game's players spread over
    them: no error, no lost or duplicated move (docs/web.md has the moves per second)."""
    argv = [*PROCESSES_ARGV, "--processes", str(processes), "--store", str(store_at)]
    figures = loadtest.run(loadtest.parser().parse_args(argv))
    print(figures)
    assert figures.processes == processes and figures.moves > 0
    assert figures.errors == 0 and figures.lost == 0 and figures.extra == 0, figures
    assert figures.store == ("sqlite" if isinstance(store_at, Path) else "postgresql")


@pytest.mark.bench
def test_postgres_scales_with_processes(pg_cluster: Any) -> None:
    """Issue 50's targets on PostgreSQL: four servers move at least twice as many moves a
    second as one (the peer measured in the same run), and a rival's move is pushed across
    processes within 50 ms at the 95th percentile."""
    runs = {}
    for processes in (1, 4):
        argv = [*PROCESSES_ARGV, "--processes", str(processes), "--store",
                pg_cluster.database()]  # fmt: skip
        runs[processes] = figures = loadtest.run(loadtest.parser().parse_args(argv))
        print(figures)
        assert figures.errors == 0 and figures.lost == 0 and figures.extra == 0, figures
    assert runs[4].moves_per_s >= 2 * runs[1].moves_per_s, runs
    assert runs[4].push_p95_ms <= 50, runs[4]


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


def test_queued_generations_stall_nobody(tmp_path: Path) -> None:
    """20 expensive new games (fresh 20x20 expert Arena races, generated in the worker
    process) in the making: a new 8x8 game (a bank lookup) stays under 200 ms and a move round
    trip under 20 ms median (asserted with a CI margin: twice that), a player's third
    generation gets 429 and one over the limit 503, both with Retry-After; a fresh 8x8 Arena
    race is generated meanwhile in the small grids' lane; stopping answers the rest."""
    import statistics
    import threading
    import time

    import httpx
    from _web import shipped_chooser
    from websockets.sync.client import connect

    from kakurolab.game import GameService
    from kakurolab.game.prepare import fresh_puzzle
    from kakurolab.web.gateway import EngineGames, Makers
    from kakurolab.web.limits import Limits, Rate

    service = GameService(tmp_path / "games.sqlite", chooser=shipped_chooser, fresh=fresh_puzzle)
    limits = Limits(big=21, per_address=99, register=Rate(99, 999), generate=Rate(99, 999))
    games = EngineGames(service, makers=Makers(1, limits=limits))
    answers: list[int] = []
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=60) as http:

        def token(name: str) -> str:
            return str(http.post("/api/players", json={"name": name}).json()["token"])

        heavy = {"mode": "arena", "size": "20x20", "difficulty": "expert"}
        tokens = [token(f"h{k}") for k in range(10)]

        def make(t: str) -> None:
            with_answer = httpx.post(live.url + "/api/games", json=heavy, timeout=120,
                                     headers={"Authorization": f"Bearer {t}"})  # fmt: skip
            answers.append(with_answer.status_code)

        threads = [threading.Thread(target=make, args=(t,)) for t in tokens for _ in range(2)]
        for thread in threads:
            thread.start()
        for _ in range(200):
            if http.get("/api/health").json()["queued"] == 20:
                break
            time.sleep(0.05)
        assert http.get("/api/health").json()["queued"] == 20
        first = {"Authorization": "Bearer " + tokens[0]}
        third = http.post("/api/games", json=heavy, headers=first)
        assert third.status_code == 429 and int(third.headers["retry-after"]) > 0, third.text

        began = time.perf_counter()  # a small race is generated in its own lane meanwhile
        racer = {"Authorization": "Bearer " + token("racer")}
        race = http.post("/api/games", json={"mode": "arena"}, headers=racer)
        race_s = time.perf_counter() - began
        assert race.status_code == 201 and race.json()["spec"]["source"] == "secret", race.text

        threads.append(threading.Thread(target=make, args=(token("x"),)))  # the 21st
        threads[-1].start()
        for _ in range(200):
            if http.get("/api/health").json()["queued"] == 21:
                break
            time.sleep(0.05)
        late = {"Authorization": "Bearer " + token("y")}
        other = http.post("/api/games", json=heavy, headers=late)
        assert other.status_code == 503 and int(other.headers["retry-after"]) > 0, other.text

        mine = token("me")
        me = {"Authorization": f"Bearer {mine}"}
        times, view = [], None
        for _ in range(5):
            began = time.perf_counter()
            answer = http.post("/api/games", json={"mode": "practice", "size": "8x8"}, headers=me)
            times.append(time.perf_counter() - began)
            assert answer.status_code == 201, answer.text
            view = answer.json()
        assert view is not None
        cell = next(f"r{r + 1}c{c + 1}" for r, row in enumerate(view["puzzle"]["grid"])
                    for c, sq in enumerate(row) if sq == ".")  # fmt: skip
        rtts = []
        with connect(live.ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "game": view["game_id"], "token": mine}))
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
            for i in range(40):
                move = {"kind": "place", "cell": cell, "digit": 1 + i % 9}
                began = time.perf_counter()
                ws.send(json.dumps({"type": "move", "id": i, "move": move}))
                reply = json.loads(ws.recv(timeout=10))
                while reply["type"] == "view":  # a push may come first (the version poll)
                    reply = json.loads(ws.recv(timeout=10))
                rtts.append(time.perf_counter() - began)
                assert reply["type"] == "ack" and reply["id"] == i, reply
        assert http.get("/api/health").json()["queued"] == 21, "the generations ran meanwhile"
        new_ms, rtt_ms = statistics.median(times) * 1000, statistics.median(rtts) * 1000
        print(f"while 20 generations queued: new 8x8 median {new_ms:.1f} ms "
              f"(max {max(times) * 1000:.1f}), move median {rtt_ms:.2f} ms "
              f"(max {max(rtts) * 1000:.1f}), a fresh 8x8 race {race_s:.1f} s")  # fmt: skip
        games.stop()
        for thread in threads:
            thread.join(30)
    games.close()
    assert answers == [503] * 21, answers
    assert race_s < 60, race_s
    assert new_ms < 2 * 200 and rtt_ms < 2 * 20, (times, rtts)


def test_pastes_run_beside_the_players(tmp_path: Path) -> None:
    """``--pastes 1``: one player keeps the hardest in-bounds paste (a puzz.link URL of a
    shipped 16x22) in flight meanwhile; the pastes are made (201) and the players' moves
    still all acknowledged and logged (docs/web.md has the full run's figures)."""
    store = tmp_path / "games.sqlite"
    games = engine_games(store)
    argv = ["--seconds", "2", "--games", "1", "--think", "0.1", "--new-games", "1",
            "--new-size", "8x8", "--pastes", "1"]  # fmt: skip
    with live_server(games) as live:
        figures = loadtest.run(loadtest.parser().parse_args(argv), url=live.url + "/", store=store)
    games.close()
    assert figures.attack["pasters"] == 1
    assert figures.attack["pasted"] >= 1 and figures.attack["paste_refused"] == 0, figures.attack
    check(figures)
