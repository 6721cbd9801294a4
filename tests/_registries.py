"""The registries as test parameters: every registered name becomes a test item by itself.

``conftest.pytest_generate_tests`` reads the lists here, so a new backend, encoding or format
is cross-checked by the existing tests without anyone editing a test (the way CPMpy's conftest
runs its generic tests once per installed solver).  Test ids are the registry names, the
same names as the CLI's ``--backend``/``--encoding``/``--to`` and the result columns.

Which backends may skip: a backend is *core* when its ``extra`` is None (its solver is a
required dependency) or when every requirement of its extra is also in the ``test`` extra of
pyproject.toml (a test environment always has it).  A core backend that cannot be imported
FAILS its tests; any other backend skips them, naming the extra that installs it.  An
*optional* backend (``Backend.optional``: an outside program such as ``minizinc``) skips only
when its program is not on PATH.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kakurolab.backends import BACKENDS
from kakurolab.encodings import ENCODERS, PRESETS, parse_spec
from kakurolab.errors import KakuroError
from kakurolab.formats import FORMATS

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

REFERENCES = ("native", "cpsat")
"""Reference backends for cross-checks, in order: a backend is checked against the first one
that is not itself (native propagates digit sets; CP-SAT runs lazy clause generation on the
plain model; the two share nothing but the model and the rule checker)."""


def _requirement_name(requirement: str) -> str:
    """``dask[distributed]>=2024.1`` -> ``dask`` (PEP 503 normalised)."""
    name = re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _extras() -> dict[str, frozenset[str]]:
    """Extra name -> the package names it installs, from pyproject.toml."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    return {
        extra: frozenset(map(_requirement_name, requirements))
        for extra, requirements in project.get("optional-dependencies", {}).items()
    }


def is_core(name: str) -> bool:
    """Whether a test environment must have this backend (see the module docstring)."""
    extra = BACKENDS[name].extra
    if extra is None:
        return True
    extras = _extras()
    return extra in extras and extras[extra] <= extras.get("test", frozenset())


def require_backend(name: str) -> str:
    """``name`` if the backend runs here; fail for a missing core backend, else skip."""
    cls = BACKENDS[name]  # an unregistered name is a KeyError: a failure, never a skip
    program = cls.requires_program
    if cls.optional and program is not None and shutil.which(program) is None:
        pytest.skip(f"backend {name!r} needs the {program} program on PATH")
    if not cls.available():
        if is_core(name):
            pytest.fail(f"core backend {name!r} cannot be imported: install kakurolab[test]")
        pytest.skip(f"backend {name!r} needs the extra: pip install 'kakurolab[{cls.extra}]'")
    return name


def reference_for(name: str) -> str:
    """The backend a cross-check compares ``name`` with."""
    return next(ref for ref in REFERENCES if ref != name)


def backend_names() -> list[str]:
    return sorted(BACKENDS)


def cnf_presets() -> list[str]:
    return sorted(name for name, p in PRESETS.items() if parse_spec(p.spec).family == "cnf")


def smt_encodings() -> list[str]:
    return sorted(ENCODERS["smt"])


def format_names() -> list[str]:
    return sorted(FORMATS)


def encoding_specs() -> list[str]:
    """One CNF spec per registered part value (and per argument of it): the value on top of
    the defaults, with explicit all-different when the defaults need it.  Two values that
    canonicalise to the same spec are tested once."""
    specs: dict[str, str] = {}
    for kind, table in ENCODERS.items():
        if kind == "smt":
            continue
        for name, part in table.items():
            for arg in part.args or ("",):
                value = f"{name}:{arg}" if arg else name
                spec = _valid_spec(f"{kind}={value}")
                specs.setdefault(str(parse_spec(spec)), spec)
    return sorted(specs.values())


def _valid_spec(spec: str) -> str:
    """``spec``, or ``spec`` with pairwise all-different when it needs one to be valid."""
    for candidate in (spec, f"{spec},alldiff=pairwise"):
        try:
            parse_spec(candidate)
        except KakuroError:
            continue
        return candidate
    raise AssertionError(f"registered part {spec!r} gives no valid spec on the defaults")


PARAMETERS = {
    "backend_name": backend_names,
    "cnf_preset": cnf_presets,
    "encoding_spec": encoding_specs,
    "format_name": format_names,
    "smt_encoding": smt_encodings,
}
"""Fixture name -> the registry names it runs over."""


def require_module(module: str) -> Any:
    """Import ``module``, which the ``test`` extra installs: a missing one fails the test (the
    environment is incomplete) instead of skipping it, as a missing core backend does."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pytest.fail(f"{module} cannot be imported ({exc}): install kakurolab[test]")
