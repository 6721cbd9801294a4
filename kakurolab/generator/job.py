"""One generation job's records: what is asked (``GenerationSpec``), within which budget and
tuning (``GenerationLimits``, with the ``Scale`` it picks per layout) and how much work it
took (``GenerationStats``)."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Any

from ..backends import Backend
from ..combos import MAX_RUN
from ..errors import KakuroError
from .steering import Difficulty

NODE_LIMIT = 30_000
"""Search nodes one uniqueness check may expand (native backend: per region) before it counts
as undecided.  Typical checks need well under 200 nodes; a node costs 0.1-0.2 ms here, so the
budget is a few seconds at most and, unlike a timeout, the same on any machine."""

WHITE_GOAL = 0.72
"""The interior white share a finished puzzle is whitened towards by default (``whiten``):
published puzzles sit near 0.73 (janko.at's median), while layouts drawn that dense from the
start make large grids many times slower to fill.  ``None`` turns whitening off."""


def white_goal_arg(text: str) -> float | None:
    """A white share goal as the command lines take it: a number in (0, 1], or ``off``.

    Examples:
        >>> from kakurolab.generator import white_goal_arg
        >>> white_goal_arg("0.7"), white_goal_arg("off")
        (0.7, None)
    """
    if text.strip().lower() in ("off", "none"):
        return None
    try:
        goal = float(text)
    except ValueError:
        message = f"white share goal must be a number in (0, 1] or off, got {text!r}"
        raise KakuroError(message) from None
    check_white_goal(goal)
    return goal


def check_white_goal(goal: float | None) -> None:
    """Refuse a goal outside (0, 1] before any work is spent on it."""
    if goal is not None and not 0 < goal <= 1:
        raise KakuroError(f"white share goal must be in (0, 1], got {goal}")


@dataclass(frozen=True)
class GenerationSpec:
    """One puzzle asked for: its size, level and seed and the choices that shape it.

    Everything here goes into the seed of the random stream or the puzzle's metadata, so
    the spec alone pins the puzzle (together with ``GENERATOR_VERSION``).

    Examples:
        >>> from kakurolab.generator import DIFFICULTIES, GenerationSpec, generate_spec
        >>> spec = GenerationSpec(5, 5, DIFFICULTIES["easy"], seed=2)
        >>> generate_spec(spec).puzzle.id
        'g5x5-easy-s2'
    """

    nrows: int
    ncols: int
    level: Difficulty
    seed: int | str = 0
    symmetric: bool = True
    logic_only: bool = True
    full_frame: bool = True
    pid: str | None = None
    white_goal: float | None = WHITE_GOAL
    """Interior white share to whiten a finished puzzle towards (``whiten``; None: leave it)."""

    @property
    def size(self) -> str:
        return f"{self.nrows}x{self.ncols}"

    @property
    def max_run(self) -> int:
        """The longest run the level allows that fits the grid."""
        return min(self.level.max_run, self.nrows - 1, self.ncols - 1, MAX_RUN)

    @property
    def name(self) -> str:
        """The puzzle's id: ``pid`` when given."""
        return self.pid or f"g{self.size}-{self.level.name}-s{self.seed}"


LARGE_CELLS = 1_000
"""White cells (about 40x40 and up) from which generator 3.4 fills a layout the large grid's way:
the whole fill escalates its dead ends, and a fill whose repairs run out is re-filled
around its best grid's spots rather than dropped (``repair``).  Fresh 60x60 layouts filled 0
times in 8 without escalation, and a 60x60 fill ends its repairs with 10-100 of its 2,500
cells open; smaller grids keep generator 3.3's puzzles (their fills are cheap)."""


DENSE_AREA = 200
"""Interior cells up to which a grid is drawn denser (``GenerationLimits.dense_area``)."""
DENSE_MIN_AREA = 100
"""Interior cells from which a grid is drawn denser (11x11 to 15x15 squares, 12x12 among
them; ``GenerationLimits.dense_min_area``)."""


@dataclass(frozen=True)
class Scale:
    """How a layout is filled and repaired for its size, chosen once per layout
    (:meth:`GenerationLimits.scale`): small grids as generator 3.3 did, large ones (from
    ``large_cells`` white cells) the ways of generators 3.4 and 3.5."""

    escalate: int | None = None
    """``fill.ESCALATE`` for the layout's whole fills (None: the fill's default, off)."""
    restarts: int = 0
    """Local restarts one fill may take (``repair.RepairLoop.make_unique``)."""
    local_hot_region: bool = False
    """A heated spot re-fills only the hot cells linked to it (``repair.hot_region``)."""
    lookahead_near: bool = False
    """Look-aheads start from the fill near the spot, no root (``repair.Lookahead``)."""
    near_checks: bool = False
    """Whitening's checks are told where a grid changed (``spot_checks.NearCheck``)."""
    extra_share: float = 0.0
    """The layout was drawn this much whiter than the level's ``white_share`` (small grids,
    generator 3.6), and blocking repairs stop this much higher."""
    mends: bool = True
    """Whitening mends a grid no digit choice keeps unique (off: digits only)."""


SMALL = Scale()
"""Generator 3.3's ways, for grids below ``large_cells`` white cells."""


@dataclass(frozen=True)
class GenerationLimits:
    """The work one generation may spend, and the tuning of its repairs; node budgets keep
    a seed's puzzle the same on any machine, ``timeout`` (seconds per check) is only a
    safety net for other backends.  ``large_cells``: white cells from which a layout is
    filled the large grid's way (:data:`LARGE_CELLS`; None: never, generator 3.3's puzzles
    at every size).  The fields after ``large_cells`` (keyword only) tune the repair loop:
    changing one changes the puzzles.

    Examples:
        >>> from kakurolab.generator import GenerationLimits
        >>> limits = GenerationLimits(node_limit=10_000)  # checks bounded by search nodes, not time
        >>> limits.backend, limits.node_limit
        ('native', 10000)
    """

    backend: str | Backend = "native"
    max_repairs: int | None = None
    max_layouts: int = 200
    node_limit: int | None = NODE_LIMIT
    timeout: float | None = None
    large_cells: int | None = LARGE_CELLS
    _: KW_ONLY
    fills_per_layout: int = 6
    """Fresh fills one layout gets before the next layout is drawn."""
    quick_limit: int = 2_000
    """Search nodes per region in a check that may still find ambiguous spots elsewhere: a
    region that needs more is searched with the full ``node_limit`` only once no spot is
    left to repair (``region_search.check_regions``)."""
    max_stuck: int = 8
    """Failed repairs one fill may take before it is dropped for a fresh one."""
    revert_factor: float = 1.3
    """A repair round whose grid leaves more than this many times the best grid's open cells
    (plus two) is undone.  Generator 3.1 counts the cells root propagation leaves open
    (``Verdict.open_cells``), not the cells of the spots a check names, and undoes at 1.3
    times instead of 2: a probed region's spots are a sample of its cells, so rounds that
    opened up much of the grid passed as improvements, and fills that had come within a few
    cells of unique drifted back to a hundred open and ran out of repairs (20x20 expert,
    seeds 0-9: median 12.6 -> 3.0 CPU s, worst 39.9 -> 14.3 s, measured side by side on a
    loaded machine)."""
    max_black_area: int = 8
    """Largest 4-connected black area a blocking repair may leave (``shape``); the layouts
    start at most at this size too."""
    stall: int = 8
    """Checks without a better grid after which a repair blocks a cell."""
    lookahead_heat: int = 2
    """Repairs a spot takes before its repairs look ahead."""
    lookahead: int = 12
    """Single-digit changes a looking-ahead repair tries, best-scored first."""
    lookahead_radius: int = 3
    """Run steps from the changed cell within which a look-ahead propagates afresh
    (``repair.Lookahead``; generator 3.2)."""
    hot_heat: int = 6
    """Repairs a spot takes before its repair re-fills the hot region around it (and a
    blocking repair may cascade over 8 cells instead of 4)."""
    block_heat: int = 10
    """Repairs a spot takes (its heat) before a repair may block one of its cells: digits
    and clues change first, since blocks are what made earlier puzzles look unpublished."""
    whiten_repairs: int = 6
    """Checks the repair loop gets to mend a whitened grid no digit choice keeps unique
    (fewer than ``stall``, so it never blocks a cell: that would undo the whitening)."""
    block_slack: float = 0.05
    """Blocking repairs stop once the white share falls this far below the level's layout
    share (``Difficulty.white_share``): a puzzle stays as dense as published ones."""
    large_escalate: int = 10
    """``fill.ESCALATE`` for the whole fills of large grids (60x60 normal: 6 fills in 6)."""
    restarts: int = 8
    """Local restarts one fill of a large grid may take."""
    restart_steps: int = 2
    """Run steps around the best grid's spots that a local restart re-fills (one or two
    more when that region cannot be filled)."""
    restart_rounds: int = 150
    """Checks a restarted fill gets: its grid is unique but for a few spots, and a restart
    whose last spots keep coming back is better re-filled again than repaired on (60x60
    seed 0: restarts that got the fill's whole budget of 660 checks cycled at 10-16 open
    cells)."""
    gate_once_cells: int = 1_000
    """White cells from which whitening gates the level once, at the end
    (``density.denser``); smaller grids keep generator 3.3's puzzles (their gates are
    cheap)."""
    dense_area: int = DENSE_AREA
    """Interior cells (:data:`DENSE_AREA`; 12x12 has 121) up to which a grid is drawn
    ``Difficulty.dense_extra`` whiter than its level's share and whitened by digit choices
    alone, without mends (generator 3.6; for the default ``WHITE_GOAL`` only: with
    whitening off, or another goal, it is drawn and whitened as before).  12x12
    normal seeds 11-15 took a median of 1.3-1.6 CPU s, two thirds of it in whitening's
    mends (about one in ten kept), and reached a median white share of 0.70; drawn 0.06
    whiter and whitened by digits alone, 0.40-0.47 s and 0.72 (docs/generator.md).  Larger
    grids are drawn as before: a denser draw fills them much more slowly.  0 gives generator
    3.5's puzzles at every size."""
    dense_min_area: int = DENSE_MIN_AREA
    """Interior cells from which a grid is drawn denser (:data:`DENSE_MIN_AREA`): smaller
    grids were fast already, and drawn denser they came out with more two-cell runs (8x8
    normal seeds 0-4: a median share of 0.40 against 0.22) and 10x10 normal slower (median
    0.59 against 0.19 CPU s)."""
    min_kept: float = 0.5
    """Share of the layout's white cells a puzzle must keep through repairs that block
    cells.  Blocking always makes a grid more unique; without a floor, small grids could be
    "repaired" into a handful of cells, a unique puzzle nobody asked for."""

    def large(self, whites: int) -> bool:
        """Whether a layout of ``whites`` white cells is filled the large grid's way."""
        return self.large_cells is not None and whites >= self.large_cells

    def dense_extra(self, area: int, level: Difficulty) -> float:
        """How much whiter than its level's share a grid of ``area`` interior cells is drawn
        (``dense_min_area`` to ``dense_area``, ``Difficulty.dense_extra``; 0: as before)."""
        return level.dense_extra if self.dense_min_area <= area <= self.dense_area else 0.0

    def scale(self, whites: int, extra_share: float = 0.0) -> Scale:
        """How a layout of ``whites`` white cells, drawn ``extra_share`` whiter than its
        level's share, is filled, repaired and whitened (a denser draw: no mends)."""
        scale = SMALL
        if self.large(whites):
            scale = Scale(self.large_escalate, self.restarts, True, True, True)
        if extra_share:
            scale = replace(scale, extra_share=extra_share, mends=False)
        return scale

    def count_options(self) -> dict[str, Any]:
        """Keyword arguments for ``count``: the node budget goes only to the native backend
        by name (other backends reject the option; a backend instance keeps its own)."""
        options: dict[str, Any] = {"timeout": self.timeout}
        if self.node_limit is not None and self.backend == "native":
            options["node_limit"] = self.node_limit
        return options

    def repair_budget(self, whites: int) -> int:
        """Repair rounds for one fill: ``max_repairs``, or 40 plus one per four white cells
        (bigger grids hold more independent ambiguous spots).  A fresh fill often gets
        further than more rounds on a stubborn one, so the budget stays modest."""
        return self.max_repairs if self.max_repairs is not None else 40 + whites // 4


@dataclass
class GenerationStats:
    """Work counters of one generation, and the search statistics of its last check.

    ``regions`` is None unless region checks ran; ``as_dict`` gives the JSON record (the
    optional counters only when non-zero).

    Examples:
        >>> from kakurolab.generator import generate
        >>> stats = generate(5, 5, "easy", seed=2).stats
        >>> stats.layouts >= 1, stats.mean_ambiguity <= 1.4
        (True, True)
    """

    layouts: int = 0
    fills: int = 0
    repairs: int = 0
    solves: int = 0
    regions: int | None = None
    shrunk: int = 0
    stuck: int = 0
    timeouts: int = 0
    off_band: int = 0
    reverts: int = 0
    blocks: int = 0
    restarts: int = 0
    widened: int = 0
    whitened: int = 0
    seconds: float | None = None
    mean_ambiguity: float | None = None
    search: dict[str, Any] = field(default_factory=dict)
    stage: str = ""
    """What the generation is doing now (``fill``, ``repair``, ``whiten``), and below the
    cells its last uniqueness check left open: a large grid takes minutes, so a caller may
    read them from another thread to show progress (neither is in ``as_dict``)."""
    open_cells: int | None = None

    def status(self) -> str:
        """One line for a progress display: the stage and the counters that move in it."""
        parts = [f"layout {self.layouts}", f"fill {self.fills}", f"{self.repairs} repairs"]
        if self.open_cells is not None and self.stage == "repair":
            parts.append(f"{self.open_cells} cells open")
        if self.blocks:
            parts.append(f"{self.blocks} blocks")
        if self.stage == "whiten":
            parts.append(f"whitening: {self.whitened} kept")
        return ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """The counters under their names, as ``kakuro generate --json`` prints them."""
        record: dict[str, Any] = {
            "layouts": self.layouts,
            "fills": self.fills,
            "repairs": self.repairs,
            "solves": self.solves,
        }
        if self.regions is not None:
            record["regions"] = self.regions
        optional = {
            "shrunk": self.shrunk,
            "stuck": self.stuck,
            "timeouts": self.timeouts,
            "off_band": self.off_band,
            "reverts": self.reverts,
            "blocks": self.blocks,
            "restarts": self.restarts,
            "widened": self.widened,
            "whitened": self.whitened,
        }
        record |= {k: v for k, v in optional.items() if v}
        if self.seconds is not None:
            record["seconds"] = self.seconds
        if self.mean_ambiguity is not None:
            record["mean_ambiguity"] = self.mean_ambiguity
        record["search"] = self.search
        return record
