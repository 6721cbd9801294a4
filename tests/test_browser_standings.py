"""The standings pages in Debian's chromium against the real engine (issue 50 §1): a
calendar day's leaderboard (ranked, late and flagged results apart, the player's own row
marked, nothing of the grid on the page), the Arena leaderboard by period, and the calendar
archive, whose old day opens as a practice game on the very puzzle kept on its day.  PNG
screenshots go to ``KAKURO_SHOTS`` when it names a directory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _game import solution_of
from _standings import FIRST, TODAY, as_player, standings_server
from _web import shot

from kakurolab.game import calendar as cal

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    with standings_server(tmp_path_factory.mktemp("standings") / "games.sqlite") as made:
        yield made


def rows(page: Any, table: str) -> list[tuple[str, str]]:
    return [(tr.get_attribute("data-player"), tr.get_attribute("data-rank"))
            for tr in page.locator(f"{table} tbody tr[data-player]").all()]  # fmt: skip


def loaded(page: Any, what: str) -> None:
    page.wait_for_function(f"document.body.dataset.standings === {what!r}")


def test_a_days_leaderboard_ranks_and_sets_apart(browser: Any, site: Any) -> None:
    games, live, seeded = site
    page = as_player(browser, f"{live.url}/#/standings/day/{FIRST}", seeded["Dee"],
                     viewport={"width": 1100, "height": 900})  # fmt: skip
    loaded(page, f"{FIRST} week")
    assert rows(page, "#board-ranked") == [("Ada", "1"), ("Ben", "2"), ("Cyd", "2")]
    assert rows(page, "#board-late") == [("Dee", "")]
    assert page.locator("#board-late tr.me").count() == 1  # the player's own row
    assert rows(page, "#board-flagged") == [("Bot", "")]
    assert page.is_visible("#board-flagged") and "⚑" in page.inner_text("#board-flagged")
    assert "Human floor" in page.inner_text("#day-note")
    # today: still open, only finished games (Cyd is still playing)
    page.click("#day-next")  # the day after: nobody played it
    loaded(page, "2026-12-01 week")
    assert "Nobody has solved" in page.inner_text("#board-ranked")
    page.goto(f"{live.url}/#/standings")
    loaded(page, "today week")
    assert rows(page, "#board-ranked") == [("Dee", "1"), ("Ben", "2")]
    assert page.locator("#board-ranked tr.me").get_attribute("data-player") == "Dee"
    assert "still open" in page.inner_text("#day-note")
    html = page.content()
    running = solution_of(games.service, seeded["running"])
    assert "".join(str(d) for d in running.values()) not in html
    assert "Cyd" not in page.inner_text("#day-card")
    shot(page, "standings")
    page.context.close()


def test_the_arena_leaderboard_by_period(browser: Any, site: Any) -> None:
    _, live, seeded = site
    page = as_player(browser, f"{live.url}/#/standings", seeded["Dee"])
    loaded(page, "today week")
    week = rows(page, "#arena-board")  # Monday 2026-12-28 to today
    assert week[0] == ("Ada", "1") and ("Dee", "2") in week
    page.click('#arena-periods a[data-period="all"]')
    loaded(page, "today all")
    every = dict(rows(page, "#arena-board"))
    # Ada 3 wins; Dee and Ben 1 each, Dee's faster (a larger speed bonus): more points
    assert (every["Ada"], every["Dee"], every["Ben"], every["Cyd"]) == ("1", "2", "3", "4")
    wins = page.locator('#arena-board tr[data-player="Ada"] td').nth(2).inner_text()
    assert wins == "3"
    page.click('#arena-periods a[data-period="today"]')
    loaded(page, "today today")
    assert "Ben" in dict(rows(page, "#arena-board"))
    assert page.get_attribute('#arena-periods a[data-period="today"]', "aria-current") == "true"
    page.context.close()


def test_the_archive_opens_an_old_day_for_practice(browser: Any, site: Any) -> None:
    games, live, seeded = site
    page = as_player(browser, f"{live.url}/#/calendar/archive", seeded["Dee"],
                     viewport={"width": 1100, "height": 1000})  # fmt: skip
    page.wait_for_function("document.body.dataset.archive === '2026-12'")
    days = page.locator("#archive-days li")
    dates = [li.get_attribute("data-date") for li in days.all()]
    assert dates[0] == TODAY and dates[-1] == "2026-12-01"  # newest first, nothing ahead
    states = {li.get_attribute("data-date"): li.get_attribute("data-state") for li in days.all()}
    assert states[TODAY] == "today" and states["2026-12-02"] == "live"  # 28 days ago
    assert states["2026-12-01"] == "unmade"  # over, and nobody ever made its puzzle
    shot(page, "archive")
    page.click("#archive-prev")
    page.wait_for_function("document.body.dataset.archive === '2026-11'")
    assert page.is_hidden("#archive-prev")  # the server's first month
    old = page.locator(f'#archive-days li[data-date="{FIRST}"]')
    assert old.get_attribute("data-state") == "practice"
    assert "4 solved on the day" in old.inner_text()  # Bot's flagged solve too
    assert "you: " in old.inner_text()  # Dee's late solve
    old.locator('button[data-play="practice"]').click()
    page.wait_for_function("location.hash.startsWith('#/game/')")
    page.wait_for_selector("#board rect.white")
    game_id = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    view = games.service._game(game_id)
    assert view.spec.mode.value == "practice" and view.spec.source == "archive"
    kept = games.service.store.cached_puzzle(cal.seed_of(cal.parse_date(FIRST)))
    assert kept is not None and view.puzzle.grid == _grid(kept)
    page.goto(f"{live.url}/#/calendar/archive/2027-01")  # a month not out yet
    page.wait_for_function("document.querySelector('#archive-message').textContent !== ''")
    assert "has no day" in page.inner_text("#archive-message")
    page.context.close()


def _grid(text: str) -> Any:
    from kakurolab.formats import loads

    (puzzle,) = loads(text, format="kakuro")
    return puzzle.grid


def test_the_standings_link_is_in_the_header(browser: Any, site: Any) -> None:
    _, live, seeded = site
    page = as_player(browser, live.url, seeded["Dee"])
    page.click('header nav a[href="#/standings"]')
    loaded(page, "today week")
    page.goto(f"{live.url}/#/calendar")
    page.click('a[href="#/calendar/archive"]')
    page.wait_for_function("document.body.dataset.archive === '2026-12'")
    assert page.locator('#archive-days li[data-date="2026-12-30"]').count() == 1
    page.context.close()
