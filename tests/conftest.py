"""Shared fixtures: the real collections shipped in data/ (a missing file fails, never skips),
and the registries as parameters.

Registry parametrization (see ``_registries``): a test that asks for

* ``backend_name`` runs once per name in ``kakurolab.backends.BACKENDS``;
* ``cnf_preset`` once per CNF preset, ``encoding_spec`` once per registered CNF part value,
  ``smt_encoding`` once per SMT encoding (``kakurolab.encodings`` registries);
* ``format_name`` once per name in ``kakurolab.formats.FORMATS``;

with the registry names as test ids, so a new entry is tested without editing a test.
Skip rule: a *core* backend (its solver a required dependency, or its extra wholly inside
the ``test`` extra of pyproject.toml) that cannot be imported FAILS; any other backend skips
naming the extra that installs it.  Today all five (native, pysat, z3, cpsat, cvc5) are core.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _registries import PARAMETERS, require_backend

from kakurolab import datasets

ROOT = Path(__file__).resolve().parents[1]
PE424 = datasets.PE424
JANKO = datasets.JANKO_DEV


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (in addopts) spreads the default suite over every core; benchmarks time
    against a peer on a quiet machine, so ``-m bench`` runs them in one process."""
    expression = config.getoption("markexpr") or ""
    if "bench" in expression.replace("not bench", ""):
        return 0
    return None  # xdist's own count: one worker per core


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize the registry fixtures a test asks for (unless it parametrizes them itself)."""
    explicit = {
        name.strip()
        for mark in metafunc.definition.iter_markers("parametrize")
        for name in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])
    }
    for fixture, names in PARAMETERS.items():
        if fixture in metafunc.fixturenames and fixture not in explicit:
            values = names()
            metafunc.parametrize(fixture, values, ids=values, indirect=fixture == "backend_name")


@pytest.fixture
def backend_name(request: pytest.FixtureRequest) -> str:
    """A registered backend that runs here (a missing core backend fails the test)."""
    return require_backend(request.param)


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


# -- the browser tests' fixtures (tests/test_browser*.py): one place for both modules -------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a test module (Debian's, through Playwright: see ``_web.launch``)."""
    from _web import launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """A live ``play serve`` on a scratch store: the engine (``EngineGames``) and the URL."""
    from _web import engine_games, live_server

    games = engine_games(tmp_path / "games.sqlite")
    with live_server(games) as live:
        yield games, live.url
    games.close()


# -- the game store: every store test runs on SQLite and on a real PostgreSQL ---------------

STORES = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """A throwaway PostgreSQL cluster for this test process (``tests/_pg.py``)."""
    import _pg

    cluster = _pg.start()
    yield cluster
    cluster.stop()


@pytest.fixture(params=STORES)
def store_at(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A fresh, empty game store: a SQLite file, or a new database of :func:`pg_cluster`."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite"
    return str(request.getfixturevalue("pg_cluster").database())
