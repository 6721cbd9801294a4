"""Helps while solving (issue 50 §1), in Debian's chromium against the real engine: every copy
of the selected digit lit, in entries and pencil marks; pencil marks a placed digit of the same
entry rules out drawn as such (a help setting); the whole-grid candidates view, the engine's
answer drawn as it is in practice and absent from a race (the engine refuses it too)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from _web import auth, click_cell, game_of, name, page_seat, settle, shared_server, start

from kakurolab.model import Cell, Puzzle
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser

shared = shared_server("solving")


def run_mates(puzzle: Puzzle, cell: Cell) -> set[Cell]:
    return {c for run in puzzle.runs_of[cell] for c in run.cells} - {cell}


def rect(page: Any, cell: Cell) -> Any:
    return page.locator(f'#board rect.white[data-r="{cell[0]}"][data-c="{cell[1]}"]')


def test_every_copy_of_the_selected_digit_is_lit(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = start(browser, url, "Lumi")
    _, puzzle, solution = game_of(games, page)
    whites = sorted(puzzle.whites)
    digit = solution[whites[0]]
    twins = [c for c in whites if solution[c] == digit][:2]  # two cells holding the digit
    free = [c for c in whites if c not in twins and not run_mates(puzzle, c) & set(twins)]
    marked = free[0]
    for cell in twins:
        click_cell(page, cell)
        page.keyboard.press(str(digit))
    click_cell(page, marked)
    page.keyboard.press(f"Shift+Digit{digit}")
    page.keyboard.press(f"Shift+Digit{digit % 9 + 1}")
    settle(page)
    assert page.locator("#board .same-digit").count() == 0  # an empty cell is selected
    click_cell(page, twins[0])
    lit = page.locator("#board rect.white.same-digit")
    assert sorted((int(r.get_attribute("data-r")), int(r.get_attribute("data-c")))
                  for r in lit.all()) == sorted(twins)  # fmt: skip
    assert page.locator("#board text.mark.same-digit").all_text_contents() == [str(digit)]
    assert page.locator("#board text.mark:not(.same-digit)").all_text_contents() == [
        str(digit % 9 + 1)
    ]
    page.context.close()


def test_pencil_marks_a_placed_digit_rules_out_are_struck(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = start(browser, url, "Rulo")
    _, puzzle, solution = game_of(games, page)
    placed = sorted(puzzle.whites)[0]
    mate = sorted(run_mates(puzzle, placed))[0]
    digit = solution[placed]
    other = next(d for d in range(1, 10) if d != digit)
    click_cell(page, placed)
    page.keyboard.press(str(digit))
    click_cell(page, mate)  # marks pencilled after the digit: nothing clears them
    page.keyboard.press(f"Shift+Digit{digit}")
    page.keyboard.press(f"Shift+Digit{other}")
    settle(page)
    assert page.locator("#board text.mark.ruled-out").all_text_contents() == [str(digit)]
    assert page.locator("#board line.mark-strike").count() == 1
    label = rect(page, mate).get_attribute("aria-label") or ""
    assert label.endswith(f"ruled out {digit}"), label
    assert games.view(*page_seat(page))["marks"] == {name(mate): sorted([digit, other])}
    page.click("#settings-open")
    page.uncheck('#settings input[name="ruledout"]')
    page.click("#settings-close")
    assert page.locator("#board text.mark.ruled-out").count() == 0
    assert page.locator("#board text.mark").count() == 2
    page.context.close()


def drawn_candidates(page: Any, puzzle: Puzzle) -> dict[str, list[int]]:
    """Each empty cell's candidates as the board draws them (its ``text.cand`` figures)."""
    out = {}
    for cell in sorted(puzzle.whites):
        texts = page.locator(f'#board text.cand[data-r="{cell[0]}"][data-c="{cell[1]}"]')
        out[name(cell)] = sorted(int(t) for t in texts.all_text_contents())
    return out


def test_the_candidates_view_draws_the_engines_answer(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    page = start(browser, url, "Cato")
    _, puzzle, solution = game_of(games, page)
    first = sorted(puzzle.whites)[0]
    click_cell(page, first)
    page.keyboard.press(str(solution[first]))
    settle(page)
    assert page.locator("#board text.cand").count() == 0
    page.keyboard.press("c")
    page.wait_for_function("document.body.dataset.cands === document.body.dataset.version")
    engine = games.candidates(*page_seat(page))["cells"]
    drawn = drawn_candidates(page, puzzle)
    assert {k: v for k, v in drawn.items() if k in engine} == engine
    assert drawn[name(first)] == []  # a filled cell shows its digit only
    assert page.locator("#candidates").get_attribute("aria-pressed") == "true"
    # a move refreshes them
    mate = sorted(run_mates(puzzle, first))[0]
    click_cell(page, mate)
    page.keyboard.press(str(solution[mate]))
    settle(page)
    page.wait_for_function("document.body.dataset.cands === document.body.dataset.version")
    engine = games.candidates(*page_seat(page))["cells"]
    assert {k: v for k, v in drawn_candidates(page, puzzle).items() if k in engine} == engine
    page.keyboard.press("c")
    assert page.locator("#board text.cand").count() == 0
    page.context.close()


def test_a_race_has_no_candidates_view(browser: Any, shared: tuple[EngineGames, str]) -> None:
    games, url = shared
    page = start(browser, url, "Rhea", mode="arena")
    assert page.locator("#candidates").is_hidden()
    page.keyboard.press("c")
    page.wait_for_timeout(200)
    assert page.locator("#board text.cand").count() == 0
    game_id, token = page_seat(page)
    answer = httpx.get(f"{url}/api/games/{game_id}/candidates", headers=auth(token))
    assert answer.status_code == 409 and "Logic Shield" in answer.json()["error"]
    page.context.close()
