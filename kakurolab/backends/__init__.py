"""The backend registry: one name per solver, used alike by the CLI, tests and results.

Backend modules import their solvers lazily (inside methods), so importing this registry
costs nothing and works without the optional extras installed.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnknownNameError
from .base import Backend, Result, Session, SolutionCheckError, Status
from .cpsat import CpSatBackend
from .cvc5 import Cvc5Backend
from .native import NativeBackend
from .pysat import PySATBackend
from .z3 import Z3Backend

BACKENDS: dict[str, type[Backend]] = {
    "cpsat": CpSatBackend,
    "cvc5": Cvc5Backend,
    "native": NativeBackend,
    "pysat": PySATBackend,
    "z3": Z3Backend,
}


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
