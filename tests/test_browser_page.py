"""The page itself (issue 50 §1 "The page"), in Debian's chromium against the real engine: the
theme follows the OS (``prefers-color-scheme``, ``prefers-contrast``) until the player picks
one; the high-contrast theme is one of the choices (its colours are checked by
tests/test_web_contrast.py); a short first-visit guide that the Rules page replays."""

from __future__ import annotations

from typing import Any

import pytest
from _web import shared_server, signed_in

from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser

shared = shared_server("page")


def theme(page: Any) -> str:
    return page.get_attribute("html", "data-theme")


def pick(page: Any, choice: str) -> None:
    page.click("#settings-open")
    page.select_option('#settings select[name="theme"]', choice)
    page.click("#settings-close")


def test_the_theme_follows_the_os_until_the_player_picks_one(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    _, url = shared
    page = signed_in(browser, url, "Osa", color_scheme="light")
    assert theme(page) == "parchment"
    page.emulate_media(color_scheme="dark")  # the OS switches while the page is open
    page.wait_for_function("document.documentElement.dataset.theme === 'slate'")
    page.emulate_media(contrast="more")
    page.wait_for_function("document.documentElement.dataset.theme === 'contrast'")
    page.emulate_media(contrast="no-preference")
    page.wait_for_function("document.documentElement.dataset.theme === 'slate'")
    pick(page, "parchment")  # the player's choice wins over the OS from now on
    page.emulate_media(color_scheme="light")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(100)
    assert theme(page) == "parchment"
    page.reload()
    assert theme(page) == "parchment"
    pick(page, "system")  # and back to following it
    assert theme(page) == "slate"
    page.context.close()


def test_the_high_contrast_theme_is_a_choice(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    _, url = shared
    page = signed_in(browser, url, "Hico", color_scheme="dark")
    for expected in ("parchment", "contrast", "slate"):  # the header's button cycles
        page.click("#theme-toggle")
        assert theme(page) == expected
    pick(page, "contrast")
    assert theme(page) == "contrast"
    body = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert body == "rgb(0, 0, 0)", body
    page.reload()
    assert theme(page) == "contrast"
    page.context.close()


def test_a_first_visit_guide_that_the_rules_page_replays(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    _, url = shared
    page = browser.new_context().new_page()
    page.goto(url)
    guide = page.locator("#guide")
    assert guide.is_visible()
    steps = page.locator("#guide [data-step]")
    count = steps.count()
    assert 3 <= count <= 6, count  # short
    for k in range(count):
        assert steps.nth(k).is_visible() and page.locator("#guide [data-step]:visible").count() == 1
        page.click("#guide-next")
    assert guide.is_hidden()
    page.reload()
    page.wait_for_selector("#new-game")
    assert guide.is_hidden()  # once per browser
    page.goto(f"{url}/#/rules")
    page.click("#guide-replay")
    assert guide.is_visible() and steps.nth(0).is_visible()
    page.click("#guide-skip")
    assert guide.is_hidden()
    page.context.close()
