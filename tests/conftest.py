"""Shared fixtures: the real collections shipped in data/ (a missing file fails, never skips)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kakurolab import datasets

ROOT = Path(__file__).resolve().parents[1]
PE424 = datasets.PE424
JANKO = datasets.JANKO_DEV


def _need(path: Path) -> Path:
    assert path.exists(), f"shipped data {path} is missing from the checkout"
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
