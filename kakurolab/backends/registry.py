"""Name -> backend class, each backend module imported on its first lookup."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module

from .session import Backend


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
            entry = self._entries[name] = getattr(import_module(module, __package__), attr)
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
        "auto": ".auto:AutoBackend",
        "cpsat": ".cpsat:CpSatBackend",
        "cvc5": ".cvc5:Cvc5Backend",
        "dimacs": ".dimacs:DimacsBackend",
        "lcg": ".lcg:LcgBackend",
        "minizinc": ".minizinc:MinizincBackend",
        "native": ".native:NativeBackend",
        "pysat": ".pysat:PySATBackend",
        "z3": ".z3:Z3Backend",
    }
)
