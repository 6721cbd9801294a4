"""The ambiguity knob: puzzles from loose (many solutions) to tight (unique) on one planted
fill, and their twins (issue 47 §1, docs/experiments.md "The phase transition").

**What the knob acts on.**  A published layout is filled once (as the ``loose`` hard family
does: every digit set allowed, no preference), and the generator's repair loop
(``repair.RepairLoop``, search mode: repairs stop as soon as the grid is unique) runs on it,
recording each grid it goes through (``RepairLoop.trail``): the fill, then the grid after
every repair or block that stayed, the unique grid last.  The knob is the share of those
repairs applied: knob 0 is the fill itself (the ``loose`` family), knob 1 the unique grid,
knob k the grid after ``round(k * steps)`` repairs.  Each grid is a planted fill of its own
layout, so every member is solvable, and the clues are its run sums.

Why the repairs and not the fill or the layout alone: biasing the fill toward extreme
digits moved the mean digit sets per run only from about 6.1 to 4.3 and every member kept
many solutions (the issue's first measurement), and short runs alone still let two-cell
ladders swap.  The repairs are what takes a grid to uniqueness, spot by spot, so their
share spans the whole range by construction; shorter runs come with it, since a repair may
block a cell of a stubborn spot.

**The check.**  The loop's uniqueness check is the generator's region check with
``spread`` (``SPREAD``): a large open region is first probed for second solutions near the
fill, and counted only when no probe finds one, so "unique" means what it did, while a
loose grid names tens of spots per check instead of one.  Without it, a 30x30 fill's
check spent its whole node budget on one region of about 590 open cells (a quick count,
then ten probes that all ran out) and named ten cells to repair: one trail took more
than 17 minutes (20x20: 10 to 262 s).  The knob's grids are still the repairs' trail;
only which spots a check names, and so which repairs are made, changed (issue 47 §1).

**Twins.**  ``twin`` adds 1 to one across clue and 1 to one down clue of the same white
area.  Every white cell of an area lies in one across and one down run of it, so the
across and down totals both stay equal to the digits' sum: the cut sums cannot refute a
twin, only the holes "no repeats" leaves in the runs' digit sets can.  The two runs share
no cell (else raising that cell would satisfy both at once), and each new clue keeps at
least two digit sets for its length, so no single run gives it away.

Everything is drawn from ``derive_seed(seed, "transition", size)``, and the repair checks
are bounded by search nodes, so (size, knob, seed) pins the puzzle on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .. import combos
from ..errors import KakuroError
from ..model import Cell, Clue, Direction, Puzzle, Solution
from ..rulebook import white_components
from .clues import build_puzzle, from_clues, solution_of
from .core import derive_seed
from .draw import published_layout
from .fill import fill_grid
from .job import GenerationLimits, GenerationSpec, GenerationStats
from .layout import Layout
from .repair import Grid, RepairLoop
from .spot_checks import RegionCheck
from .steering import Difficulty

LOOSE_LEVEL = Difficulty("expert", None, (1.0,), max_run=9, dense_extra=0.0)
"""The level the knob's fills and repairs run at: no cap on a clue's digit sets and no
preference (the ``loose`` family's fill), repairs aiming at clues of one digit set.  Its
name only labels the spec: the level gates are off (``RepairLoop.gate``)."""

FILLS = 6
"""Fills tried per layout before a new layout is drawn."""

LAYOUTS = 20
"""Layouts tried before a size and seed are given up."""


@dataclass(frozen=True)
class Tightening:
    """The grids one planted fill goes through on its way to uniqueness: ``grids[0]`` is the
    fill (loose), ``grids[-1]`` the unique grid.  ``stats``: the generation's counters."""

    size: int
    seed: int
    grids: tuple[Grid, ...]
    stats: dict[str, Any]

    @property
    def steps(self) -> int:
        """The repairs between the fill and the unique grid."""
        return len(self.grids) - 1

    def step(self, knob: float) -> int:
        """The grid index for ``knob`` in [0, 1]: the share of the repairs applied."""
        if not 0.0 <= knob <= 1.0:
            raise KakuroError(f"knob {knob} is outside 0..1")
        return round(knob * self.steps)

    def puzzle(self, knob: float) -> Puzzle:
        """The member at ``knob``: the clues of the grid after that share of the repairs."""
        step = self.step(knob)
        layout, values = self.grids[step]
        meta = {
            "knob": knob, "step": step, "steps": self.steps, "seed": self.seed,
            "size": f"{self.size}x{self.size}",
        }
        return build_puzzle(layout, values, member_id(self.size, knob, self.seed), meta)

    def solution(self, knob: float) -> Solution:
        """The planted fill of the member at ``knob`` (one solution, not always the only)."""
        return solution_of(self.grids[self.step(knob)][1])


def member_id(size: int, knob: float, seed: int) -> str:
    return f"knob-{size}x{size}-k{knob:g}-s{seed}"


NODE_LIMIT = 4_000
"""Search nodes per region of each uniqueness check (the generator's default is 30,000):
a region the budget cannot settle is repaired as if ambiguous, so the unique end is still
proved unique, only with a few more repairs; the checks of a loose grid, most of the
trail's cost, get about seven times cheaper."""

QUICK_LIMIT = 500
"""The first, quick budget per region (``GenerationLimits.quick_limit``)."""


SPREAD = 10
"""One probe for a second solution near the fill per this many cells of a large open region
(``spot_checks.RegionCheck.spread``): a check names many spots of a loose grid at once."""


REPAIR_FACTOR = 4
"""The generator's repair budget per fill (``GenerationLimits.repair_budget``) times this:
with ``SPREAD`` a check names tens of spots, not one, and the repairs, bounded at four
times the checks, ran out on fills that were on their way (a 30x30 seed went through 8
fills of about 750 repairs each)."""


def tightening(
    size: int, seed: int, spread: int = SPREAD, repair_factor: int = REPAIR_FACTOR
) -> Tightening:
    """The repair trail of one planted fill of a ``size`` x ``size`` published layout, from
    loose to unique (the module's doc); raises KakuroError when no fill of ``LAYOUTS``
    layouts comes out unique.  ``spread=0, repair_factor=1`` is the first trail, one spot
    per check (``results/transition``'s 12x12 and 20x20 members were made with it)."""
    rng = random.Random(derive_seed(seed, "transition", size))
    spec = GenerationSpec(
        size, size, LOOSE_LEVEL, seed, symmetric=True, logic_only=False, white_goal=None,
    )
    limits = GenerationLimits(node_limit=NODE_LIMIT, large_cells=None, quick_limit=QUICK_LIMIT)
    check = RegionCheck(NODE_LIMIT, QUICK_LIMIT, limits.max_stuck, spread=spread)
    stats = GenerationStats()
    trail: list[Grid] = []
    for _ in range(LAYOUTS):
        layout = published_layout(size, size, rng, full_frame=True)
        stats.layouts += 1
        scale = limits.scale(len(layout.whites))
        loop = RepairLoop(spec, rng, check, stats, limits, scale, gate=False, trail=trail)
        for _ in range(FILLS):
            values = fill_grid(layout, rng)
            stats.fills += 1
            if values is None:
                continue
            budget = repair_factor * limits.repair_budget(len(layout.whites))
            found = loop.make_unique(layout, values, budget)
            if found is not None:
                return Tightening(size, seed, tuple(trail), stats.as_dict())
    raise KakuroError(f"no unique {size}x{size} grid for seed {seed} in {LAYOUTS} layouts")


def tightened(size: int, knob: float, seed: int) -> Puzzle:
    """The member of the knob family at (size, knob, seed)."""
    return tightening(size, seed).puzzle(knob)


def twin(puzzle: Puzzle, seed: int | str = 0) -> Puzzle:
    """``puzzle`` with +1 on one across clue and +1 on one down clue of one white area
    (the module's doc): the clue totals still balance.  Raises KakuroError when no such
    pair of runs exists."""
    rng = random.Random(derive_seed(seed, "twin", puzzle.id))
    area_of = {cell: i for i, area in enumerate(white_components(puzzle)) for cell in area}
    raisable: dict[Direction, list[int]] = {Direction.ACROSS: [], Direction.DOWN: []}
    for index, run in enumerate(puzzle.runs):
        if run.clue is None or run.clue.value is None:
            continue
        if combos.count(len(run), run.clue.value + 1) >= 2:
            raisable[run.direction].append(index)
    pairs = [
        (a, d)
        for a in raisable[Direction.ACROSS]
        for d in raisable[Direction.DOWN]
        if area_of[puzzle.runs[a].cells[0]] == area_of[puzzle.runs[d].cells[0]]
        and not set(puzzle.runs[a].cells) & set(puzzle.runs[d].cells)
    ]
    if not pairs:
        raise KakuroError(f"puzzle {puzzle.id}: no across and down clue of one area can rise")
    chosen = pairs[rng.randrange(len(pairs))]
    clues: dict[tuple[Direction, Cell], Clue] = {}
    changed = []
    for index, run in enumerate(puzzle.runs):
        if run.clue is None:
            raise KakuroError(f"puzzle {puzzle.id}: run {run.name} has no clue")
        clue = run.clue
        if index in chosen and clue.value is not None:
            changed.append(f"{run.name}: {clue.value} -> {clue.value + 1}")
            clue = Clue(clue.value + 1)
        clues[(run.direction, run.cells[0])] = clue
    meta = {**puzzle.meta, "twin": "; ".join(changed)}
    return from_clues(Layout.of(puzzle), clues, f"{puzzle.id}-twin", meta)
