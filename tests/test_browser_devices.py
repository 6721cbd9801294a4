"""Across devices in Debian's chromium (issue 50): two browser contexts are two devices.
Device 1 plays, makes a sign-in code; device 2 opens its link, is the same player, sees the
game in My games (from the server) and continues it; device 1 revokes device 2, whose open
game is told at once and whose next call is refused.  A game started in the terminal shows
in the browser's My games once the terminal's player is linked by a code."""

from __future__ import annotations

from typing import Any

import pytest
from _web import click_cell, game_of, new_game, page_seat, set_name, settle, shot

from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser


def _code(page: Any) -> str:
    page.click("#devices-make")
    page.wait_for_selector("#devices-new:not([hidden])")
    link = page.input_value("#devices-link")
    code = page.inner_text("#devices-code")
    assert link.endswith(f"/#/signin/{code}")
    return code


def test_a_second_device_continues_and_is_revoked(
    browser: Any, server: tuple[EngineGames, str]
) -> None:
    games, url = server
    one = browser.new_context().new_page()
    one.goto(url)
    set_name(one, "Dora")
    new_game(one, url)
    _, puzzle, solution = game_of(games, one)
    game_id, token_one = page_seat(one)
    first, second = sorted(puzzle.whites)[:2]
    click_cell(one, first)
    one.keyboard.press(str(solution[first]))
    settle(one)
    one.goto(f"{url}/#/")
    code = _code(one)

    two = browser.new_context().new_page()  # another device: nothing in common but the link
    two.goto(f"{url}/#/signin/{code}")
    two.click("#signin-go")
    two.wait_for_selector(f'#my-games a[href="#/game/{game_id}"]')
    assert two.input_value("#player-name") == "Dora"
    _, token_two = page_seat_of(two)
    assert token_two != token_one
    assert games.service.whoami(token_two) == games.service.whoami(token_one)
    # device 2 continues the game device 1 started
    two.click(f'#my-games a[href="#/game/{game_id}"]')
    two.wait_for_selector("#board rect.white")
    click_cell(two, second)
    two.keyboard.press(str(solution[second]))
    settle(two)
    board = games.view(game_id, token_one)["board"]
    assert board == {f"r{first[0] + 1}c{first[1] + 1}": solution[first],
                     f"r{second[0] + 1}c{second[1] + 1}": solution[second]}  # fmt: skip
    # the code is spent: opening the link again is refused in one line
    three = browser.new_context().new_page()
    three.goto(f"{url}/#/signin/{code}")
    three.click("#signin-go")
    three.wait_for_function(
        "/used already/.test(document.querySelector('#signin-message').textContent)")

    # device 1 lists both devices and revokes device 2
    one.goto(f"{url}/#/")
    one.reload()
    one.wait_for_selector("#devices-list li >> nth=1")
    items = one.locator("#devices-list li")
    assert "this device" in items.nth(0).inner_text()
    shot(one, "web-devices")
    one.locator("#devices-list li", has_text="Chrome on Linux").locator("button.revoke").click()
    one.wait_for_selector("#devices-list .revoked")
    # device 2's open game is told at once, and the server refuses its token
    two.wait_for_function("/signed out/.test(document.querySelector('#message').textContent)")
    two.goto(f"{url}/#/")
    two.wait_for_function("document.querySelector('#devices').dataset.state === 'refused'")
    assert "signed out" in two.inner_text("#devices-status")
    assert games.view(game_id, token_one)["board"] == board  # device 1 is untouched


def page_seat_of(page: Any) -> tuple[str, str]:
    """(player name, token) of the page's current player."""
    name = page.evaluate("JSON.parse(localStorage.getItem('kakuro.player'))")
    ids = page.evaluate("JSON.parse(localStorage.getItem('kakuro.identities'))")
    return name, ids[name]["token"]


def test_a_terminal_game_shows_in_the_browser_once_linked(
    browser: Any, server: tuple[EngineGames, str]
) -> None:
    games, url = server
    service = games.service
    terminal = service.local_player("erin")  # what `kakuro play new --player erin` uses
    from kakurolab.game import Mode, NewGame

    game_id = service.create(terminal.token, NewGame(Mode.PRACTICE)).game_id
    code = service.accounts.make_code(terminal.token).code  # `kakuro play link --player erin`
    page = browser.new_context().new_page()
    page.goto(url)
    page.fill("#devices-redeem input[name=code]", code)
    page.click("#devices-redeem button[type=submit]")
    page.wait_for_selector(f'#my-games a[href="#/game/{game_id}"]')
    assert page.input_value("#player-name") == terminal.name
