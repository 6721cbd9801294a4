"""Preparing a new game's puzzle: the slow part of creating a game, kept apart from the service.

:meth:`GameService.choice <kakurolab.game.service.GameService.choice>` decides what puzzle a
new game needs (a :class:`Choice`, fast, under the service's lock); :func:`make` makes it (a
bank lookup, the generator, or a calendar day's graded draw) into a :class:`Prepared`.  Both
records are plain and picklable, so a web server runs :func:`make_portable` in a worker process
and rebuilds the result with :func:`from_portable`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..formats import dumps, loads
from ..model import Puzzle, Solution
from . import calendar, fair, puzzles, scoring
from .moves import Mode
from .rules import RULES, GameSpec, Options

Chooser = Callable[[str, str, str | int], tuple[Puzzle, Solution]]


def fresh_puzzle(size: str, difficulty: str, seed: str | int) -> tuple[Puzzle, Solution]:
    """A newly generated puzzle (not a shipped one, nor one of its 16 variants), named by
    nothing that gives its seed away."""
    from ..generator import generate, parse_size

    nrows, ncols = parse_size(size)
    made = generate(nrows, ncols, difficulty, seed=seed)
    chosen = puzzles.prepare(made.puzzle)
    return Puzzle("fresh", chosen.puzzle.grid), chosen.solution


def bank_holds(size: str, difficulty: str) -> bool:
    """Whether the shipped bank has puzzles of this size and level (else the generator runs)."""
    from .. import bank

    return bank.holds(size, difficulty)


@dataclass(frozen=True)
class Choice:
    """The puzzle a new game needs, as :meth:`GameService.choice` decided it; :func:`make`
    makes it (pure and picklable: a worker process may run it)."""

    mode: Mode
    size: str
    difficulty: str | None
    seed: str | None
    date: str | None
    source: str
    options: Options
    puzzle: Puzzle | None = None
    cache_key: str | None = None
    slow: bool = False
    """Making it runs the generator (seconds to minutes), not a lookup."""


@dataclass(frozen=True)
class Prepared:
    """A made puzzle, its unique solution and the game's spec."""

    spec: GameSpec
    puzzle: Puzzle
    solution: Solution
    fingerprints: dict[str, int] | None = None
    """A secret puzzle's :func:`fair.fingerprints`, computed where it was made (a worker
    process, not the engine thread)."""


def make(choice: Choice, chooser: Chooser, fresh: Chooser) -> Prepared:
    """Make the puzzle of ``choice`` (the slow part of a new game: runs anywhere)."""
    if choice.puzzle is not None:
        puzzle, solution = puzzles.prepare(choice.puzzle)
    else:
        assert choice.difficulty is not None and choice.seed is not None
        if choice.source == "secret" and RULES[choice.mode].dated and choice.date:
            puzzle, solution = _calendar_day(choice, fresh)
        else:
            pick = fresh if choice.source == "secret" else chooser
            puzzle, solution = pick(choice.size, choice.difficulty, choice.seed)
        puzzle = Puzzle(puzzle.id, puzzle.grid)
    size = choice.size
    target = scoring.target_seconds(size, choice.difficulty, puzzle)
    seed = None if choice.source == "secret" else choice.seed
    spec = GameSpec(choice.mode, size, choice.difficulty, seed, choice.date, choice.source,
                    target, choice.options)  # fmt: skip
    fresh_made = choice.source == "secret" and choice.puzzle is None
    mark = fair.fingerprints(puzzle) if fresh_made else None  # a kept day has its own
    return Prepared(spec, puzzle, solution, mark)


CALENDAR_TRIES = 24
"""Seeds a calendar day's maker draws, at most, for a grade in the day's band."""


def _calendar_day(choice: Choice, fresh: Chooser) -> tuple[Puzzle, Solution]:
    """A calendar day's fresh puzzle whose grade score falls in its week day's band
    (:func:`calendar.fits`): the bands rise and are disjoint, so the week rises strictly in
    grade from Monday to Sunday.  The seed is drawn again (``SEED/1``, ``SEED/2`` ...) until
    one fits; a maker that ignores the seed (a test's), or bad luck, ends with the closest."""
    from ..logic import grade

    assert choice.date is not None and choice.seed is not None and choice.difficulty
    day = calendar.parse_date(choice.date)
    low, high = calendar.score_band(day.weekday())
    best: tuple[float, Puzzle, Solution] | None = None
    seen = set()
    for attempt in range(CALENDAR_TRIES):
        seed = choice.seed if attempt == 0 else f"{choice.seed}/{attempt}"
        puzzle, solution = fresh(choice.size, choice.difficulty, seed)
        if puzzle.grid in seen:
            break  # the maker gives the same grid whatever the seed
        seen.add(puzzle.grid)
        score = grade(puzzle).score
        if calendar.fits(day, score):
            return puzzle, solution
        miss = low - score if score <= low else score - high
        if best is None or miss < best[0]:
            best = (miss, puzzle, solution)
    assert best is not None
    return best[1], best[2]


def make_portable(choice: Choice, chooser: Chooser, fresh: Chooser) -> tuple[Any, ...]:
    """:func:`make` for a worker process: the result as plain data (a puzzle's records may
    hold read-only mappings, which do not pickle); :func:`from_portable` rebuilds it."""
    made = make(choice, chooser, fresh)
    text = dumps([Puzzle(made.puzzle.id, made.puzzle.grid)], "kakuro")
    values = sorted(dict(made.solution.values).items())
    return made.spec.to_json(), text, values, made.fingerprints


def from_portable(data: tuple[Any, ...]) -> Prepared:
    spec, text, values, mark = data
    (puzzle,) = loads(text, format="kakuro")
    cells = {(int(r), int(c)): int(d) for (r, c), d in values}
    return Prepared(GameSpec.from_json(spec), Puzzle(puzzle.id, puzzle.grid), Solution(cells),
                    mark)  # fmt: skip
