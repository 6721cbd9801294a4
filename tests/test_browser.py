"""Whole games in Debian's chromium against the real engine, as the issue's done-when lists
them: an 8x8 solved with the keyboard alone; each Logic Shield used; a Battle Matrix between
two browser contexts to the end, its score checked against the engine's and against a score
computed here from the rulebook; an Arena race with three contexts.

Digits come from the shipped file's published solution (not from the engine), and every
check of the board reads the engine's view with the page's own token.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _web import (
    arrow_keys,
    click_cell,
    engine_games,
    frames,
    join,
    live_server,
    name,
    new_game,
    page_seat,
    published_solution,
    selected,
    set_name,
    settle,
    view_puzzle,
)

from kakurolab.model import Cell, Puzzle
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser


def game_of(games: EngineGames, page: Any) -> tuple[dict[str, Any], Puzzle, dict[Cell, int]]:
    view = games.view(*page_seat(page))
    return view, view_puzzle(view), published_solution(view["puzzle"]["id"])


def type_solution(page: Any, puzzle: Puzzle, solution: dict[Cell, int]) -> None:
    """Every digit typed, moving between cells with the arrow keys only."""
    for cell in sorted(puzzle.whites):
        for key in arrow_keys(puzzle, selected(page), cell):
            page.keyboard.press(key)
        assert selected(page) == cell
        page.keyboard.press(str(solution[cell]))
    settle(page)


def test_solve_8x8_with_the_keyboard(browser: Any, server: tuple[EngineGames, str]) -> None:
    games, url = server
    page = browser.new_page()
    received = frames(page)
    new_game(page, url)
    _, puzzle, solution = game_of(games, page)
    assert (puzzle.nrows, puzzle.ncols) == (8, 8)
    type_solution(page, puzzle, solution)
    page.wait_for_function("document.body.dataset.phase === 'finished'")
    final = games.view(*page_seat(page))
    assert final["phase"] == "finished" and final["end_reason"] == "completed"
    assert final["board"] == {name(c): d for c, d in solution.items()}
    # the score panel shows the engine's Mastery Formula breakdown
    (line,) = final["standings"]
    assert line["solved"] and line["breakdown"]["flawless"] == 500
    assert line["breakdown"]["shields"] == 300  # three unused shields
    row = page.locator(f'#score tr[data-player="{line["player_id"]}"]')
    assert row.locator("td.total").inner_text() == str(line["score"])
    cells_text = row.locator("td").all_inner_texts()
    parts = line["breakdown"]
    assert cells_text[2:6] == [str(parts[k]) for k in ("base", "speed", "flawless", "shields")]
    # the solution reached the page only in the views after the last move
    with_solution = [i for i, f in enumerate(received) if '"solution": [' in f
                     or '"solution":[' in f]  # fmt: skip
    assert with_solution, "the finished view carries the solution"
    before_end = [json.loads(f) for f in received[: with_solution[0]]]
    assert all(m.get("view", {}).get("solution") is None for m in before_end)
    assert all(m.get("view", {}).get("phase") != "finished" for m in before_end)


def test_each_shield(browser: Any, server: tuple[EngineGames, str]) -> None:
    games, url = server
    page = browser.new_page()
    new_game(page, url, permanent=True, shields=4)
    _, puzzle, solution = game_of(games, page)
    seat = page_seat(page)
    assert page.inner_text("#shield-count") == "4"
    # candidates: the digit sets of the selected clue entry
    run = max(puzzle.runs, key=len)
    click_cell(page, run.cells[0])
    label = f"{run.clue} in {len(run)}"
    if page.inner_text("#combo-run") != label:
        page.keyboard.press("Space")  # the selected cell's other entry
    assert page.inner_text("#combo-run") == label
    page.click('[data-shield="candidates"]')
    settle(page)
    output = page.inner_text("#shield-output")
    assert run.name in output and "{" in output
    assert games.view(*seat)["shields_left"] == 3
    # hint: the next deduction in words, its cells outlined
    page.click('[data-shield="hint"]')
    settle(page)
    assert page.inner_text("#shield-output").strip()
    assert page.locator("#board rect.hinted").count() >= 1
    assert games.view(*seat)["shields_left"] == 2
    # unlock: a wrong permanent digit cannot be erased until a shield unlocks it
    first, second = run.cells[0], run.cells[1]
    wrong1 = solution[first] % 9 + 1
    click_cell(page, first)
    page.keyboard.press(str(wrong1))
    settle(page)
    page.keyboard.press("Backspace")
    settle(page)
    assert "permanent" in page.inner_text("#message")
    assert games.view(*seat)["board"][name(first)] == wrong1
    page.click('[data-shield="unlock"]')
    settle(page)
    assert games.view(*seat)["locked"] == []
    page.keyboard.press("Backspace")
    settle(page)
    assert name(first) not in games.view(*seat)["board"]
    # clear: every wrong entry goes, right ones stay
    page.keyboard.press(str(solution[first]))
    click_cell(page, second)
    page.keyboard.press(str(solution[second] % 9 + 1))
    settle(page)
    page.click('[data-shield="clear"]')
    settle(page)
    after = games.view(*seat)
    assert after["board"] == {name(first): solution[first]}
    assert after["shields_left"] == 0
    assert page.inner_text("#shield-count") == "0"
    assert all(b.is_disabled() for b in page.locator("[data-shield]").all())


def test_battle_matrix_between_two_browsers(browser: Any, server: tuple[EngineGames, str]) -> None:
    games, url = server
    ann = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    ann.goto(url)
    set_name(ann, "Ann")
    new_game(ann, url, mode="battle")
    code = ann.get_attribute("#room-code", "data-code")
    assert code
    assert "Waiting" in ann.inner_text("#turn")
    join(bob, url, "Bob", code)
    view, puzzle, solution = game_of(games, ann)
    ann_id, bob_id = view["you"], games.view(*page_seat(bob))["you"]
    pages = {ann_id: ann, bob_id: bob}
    expected = {ann_id: 0, bob_id: 0}
    filled: set[Cell] = set()
    wrong_left = {ann_id: 1, bob_id: 1}  # each plays one illegal digit on the way
    for cell in sorted(puzzle.whites):
        while True:
            turn = games.view(*page_seat(ann))["turn"]
            page = pages[turn]
            page.wait_for_function("document.querySelector('#turn').innerText === 'Your turn'")
            click_cell(page, cell)
            if wrong_left[turn]:
                wrong_left[turn] -= 1
                page.keyboard.press(str(solution[cell] % 9 + 1))
                expected[turn] -= 150
                settle(page)
                continue
            page.keyboard.press(str(solution[cell]))
            settle(page)
            filled.add(cell)
            expected[turn] += solution[cell] + 100 * sum(
                all(c in filled for c in run.cells) for run in puzzle.runs_of[cell]
            )
            break
    for page in (ann, bob):
        page.wait_for_function("document.body.dataset.phase === 'finished'")
    final = games.view(*page_seat(ann))
    engine_scores = {line["player_id"]: line["score"] for line in final["standings"]}
    assert engine_scores == expected
    for page in (ann, bob):
        assert page.inner_text("#score-title") == "Battle Matrix points"  # not the Mastery Formula
        winner = final["standings"][0]["name"]
        assert page.inner_text("#winner").startswith(f"{winner} is crowned Master of the")
        assert page.locator("#score-reasons li").count() == 0  # no Mastery bonuses in a Battle
        for player_id, score in expected.items():
            total = page.locator(f'#score tr[data-player="{player_id}"] td.total')
            assert total.inner_text() == str(score)
        # no Restart on a race's grid: the page reads the view's rules.restart flag
        assert final["rules"]["restart"] is False and page.locator("#restart").is_hidden()


def test_arena_race_with_three_browsers(browser: Any, server: tuple[EngineGames, str]) -> None:
    games, url = server
    ann, bob, cyd = (browser.new_context().new_page() for _ in range(3))
    ann.goto(url)
    set_name(ann, "Ann")
    new_game(ann, url, mode="arena")
    code = ann.get_attribute("#room-code", "data-code")
    assert code
    join(bob, url, "Bob", code)
    cyd_seen = frames(cyd)  # everything Cyd's browser ever receives
    join(cyd, url, "Cyd", code)
    ann.wait_for_selector("#start-game:not([hidden])")
    ann.click("#start-game")
    for page in (ann, bob, cyd):
        page.wait_for_function("document.body.dataset.phase === 'active'")
    _, puzzle, solution = game_of(games, ann)
    whites = sorted(puzzle.whites)
    # Bob spends a shield: it will break his tie with Cyd (both unsolved, 0 points)
    bob.click('[data-shield="hint"]')
    settle(bob)
    # Bob fills every cell with one wrong digit and submits: refused and counted
    for cell in whites:
        click_cell(bob, cell)
        digit = solution[cell] if cell != whites[0] else solution[cell] % 9 + 1
        bob.keyboard.press(str(digit))
    settle(bob)
    bob.click("#submit")
    settle(bob)
    assert "refused" in bob.inner_text("#message")
    bob_view = games.view(*page_seat(bob))
    assert bob_view["phase"] == "active"
    # Cyd sees Bob's progress as a share of cells, never his digits
    bob_id = bob_view["you"]
    cyd.wait_for_function(
        f"document.querySelector('#players li[data-player=\"{bob_id}\"] .player-score')"
        ".dataset.progress === '1'"
    )
    assert games.view(*page_seat(cyd))["board"] == {}
    public = {"player_id", "name", "progress", "shields_left", "shields_used", "wrong_submissions"}
    views = [m["view"] for m in map(json.loads, cyd_seen) if m.get("view")]
    assert len(views) >= 3  # joined, started, and Bob's progress at least
    for seen in views:
        assert seen["board"] == {} and seen["solution"] is None
        for player in seen["players"]:
            assert set(player) <= public | ({"marks"} if player["name"] == "Cyd" else set())
    # Ann solves and submits: the first verified submission wins
    for cell in whites:
        click_cell(ann, cell)
        ann.keyboard.press(str(solution[cell]))
    settle(ann)
    ann.click("#submit")
    for page in (ann, bob, cyd):
        page.wait_for_function("document.body.dataset.phase === 'finished'")
    final = games.view(*page_seat(cyd))
    assert final["end_reason"] == "submission"
    winner = final["standings"][0]
    assert winner["name"] == "Ann" and winner["solved"] and winner["rank"] == 1
    bob_line = next(s for s in final["standings"] if s["name"] == "Bob")
    assert not bob_line["solved"]
    assert next(p for p in final["players"] if p["name"] == "Bob")["wrong_submissions"] == 1
    for page in (ann, bob, cyd):
        shown = page.locator(f'#score tr[data-player="{winner["player_id"]}"] td.total')
        assert shown.inner_text() == str(winner["score"])
        assert page.inner_text("#winner").startswith("Ann is crowned Master of the Countless Spire")
    # the tie on 0 points was decided by shields (no time for either): the page says so
    assert [s["name"] for s in final["standings"]] == ["Ann", "Cyd", "Bob"]
    assert final["standings"][1]["rank"] == 2 and final["standings"][2]["rank"] == 3
    assert cyd.inner_text("#tie-break") == (
        "Tie-break: Cyd ahead of Bob on equal points by shields used 0 against 1"
    )


MONDAY_NOON = 1796040000.0  # 2026-11-30 12:00 UTC, a Monday


def test_master_calendar_week_and_streak(browser: Any, tmp_path: Path) -> None:
    games = engine_games(tmp_path / "games.sqlite", clock=lambda: MONDAY_NOON)
    with live_server(games) as live:
        page = browser.new_page()
        page.goto(live.url + "/#/calendar")
        set_name(page, "Ada")
        page.wait_for_selector("#week li")
        days = page.locator("#week li")
        assert days.count() == 7
        assert page.get_attribute("#week li.today", "data-date") == "2026-11-30"
        assert "8x8 easy" in page.inner_text("#week li.today")
        assert page.locator("#week li button:disabled").count() == 6  # the rest of the week
        assert page.inner_text("#streak") == "0"
        page.click("#week li.today button")
        page.wait_for_selector("#board rect.white")
        view, puzzle, solution = game_of(games, page)
        assert view["mode"] == "campaign" and view["spec"]["date"] == "2026-11-30"
        type_solution(page, puzzle, solution)
        page.wait_for_function("document.body.dataset.phase === 'finished'")
        page.goto(live.url + "/#/calendar")
        page.wait_for_selector("#week li.today.done")
        assert page.inner_text("#streak") == "1"
        assert page.inner_text("#best-streak") == "1"
    games.close()


@pytest.mark.parametrize(
    ("page_name", "items", "count"),
    [("calendar", "#week li", 7), ("stats", "#stats-summary dt", 6)],
)
def test_a_page_shown_again_while_it_loads_draws_once(
    browser: Any, server: tuple[EngineGames, str], page_name: str, items: str, count: int
) -> None:
    """Three showings of a page in one tick (as when the player signs in while it loads):
    only the newest answer draws, where every answer used to append its own copy."""
    _, url = server
    page = browser.new_page()
    page.goto(url)
    set_name(page, "Ada")
    page.goto(f"{url}/#/{page_name}")
    page.wait_for_selector(items)
    again = "window.dispatchEvent(new HashChangeEvent('hashchange'))"
    page.evaluate(f"for (let i = 0; i < 3; i++) {again}")
    page.wait_for_function(f"document.querySelectorAll({json.dumps(items)}).length >= {count}")
    page.wait_for_timeout(300)  # the other answers, had they drawn, would be in by now
    assert page.locator(items).count() == count
    page.close()
