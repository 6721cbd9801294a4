"""A paused game and a finished one in Debian's chromium against the real engine (issue 45,
item 9): while paused and after the end no control of play is enabled (digits, tools,
shields, candidates, the Errors toggle, zoom while the board is covered); the end screen draws
the solution the finished view carries, the player's right digits as typed and every other
cell's solution digit in its own style, checked against the shipped file's published solution
(not the engine's).  PNG screenshots go to ``KAKURO_SHOTS`` when it names a directory."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from _web import (
    click_cell,
    name,
    page_seat,
    published_solution,
    settle,
    shared_server,
    shot,
    signed_in,
    start,
    view_puzzle,
)

from kakurolab.model import Cell
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser
S, M = 40, 2  # board.js: the cell side and the margin, in SVG user units


shared = shared_server("end")


def enabled_controls(page: Any) -> list[str]:
    """The visible, enabled buttons of the game page, by id or label."""
    found: list[str] = page.eval_on_selector_all(
        "#page-game button",
        """bs => bs.filter(b => !b.disabled && b.getClientRects().length)
                   .map(b => b.id || b.dataset.digit || b.dataset.shield)""",
    )
    return sorted(found)


def drawn_digits(page: Any) -> dict[Cell, tuple[str, str]]:
    """Cell -> (digit, class) of every big digit the board draws (not the pencil marks)."""
    texts = page.eval_on_selector_all(
        "#board text.digit",
        "ts => ts.map(t => [Number(t.getAttribute('x')), Number(t.getAttribute('y')),"
        " t.textContent, t.getAttribute('class')])",
    )
    out: dict[Cell, tuple[str, str]] = {}
    for x, y, digit, cls in texts:
        cell = (int((y - M) // S), int((x - M) // S))
        assert cell not in out, f"two digits drawn in {cell}"
        out[cell] = (digit, cls)
    return out


def test_no_control_of_play_is_enabled_while_paused(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = start(browser, url, "Pam")
    puzzle = view_puzzle(games.view(*page_seat(page)))
    cell = sorted(puzzle.whites)[0]
    click_cell(page, cell)
    page.keyboard.press("5")  # an undo step, so Undo is enabled before the pause
    settle(page)
    playing = enabled_controls(page)
    assert {"undo", "erase", "pencil", "5", "hint", "zoom-in"} <= set(playing), playing
    page.keyboard.press("Escape")
    page.wait_for_function("document.body.dataset.paused === 'true'")
    assert enabled_controls(page) == ["pause", "restart", "resume"]
    shot(page, "paused")
    page.keyboard.press("e")  # the Errors key does nothing either
    assert page.get_attribute("#errors", "aria-pressed") == "false"
    page.click("#resume")
    page.wait_for_function("document.body.dataset.paused === 'false'")
    assert enabled_controls(page) == playing
    page.context.close()


def test_the_end_screen_draws_the_solution_and_nothing_stays_playable(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = signed_in(browser, url, "Sol")
    page.goto(url + "/#/stats")  # registers the player
    page.wait_for_selector("#stats-summary dd")
    token = page.evaluate("JSON.parse(localStorage.getItem('kakuro.identities'))['Sol'].token")
    answer = httpx.post(
        f"{url}/api/games",
        json={"mode": "practice", "time_limit_s": 5},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    game = answer.json()
    page.goto(f"{url}/#/game/{game['game_id']}")
    page.wait_for_selector("#board rect.white")
    puzzle = view_puzzle(game)
    solution = published_solution(game["puzzle"]["id"])
    right, wrong = sorted(puzzle.whites)[:2]
    deadline = game["started_at"] + 5
    assert time.time() < deadline - 1.5, "the page opened too late to type before the end"
    click_cell(page, right)
    page.keyboard.press(str(solution[right]))
    click_cell(page, wrong)
    page.keyboard.press(str(solution[wrong] % 9 + 1))
    settle(page)
    assert page.locator("#board text.solution").count() == 0  # nothing before the end
    left_ms = max(1.0, (deadline + 2 - time.time()) * 1000)
    page.wait_for_selector("#score-card:not([hidden])", timeout=left_ms)
    view = games.view(*page_seat(page))
    assert view["phase"] == "finished" and view["solution"] is not None
    assert view["board"] == {name(right): solution[right], name(wrong): solution[wrong] % 9 + 1}
    drawn = drawn_digits(page)
    assert set(drawn) == set(puzzle.whites)  # every white cell has its digit
    for cell, (digit, cls) in drawn.items():
        assert digit == str(solution[cell]), cell
        assert ("solution" in cls.split()) == (cell != right), (cell, cls)
    # the wrong digit is kept, small and struck through, beside the solution's
    typed = page.locator(f'#board text.typed[data-r="{wrong[0]}"][data-c="{wrong[1]}"]')
    assert typed.text_content() == str(solution[wrong] % 9 + 1)
    cell_label = page.get_attribute(
        f'#board rect.white[data-r="{wrong[0]}"][data-c="{wrong[1]}"]', "aria-label"
    )
    assert cell_label and cell_label.endswith(
        f", solution {solution[wrong]}, you had {solution[wrong] % 9 + 1}"
    )
    assert "solution" in page.inner_text("#solution-note").lower()
    # nothing of play is left enabled: only a new game, the restart and the zoom
    assert enabled_controls(page) == ["restart", "zoom-fit", "zoom-in", "zoom-out"]
    said = page.inner_text("#message")
    click_cell(page, right)
    for key in ("Control+z", "Backspace", "3", "Shift+Digit3"):  # the keys send nothing
        page.keyboard.press(key)
        assert page.evaluate("document.body.dataset.pending || '0'") == "0", key
    assert page.inner_text("#message") == said
    shot(page, "end-solution")
    page.click("#replay-open")  # issue 50: the end screen links to the game's replay
    page.wait_for_function(f"document.body.dataset.replayTotal === '{view['version']}'")
    assert page.evaluate("location.hash") == f"#/replay/{game['game_id']}"
    page.goto(url + "/#/")  # and "My games" offers it beside the game
    page.wait_for_selector(f'#my-games a.replay-link[href="#/replay/{game["game_id"]}"]')
    page.context.close()
