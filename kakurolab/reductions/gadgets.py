"""The gadgets of the exact-cover reduction: tiles of 6x6 cells whose runs carry one bit.

A bit travels as a *wire*: a cell holds ``lo`` or ``hi`` of a digit pair, and every run with
two bit cells (the other cells pinned by clued one-cell runs) forces one high and one low, so
each run negates the bit.  A *bus* wire uses the pair {1, 2} (difference 1), a *lane* the
pair {7, 9} (difference 2); two-cell runs of clue 3 and 16 have no other digit set, so every
wire forces its own pairs.

A tile holds up to four *parts* around its centre cell (3, 2): ``L`` and ``R`` carry a
horizontal wire in and out (a run along row 3, linked up to row 2 at columns 0 and 4), ``U``
and ``D`` a vertical one (a run down column 2, linked across to column 3 at rows 1 and 5).
The centre's two runs make the node:

* a horizontal or vertical pass: the centre is a pin;
* a corner (one horizontal and one vertical part): a plain wire cell;
* a **crossover** (all four): across [a, 3, c, 4, a'] with a, a' in {1, 2} forces c = 5,
  so the down run [b, 1, 5, 2, b'] only carries its own bit (the note's crossover);
* a **tap** (``L``, ``R``, ``D`` on a bus): across [a, 5, m, 6, b] with a in {1, 2},
  b in {3, 4}, m in {7, 9} and clue 24 allows (1, 9, 3) and (2, 7, 4) only: b copies a and
  the lane m carries the negation (Δ 1 + 1 = 2: an EQ node);
* a **node** (``L``, ``U``, ``R`` on lanes): across [p, 2, q, 5, r] with p in {4, 6},
  q in {1, 3}, r in {7, 9}: the clue fixes how many ports are high (exactly one, or two).

Every run with two bit cells negates, so along a path of runs the bit flips once per run;
the relation a gadget implements is a hyperplane over its ports' bits (``Gadget.relation``,
checked by brute force in ``tests/test_reductions.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..model import Cell

TILE = 6
"""The side of a tile in cells."""

CENTRE: Cell = (3, 2)


class Kind(StrEnum):
    """What a wire carries: a bus bit on {1, 2} or a lane bit on {7, 9}."""

    BUS = "bus"
    LANE = "lane"


class Role(StrEnum):
    """What the centre of a tile does (see the module docstring)."""

    WIRE = "wire"
    TAP = "tap"
    NODE = "node"


@dataclass(frozen=True, slots=True)
class Pin:
    """A white cell fixed by its clued one-cell run."""

    value: int


@dataclass(frozen=True, slots=True)
class Fixed:
    """A white cell whose digit is forced by its runs (a crossover's centre)."""

    value: int


@dataclass(frozen=True, slots=True)
class Bit:
    """A white cell holding ``lo`` when its wire's bit is low, ``hi`` when high."""

    lo: int
    hi: int

    @property
    def delta(self) -> int:
        return self.hi - self.lo


CellRole = Pin | Fixed | Bit

PAIR = {Kind.BUS: Bit(1, 2), Kind.LANE: Bit(7, 9)}

# Pins by wire kind: the horizontal run's two pins and centre pin, the upper link pin,
# the vertical run's two pins and centre pin, the vertical link pin.
H_PINS = {Kind.BUS: (3, 4, 5), Kind.LANE: (3, 4, 5)}
UPPER_PIN = {Kind.BUS: 3, Kind.LANE: 1}
V_PINS = {Kind.BUS: (3, 4, 5), Kind.LANE: (1, 2, 5)}
LINK_PIN = {Kind.BUS: 3, Kind.LANE: 1}

CROSS_CENTRE = 5
TAP_PINS = (5, 6)
TAP_OUT = Bit(3, 4)
"""A tap's across pins and its out port's pair (its in port is the bus pair, m the lane's)."""
NODE_PINS = (2, 5)
NODE_LEFT, NODE_CENTRE, NODE_RIGHT = Bit(4, 6), Bit(1, 3), Bit(7, 9)
NODE_VPIN = 2
"""A node's across pins, its three ports' pairs and the pin above its centre."""


@dataclass(frozen=True)
class Tile:
    """One tile: its parts (a subset of ``LRUD``), the kinds of its wires and its role."""

    parts: frozenset[str]
    hkind: Kind = Kind.BUS
    vkind: Kind = Kind.LANE
    role: Role = Role.WIRE

    @classmethod
    def of(cls, parts: str, hkind: Kind = Kind.BUS, vkind: Kind = Kind.LANE,
           role: Role = Role.WIRE) -> Tile:
        return cls(frozenset(parts), hkind, vkind, role)

    def cells(self) -> dict[Cell, CellRole]:
        """Every white cell of the tile (tile coordinates) and what it holds."""
        return tile_cells(self)


def tile_cells(tile: Tile) -> dict[Cell, CellRole]:
    """The white cells of ``tile`` and their roles (see the module docstring)."""
    parts, h, v = tile.parts, tile.hkind, tile.vkind
    horizontal = bool(parts & {"L", "R"})
    vertical = bool(parts & {"U", "D"})
    out: dict[Cell, CellRole] = {}
    if not (horizontal or vertical):
        return out
    hp, vp = H_PINS[h], V_PINS[v]
    if "L" in parts:
        out[(2, 0)] = PAIR[h]
        out[(3, 0)] = PAIR[h]
        out[(3, 1)] = Pin(hp[0])
    if "R" in parts:
        out[(3, 3)] = Pin(hp[1])
        out[(3, 4)] = PAIR[h]
        out[(2, 4)] = PAIR[h]
        out[(2, 5)] = Pin(UPPER_PIN[h])
    if "U" in parts:
        out[(0, 3)] = Pin(LINK_PIN[v])
        out[(1, 3)] = PAIR[v]
        out[(1, 2)] = PAIR[v]
        out[(2, 2)] = Pin(vp[0])
    if "D" in parts:
        out[(4, 2)] = Pin(vp[1])
        out[(5, 2)] = PAIR[v]
        out[(5, 3)] = PAIR[v]
    if horizontal and vertical:
        both_ways = {"L", "R"} <= parts and {"U", "D"} <= parts
        out[CENTRE] = Fixed(CROSS_CENTRE) if both_ways else PAIR[v]
    else:
        out[CENTRE] = Pin(hp[2] if horizontal else vp[2])
    if tile.role is Role.TAP:
        if parts != {"L", "R", "D"} or h is not Kind.BUS or v is not Kind.LANE:
            raise ValueError(f"a tap is a bus tile with parts LRD, not {sorted(parts)}")
        out[(3, 1)], out[(3, 3)] = Pin(TAP_PINS[0]), Pin(TAP_PINS[1])
        out[(3, 4)] = TAP_OUT
        out[CENTRE] = PAIR[Kind.LANE]
    elif tile.role is Role.NODE:
        if parts != {"L", "R", "U"} or h is not Kind.LANE or v is not Kind.LANE:
            raise ValueError(f"a node is a lane tile with parts LRU, not {sorted(parts)}")
        out[(3, 1)], out[(3, 3)] = Pin(NODE_PINS[0]), Pin(NODE_PINS[1])
        out[(3, 0)], out[CENTRE], out[(3, 4)] = NODE_LEFT, NODE_CENTRE, NODE_RIGHT
        out[(2, 2)] = Pin(NODE_VPIN)
    elif horizontal and vertical and h is not v and not isinstance(out[CENTRE], Fixed):
        raise ValueError("a corner joins two wires of one kind")
    return out


# ---------------------------------------------------------------------------------------
# Gadgets as records: runs, ports and the relation, for the brute-force check.


@dataclass(frozen=True)
class Port:
    """A gadget cell whose digit pair the wire outside forces."""

    cell: Cell
    pair: Bit


@dataclass(frozen=True)
class Gadget:
    """A few runs with their clues, the ports among their cells, and the port relation:
    the set of port bit tuples (1 = the port holds ``hi``) for which the runs can be
    filled, each in exactly one way (parsimony)."""

    name: str
    runs: tuple[tuple[tuple[Cell, ...], int], ...]
    ports: tuple[Port, ...]
    relation: frozenset[tuple[int, ...]]
    why: str

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(sorted({cell for cells, _ in self.runs for cell in cells}))


def fills(gadget: Gadget) -> Iterator[dict[Cell, int]]:
    """Every digit assignment of the gadget's cells (ports within their pairs, the others
    1-9) that meets every run's sum with distinct digits: plain brute force."""
    pairs: Mapping[Cell, Bit] = {port.cell: port.pair for port in gadget.ports}
    pins = {run[0]: clue for run, clue in gadget.runs if len(run) == 1}  # checked early
    cells = gadget.cells
    domains = [
        (pairs[c].lo, pairs[c].hi) if c in pairs else (pins[c],) if c in pins
        else tuple(range(1, 10))
        for c in cells
    ]
    for digits in itertools.product(*domains):
        values = dict(zip(cells, digits, strict=True))
        if all(
            sum(values[c] for c in run) == clue and len({values[c] for c in run}) == len(run)
            for run, clue in gadget.runs
        ):
            yield values


def brute_relation(gadget: Gadget) -> dict[tuple[int, ...], int]:
    """Port bit tuple -> number of fills, by brute force."""
    found: dict[tuple[int, ...], int] = {}
    for values in fills(gadget):
        bits = tuple(int(values[p.cell] == p.pair.hi) for p in gadget.ports)
        found[bits] = found.get(bits, 0) + 1
    return found


def _negation(pa: Bit, pb: Bit, clue: int, name: str, why: str) -> Gadget:
    return Gadget(
        name, ((((0, 0), (0, 1)), clue),), (Port((0, 0), pa), Port((0, 1), pb)),
        frozenset({(0, 1), (1, 0)}), why,
    )


def _pinned_run(name: str, digits: tuple[int | Bit, ...], relation: set[tuple[int, ...]],
                clue: int, why: str) -> Gadget:
    """One across run whose cells are pins (int) or ports (Bit), pins clued by one-cell
    down runs."""
    cells = tuple((0, i) for i in range(len(digits)))
    runs: list[tuple[tuple[Cell, ...], int]] = [(cells, clue)]
    ports = []
    for cell, d in zip(cells, digits, strict=True):
        if isinstance(d, Bit):
            ports.append(Port(cell, d))
        else:
            runs.append(((cell,), d))
    return Gadget(name, tuple(runs), tuple(ports), frozenset(relation), why)


GADGETS: tuple[Gadget, ...] = (
    _negation(
        PAIR[Kind.BUS], PAIR[Kind.BUS], 3, "bus link", "clue 3: {1, 2} only, so a bus bit flips"
    ),
    _negation(PAIR[Kind.LANE], PAIR[Kind.LANE], 16, "lane link", "clue 16: {7, 9} only"),
    _negation(TAP_OUT, PAIR[Kind.BUS], 5, "tap out link", "the tap's {3, 4} back to {1, 2}"),
    _negation(PAIR[Kind.LANE], NODE_LEFT, 13, "node left link", "{7, 9} to the node's {4, 6}"),
    _pinned_run(
        "bus segment", (PAIR[Kind.BUS], 3, 5, 4, PAIR[Kind.BUS]), {(0, 1), (1, 0)}, 15,
        "a pass: two bus ports and three pins",
    ),
    _pinned_run(
        "tap", (PAIR[Kind.BUS], TAP_PINS[0], PAIR[Kind.LANE], TAP_PINS[1], TAP_OUT),
        {(1, 0, 1), (0, 1, 0)}, 24,
        "EQ: in and out equal (copy), the lane port their negation",
    ),
    _pinned_run(
        "node, exactly one", (NODE_LEFT, NODE_PINS[0], NODE_CENTRE, NODE_PINS[1],
                              NODE_RIGHT),
        {(1, 0, 0), (0, 1, 0), (0, 0, 1)}, 4 + 2 + 1 + 5 + 7 + 2,
        "exactly one of three lane ports high",
    ),
    _pinned_run(
        "node, exactly two", (NODE_LEFT, NODE_PINS[0], NODE_CENTRE, NODE_PINS[1],
                              NODE_RIGHT),
        {(1, 1, 0), (1, 0, 1), (0, 1, 1)}, 4 + 2 + 1 + 5 + 7 + 4,
        "exactly two high: exactly one low",
    ),
    Gadget(
        "crossover",
        (
            (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), 15),
            (((-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2)), 7 + 9 + 1 + 5 + 2),
            (((0, 1),), 3), (((0, 3),), 4), (((-1, 2),), 1), (((1, 2),), 2),
        ),
        (Port((0, 0), PAIR[Kind.BUS]), Port((0, 4), PAIR[Kind.BUS]),
         Port((-2, 2), PAIR[Kind.LANE]), Port((2, 2), PAIR[Kind.LANE])),
        frozenset({(0, 1, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1), (1, 0, 1, 0)}),
        "across forces the centre to 5, so each wire only negates its own bit",
    ),
    Gadget(
        "lane crossover",
        (
            (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), 7 + 9 + 3 + 5 + 4),
            (((-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2)), 7 + 9 + 1 + 5 + 2),
            (((0, 1),), 3), (((0, 3),), 4), (((-1, 2),), 1), (((1, 2),), 2),
        ),
        (Port((0, 0), PAIR[Kind.LANE]), Port((0, 4), PAIR[Kind.LANE]),
         Port((-2, 2), PAIR[Kind.LANE]), Port((2, 2), PAIR[Kind.LANE])),
        frozenset({(0, 1, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1), (1, 0, 1, 0)}),
        "two lanes cross in the clause rows",
    ),
)
"""Every gadget the layout uses, as a record whose relation tests check by brute force."""
