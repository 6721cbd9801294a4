"""The generator pipeline: layout -> fill -> clues -> a unique grid -> whitening.

A layout is drawn with the published look (``draw.published_layout``; ``easy`` layouts are
thinned until they take a fill, ``density.shape_for_level``), filled (``fill.fill_grid``),
and repaired until its clues have one solution that root propagation finds
(``repair.RepairLoop``, over the checks of ``spot_checks`` and the gates of
``acceptance``); the unique grid is whitened towards the published white share
(``density.denser``).  A fill whose repairs run out is replaced by a fresh one (six per
layout), then the layout by a new one.  How a layout is filled and repaired for its size is
chosen once per layout (``job.Scale``).

Every random choice comes from one ``random.Random`` seeded from the parameters, and each
uniqueness check is bounded by a search-node budget (not the clock), so the same seed gives
the same puzzle on every run and every machine.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from ..backends import Backend
from ..errors import KakuroError
from ..model import Cell, Puzzle, Solution
from .acceptance import uniqueness_check
from .clues import build_puzzle, solution_of
from .density import denser, shape_for_level
from .draw import published_layout
from .fill import fill_grid
from .job import (
    DENSE_AREA,
    LARGE_CELLS,
    NODE_LIMIT,
    WHITE_GOAL,
    GenerationLimits,
    GenerationSpec,
    GenerationStats,
    check_white_goal,
)
from .repair import RepairLoop, Unique
from .spot_checks import UniquenessCheck
from .steering import Difficulty, get_difficulty, mean_ambiguity

GENERATOR_VERSION = "3.6"
"""Bumped whenever the same seed would give a different puzzle.  3.4 and 3.5 changed only
grids of 1,000 white cells and more (``job.LARGE_CELLS``, about 40x40 and up); 3.6 changes
only grids of 100 to 200 interior cells below ``expert`` (``job.DENSE_MIN_AREA`` to
``job.DENSE_AREA``, 12x12 among them: drawn denser, whitened by digits alone), and
``dense_area=0`` gives 3.5's puzzles.  The bank and the
shipped sets were built by 3.3 and 3.5 (docs/generator.md) and stand: their seeds make their
puzzles with ``dense_area=0``."""

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
gates makes the same puzzle (the bank kept those bases; ``docs/generator.md``).  Version
3.1 (the best grid judged by open cells, ``GenerationLimits.revert_factor``) kept it too: a
seed's draws are 3.0's up to the first check after which the two versions revert or block
differently."""


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
    dense_area: int = DENSE_AREA,
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

    ``dense_area`` (default ``DENSE_AREA`` = 200): interior cells up to which a grid is drawn
    denser and whitened by digit choices alone (generator 3.6); 0 gives 3.5's puzzles.
    """
    level = get_difficulty(difficulty) if isinstance(difficulty, str) else difficulty
    spec = GenerationSpec(
        nrows, ncols, level, seed, symmetric, logic_only, full_frame, pid, white_goal
    )
    limits = GenerationLimits(
        backend, max_repairs, max_layouts, node_limit, timeout, large_cells, dense_area=dense_area
    )
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
    for _ in range(limits.max_layouts):
        found = _from_layout(spec, limits, rng, check, stats)
        if found is None:
            continue
        layout, values, result = found
        stats.seconds = round(time.perf_counter() - start, 3)
        puzzle = build_puzzle(layout, values, spec.name, _meta(spec))
        stats.mean_ambiguity = round(mean_ambiguity(puzzle), 3)
        stats.search = result
        return Generated(puzzle, solution_of(values), stats)
    raise KakuroError(
        f"no unique {spec.size} {level.name} puzzle within {limits.max_layouts} layouts "
        f"(seed {spec.seed}); try another seed or difficulty"
    )


def _from_layout(
    spec: GenerationSpec,
    limits: GenerationLimits,
    rng: random.Random,
    check: UniquenessCheck,
    stats: GenerationStats,
) -> Unique | None:
    """A unique, whitened grid on a freshly drawn layout, or None when none of its fills
    comes out unique (or the layout takes no fill of the level)."""
    level, max_run = spec.level, spec.max_run
    area = (spec.nrows - 1) * (spec.ncols - 1)
    # drawn denser only for the default goal, which digits alone then reach; no whitening
    # keeps the layout as drawn before, and another goal gets the mends that can reach it
    extra = limits.dense_extra(area, level) if spec.white_goal == WHITE_GOAL else 0.0
    layout = published_layout(
        spec.nrows,
        spec.ncols,
        rng,
        white_share=level.white_share + extra,
        max_run=max_run,
        symmetric=spec.symmetric,
        full_frame=spec.full_frame,
    )
    stats.layouts += 1
    min_whites = limits.min_kept * len(layout.whites)  # before easy's shaping, which blocks too
    first: dict[Cell, int] | None = None
    if level.max_ambiguity == 1:
        shaped = shape_for_level(layout, level, rng, max_run=max_run, symmetric=spec.symmetric)
        if shaped is None:
            return None
        layout, first = shaped
    budget = limits.repair_budget(len(layout.whites))
    scale = limits.scale(len(layout.whites), extra)
    loop = RepairLoop(spec, rng, check, stats, limits, scale)
    for _ in range(limits.fills_per_layout):
        stats.stage = "fill"
        values = first or fill_grid(
            layout, rng, allows=level.allows, weight=level.weight, escalate=scale.escalate
        )
        first = None
        stats.fills += 1
        if values is None:
            continue
        found = loop.make_unique(layout, values, budget, scale.restarts)
        if found is None:
            continue
        if len(found[0].whites) < min_whites:
            stats.shrunk += 1
            continue
        if spec.white_goal is not None:
            stats.stage = "whiten"
            found = denser(found, spec.white_goal, loop)
        return found
    return None


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


