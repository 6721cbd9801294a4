"""``kakuro play serve``: binds 127.0.0.1 by default, prints its URL, opens a browser unless
``--no-browser``, serves the page and the API; without the ``web`` extra it stops with one
line naming the extra."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from _tools import sigterm_took

ROOT = Path(__file__).resolve().parents[1]


def serve(tmp_path: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kakurolab", "play", "serve", "--port", "0",
         "--store", str(tmp_path / "games.sqlite"), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )  # fmt: skip


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


def test_serve_binds_localhost_prints_its_url_and_opens_a_browser(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    fake_browser = tmp_path / "browser.sh"
    fake_browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    fake_browser.chmod(0o755)
    proc = serve(tmp_path, env={"BROWSER": str(fake_browser)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("kakuro: serving on http://127.0.0.1:"), line
        url = line.split()[3]
        login = proc.stdout.readline().split()[-1]
        assert login.startswith(url + "login/"), login
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200 and "Kakuro Master" in page.text
        assert httpx.get(url + "static/app.js", timeout=10).status_code == 200
        for _ in range(100):
            if opened.exists():
                break
            time.sleep(0.05)
        assert opened.read_text().strip() == login  # signed in as the terminal's player
    finally:
        stop(proc)


def test_no_browser_and_json(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    proc = serve(tmp_path, "--no-browser", "--json", env={"BROWSER": f"touch {opened}"})
    try:
        assert proc.stdout is not None
        info = json.loads(proc.stdout.readline())
        assert info["address"] == "127.0.0.1" and info["url"].startswith("http://127.0.0.1:")
        health = httpx.get(info["url"] + "api/health", timeout=10).json()
        assert health["ok"] is True and health["queued"] in (0, 1, 2)  # the calendar, made ahead
        time.sleep(0.3)
        assert not opened.exists()
    finally:
        stop(proc)


def test_without_the_web_extra_one_line_names_it(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
        "from kakurolab.cli import main\n"
        f"sys.exit(main(['play', 'serve', '--no-browser', '--store', {str(tmp_path / 'g')!r}]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error:"), proc.stderr
    assert "kakurolab[web]" in lines[0]


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "kakurolab", "play", "serve", "--no-browser", "--port",
             str(port), "--store", str(tmp_path / "g.sqlite")],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
    finally:
        taken.close()
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"kakuro: error: cannot listen on 127.0.0.1:{port}: " + (
        "Address already in use"
    )


def _started(proc: subprocess.Popen) -> dict:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "no output"
    return json.loads(line)


def _login_token(login: str) -> tuple[str, str]:
    """(name, token) the sign-in page hands to the browser, read from the page."""
    page = httpx.get(login, timeout=10)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    data = json.loads(page.text.split("const me = ", 1)[1].split(";\n", 1)[0])
    return data["name"], data["token"]


def play(tmp_path: Path, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "kakurolab", "play", *args,
         "--store", str(tmp_path / "games.sqlite"), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_terminal_game_opens_in_the_browser_for_its_player(tmp_path: Path) -> None:
    """``kakuro play new --player alice`` then ``serve --player alice``: the browser's sign-in
    link carries alice's token, which opens alice's game; ``--token`` signs in the same way,
    and bob's link does not open alice's game."""
    game = play(tmp_path, "new", "--player", "alice")["game_id"]
    play(tmp_path, "new", "--player", "bob")
    proc = serve(tmp_path, "--no-browser", "--json", "--player", "alice")
    try:
        info = _started(proc)
        assert info["player"] == "alice"
        name, token = _login_token(info["login"])
        assert name == "alice"
        headers = {"Authorization": f"Bearer {token}"}
        view = httpx.get(f"{info['url']}api/games/{game}", headers=headers, timeout=10)
        assert view.status_code == 200 and view.json()["game_id"] == game
        assert httpx.get(info["url"] + "login/nope", timeout=10).status_code == 404
    finally:
        stop(proc)
    proc = serve(tmp_path, "--no-browser", "--json", f"--token={token}")  # may start with -
    try:
        name, again = _login_token(_started(proc)["login"])
        assert (name, again) == ("alice", token)
    finally:
        stop(proc)
    proc = serve(tmp_path, "--no-browser", "--json", "--player", "bob")
    try:
        info = _started(proc)
        _, bob = _login_token(info["login"])
        refused = httpx.get(f"{info['url']}api/games/{game}",
                            headers={"Authorization": f"Bearer {bob}"}, timeout=10)  # fmt: skip
        assert refused.status_code == 403
    finally:
        stop(proc)


def test_sigterm_stops_within_5_s_during_a_generation_losing_no_move(tmp_path: Path) -> None:
    """Moves acknowledged, a 20x20 expert generation running, a socket open: SIGTERM ends the
    process within 5 s and the store holds every acknowledged move."""
    import contextlib
    import threading

    from websockets.sync.client import connect

    from kakurolab.game import GameService

    proc = serve(tmp_path, "--no-browser", "--json")
    try:
        url = _started(proc)["url"]
        with httpx.Client(base_url=url, timeout=30) as http:
            token = http.post("/api/players", json={"name": "t"}).json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            view = http.post("/api/games", json={"mode": "practice"}, headers=headers).json()
            cells = [f"r{r + 1}c{c + 1}" for r, row in enumerate(view["puzzle"]["grid"])
                     for c, sq in enumerate(row) if sq == "."]  # fmt: skip
            acked = []
            for cell in cells[:5]:
                move = {"kind": "place", "cell": cell, "digit": 1}
                answer = http.post(f"/api/games/{view['game_id']}/moves", json={"move": move},
                                   headers=headers)  # fmt: skip
                assert answer.status_code == 200, answer.text
                acked.append(cell)
            answers: list[int] = []

            def generate() -> None:  # an Arena race on a fresh 20x20 expert: seconds of CPU
                with_error = httpx.post(url + "api/games", headers=headers, timeout=30,
                                        json={"mode": "arena", "size": "20x20",
                                              "difficulty": "expert"})  # fmt: skip
                answers.append(with_error.status_code)

            watching = contextlib.ExitStack()  # a player's socket, open through the SIGTERM
            socket = watching.enter_context(connect(url.replace("http://", "ws://") + "ws"))
            socket.send(json.dumps({"type": "hello", "game": view["game_id"], "token": token}))
            assert json.loads(socket.recv(timeout=10))["type"] == "view"
            # Generator 3.1 makes some 20x20 expert puzzles in about a second: ask again until
            # one is still being made when the signal goes (the point of the test).
            waiting: list[threading.Thread] = []
            for _ in range(8):
                waiting.append(threading.Thread(target=generate))
                waiting[-1].start()
                time.sleep(0.5)  # the worker process is generating
                if len(answers) < len(waiting):
                    break
            finished = list(answers)
            assert len(finished) < len(waiting), "every generation ended within 0.5 s"
            assert set(finished) <= {201}, finished
        took = sigterm_took(proc, waiting)
        watching.close()
        print(f"SIGTERM to exit: {took:.2f} s")
        assert proc.stderr is not None
        stderr = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert took < 5, took
    assert "leaked semaphore" not in stderr and "Traceback" not in stderr, stderr  # issue 45.9
    cut = answers[len(finished) :]
    assert cut in ([503], []), answers  # told the server is stopping, or cut off
    service = GameService(tmp_path / "games.sqlite")
    me = service.whoami(token)
    board = service.view(view["game_id"], token).to_json()["board"]
    service.close()
    assert me[1] == "t"
    assert board == {cell: 1 for cell in acked}  # every acknowledged move, nothing else


@pytest.mark.browser
def test_the_sign_in_link_opens_a_terminal_game_in_chromium(tmp_path: Path) -> None:
    """The browser way: Debian's chromium opens ``serve --player alice``'s link with the id of
    a game alice started in the terminal, and shows its board as alice's."""
    from _web import launch
    from playwright.sync_api import sync_playwright

    game = play(tmp_path, "new", "--player", "alice")["game_id"]
    proc = serve(tmp_path, "--no-browser", "--json", "--player", "alice")
    try:
        info = _started(proc)
        with sync_playwright() as pw:
            browser = launch(pw)
            page = browser.new_page()
            page.goto(f"{info['login']}?game={game}")
            page.wait_for_selector("#board rect.white", timeout=20_000)
            assert page.evaluate("location.hash") == f"#/game/{game}"
            assert page.evaluate("JSON.parse(localStorage.getItem('kakuro.player'))") == "alice"
            assert page.evaluate("location.pathname") == "/"
            browser.close()
    finally:
        stop(proc)
