"""Moves typed while the connection is down (issue 45, item 7), in Debian's chromium against
the real engine: a queued digit is in the undo history at once (Ctrl+Z typed offline takes it
back, not the digit before it) and still after a reload made while offline; a queued pencil
mark is drawn before the server has it, and a second press takes it off the drawing again.
The page is an installable app (issue 50): a web manifest Chromium accepts, and a service
worker that keeps the page's files, so a reload while the server is down shows the game with
its queued moves, sent once the server is back.
Every check of the game reads the engine's view with the page's own token."""

from __future__ import annotations

from typing import Any

import pytest
from _web import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveServer,
    click_cell,
    engine_games,
    game_of,
    name,
    new_game,
    page_seat,
    set_name,
    settle,
    shared_server,
    view_puzzle,
)

from kakurolab.model import Cell
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser


shared = shared_server("offline")


class Line:
    """A page whose socket to the server can be cut (the server unreachable) and restored."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.down = False
        self.sockets: list[Any] = []
        page.route_web_socket("**/ws", self.route)

    def route(self, ws: Any) -> None:
        if self.down:
            ws.close()
            return
        ws.connect_to_server()
        self.sockets.append(ws)

    def cut(self) -> None:
        self.down = True
        for ws in self.sockets:
            ws.close()
        self.page.wait_for_function("document.body.dataset.connection === 'down'")

    def restore(self) -> None:
        self.down = False
        self.page.wait_for_function("document.body.dataset.connection === 'up'", timeout=10000)
        settle(self.page)


def opened(browser: Any, url: str, player: str) -> tuple[Any, Line]:
    context = browser.new_context()
    page = context.new_page()
    line = Line(page)
    page.goto(url)
    set_name(page, player)
    new_game(page, url)
    return page, line


def board(games: EngineGames, page: Any) -> dict[str, int]:
    return dict(games.view(*page_seat(page))["board"])


def second_digit_offline(
    browser: Any, shared: tuple[EngineGames, str], player: str
) -> tuple[Any, Line, Cell, Cell, dict[Cell, int]]:
    """A new game of ``player`` with the right digit of its first white cell ``a`` typed and
    answered, then the line cut and the right digit of the second, ``b``, typed (queued):
    (page, line, a, b, solution)."""
    games, url = shared
    page, line = opened(browser, url, player)
    _, puzzle, solution = game_of(games, page)
    a, b = sorted(puzzle.whites)[:2]
    click_cell(page, a)
    page.keyboard.press(str(solution[a]))
    settle(page)
    line.cut()
    click_cell(page, b)
    page.keyboard.press(str(solution[b]))
    return page, line, a, b, solution


def test_a_digit_typed_offline_is_in_the_undo_history_after_a_reload(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, _ = shared
    page, line, a, b, solution = second_digit_offline(browser, shared, "Una")
    page.reload()  # while still offline
    page.wait_for_load_state()
    line.restore()
    page.wait_for_selector("#board rect.white")
    assert board(games, page) == {name(a): solution[a], name(b): solution[b]}
    # the queued digit is the newest step of the history: undone first, then a
    page.keyboard.press("Control+z")
    settle(page)
    assert board(games, page) == {name(a): solution[a]}
    page.keyboard.press("Control+z")
    settle(page)
    assert board(games, page) == {}
    page.keyboard.press("Control+y")
    settle(page)
    assert board(games, page) == {name(a): solution[a]}
    page.context.close()


def test_undo_typed_offline_takes_back_the_queued_digit(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, _ = shared
    page, line, a, b, solution = second_digit_offline(browser, shared, "Udo")
    page.keyboard.press("Control+z")  # before the server ever heard of b
    digits = page.locator("#board text.digit").all_text_contents()
    assert digits == [str(solution[a])], digits  # b went, a stayed
    page.keyboard.press("Control+y")
    line.restore()
    assert board(games, page) == {name(a): solution[a], name(b): solution[b]}
    page.context.close()


def test_a_pencil_mark_typed_offline_is_drawn(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page, line = opened(browser, url, "Mae")
    puzzle = view_puzzle(games.view(*page_seat(page)))
    cell, other = sorted(puzzle.whites)[:2]
    click_cell(page, cell)
    page.keyboard.press("Shift+Digit4")
    settle(page)
    line.cut()
    page.keyboard.press("Shift+Digit3")
    page.keyboard.press("Shift+Digit7")
    page.keyboard.press("Shift+Digit4")  # a toggle: the 4 the server has goes off
    marks = page.locator("#board text.mark")
    assert sorted(marks.all_text_contents()) == ["3", "7"]
    rect = page.locator(f'#board rect.white[data-r="{cell[0]}"][data-c="{cell[1]}"]')
    where = rect.bounding_box()
    for mark in marks.all():
        spot = mark.bounding_box()
        assert where and spot
        assert where["x"] <= spot["x"] + spot["width"] / 2 <= where["x"] + where["width"]
        assert where["y"] <= spot["y"] + spot["height"] / 2 <= where["y"] + where["height"]
    label = rect.get_attribute("aria-label") or ""
    assert label.endswith("empty, pencil 3 7"), label
    assert games.view(*page_seat(page))["marks"] == {name(cell): [4]}  # not sent yet
    click_cell(page, other)
    page.keyboard.press("Shift+Digit2")
    assert sorted(marks.all_text_contents()) == ["2", "3", "7"]
    line.restore()
    assert games.view(*page_seat(page))["marks"] == {name(cell): [3, 7], name(other): [2]}
    assert sorted(marks.all_text_contents()) == ["2", "3", "7"]
    page.context.close()


# --- the installable app (issue 50 §1): a web manifest, a service worker, a reload offline ----


def controlled(page: Any) -> None:
    """Wait until the service worker controls the page and has the page's files cached."""
    page.wait_for_function("document.body.dataset.offline === 'ready'", timeout=10000)


def test_the_page_is_an_installable_app(
    browser: Any, shared: tuple[EngineGames, str], tmp_path: Any
) -> None:
    _, url = shared
    # a profile of its own (a plain context is incognito, where Chromium installs nothing)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    page = context.new_page()
    page.goto(url)
    controlled(page)
    href = page.get_attribute('link[rel="manifest"]', "href")
    manifest = page.evaluate("async (href) => (await fetch(href)).json()", href)
    assert manifest["name"] == "Kakuro Master" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["icons"]
    for icon in manifest["icons"]:
        kind = page.evaluate(
            "async (src) => { const r = await fetch(src);"
            " return r.ok && r.headers.get('content-type'); }",
            icon["src"],
        )
        assert kind == icon["type"], (icon, kind)
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors  # Chromium's own verdict: the page can be installed
    context.close()


def test_a_reload_during_an_outage_shows_the_game_and_its_queued_moves(
    browser: Any, tmp_path: Any
) -> None:
    games = engine_games(tmp_path / "games.sqlite")
    first = LiveServer(games).start()
    url, port = first.url, first.port
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    set_name(page, "Otto")
    new_game(page, url)
    controlled(page)
    _, puzzle, solution = game_of(games, page)
    a, b = sorted(puzzle.whites)[:2]
    click_cell(page, a)
    page.keyboard.press(str(solution[a]))
    settle(page)
    first.stop()  # the outage: nothing answers on the port
    page.wait_for_function("document.body.dataset.connection === 'down'")
    click_cell(page, b)
    page.keyboard.press(str(solution[b]))  # queued
    page.reload()
    page.wait_for_selector("#board rect.white")  # the game, from what the page kept
    digits = sorted(page.locator("#board text.digit").all_text_contents())
    assert digits == sorted([str(solution[a]), str(solution[b])]), digits
    assert page.evaluate("document.body.dataset.pending") == "1"
    assert "1 move(s) queued" in page.inner_text("#message")
    second = LiveServer(games, port=port).start()  # back: the queued move is sent
    try:
        page.wait_for_function("document.body.dataset.connection === 'up'", timeout=10000)
        settle(page)
        assert board(games, page) == {name(a): solution[a], name(b): solution[b]}
    finally:
        context.close()
        second.stop()
        games.close()
