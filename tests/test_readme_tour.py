"""Every line of the README's CLI tour runs as written on a fresh clone.

The tour is read from README.md itself, so a line that names a file nobody ships, or an option
that changed, fails here.  Lines run in order in one working folder holding the clone's
``data/``, ``experiments/`` and the committed ``results/pe424/`` (the tour's later lines read
files its earlier lines write: ``janko1.kakuro``, ``certs/``, ``hard.kakuro``).  A line with a
pipe runs in bash with this environment's ``kakuro`` first on PATH; the others run in-process.
The default suite runs all but the long lines (the PE424 bench, a fresh PE424 experiment, 10
grids of the loose stress grid); ``-m slow`` runs every line.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kakurolab.cli import main

ROOT = Path(__file__).resolve().parents[1]
LONG = ("kakuro bench ", "kakuro experiment run ", "kakuro count data/stress_loose")
"""Tour lines left to the slow suite: each takes tens of seconds to minutes."""


def tour() -> list[str]:
    """The command lines of the README's CLI tour, comments stripped, ``;`` split apart."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## A tour of the CLI\n+```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no CLI tour"
    lines = []
    for raw in block.group(1).splitlines():
        words = shlex.split(raw, comments=True)
        if not words:
            continue
        line = " ".join(w if w in ("|", ";") else shlex.quote(w) for w in words)
        lines += [part.strip() for part in line.split(" ; ")]
    return lines


def workspace(tmp_path: Path) -> Path:
    (tmp_path / "data").symlink_to(ROOT / "data", target_is_directory=True)
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    shutil.copytree(ROOT / "results" / "pe424", tmp_path / "results" / "pe424")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def run_line(line: str, folder: Path) -> int:
    words = shlex.split(line)
    if "|" in words:
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        env = {**os.environ, "PATH": path}
        proc = subprocess.run(
            ["bash", "-o", "pipefail", "-c", line],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.stdout.strip(), f"{line}: printed nothing ({proc.stderr.strip()})"
        return 0 if proc.returncode in (0, 10) and not proc.stderr.strip() else proc.returncode
    assert words[0] == "kakuro", f"the tour runs kakuro, not {words[0]!r}: {line}"
    return main(words[1:])


def test_the_tour_names_real_files_and_real_commands() -> None:
    lines = tour()
    assert len(lines) >= 25
    for line in lines:
        for word in shlex.split(line):
            if word.startswith("data/") or word.startswith("experiments/"):
                assert (ROOT / word).exists(), f"{line}: {word} is not in the clone"


def _run_tour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, long: bool) -> list[str]:
    folder = workspace(tmp_path)
    monkeypatch.chdir(folder)
    ran = []
    for line in tour():
        if not long and line.startswith(LONG):
            continue
        assert run_line(line, folder) == 0, f"README tour line failed: {line}"
        ran.append(line)
    return ran


def test_every_quick_tour_line_runs_as_written(tmp_path, monkeypatch, capsys) -> None:
    ran = _run_tour(tmp_path, monkeypatch, long=False)
    out = capsys.readouterr().out
    assert "8426039571" in out  # euler424's first answer, as published
    assert (tmp_path / "certs" / "1" / "manifest.json").exists()
    assert (tmp_path / "hard.svg").read_text().startswith("<")
    assert len(ran) == len(tour()) - sum(line.startswith(LONG) for line in tour())


@pytest.mark.slow
def test_every_tour_line_runs_as_written(tmp_path, monkeypatch) -> None:
    ran = _run_tour(tmp_path, monkeypatch, long=True)
    assert ran == tour()
