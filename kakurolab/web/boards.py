"""The standings' routes: the daily Calendar leaderboard, the Arena leaderboard and the
Calendar archive (the engine's :mod:`kakurolab.game.standings` decides what they hold; these
only carry it).  Each needs a player's token, like every game route, and answers the
engine's JSON; a refusal (a malformed date, a future or unknown day: 400 or 404) goes
through the app's one error handler.

* ``GET /api/standings/calendar?date=YYYY-MM-DD`` (default today);
* ``GET /api/standings/arena?period=today|week|all`` (default ``week``);
* ``GET /api/calendar/archive?month=YYYY-MM`` (default this month).

A past day is played for practice by ``POST /api/games`` with ``{"mode": "practice",
"date": ...}``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .gateway import EngineGames

QUERY_MAX = 20
"""Characters of a query value passed on (a date, a month or a period is shorter)."""


def _games(request: Request) -> EngineGames:
    games: EngineGames = request.app.state.games
    return games


def _query(request: Request, name: str) -> str | None:
    value = request.query_params.get(name)
    return None if value is None else value[:QUERY_MAX]


async def calendar_board(request: Request) -> Response:
    games = _games(request)
    found = await games.call(games.service.day_board, request.state.token,
                             _query(request, "date"))  # fmt: skip
    return JSONResponse(found)


async def arena_board(request: Request) -> Response:
    games = _games(request)
    period = _query(request, "period") or "week"
    return JSONResponse(await games.call(games.service.arena_board, request.state.token, period))


async def archive(request: Request) -> Response:
    games = _games(request)
    found = await games.call(games.service.archive, request.state.token,
                             _query(request, "month"))  # fmt: skip
    return JSONResponse(found)


ROUTES = [
    Route("/api/standings/calendar", calendar_board),
    Route("/api/standings/arena", arena_board),
    Route("/api/calendar/archive", archive),
]
