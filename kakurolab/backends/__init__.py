"""The backend registry: one name per solver, used alike by the CLI, tests and results.

Backend modules import their solvers lazily (inside methods), so importing this registry
costs nothing and works without the optional extras installed.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import Any

from ..errors import UnknownNameError
from .base import Backend, Result, Session, SolutionCheckError, Status


class _Registry(MutableMapping[str, type[Backend]]):
    """Name -> backend class, each backend module imported on its first lookup: listing the
    names (CLI help, error messages) loads no backend, and one backend never loads the
    others' dependencies (the pysat backend pulls in every encoding, z3 included)."""

    def __init__(self, entries: dict[str, str]) -> None:
        self._entries: dict[str, str | type[Backend]] = dict(entries)

    def __getitem__(self, name: str) -> type[Backend]:
        entry = self._entries[name]
        if isinstance(entry, str):
            module, _, attr = entry.partition(":")
            entry = self._entries[name] = getattr(import_module(module, __name__), attr)
        return entry

    def __setitem__(self, name: str, cls: type[Backend]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


BACKENDS: MutableMapping[str, type[Backend]] = _Registry(
    {
        "cpsat": ".cpsat:CpSatBackend",
        "cvc5": ".cvc5:Cvc5Backend",
        "native": ".native:NativeBackend",
        "pysat": ".pysat:PySATBackend",
        "z3": ".z3:Z3Backend",
    }
)


def get_backend(name: str, **options: Any) -> Backend:
    """An instance of the named backend with its options."""
    try:
        cls = BACKENDS[name]
    except KeyError:
        raise UnknownNameError("backend", name, BACKENDS) from None
    return cls(**options)


__all__ = [
    "BACKENDS",
    "Backend",
    "Result",
    "Session",
    "SolutionCheckError",
    "Status",
    "get_backend",
]
