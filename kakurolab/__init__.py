"""kakurolab: solve, prove and generate Kakuro puzzles with SAT, SMT and native solvers.

The public API::

    from kakurolab import load, solve, count, prove_unique
    puzzle = load("puzzles.txt")[0]
    result = solve(puzzle, backend="native")
    verdict = prove_unique(puzzle).verdict
    for solution in solutions(puzzle, limit=10):  # lazily, one solver session
        ...

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
    "solution_problems": "rulebook",
    "structure_problems": "rulebook",
    "validate": "rulebook",
    "structure_info": "rulebook",
    "FormatError": "errors",
    "KakuroError": "errors",
    "PuzzleError": "errors",
    "UnknownNameError": "errors",
    "FORMATS": "formats",
    "dumps": "formats",
    "load": "formats",
    "loads": "formats",
    "load_report": "formats",
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
    "solutions": "uniqueness",
    "SolveTimeout": "uniqueness",
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
    "SolveTimeout",
    "Status",
    "Uniqueness",
    "UnknownNameError",
    "Verdict",
    "White",
    "count",
    "dumps",
    "load",
    "load_report",
    "loads",
    "prove_unique",
    "solution_problems",
    "solutions",
    "solve",
    "structure_info",
    "structure_problems",
    "validate",
]

if TYPE_CHECKING:  # static tools see the real names
    from typing import Any

    from .backends import BACKENDS, Result, Status
    from .errors import FormatError, KakuroError, PuzzleError, UnknownNameError
    from .formats import FORMATS, dumps, load, load_report, loads
    from .model import Clue, ClueCell, Direction, Puzzle, Run, Solution, White
    from .rulebook import solution_problems, structure_info, structure_problems, validate
    from .uniqueness import (
        SolveTimeout,
        Uniqueness,
        Verdict,
        count,
        prove_unique,
        solutions,
        solve,
    )


def version() -> str:
    """The installed distribution's version (pyproject.toml is its one source)."""
    from .about import version as installed

    return installed()


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = version()
    elif name in _API:
        value = getattr(import_module(f".{_API[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def _show_in_notebooks() -> None:
    """Inside IPython (every Jupyter kernel), puzzles, solutions, results and explanation
    steps display as pictures (:mod:`kakurolab.notebook`); elsewhere this costs a dict look-up."""
    from sys import modules

    if "IPython" in modules:
        from .notebook import register_ipython

        register_ipython()


_show_in_notebooks()


def __dir__() -> list[str]:
    """The public API only: ``dir(kakurolab)`` lists what a user may call, not the module's
    own machinery (``TYPE_CHECKING``, ``annotations``, the lazy loader)."""
    return sorted({*__all__, "__version__", "version"})
