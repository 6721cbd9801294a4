"""Regenerate the pictures of docs/web.md that show the board and the page, in Debian's
chromium against the real engine (the shipped 12x12 normal set as the puzzle source):

* web-slate.png, web-parchment.png, web-contrast.png: a 12x12 practice game in progress
  (right digits, one wrong digit struck through by the Errors toggle, pencil marks, a selected
  run with its combinations, a shield's answer) in the three themes;
* web-candidates.png: the same game with the candidates view on, a placed digit selected
  (its every copy lit) and a pencil mark its entry rules out (struck);
* web-replay.png: a finished 8x8 practice game's replay, half way through;
* web-watch.png: an 8x8 Battle watched by a third browser, a third of its board placed;
* web-guide.png: the start page on a first visit, with its guide;
* web-standings.png, web-archive.png: a calendar day's leaderboard (ranked, a late solve and
  a flagged one apart) with the Arena's of all time, and the calendar archive's month
  (tests/_standings.py's story).
* web-computer.png, web-rating.png: a Battle against the easy computer half way, and the
  stats page with the Battle rating it moved (:func:`computer_shots`).
* web-devices.png: the start page's My games and Devices cards (``devices_shot.py``).

    PYTHONPATH=. python tests/browser/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from _web import (  # noqa: E402
    click_cell,
    game_of,
    launch,
    name,
    new_game,
    play_out_against_computer,
    published_solution,
    served,
    set_name,
    settle,
)
from devices_shot import devices_shot  # noqa: E402

from kakurolab.game import Mode, NewGame  # noqa: E402

OUT = ROOT / "docs" / "img"
VIEWPORT = {"width": 1280, "height": 820}


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        sync_playwright() as p,
        served(Path(tmp) / "shots.sqlite") as (games, live),
    ):
        browser = launch(p)
        # a visitor's first look: the start page with the guide (then the guide is done)
        context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
        page = context.new_page()
        page.goto(live.url)
        set_name(page, "Ada")
        page.wait_for_selector("#guide")
        page.screenshot(path=str(OUT / "web-guide.png"))
        page.click("#guide-skip")
        new_game(page, live.url, size="12x12", difficulty="normal")
        _, puzzle, solution = game_of(games, page)
        whites = sorted(puzzle.whites)
        for cell in whites[: len(whites) // 3]:  # the top third solved
            click_cell(page, cell)
            page.keyboard.press(str(solution[cell]))
        marked = whites[len(whites) // 3 + 1 : len(whites) // 3 + 6]
        for cell in marked:
            click_cell(page, cell)
            for digit in sorted({solution[cell], solution[cell] % 9 + 1}):
                page.keyboard.press(f"Shift+Digit{digit}")
        settle(page)
        page.click('[data-shield="candidates"]')  # the digit sets of the selected run
        settle(page)
        wrong = whites[len(whites) // 3]
        click_cell(page, wrong)
        page.keyboard.press(str(solution[wrong] % 9 + 1))
        page.keyboard.press("e")  # show rule breaks
        click_cell(page, marked[-1])
        settle(page)
        page.screenshot(path=str(OUT / "web-slate.png"))
        page.click("#theme-toggle")
        page.screenshot(path=str(OUT / "web-parchment.png"))
        page.click("#theme-toggle")
        page.screenshot(path=str(OUT / "web-contrast.png"))
        page.click("#theme-toggle")  # slate again
        # a pencil mark its entry rules out: a solved cell's digit pencilled in a run-mate
        solved = set(whites[: len(whites) // 3])
        ruled = next(
            (cell, run_mate)
            for cell in sorted(solved)
            for run in puzzle.runs_of[cell]
            for run_mate in run.cells
            if run_mate not in solved and run_mate not in marked and run_mate != wrong
        )
        click_cell(page, ruled[1])
        page.keyboard.press(f"Shift+Digit{solution[ruled[0]]}")
        settle(page)
        page.keyboard.press("c")  # the candidates view
        page.wait_for_function("document.body.dataset.cands === document.body.dataset.version")
        click_cell(page, ruled[0])  # a placed digit: its every copy lit
        page.screenshot(path=str(OUT / "web-candidates.png"))
        context.close()

        # a finished game's replay, half way through, from its shared link
        svc = games.service
        bea = svc.register("Bea")
        game = svc.create(bea.token, NewGame(Mode.PRACTICE, size="8x8", difficulty="easy"))
        for cell, digit in sorted(published_solution(game.puzzle["id"]).items()):
            svc.act(game.game_id, bea.token, {"kind": "place", "cell": name(cell), "digit": digit})
        context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
        page = context.new_page()
        page.goto(f"{live.url}/#/replay/{game.game_id}")
        page.wait_for_selector("#replay-board rect.white")
        total = int(page.evaluate("document.body.dataset.replayTotal"))
        for _ in range(total // 2):
            page.click("#replay-next")
        page.screenshot(path=str(OUT / "web-replay.png"))
        context.close()

        # a Battle watched read-only by someone with its link, a third of the board placed
        cai, dov = svc.register("Cai"), svc.register("Dov")
        duel = svc.create(cai.token, NewGame(Mode.BATTLE, size="8x8", difficulty="easy"))
        svc.join(duel.game_id, dov.token)
        answer = sorted(published_solution(duel.puzzle["id"]).items())
        seats = {cai.player_id: cai.token, dov.player_id: dov.token}
        for k, (cell, digit) in enumerate(answer[: len(answer) // 3]):
            token = seats[svc.spectate(duel.game_id).turn or ""]
            if k % 5 == 2:  # a wrong digit now and then: -150, never on the board
                svc.act(duel.game_id, token, {"kind": "place", "cell": name(cell),
                                              "digit": digit % 9 + 1})  # fmt: skip
                token = seats[svc.spectate(duel.game_id).turn or ""]
            svc.act(duel.game_id, token, {"kind": "place", "cell": name(cell), "digit": digit})
        context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
        page = context.new_page()
        page.goto(f"{live.url}/#/watch/{duel.game_id}")
        page.wait_for_selector("#watch-board text.digit")
        page.screenshot(path=str(OUT / "web-watch.png"))
        context.close()
        standings(browser, Path(tmp))
        computer_shots(browser, games, live)
        devices_shot(browser, games, live.url)
        browser.close()
    print(f"wrote web-guide, -slate, -parchment, -contrast, -candidates, -replay, -watch, "
          f"-standings, -archive, -computer, -rating, -devices in {OUT}")


def standings(browser: Any, tmp: Path) -> None:
    """The leaderboards and the archive, on a story of their own (tests/_standings.py)."""
    from _standings import FIRST, as_player, standings_server

    with standings_server(tmp / "standings.sqlite") as (_, live, seeded):
        page = as_player(browser, f"{live.url}/#/standings/day/{FIRST}", seeded["Dee"],
                         viewport=VIEWPORT, color_scheme="dark")  # fmt: skip
        page.wait_for_function(f"document.body.dataset.standings === '{FIRST} week'")
        page.click('#arena-periods a[data-period="all"]')
        page.wait_for_function(f"document.body.dataset.standings === '{FIRST} all'")
        page.screenshot(path=str(OUT / "web-standings.png"), full_page=True)
        page.goto(f"{live.url}/#/calendar/archive/2026-11")
        page.wait_for_function("document.body.dataset.archive === '2026-11'")
        page.goto(f"{live.url}/#/calendar/archive")
        page.wait_for_function("document.body.dataset.archive === '2026-12'")
        page.screenshot(path=str(OUT / "web-archive.png"))
        page.context.close()


def computer_shots(browser: Any, games: Any, live: Any) -> None:
    """A Battle against the easy computer (thinking at 2% of its pace), half way through,
    then played out and the stats page with the rating it moved."""
    live.app.state.bots.pace = 0.02
    context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
    page = context.new_page()
    page.goto(live.url)
    set_name(page, "Cy")
    page.select_option("#new-game select[name=mode]", "battle")
    page.select_option("#new-game select[name=computer]", "easy")
    page.click("#start")
    page.wait_for_selector("#board rect.white")
    _, puzzle, solution = game_of(games, page)
    taken: list[bool] = []

    def half_way(seen: dict[str, Any]) -> None:
        if not taken and len(seen["board"]) >= len(puzzle.whites) // 2:
            page.screenshot(path=str(OUT / "web-computer.png"))
            taken.append(True)

    play_out_against_computer(page, games, puzzle, solution, half_way)
    page.goto(f"{live.url}/#/stats")
    page.select_option("#rating-pool", "computer")
    page.wait_for_selector('#stats-rating tr[data-pool="computer"]')
    page.wait_for_selector("#rating-table tbody tr")
    page.screenshot(path=str(OUT / "web-rating.png"))
    context.close()


if __name__ == "__main__":
    main()
