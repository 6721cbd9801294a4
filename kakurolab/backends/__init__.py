"""The backend registry: one name per solver, used alike by the CLI, tests and results.

Backend modules import their solvers lazily (inside methods), so importing this registry
costs nothing and works without the optional extras installed.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnknownNameError
from .auto import AUTO_FEATURES, AutoRule, PuzzleFeatures
from .config import Config, check_options, coerce
from .registry import BACKENDS
from .session import Backend, ChildSession, Result, Session, SolutionCheckError, Status


def get_backend(name: str, **options: Any) -> Backend:
    """An instance of the named backend with its options.  ``name`` may carry options as a
    configuration does (``"pysat:encoding=fast,solver=g4"``); keyword options add to them.

    Examples:
        >>> from kakurolab.backends import get_backend
        >>> solver = get_backend("pysat:encoding=fast,solver=minisat22")
        >>> solver.name, solver.options["solver"]
        ('pysat', 'minisat22')
        >>> kl.solve(puzzle, backend=solver).status.value
        'sat'
    """
    if ":" in name:
        config = Config.parse(name)
        return Config(config.name, {**config.options, **options}).backend()
    try:
        cls = BACKENDS[name]
    except KeyError:
        raise UnknownNameError("backend", name, BACKENDS) from None
    return cls(**options)


__all__ = [
    "AUTO_FEATURES",
    "BACKENDS",
    "AutoRule",
    "Backend",
    "ChildSession",
    "Config",
    "PuzzleFeatures",
    "Result",
    "Session",
    "SolutionCheckError",
    "Status",
    "check_options",
    "coerce",
    "get_backend",
]
