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

from pathlib import Path

import pytest
from _registries import PARAMETERS, require_backend

from kakurolab import datasets

ROOT = Path(__file__).resolve().parents[1]
PE424 = datasets.PE424
JANKO = datasets.JANKO_DEV


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
