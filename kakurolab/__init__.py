"""kakurolab: solve, prove and generate Kakuro puzzles with SAT, SMT and native solvers.

The public API::

    from kakurolab import load, solve, count, prove_unique
    puzzle = load("puzzles.txt")[0]
    result = solve(puzzle, backend="native")
    verdict = prove_unique(puzzle).verdict

The names below are imported on first use (PEP 562), so ``import kakurolab`` and the ``kakuro``
command start without loading the solvers (z3, PySAT, networkx) until something needs them.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs start-up time

_API: dict[str, str] = {
    "BACKENDS": "backends",
    "Result": "backends",
    "Status": "backends",
    "solution_problems": "check",
    "structure_problems": "check",
    "validate": "check",
    "FormatError": "errors",
    "KakuroError": "errors",
    "PuzzleError": "errors",
    "FORMATS": "formats",
    "dumps": "formats",
    "load": "formats",
    "loads": "formats",
    "Clue": "model",
    "ClueCell": "model",
    "Direction": "model",
    "Puzzle": "model",
    "Run": "model",
    "Solution": "model",
    "White": "model",
    "Uniqueness": "uniqueness",
    "Verdict": "uniqueness",
    "count": "uniqueness",
    "prove_unique": "uniqueness",
    "solve": "uniqueness",
}
"""Public name -> the submodule defining it."""

__all__ = [
    "BACKENDS",
    "FORMATS",
    "Clue",
    "ClueCell",
    "Direction",
    "FormatError",
    "KakuroError",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Run",
    "Solution",
    "Status",
    "Uniqueness",
    "Verdict",
    "White",
    "count",
    "dumps",
    "load",
    "loads",
    "prove_unique",
    "solution_problems",
    "solve",
    "structure_problems",
    "validate",
]

if TYPE_CHECKING:  # static tools see the real names
    from typing import Any

    from .backends import BACKENDS, Result, Status
    from .check import solution_problems, structure_problems, validate
    from .errors import FormatError, KakuroError, PuzzleError
    from .formats import FORMATS, dumps, load, loads
    from .model import Clue, ClueCell, Direction, Puzzle, Run, Solution, White
    from .uniqueness import Uniqueness, Verdict, count, prove_unique, solve


def version() -> str:
    """The installed distribution's version (pyproject.toml is its one source)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version(__name__)
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = version()
    elif name in _API:
        value = getattr(import_module(f".{_API[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_API, "__version__"})
