"""The board as a screen reader and a keyboard meet it (issue 45, item 8) and the first tap
(item 9), in Debian's chromium against the real engine.

The accessibility tree (Playwright's ``aria_snapshot``, what Chromium exposes to assistive
technology) must be a real grid: rows of gridcells, every clue and digit said once, in its
cell's name, never again as loose text.  Focus roves: exactly one cell of the board is in the
tab order (the selected one), Tab reaches it, the arrow keys move focus with the selection,
and a redraw (a digit typed) keeps it there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from _web import (
    click_cell,
    page_seat,
    selected,
    settle,
    shared_server,
    start,
    view_puzzle,
)

from kakurolab.model import Cell, Puzzle
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser


shared = shared_server("grid")


def puzzle_of(games: EngineGames, page: Any) -> Puzzle:
    return view_puzzle(games.view(*page_seat(page)))


def tree(page: Any) -> list[tuple[int, str, str]]:
    """The board's accessibility tree as (depth, role, name) lines, from ``aria_snapshot``."""
    out = []
    for line in page.locator("#board").aria_snapshot().splitlines():
        found = re.match(r'^( *)- ([a-z]+)(?::? ?"?(.*?)"?)?(?: \[[^\]]*\])*:?$', line)
        assert found, line
        out.append((len(found.group(1)) // 2, found.group(2), found.group(3) or ""))
    return out


def focused(page: Any) -> Cell | None:
    """The board cell that has keyboard focus, if any."""
    at = page.evaluate(
        "(e => e && e.closest && e.closest('#board') && e.dataset.r !== undefined"
        " ? [Number(e.dataset.r), Number(e.dataset.c)] : null)(document.activeElement)"
    )
    return None if at is None else (at[0], at[1])


def test_the_board_is_a_grid_of_rows_and_each_clue_is_said_once(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = start(browser, url, "Gil")
    puzzle = puzzle_of(games, page)
    first = sorted(puzzle.whites)[0]
    click_cell(page, first)
    page.keyboard.press("6")
    settle(page)
    lines = tree(page)
    assert lines[0] == (0, "grid", "Kakuro board")
    rows = [line for line in lines if line[1] == "row"]
    assert len(rows) == puzzle.nrows
    assert all(depth == 1 for depth, _, _ in rows)  # the grid's own children
    # a row named from its content would read every cell (every clue) a second time
    assert [text for _, _, text in rows] == [f"row {r + 1}" for r in range(puzzle.nrows)]
    cells = [line for line in lines if line[1] == "gridcell"]
    assert all(depth == 2 for depth, _, _ in cells)  # each inside a row
    # nothing else: no loose text (a clue's figures or a digit said a second time)
    assert {role for _, role, _ in lines[1:]} == {"row", "gridcell"}, lines
    names = [text for _, _, text in cells]
    clues = {run.clue_cell for run in puzzle.runs}
    assert len(names) == len(puzzle.whites) + len(clues)
    for run in puzzle.runs:
        assert run.clue is not None
        row, col = run.clue_cell
        said = [n for n in names if n.startswith(f"row {row + 1} column {col + 1}, clue")]
        assert len(said) == 1 and f"{run.direction.value} {run.clue.evaluate({})}" in said[0]
    # the cells of row r are the children of the r-th row, in column order
    at = 0
    for index, line in enumerate(lines):
        if line[1] != "row":
            continue
        children = []
        for depth, _, text in lines[index + 1 :]:
            if depth <= 1:
                break
            children.append(tuple(int(n) - 1 for n in re.findall(r"\d+", text)[:2]))
        expected = sorted(c for c in set(puzzle.whites) | clues if c[0] == at)
        assert children == expected, (at, children)
        at += 1
    typed = next(n for n in names if n.startswith(f"row {first[0] + 1} column {first[1] + 1},"))
    assert typed.endswith(", 6")
    page.context.close()


def test_focus_roves_with_the_selection(browser: Any, shared: tuple[EngineGames, str]) -> None:
    games, url = shared
    page = start(browser, url, "Fay")
    puzzle = puzzle_of(games, page)
    here = selected(page)
    in_order = page.locator("#board [tabindex='0']")
    assert in_order.count() == 1  # one tab stop for the whole board
    assert (int(in_order.get_attribute("data-r")), int(in_order.get_attribute("data-c"))) == here
    cells = page.locator("#board [role=gridcell]")
    assert page.locator("#board [role=gridcell][tabindex='-1']").count() == cells.count() - 1
    assert page.get_attribute("#board", "tabindex") is None  # the grid is not a stop itself
    page.locator("#player-name").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused(page) is not None:
            break
    assert focused(page) == here
    ring = page.eval_on_selector(
        "#board", "b => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert ring[0] == "solid" and float(ring[1].rstrip("px")) >= 2, ring  # keyboard focus shows
    right = next((r, c) for r, c in sorted(puzzle.whites) if r == here[0] and c > here[1])
    page.keyboard.press("ArrowRight")
    assert selected(page) == right and focused(page) == right
    assert page.locator("#board [tabindex='0']").count() == 1
    column = [r for r, c in sorted(puzzle.whites) if c == right[1]]  # its down entry: 2+ cells
    below = [r for r in column if r > right[0]]
    above = column[column.index(right[0]) - 1]
    key, then = ("ArrowDown", below[0]) if below else ("ArrowUp", above)
    page.keyboard.press(key)
    below_cell = (then, right[1])
    assert selected(page) == below_cell and focused(page) == below_cell
    page.evaluate("document.activeElement.dataset.probe = 'kept'")
    page.keyboard.press("7")  # the board is redrawn: focus stays on the cell, the same node
    settle(page)
    assert focused(page) == below_cell
    assert page.evaluate("document.activeElement.dataset.probe") == "kept"
    label = page.get_attribute(
        f'#board [data-r="{below_cell[0]}"][data-c="{below_cell[1]}"]', "aria-label"
    )
    assert label and ", 7" in label
    # a tapped cell takes focus too
    far = max(puzzle.whites)
    click_cell(page, far)
    assert focused(page) == far
    page.context.close()


def run_axis(page: Any) -> str:
    """'across' or 'down': which entry of the selected cell is highlighted."""
    cells = page.locator("#board rect.in-run").all()
    at = {(int(c.get_attribute("data-r")), int(c.get_attribute("data-c"))) for c in cells}
    assert len(at) >= 2, at
    if len({r for r, _ in at}) == 1:
        return "across"
    assert len({c for _, c in at}) == 1, at
    return "down"


def test_the_first_tap_on_the_preselected_cell_selects_it(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    _, url = shared
    page = start(browser, url, "Tia")
    here = selected(page)
    assert run_axis(page) == "across"
    click_cell(page, here)  # the player's first tap: a selection, no flip
    assert selected(page) == here and run_axis(page) == "across"
    click_cell(page, here)  # tapped again: now it flips
    assert run_axis(page) == "down"
    click_cell(page, here)
    assert run_axis(page) == "across"
    page.context.close()
