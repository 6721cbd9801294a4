"""The front end's own mechanics in Debian's chromium against the real engine: what the
keyboard, pointer, pencil mode, undo/redo and themes send and show, checked against the
engine's view of the game (read with the page's own token)."""

from __future__ import annotations

from typing import Any

import pytest
from _web import (
    box,
    new_game,
    page_seat,
    set_name,
    settle,
    view_puzzle,
)

from kakurolab import combos
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser


def board_of(games: EngineGames, page: Any) -> tuple[dict[str, int], dict[str, list[int]]]:
    view = games.view(*page_seat(page))
    return view["board"], view["marks"]


def test_keyboard_pencil_undo_redo(browser: Any, server: tuple[EngineGames, str]) -> None:
    games, url = server
    page = browser.new_page()
    new_game(page, url)
    sel = page.locator("#board rect.selected")
    r, c = int(sel.get_attribute("data-r") or -1), int(sel.get_attribute("data-c") or -1)
    here, right = f"r{r + 1}c{c + 1}", f"r{r + 1}c{c + 2}"
    page.keyboard.press("5")
    settle(page)
    assert board_of(games, page)[0] == {here: 5}
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit3")
    page.keyboard.press("p")  # pencil mode on
    page.keyboard.press("7")
    page.keyboard.press("p")
    settle(page)
    assert board_of(games, page)[1] == {right: [3, 7]}
    assert page.locator("#board text.mark").count() == 2
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("8")  # overwrite: undo must bring the 5 back
    page.keyboard.press("Backspace")  # typed before the 8 is acknowledged
    settle(page)
    assert here not in board_of(games, page)[0]
    page.keyboard.press("Control+z")  # undo the erase
    settle(page)
    assert board_of(games, page)[0][here] == 8
    page.keyboard.press("Control+z")  # undo the overwrite
    settle(page)
    assert board_of(games, page)[0][here] == 5
    page.keyboard.press("Control+y")
    settle(page)
    assert board_of(games, page)[0][here] == 8
    assert page.locator("#board text.digit").all_text_contents() == ["8"]


def test_pointer_selects_cells_and_clue_halves(
    browser: Any, server: tuple[EngineGames, str]
) -> None:
    games, url = server
    page = browser.new_page()
    new_game(page, url)
    game_id, token = page_seat(page)
    puzzle = view_puzzle(games.view(game_id, token))
    both = next(
        run.clue_cell
        for run in puzzle.runs
        if sum(1 for other in puzzle.runs if other.clue_cell == run.clue_cell) == 2
    )
    runs = {run.direction.value: run for run in puzzle.runs if run.clue_cell == both}
    across, down = runs["across"], runs["down"]
    target = down.cells[0]
    page.locator(f'#board rect.white[data-r="{target[0]}"][data-c="{target[1]}"]').click()
    page.click('[data-digit="6"]')
    settle(page)
    assert games.view(game_id, token)["board"] == {f"r{target[0] + 1}c{target[1] + 1}": 6}
    clue = page.locator(f'#board rect.clue[data-r="{both[0]}"][data-c="{both[1]}"]')
    where = box(clue)
    page.mouse.click(where["x"] + where["width"] * 0.8, where["y"] + where["height"] * 0.2)
    assert page.text_content("#combo-run") == f"{across.clue} in {len(across)}"
    page.mouse.click(where["x"] + where["width"] * 0.2, where["y"] + where["height"] * 0.8)
    assert page.text_content("#combo-run") == f"{down.clue} in {len(down)}"
    # the helper lists every digit set of the run, striking those without the placed 6
    assert down.clue is not None
    expected = [combos.digits_of(m) for m in combos.combos(len(down), down.clue.evaluate({}))]
    shown = page.locator("#combo-list li")
    assert shown.all_text_contents() == [" ".join(map(str, ds)) for ds in expected]
    struck = [" ".join(map(str, ds)) for ds in expected if 6 not in ds]
    assert page.locator("#combo-list li.out").all_text_contents() == struck


def test_theme_is_remembered_per_player(browser: Any, server: tuple[EngineGames, str]) -> None:
    _, url = server
    context = browser.new_context(color_scheme="dark")  # unpicked, the theme is the OS's
    page = context.new_page()
    page.goto(url)
    set_name(page, "Ada")
    assert page.get_attribute("html", "data-theme") == "slate"
    page.click("#theme-toggle")
    assert page.get_attribute("html", "data-theme") == "parchment"
    page.reload()
    assert page.get_attribute("html", "data-theme") == "parchment"
    set_name(page, "Bea")
    assert page.get_attribute("html", "data-theme") == "slate"
    set_name(page, "Ada")
    assert page.get_attribute("html", "data-theme") == "parchment"
    context.close()


@pytest.mark.parametrize(
    ("viewport", "size"),
    [
        ({"width": 375, "height": 667}, "16x22"),  # a phone
        ({"width": 1366, "height": 768}, "16x22"),  # a laptop
        pytest.param(  # 20x20 comes from the generator (~15 s) until the bank has it
            {"width": 1366, "height": 768}, "20x20", marks=pytest.mark.slow
        ),
    ],
)
def test_big_boards_fit_the_screen(
    browser: Any, server: tuple[EngineGames, str], viewport: dict[str, int], size: str
) -> None:
    _, url = server
    page = browser.new_page(viewport=viewport)
    new_game(page, url, size=size)
    rows, cols = (int(n) for n in size.split("x"))
    assert page.locator("#board rect[data-r]").count() == rows * cols  # one per cell
    board = page.locator("#board").bounding_box()
    assert board is not None
    assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"] + 1
    cell = box(page.locator("#board rect.white").first)
    assert cell["width"] >= 14, cell  # still a tap target on a phone
    if viewport["width"] > 1000:  # the whole board is on a laptop screen at once
        assert board["y"] + board["height"] <= viewport["height"] + 1
    page.close()
