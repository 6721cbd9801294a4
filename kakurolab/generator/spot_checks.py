"""Uniqueness checks the repair loop runs: one protocol, two ways to find ambiguous spots.

``RegionCheck`` (native backend) splits the grid after root propagation into independent
regions and searches each on its own (``region_search``), so one check names every ambiguous spot
of the grid; ``WholeGridCheck`` asks any backend to count the whole grid up to two and names
the one spot where two of the solutions it knows differ.  ``repair.RepairLoop`` repairs what
either names, so the loop itself knows nothing of backends.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..backends import Backend
from ..errors import KakuroError
from ..model import Cell, Solution
from ..uniqueness import count
from .clues import build_puzzle
from .job import GenerationStats
from .layout import Layout, within
from .region_search import LayoutPropagators, check_regions, held_near, local_propagator

Spot = dict[Cell, int]
"""Cells where a second solution differs from the fill, each with that solution's digit
(0 when the check does not know it)."""


LOGIC_NODES = 300
"""Search nodes per open region (per probe) in a ``logic_only`` check (``RegionCheck``)."""

DIFFER = 10
"""Open cells per probe for a second solution in a ``logic_only`` check (``RegionCheck``)."""

NEAR_STEPS = 3
"""Run steps around the changed cells that a ``near`` check propagates afresh
(``RegionCheck.check``; generator 3.5)."""


@dataclass(frozen=True)
class Verdict:
    """What one check found: ``search`` (the solver's statistics) when the puzzle is proved
    unique, else the ``spots`` to repair (none: give this fill up); ``timed_out`` when a node
    budget or timeout left part of the grid undecided."""

    spots: list[Spot] = field(default_factory=list)
    search: dict[str, Any] | None = None
    timed_out: bool = False
    open_cells: int | None = None
    """Cells root propagation left open (None: the check does not know; the spots' cells
    stand in for them)."""

    @property
    def left_open(self) -> int:
        """Open cells, or the spots' cells when the check does not know them."""
        if self.open_cells is not None:
            return self.open_cells
        return sum(len(spot) for spot in self.spots)


class UniquenessCheck(Protocol):
    """Decides whether a filled layout's clues have one solution, naming spots to repair."""

    @property
    def max_stuck(self) -> int:
        """Failed repairs one fill may take before the loop drops it."""

    @property
    def propagators(self) -> LayoutPropagators:
        """The propagators of the grids checked, shared with the repairs' look-ahead (one
        layout's propagator built once, not once per user)."""

    def check(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        stats: GenerationStats,
        near: Collection[Cell] | None = None,
    ) -> Verdict:
        """The verdict on the puzzle ``values`` clue on ``layout`` (built only by a check
        that needs it: the region check works on the layout's propagator).  ``near``: the
        cells where the grid differs from one known unique and solved by deduction, which
        a check may use to refute the grid cheaply (the verdict "unique" is the same)."""


@dataclass(frozen=True)
class RegionCheck:
    """Native root propagation, then one bounded search (or probe) per undecided region.

    A check names every ambiguous spot; regions the budget could not settle become spots of
    their own (the cells whose probes ran out), so the loop makes their clues less ambiguous
    instead of dropping a fill that took many repairs.
    """

    node_limit: int | None
    quick_limit: int | None
    max_stuck: int = 8
    logic_only: bool = False
    logic_nodes: int = LOGIC_NODES
    """Regions proved unique but left open by propagation are spots too: the puzzle must be
    solved without search (their cells, digits unknown, go to the repair)."""
    differ: int = DIFFER
    """In a ``logic_only`` check, one probe for a second solution per this many cells of
    a large open region (``region_search.check_regions``)."""
    spread: int = 0
    """Outside ``logic_only``: a large open region is first probed for second solutions
    near the fill, one probe per this many cells, and counted only when none is found
    (``region_search.check_regions(spread=...)``; 0: counted at once)."""
    propagators: LayoutPropagators = field(default_factory=LayoutPropagators, compare=False)
    """The propagators of the grids checked, one layout at a time (a cache the repairs'
    look-ahead shares)."""

    def check(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        stats: GenerationStats,
        near: Collection[Cell] | None = None,
    ) -> Verdict:
        """See :class:`UniquenessCheck`.  With ``near``, a ``logic_only`` check first
        propagates the cells within ``NEAR_STEPS`` of those with the rest held at the fill
        (``held_near``, on the propagator of the zone's runs alone, ``local_propagator``):
        what that leaves open, the root leaves open too, so such a grid is refuted and its
        spots named without the whole grid's propagator or root (a 60x60 root is about
        5 ms).  Searched there, a region's second solution is one of the whole grid (the
        cells outside the zone keep their fill, which satisfies every run beyond it).  When
        the held state leaves nothing open, the whole check runs, so a grid found unique is
        found so exactly as without ``near``."""
        start = None
        if near is not None and self.logic_only:
            zone = within(layout, near, NEAR_STEPS)
            local, _ = local_propagator(layout, values, zone)
            start = held_near(local, values, zone)
            if any(mask & (mask - 1) for mask in start):
                prop = local  # refuted: its regions are named on the zone's runs
            else:
                start = None  # nothing refuted: the root decides
        if start is None:
            prop = self.propagators.of(layout, values)
        if self.logic_only:
            # Every open region is a spot anyway: a small search only looks for a second
            # solution to aim the repair, and never spends the full budget proving a region
            # unique that must be repaired all the same.
            regions = check_regions(
                prop,
                values,
                self.logic_nodes,
                search=self.logic_nodes > 0,
                differ=self.differ,
                start=start,
            )
        else:
            regions = check_regions(
                prop, values, self.node_limit, self.quick_limit, spread=self.spread
            )
        if regions is None:
            raise KakuroError("the clues of a filled grid contradict its fill")
        stats.regions = (stats.regions or 0) + len(regions)
        spots = [
            spot
            for region in regions
            for other in ([] if region.other is None else [region.other, *region.more])
            for spot in split_spot(layout, {c: d for c, d in other.items() if d != values[c]})
        ]
        if self.logic_only and regions:
            found = {c for spot in spots for c in spot}
            spots += [
                dict.fromkeys(region.cells, 0)
                for region in regions
                if region.other is None and not found & set(region.cells)
            ]
        left = sum(len(region.cells) for region in regions)
        if spots:
            return Verdict(spots, timed_out=not all(r.complete for r in regions), open_cells=left)
        if not all(region.complete for region in regions):
            unsure = [{c: 0 for c in r.unsure} for r in regions if r.unsure]
            return Verdict(unsure, timed_out=True, open_cells=left)
        search = {
            "nodes": sum(region.nodes for region in regions),
            "max_depth": max((region.depth for region in regions), default=0),
            "regions": len(regions),
        }
        return Verdict(search=search)


@dataclass(frozen=True)
class WholeGridCheck:
    """Any backend counts the whole grid up to two; one spot per check, and a grid the
    budget cannot settle (or a repair that fails) drops the fill."""

    backend: str | Backend
    options: Mapping[str, Any]
    max_stuck: int = 0
    propagators: LayoutPropagators = field(default_factory=LayoutPropagators, compare=False)
    """For the repairs' look-ahead only (this check counts with its backend)."""

    def check(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        stats: GenerationStats,
        near: Collection[Cell] | None = None,
    ) -> Verdict:
        """See :class:`UniquenessCheck` (``near`` is not used: the backend counts the
        whole grid)."""
        result = count(build_puzzle(layout, values), 2, backend=self.backend, **self.options)
        if not result.solutions and result.complete:
            raise KakuroError(f"backend {result.backend!r} found no solution to a filled grid")
        if len(result.solutions) < 2:
            if not result.complete:
                return Verdict(timed_out=True)  # undecided (budget spent): not provably unique
            return Verdict(search=dict(result.stats))
        return Verdict([dict.fromkeys(closest_difference(values, result.solutions), 0)])


@dataclass(frozen=True)
class NearCheck:
    """``inner`` on grids that differ from ``reference``, a unique grid solved by deduction,
    in a few places (whitening's changes and their mends), each check told where
    (``UniquenessCheck.check``'s ``near``)."""

    inner: UniquenessCheck
    reference: Mapping[Cell, int]

    @property
    def max_stuck(self) -> int:
        return self.inner.max_stuck

    @property
    def propagators(self) -> LayoutPropagators:
        return self.inner.propagators

    def check(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        stats: GenerationStats,
        near: Collection[Cell] | None = None,
    ) -> Verdict:
        """``inner``'s check, near the cells whose digits differ from the reference's (and
        those it did not have: whitened ones), besides ``near``."""
        changed = {cell for cell, _ in values.items() - self.reference.items()}
        return self.inner.check(layout, values, stats, changed | set(near or ()))


def split_spot(layout: Layout, changed: dict[Cell, int]) -> list[Spot]:
    """A second solution's changes split into groups that share no run.

    Each group alone also turns the fill into a solution (a run sees one group's changes or
    none), so each is an ambiguous spot of its own, and a small spot gets a focused repair.
    """
    groups: list[Spot] = []
    left = set(changed)
    for start in sorted(changed):
        if start not in left:
            continue
        left.discard(start)
        group, todo = {start: changed[start]}, [start]
        while todo:
            cell = todo.pop()
            for i in layout.runs_of[cell]:
                for mate in layout.runs[i][1]:
                    if mate in left:
                        left.discard(mate)
                        group[mate] = changed[mate]
                        todo.append(mate)
        groups.append(group)
    return groups


def closest_difference(values: Mapping[Cell, int], solutions: list[Solution]) -> list[Cell]:
    """The smallest set of cells two known solutions disagree on (fill vs. found ones)."""
    grids = [dict(values)] + [dict(s.values) for s in solutions]
    best: list[Cell] | None = None
    for i in range(len(grids)):
        for j in range(i + 1, len(grids)):
            diff = [c for c in sorted(values) if grids[i][c] != grids[j][c]]
            if diff and (best is None or len(diff) < len(best)):
                best = diff
    if best is None:
        raise KakuroError("two solutions of a grid that do not differ")  # pragma: no cover
    return best
