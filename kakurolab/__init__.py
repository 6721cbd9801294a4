"""kakurolab: solve, prove and generate Kakuro puzzles with SAT, SMT and native solvers.

The public API::

    from kakurolab import load, solve, count, prove_unique
    puzzle = load("puzzles.txt")[0]
    result = solve(puzzle, backend="native")
    verdict = prove_unique(puzzle).verdict
    for solution in solutions(puzzle, limit=10):  # lazily, one solver session
        ...
"""

from .backends import BACKENDS, Result, Status
from .check import solution_problems, structure_problems, validate
from .errors import FormatError, KakuroError, PuzzleError, UnknownNameError
from .formats import FORMATS, dumps, load, loads
from .model import Clue, ClueCell, Direction, Puzzle, Run, Solution, White
from .uniqueness import SolveTimeout, Uniqueness, Verdict, count, prove_unique, solutions, solve

__version__ = "0.1.0"

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
    "loads",
    "prove_unique",
    "solution_problems",
    "solutions",
    "solve",
    "structure_problems",
    "validate",
]
