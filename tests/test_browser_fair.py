"""The page reads the engine's facts (issue 45 items 1 and 9, issue 46 section 4): Restart is
hidden where the view's ``rules.restart`` is false, the end screen's reasons and tie-breaks
are the engine's words, and games started in the terminal appear in "My games"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _web import (
    click_cell,
    game_of,
    page_seat,
    served,
    settle,
    start,
)

from kakurolab.game import Mode, NewGame

pytestmark = pytest.mark.browser


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Any]:
    with served(tmp_path / "games.sqlite") as (_, server):
        yield server


def test_terminal_games_appear_in_my_games(browser: Any, live: Any) -> None:
    """A game made by ``kakuro play new`` (the local player) is listed once the page signs in
    as that player (the sign-in link ``serve`` opens)."""
    service = live.games.service
    terry = service.local_player("Terry")
    made = service.create(terry.token, NewGame(Mode.PRACTICE))
    code = live.app.state.logins.add(terry.name, terry.player_id, terry.token)
    page = browser.new_context().new_page()
    page.goto(f"{live.url}/login/{code}")
    page.wait_for_selector(f'#my-games a[href="#/game/{made.game_id}"]')
    assert "practice 8x8" in page.inner_text("#my-games")


def test_a_race_page_hides_restart_and_shows_the_engines_words(browser: Any, live: Any) -> None:
    games, url = live.games, live.url
    ann = start(browser, url, "Ann", mode="arena")
    assert ann.locator("#restart").is_hidden()
    assert ann.locator("#submit").is_visible()  # rules.needs_submit
    assert ann.locator("#errors").is_hidden()  # rules.competitive
    practice = start(browser, url, "Pia", mode="practice")
    assert practice.locator("#restart").is_visible() and practice.locator("#submit").is_hidden()
    _, puzzle, solution = game_of(games, practice)
    whites = sorted(puzzle.whites)
    click_cell(practice, whites[0])
    practice.keyboard.press(str(solution[whites[0]] % 9 + 1))  # one illegal entry
    practice.keyboard.press("Backspace")  # erased: a shield refuses a board that breaks a rule
    settle(practice)
    practice.click('[data-shield="hint"]')
    practice.wait_for_function("document.querySelector('#shield-count').innerText === '2'")
    settle(practice)
    for cell in whites:
        click_cell(practice, cell)
        practice.keyboard.press(str(solution[cell]))
    settle(practice)
    practice.wait_for_function("document.body.dataset.phase === 'finished'")
    final = games.view(*page_seat(practice))
    shown = practice.locator("#score-reasons li").all_inner_texts()
    assert shown == [r["text"] for r in final["reasons"]]
    assert any("1 Logic Shield spent and 1 illegal entry" in r for r in shown), shown
