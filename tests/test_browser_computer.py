"""A Battle Matrix against the computer in Debian's chromium (issue 50 §1): the new-game
form's opponent choice starts the game at once, the easy computer's digits arrive on the
page pushed by the server (a fast pace for the test), the game ends, and the stats page shows
the rating it moved, with its uncertainty, and the pool's table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _web import (
    engine_games,
    game_of,
    live_server,
    page_seat,
    play_out_against_computer,
    set_name,
    shot,
)

pytestmark = pytest.mark.browser

PACE = 0.01
"""Think times x 0.01: the easy computer's ~10 s a move becomes ~0.1 s."""


def test_a_battle_against_the_easy_computer_to_the_end(browser: Any, tmp_path: Path) -> None:
    games = engine_games(tmp_path / "games.sqlite")
    with live_server(games) as live:
        live.app.state.bots.pace = PACE
        page = browser.new_context().new_page()
        page.goto(live.url)
        set_name(page, "Ann")
        page.select_option("#new-game select[name=mode]", "battle")
        assert page.locator("#new-game .computer-field").is_visible()
        page.select_option("#new-game select[name=computer]", "easy")
        page.click("#start")
        page.wait_for_selector("#board rect.white")
        view, puzzle, solution = game_of(games, page)
        assert view["phase"] == "active"  # no room code to share: the computer sat down
        assert [p["name"] for p in view["players"]] == ["Ann", "Computer (easy)"]
        ann = view["you"]

        def check_turn(seen: dict[str, Any]) -> None:
            shown = page.locator("#board text.digit").count()
            assert shown == len(seen["board"])  # every computer digit is on the page
            if len(seen["board"]) == len(puzzle.whites) // 2:
                shot(page, "web-computer")

        play_out_against_computer(page, games, puzzle, solution, check_turn)
        page.wait_for_function("document.body.dataset.phase === 'finished'")
        final = games.view(*page_seat(page))
        assert final["end_reason"] == "completed"
        placed_by = {"Ann": 0, "Computer (easy)": 0}
        for event in games.service.events_since(final["game_id"], page_seat(page)[1], 0):
            if event.kind.value == "place" and event.outcome and event.outcome.get("correct"):
                placed_by["Ann" if event.player_id == ann else "Computer (easy)"] += 1
        assert placed_by["Computer (easy)"] > 0 and sum(placed_by.values()) == len(puzzle.whites)
        assert page.locator("#board text.digit").count() == len(puzzle.whites)
        page.goto(f"{live.url}/#/stats")
        row = page.locator('#stats-rating tr[data-pool="computer"]')
        row.wait_for()
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == "against the computer" and "±" in cells[1]
        mine = games.service.my_ratings(page_seat(page)[1])["computer"]
        record = [str(mine[k]) for k in ("wins", "losses", "draws")]
        assert cells[1] == mine["shown"] and cells[3:] == record and mine["games"] == 1
        page.select_option("#rating-pool", "computer")
        page.wait_for_selector("#rating-table tbody tr")
        names = page.locator("#rating-table tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(names) == ["Ann", "Computer (easy)"]
        shot(page, "web-rating")
    games.close()
