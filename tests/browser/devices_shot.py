"""docs/img/web-devices.png: the start page's My games and Devices cards of a player on three
devices (this browser, a phone signed in with a code, a revoked one) with a fresh sign-in code
shown and one unused code listed, in Debian's chromium against the real engine.  Called by
``screenshots.py``; alone:

    PYTHONPATH=. python tests/browser/devices_shot.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from _web import launch, new_game, served, set_name  # noqa: E402

OUT = ROOT / "docs" / "img"
VIEWPORT = {"width": 1280, "height": 820}


def devices_shot(browser: Any, games: Any, url: str) -> None:
    """Take web-devices.png on the server at ``url`` (``games``: its engine)."""
    context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
    page = context.new_page()
    page.goto(url)
    set_name(page, "Ada")
    page.click("#guide-skip")
    new_game(page, url)
    new_game(page, url, size="10x10")
    name = page.evaluate("JSON.parse(localStorage.getItem('kakuro.player'))")
    token = page.evaluate("JSON.parse(localStorage.getItem('kakuro.identities'))")[name]["token"]
    accounts = games.service.accounts
    accounts.redeem(accounts.make_code(token).code, "Firefox on Android")
    lost = accounts.redeem(accounts.make_code(token).code, "Old laptop")
    accounts.revoke_device(token, lost[3])
    accounts.make_code(token)  # an unused code, listed
    page.goto(f"{url}/#/")
    page.wait_for_selector("#devices-list li >> nth=2")
    page.click("#devices-make")
    page.wait_for_selector("#devices-new:not([hidden])")
    page.wait_for_selector("#devices-codes li >> nth=1")
    first = page.locator("#my-games").bounding_box()
    last = page.locator("#devices").bounding_box()
    assert first is not None and last is not None
    x, y = first["x"] - 8, min(first["y"], last["y"]) - 8
    clip = {"x": x, "y": y, "width": last["x"] + last["width"] + 8 - x,
            "height": max(first["y"] + first["height"], last["y"] + last["height"]) + 8 - y}
    page.screenshot(path=str(OUT / "web-devices.png"), clip=clip, full_page=True)
    context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        sync_playwright() as p,
        served(Path(tmp) / "shots.sqlite") as (games, live),
    ):
        browser = launch(p)
        devices_shot(browser, games, live.url)
        browser.close()
    print(f"wrote web-devices.png in {OUT}")


if __name__ == "__main__":
    main()
