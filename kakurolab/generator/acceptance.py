"""What a generated grid must pass: uniqueness (the check the repair loop runs, chosen by
backend), solved by deduction under ``logic_only``, and the level as the grader measures
it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..logic import BY_NAME, deduce
from ..logic.grading import ambiguity
from ..model import Puzzle
from .job import GenerationLimits, GenerationStats
from .spot_checks import RegionCheck, UniquenessCheck, WholeGridCheck
from .steering import Difficulty

CHECKS: dict[str, Callable[[GenerationLimits, bool], UniquenessCheck]] = {
    "native": lambda limits, logic_only: RegionCheck(
        limits.node_limit, limits.quick_limit, limits.max_stuck, logic_only
    ),
}
"""Backends (by name) with a uniqueness check of their own: the native backend's root
propagation splits the grid into regions (``region_search``).  Any other backend, and a
backend instance, counts the whole grid (``spot_checks.WholeGridCheck``)."""


def uniqueness_check(limits: GenerationLimits, logic_only: bool = False) -> UniquenessCheck:
    """The check the repair loop runs for ``limits.backend`` (``logic_only``: regions
    propagation leaves open are repaired too, where the check can name them)."""
    make = CHECKS.get(limits.backend) if isinstance(limits.backend, str) else None
    if make is None:
        return WholeGridCheck(limits.backend, limits.count_options())
    return make(limits, logic_only)


def acceptable(
    puzzle: Puzzle,
    level: Difficulty,
    logic_only: bool,
    search: Mapping[str, Any],
    stats: GenerationStats,
) -> bool:
    """The last gates of a unique grid: no branching under ``--logic-only``, and the level
    (``logic.levels``: hardest technique and band of mean clue ambiguity, as the grader
    measures them; a miss is counted in ``stats.off_band``)."""
    mean = ambiguity(puzzle)
    if logic_only:
        deduction = deduce(puzzle)
        if not deduction.solved:
            return False
        hardest = deduction.hardest()
        admitted = level.admits(BY_NAME[hardest].weight if hardest else 0, mean)
    else:
        admitted = level.accepts_mean(mean)
    if not admitted:
        stats.off_band += 1
    return admitted
