"""Shared fixtures: the real data in ../shared/data (skipped with a reason when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
PE424 = SHARED / "p424_kakuro200.txt"
JANKO = SHARED / "janko_kakuro_dev.json"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data {path} is absent (expected ../shared/data beside the checkout)")
    return path


@pytest.fixture(scope="session")
def pe424_path() -> Path:
    return _need(PE424)


@pytest.fixture(scope="session")
def janko_path() -> Path:
    return _need(JANKO)


@pytest.fixture(scope="session")
def pe424_puzzles(pe424_path):
    from kakurolab.formats import load

    return load(pe424_path)


@pytest.fixture(scope="session")
def janko_puzzles(janko_path):
    from kakurolab.formats import load

    return load(janko_path)
