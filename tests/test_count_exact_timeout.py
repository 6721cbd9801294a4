"""``kakuro count --exact`` honours ``--timeout`` (issue 26): pyganak cannot be interrupted, so
with a timeout the count runs in a child process that is killed at the deadline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _cnf_cases import HAND_MADE, HAND_MADE_COUNTS, hand_made
from _registries import require_module

from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.proofs import CountTimeout, exact_count
from kakurolab.uniqueness import count

ROOT = Path(__file__).resolve().parents[1]
LOOSE = ROOT / "data" / "stress_loose_101x31.txt"
"""Thousands of white cells and astronomically many solutions: pyganak runs for minutes."""


def _children() -> set[int]:
    """Live child processes of this test process (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] not in ("Z", "X"):
                found.add(int(entry.name))
    return found


def test_a_long_exact_count_stops_at_the_timeout(capsys) -> None:
    """Before: past 300 s with --timeout 20.  Now: the timeout, a clear line, exit 1, and no
    counter left running."""
    require_module("pyganak")
    before = _children()
    start = time.monotonic()
    code = main(["count", str(LOOSE), "--exact", "--timeout", "1", "--json"])
    elapsed = time.monotonic() - start
    obj = json.loads(capsys.readouterr().out)
    assert code == 1
    assert obj["status"] == "unknown" and obj["verdict"] == "unknown" and not obj["complete"]
    assert obj["n_solutions"] is None
    assert obj["message"].startswith("timeout: exact count stopped after 1 s")
    assert obj["time_s"] >= 1.0 and elapsed < 15  # generous: a loaded CI machine
    assert _children() <= before


def test_the_text_line_says_timeout(tmp_path: Path) -> None:
    require_module("pyganak")
    proc = subprocess.run(
        [sys.executable, "-m", "kakurolab", "count", str(LOOSE), "--exact", "--timeout", "0.5"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "timeout: exact count stopped after 0.5 s" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_counts_in_the_child_match_the_blocking_count(name: str) -> None:
    """The child answers exactly what counting here answers, checked against an independent
    backend's complete blocking count."""
    require_module("pyganak")
    puzzle = hand_made(name)
    result = count(puzzle, None, backend="native")
    assert result.complete
    assert exact_count(puzzle, timeout=60) == result.n_solutions == HAND_MADE_COUNTS[name]


def test_errors_in_the_child_come_back_as_errors() -> None:
    require_module("pyganak")
    with pytest.raises(KakuroError, match="lazy"):
        exact_count(hand_made("unique"), "lazy", timeout=60)


def test_count_timeout_is_its_own_exception() -> None:
    """A timeout is not bad input: it is not a KakuroError (exit 2), the command says so."""
    assert not issubclass(CountTimeout, KakuroError)
