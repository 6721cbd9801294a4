"""Helpers several test files share, written once: outside tools run in-process, the small
project a config test needs, and the one-line error a bad CLI call must end with."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest


def one_line_error(capsys: pytest.CaptureFixture[str], code: int) -> str:
    """The command exited 2 with exactly one ``kakuro: error:`` line and no traceback."""
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error: "), captured.err
    return lines[0]


def cvc5_answers(text: str) -> list[str]:
    """Run an SMT-LIB2 text through cvc5's own parser; the non-empty command outputs."""
    import cvc5  # core under the conftest rule: a missing cvc5 fails, never skips

    solver = cvc5.Solver(cvc5.TermManager())
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "kakuro")
    symbols = parser.getSymbolManager()
    outputs = []
    while not (command := parser.nextCommand()).isNull():
        outputs.append(command.invoke(solver, symbols).strip())
    return [out for out in outputs if out]


def write_config(root: Path, text: str, name: str = "t") -> Path:
    """A project root (pyproject.toml marks it) with experiments/<name>.toml."""
    (root / "pyproject.toml").touch()
    (root / "experiments").mkdir(exist_ok=True)
    path = root / "experiments" / f"{name}.toml"
    path.write_text(text)
    return path


def sigterm_took(proc: subprocess.Popen, threads: list[threading.Thread]) -> float:
    """Seconds from SIGTERM to a ``kakuro serve`` process's exit; its client threads are
    joined after (each has had its answer or its cut-off by then)."""
    began = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    took = time.monotonic() - began
    for thread in threads:
        thread.join(10)
    return took
