"""Helps while solving (issue 50 §1), in Debian's chromium against the real engine: every copy
of the selected digit lit, in entries and pencil marks; pencil marks a placed digit of the same
entry rules out drawn as such (a help setting); the whole-grid candidates view, the engine's
answer drawn as it is in practice and absent from a race (the engine refuses it too); and
after the end, the replay of a finished game from its shared link, step by step or at speed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from _web import (
    auth,
    click_cell,
    name,
    page_seat,
    published_solution,
    settle,
    shared_server,
    start,
    started,
)

from kakurolab.game import Mode, NewGame
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
    page, puzzle, solution = started(browser, games, url, "Lumi")
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
    page, puzzle, solution = started(browser, games, url, "Rulo")
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
    page, puzzle, solution = started(browser, games, url, "Cato")
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
    _, url = shared
    page = start(browser, url, "Rhea", mode="arena")
    assert page.locator("#candidates").is_hidden()
    page.keyboard.press("c")
    page.wait_for_timeout(200)
    assert page.locator("#board text.cand").count() == 0
    game_id, token = page_seat(page)
    answer = httpx.get(f"{url}/api/games/{game_id}/candidates", headers=auth(token))
    assert answer.status_code == 409 and "Logic Shield" in answer.json()["error"]
    page.context.close()


# --- replays of finished games (issue 50 §1, "After the end") -----------------------------------


def finished_practice(games: EngineGames, player: str) -> tuple[str, dict[Cell, int], int]:
    """A practice game played to the end through the engine: (game id, solution, frames)."""
    svc = games.service
    me = svc.register(player)
    game = svc.create(me.token, NewGame(Mode.PRACTICE, size="8x8", difficulty="easy"))
    solution = published_solution(game.puzzle["id"])
    for cell, digit in sorted(solution.items()):
        svc.act(game.game_id, me.token, {"kind": "place", "cell": name(cell), "digit": digit})
    return game.game_id, solution, svc.store.version(game.game_id)


def replay_digits(page: Any) -> dict[str, int]:
    out = {}
    for text in page.locator("#replay-board text.digit").all():
        r, c = int(text.get_attribute("data-r") or -1), int(text.get_attribute("data-c") or -1)
        out[name((r, c))] = int(text.text_content() or 0)
    return out


def test_a_finished_game_replays_from_its_shared_link(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    game_id, solution, total = finished_practice(games, "Rey")
    page = browser.new_context().new_page()  # anyone with the link: no player, no token
    link = f"{url}/#/replay/{game_id}"
    page.goto(link)
    page.wait_for_function(f"document.body.dataset.replayTotal === '{total}'")
    assert replay_digits(page) == {}
    for _ in range(3):  # join, start, the first digit
        page.click("#replay-next")
    first = sorted(solution)[0]
    assert replay_digits(page) == {name(first): solution[first]}
    assert page.inner_text("#replay-caption") == f"Rey: {solution[first]} at {name(first)}"
    page.click("#replay-end")
    assert replay_digits(page) == {name(c): d for c, d in solution.items()}
    page.click("#replay-start")
    assert replay_digits(page) == {}
    page.select_option("#replay-speed", "60")
    page.click("#replay-play")  # at speed, to the end
    page.wait_for_function(f"document.body.dataset.replayAt === '{total}'", timeout=5000)
    assert replay_digits(page) == {name(c): d for c, d in solution.items()}
    assert page.input_value("#replay-link") == link
    page.context.close()


def test_a_running_game_has_no_replay_yet(browser: Any, shared: tuple[EngineGames, str]) -> None:
    _, url = shared
    page = start(browser, url, "Ivy")
    game_id, _ = page_seat(page)
    page.goto(f"{url}/#/replay/{game_id}")
    page.wait_for_function("document.querySelector('#replay-message').textContent"
                           ".includes('not over')")  # fmt: skip
    assert page.locator("#replay-board text.digit").count() == 0
    page.context.close()
