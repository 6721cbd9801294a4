"""Fair competition: calendar, Arena and Battle puzzles come from the server's secret (a
random value made on first use and kept in the store), generated fresh, so a player holding
the package finds them in no shipped file, under none of the 16 symmetries, and cannot
compute a future calendar day offline.  Arena plays with permanent placement by default."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import httpx
from _game import START
from _web import live_server, view_puzzle

from kakurolab.formats import load
from kakurolab.game import GameService, Mode, NewGame
from kakurolab.generator.transforms import all_transforms, transform_puzzle
from kakurolab.model import Puzzle
from kakurolab.web import protocol
from kakurolab.web.gateway import EngineGames, Makers

DATA = Path(__file__).resolve().parents[1] / "kakurolab" / "data"


@functools.cache
def shipped_grids() -> frozenset[tuple[object, ...]]:
    """The grid of every standard puzzle the package ships (bank, generated sets, samples)."""
    grids = set()
    for path in sorted(DATA.rglob("*.kakuro")):
        for puzzle in load(path):
            if not puzzle.is_cryptic:
                grids.add(puzzle.grid)
    return frozenset(grids)


def variants(puzzle: Puzzle) -> set[tuple[object, ...]]:
    return {transform_puzzle(puzzle, t).grid for t in all_transforms()}


def test_the_check_finds_a_shipped_variant() -> None:
    """The check below can fail: a bank puzzle turned and complemented is found."""
    from kakurolab import bank

    drawn = bank.pick("8x8", "easy", seed=7).puzzle
    assert variants(drawn) & shipped_grids()


def test_competitive_and_calendar_puzzles_are_in_no_shipped_file(tmp_path: Path) -> None:
    games = EngineGames(GameService(tmp_path / "games.sqlite"), makers=Makers(1))
    with live_server(games) as live, httpx.Client(base_url=live.url, timeout=120) as http:
        token = http.post("/api/players", json={"name": "p"}).json()["token"]
        me = {"Authorization": f"Bearer {token}"}
        monday = dt.date.today() - dt.timedelta(days=dt.date.today().weekday())  # 8x8 easy
        made = {}
        for new in ({"mode": "arena"}, {"mode": "battle"},
                    {"mode": "campaign", "date": monday.isoformat()}):  # fmt: skip
            answer = http.post("/api/games", json=new, headers=me)
            assert answer.status_code == 201, answer.text
            made[new["mode"]] = answer.json()
        practice = http.post("/api/games", json={"mode": "practice"}, headers=me).json()
    games.close()
    for mode, view in made.items():
        assert view["spec"]["source"] == "secret" and view["spec"]["seed"] is None, mode
        assert not variants(view_puzzle(view)) & shipped_grids(), mode
    assert made["arena"]["spec"]["options"]["permanent"] is True  # the rulebook's default
    assert practice["spec"]["source"] == "bank"  # practice may come from the bank
    assert variants(view_puzzle(practice)) & shipped_grids()


def test_a_calendar_day_depends_on_the_server_secret(tmp_path: Path) -> None:
    """Two servers (two stores, two secrets) give the same date different puzzles, and one
    server gives every player the same one (kept, not made again)."""
    def calendar(store: Path, *names: str) -> list[object]:
        service = GameService(store, clock=lambda: START)  # the date stays open (the archive)
        grids = []
        for name in names:
            token = service.register(name).token
            view = service.create(token, NewGame(Mode.CAMPAIGN, date="2026-11-30"))
            grids.append(view.to_json()["puzzle"]["grid"])
        service.close()
        return grids

    first = calendar(tmp_path / "a.sqlite", "ann", "bob")
    second = calendar(tmp_path / "b.sqlite", "cat")
    assert first[0] == first[1]
    assert second[0] != first[0]


def test_arena_defaults_to_permanent_placement() -> None:
    assert protocol.parse_new_game({"mode": "arena"}).options.permanent is True
    assert protocol.parse_new_game({"mode": "arena", "permanent": False}).options.permanent is False
    assert protocol.parse_new_game({"mode": "practice"}).options.permanent is False
    assert protocol.parse_new_game({"mode": "battle"}).options.permanent is False  # always verified


def test_the_calendar_is_made_ahead(tmp_path: Path) -> None:
    """The server makes today's and tomorrow's calendar puzzles before anyone asks; a player
    then gets the kept grid without a generation."""
    import asyncio

    from _web import shipped_chooser

    asked: list[str] = []

    def chooser(size: str, difficulty: str, seed: str | int) -> object:
        asked.append(size)
        return shipped_chooser(size, difficulty, seed)

    games = EngineGames(GameService(tmp_path / "g.sqlite", chooser=chooser))  # type: ignore[arg-type]
    assert asyncio.run(games.calendar_ahead()) == 2
    made = len(asked)  # a day's maker may draw several seeds until its grade fits the day
    assert made >= 2
    assert asyncio.run(games.calendar_ahead()) == 0  # kept: nothing to make again
    assert len(asked) == made
    token = games.register("ann")["token"]
    view = games.service.create(token, NewGame(Mode.CAMPAIGN))
    assert len(asked) == made and view.spec["source"] == "secret"
    games.close()


def test_the_terminal_arena_is_permanent_by_default(tmp_path: Path) -> None:
    from test_web_serve import play

    assert play(tmp_path, "new", "--mode", "arena")["spec"]["options"]["permanent"] is True
    off = play(tmp_path, "new", "--mode", "arena", "--no-permanent")
    assert off["spec"]["options"]["permanent"] is False
    assert play(tmp_path, "new")["spec"]["options"]["permanent"] is False
