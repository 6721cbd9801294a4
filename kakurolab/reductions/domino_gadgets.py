"""The gadgets of the domino reduction (``domino.py``), as records of the runs they place.

A board square becomes a **1-of-4 node**: one run of four port cells whose digits are held to
the pairs {1,2}, {3,4}, {5,6}, {7,8} (low, high) and clued 1 + 3 + 5 + 7 + 1 = 17, so exactly
one port is high: the neighbour the square is paired with.  Each port's perpendicular run
carries its bit to a **wire end** whose digit is 1 or 2:

* a *shift* ``[port, end]`` clued low + 2 (``port = low + 2 - end``);
* a *riser* ``[end, pin, port]`` (or with two pins) whose pins are cells in a one-cell run, a
  fixed digit (8 or 9), clued low + 2 + the pins.  Risers serve the interior ports: a shift
  there would leave its end boxed in between the neighbouring ports' black cells.

Either way the end holds 1 exactly when the port is high.  A side without a neighbour gets
no wire: its port is pinned low by a one-cell run.  A **wire** is a staircase of two-cell runs
clued 3 (only {1, 2}), so its digits alternate.  A staircase can never turn (a turn puts a
cell beside the cell two steps back, merging runs), so each wire is a straight diagonal.
Squares with ``i + j`` even are across nodes, the others down nodes (the transpose): every
wire leaves an across node's end with an across run and enters a down node's end with a down
run, so it has an even number of runs and both ends hold the same digit.  The board is
planar and the wires are diagonals between neighbours, so no crossover is needed.

``completions`` enumerates a gadget's digits by brute force: the tests check with it that
each node, for every set of present sides, lets exactly one end be 1 and completes in exactly
one way, and that every wire copies its bit with one completion (``port_relation``,
``wire_relation``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise, product

from ..model import Cell, Direction

SIDES = ("N", "S", "E", "W")
"""A square's neighbours: north (row - 1), south, east (column + 1), west."""

NODE_CLUE = 17
"""1 + 3 + 5 + 7 (every port low) + 1: exactly one port high."""

WIRE_CLUE = 3
"""A two-cell run clued 3 holds {1, 2}: the wire's digits alternate."""


@dataclass(frozen=True)
class PlacedRun:
    """A run the layout promises: its direction, its cells in reading order and its clue."""

    direction: Direction
    cells: tuple[Cell, ...]
    clue: int

    def moved(self, by: Cell) -> PlacedRun:
        return PlacedRun(
            self.direction, tuple((r + by[0], c + by[1]) for r, c in self.cells), self.clue
        )


@dataclass(frozen=True)
class PortSpec:
    """One port of a node, in the node's own frame: along is the port's place in the node run,
    the offsets are positions across it (the perpendicular run, the pins, the wire end)."""

    side: str
    along: int
    low: int
    run: tuple[int, ...]
    pins: Mapping[int, int]
    end: int
    exit: Cell
    """The diagonal step (rows, columns) in which the wire leaves the end."""


# the across node (run in row 0, columns 0-3); the down node is its transpose with the
# S port a plain shift (the across node's S port needs two pins to fit the lattice: domino.py)
ACROSS_PORTS = (
    PortSpec("S", 0, 1, (0, 1, 2, 3), {1: 8, 2: 9}, 3, (1, -1)),
    PortSpec("W", 1, 3, (-2, -1, 0), {-1: 9}, -2, (-1, -1)),
    PortSpec("E", 2, 5, (0, 1, 2), {1: 9}, 2, (1, 1)),
    PortSpec("N", 3, 7, (-1, 0), {}, -1, (-1, 1)),
)
DOWN_PORTS = (
    PortSpec("N", 0, 1, (0, 1), {}, 1, (-1, 1)),
    PortSpec("W", 1, 3, (-2, -1, 0), {-1: 9}, -2, (-1, -1)),
    PortSpec("E", 2, 5, (0, 1, 2), {1: 9}, 2, (1, 1)),
    PortSpec("S", 3, 7, (-1, 0), {}, -1, (1, -1)),
)


@dataclass(frozen=True)
class Port:
    """A placed port: the node cell, its low digit, and (when the side has a neighbour) the
    wire end and the diagonal the wire leaves it by."""

    side: str
    cell: Cell
    low: int
    end: Cell | None
    exit: Cell | None


@dataclass(frozen=True)
class Node:
    """A placed 1-of-4 node: its runs (node run, shifts, risers, pins) and its ports."""

    across: bool
    runs: tuple[PlacedRun, ...]
    ports: tuple[Port, ...]

    def port(self, side: str) -> Port:
        return next(p for p in self.ports if p.side == side)


def node(across: bool, present: frozenset[str] | set[str], at: Cell = (0, 0)) -> Node:
    """The node of a square with neighbours on the ``present`` sides, its first cell at ``at``."""
    specs = ACROSS_PORTS if across else DOWN_PORTS
    along_dir, perp_dir = (
        (Direction.ACROSS, Direction.DOWN) if across else (Direction.DOWN, Direction.ACROSS)
    )

    def cell(along: int, off: int) -> Cell:
        r, c = (off, along) if across else (along, off)
        return (r + at[0], c + at[1])

    runs = [PlacedRun(along_dir, tuple(cell(s.along, 0) for s in specs), NODE_CLUE)]
    ports = []
    for spec in specs:
        if spec.side in present:
            clue = spec.low + 2 + sum(spec.pins.values())
            runs.append(PlacedRun(perp_dir, tuple(cell(spec.along, o) for o in spec.run), clue))
            runs.extend(
                PlacedRun(along_dir, (cell(spec.along, o),), pin) for o, pin in spec.pins.items()
            )
            ports.append(
                Port(spec.side, cell(spec.along, 0), spec.low, cell(spec.along, spec.end),
                     spec.exit)
            )
        else:
            runs.append(PlacedRun(perp_dir, (cell(spec.along, 0),), spec.low))
            ports.append(Port(spec.side, cell(spec.along, 0), spec.low, None, None))
    return Node(across, tuple(runs), tuple(ports))


def wire(start: Cell, end: Cell) -> tuple[PlacedRun, ...]:
    """The staircase from an across node's end ``start`` (first run across) to a down node's
    end ``end`` (last run down); the two must lie on one diagonal."""
    dr, dc = end[0] - start[0], end[1] - start[1]
    if abs(dr) != abs(dc) or dr == 0:
        raise ValueError(f"wire ends {start} and {end} are not on one diagonal")
    sr, sc = (1 if dr > 0 else -1), (1 if dc > 0 else -1)
    cells = [start]
    for _ in range(abs(dr)):
        r, c = cells[-1]
        cells += [(r, c + sc), (r + sr, c + sc)]
    runs = []
    for a, b in pairwise(cells):
        direction = Direction.ACROSS if a[0] == b[0] else Direction.DOWN
        runs.append(PlacedRun(direction, tuple(sorted((a, b))), WIRE_CLUE))
    return tuple(runs)


def completions(
    runs: Sequence[PlacedRun], domains: Mapping[Cell, Sequence[int]] | None = None
) -> Iterator[dict[Cell, int]]:
    """Every digit assignment of the runs' cells that keeps each run's sum and distinct digits
    (cells in ``domains`` restricted to those digits): plain backtracking, for gadget-sized
    cell sets only."""
    cells = sorted({cell for run in runs for cell in run.cells})
    through: dict[Cell, list[PlacedRun]] = {cell: [] for cell in cells}
    for run in runs:
        for cell in run.cells:
            through[cell].append(run)
    # cells of short runs first, so pins and shifts cut the search early
    cells.sort(key=lambda cell: min(len(run.cells) for run in through[cell]))
    domains = domains or {}
    values: dict[Cell, int] = {}

    def fits(cell: Cell) -> bool:
        for run in through[cell]:
            seen = [values[c] for c in run.cells if c in values]
            if len(set(seen)) < len(seen) or sum(seen) > run.clue:
                return False
            if len(seen) == len(run.cells) and sum(seen) != run.clue:
                return False
        return True

    def walk(i: int) -> Iterator[dict[Cell, int]]:
        if i == len(cells):
            yield dict(values)
            return
        cell = cells[i]
        for digit in domains.get(cell, range(1, 10)):
            values[cell] = digit
            if fits(cell):
                yield from walk(i + 1)
            del values[cell]

    yield from walk(0)


def port_relation(gadget: Node) -> dict[tuple[int, ...], int]:
    """The node's relation on its wire ends (present sides in ``SIDES`` order), each end held
    to {1, 2} as its wire holds it: every tuple of end digits the node allows, with the number
    of ways the node's other cells complete it (parsimony needs 1)."""
    ends = [p.end for side in SIDES for p in gadget.ports if p.side == side and p.end]
    found: dict[tuple[int, ...], int] = {}
    for values in completions(gadget.runs, {end: (1, 2) for end in ends}):
        key = tuple(values[end] for end in ends)
        found[key] = found.get(key, 0) + 1
    return found


def wire_relation(length: int) -> dict[tuple[int, int], int]:
    """A wire of ``length`` diagonal steps, alone: its end digits and completion counts."""
    start, end = (0, 0), (length, length)
    found: dict[tuple[int, int], int] = {}
    for values in completions(wire(start, end)):
        key = (values[start], values[end])
        found[key] = found.get(key, 0) + 1
    return found


def exactly_one_low(n: int) -> set[tuple[int, ...]]:
    """The end tuples of a 1-of-n node: exactly one end is 1 (its port high)."""
    return {t for t in product((1, 2), repeat=n) if t.count(1) == 1}
