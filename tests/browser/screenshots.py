"""Regenerate docs/img/web-slate.png and docs/img/web-parchment.png: a 12x12 practice game in
progress (right digits, one wrong digit struck through by the Errors toggle, pencil marks,
a selected run with its combinations, a shield's answer) in both themes, in Debian's
chromium against the real engine (the shipped 12x12 normal set as the puzzle source).

    PYTHONPATH=. python tests/browser/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from _web import (  # noqa: E402
    click_cell,
    game_of,
    launch,
    served,
    settle,
    start,
)

OUT = ROOT / "docs" / "img"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        sync_playwright() as p,
        served(Path(tmp) / "shots.sqlite") as (games, live),
    ):
        browser = launch(p)
        page = start(browser, live.url, "Ada", viewport={"width": 1280, "height": 820},
                     size="12x12", difficulty="normal")  # fmt: skip
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
        browser.close()
    print(f"wrote {OUT / 'web-slate.png'} and {OUT / 'web-parchment.png'}")


if __name__ == "__main__":
    main()
