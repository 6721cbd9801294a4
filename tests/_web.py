"""Test support for the web layer: the real engine on a scratch store with a fast puzzle
chooser (the shipped generated sets), a real uvicorn server in a thread (port 0, so tests
never collide) and Debian's chromium driven by Playwright (its own download is not used)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from kakurolab.formats import load
from kakurolab.game import GameService, puzzles
from kakurolab.model import Cell, Puzzle, Solution
from kakurolab.web.app import create_app
from kakurolab.web.gateway import EngineGames, Makers, default_workers
from kakurolab.web.limits import Limits, Rate
from kakurolab.web.server import listening_socket, uvicorn_config

GENERATED = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "generated"
SHOTS = os.environ.get("KAKURO_SHOTS")
"""Where the browser tests save their screenshots (none when unset)."""


@functools.cache
def shipped(size: str, difficulty: str) -> list[Puzzle]:
    path = GENERATED / f"standard-{size}-{difficulty}.kakuro"
    return load(path) if path.exists() else []


def shipped_chooser(size: str, difficulty: str, seed: str | int) -> puzzles.Chosen:
    """The engine's chooser contract over the shipped generated sets, instant as the
    verified bank is meant to be: their published solutions are proven unique by
    tests/test_shipped_sets.py.  Other sizes go to the engine's own chooser."""
    found = shipped(size, difficulty)
    if not found:
        return puzzles.choose(size, difficulty, seed)
    puzzle = found[zlib.crc32(str(seed).encode()) % len(found)]
    solution = puzzle.meta["solution"]
    assert isinstance(solution, Solution)
    return puzzles.Chosen(Puzzle(puzzle.id, puzzle.grid), solution)


def published_solution(puzzle_id: str) -> dict[Cell, int]:
    """The solution the shipped file publishes for a puzzle id (independent of the engine)."""
    for path in GENERATED.glob("standard-*.kakuro"):
        for puzzle in load(path):
            if puzzle.id == puzzle_id:
                solution = puzzle.meta["solution"]
                assert isinstance(solution, Solution)
                return dict(solution.values)
    raise KeyError(puzzle_id)


ONE_ADDRESS = Limits(
    register=Rate(10_000, 60_000), generate=Rate(10_000, 60_000), moves=Rate(10_000, 600_000),
    per_address=64, sockets_per_address=10_000,
)
"""The per-address limits opened up: every player of a test comes from 127.0.0.1, where a
public server would see many addresses (tests/test_web_limits.py tries the defaults)."""


def engine_games(store: Path, **options: Any) -> EngineGames:
    return EngineGames(GameService(store, chooser=shipped_chooser, **options),
                       makers=Makers(default_workers(), limits=ONE_ADDRESS))  # fmt: skip


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu"]


class LiveServer:
    def __init__(self, games: EngineGames, *, poll_s: float = 0.2, port: int = 0) -> None:
        self.games = games
        self.app = create_app(games, poll_s=poll_s)
        sock = listening_socket("127.0.0.1", port)
        self.port = sock.getsockname()[1]
        self.sock = sock
        config = uvicorn_config(self.app, games.makers.limits, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            assert self.thread.is_alive(), "the web server thread died"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@contextmanager
def live_server(games: EngineGames, **options: Any) -> Iterator[LiveServer]:
    server = LiveServer(games, **options).start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def served(store: Path) -> Iterator[tuple[EngineGames, LiveServer]]:
    """The real engine on a scratch store behind a live server, closed after."""
    games = engine_games(store)
    with live_server(games) as live:
        yield games, live
    games.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def with_players(
    store: Path, names: tuple[str, ...], *, timeout: float
) -> Iterator[tuple[EngineGames, LiveServer, httpx.Client, dict[str, str]]]:
    """:func:`served`, with an HTTP client and the named players registered: (games, server,
    client, name -> token)."""
    with served(store) as (games, live), httpx.Client(base_url=live.url, timeout=timeout) as http:
        tokens = {
            who: http.post("/api/players", json={"name": who}).json()["token"] for who in names
        }
        yield games, live, http, tokens


def shared_server(label: str) -> Any:
    """A test module's one server, as its module-scoped fixture ``shared``: (games, url).
    Each test plays under its own player name, so they can share it."""

    @pytest.fixture(scope="module", name="shared")
    def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EngineGames, str]]:
        with served(tmp_path_factory.mktemp(label) / "games.sqlite") as (games, live):
            yield games, live.url

    return shared


def launch(playwright: Any) -> Any:
    """Debian's chromium (installed by .ci/run when missing) under Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def ws_exchange(url: str, messages: list[Any], *, replies: int | None = None) -> list[dict]:
    """Send raw messages on one socket and collect the JSON replies (sync websockets client)."""
    from websockets.sync.client import connect

    out: list[dict] = []
    with connect(url, max_size=None) as ws:
        for message in messages:
            ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
        want = len(messages) if replies is None else replies
        while len(out) < want:
            out.append(json.loads(ws.recv(timeout=10)))
    return out


def page_seat(page: Any) -> tuple[str, str]:
    """(game id, player token) of the game a page shows, read from the page itself."""
    game_id = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    name = page.evaluate("JSON.parse(localStorage.getItem('kakuro.player'))")
    ids = page.evaluate("JSON.parse(localStorage.getItem('kakuro.identities'))")
    return game_id, ids[name]["token"]


def frames(page: Any) -> list[str]:
    """Every WebSocket frame the page receives, in order (to audit what reached it)."""
    seen: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(str(f))))
    return seen


def box(locator: Any) -> dict[str, float]:
    """The bounding box of a board element.  The board is redrawn whole on every view, so the
    node found can be replaced before it is measured (``None``): look again."""
    for _ in range(100):
        found = locator.bounding_box()
        if found is not None:
            return dict(found)
        locator.page.wait_for_timeout(20)
    raise AssertionError(f"{locator} never had a box")


def shot(page: Any, what: str) -> None:
    """Save the whole page as ``what``.png under ``KAKURO_SHOTS``, when it names a folder
    (docs/web.md: the screenshots a reviewer looks at)."""
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{what}.png"), full_page=True)


def settle(page: Any) -> None:
    """Wait until every move the page sent is answered."""
    page.wait_for_function("(document.body.dataset.pending || '0') === '0'")


def set_name(page: Any, name: str) -> None:
    page.fill("#player-name", name)
    page.press("#player-name", "Enter")


def signed_in(browser: Any, url: str, player: str, **context: Any) -> Any:
    """A page of a fresh browser context (``context``: its options, as for new_context) on
    the start page, named ``player``."""
    page = browser.new_context(**context).new_page()
    page.goto(url)
    set_name(page, player)
    return page


def start(browser: Any, url: str, player: str, *, viewport: Any = None, **options: Any) -> Any:
    """A fresh page where ``player`` has started a new game (``options`` as for new_game)."""
    page = signed_in(browser, url, player, viewport=viewport)
    new_game(page, url, **options)
    return page


def started(
    browser: Any, games: EngineGames, url: str, player: str, **options: Any
) -> tuple[Any, Puzzle, dict[Cell, int]]:
    """:func:`start`, with the puzzle of the new game and its published solution (as
    :func:`game_of`): (page, puzzle, solution)."""
    page = start(browser, url, player, **options)
    _, puzzle, solution = game_of(games, page)
    return page, puzzle, solution


def game_of(games: EngineGames, page: Any) -> tuple[dict[str, Any], Puzzle, dict[Cell, int]]:
    """The engine's view of the game a page shows (with the page's own token), its puzzle and
    the solution the shipped file publishes for it."""
    view = games.view(*page_seat(page))
    return view, view_puzzle(view), published_solution(view["puzzle"]["id"])


def join(page: Any, url: str, player: str, code: str) -> None:
    """``player`` joins the room ``code`` from the start page, and sees its board."""
    page.goto(url)
    set_name(page, player)
    page.fill("#join-game input[name=code]", code)
    page.click("#join")
    page.wait_for_selector("#board rect.white")


def new_game(
    page: Any,
    url: str,
    *,
    mode: str = "practice",
    size: str = "8x8",
    difficulty: str = "easy",
    permanent: bool = False,
    shields: int = 3,
) -> None:
    page.goto(url)
    page.fill("#new-game input[name=shields]", str(shields))
    page.select_option("#new-game select[name=mode]", mode)
    page.select_option("#new-game select[name=size]", size)
    page.select_option("#new-game select[name=difficulty]", difficulty)
    if permanent:
        page.check("#new-game input[name=permanent]")
    page.click("#start")
    page.wait_for_selector("#board rect.white")


def view_puzzle(view: dict[str, Any]) -> Puzzle:
    """The puzzle a view shows, read back from its grid tokens (the kakuro format's)."""
    from kakurolab.formats import loads

    text = "\n".join(" ".join(row) for row in view["puzzle"]["grid"])
    (puzzle,) = loads(text, format="kakuro")
    return puzzle


ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def arrow_keys(puzzle: Puzzle, start: Cell, target: Cell) -> list[str]:
    """The shortest sequence of arrow keys from one white cell to another, where an arrow
    jumps to the next white cell in its direction (as the board does)."""
    whites = set(puzzle.whites)

    def step(cell: Cell, dr: int, dc: int) -> Cell:
        r, c = cell
        while 0 <= r + dr < puzzle.nrows and 0 <= c + dc < puzzle.ncols:
            r, c = r + dr, c + dc
            if (r, c) in whites:
                return (r, c)
        return cell

    paths: dict[Cell, list[str]] = {start: []}
    frontier = [start]
    while frontier and target not in paths:
        following = []
        for cell in frontier:
            for key, (dr, dc) in ARROWS.items():
                nxt = step(cell, dr, dc)
                if nxt not in paths:
                    paths[nxt] = [*paths[cell], key]
                    following.append(nxt)
        frontier = following
    return paths[target]


def selected(page: Any) -> Cell:
    sel = page.locator("#board rect.selected")
    return int(sel.get_attribute("data-r")), int(sel.get_attribute("data-c"))


def click_cell(page: Any, cell: Cell) -> None:
    page.locator(f'#board rect.white[data-r="{cell[0]}"][data-c="{cell[1]}"]').click()


def name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def play_out_against_computer(
    page: Any,
    games: EngineGames,
    puzzle: Puzzle,
    solution: dict[Cell, int],
    each_turn: Callable[[dict[str, Any]], None] = lambda view: None,
) -> dict[str, Any]:
    """Play the page's side of a Battle against the computer to its end: on each of its
    turns, the first empty cell's published digit, typed.  ``each_turn`` sees the engine's
    view before each move (to check the page, or take a picture); the final view returned."""
    while True:
        page.wait_for_function(
            "document.body.dataset.phase === 'finished' || "
            "document.querySelector('#turn').innerText === 'Your turn'"
        )
        seen = games.view(*page_seat(page))
        if seen["phase"] == "finished":
            return seen
        each_turn(seen)
        cell = next(c for c in sorted(puzzle.whites) if name(c) not in seen["board"])
        click_cell(page, cell)
        page.keyboard.press(str(solution[cell]))
        settle(page)
