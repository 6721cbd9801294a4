"""The four levels, easy / normal / hard / expert: one definition for generator and grader.

The rulebook names the Calendar's days by size and level (Monday "8x8 Easy" to Sunday's Grand
Master), PuzzleHub's write-up names four levels (Facil, Normal, Dificil, Experto) by the
ambiguity of their clues.  A level here requires two things of a puzzle that deduction
solves: the **hardest technique** it needs (``ladder`` weight, with how often it is needed
reported beside it) and the **mean clue ambiguity** (digit sets a clue's length and sum admit,
PuzzleHub's measure).  The generator accepts a puzzle for a level only when it meets both
(:meth:`Level.admits`); the grader names the level of any puzzle with :func:`level_of`, which
for a puzzle meeting a level's requirements is that level, so ``kakuro grade`` says what
``kakuro generate`` promised.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import KakuroError


@dataclass(frozen=True)
class Level:
    """What a puzzle of one level requires.

    ``ambiguity`` is a half-open band ``(low, high]`` of mean clue ambiguity; ``hardest`` the
    inclusive range of the weight of the hardest technique deduction needs (the ladder's
    weights: 5 run sets, 6 run subsets, 8 run permutations, 10+ across runs).
    """

    name: str
    ambiguity: tuple[float, float]
    hardest: tuple[int, int]
    meaning: str

    def admits_ambiguity(self, mean: float) -> bool:
        return self.ambiguity[0] < mean <= self.ambiguity[1]

    def admits_hardest(self, weight: int) -> bool:
        return self.hardest[0] <= weight <= self.hardest[1]

    def admits(self, weight: int, mean: float) -> bool:
        """Whether a puzzle deduction solves with this hardest weight and mean ambiguity is
        of this level (the generator's acceptance test)."""
        return self.admits_hardest(weight) and self.admits_ambiguity(mean)


LEVELS: tuple[Level, ...] = (
    Level(
        "easy",
        (0.0, 1.4),
        (0, 5),
        "at most run sets (weight 5 or less); mean clue ambiguity at most 1.4",
    ),
    Level(
        "normal",
        (1.4, 2.0),
        (0, 8),
        "at most exact run consistency; mean clue ambiguity above 1.4, at most 2.0",
    ),
    Level(
        "hard",
        (2.0, 2.6),
        (5, 8),
        "run sets, subsets or exact run consistency; mean clue ambiguity above 2.0, at most 2.6",
    ),
    Level(
        "expert",
        (2.6, 99.0),
        (8, 99),
        "exact run consistency or beyond; mean clue ambiguity above 2.6",
    ),
)
"""The levels, easiest first.  Bands and technique ranges both rise, so a harder level never
accepts an easier hardest technique or a lower mean ambiguity than an easier one."""

LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)

NEEDS_SEARCH = "needs-search"
"""The verdict for a puzzle deduction cannot finish: no level, trial and error is needed."""

BY_LEVEL: dict[str, Level] = {level.name: level for level in LEVELS}


def get_level(name: str) -> Level:
    try:
        return BY_LEVEL[name]
    except KeyError:
        raise KakuroError(f"unknown level {name!r}; known: {', '.join(LEVEL_NAMES)}") from None


def level_of(weight: int, mean: float) -> str:
    """The level of a puzzle deduction solves, from its hardest weight and mean ambiguity.

    The ambiguity band names a level; a hardest technique outside that level's range moves
    the verdict to the nearest level whose range holds it (a low-ambiguity puzzle that needs
    run permutations is ``normal``, not ``easy``; a high-ambiguity one that run sets finish is
    ``hard``, not ``expert``).  A puzzle meeting a level's both requirements gets that level.
    """
    index = next(
        (i for i, level in enumerate(LEVELS) if mean <= level.ambiguity[1]), len(LEVELS) - 1
    )
    fits = [i for i, level in enumerate(LEVELS) if level.admits_hardest(weight)]
    if not fits:  # weights above every range: the hardest level
        return LEVELS[-1].name
    return LEVELS[min(max(index, fits[0]), fits[-1])].name
