"""A bounded load test of ``kakuro play serve`` on localhost, and its figures.

``python -m kakurolab.web.loadtest --seconds 60`` starts the server as a subprocess on a
scratch store, seats ``--per-game`` players in each of ``--games`` Arena games over the HTTP
API, and lets every player make moves over its WebSocket for ``--seconds`` (a place, then an
erase of the same cell, so no board ever completes), pausing ``--think`` seconds (jittered)
between moves as a person would.  Then it stops the server and checks, in the store, that every
acknowledged move is in the game's log (no lost move) and that nothing else is.  It also
times the new-game page for a 16×22 puzzle: ``GET /``, the three static files, and ``POST
/api/games`` (whose answer is the first view).

The engine commits each move to SQLite's write-ahead log (``synchronous=NORMAL``, no fsync
per move, about 1 ms), and one store takes one writer at a time: that bounds one store's
throughput, so the pace matters (``--think``).

With ``--attack`` one client sits at every cap of the server's limits meanwhile; with
``--pastes N``, N players each keep one paste of the hardest in-bounds puzzle in flight
(:func:`.load_attacks.paste_text`), until the new games have been timed too.

With ``--processes N`` N servers share the store (``--store``: a SQLite file or a
``postgresql://`` URL), each game's players on different servers, so a rival's move reaches
a player through the store: by the poll on SQLite, by ``LISTEN/NOTIFY`` on PostgreSQL.  The
push's lag (a move's sending to a watcher's socket on another server receiving its view,
``--watchers 1``) is timed too.

The figures (move round trip median / p90 / p95 / p99 / max, moves per second, errors, lost
and duplicated moves, the push's lag, new-game times, the attackers' answers) print as JSON;
``tests/test_web_load.py`` runs a short version in the default suite and the full one under
``-m bench``.

This module is the runner (the command line, the run, its figures, the check of the logs);
the players, watchers and servers are in :mod:`.load_players`, the attackers in
:mod:`.load_attacks`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .load_attacks import Attacker
from .load_players import (
    Player,
    bearer,
    client_at,
    ok,
    play,
    push_lags,
    running_servers,
    seat_players,
    watch,
)


@dataclass
class Figures:
    seconds: float
    processes: int
    games: int
    players: int
    moves: int
    moves_per_s: float
    errors: int
    lost: int
    extra: int
    rtt_median_ms: float
    rtt_p90_ms: float
    rtt_p95_ms: float
    rtt_p99_ms: float
    rtt_max_ms: float
    store: str
    """``sqlite`` or ``postgresql``."""
    pushes: int
    """Moves timed from their sending to a watcher's pushed view (:func:`push_lags`;
    ``--watchers``), across processes when there are several."""
    push_median_ms: float
    push_p95_ms: float
    push_max_ms: float
    new_size: str
    new_game_median_ms: float
    new_game_max_ms: float
    queued: int
    error_samples: list[str]
    attack: dict[str, int] = field(default_factory=dict)
    """With ``--attack``: the attacker's players, its sockets open and refused, its moves
    answered by the engine and those refused by the rate limit.  With ``--pastes``: the
    pasters, their pastes made (201), refused (4xx), rate-limited (429), turned away by a
    full lane (503), their total time and the addresses they used."""


async def _new_game_times(client: Any, repeat: int, size: str = "16x22") -> list[float]:
    """The new-game page: the page, the new game (its first view comes back with it) and the
    static files the page loads, as a browser with a cold cache fetches them."""
    token = (await ok(await client.post("/api/players", json={"name": "newgame"})))["token"]
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        for path in ("/", "/static/app.js", "/static/board.js", "/static/style.css"):
            (await client.get(path)).raise_for_status()
        new = {"mode": "practice", "size": size, "difficulty": "easy"}
        view = await ok(await client.post("/api/games", json=new, headers=bearer(token)))
        shape = {view["puzzle"]["rows"], view["puzzle"]["cols"]}
        if shape != {int(n) for n in size.split("x")}:  # a variant may be turned: 22x16
            raise RuntimeError(f"the new game is not {size} but {shape}")
        times.append(time.perf_counter() - began)
    return times


async def _queue_generations(
    client: Any, url: str, count: int, first: int, stack: contextlib.AsyncExitStack
) -> list[asyncio.Task[Any]]:
    """``count`` expensive new games left in the making (two per player, each player from
    its own address from :func:`address` ``first`` on), once the server reports them queued."""
    tasks = []
    for k in range((count + 1) // 2):
        heavy = await stack.enter_async_context(client_at(url, first + k))
        token = (await ok(await heavy.post("/api/players", json={"name": f"heavy{k}"})))["token"]
        for _ in range(min(2, count - 2 * k)):
            new = {"mode": "arena", "size": "20x20", "difficulty": "expert"}
            post = heavy.post("/api/games", json=new, headers=bearer(token))
            tasks.append(asyncio.get_running_loop().create_task(post))
    for _ in range(200):
        health = (await client.get("/api/health")).json()
        if health.get("queued", 0) >= count:
            break
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError(f"the server reports {health.get('queued')} queued, not {count}")
    return tasks


async def _run(
    urls: list[str], args: argparse.Namespace
) -> tuple[list[Player], list[float], float, dict[str, int]]:
    import httpx

    url = urls[0]
    async with contextlib.AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=300))
        players = await seat_players(url, args.games, args.per_game, args.size, args.watchers)
        heavy = (await _queue_generations(client, url, args.queued, args.games, stack)
                 if args.queued else [])  # fmt: skip
        began = time.monotonic()
        until = began + args.seconds
        sockets = [u.replace("http://", "ws://").rstrip("/") + "/ws" for u in urls]
        seats = args.per_game + args.watchers
        for i, player in enumerate(players):  # a game's players (and watchers) on different
            player.server = (i // seats + i % seats) % len(sockets)  # servers, in turn
        attack: dict[str, int] = {}
        attacker = Attacker(url, sockets[0]) if args.attack else None
        pasters = Attacker(url, sockets[0], args.pastes) if args.pastes else None
        for one in (attacker, pasters):  # at every cap (or pasting) before anyone plays
            if one is not None:
                await asyncio.to_thread(one.start)
                began = time.monotonic()
                until = began + args.seconds
        await asyncio.gather(
            *(watch(sockets[p.server], p, until + 1.0) if p.watcher
              else play(sockets[p.server], p, until, args.think, i)
              for i, p in enumerate(players))
        )  # fmt: skip
        took = time.monotonic() - began
        if attacker is not None:
            attack = await asyncio.to_thread(attacker.stop)
        new_game = await _new_game_times(client, args.new_games, args.new_size)
        if pasters is not None:  # still pasting while the new games were timed
            attack.update(await asyncio.to_thread(pasters.stop))
        for task in heavy:
            if task.done():
                raise RuntimeError(f"a queued generation ended during the run: {task.result()}")
            task.cancel()
        await asyncio.gather(*heavy, return_exceptions=True)
    return players, new_game, took, attack


def run(
    args: argparse.Namespace, url: str | None = None, store: Path | str | None = None
) -> Figures:
    """Run against ``url`` (a server on ``store``) or, by default, ``--processes`` fresh
    ``kakuro play serve`` subprocesses on ``--store`` (default: a scratch SQLite file)."""
    from ..game.store import is_url

    with tempfile.TemporaryDirectory() as tmp:
        if url is None or store is None:
            store = args.store or Path(tmp) / "load.sqlite"
            with running_servers(store, args.processes, args.workers) as urls:
                players, new_game, took, attack = asyncio.run(_run(urls, args))
        else:
            players, new_game, took, attack = asyncio.run(_run([url], args))
        lost, extra = check_log(store, players)
    rtts = sorted(t for p in players for t in p.rtts)
    lags = push_lags(players)
    errors = [e for p in players for e in p.errors]
    return Figures(
        seconds=round(took, 2),
        processes=args.processes if url is None else 1,
        games=args.games,
        players=sum(1 for p in players if not p.watcher),
        moves=len(rtts),
        moves_per_s=round(len(rtts) / took, 1) if took else 0.0,
        errors=len(errors),
        lost=lost,
        extra=extra,
        rtt_median_ms=_ms(rtts, 0.5),
        rtt_p90_ms=_ms(rtts, 0.90),
        rtt_p95_ms=_ms(rtts, 0.95),
        rtt_p99_ms=_ms(rtts, 0.99),
        rtt_max_ms=_ms(rtts, 1.0),
        store="postgresql" if is_url(store) else "sqlite",
        pushes=len(lags),
        push_median_ms=_ms(lags, 0.5),
        push_p95_ms=_ms(lags, 0.95),
        push_max_ms=_ms(lags, 1.0),
        new_size=args.new_size,
        new_game_median_ms=round(statistics.median(new_game) * 1000, 1),
        new_game_max_ms=round(max(new_game) * 1000, 1),
        queued=args.queued,
        error_samples=errors[:5],
        attack=attack,
    )


def _ms(ordered: list[float], share: float) -> float:
    """The ``share`` quantile of sorted seconds, in ms (the median interpolated)."""
    if not ordered:
        return 0.0
    if share == 0.5:
        return round(statistics.median(ordered) * 1000, 2)
    return round(ordered[int(share * (len(ordered) - 1))] * 1000, 2)


def check_log(store: Path | str, players: list[Player]) -> tuple[int, int]:
    """(lost, extra): acknowledged moves missing from each game's stored log, and logged
    player moves nobody was told about, read from the store by a separate connection."""
    from .gateway import EngineGames

    logged = EngineGames.open(store)
    lost = extra = 0
    try:
        for game_id in {p.game_id for p in players}:
            acked = sum(p.acked for p in players if p.game_id == game_id)
            in_log = logged.player_moves(game_id)
            lost += max(0, acked - in_log)
            extra += max(0, in_log - acked)
    finally:
        logged.close()
    return lost, extra


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m kakurolab.web.loadtest", description=__doc__)
    p.add_argument("--seconds", type=float, default=60.0, help="how long players move (60)")
    p.add_argument("--games", type=int, default=25, help="Arena games (25)")
    p.add_argument("--per-game", type=int, default=2, help="players per game (2)")
    p.add_argument("--watchers", type=int, default=0,
                   help="seated players per game who only watch, each on another server than "
                   "the movers where there is one: the push's lag is timed on them (0)")
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean pause between a player's moves (1 s: faster than people place digits)",
    )
    p.add_argument("--size", default="8x8", help="puzzle size of the Arena games (8x8)")
    p.add_argument("--new-games", type=int, default=20, help="new-game pages timed (20)")
    p.add_argument("--new-size", default="16x22", help="their size (16x22)")
    p.add_argument("--queued", type=int, default=0, metavar="N",
                   help="expensive new games (20x20 expert races) kept in the making (0)")
    p.add_argument("--attack", action="store_true",
                   help="one client at every cap of the server's limits meanwhile (sockets, "
                   "players, moves as fast as answered)")
    p.add_argument("--pastes", type=int, default=0, metavar="N",
                   help="N players meanwhile each keep one paste of the hardest in-bounds "
                   "puzzle in flight, re-pasting when answered, until the new games are "
                   "timed (0)")
    p.add_argument("--workers", type=int, default=1, help="each server's generating processes")
    p.add_argument("--processes", type=int, default=1, help="servers on the one store (1)")
    p.add_argument("--store", metavar="PATH|URL",
                   help="the store the servers share: a SQLite file or a postgresql:// URL "
                   "(an existing database; default: a scratch SQLite file)")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    figures = run(parser().parse_args(argv))
    print(json.dumps(asdict(figures), indent=1))
    clean = not figures.errors and not figures.lost and not figures.extra
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
