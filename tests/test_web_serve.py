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
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200 and "Kakuro Master" in page.text
        assert httpx.get(url + "static/app.js", timeout=10).status_code == 200
        for _ in range(100):
            if opened.exists():
                break
            time.sleep(0.05)
        assert opened.read_text().strip() == url
    finally:
        stop(proc)


def test_no_browser_and_json(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    proc = serve(tmp_path, "--no-browser", "--json", env={"BROWSER": f"touch {opened}"})
    try:
        assert proc.stdout is not None
        info = json.loads(proc.stdout.readline())
        assert info["address"] == "127.0.0.1" and info["url"].startswith("http://127.0.0.1:")
        assert httpx.get(info["url"] + "api/health", timeout=10).json() == {"ok": True}
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
