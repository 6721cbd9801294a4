"""The HTTP API's OpenAPI document (served at ``/api/openapi.json``) and a fuzz of every
operation it lists with schemathesis (issue 45, "Also"): bodies valid and invalid by the
schema, on the real engine; no answer may be a 500 or carry a traceback.  Bounded: a few
dozen cases per operation, about ten seconds in all."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from _web import shipped
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from kakurolab.game import GameService, puzzles
from kakurolab.model import Puzzle, Solution
from kakurolab.web.app import create_app
from kakurolab.web.gateway import EngineGames, Makers
from kakurolab.web.limits import Limits, Rate
from kakurolab.web.protocol import SIZES, parse_new_game

OPEN = Rate(burst=10**6, per_minute=10**6)


def any_size(size: str, difficulty: str, seed: str | int) -> puzzles.Chosen:
    """Every size and difficulty at once from the shipped 8x8 set: the fuzz is of the web
    layer, and a real 20x20 generation per case would take the time of the whole suite."""
    found = shipped("8x8", difficulty) or shipped("8x8", "easy")
    puzzle = found[hash(str(seed)) % len(found)]
    solution = puzzle.meta["solution"]
    assert isinstance(solution, Solution)
    return puzzles.Chosen(Puzzle(puzzle.id, puzzle.grid), solution)


STORE = Path(tempfile.mkdtemp(prefix="kakuro-openapi-")) / "games.sqlite"
GAMES = EngineGames(
    GameService(STORE, chooser=any_size, fresh=any_size),
    makers=Makers(1, limits=Limits(register=OPEN, generate=OPEN, moves=OPEN, per_address=99)),
)
APP = create_app(GAMES)
TOKEN = GAMES.register("fuzz")["token"]
GAME = GAMES.create(TOKEN, parse_new_game({"mode": "practice"}))["game_id"]

schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP)


def test_the_document_lists_every_api_route() -> None:
    document = schema.raw_schema  # as the app served it
    routes = {r.path for r in APP.routes if r.path.startswith("/api/")}  # type: ignore[attr-defined]
    assert set(document["paths"]) == routes
    body = document["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/NewGameRequest"}
    new_game = document["components"]["schemas"]["NewGameRequest"]
    assert set(new_game["properties"]["size"]["enum"]) == set(SIZES)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_500_or_a_traceback(case: Any) -> None:
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = GAME  # a real game: moves reach the engine
    headers = {"Authorization": f"Bearer {TOKEN}"}
    response = case.call(headers=headers)
    case.validate_response(response, checks=[not_a_server_error])
    assert "Traceback" not in response.text, response.text
    if response.status_code >= 400:
        assert set(response.json()) == {"error"}, response.text
        assert "\n" not in response.json()["error"]
