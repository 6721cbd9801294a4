"""A grid's white share after the draw: ``easy`` layouts thinned until they take a fill
(:func:`shape_for_level`), and finished puzzles whitened towards the published look while
they pass every gate (:func:`denser`, over :func:`.whiten.whiten`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..model import Cell
from .acceptance import acceptable
from .clues import build_puzzle
from .fill import fill_grid
from .job import GenerationStats
from .layout import Layout, block_cascade
from .repair import RepairLoop, Unique, refill_region
from .spot_checks import NearCheck, UniquenessCheck
from .steering import Difficulty
from .whiten import whiten


def denser(found: Unique, goal: float, loop: RepairLoop) -> Unique:
    """:func:`.whiten.whiten` of the unique grid ``found`` towards the white share
    ``goal``, each step kept only when the grown puzzle passes the same check and gates as
    any generated one (``loop``'s, whose random stream, tuning and scale it shares).

    From ``limits.gate_once_cells`` white cells on, the level's gate (``acceptable``: a
    whole-grid deduction, 1.7 s a call at 60x60 and 43% of whitening there) runs once, on
    the last grid; it refused none of 59 whitened 30x30 grids.  When it refuses, bisection
    over the kept grids finds a step it refuses with the step before passing, and whitening
    runs again from the start, with the earlier answers replayed, that step refused and
    every later step gated.  That is the puzzle per-step gating gives whenever the gate's
    refusals come in order; when they do not (12x12 hard seed 0 passes, fails, passes), a
    different grid that passes the gates all the same."""
    layout, values, result = found
    start = loop.rng.getstate()
    once = len(layout.whites) >= loop.limits.gate_once_cells
    run = Whitening(loop, refuse=None if once else -1)
    grown, digits, loop.stats.whitened = run.whiten(layout, values, goal)
    if once and run.kept and not run.passes(grown, digits):
        good, bad = -1, len(run.kept) - 1  # kept grids known to pass / fail (-1: the input)
        while bad - good > 1:
            mid = (good + bad) // 2
            if run.passes(*run.kept[mid][:2]):
                good = mid
            else:
                bad = mid
        loop.rng.setstate(start)
        run = Whitening(loop, run.log, run.kept[bad][2])
        grown, digits, loop.stats.whitened = run.whiten(layout, values, goal)
    return grown, digits, run.search(result)


Answer = tuple[Unique | None, Any]
"""A whitening call's answer and the rng state after it (None when the call drew nothing)."""


class Whitening:
    """One whitening run of :func:`denser`: its ``keeps`` and ``mend``, and what they
    answered (``log``) and kept (``kept``: each grid with the number of the call that made
    it).  ``refuse`` replays ``replay``'s answers before that call, refuses it and gates every
    later call (-1: every call gated, as in generator 3.3); without it, no call is gated."""

    def __init__(
        self, loop: RepairLoop, replay: list[Answer] | None = None, refuse: int | None = None
    ):
        self.loop = loop
        self.spec, self.check, self.rng, self.stats = loop.spec, loop.check, loop.rng, loop.stats
        self.reference: dict[Cell, int] = {}
        """The last grid kept (or the input): unique and solved by deduction, so a large
        grid's checks are told where a trial differs from it (``spot_checks.NearCheck``)."""
        self.replay = replay or []
        self.refuse = refuse
        self.log: list[Answer] = []
        self.kept: list[tuple[Layout, dict[Cell, int], int]] = []

    def whiten(
        self, layout: Layout, values: dict[Cell, int], goal: float
    ) -> tuple[Layout, dict[Cell, int], int]:
        spec = self.spec
        level = spec.level
        self.reference = values
        return whiten(
            layout,
            values,
            self.rng,
            goal,
            self.keeps,
            self.mend if self.loop.scale.mends else None,
            max_run=spec.max_run,
            symmetric=spec.symmetric,
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
        """The check for grids near the last kept one (``NearCheck``, when the scale says
        so: large grids)."""
        near = self.loop.scale.near_checks
        return NearCheck(self.check, self.reference) if near else self.check

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
            trial = refill_region(grown, values, region, spec.level, self.rng, 200)
            if trial is None:
                return None
            loop = replace(self.loop, check=self.near(), stats=GenerationStats(), gate=gated)
            return loop.make_unique(grown, trial, loop.limits.whiten_repairs)

        found = self._call(compute, draws=True)
        return None if found is None else (found[0], found[1])

    def on_keep(self, layout: Layout, values: dict[Cell, int]) -> None:
        self.kept.append((layout, values, len(self.log) - 1))
        self.reference = values
        self.stats.whitened = len(self.kept)  # live, for progress

    def passes(self, layout: Layout, values: dict[Cell, int]) -> bool:
        """The level's gates on a unique grid."""
        puzzle = build_puzzle(layout, values)
        return acceptable(puzzle, self.spec.level, self.spec.logic_only, {}, GenerationStats())

    def search(self, result: dict[str, Any]) -> dict[str, Any]:
        """The check's search statistics of the last kept grid (``result``: none kept)."""
        if not self.kept:
            return result
        answer = self.log[self.kept[-1][2]][0]
        return result if answer is None else answer[2]


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
