"""The replay route over HTTP (issue 50): no token needed (the link is shared), refused while
the game runs, the frames the engine made, kept for the next visitor, and counted per client
address like a move (it costs a replay of the whole log)."""

from __future__ import annotations

from pathlib import Path

import httpx
from _web import live_server, name, published_solution, shipped_chooser

from kakurolab.game import GameService, Mode, NewGame
from kakurolab.web.gateway import EngineGames, Makers, default_workers
from kakurolab.web.limits import Limits, Rate


def test_the_replay_route_is_open_kept_and_counted(tmp_path: Path) -> None:
    limits = Limits(moves=Rate(burst=4, per_minute=1))
    games = EngineGames(GameService(tmp_path / "games.sqlite", chooser=shipped_chooser),
                        makers=Makers(default_workers(), limits=limits))  # fmt: skip
    svc = games.service
    me = svc.register("Ria")
    game = svc.create(me.token, NewGame(Mode.PRACTICE, size="8x8", difficulty="easy"))
    solution = sorted(published_solution(game.puzzle["id"]).items())
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        running = http.get(f"/api/replays/{game.game_id}")  # no token
        assert running.status_code == 409 and "not over" in running.json()["error"]
        for cell, digit in solution:
            svc.act(game.game_id, me.token, {"kind": "place", "cell": name(cell), "digit": digit})
        first = http.get(f"/api/replays/{game.game_id}")
        assert first.status_code == 200, first.text
        frames = first.json()["frames"]
        assert len(frames) == svc.store.version(game.game_id)
        assert games.replay(game.game_id) is games.replay(game.game_id)  # kept
        assert http.get("/api/replays/g-00000000").status_code == 404
        assert http.get(f"/api/replays/{game.game_id}").status_code == 200  # the fourth
        over = http.get(f"/api/replays/{game.game_id}")  # the address's fifth request
        assert over.status_code == 429 and "Retry-After" in over.headers
    games.close()
