"""The code base stays ruff-clean: lint is part of the test line, so CI enforces it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: install kakurolab[test]")
    proc = subprocess.run(
        [ruff, "check", "kakurolab", "tests", "experiments"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_clean() -> None:
    """The type annotations are checked, not decoration: mypy (pyproject's [tool.mypy], with
    warn_unused_ignores) passes on the package.  mypy comes with the 'test' extra."""
    mypy = shutil.which("mypy") or str(Path(sys.executable).with_name("mypy"))
    assert Path(mypy).exists(), "mypy is missing: pip install -e '.[test]'"
    proc = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
