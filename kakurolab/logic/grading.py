"""Difficulty grades from the techniques a solve needs, in the spirit of Simonis's scheme.

Simonis ("Kakuro as a Constraint Problem", 2008) grades a puzzle by the weakest propagation
that solves it without search.  Our ladder is finer (named human techniques).  The named grade
is one of the generator's four levels (``levels``: the hardest rung needed and the clues'
combination ambiguity), so a generated puzzle grades at the level it was made for; the score
adds how often the hardest rung is needed and the work per cell.  A puzzle deduction cannot
finish is graded ``needs-search``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .. import combos
from ..deadline import DeadlinePassed
from ..model import Puzzle
from .explain import Deduction, deduce
from .ladder import BY_NAME, TECHNIQUES
from .levels import LEVELS, NEEDS_SEARCH, level_of

GRADES: tuple[tuple[str, str], ...] = (
    *((level.name, level.meaning) for level in LEVELS),
    (NEEDS_SEARCH, "deduction alone stops; trial and error is needed"),
)
"""Named grades, easiest first, with what each means."""


@dataclass(frozen=True)
class Grade:
    """A puzzle's grade: the name, the numeric score and the measurements behind it.

    Examples:
        >>> from kakurolab.logic import grade
        >>> g = grade(puzzle)
        >>> g.grade, g.hardest, g.solved
        ('hard', 'run sets', True)
    """

    id: str
    grade: str
    score: float
    hardest: str | None
    hardest_uses: int
    effort: int
    white_cells: int
    ambiguity: float
    solved: bool
    technique_counts: dict[str, int]
    shape: tuple[int, int] = (0, 0)

    @property
    def uniqueness_steps(self) -> int:
        """Steps that rest on the puzzle having one solution (swap rectangles)."""
        return sum(self.technique_counts.get(name, 0) for name in UNIQUENESS)

    @property
    def contradiction_steps(self) -> int:
        """Steps that refute a supposition (bounded contradiction)."""
        return sum(self.technique_counts.get(name, 0) for name in CONTRADICTION)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "grade": self.grade,
            "score": round(self.score, 3),
            "hardest": self.hardest,
            "hardest_uses": self.hardest_uses,
            "effort": self.effort,
            "white_cells": self.white_cells,
            "ambiguity": round(self.ambiguity, 3),
            "solved": self.solved,
            "technique_counts": self.technique_counts,
            "uniqueness_steps": self.uniqueness_steps,
            "contradiction_steps": self.contradiction_steps,
        }


def ambiguity(puzzle: Puzzle) -> float:
    """Mean number of digit sets per clue: how much a solver must keep open at the start
    (a letter clue counts the mean over the totals its run's length allows)."""
    counts = [
        combos.count(len(run), run.clue.value)
        if run.clue is not None and run.clue.value is not None
        else _letter_ambiguity(len(run))
        for run in puzzle.runs
    ]
    return sum(counts) / len(counts) if counts else 0.0


def _letter_ambiguity(length: int) -> float:
    totals = combos.feasible_sums(length)
    return sum(combos.count(length, t) for t in totals) / len(totals) if totals else 0.0


def grade_name(deduction: Deduction, mean_ambiguity: float) -> str:
    """The level (``levels.level_of``) of a solved puzzle, else ``needs-search``."""
    if not deduction.solved:
        return NEEDS_SEARCH
    hardest = deduction.hardest()
    return level_of(BY_NAME[hardest].weight if hardest else 0, mean_ambiguity)


UNIQUENESS = tuple(t.name for t in TECHNIQUES if t.assumes_unique)
CONTRADICTION = ("bounded contradiction",)


def grade(
    puzzle: Puzzle, deduction: Deduction | None = None, *, timeout: float | None = None
) -> Grade:
    """Grade a puzzle (deducing it first unless a deduction is given).

    score = 10 * effort / white cells           (weighted steps per cell: sustained work)
          + w(hardest) * log2(1 + its uses)     (the hardest rung and how often it is needed)
          + mean clue ambiguity                 (Simonis's combination count)
          + 20 + 50 * open share                (only when deduction stops: search needed)

    Examples:
        >>> from kakurolab.logic import grade
        >>> grade(puzzle).technique_counts["naked single"]
        7
    """
    deduction = deduce(puzzle, timeout=timeout) if deduction is None else deduction
    if deduction.timeout is not None:  # a cut deduction would grade as "needs search"
        raise DeadlinePassed(
            f"puzzle {puzzle.id}: timeout after {deduction.timeout:g} s while deducing: no grade"
        )
    counts = deduction.technique_counts()
    effort = sum(BY_NAME[name].weight * n for name, n in counts.items())
    hardest = deduction.hardest()
    uses = counts.get(hardest or "", 0)
    whites = len(puzzle.whites)
    amb = ambiguity(puzzle)
    score = 10 * effort / whites + amb
    if hardest is not None:
        score += BY_NAME[hardest].weight * math.log2(1 + uses)
    if not deduction.solved:
        score += 20 + 50 * (whites - len(deduction.state.placed)) / whites
    return Grade(
        puzzle.id,
        grade_name(deduction, amb),
        score,
        hardest,
        uses,
        effort,
        whites,
        amb,
        deduction.solved,
        counts,
        puzzle.shape,
    )


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank (as Spearman's coefficient needs)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's coefficient of the ranks (NaN if constant).

    Examples:
        >>> from kakurolab.logic import spearman
        >>> spearman([1, 2, 3], [10, 30, 20])
        0.5
    """
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("spearman needs two sequences of the same length, at least 2")
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)
