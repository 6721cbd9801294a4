"""kakurolab: solve, prove and generate Kakuro puzzles with SAT, SMT and native solvers.

The public API::

    from kakurolab import load, solve, count, prove_unique
    puzzle = load("puzzles.txt")[0]
    result = solve(puzzle, backend="native")
    verdict = prove_unique(puzzle).verdict
"""

from .backends import BACKENDS, Result, Status
from .check import solution_problems, structure_problems, validate
from .errors import FormatError, KakuroError, PuzzleError
from .formats import FORMATS, dumps, load, loads
from .model import Clue, ClueCell, Direction, Puzzle, Run, Solution, White
from .uniqueness import Uniqueness, Verdict, count, prove_unique, solve

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
