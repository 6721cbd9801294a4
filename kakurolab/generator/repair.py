"""The repair loop: check a filled grid, repair every spot where a second solution differs,
until the grid is unique (``RepairLoop``); and the repair of one spot (``SpotRepairs``).

Uniqueness is decided from the layout and clues alone; the fill is only a witness that a
solution exists.  A check (``spot_checks``) names every ambiguous spot of the grid, and all
are repaired before the next check.  Where a second solution differs from the fill, the
generator repairs *there*: it changes a differing digit, re-fills a few run-mates (never
giving a cell the second solution's digit), or turns a cell of the spot into a block when
the layout allows.  A round that leaves far more open than the best grid so far is undone;
a spot that keeps coming back widens the repair (its heat: a look-ahead, a re-fill of the
hot region, a block).  Only after a bounded number of rounds is the fill given up (or, on a
large grid, re-filled around its best grid's spots: a local restart).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..combos import mask_of
from ..model import Cell
from ..shape import black_area_through
from .acceptance import acceptable
from .clues import build_puzzle
from .fill import fill_grid, refill
from .job import GenerationLimits, GenerationSpec, GenerationStats, Scale
from .layout import Layout, block_cascade, whitened, within
from .lookahead import Lookahead
from .region_search import LayoutPropagators
from .spot_checks import Spot, UniquenessCheck, Verdict
from .steering import Difficulty, ambiguity_of
from .whiten import shapes

Unique = tuple[Layout, dict[Cell, int], dict[str, Any]]
"""A unique grid: its layout, its digits and the check's search statistics."""

Grid = tuple[Layout, dict[Cell, int]]
"""A layout with its digits."""

Closest = tuple[Layout, dict[Cell, int], Verdict]
"""The grid of a repair loop that left fewest cells open, with its verdict."""


def refill_region(
    layout: Layout,
    values: Mapping[Cell, int],
    region: set[Cell],
    level: Difficulty,
    rng: random.Random,
    base_nodes: int,
    forbid: Mapping[Cell, int] | None = None,
) -> dict[Cell, int] | None:
    """New digits for ``region``, every other cell kept; the search budget grows with the
    region (``base_nodes`` plus 20 per cell)."""
    return refill(
        layout,
        values,
        region,
        rng,
        allows=level.allows,
        weight=level.weight,
        forbid=forbid,
        node_limit=base_nodes + 20 * len(region),
    )


def hot_region(
    layout: Layout,
    values: Mapping[Cell, int],
    diff: list[Cell],
    heat: Mapping[Cell, int],
    *,
    local: bool = False,
) -> set[Cell]:
    """The cells a heated spot re-fills: the run-mates of the spot and every cell of the
    grid at heat 2 or more (generator 3.2), or, ``local`` (large grids, generator 3.5),
    only the hot cells linked to the spot through runs of hot cells.  Heat builds up all
    over a large grid, so the grid-wide re-fill grew with its size: at 60x60 a mean of 266
    cells, half of them not filled within their node budget, a quarter of the CPU time."""
    mates = run_mates(layout, diff)
    if not local:
        return {c for c in values if heat.get(c, 0) >= 2} | mates
    region, todo = set(mates), list(mates)
    while todo:
        cell = todo.pop()
        for i in layout.runs_of[cell]:
            for m in layout.runs[i][1]:
                if m not in region and heat.get(m, 0) >= 2:
                    region.add(m)
                    todo.append(m)
    return region


def run_mates(layout: Layout, cells: Collection[Cell]) -> set[Cell]:
    """Every cell of the runs through ``cells`` (the cells themselves included)."""
    return {m for c in cells for i in layout.runs_of[c] for m in layout.runs[i][1]}


Option = tuple[float, Cell, int]
"""A single-digit change: its distance from the level's target ambiguity, the cell, the
digit."""


@dataclass
class SpotRepairs:
    """The repairs of one fill's repair loop: what every repair of a spot shares (the level,
    the random stream, the symmetry, the tuning and scale, the propagators of the grids
    checked) and the heat of each cell (how often it was in an ambiguous spot)."""

    level: Difficulty
    rng: random.Random
    limits: GenerationLimits
    scale: Scale
    grids: LayoutPropagators = field(default_factory=LayoutPropagators)
    symmetric: bool = False
    heat: dict[Cell, int] = field(default_factory=dict)

    def heat_up(self, spots: list[Spot]) -> None:
        for spot in spots:
            for cell in spot:
                self.heat[cell] = self.heat.get(cell, 0) + 1

    def refill(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        region: set[Cell],
        base_nodes: int,
        forbid: Mapping[Cell, int] | None = None,
    ) -> dict[Cell, int] | None:
        return refill_region(layout, values, region, self.level, self.rng, base_nodes, forbid)

    def repair(
        self,
        layout: Layout,
        values: dict[Cell, int],
        diff: list[Cell],
        other: Mapping[Cell, int] | None = None,
        can_block: bool = True,
    ) -> Grid | None:
        """A locally changed layout/fill where two solutions disagreed.

        Any change to the fill changes the clues of the runs it touches, so *every* old
        solution dies; what matters is that the new clues leave less freedom there.  So the
        repair either blocks a cell of the spot (when the layout allows), or changes one
        differing cell to the digit that gives its two runs the clues nearest the level's
        target ambiguity, or, when no single digit fits, re-fills a small neighbourhood.  A
        region that stays ambiguous after repeated changes (its ``heat``) is structurally
        weak, so blocking is tried there first.  Re-fills may not give a differing cell its
        digit in ``other`` (the second solution): that would just swap the two solutions.  A
        spot that keeps coming back (its heat at ``lookahead_heat``) looks ahead: of the
        ``lookahead`` best-scored single-digit changes it takes the one that leaves fewest
        cells near the spot open to root propagation, since at high clue ambiguity
        (``expert``) a blind change mostly moves the spot next door.
        """
        tuning = self.limits
        hot = max(self.heat.get(cell, 0) for cell in diff)
        if can_block and hot >= tuning.block_heat:
            blocked = self.block_one(layout, values, diff)
            if blocked is not None:
                return blocked
        swapped = {c: 1 << (other[c] - 1) for c in diff if other and c in other}
        if hot >= tuning.hot_heat:
            refilled = self._refill_hot(layout, values, diff, swapped)
            if refilled is not None:
                return layout, refilled
        options = self.single_digit_options(layout, values, diff)
        if options and hot >= tuning.lookahead_heat:
            looked = self._look_ahead(layout, values, diff, options)
            if looked is not None:
                return layout, looked
        if options:
            # A random pick among the near-best keeps repairs from oscillating between two
            # fills.
            floor = min(score for score, _, _ in options)
            near = [(cell, digit) for score, cell, digit in options if score <= floor + 1.0]
            cell, digit = near[self.rng.randrange(len(near))]
            return layout, {**values, cell: digit}
        return self._last_resorts(layout, values, diff, swapped, can_block)

    def _refill_hot(
        self, layout: Layout, values: dict[Cell, int], diff: list[Cell], swapped: dict[Cell, int]
    ) -> dict[Cell, int] | None:
        """A spot that single-digit changes cannot fix: re-fill everything around it."""
        region = hot_region(layout, values, diff, self.heat, local=self.scale.local_hot_region)
        refilled = self.refill(layout, values, region, 500, swapped)
        if refilled is not None:
            for c in region:
                self.heat[c] = 0
        return refilled

    def single_digit_options(
        self, layout: Layout, values: Mapping[Cell, int], diff: list[Cell]
    ) -> list[Option]:
        """Every single-digit change of a differing cell whose runs keep distinct digits
        and sets the level allows, scored by the distance of their clues from the level's
        target ambiguity."""
        level = self.level
        options: list[Option] = []
        for cell in diff:
            runs = [layout.runs[i][1] for i in layout.runs_of[cell]]
            others = [mask_of(values[c] for c in cells if c != cell) for cells in runs]
            for digit in range(1, 10):
                bit = 1 << (digit - 1)
                if digit == values[cell] or any(m & bit for m in others):
                    continue
                masks = [m | bit for m in others]
                if not all(level.allows(m) for m in masks):
                    continue
                score = sum(abs(ambiguity_of(m) - level.repair_target) for m in masks)
                options.append((score, cell, digit))
        return options

    def _look_ahead(
        self,
        layout: Layout,
        values: dict[Cell, int],
        diff: list[Cell],
        options: list[Option],
    ) -> dict[Cell, int] | None:
        """A spot that came back: of the best-scored changes, the one that leaves fewest
        cells around the spot open to propagation (None: every change refuted)."""
        options.sort()
        around = run_mates(layout, run_mates(layout, diff))
        ranked: list[tuple[int, float, float, dict[Cell, int]]] = []
        lookahead = Lookahead(
            layout,
            values,
            self.grids,
            near=diff if self.scale.lookahead_near else None,
            radius=self.limits.lookahead_radius,
        )
        for distance, cell, digit in options[: self.limits.lookahead]:
            changed = {**values, cell: digit}
            domains = lookahead.domains(cell, changed)
            if domains is not None:
                left = sum(1 for c in around if domains[c] & (domains[c] - 1))
                ranked.append((left, distance, self.rng.random(), changed))
        return min(ranked, key=lambda r: r[:3])[3] if ranked else None

    def _last_resorts(
        self,
        layout: Layout,
        values: dict[Cell, int],
        diff: list[Cell],
        swapped: dict[Cell, int],
        can_block: bool,
    ) -> Grid | None:
        """No single digit fits: re-fill run-mates (some, then all), block a cell, and last
        re-fill two rings of run-mates around the spot."""
        rng = self.rng
        for spread in (0.5, 1.0):
            region = set(diff)
            for cell in diff:
                for i in layout.runs_of[cell]:
                    for mate in layout.runs[i][1]:
                        if rng.random() < spread:
                            region.add(mate)
            target = rng.choice(diff)
            forbid = dict(swapped)
            forbid[target] = forbid.get(target, 0) | 1 << (values[target] - 1)
            refilled = self.refill(layout, values, region, 200, forbid)
            if refilled is not None:
                return layout, refilled
        blocked = self.block_one(layout, values, diff) if can_block else None
        if blocked is not None:
            return blocked
        region = set(diff)
        for _ in range(2):
            region |= run_mates(layout, region)
        refilled = self.refill(layout, values, region, 1000, swapped)
        return None if refilled is None else (layout, refilled)

    def block_one(self, layout: Layout, values: dict[Cell, int], diff: list[Cell]) -> Grid | None:
        """Turn a cell of the spot into a block, if runs stay 2-9 long, the grid connected
        (and symmetric when asked) and every clue allowed.

        Candidates are the differing cells, hottest first, then the cells lying between
        two differing cells of one run: a block there splits the run, so the two can no
        longer trade digits along it (the classic swap rectangle a,b / b,a).  Runs the cut
        leaves with a sum the level forbids are re-filled together with the runs crossing
        them.
        """
        max_run = max(len(cells) for _, cells in layout.runs)
        limit = 4 if max(self.heat.get(c, 0) for c in diff) < self.limits.hot_heat else 8
        for cell in self._block_candidates(layout, diff):
            found = block_cascade(
                layout, cell, max_run=max_run, limit=limit, symmetric=self.symmetric
            )
            if found is None:
                continue
            blocked = self._after_block(layout, values, *found)
            if blocked is not None:
                return blocked
        return None

    def _block_candidates(self, layout: Layout, diff: list[Cell]) -> list[Cell]:
        spot = set(diff)
        between: set[Cell] = set()
        for cell in diff:
            for i in layout.runs_of[cell]:
                cells = layout.runs[i][1]
                inside = [k for k, c in enumerate(cells) if c in spot]
                between.update(c for c in cells[inside[0] + 1 : inside[-1]] if c not in spot)
        rng = self.rng
        candidates = sorted(diff, key=lambda c: (-self.heat.get(c, 0), rng.random()))
        return candidates + sorted(between, key=lambda c: rng.random())

    def _after_block(
        self, layout: Layout, values: dict[Cell, int], smaller: Layout, removed: frozenset[Cell]
    ) -> Grid | None:
        """The blocked grid with the cut runs' digits mended, or None when it makes a solid
        black area or its cut runs cannot be re-filled."""
        # Only the area through the new blocks can have grown (the others are the layout's).
        cap = self.limits.max_black_area
        area = black_area_through(layout.nrows, layout.ncols, smaller.whites, removed, cap)
        if max(layout.largest_black, area) > cap:
            return None  # a solid black area: the look of an unpublished puzzle
        rest = {c: d for c, d in values.items() if c not in removed}
        # Only the runs cut by the new blocks are new: the others are the fill's, all
        # allowed at the level.
        cut = smaller.changed_lines(removed).values()
        bad = [cells for cells in cut if not self.level.allows(mask_of(rest[c] for c in cells))]
        if not bad:
            return smaller, rest
        # The cut runs got sums the level forbids: re-fill them and the runs crossing them.
        loose = {c for cells in bad for c in cells}
        loose |= {m for c in loose for line in smaller.lines_of(c) for m in line}
        refilled = self.refill(smaller, rest, loose, 500)
        return None if refilled is None else (smaller, refilled)


@dataclass
class RepairLoop:
    """Check, and repair every spot where a second solution differs, until the grid is
    unique (:meth:`make_unique`).  ``gate`` off leaves the level's gates (``acceptance``) to
    the caller."""

    spec: GenerationSpec
    rng: random.Random
    check: UniquenessCheck
    stats: GenerationStats
    limits: GenerationLimits
    scale: Scale
    gate: bool = True
    trail: list[Grid] | None = None
    """When a list, each fill's rounds leave in it the grids they went through: the fill
    first, then the grid after each repair or block that stayed (a round undone by a revert
    is cut back out), the unique grid last (``tighten``: the ambiguity knob).  Recording
    draws nothing from ``rng``, so it changes no puzzle."""

    def make_unique(
        self, layout: Layout, values: dict[Cell, int], max_repairs: int, restarts: int = 0
    ) -> Unique | None:
        """The unique layout and fill with the check's search statistics, or None.

        The check names the spots (``spot_checks``: every ambiguous region at once, or one
        spot per whole-grid count); all are repaired before the next check.
        ``max_repairs`` bounds the checks; a check may name many spots, so the repairs
        themselves get a few times that.  A fill is dropped when a check leaves nothing to
        repair without proving uniqueness, or when more than ``check.max_stuck`` repairs
        fail.

        ``restarts``: when the repairs run out, re-fill the cells within ``restart_steps``
        run steps of the best grid's spots and repair again, up to this many times, instead
        of dropping the fill: a 60x60 fill ends with 10-100 of its 2,500 cells open, and a
        whole new fill costs far more than those.
        """
        budget = min(max_repairs, self.limits.restart_rounds) if restarts else max_repairs
        for restart in range(restarts + 1):
            found, best = _Rounds(self, layout, values).run(budget)
            if found is not None or best is None or restart == restarts:
                return found
            restarted = self._restart(*best)
            if restarted is None:
                return None
            layout, values = restarted
            self.stats.restarts += 1
        return None

    def _restart(self, layout: Layout, values: dict[Cell, int], verdict: Verdict) -> Grid | None:
        """The best grid re-filled around its spots, on the layout widened next to them when
        a whitening shape fits there (else as it is), or None when neither re-fills."""
        spots = {c for spot in verdict.spots for c in spot if c in values}
        tries = [(layout, spots)]
        widened = self._widen(layout, spots)
        if widened is not None:
            tries.insert(0, (widened[0], spots | widened[1]))
        for grid, cells in tries:
            refilled = self._refill_around(grid, values, cells)
            if refilled is not None:
                self.stats.widened += grid is not layout
                return grid, refilled
        return None

    def _refill_around(
        self, layout: Layout, values: dict[Cell, int], cells: set[Cell]
    ) -> dict[Cell, int] | None:
        """New digits for the cells within ``restart_steps`` run steps of ``cells`` (one or
        two more when that region cannot be filled), by conflict repair as a whole fill: the
        region is hundreds of cells, too many for the depth-first re-fill of a repair."""
        level, first = self.spec.level, self.limits.restart_steps
        for steps in range(first, first + 3):
            region = within(layout, cells, steps)
            refilled = fill_grid(
                layout,
                self.rng,
                allows=level.allows,
                weight=level.weight,
                fixed={c: d for c, d in values.items() if c not in region},
                escalate=self.limits.large_escalate,
            )
            if refilled is not None:
                return refilled
        return None

    def _widen(self, layout: Layout, spots: set[Cell]) -> tuple[Layout, frozenset[Cell]] | None:
        """The layout with black cells next to ``spots`` whitened (a whitening shape, with
        its mirror image), or None when no shape fits.  Spots that outlast a fill's repairs
        are mostly made by the layout: a ladder of two-cell runs between two columns of
        blocks lets any two rungs of equal sum swap, whatever the digits; merging a rung
        into the runs beside it ends that, and a denser grid is what whitening would aim
        for anyway."""
        options = shapes(layout, self.spec.symmetric, near=spots)
        self.rng.shuffle(options)
        for shape in options:
            grown = whitened(layout, shape, self.spec.max_run)
            if grown is not None:
                return grown, shape
        return None


class _Rounds:
    """:meth:`RepairLoop.make_unique`'s rounds on one fill: the grid being repaired, the
    best grid seen (fewest open cells) and the counters that end the rounds."""

    def __init__(self, loop: RepairLoop, layout: Layout, values: dict[Cell, int]):
        spec, limits = loop.spec, loop.limits
        self.loop, self.layout, self.values = loop, layout, values
        self.repairs = SpotRepairs(
            spec.level, loop.rng, limits, loop.scale, loop.check.propagators, spec.symmetric
        )
        # Blocks only while the white share stays above the level's floor.
        share = spec.level.white_share + loop.scale.extra_share
        self.floor = (share - limits.block_slack) * layout.interior
        self.best: tuple[int, Layout, dict[Cell, int], Verdict] | None = None
        self.stalled = 0  # checks since the best grid last improved
        self.done = self.stuck = 0
        self.trail = loop.trail
        self.best_mark = 1  # the trail's length at the best grid
        if self.trail is not None:
            self.trail[:] = [(layout, dict(values))]

    def _record(self) -> None:
        if self.trail is not None:
            self.trail.append((self.layout, dict(self.values)))

    def run(self, max_repairs: int) -> tuple[Unique | None, Closest | None]:
        """The unique grid, or None with the grid that came closest (None too when a unique
        grid failed the gates: repairing on would not change its level)."""
        loop, stats = self.loop, self.loop.stats
        checks = 0
        while checks <= max_repairs and self.done <= 4 * max_repairs:
            checks += 1
            stats.stage = "repair"
            verdict = loop.check.check(self.layout, self.values, stats)
            stats.solves += 1
            if verdict.timed_out:
                stats.timeouts += 1
            if verdict.search is not None:
                return self._unique(verdict.search), None
            if not verdict.spots:
                return None, self.closest()
            verdict = self._keep_best(verdict)
            if self._stalled() and self._block_stalled(verdict):
                continue
            self.repairs.heat_up(verdict.spots)
            if not self._repair_spots(verdict.spots):
                return None, self.closest()
        return None, self.closest()

    def _unique(self, search: dict[str, Any]) -> Unique | None:
        """The unique grid when it passes the gates (or none are asked for)."""
        loop, layout, values = self.loop, self.layout, self.values
        if loop.gate:
            puzzle = build_puzzle(layout, values)  # only now: most checks name spots
            spec = loop.spec
            if not acceptable(puzzle, spec.level, spec.logic_only, search, loop.stats):
                return None
        return layout, values, search

    def _keep_best(self, verdict: Verdict) -> Verdict:
        """Keep the best grid seen (fewest open cells): a repair that leaves much more to
        repair is undone, and the next repair of the best grid's spots is drawn instead
        (spots heat up meanwhile, so the repairs there widen).  The verdict to repair."""
        stats, best = self.loop.stats, self.best
        open_cells = stats.open_cells = verdict.left_open
        self.stalled += 1
        if best is None or open_cells < best[0]:
            self.stalled = 0
        if best is None or open_cells <= best[0]:
            self.best = (open_cells, self.layout, self.values, verdict)
            self.best_mark = len(self.trail) if self.trail is not None else 1
        elif open_cells > self.loop.limits.revert_factor * best[0] + 2:
            stats.reverts += 1
            _, self.layout, self.values, verdict = best
            if self.trail is not None:
                del self.trail[self.best_mark :]
        return verdict

    def _stalled(self) -> bool:
        """The best grid has not improved for ``stall`` checks, and blocks may go in."""
        return self.stalled >= self.loop.limits.stall and len(self.layout.whites) > self.floor

    def _block_stalled(self, verdict: Verdict) -> bool:
        """Digits and clues have had their chance: block a cell of the smallest spot (and
        its mirror image), the last resort.  Whether a cell was blocked."""
        spot = min(verdict.spots, key=len)
        diff = [c for c in sorted(spot) if c in self.values]
        blocked = self.repairs.block_one(self.layout, self.values, diff)
        if blocked is None:
            return False
        self.layout, self.values = blocked
        self._record()
        self.loop.stats.blocks += 1
        self.best, self.stalled = None, 0
        return True

    def _repair_spots(self, spots: list[Spot]) -> bool:
        """Repair each spot in turn; False when spots keep resisting (the fill is
        hopeless)."""
        stats = self.loop.stats
        for spot in spots:
            diff = [c for c in sorted(spot) if c in self.values]  # an earlier repair may block
            if not diff:
                continue
            known = {c: d for c, d in spot.items() if d}  # the second solution's digits
            can_block = len(self.layout.whites) > self.floor
            repaired = self.repairs.repair(self.layout, self.values, diff, known, can_block)
            self.done += 1
            stats.repairs += 1
            if repaired is None:
                # Leave this spot for the next round (its heat rises, so wider repairs
                # follow) unless spots keep resisting: then the fill is hopeless.
                self.stuck += 1
                stats.stuck += 1
                if self.stuck > self.loop.check.max_stuck:
                    return False
                continue
            self.layout, self.values = repaired
            self._record()
        return True

    def closest(self) -> Closest | None:
        """The best grid of the rounds, without its count of open cells."""
        return None if self.best is None else self.best[1:]
