"""The generator pipeline: layout -> fill -> clues -> uniqueness, with local repair.

Uniqueness is decided from the layout and clues alone; the fill is only a witness that a
solution exists.  With the native backend, root propagation splits the undecided cells into
independent regions, each searched (or probed cell by cell) on its own
(``region_search``); other backends count the whole grid up to two
(``kakurolab.uniqueness.count``); both are ``spot_checks.UniquenessCheck``s, and one repair
loop (``_make_unique``) serves both.  Where a second solution differs from the fill, the
generator repairs *there*: it changes a differing digit,
re-fills a few run-mates (never giving a cell the second solution's digit), or turns a cell
of the spot into a block when the layout allows.  One check names every ambiguous spot of
the grid, and all are repaired before the next check.  Only after a bounded number of
rounds does it start over with a new fill, and then a new layout.

Every random choice comes from one ``random.Random`` seeded from the parameters, and each
uniqueness check is bounded by a search-node budget (not the clock), so the same seed gives
the same puzzle on every run and every machine.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..backends import Backend
from ..combos import mask_of
from ..errors import KakuroError
from ..logic import BY_NAME, deduce
from ..logic.grading import ambiguity
from ..model import Cell, Puzzle, Solution
from ..shape import black_area_through
from .clues import build_puzzle, solution_of
from .fill import fill_grid, refill
from .job import (
    LARGE_CELLS,
    NODE_LIMIT,
    WHITE_GOAL,
    GenerationLimits,
    GenerationSpec,
    GenerationStats,
    check_white_goal,
)
from .layout import Layout, block_cascade, published_layout, whitened, within
from .region_search import LayoutPropagators, ball, held_near, local_propagator, released
from .spot_checks import NearCheck, RegionCheck, UniquenessCheck, Verdict, WholeGridCheck
from .steering import Difficulty, ambiguity_of, get_difficulty, mean_ambiguity
from .whiten import shapes, whiten

GENERATOR_VERSION = "3.5"
"""Bumped whenever the same seed would give a different puzzle.  3.4 and 3.5 changed only
grids of 1,000 white cells and more (``job.LARGE_CELLS``, about 40x40 and up): every
smaller seed gives 3.3's puzzle, so the 3.3 bank and shipped sets stand."""

PRESETS: dict[str, tuple[int, int]] = {
    "beginner": (8, 8),
    "intermediate": (12, 12),
    "grandmaster": (16, 22),
}
"""Named sizes, rows x cols; ``grandmaster`` is the rulebook's 16x22 sheet (16 rows)."""

MIN_SIZE, MAX_SIZE = 4, 60

MAX_ASPECT = 3
"""The longer side of a grid may be at most this many times the shorter one.  Thinner
grids are not refused by any rule, but their random layouts end up below the minimum fill
(5x20, 6x60) or cut apart, so the generator ran out of attempts after many seconds; the
limit says so up front instead."""

QUICK_LIMIT = 2_000
"""Search nodes per region in a check that may still find ambiguous spots elsewhere: a
region that needs more is searched with the full ``NODE_LIMIT`` only once no spot is left
to repair (``regions.check_regions``)."""

MAX_STUCK = 8
"""Failed repairs one fill may take before it is dropped for a fresh one."""

REVERT_FACTOR = 1.3
"""A repair round whose grid leaves more than this many times the best grid's open cells
(plus two) is undone (``_make_unique``).  Generator 3.1 counts the cells root propagation
leaves open (``Verdict.open_cells``), not the cells of the spots a check names, and undoes
at 1.3 times instead of 2: a probed region's spots are a sample of its cells, so rounds
that opened up much of the grid passed as improvements, and fills that had come within a
few cells of unique drifted back to a hundred open and ran out of repairs (20x20 expert,
seeds 0-9: median 12.6 -> 3.0 CPU s, worst 39.9 -> 14.3 s, measured side by side on a
loaded machine)."""

MAX_BLACK_AREA = 8
"""Largest 4-connected black area a blocking repair may leave (``shape``); the layouts
start at most at this size too."""

STALL = 8
"""Checks without a better grid after which a repair blocks a cell (``_make_unique``)."""

LOOKAHEAD_HEAT = 2
"""Repairs a spot takes before its repairs look ahead (``_repair``)."""

LOOKAHEAD = 12
"""Single-digit changes a looking-ahead repair tries, best-scored first."""

LOOKAHEAD_RADIUS = 3
"""Run steps from the changed cell within which a look-ahead propagates afresh
(``_Lookahead``; generator 3.2)."""

BLOCK_HEAT = 10
"""Repairs a spot takes (its heat) before a repair may block one of its cells: digits and
clues change first, since blocks are what made earlier puzzles look unpublished."""

WHITEN_REPAIRS = 6
"""Checks the repair loop gets to mend a whitened grid no digit choice keeps unique (fewer
than ``STALL``, so it never blocks a cell: that would undo the whitening)."""

BLOCK_SLACK = 0.05
"""Blocking repairs stop once the white share falls this far below the level's layout
share (``Difficulty.white_share``): a puzzle stays as dense as published ones."""

LARGE_ESCALATE = 10
"""``fill.ESCALATE`` for the whole fills of large grids (``GenerationLimits.large_cells``;
60x60 normal: 6 fills in 6)."""

RESTARTS = 8
"""Local restarts one fill of a large grid may take (``_make_unique``)."""

RESTART_STEPS = 2
"""Run steps around the best grid's spots that a local restart re-fills (one or two more
when that region cannot be filled)."""

RESTART_ROUNDS = 150
"""Checks a restarted fill gets: its grid is unique but for a few spots, and a restart
whose last spots keep coming back is better re-filled again than repaired on (60x60 seed
0: restarts that got the fill's whole budget of 660 checks cycled at 10-16 open cells)."""

GATE_ONCE_CELLS = 1_000
"""White cells from which whitening gates the level once, at the end (``_denser``); smaller
grids keep generator 3.3's puzzles (their gates are cheap)."""

MIN_KEPT = 0.5
"""Share of the layout's white cells a puzzle must keep through repairs that block cells.
Blocking always makes a grid more unique; without a floor, small grids could be "repaired"
into a handful of cells, a unique puzzle nobody asked for."""


Unique = tuple[Layout, dict[Cell, int], dict[str, Any]]
"""A unique grid: its layout, its digits and the check's search statistics."""


@dataclass
class Generated:
    """A generated puzzle, its unique solution and how much work it took."""

    puzzle: Puzzle
    solution: Solution
    stats: GenerationStats = field(default_factory=GenerationStats)


def parse_size(text: str) -> tuple[int, int]:
    """``12x12`` (rows x cols), a single number for a square, or a preset name."""
    key = text.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    text = text if len(text) <= 20 else text[:20] + "..."  # for messages
    parts = key.replace("*", "x").split("x")
    if len(parts) not in (1, 2) or not all(re.fullmatch(r"[0-9]{1,6}", p) for p in parts):
        raise KakuroError(f"bad size {text!r}: use ROWSxCOLS (e.g. 12x12) or {', '.join(PRESETS)}")
    dims = [int(p) for p in parts]  # ASCII digits only: int() also reads '٣'
    if len(dims) == 1:
        dims *= 2
    problem = size_problem(dims[0], dims[1])
    if problem:
        raise KakuroError(f"bad size {text!r}: {problem}")
    return dims[0], dims[1]


def size_problem(nrows: int, ncols: int) -> str | None:
    """Why the generator makes no puzzles of this size (None when it does): said before any
    work, not after 200 failed layouts."""
    if not all(MIN_SIZE <= d <= MAX_SIZE for d in (nrows, ncols)):
        return f"rows and cols must be {MIN_SIZE}-{MAX_SIZE}"
    short, long = sorted((nrows, ncols))
    if short == MIN_SIZE and long > MIN_SIZE:
        # Three inner lines: every 3x3 square of white cells must be broken, and each break
        # strands the cells above and below it, so the layout falls apart.
        return f"a grid with {MIN_SIZE} rows or columns can only be {MIN_SIZE}x{MIN_SIZE}"
    if long > MAX_ASPECT * short:
        return f"the longer side may be at most {MAX_ASPECT} times the shorter"
    return None


SEED_SALT = "kakurolab:2.5"
"""Salts every seed.  Version 3.0 changed only the gates a finished grid must pass (a subset
of 2.5's: the level must be the grader's, ``logic.levels``), so the salt stayed: every random
draw is 2.5's up to the first grid 3.0 refuses, and a seed whose 2.5 puzzle passes the new
gates makes the same puzzle (the bank kept those bases; ``docs/generator.md``).  Version 3.1
(the best grid judged by open cells, ``REVERT_FACTOR``) kept it too: a seed's draws are
3.0's up to the first check after which the two versions revert or block differently."""


def derive_seed(seed: int | str, *parts: object) -> str:
    """A seed string for one puzzle: stable across runs and Python versions (str seeding)."""
    return ":".join([SEED_SALT, str(seed), *map(str, parts)])


def generate(
    nrows: int,
    ncols: int,
    difficulty: str | Difficulty = "normal",
    *,
    seed: int | str = 0,
    symmetric: bool = True,
    logic_only: bool = True,
    backend: str | Backend = "native",
    max_repairs: int | None = None,
    max_layouts: int = 200,
    node_limit: int | None = NODE_LIMIT,
    timeout: float | None = None,
    pid: str | None = None,
    full_frame: bool = True,
    white_goal: float | None = WHITE_GOAL,
    stats: GenerationStats | None = None,
    large_cells: int | None = LARGE_CELLS,
) -> Generated:
    """One puzzle with exactly one solution; raises KakuroError when the budget runs out.

    ``max_repairs`` bounds the repair rounds of one fill (default: 60 plus one per two white
    cells, since bigger grids hold more independent ambiguous spots; with the native backend
    one round repairs every spot a check names, up to four times ``max_repairs`` repairs in
    all).  ``node_limit`` bounds each uniqueness check by search nodes (with the native
    backend, each region's search): a region it cannot settle is repaired where the search
    got stuck, and a grid other backends cannot settle is dropped (``stats.timeouts``
    counts both).  A node budget stops at the same point on any
    machine, so the seed alone pins the puzzle.  ``timeout`` (seconds per check, default
    none) is only a safety net for other backends: a check that runs into it makes the
    result depend on the machine's speed again.

    ``full_frame`` (default on, for the API and the command line alike) keeps every row and
    column of the requested size in use: no line of the grid is all blocks
    (``layout.Layout``), so a 12x12 request never comes back as a smaller puzzle padded with
    blocks.  Turning it off gives a seed the same puzzle as with it whenever that puzzle
    used the full grid and no layout was dropped on the way.

    ``white_goal`` (an interior white share, default ``WHITE_GOAL`` = 0.72, the published
    look) whitens black cells of the finished puzzle in mirror pairs while it passes every
    gate again, until that share is reached or no cell can be whitened (:mod:`.whiten`);
    the puzzle before that step is the one the seed gives with ``white_goal=None``.

    ``stats`` (a fresh ``GenerationStats``) is filled as the work goes, so another thread
    can show progress (``GenerationStats.status``); the result carries the same object.

    ``large_cells`` (default ``LARGE_CELLS`` = 1,000): white cells from which a layout is
    filled the large grid's way, with escalating dead ends and local restarts (generator
    3.4); None fills every layout as generator 3.3 did, so its large puzzles come back.
    """
    level = get_difficulty(difficulty) if isinstance(difficulty, str) else difficulty
    spec = GenerationSpec(
        nrows, ncols, level, seed, symmetric, logic_only, full_frame, pid, white_goal
    )
    limits = GenerationLimits(backend, max_repairs, max_layouts, node_limit, timeout, large_cells)
    return generate_spec(spec, limits, stats)


def generate_spec(
    spec: GenerationSpec,
    limits: GenerationLimits | None = None,
    stats: GenerationStats | None = None,
) -> Generated:
    """:func:`generate` from its records (``limits`` default: ``GenerationLimits()``;
    ``stats`` as there)."""
    limits = limits or GenerationLimits()
    problem = size_problem(spec.nrows, spec.ncols)
    if problem:
        raise KakuroError(f"size {spec.size}: {problem}")
    check_white_goal(spec.white_goal)
    level = spec.level
    rng = random.Random(
        derive_seed(spec.seed, spec.size, level.name, spec.symmetric, spec.logic_only)
    )
    check = uniqueness_check(limits, spec.logic_only)
    stats = GenerationStats() if stats is None else stats
    start = time.perf_counter()
    max_run = spec.max_run
    for _ in range(limits.max_layouts):
        layout = published_layout(
            spec.nrows,
            spec.ncols,
            rng,
            white_share=level.white_share,
            max_run=max_run,
            symmetric=spec.symmetric,
            full_frame=spec.full_frame,
        )
        stats.layouts += 1
        min_whites = MIN_KEPT * len(layout.whites)  # before easy's shaping, which blocks too
        first: dict[Cell, int] | None = None
        if level.max_ambiguity == 1:
            shaped = shape_for_level(layout, level, rng, max_run=max_run, symmetric=spec.symmetric)
            if shaped is None:
                continue
            layout, first = shaped
        budget = limits.repair_budget(len(layout.whites))
        large = limits.large(len(layout.whites))
        for _ in range(6):
            stats.stage = "fill"
            values = first or fill_grid(
                layout,
                rng,
                allows=level.allows,
                weight=level.weight,
                escalate=LARGE_ESCALATE if large else None,
            )
            first = None
            stats.fills += 1
            if values is None:
                continue
            found = _make_unique(
                layout,
                values,
                spec,
                rng,
                check,
                budget,
                stats,
                restarts=RESTARTS if large else 0,
                large=large,
            )
            if found is None:
                continue
            if len(found[0].whites) < min_whites:
                stats.shrunk += 1
                continue
            layout, values, result = found
            if spec.white_goal is not None:
                stats.stage = "whiten"
                layout, values, result = _denser(
                    layout,
                    values,
                    result,
                    spec,
                    spec.white_goal,
                    rng,
                    check,
                    stats,
                    max_run,
                    large,
                )
            stats.seconds = round(time.perf_counter() - start, 3)
            puzzle = build_puzzle(layout, values, spec.name, _meta(spec))
            stats.mean_ambiguity = round(mean_ambiguity(puzzle), 3)
            stats.search = result
            return Generated(puzzle, solution_of(values), stats)
    raise KakuroError(
        f"no unique {spec.size} {level.name} puzzle within {limits.max_layouts} layouts "
        f"(seed {spec.seed}); try another seed or difficulty"
    )


def _meta(spec: GenerationSpec) -> dict[str, Any]:
    """What a generated puzzle records of its making: enough to make it again."""
    meta: dict[str, Any] = {
        "generator": GENERATOR_VERSION,
        "seed": spec.seed,
        "size": spec.size,
        "difficulty": spec.level.name,
        "symmetric": spec.symmetric,
        "logic_only": spec.logic_only,
    }
    if not spec.full_frame:  # the default is not recorded
        meta["full_frame"] = False
    if spec.white_goal != WHITE_GOAL:  # nor is this default
        meta["white_goal"] = "off" if spec.white_goal is None else spec.white_goal
    return meta


def _denser(
    layout: Layout,
    values: dict[Cell, int],
    result: dict[str, Any],
    spec: GenerationSpec,
    goal: float,
    rng: random.Random,
    check: UniquenessCheck,
    stats: GenerationStats,
    max_run: int,
    large: bool = False,
) -> tuple[Layout, dict[Cell, int], dict[str, Any]]:
    """:func:`.whiten.whiten` towards ``goal``, each step kept only when the grown puzzle
    passes the same check and gates as any generated one.

    From ``GATE_ONCE_CELLS`` white cells on, the level's gate (``_acceptable``: a whole-grid
    deduction, 1.7 s a call at 60x60 and 43% of whitening there) runs once, on the last
    grid; it refused none of 59 whitened 30x30 grids.  When it refuses, bisection over the
    kept grids finds a step it refuses with the step before passing, and whitening runs
    again from the start, with the earlier answers replayed, that step refused and every
    later step gated.  That is the puzzle per-step gating gives whenever the gate's
    refusals come in order; when they do not (12x12 hard seed 0 passes, fails, passes), a
    different grid that passes the gates all the same."""
    start = rng.getstate()
    once = len(layout.whites) >= GATE_ONCE_CELLS
    run = _Whitening(spec, check, rng, stats, refuse=None if once else -1, large=large)
    grown, digits, stats.whitened = run.whiten(layout, values, goal, max_run)
    if once and run.kept and not run.passes(grown, digits):
        good, bad = -1, len(run.kept) - 1  # kept grids known to pass / fail (-1: the input)
        while bad - good > 1:
            mid = (good + bad) // 2
            if run.passes(*run.kept[mid][:2]):
                good = mid
            else:
                bad = mid
        rng.setstate(start)
        run = _Whitening(spec, check, rng, stats, run.log, run.kept[bad][2], large=large)
        grown, digits, stats.whitened = run.whiten(layout, values, goal, max_run)
    return grown, digits, run.search(result)


_Answer = tuple[Unique | None, Any]
"""A whitening call's answer and the rng state after it (None when the call drew nothing)."""


class _Whitening:
    """One whitening run of :func:`_denser`: its ``keeps`` and ``mend``, and what they
    answered (``log``) and kept (``kept``: each grid with the number of the call that made
    it).  ``refuse`` replays ``replay``'s answers before that call, refuses it and gates every
    later call (-1: every call gated, as in generator 3.3); without it, no call is gated."""

    def __init__(
        self,
        spec: GenerationSpec,
        check: UniquenessCheck,
        rng: random.Random,
        stats: GenerationStats,
        replay: list[_Answer] | None = None,
        refuse: int | None = None,
        *,
        large: bool = False,
    ):
        self.spec, self.check, self.rng, self.stats = spec, check, rng, stats
        self.large = large
        self.reference: dict[Cell, int] = {}
        """The last grid kept (or the input): unique and solved by deduction, so a large
        grid's checks are told where a trial differs from it (``spot_checks.NearCheck``)."""
        self.replay = replay or []
        self.refuse = refuse
        self.log: list[_Answer] = []
        self.kept: list[tuple[Layout, dict[Cell, int], int]] = []

    def whiten(
        self, layout: Layout, values: dict[Cell, int], goal: float, max_run: int
    ) -> tuple[Layout, dict[Cell, int], int]:
        level = self.spec.level
        self.reference = values
        return whiten(
            layout,
            values,
            self.rng,
            goal,
            self.keeps,
            self.mend,
            max_run=max_run,
            symmetric=self.spec.symmetric,
            weight=lambda mask: level.weight(mask) if level.allows(mask) else 0.0,
            on_keep=self.on_keep,
        )

    def _call(self, compute: Callable[[bool], Unique | None], draws: bool) -> Unique | None:
        """``compute(gated)``, or the replayed answer before the refused call."""
        at = len(self.log)
        if self.refuse is not None and at <= self.refuse:
            answer, state = self.replay[at]
            if at == self.refuse:
                answer = None
            if state is not None:
                self.rng.setstate(state)
        else:
            answer = compute(self.refuse is not None)
            state = self.rng.getstate() if draws else None
        self.log.append((answer, state))
        return answer

    def near(self) -> UniquenessCheck:
        """The check for grids near the last kept one (``NearCheck``: large grids only)."""
        return NearCheck(self.check, self.reference) if self.large else self.check

    def keeps(self, grown: Layout, trial: dict[Cell, int]) -> bool:
        def compute(gated: bool) -> Unique | None:
            verdict = self.near().check(grown, trial, GenerationStats())
            if verdict.search is None or (gated and not self.passes(grown, trial)):
                return None
            return grown, trial, verdict.search

        return self._call(compute, draws=False) is not None

    def mend(
        self, grown: Layout, values: dict[Cell, int], region: set[Cell]
    ) -> tuple[Layout, dict[Cell, int]] | None:
        spec = self.spec

        def compute(gated: bool) -> Unique | None:
            trial = _refill(grown, values, region, spec.level, self.rng, 200)
            if trial is None:
                return None
            return _make_unique(
                grown,
                trial,
                spec,
                self.rng,
                self.near(),
                WHITEN_REPAIRS,
                GenerationStats(),
                gate=gated,
                large=self.large,
            )

        found = self._call(compute, draws=True)
        return None if found is None else (found[0], found[1])

    def on_keep(self, layout: Layout, values: dict[Cell, int]) -> None:
        self.kept.append((layout, values, len(self.log) - 1))
        self.reference = values
        self.stats.whitened = len(self.kept)  # live, for progress

    def passes(self, layout: Layout, values: dict[Cell, int]) -> bool:
        """The level's gates on a unique grid."""
        puzzle = build_puzzle(layout, values)
        return _acceptable(puzzle, self.spec.level, self.spec.logic_only, {}, GenerationStats())

    def search(self, result: dict[str, Any]) -> dict[str, Any]:
        """The check's search statistics of the last kept grid (``result``: none kept)."""
        if not self.kept:
            return result
        answer = self.log[self.kept[-1][2]][0]
        return result if answer is None else answer[2]


CHECKS: dict[str, Callable[[GenerationLimits, bool], UniquenessCheck]] = {
    "native": lambda limits, logic_only: RegionCheck(
        limits.node_limit, QUICK_LIMIT, MAX_STUCK, logic_only
    ),
}
"""Backends (by name) with a uniqueness check of their own: the native backend's root
propagation splits the grid into regions (``regions``).  Any other backend, and a backend
instance, counts the whole grid (``spot_checks.WholeGridCheck``)."""


def uniqueness_check(limits: GenerationLimits, logic_only: bool = False) -> UniquenessCheck:
    """The check the repair loop runs for ``limits.backend`` (``logic_only``: regions
    propagation leaves open are repaired too, where the check can name them)."""
    make = CHECKS.get(limits.backend) if isinstance(limits.backend, str) else None
    if make is None:
        return WholeGridCheck(limits.backend, limits.count_options())
    return make(limits, logic_only)


def _make_unique(
    layout: Layout,
    values: dict[Cell, int],
    spec: GenerationSpec,
    rng: random.Random,
    check: UniquenessCheck,
    max_repairs: int,
    stats: GenerationStats,
    *,
    restarts: int = 0,
    gate: bool = True,
    large: bool = False,
) -> Unique | None:
    """Check, and repair every spot where a second solution differs, until the puzzle is
    unique; returns the unique layout and fill with the check's search statistics.

    The check names the spots (``checks``: every ambiguous region at once, or one spot per
    whole-grid count); all are repaired before the next check.  ``max_repairs`` bounds the
    checks; a check may name many spots, so the repairs themselves get a few times that.
    A fill is dropped when a check leaves nothing to repair without proving uniqueness, or
    when more than ``check.max_stuck`` repairs fail.

    ``restarts``: when the repairs run out, re-fill the cells within ``RESTART_STEPS`` run
    steps of the best grid's spots and repair again, up to this many times, instead of
    dropping the fill: a 60x60 fill ends with 10-100 of its 2,500 cells open, and a whole
    new fill costs far more than those.  ``gate`` off leaves the level's gates
    (``_acceptable``) to the caller.
    """
    budget = min(max_repairs, RESTART_ROUNDS) if restarts else max_repairs
    for restart in range(restarts + 1):
        found, best = _repair_rounds(
            layout, values, spec, rng, check, budget, stats, gate, large
        )
        if found is not None or best is None or restart == restarts:
            return found
        layout, values, verdict = best
        spots = {c for spot in verdict.spots for c in spot if c in values}
        tries = [(layout, spots)]
        widened = _widen(layout, spots, spec, rng)
        if widened is not None:
            tries.insert(0, (widened[0], spots | widened[1]))
        for grid, cells in tries:
            refilled = _refill_around(grid, values, cells, spec, rng)
            if refilled is not None:
                stats.widened += grid is not layout
                layout, values = grid, refilled
                break
        else:
            return None
        stats.restarts += 1
    return None


def _refill_around(
    layout: Layout,
    values: dict[Cell, int],
    cells: set[Cell],
    spec: GenerationSpec,
    rng: random.Random,
) -> dict[Cell, int] | None:
    """New digits for the cells within ``RESTART_STEPS`` run steps of ``cells`` (one or two
    more when that region cannot be filled), by conflict repair as a whole fill: the region
    is hundreds of cells, too many for the depth-first re-fill of a repair."""
    for steps in range(RESTART_STEPS, RESTART_STEPS + 3):
        region = within(layout, cells, steps)
        refilled = fill_grid(
            layout,
            rng,
            allows=spec.level.allows,
            weight=spec.level.weight,
            fixed={c: d for c, d in values.items() if c not in region},
            escalate=LARGE_ESCALATE,
        )
        if refilled is not None:
            return refilled
    return None


def _widen(
    layout: Layout, spots: set[Cell], spec: GenerationSpec, rng: random.Random
) -> tuple[Layout, frozenset[Cell]] | None:
    """The layout with black cells next to ``spots`` whitened (a whitening shape, with its
    mirror image), or None when no shape fits.  Spots that outlast a fill's repairs are
    mostly made by the layout: a ladder of two-cell runs between two columns of blocks lets
    any two rungs of equal sum swap, whatever the digits; merging a rung into the runs
    beside it ends that, and a denser grid is what whitening would aim for anyway."""
    options = shapes(layout, spec.symmetric, near=spots)
    rng.shuffle(options)
    for shape in options:
        grown = whitened(layout, shape, spec.max_run)
        if grown is not None:
            return grown, shape
    return None


def _repair_rounds(
    layout: Layout,
    values: dict[Cell, int],
    spec: GenerationSpec,
    rng: random.Random,
    check: UniquenessCheck,
    max_repairs: int,
    stats: GenerationStats,
    gate: bool,
    large: bool = False,
) -> tuple[Unique | None, tuple[Layout, dict[Cell, int], Verdict] | None]:
    """:func:`_make_unique`'s rounds on one fill: the unique grid, or None with the grid
    that came closest (None too when a unique grid failed the gates: repairing on would
    not change its level)."""
    heat: dict[Cell, int] = {}  # how often each cell was in an ambiguous spot
    floor = (spec.level.white_share - BLOCK_SLACK) * layout.interior  # blocks only above it
    repairs = stuck = checks = 0
    best: tuple[int, Layout, dict[Cell, int], Verdict] | None = None
    stalled = 0  # checks since the best grid last improved
    grids = check.propagators  # the look-ahead's, shared with the check's
    while checks <= max_repairs and repairs <= 4 * max_repairs:
        checks += 1
        stats.stage = "repair"
        verdict = check.check(layout, values, stats)
        stats.solves += 1
        if verdict.timed_out:
            stats.timeouts += 1
        if verdict.search is not None:
            if gate:
                puzzle = build_puzzle(layout, values)  # only now: most checks name spots
                if not _acceptable(puzzle, spec.level, spec.logic_only, verdict.search, stats):
                    return None, None
            return (layout, values, verdict.search), None
        if not verdict.spots:
            return None, _closest(best)
        # Keep the best grid seen (fewest open cells): a repair that leaves much more to
        # repair is undone, and the next repair of the best grid's spots is drawn instead
        # (spots heat up meanwhile, so the repairs there widen).
        open_cells = stats.open_cells = verdict.left_open
        stalled += 1
        if best is None or open_cells < best[0]:
            stalled = 0
        if best is None or open_cells <= best[0]:
            best = (open_cells, layout, values, verdict)
        elif open_cells > REVERT_FACTOR * best[0] + 2:
            stats.reverts += 1
            _, layout, values, verdict = best
        if stalled >= STALL and len(layout.whites) > floor:
            # Digits and clues have had their chance: block a cell of the smallest spot
            # (and its mirror image), the last resort.
            spot = min(verdict.spots, key=len)
            diff = [c for c in sorted(spot) if c in values]
            blocked = _block_one(layout, values, diff, spec.level, rng, heat, spec.symmetric)
            if blocked is not None:
                layout, values = blocked
                stats.blocks += 1
                best, stalled = None, 0
                continue
        for spot in verdict.spots:
            for cell in spot:
                heat[cell] = heat.get(cell, 0) + 1
        for spot in verdict.spots:
            diff = [c for c in sorted(spot) if c in values]  # an earlier repair may block some
            if not diff:
                continue
            known = {c: d for c, d in spot.items() if d}  # the second solution's digits
            can_block = len(layout.whites) > floor
            repaired = _repair(
                layout,
                values,
                diff,
                spec.level,
                rng,
                heat,
                known,
                spec.symmetric,
                can_block,
                grids,
                large,
            )
            repairs += 1
            stats.repairs += 1
            if repaired is None:
                # Leave this spot for the next round (its heat rises, so wider repairs
                # follow) unless spots keep resisting: then the fill is hopeless.
                stuck += 1
                stats.stuck += 1
                if stuck > check.max_stuck:
                    return None, _closest(best)
                continue
            layout, values = repaired
    return None, _closest(best)


def _closest(
    best: tuple[int, Layout, dict[Cell, int], Verdict] | None,
) -> tuple[Layout, dict[Cell, int], Verdict] | None:
    """The best grid of a repair loop, without its count of open cells."""
    return None if best is None else best[1:]


def _acceptable(
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


def _repair(
    layout: Layout,
    values: dict[Cell, int],
    diff: list[Cell],
    level: Difficulty,
    rng: random.Random,
    heat: dict[Cell, int],
    other: Mapping[Cell, int] | None = None,
    symmetric: bool = False,
    can_block: bool = True,
    grids: LayoutPropagators | None = None,
    large: bool = False,
) -> tuple[Layout, dict[Cell, int]] | None:
    """A locally changed layout/fill where two solutions disagreed.

    Any change to the fill changes the clues of the runs it touches, so *every* old solution
    dies; what matters is that the new clues leave less freedom there.  So the repair either
    blocks a cell of the spot (when the layout allows), or changes one differing cell to the
    digit that gives its two runs the clues nearest the level's target ambiguity, or, when no
    single digit fits, re-fills a small neighbourhood.  A region that stays ambiguous after
    repeated changes (its ``heat``) is structurally weak, so blocking is tried there first.
    Re-fills may not give a differing cell its digit in ``other`` (the second solution):
    that would just swap the two solutions.  A spot that keeps coming back (its heat at
    ``LOOKAHEAD_HEAT``) looks ahead: of the ``LOOKAHEAD`` best-scored single-digit changes
    it takes the one that leaves fewest cells near the spot open to root propagation, since
    at high clue ambiguity (``expert``) a blind change mostly moves the spot next door.
    """
    hot = max(heat.get(cell, 0) for cell in diff)
    if can_block and hot >= BLOCK_HEAT:
        blocked = _block_one(layout, values, diff, level, rng, heat, symmetric)
        if blocked is not None:
            return blocked
    swapped = {c: 1 << (other[c] - 1) for c in diff if other and c in other}
    if hot >= 6:
        # A spot that single-digit changes cannot fix: re-fill everything around it.
        region = hot_region(layout, values, diff, heat, local=large)
        refilled = _refill(layout, values, region, level, rng, 500, swapped)
        if refilled is not None:
            for c in region:
                heat[c] = 0
            return layout, refilled
    options: list[tuple[float, Cell, int]] = []
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
    if options and hot >= LOOKAHEAD_HEAT:
        # A spot that came back: try the best-scored changes and keep the one that leaves
        # fewest cells around the spot open to propagation.
        options.sort()
        around = {m for c in diff for i in layout.runs_of[c] for m in layout.runs[i][1]}
        around |= {m for c in around for i in layout.runs_of[c] for m in layout.runs[i][1]}
        ranked: list[tuple[int, float, float, dict[Cell, int]]] = []
        lookahead = _Lookahead(
            layout, values, grids or LayoutPropagators(), near=diff if large else None
        )
        for distance, cell, digit in options[:LOOKAHEAD]:
            changed = {**values, cell: digit}
            domains = lookahead.domains(cell, changed)
            if domains is not None:
                left = sum(1 for c in around if domains[c] & (domains[c] - 1))
                ranked.append((left, distance, rng.random(), changed))
        if ranked:
            return layout, min(ranked, key=lambda r: r[:3])[3]
    if options:
        # A random pick among the near-best keeps repairs from oscillating between two fills.
        floor = min(score for score, _, _ in options)
        near = [(cell, digit) for score, cell, digit in options if score <= floor + 1.0]
        cell, digit = near[rng.randrange(len(near))]
        return layout, {**values, cell: digit}
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
        refilled = _refill(layout, values, region, level, rng, 200, forbid)
        if refilled is not None:
            return layout, refilled
    blocked = _block_one(layout, values, diff, level, rng, heat, symmetric) if can_block else None
    if blocked is not None:
        return blocked
    # Last resort: re-fill two rings of run-mates around the spot.
    region = set(diff)
    for _ in range(2):
        region |= {m for c in region for i in layout.runs_of[c] for m in layout.runs[i][1]}
    refilled = _refill(layout, values, region, level, rng, 1000, swapped)
    return None if refilled is None else (layout, refilled)


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
    mates = {m for c in diff for i in layout.runs_of[c] for m in layout.runs[i][1]}
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


class _Lookahead:
    """Domains near a one-digit change of one grid, sharing one propagator and one root
    state: a change touches the clues of the cell's two runs only.

    Generator 3.2 propagates each change locally: the cells within ``LOOKAHEAD_RADIUS``
    run steps of the changed cell start from every digit, the others from the grid's own
    root domains, and only the runs of the reset cells are revised.  That is an estimate
    (a distant cell keeps what the old clues told it), enough to rank a dozen changes
    against each other; 3.1 took the root fixpoint of each changed grid from scratch,
    most of a 30x30 expert generation once the checks had got cheap.

    ``near`` (large grids, generator 3.5: the spot's cells): the cells outside the ball
    start from their own digits instead of the root's domains, so no root is needed, and
    only the runs within ``LOOKAHEAD_RADIUS`` of those cells are looked at
    (``local_propagator``): the estimate becomes "how much stays open near the spot when
    the rest is known", at a cost that follows the spot, not the grid (a 60x60 grid's
    propagator and root take milliseconds, and most look-aheads follow a repair that
    changed the grid just checked)."""

    def __init__(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        grids: LayoutPropagators,
        *,
        near: Collection[Cell] | None = None,
    ):
        self.layout = layout
        self.run_index: dict[tuple[Cell, ...], int] | None = None  # a run's cells -> its index
        self.root: list[int] | None = None
        if near is None:
            self.prop = grids.of(layout, values)
            self.root = self.prop.root()
        else:
            zone = within(layout, near, LOOKAHEAD_RADIUS)
            self.prop, self.run_index = local_propagator(layout, values, zone)
        self.index = self.prop.slot_of
        self.slots = range(self.prop.n_cells)

    def domains(self, cell: Cell, changed: Mapping[Cell, int]) -> dict[Cell, int] | None:
        """The cells' domains after the change (``changed``: a fill with ``cell``'s new
        digit), None when the estimate finds the new clues unsolvable."""
        local = self.run_index
        if local is None:
            totals = {
                i: sum(changed[c] for c in self.layout.runs[i][1])
                for i in self.layout.runs_of[cell]
            }
        else:
            lines = self.layout.lines_of(cell)
            totals = {local[run]: sum(changed[c] for c in run) for run in lines}
        prop = self.prop.with_totals(totals)
        reset = ball(prop, self.index[cell], self.slots, LOOKAHEAD_RADIUS)
        state: list[int] | None
        if local is not None:  # the rest held at the changed fill, a solution of its clues
            state = held_near(prop, changed, [prop.cells[i] for i in reset])
        elif self.root is None:  # pragma: no cover - a filled grid's clues have a solution
            state = prop.root()
        else:
            state = released(prop, self.root[:], reset)
        if state is None:
            return None
        return dict(zip(prop.cells, state[: prop.n_cells], strict=True))


def _refill(
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


def _block_one(
    layout: Layout,
    values: dict[Cell, int],
    diff: list[Cell],
    level: Difficulty,
    rng: random.Random,
    heat: Mapping[Cell, int],
    symmetric: bool = False,
) -> tuple[Layout, dict[Cell, int]] | None:
    """Turn a cell of the spot into a block, if runs stay 2-9 long, the grid connected (and
    symmetric when asked) and every clue allowed.

    Candidates are the differing cells, hottest first, then the cells lying between two
    differing cells of one run: a block there splits the run, so the two can no longer trade
    digits along it (the classic swap rectangle a,b / b,a).  Runs the cut leaves with a sum
    the level forbids are re-filled together with the runs crossing them.
    """
    max_run = max(len(cells) for _, cells in layout.runs)
    limit = 4 if max(heat.get(c, 0) for c in diff) < 6 else 8
    spot = set(diff)
    between: set[Cell] = set()
    for cell in diff:
        for i in layout.runs_of[cell]:
            cells = layout.runs[i][1]
            inside = [k for k, c in enumerate(cells) if c in spot]
            between.update(c for c in cells[inside[0] + 1 : inside[-1]] if c not in spot)
    candidates = sorted(diff, key=lambda c: (-heat.get(c, 0), rng.random()))
    candidates += sorted(between, key=lambda c: rng.random())
    for cell in candidates:
        found = block_cascade(layout, cell, max_run=max_run, limit=limit, symmetric=symmetric)
        if found is None:
            continue
        smaller, removed = found
        # Only the area through the new blocks can have grown (the others are the layout's).
        nrows, ncols = layout.nrows, layout.ncols
        area = black_area_through(nrows, ncols, smaller.whites, removed, MAX_BLACK_AREA)
        if max(layout.largest_black, area) > MAX_BLACK_AREA:
            continue  # a solid black area: the look of an unpublished puzzle
        rest = {c: d for c, d in values.items() if c not in removed}
        # Only the runs cut by the new blocks are new: the others are the fill's, all
        # allowed at the level.
        cut = smaller.changed_lines(removed).values()
        bad = [cells for cells in cut if not level.allows(mask_of(rest[c] for c in cells))]
        if not bad:
            return smaller, rest
        # The cut runs got sums the level forbids: re-fill them and the runs crossing them.
        loose = {c for cells in bad for c in cells}
        loose |= {m for c in loose for line in smaller.lines_of(c) for m in line}
        refilled = _refill(smaller, rest, loose, level, rng, 500)
        if refilled is not None:
            return smaller, refilled
    return None


def logic_solvable(stats: Mapping[str, Any]) -> bool:
    """Whether the solver settled the puzzle by propagation alone, without branching.

    The native backend reports ``max_depth`` (deepest branching level); 0 means propagation
    at the root found the grid and proved there is no other.  ``decisions`` (SAT solvers)
    serves the same purpose when present.
    """
    if "max_depth" in stats:
        return int(stats["max_depth"]) == 0
    if "decisions" in stats:
        return int(stats["decisions"]) == 0
    raise KakuroError("logic-only generation needs a backend that reports its branching (native)")


def shape_for_level(
    layout: Layout,
    level: Difficulty,
    rng: random.Random,
    *,
    max_run: int,
    symmetric: bool = False,
    steps: int = 40,
    min_fill: float = 0.25,
) -> tuple[Layout, dict[Cell, int]] | None:
    """Block cells where fills keep dying until the layout takes a fill of the level.

    ``easy`` clues admit one digit set each, and every such set of up to five digits holds
    a 1 (low sums) or a 9 (high sums), never both, so the 1s and 9s must pick exactly one
    cell from every run: few random layouts allow that.  Each failed conflict-repair fill
    counts its dead ends per cell; blocking the worst cell (or a run-mate, keeping runs
    2-9 long, the grid connected and, when asked, symmetric) removes the constraint that
    fills keep dying on.  Returns the reshaped layout with its first fill, or None when the
    layout thins out below ``min_fill`` or no such cell can be blocked.
    """
    for _ in range(steps):
        dead: dict[Cell, int] = {}
        values = fill_grid(layout, rng, allows=level.allows, weight=level.weight, dead_ends=dead)
        if values is not None:
            return layout, values
        hot = sorted(dead, key=lambda c: (-dead[c], c))
        ring = _mates(layout, hot[:3], set(dead))
        candidates = hot + ring + _mates(layout, ring, set(dead) | set(ring))
        for cell in candidates:
            found = block_cascade(layout, cell, max_run=max_run, limit=10, symmetric=symmetric)
            if found is not None:
                layout = found[0]
                break
        else:
            return None
        if layout.fill_ratio < min_fill:
            return None
    return None


def _mates(layout: Layout, cells: list[Cell], skip: set[Cell]) -> list[Cell]:
    """The run-mates of ``cells`` not in ``skip``, in order, each once."""
    found: list[Cell] = []
    for cell in cells:
        for i in layout.runs_of[cell]:
            for mate in layout.runs[i][1]:
                if mate not in skip and mate not in found:
                    found.append(mate)
    return found
