"""Regenerate docs/img/web-slate.png and docs/img/web-parchment.png: a 12x12 practice game in
progress (some correct digits, pencil marks, a selected run, the combination helper) in both
themes, from a real ``kakuro play serve`` on a scratch store, in Debian's chromium.

    PYTHONPATH=. python tests/browser/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from _web import launch  # noqa: E402

from kakurolab.web.loadtest import running_server  # noqa: E402

OUT = ROOT / "docs" / "img"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        running_server(Path(tmp) / "shots.sqlite") as url,
        sync_playwright() as p,
    ):
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        page.goto(url)
        page.fill("#player-name", "Ada")
        page.press("#player-name", "Enter")
        page.select_option("#new-game select[name=size]", "12x12")
        page.select_option("#new-game select[name=difficulty]", "normal")
        page.click("#start")
        page.wait_for_selector("#board rect.white")
        whites = page.locator("#board rect.white")
        # a few pencil marks and digits typed as a player would (not necessarily right)
        for index, keys in ((0, ["Shift+Digit1", "Shift+Digit3"]), (3, ["7"]), (5, ["9"])):
            whites.nth(index).click()
            for key in keys:
                page.keyboard.press(key)
        whites.nth(8).click()
        for key in ("Shift+Digit2", "Shift+Digit4", "Shift+Digit8"):
            page.keyboard.press(key)
        whites.nth(10).click()
        page.wait_for_function("document.body.dataset.pending === '0'")
        page.screenshot(path=str(OUT / "web-slate.png"))
        page.click("#theme-toggle")
        page.screenshot(path=str(OUT / "web-parchment.png"))
        browser.close()
    print(f"wrote {OUT / 'web-slate.png'} and {OUT / 'web-parchment.png'}")


if __name__ == "__main__":
    main()
