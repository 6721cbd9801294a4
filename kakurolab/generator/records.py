"""The generator's records: what is asked (``GenerationSpec``), within which budget
(``GenerationLimits``) and how much work it took (``GenerationStats``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..backends import Backend
from ..combos import MAX_RUN
from ..errors import KakuroError
from .difficulty import Difficulty

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
around its best grid's spots rather than dropped (``core``).  Fresh 60x60 layouts filled 0
times in 8 without escalation, and a 60x60 fill ends its repairs with 10-100 of its 2,500
cells open; smaller grids keep generator 3.3's puzzles (their fills are cheap)."""


@dataclass(frozen=True)
class GenerationLimits:
    """The work one generation may spend; node budgets keep a seed's puzzle the same on any
    machine, ``timeout`` (seconds per check) is only a safety net for other backends.
    ``large_cells``: white cells from which a layout is filled the large grid's way
    (:data:`LARGE_CELLS`; None: never, generator 3.3's puzzles at every size).

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

    def large(self, whites: int) -> bool:
        """Whether a layout of ``whites`` white cells is filled the large grid's way."""
        return self.large_cells is not None and whites >= self.large_cells

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
