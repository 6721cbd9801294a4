"""The repairs' look-ahead: how much a one-digit change of a grid leaves open near the
change, estimated by propagating only around it (``repair.SpotRepairs``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..model import Cell
from .job import GenerationLimits
from .layout import Layout, within
from .region_search import LayoutPropagators, ball, held_near, local_propagator, released


class Lookahead:
    """Domains near a one-digit change of one grid, sharing one propagator and one root
    state: a change touches the clues of the cell's two runs only.

    Generator 3.2 propagates each change locally: the cells within ``radius`` run steps of
    the changed cell start from every digit, the others from the grid's own root domains,
    and only the runs of the reset cells are revised.  That is an estimate (a distant cell
    keeps what the old clues told it), enough to rank a dozen changes against each other;
    3.1 took the root fixpoint of each changed grid from scratch, most of a 30x30 expert
    generation once the checks had got cheap.

    ``near`` (large grids, generator 3.5: the spot's cells): the cells outside the ball
    start from their own digits instead of the root's domains, so no root is needed, and
    only the runs within ``radius`` of those cells are looked at (``local_propagator``):
    the estimate becomes "how much stays open near the spot when the rest is known", at a
    cost that follows the spot, not the grid (a 60x60 grid's propagator and root take
    milliseconds, and most look-aheads follow a repair that changed the grid just
    checked)."""

    def __init__(
        self,
        layout: Layout,
        values: Mapping[Cell, int],
        grids: LayoutPropagators,
        *,
        near: Collection[Cell] | None = None,
        radius: int = GenerationLimits.lookahead_radius,
    ):
        self.layout = layout
        self.radius = radius
        self.run_index: dict[tuple[Cell, ...], int] | None = None  # a run's cells -> its index
        self.root: list[int] | None = None
        if near is None:
            self.prop = grids.of(layout, values)
            self.root = self.prop.root()
        else:
            zone = within(layout, near, radius)
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
        reset = ball(prop, self.index[cell], self.slots, self.radius)
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
