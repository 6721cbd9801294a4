"""Every puzzle a game is played on comes through here.

:func:`choose` is the one place that picks a puzzle by size, difficulty and seed.  A size
and level the verified bank holds (``kakurolab.bank``: 6x6 to 20x20, easy to expert) is a
random variant of a bank base, instant and already proved unique by two backends when the
bank was built (and again by its tests); any other size asks the generator (deterministic
by seed) and proves the unique solution with the solving API.  :func:`prepare` takes any
puzzle (a practice file) and checks it can be played.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..model import Cell, Puzzle, Solution
from ..uniqueness import Verdict, prove_unique
from .errors import PuzzleChoiceError


class Chosen(NamedTuple):
    """A playable puzzle (no metadata, so no embedded solution) and its unique solution."""

    puzzle: Puzzle
    solution: Solution


def choose(size: str, difficulty: str, seed: str | int) -> Chosen:
    """The puzzle of this size, difficulty and seed: the same on every machine."""
    from .. import bank
    from . import calendar

    date = calendar.date_of_seed(seed)
    day = None if date is None else calendar.day_of(date)
    if date is not None and day is not None and (day.size, day.difficulty) == (size, difficulty):
        drawn = calendar.drawn(date)  # the week's climb: the day's pool, as built
        return Chosen(Puzzle(drawn.puzzle.id, drawn.puzzle.grid), drawn.solution)
    if bank.holds(size, difficulty):
        drawn = bank.pick(size, difficulty, seed=_seed_number(seed))
        return Chosen(Puzzle(drawn.puzzle.id, drawn.puzzle.grid), drawn.solution)
    from ..generator import generate, parse_size

    nrows, ncols = parse_size(size)
    made = generate(nrows, ncols, difficulty, seed=seed)
    return prepare(made.puzzle)


def _seed_number(seed: str | int) -> int:
    """A seed as the bank's integer: a date string hashes the same way on every machine."""
    if isinstance(seed, int):
        return seed
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")


def prepare(puzzle: Puzzle) -> Chosen:
    """A standard puzzle with exactly one solution, stripped of its metadata; else one line
    saying why it cannot be played."""
    if puzzle.is_cryptic:
        raise PuzzleChoiceError(f"puzzle {puzzle.id}: the game plays standard (numeric) Kakuro")
    bare = Puzzle(puzzle.id, puzzle.grid)
    return Chosen(bare, solve_unique(bare))


def solve_unique(puzzle: Puzzle) -> Solution:
    """The puzzle's unique solution, proven (a game on an ambiguous grid could not judge)."""
    try:
        found = prove_unique(puzzle)
    except ValueError as exc:
        raise PuzzleChoiceError(f"puzzle {puzzle.id}: {exc}") from None
    if found.verdict is not Verdict.UNIQUE:
        raise PuzzleChoiceError(
            f"puzzle {puzzle.id}: a game needs exactly one solution, the solver says "
            f"{found.verdict.value}"
        )
    return found.solutions[0]


def solution_values(solution: Solution) -> dict[Cell, int]:
    return dict(solution.values)
