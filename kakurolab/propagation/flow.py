"""Local search's start (:mod:`.local`): digits with every run's sum right, by one maximum
flow from the across runs through the cells to the down runs."""

from __future__ import annotations

from .propagator import Propagator


def flow_start(
    propagator: Propagator,
    root: list[int],
    across: list[int],
    down: list[int],
    targets: list[int],
) -> list[int] | None:
    """Digits inside each cell's root range with every run's sum right (a maximum flow from
    across runs through cells to down runs), or None when the clues' totals cannot be met."""
    import networkx as nx  # a required dependency; only local search needs it

    lows = [(mask & -mask).bit_length() for mask in root[: propagator.n_cells]]
    highs = [mask.bit_length() for mask in root[: propagator.n_cells]]
    # Integer nodes (runs, then source and sink): strings hash differently in every
    # process, and the flow found (so every grid after it) would too.
    source, sink = len(targets), len(targets) + 1
    graph = nx.DiGraph()
    supply = demand = 0  # what the across runs must give and the down runs must take
    for r, members in enumerate(propagator.run_cells):
        spare = targets[r] - sum(lows[c] for c in members)
        if spare < 0:
            return None
        if across[members[0]] == r:
            graph.add_edge(source, r, capacity=spare)
            supply += spare
        else:
            graph.add_edge(r, sink, capacity=spare)
            demand += spare
    if supply != demand:
        return None  # the across and down totals differ: no digits meet both
    for c in range(propagator.n_cells):
        graph.add_edge(across[c], down[c], capacity=highs[c] - lows[c])
    value, flow = nx.maximum_flow(graph, source, sink)
    if value != supply:
        return None
    return [lows[c] + flow[across[c]][down[c]] for c in range(propagator.n_cells)]
