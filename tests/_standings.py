"""A server with standings to show (tests/test_browser_standings.py and the screenshots of
docs/web.md): calendar days and Arena races played through the real engine on a clock the
test moves, from Monday 2026-11-30 to Wednesday 2026-12-30 (so 2026-11-30 has left the
calendar's 28-day window and is offered for practice)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _game import Clock, solution_of
from _web import engine_games, live_server

from kakurolab.game import Credentials, GameService, Mode, NewGame

DAY = 24 * 3600
FIRST = "2026-11-30"
TODAY = "2026-12-30"


def solve(svc: GameService, clock: Clock, who: Credentials, game: str, step_s: float) -> None:
    for cell, digit in solution_of(svc, game).items():
        clock.advance(step_s)
        svc.act(game, who.token, {"kind": "place", "cell": cell, "digit": digit})


def race(svc: GameService, clock: Clock, winner: Credentials, *others: Credentials,
         step_s: float = 6) -> None:  # fmt: skip
    game = svc.create(winner.token, NewGame(Mode.ARENA)).game_id
    for other in others:
        svc.join(game, other.token)
    svc.act(game, winner.token, {"kind": "start"})
    solve(svc, clock, winner, game, step_s)
    svc.act(game, winner.token, {"kind": "submit"})


def day(svc: GameService, clock: Clock, who: Credentials, step_s: float,
        date: str | None = None) -> str:  # fmt: skip
    game = svc.create(who.token, NewGame(Mode.CAMPAIGN, date=date)).game_id
    solve(svc, clock, who, game, step_s)
    return game


def seed(svc: GameService, clock: Clock) -> dict[str, Any]:
    """The story (names are the players'): see the module doc."""
    ada, ben, cyd, bot, dee = (svc.register(n) for n in ("Ada", "Ben", "Cyd", "Bot", "Dee"))
    day(svc, clock, ada, 9)
    day(svc, clock, ben, 12)
    day(svc, clock, cyd, 12)
    day(svc, clock, bot, 0.05)  # under the human floor: flagged
    race(svc, clock, ada, ben)
    race(svc, clock, ben, cyd, step_s=8)
    clock.advance(2 * DAY)
    day(svc, clock, dee, 10, FIRST)  # two days late, while it is still played for a score
    clock.advance(28 * DAY)  # Wednesday 2026-12-30
    race(svc, clock, ada, dee)
    race(svc, clock, dee, ben, cyd, step_s=5)
    race(svc, clock, ada, cyd, step_s=7)
    day(svc, clock, dee, 8)
    day(svc, clock, ben, 11)
    running = svc.create(cyd.token, NewGame(Mode.CAMPAIGN)).game_id  # still playing today
    cell = next(iter(solution_of(svc, running)))
    svc.act(running, cyd.token, {"kind": "mark", "cell": cell, "digit": 5})
    return {"Dee": dee, "running": running}


@contextmanager
def standings_server(store: Path) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """(games, live server, the seeded players) on a fresh store."""
    clock = Clock()
    games = engine_games(store, clock=clock)
    seeded = seed(games.service, clock)
    with live_server(games) as live:
        yield games, live, seeded
    games.close()


def as_player(browser: Any, url: str, who: Credentials, **context: Any) -> Any:
    """A page signed in as an existing player: its identity put in the page's storage."""
    ctx = browser.new_context(**context)
    ids = {who.name: {"player_id": who.player_id, "token": who.token}}
    ctx.add_init_script(
        f"localStorage.setItem('kakuro.player', {repr_js(who.name)});"
        f"localStorage.setItem('kakuro.identities', {repr_js(ids)});"
        "localStorage.setItem('kakuro.guided', 'true');"
    )
    page = ctx.new_page()
    page.goto(url)
    return page


def repr_js(value: Any) -> str:
    import json

    return json.dumps(json.dumps(value))
