"""Difficulty levels, measured by combination ambiguity.

A clue's ambiguity is how many digit sets its length and sum admit (``combos.count``): a
two-cell 3 admits only {1, 2}, a four-cell 20 admits twelve sets.  Low-ambiguity clues pin
the digits of a run at once, so the mix of ambiguities is a simple, solver-independent
difficulty measure.  Each level caps the ambiguity of every clue and sets the preference
the fill uses to steer towards the clues the level wants.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import combos
from ..errors import KakuroError
from ..logic.levels import Level, get_level
from ..model import Puzzle
from ..rulebook import clue_values


@dataclass(frozen=True)
class Difficulty:
    """How a level shapes layouts and fills.

    ``max_ambiguity`` caps every clue (None: no cap); ``prefer`` weights digit sets by their
    ambiguity when the fill orders its choices; ``max_run`` and ``block_rate`` shape the
    layout (short runs keep the easy fill feasible).
    """

    name: str
    max_ambiguity: int | None
    prefer: tuple[float, ...]  # weight by ambiguity 1, 2, 3, ... (last entry repeats)
    max_run: int
    block_rate: float = 0.25
    white_share: float = 0.72
    """The share of white cells the layout starts from (``draw.published_layout``)."""
    dense_extra: float = 0.06
    """How much whiter a small grid is drawn (``GenerationLimits.dense_area``; generator
    3.6), whitened then by digit choices alone; 0: drawn at ``white_share`` and whitened
    with mends, as before.  ``expert`` keeps 0: at 12x12 its denser grids took longer to
    make unique than the mends they saved (seeds 0-4: median 0.17 -> 2.6 CPU s)."""
    repair_target: int = 1
    """The clue ambiguity a local repair aims for (low pins digits; expert keeps some)."""
    mean_band: tuple[float, float] = (0.0, 99.0)
    """The generator's own band of mean clue ambiguity, inside the level's (a margin from
    the neighbouring levels' bands; these were generator 2.5's gates, kept so a seed whose
    2.5 puzzle meets its level makes the same puzzle)."""

    hardest: tuple[int, int] = (0, 99)
    """The generator's own range of the hardest technique's weight (``logic.BY_NAME``),
    likewise inside the level's."""

    @property
    def level(self) -> Level:
        """What a puzzle of this level must meet (``logic.levels``: the grader's definition)."""
        return get_level(self.name)

    def accepts_mean(self, mean: float) -> bool:
        """Mean clue ambiguity inside the generator's band and the level's."""
        return self.mean_band[0] <= mean <= self.mean_band[1] and self.level.admits_ambiguity(mean)

    def admits(self, hardest_weight: int, mean: float) -> bool:
        """The acceptance test of a unique, deduction-solved grid: the hardest technique
        and the mean clue ambiguity inside the generator's ranges and the level's, so the
        grader names this level (``logic.levels.level_of``)."""
        return (
            self.hardest[0] <= hardest_weight <= self.hardest[1]
            and self.level.admits_hardest(hardest_weight)
            and self.accepts_mean(mean)
        )

    def allows(self, mask: int) -> bool:
        return self.max_ambiguity is None or ambiguity_of(mask) <= self.max_ambiguity

    def weight(self, mask: int) -> float:
        amb = ambiguity_of(mask)
        return self.prefer[min(amb, len(self.prefer)) - 1]


DIFFICULTIES: dict[str, Difficulty] = {
    # Published puzzles (janko dev set) keep their mean clue ambiguity between 1.3 and 4.1
    # (median 2.7) and are all solved by deduction; the levels' bands stay inside that range,
    # disjoint so means rise strictly from level to level for every size and seed.
    "easy": Difficulty(
        "easy", 2, (4.0, 1.0), max_run=6, mean_band=(1.0, 1.4), hardest=(0, 5), white_share=0.7
    ),
    "normal": Difficulty("normal", 2, (1.0, 4.0), max_run=7, mean_band=(1.4, 2.0)),
    "hard": Difficulty(
        "hard", 4, (1.0, 2.0, 2.0, 2.0), max_run=8, mean_band=(2.05, 2.6), hardest=(5, 99)
    ),
    "expert": Difficulty(
        "expert",
        5,
        (1.0, 1.0, 2.0, 3.0, 3.0),
        max_run=7,
        mean_band=(2.65, 4.0),
        hardest=(8, 99),
        dense_extra=0.0,
    ),
}
"""The generator's means to each level of ``logic.levels.LEVELS`` (same names, same order):
clue caps and preferences steer fills into the level's band of mean ambiguity."""


def get_difficulty(name: str) -> Difficulty:
    try:
        return DIFFICULTIES[name]
    except KeyError:
        known = ", ".join(DIFFICULTIES)
        raise KakuroError(f"unknown difficulty {name!r}; known: {known}") from None


def ambiguity_of(mask: int) -> int:
    """The ambiguity of the clue a run filled with the digits of ``mask`` gets (a table
    lookup: fills and repairs ask this millions of times)."""
    return _AMBIGUITY[mask]


_AMBIGUITY: list[int] = [
    combos.count(m.bit_count(), combos.mask_sum(m)) for m in range(combos.ALL_DIGITS + 1)
]


def clue_ambiguities(puzzle: Puzzle) -> list[int]:
    """The ambiguity of every clue (cryptic clues count every value their letters allow)."""
    return [sum(combos.count(len(run), total) for total in clue_values(run)) for run in puzzle.runs]


def mean_ambiguity(puzzle: Puzzle) -> float:
    """The mean number of digit sets a clue admits (PuzzleHub's measure of difficulty), over
    the clues of the puzzle; the levels are bands of it.

    Examples:
        >>> from kakurolab.generator import mean_ambiguity
        >>> mean_ambiguity(puzzle)
        3.75
    """
    values = clue_ambiguities(puzzle)
    return sum(values) / len(values) if values else 0.0
