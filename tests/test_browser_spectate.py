"""A spectator in Debian's chromium (issue 50 §1): Ann and Bob play a Battle in two browser
contexts; a third context finds it under "Live now", watches it read-only, sees each placed
digit arrive by push (a rejected one never), has no control of play and sends nothing but its
``watch``; every frame it receives is audited (no solution, no pencil mark, no cell named
outside the public board) until the end, where the board shows the solution and the
standings.  PNG screenshots go to ``KAKURO_SHOTS`` when it names a directory."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from _spectate import audit
from _web import (
    auth,
    click_cell,
    frames,
    game_of,
    join,
    name,
    page_seat,
    published_solution,
    settle,
    shared_server,
    shot,
    start,
    view_puzzle,
)

from kakurolab.model import Cell
from kakurolab.web.gateway import EngineGames

pytestmark = pytest.mark.browser
S, M = 40, 2  # board.js: the cell side and the margin, in SVG user units

shared = shared_server("spectate")


def drawn(page: Any) -> dict[Cell, str]:
    """Cell -> digit of every big digit the watched board draws."""
    texts = page.eval_on_selector_all(
        "#watch-board text.digit",
        "ts => ts.map(t => [Number(t.getAttribute('x')), Number(t.getAttribute('y')),"
        " t.textContent])",
    )
    return {(int((y - M) // S), int((x - M) // S)): digit for x, y, digit in texts}


def sent(page: Any) -> list[str]:
    out: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: out.append(str(f))))
    return out


def test_a_third_browser_watches_a_battle_read_only(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    games, url = shared
    ann = start(browser, url, "Ann", mode="battle")
    bob = browser.new_context().new_page()
    code = ann.get_attribute("#room-code", "data-code")
    assert code and ann.locator("#watch-share").is_hidden()  # a lobby's link is its room code
    join(bob, url, "Bob", code)
    ann.wait_for_selector("#watch-share:visible")  # the duel runs: a link for spectators
    assert ann.get_attribute("#watch-share", "href") == f"{url}/#/watch/{code}"
    view, puzzle, solution = game_of(games, ann)
    tokens = {view["you"]: page_seat(ann)[1], games.view(*page_seat(bob))["you"]:
              page_seat(bob)[1]}  # fmt: skip
    pages = {view["you"]: ann, games.view(*page_seat(bob))["you"]: bob}

    cyd = browser.new_context(viewport={"width": 1280, "height": 820}).new_page()
    received, out = frames(cyd), sent(cyd)
    cyd.goto(url)
    link = cyd.locator(f'#live-games a[href="#/watch/{code}"]')
    assert link.inner_text() == "battle 8x8 · Ann vs Bob"
    link.click()
    cyd.wait_for_selector("#watch-board rect.white")
    cyd.wait_for_function("document.body.dataset.watchPhase === 'active'")
    # no control of play: the one button copies the link, the one field is the link
    buttons = cyd.eval_on_selector_all("#page-watch button", "bs => bs.map(b => b.id)")
    assert buttons == ["watch-copy"]
    assert cyd.eval_on_selector_all("#page-watch input", "is => is.map(i => i.readOnly)") == [True]

    whites = sorted(puzzle.whites)
    public: dict[Cell, int] = {}
    # two digits typed in the players' own browsers, one of them wrong (never shown)
    for cell, wrong in ((whites[0], True), (whites[0], False), (whites[1], False)):
        turn = games.view(*page_seat(ann))["turn"]
        page = pages[turn]
        page.wait_for_function("document.querySelector('#turn').innerText === 'Your turn'")
        click_cell(page, cell)
        page.keyboard.press(str(solution[cell] % 9 + 1 if wrong else solution[cell]))
        settle(page)
        if not wrong:
            public[cell] = solution[cell]
        version = games.version(code)
        cyd.wait_for_function(f"Number(document.body.dataset.watchVersion) >= {version}")
        assert {c: int(d) for c, d in drawn(cyd).items()} == public
    assert "to play" in cyd.inner_text("#watch-turn")
    # the watcher's keys and clicks do nothing: no move leaves its page
    r, c = whites[2]
    cyd.locator(f'#watch-board rect.white[data-r="{r}"][data-c="{c}"]').click()
    for key in ("5", "Shift+Digit3", "Backspace"):
        cyd.keyboard.press(key)
    shot(cyd, "watch")
    # the rest of the duel by HTTP (quicker than typing), a pencil mark on each turn
    with httpx.Client(base_url=url, timeout=30) as http:
        for cell in whites[2:]:
            turn = games.view(*page_seat(ann))["turn"]
            moves = "/api/games/" + code + "/moves"
            mark = {"kind": "mark", "cell": name(whites[-1]), "digit": 4}
            if cell != whites[-1]:
                http.post(moves, json={"move": mark}, headers=auth(tokens[turn]))
            place = {"kind": "place", "cell": name(cell), "digit": solution[cell]}
            answer = http.post(moves, json={"move": place}, headers=auth(tokens[turn]))
            assert answer.status_code == 200, answer.text
            public[cell] = solution[cell]
    cyd.wait_for_function("document.body.dataset.watchPhase === 'finished'")
    assert {c: int(d) for c, d in drawn(cyd).items()} == solution
    assert cyd.locator("#watch-standings tr").count() == 2
    assert [json.loads(f)["type"] for f in out] == ["watch"]  # nothing but its watch
    views = [m["view"] for m in map(json.loads, received) if "view" in m]
    assert len(views) >= 4 and views[-1]["phase"] == "finished"
    numbered = {name(c): d for c, d in solution.items()}
    for frame in views:
        audit(frame, frame["board"])  # no cell named but the board's, nothing hidden
        assert set(frame["board"].items()) <= set(numbered.items())  # right digits only
    for frame in views[:-1]:
        if frame["phase"] != "finished":
            assert len(frame["board"]) < len(solution)


def test_a_browser_watches_an_arena_as_each_racers_progress_only(
    browser: Any, shared: tuple[EngineGames, str]
) -> None:
    """An Arena, watched: the racers' shares of the grid move on the page as they fill it, no
    racer's digit is ever drawn or sent to the watcher, and the end shows the solution."""
    games, url = shared
    with httpx.Client(base_url=url, timeout=30) as http:
        tokens = {who: http.post("/api/players", json={"name": who}).json()["token"]
                  for who in ("Dee", "Eve")}  # fmt: skip
        race = http.post("/api/games", json={"mode": "arena", "size": "8x8"},
                         headers=auth(tokens["Dee"])).json()["game_id"]  # fmt: skip
        http.post(f"/api/games/{race}/join", headers=auth(tokens["Eve"]))

        def move(who: str, move: dict[str, Any]) -> None:
            answer = http.post(f"/api/games/{race}/moves", json={"move": move},
                               headers=auth(tokens[who]))  # fmt: skip
            assert answer.status_code == 200, answer.text

        move("Dee", {"kind": "start"})
        view = games.view(race, tokens["Dee"])
        puzzle, solution = view_puzzle(view), published_solution(view["puzzle"]["id"])
        eve = games.view(race, tokens["Eve"])["you"]

        fly = browser.new_context(viewport={"width": 1280, "height": 820}).new_page()
        received, out = frames(fly), sent(fly)
        fly.goto(f"{url}/#/watch/{race}")
        fly.wait_for_function("document.body.dataset.watchPhase === 'active'")
        assert "each racer's progress" in fly.inner_text("#watch-message")
        whites = sorted(puzzle.whites)
        for cell in whites[: len(whites) // 2]:  # Eve fills half her grid
            move("Eve", {"kind": "place", "cell": name(cell), "digit": solution[cell]})
        score = f'#watch-players li[data-player="{eve}"] .player-score'
        fly.wait_for_function(f"Number(document.querySelector('{score}').dataset.progress) >= 0.5"
                              f" - 1 / {len(whites)}")  # fmt: skip
        assert float(fly.get_attribute(score, "data-progress") or "") == (
            len(whites) // 2 / len(whites))
        assert "% filled" in fly.inner_text(score)
        assert drawn(fly) == {}  # her digits stay hers
        shot(fly, "watch-arena")
        for cell in whites:  # Dee fills her grid and submits: she wins, the race is over
            move("Dee", {"kind": "place", "cell": name(cell), "digit": solution[cell]})
        move("Dee", {"kind": "submit"})
        fly.wait_for_function("document.body.dataset.watchPhase === 'finished'")
    assert {c: int(d) for c, d in drawn(fly).items()} == solution
    assert fly.locator("#watch-standings tr").count() == 2
    assert [json.loads(f)["type"] for f in out] == ["watch"]
    views = [m["view"] for m in map(json.loads, received) if "view" in m]
    assert views[-1]["phase"] == "finished"
    for frame in views:
        audit(frame, frame["board"])
        if frame["phase"] != "finished":
            assert frame["board"] == {}  # an Arena has no public board while it runs
