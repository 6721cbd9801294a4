"""Uniqueness by independent regions: one small search per undecided region, not one big one.

Propagation at the root (native backend) decides most cells of a generated grid.  The cells
it leaves open fall into *regions*: groups linked through runs that hold open cells.  Every
run's open cells lie in one region, and its decided cells can only hold their fill digits
(propagation is sound and the fill is a solution), so the clues split into independent
problems, one per region, and the puzzle's solutions are exactly the products of the
regions' solutions.  The puzzle is unique if and only if every region is.

Searching each region on its own, with the rest of the grid held at the fill, is far
cheaper than one search of the whole grid (which, once it has a first solution, backtracks
through one region while re-solving the others), and it names *every* ambiguous spot of the
grid in one check, so the generator repairs them all before checking again.

A region the first, small-budget search leaves undecided is then probed cell by cell
(``_probe_region``): "is there a solution where this cell differs from the fill?"  Any
solution a probe finds is a second one; a probe without one pins the cell to its fill
digit, and propagating that shrinks the region for the next probe.

Root propagation and the searches are :class:`kakurolab.propagation.Propagator`'s: its
``search`` starts from a chosen state under a node budget, so the verdicts depend on the
puzzle alone, never on the machine (``tests/test_generator.py`` checks region verdicts
against whole-grid counts).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from ..model import Cell, Puzzle
from ..propagation import Found, Propagator, SearchStats, held_at
from .clues import build_puzzle
from .layout import Layout

PROBE_RADIUS = 4
"""Run steps from the barred cell within which a probe for a second solution near the fill
may change digits (``_differ_region``; generator 3.2).  Probes over the whole region
(3.1) spent most of a 30x30 expert generation on searches that ran out of their node
budget: with the fill preferred everywhere, a depth-first search that meets the barred
digit's conflict deep down backtracks through distant cells.  Held to a ball around the
barred cell, a probe mostly ends within a few nodes, and what it finds is a spot a repair
can aim at all the same."""

DIFFER_OVER = 40
"""Open cells from which ``check_regions(differ=...)`` probes a region instead of counting
its solutions: a count of a region that large rarely ends within a small budget, and then
names the whole region as one spot."""


@dataclass(frozen=True)
class Region:
    """One region's verdict.

    ``other`` is a second solution's digits on the region's cells (None when the region is
    unique or undecided); ``complete`` is False when the node budget ran out first.
    """

    cells: tuple[Cell, ...]
    other: dict[Cell, int] | None
    complete: bool
    nodes: int
    depth: int
    unsure: tuple[Cell, ...] = ()
    """When undecided: the cells whose probes ran out of budget (``_probe_region``)."""
    more: tuple[dict[Cell, int], ...] = ()
    """Further second solutions (``check_regions(differ=...)``), each found by its own
    probe: separate ambiguous spots of one large region."""

    @property
    def unique(self) -> bool:
        return self.complete and self.other is None


KNOWN = 32
"""Propagators of one layout's grids that ``LayoutPropagators`` keeps by their totals."""


class LayoutPropagators:
    """Propagators for the grids of one layout at a time.

    A repair changes digits, and so clues, but rarely the layout: the generator checks
    hundreds of grids of one layout, and building each one's puzzle and propagator (its
    run tables) from scratch was a tenth of the work.  A grid's propagator is the layout's
    with new totals (``Propagator.with_totals``); a new layout (a block) builds a new one.
    """

    def __init__(self) -> None:
        self.layout: Layout | None = None
        self.base: Propagator | None = None
        self.getters: list[Callable[[Mapping[Cell, int]], tuple[int, ...]]] = []
        self.last: Propagator | None = None
        self.last_totals: list[int] = []
        self.known: dict[tuple[int, ...], Propagator] = {}
        """This layout's propagators by their totals, the last ``KNOWN``: a repair loop
        goes back to its best grid, and a look-ahead repairs the grid just checked, so a
        fifth of the root fixpoints of a 60x60 generation were ones already found (each
        propagator keeps its own, ``Propagator.root``)."""

    def of(self, layout: Layout, values: Mapping[Cell, int]) -> Propagator:
        """The propagator of ``layout`` with the clues ``values`` sum to.

        Derived from the last grid's propagator with the totals that differ (a repair
        changes a few clues of a grid of hundreds): deriving one from the base with every
        total re-added each run's part of the cut sums (``Propagator.with_totals``), a
        twentieth of a 30x30 expert generation."""
        base = self.base_of(layout, values)
        totals = [sum(get(values)) for get in self.getters]
        if self.last is None:
            self.last, self.last_totals = base, [r.bit_length() - 1 for r in base.fixed]
            self.known = {tuple(self.last_totals): base}
        if totals != self.last_totals:
            key = tuple(totals)
            found = self.known.get(key)
            if found is None:
                changed = {
                    i: total
                    for i, (total, old) in enumerate(zip(totals, self.last_totals, strict=True))
                    if total != old
                }
                found = self.last.with_totals(changed)
                if len(self.known) >= KNOWN:
                    del self.known[next(iter(self.known))]  # the oldest
                self.known[key] = found
            self.last = found
            self.last_totals = totals
        return self.last

    def base_of(self, layout: Layout, values: Mapping[Cell, int]) -> Propagator:
        """A propagator of ``layout`` (its clues: some grid's of this layout, ``values``
        when a new one is built), its runs in the layout's order (run ``i`` of the one is
        run ``i`` of the other).  Built from the layout's runs, not from a puzzle, and
        without cut sums: every grid checked here has a fill that solves its clues, so they
        never refute one."""
        if self.base is None or layout is not self.layout:
            self.layout = layout
            self.last = None
            runs = [cells for _, cells in layout.runs]
            self.getters = [_digits_of(cells) for cells in runs]
            clues = dict(values)  # the puzzle is built later, if at all: these digits' clues
            self.base = Propagator.numeric(
                sorted(layout.whites),
                runs,
                [sum(get(clues)) for get in self.getters],
                lambda: build_puzzle(layout, clues),
            )
        return self.base


def _digits_of(cells: tuple[Cell, ...]) -> Callable[[Mapping[Cell, int]], tuple[int, ...]]:
    """``values -> the digits of cells``, one C call (a run's total, every check)."""
    if len(cells) > 1:
        return itemgetter(*cells)
    cell = cells[0]
    return lambda values: (values[cell],)


def held_near(prop: Propagator, values: Mapping[Cell, int], zone: Iterable[Cell]) -> list[int]:
    """The fixpoint from every cell outside ``zone`` held at its fill digit and the zone's
    cells at every digit: a state below the root fixpoint (it starts below the initial
    state, and propagation keeps the fill, a solution), found by revising the zone's runs
    only.  A cell it leaves open is open at the root too, so a grid that differs from a
    unique one near a few cells is mostly refuted without a root of the whole grid."""
    index = prop.slot_of
    held = [1 << (values[cell] - 1) for cell in prop.cells]
    state = released(prop, held, [index[cell] for cell in zone])
    if state is None:  # pragma: no cover - the fill solves these clues
        raise ValueError("the fill does not solve its own clues")
    return state


def released(prop: Propagator, state: list[int], slots: Iterable[int]) -> list[int] | None:
    """``state`` with ``slots`` back at their initial domains, propagated on their runs only
    (changed in place; None on a contradiction): a state that knew the rest of the grid,
    asked again about a few cells (``held_near``, the repairs' look-ahead)."""
    slots = list(slots)
    for i in slots:
        state[i] = prop.initial[i]
    runs = {run for i in slots for run in prop.cell_runs[i]}
    return state if prop.propagate(state, runs) else None


def local_propagator(
    layout: Layout, values: Mapping[Cell, int], zone: Iterable[Cell]
) -> tuple[Propagator, dict[tuple[Cell, ...], int]]:
    """The propagator of the runs through ``zone`` only (its cells: the zone's and their
    run-mates) with the totals ``values`` give them, and each such run's index in it by
    its cells: a state holding the run-mates outside the zone at their fill
    (``held_near``) is then propagated exactly as on the whole grid's propagator, at a
    cost that follows the zone (a whitening check or look-ahead changes a few cells of a
    60x60 grid, whose own propagator takes milliseconds to derive)."""
    across: set[tuple[Cell, ...]] = set()
    down: set[tuple[Cell, ...]] = set()
    for cell in zone:
        a, d = layout.lines_of(cell)
        across.add(a)
        down.add(d)
    runs = sorted(across) + sorted(down)  # the layout's order: across first, by first cell
    cells = sorted({cell for run in runs for cell in run})
    totals = [sum(values[cell] for cell in run) for run in runs]
    clues = dict(values)
    prop = Propagator.numeric(cells, runs, totals, lambda: build_puzzle(layout, clues))
    return prop, {run: k for k, run in enumerate(runs)}


def check_regions(
    puzzle: Puzzle | Propagator,
    values: Mapping[Cell, int],
    node_limit: int | None = None,
    quick_limit: int | None = None,
    *,
    search: bool = True,
    differ: int = 0,
    spread: int = 0,
    start: list[int] | None = None,
) -> list[Region] | None:
    """A verdict per undecided region (empty: propagation alone solves the puzzle), or None
    when the clues contradict themselves (``values`` then is no solution of ``puzzle``).

    ``values`` must be a solution of ``puzzle`` (the fill its clues were summed from).
    ``node_limit`` bounds each region's search (native search nodes), so the verdicts depend
    on the puzzle alone, never on the machine.  With ``quick_limit``, every region is first
    searched within that smaller budget; only when none of them turns out ambiguous do the
    undecided ones get the full ``node_limit``.  A generator that is going to repair the
    ambiguous spots anyway need not spend the full budget on a hard region in that round.
    With ``search`` off, the regions are only named (undecided, no search at all).  With
    ``differ``, a region of at least ``DIFFER_OVER`` cells is not counted but probed for
    second solutions near the fill, one probe per ``differ`` cells (``_differ_region``): a
    generator that must repair every open region anyway learns where, not whether.
    ``puzzle`` may be given as its propagator (``LayoutPropagators``), which is then not
    rebuilt.  ``start`` replaces the root fixpoint by a state below it (``held_near``): the
    cells it leaves open are open at the root too, so every region it names is ambiguous or
    undecided there as well, but a region it searches is counted with cells outside held
    that the root may not decide, so "unique" from a start proves nothing.  With ``spread``
    (and not ``differ``), a region of at least ``DIFFER_OVER`` cells is first probed as
    ``differ`` probes it (one probe per ``spread`` cells, each within the first budget); only
    when no probe finds a second solution is it counted, so the verdict "unique" is the
    same as without ``spread``, and an ambiguous loose grid names many spots in one check
    (``generator.tighten``: a 30x30 fill's giant region spent the whole budget per check
    on one spot).
    """
    root = puzzle if isinstance(puzzle, Propagator) else Propagator(puzzle)
    state = root.root() if start is None else start
    if state is None:
        return None
    n = root.n_cells
    cells = root.cells
    fill = [1 << (values[cell] - 1) for cell in cells]
    if any(state[i] & fill[i] == 0 for i in range(n)):
        return None  # propagation removed a fill digit: the fill does not fit the clues
    regions = open_regions(root, state)
    if not search:
        return [Region(tuple(root.cells[i] for i in m), None, False, 0, 0) for m in regions]
    if differ:
        return [
            _differ_region(root, state, fill, m, node_limit, differ)
            if len(m) >= DIFFER_OVER
            else _search_region(root, state, fill, m, node_limit)
            for m in regions
        ]
    first_limit = node_limit
    if quick_limit is not None and (node_limit is None or quick_limit < node_limit):
        first_limit = quick_limit
    verdicts = [
        _spread_region(root, state, fill, members, first_limit, spread)
        if spread and len(members) >= DIFFER_OVER
        else _search_region(root, state, fill, members, first_limit)
        for members in regions
    ]
    if first_limit != node_limit and not any(v.other is not None for v in verdicts):
        verdicts = [
            v if v.complete else _probe_region(root, state, fill, members, node_limit)
            for v, members in zip(verdicts, regions, strict=True)
        ]
    return verdicts


def open_regions(prop: Propagator, state: list[int]) -> list[list[int]]:
    """The slots ``state`` leaves open, split into regions linked through runs of open
    cells, each sorted, in order of their least slot."""
    n = prop.n_cells
    seen: set[int] = set()
    regions: list[list[int]] = []
    for first in (i for i in range(n) if state[i] & (state[i] - 1)):
        if first in seen:
            continue
        seen.add(first)
        members, todo = [first], [first]
        while todo:
            i = todo.pop()
            for run in prop.cell_runs[i]:
                for j in prop.run_cells[run]:
                    if j not in seen and state[j] & (state[j] - 1):
                        seen.add(j)
                        members.append(j)
                        todo.append(j)
        regions.append(sorted(members))
    return regions


def _search_region(
    prop: Propagator,
    root: list[int],
    fill: list[int],
    members: list[int],
    node_limit: int | None,
) -> Region:
    """Count one region's solutions up to two, every cell outside it held at the fill."""
    start = held_at(root, fill, members)
    cells = [prop.cells[i] for i in members]
    fill_digits = {prop.cells[i]: fill[i].bit_length() for i in members}
    stats = SearchStats()
    other: dict[Cell, int] | None = None
    complete = True  # unless the budget runs out first
    for found in prop.search(start, node_limit=node_limit, stats=stats, order=members, revise=()):
        if found is None:
            complete = False
            break
        values = prop.solution(found).values
        digits = {cell: values[cell] for cell in cells}
        if digits != fill_digits:
            other = digits  # the fill is a solution too: two of them
            break
    return Region(tuple(cells), other, complete, stats.nodes, stats.max_depth)


def _spread_region(
    prop: Propagator,
    root: list[int],
    fill: list[int],
    members: list[int],
    node_limit: int | None,
    per: int,
) -> Region:
    """A large region probed for second solutions near the fill (``_differ_region``), and
    counted (``_search_region``) only when no probe finds one."""
    probed = _differ_region(prop, root, fill, members, node_limit, per)
    if probed.other is not None:
        return probed
    return _search_region(prop, root, fill, members, node_limit)


def _barred(
    prop: Propagator,
    state: list[int],
    fill: list[int],
    members: list[int],
    i: int,
    node_limit: int | None,
    *,
    prefer: bool = False,
    revise: Iterable[int] | None = None,
) -> tuple[list[Found | None], SearchStats]:
    """One search of the region ``members`` from ``state`` (a fixpoint, every other cell held)
    with slot ``i`` barred from its fill digit: its first yield (none: no such solution) and
    its statistics.  It branches on the region's cells only and revises only the barred
    cell's runs (``Propagator.search(order=, revise=)``; ``revise`` widens that to the runs of
    every held cell when ``members`` is a ball inside a larger region); ``prefer`` tries the
    fill digits first, so a solution found differs from the fill where the bar forces it to."""
    probe = state[:]
    probe[i] &= ~fill[i]
    stats = SearchStats()
    search = prop.search(
        probe,
        node_limit=node_limit,
        stats=stats,
        prefer=fill if prefer else None,
        order=members,
        revise=prop.cell_runs[i] if revise is None else revise,
    )
    return list(islice(search, 1)), stats


def _probe_region(
    prop: Propagator,
    root: list[int],
    fill: list[int],
    members: list[int],
    node_limit: int | None,
) -> Region:
    """Settle a region one cell at a time: is there a solution where this cell differs from
    the fill?

    A depth-first count of a large region can get lost proving that nothing differs after
    its first solution; a probe only asks for *one* solution, with the cell barred from its
    fill digit, so any solution is a second one.  A probe with no solution shows the cell
    holds its fill digit in every solution: it is pinned, and propagating that shrinks the
    region before the next probe.  All probes share the ``node_limit`` budget, and none may
    take more than a tenth of it; cells whose probe ran out are reported as ``unsure``.
    """
    state = held_at(root, fill, members)
    cells = tuple(prop.cells[i] for i in members)
    cap = None if node_limit is None else max(1, node_limit // 10)
    nodes = depth = 0
    unsure: list[Cell] = []
    for i in sorted(members, key=lambda i: (-state[i].bit_count(), i)):
        if not state[i] & (state[i] - 1):
            continue  # pinned by an earlier probe's propagation
        budget = None
        if node_limit is not None and cap is not None:
            budget = min(cap, node_limit - nodes)
            if budget <= 0:
                unsure.append(prop.cells[i])  # the next cell to probe, for the repair
                break
        first, stats = _barred(prop, state, fill, members, i, budget)
        nodes += stats.nodes
        depth = max(depth, stats.max_depth + 1)
        if first and first[0] is not None:  # a solution where the cell differs: a second one
            values = prop.solution(first[0]).values
            return Region(cells, {cell: values[cell] for cell in cells}, True, nodes, depth)
        if first:  # the budget ran out
            unsure.append(prop.cells[i])
            continue
        if not prop.assign(state, i, fill[i]):
            raise AssertionError("the fill stopped fitting its own clues")  # pragma: no cover
    return Region(cells, None, not unsure, nodes, depth, tuple(unsure))


def _differ_region(
    prop: Propagator,
    root: list[int],
    fill: list[int],
    members: list[int],
    node_limit: int | None,
    per: int,
    radius: int | None = PROBE_RADIUS,
) -> Region:
    """Second solutions near the fill in one region, one per probe, for up to one probe
    per ``per`` open cells.

    A probe bars one cell from its fill digit and searches for one solution, preferring the
    fill digit everywhere else: what it finds differs from the fill where the barred digit
    forces it to, a small spot a repair can aim at, not a reshuffle of the whole region.
    Only the cells within ``radius`` run steps of the barred one may change (the rest of
    the region is held at the fill; None: the whole region), nearest first on ties.
    Cells sharing a run with a spot found so far are not probed, so the spots lie apart.
    Each probe gets ``node_limit`` nodes.
    """
    state = held_at(root, fill, members)
    cells = tuple(prop.cells[i] for i in members)
    inside = set(members)
    found: list[dict[Cell, int]] = []
    near: set[int] = set()
    nodes = depth = probes = 0
    complete = True
    for i in sorted(members, key=lambda i: (-state[i].bit_count(), i)):
        if probes * per >= len(members):
            complete = False
            break
        if i in near:
            continue
        probes += 1
        free = ball(prop, i, inside, radius)
        held = inside.difference(free)
        held.add(i)
        first, stats = _barred(
            prop,
            held_at(state, fill, free),
            fill,
            free,
            i,
            node_limit,
            prefer=True,
            revise={run for j in held for run in prop.cell_runs[j]},
        )
        nodes += stats.nodes
        depth = max(depth, stats.max_depth)
        if not first or first[0] is None:
            complete = complete and not first
            continue
        values = prop.solution(first[0]).values
        found.append({cell: values[cell] for cell in cells})
        changed = [j for j in members if values[prop.cells[j]] != fill[j].bit_length()]
        near.update(m for j in changed for run in prop.cell_runs[j] for m in prop.run_cells[run])
    if not found:
        return Region(cells, None, complete, nodes, depth)
    return Region(cells, found[0], True, nodes, depth, more=tuple(found[1:]))


def ball(prop: Propagator, start: int, inside: Container[int], radius: int | None) -> list[int]:
    """The slots of ``inside`` within ``radius`` run steps of ``start`` (None: all those
    connected to it), breadth first: nearest first, ``start`` itself first."""
    order = [start]
    dist = {start: 0}
    for i in order:
        if radius is not None and dist[i] >= radius:
            continue
        for run in prop.cell_runs[i]:
            for j in prop.run_cells[run]:
                if j in inside and j not in dist:
                    dist[j] = dist[i] + 1
                    order.append(j)
    return order
