"""The front end's own mechanics in Debian's chromium, against a transport-only stand-in
for the engine (tests/_web_fake.py): what the keyboard, pointer, pencil mode, undo/redo and
themes send and show, checked against what the server received.  The games themselves
(rules, shields, scores) are driven against the real engine in tests/test_browser.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _web import launch, live_server
from _web_fake import FakeGames

from kakurolab import combos, datasets
from kakurolab.formats import load

pytestmark = pytest.mark.browser

GENERATED = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "generated"
SIXTEEN = GENERATED / "standard-16x22-easy.kakuro"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture
def fake() -> Iterator[tuple[FakeGames, str]]:
    puzzle = load(GENERATED / "standard-8x8-easy.kakuro")[0]
    games = FakeGames(puzzle)
    with live_server(games) as server:
        yield games, server.url


def start_practice(page: Any, url: str) -> None:
    page.goto(url)
    page.click("#start")
    page.wait_for_selector("#board rect.white")


def settle(page: Any) -> None:
    page.wait_for_function("document.body.dataset.pending === '0'")


def test_keyboard_pencil_undo_redo(browser: Any, fake: tuple[FakeGames, str]) -> None:
    games, url = fake
    page = browser.new_page()
    start_practice(page, url)
    game = next(iter(games.games.values()))
    first = (
        page.get_attribute("#board rect.selected", "data-r"),
        page.get_attribute("#board rect.selected", "data-c"),
    )
    cell = (int(first[0]), int(first[1]))
    page.keyboard.press("5")
    settle(page)
    assert game.entries["p1"] == {cell: 5}
    page.keyboard.press("ArrowRight")
    right = (cell[0], cell[1] + 1)
    page.keyboard.press("Shift+Digit3")
    page.keyboard.press("p")  # pencil mode on
    page.keyboard.press("7")
    page.keyboard.press("p")
    settle(page)
    assert game.marks["p1"][right] == {3, 7}
    assert page.locator("#board text.mark").count() == 2
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("8")  # overwrite: undo must bring the 5 back
    page.keyboard.press("Backspace")
    settle(page)
    assert cell not in game.entries["p1"]
    page.keyboard.press("Control+z")  # undo the erase
    settle(page)
    assert game.entries["p1"][cell] == 8
    page.keyboard.press("Control+z")  # undo the overwrite
    settle(page)
    assert game.entries["p1"][cell] == 5
    page.keyboard.press("Control+y")
    settle(page)
    assert game.entries["p1"][cell] == 8
    assert page.locator("#board text.digit").all_text_contents() == ["8"]


def test_pointer_selects_cells_and_clue_halves(browser: Any, fake: tuple[FakeGames, str]) -> None:
    games, url = fake
    page = browser.new_page()
    start_practice(page, url)
    game = next(iter(games.games.values()))
    target = page.locator('#board rect.white[data-r="3"][data-c="4"]')
    target.click()
    page.click('[data-digit="6"]')
    settle(page)
    assert game.entries["p1"] == {(3, 4): 6}
    clue = page.locator('#board rect.clue[data-r="2"][data-c="4"]')  # 16 down, 24 across
    box = clue.bounding_box()
    assert box is not None
    runs = {run.direction.value: run for run in game.puzzle.runs if run.clue_cell == (2, 4)}
    across, down = runs["across"], runs["down"]
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.2)
    assert page.text_content("#combo-run") == f"{across.clue} in {len(across)}"
    page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.8)
    assert page.text_content("#combo-run") == f"{down.clue} in {len(down)}"
    # the helper lists every digit set of the run, striking those without the placed 6
    assert down.clue is not None and (3, 4) in down.cells
    expected = [combos.digits_of(m) for m in combos.combos(len(down), down.clue.evaluate({}))]
    shown = page.locator("#combo-list li")
    assert shown.all_text_contents() == [" ".join(map(str, ds)) for ds in expected]
    struck = [" ".join(map(str, ds)) for ds in expected if 6 not in ds]
    assert page.locator("#combo-list li.out").all_text_contents() == struck


def test_theme_is_remembered_per_player(browser: Any, fake: tuple[FakeGames, str]) -> None:
    _, url = fake
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.fill("#player-name", "Ada")
    page.press("#player-name", "Enter")
    assert page.get_attribute("html", "data-theme") == "slate"
    page.click("#theme-toggle")
    assert page.get_attribute("html", "data-theme") == "parchment"
    page.reload()
    assert page.get_attribute("html", "data-theme") == "parchment"
    page.fill("#player-name", "Bea")
    page.press("#player-name", "Enter")
    assert page.get_attribute("html", "data-theme") == "slate"
    page.fill("#player-name", "Ada")
    page.press("#player-name", "Enter")
    assert page.get_attribute("html", "data-theme") == "parchment"
    context.close()


@pytest.mark.parametrize(
    ("viewport", "path"),
    [
        ({"width": 375, "height": 667}, SIXTEEN),  # a phone
        ({"width": 1366, "height": 768}, SIXTEEN),  # a laptop
        ({"width": 1366, "height": 768}, None),  # janko's 14x24
    ],
)
def test_big_boards_fit_the_screen(
    browser: Any, viewport: dict[str, int], path: Path | None
) -> None:
    if path is None:
        puzzle = max(load(datasets.JANKO_DEV), key=lambda p: p.nrows * p.ncols)
    else:
        puzzle = load(path)[0]
    with live_server(FakeGames(puzzle)) as server:
        page = browser.new_page(viewport=viewport)
        start_practice(page, server.url)
        board = page.locator("#board").bounding_box()
        assert board is not None
        assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"] + 1
        cell = page.locator("#board rect.white").first.bounding_box()
        assert cell is not None
        assert cell["width"] >= 14, cell  # still a tap target on a phone
        if viewport["width"] > 1000:  # the whole board is on a laptop screen at once
            assert board["y"] + board["height"] <= viewport["height"] + 1
        page.close()
