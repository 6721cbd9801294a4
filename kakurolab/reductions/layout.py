"""Placing the gadgets of ``gadgets.py`` on a grid and wiring them into one puzzle.

``Board`` is a grid of tiles; ``wire`` turns it into white cells, the bit classes of its
wires (which cells carry one bit, and with which parity) and the clues.  Clues never come
from a planted fill: every run's sum is the same for every assignment of the wires' bits,
except a node's, whose clue says "exactly one port true" by construction, so an
unsatisfiable source gives an unsatisfiable puzzle.

``exact_cover_board`` is the layout of a 1-in-3 formula (a matrix):

* each variable is a closed *loop* of bus in two tile rows: taps on the lower track, the
  upper track returning; closed by corners in spare columns (every run negates and every
  tap copies, so a loop with an even number of taps is consistent and has two fills);
* each clause owns six lane columns, two taps per occurrence: along a loop the taps'
  lanes alternate in parity (a copy tap flips the phase of the next one: the sum of a
  variable's port parities is fixed by the cut identity, so one lane per occurrence cannot
  work), so each clause gets one lane of each parity per occurrence, and two nodes in the
  bottom rows: ``A`` takes the even lanes, ``B`` the odd ones; both say "exactly one";
* a lane runs down from its tap to its node, crossing every loop on the way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import KakuroError
from ..generator import Layout, from_clues
from ..model import Cell, Clue, Direction, Puzzle
from .gadgets import CENTRE, TILE, Bit, CellRole, Fixed, Kind, Pin, Role, Tile


@dataclass
class Board:
    """A grid of tiles (tile coordinates) and the anchor cell of each variable (grid
    coordinates): the cell whose pair's ``hi`` means the variable is true."""

    rows: int
    cols: int
    tiles: dict[tuple[int, int], Tile] = field(default_factory=dict)
    anchors: dict[int, Cell] = field(default_factory=dict)

    def roles(self) -> dict[Cell, CellRole]:
        """Every white cell of the grid and what it holds."""
        out: dict[Cell, CellRole] = {}
        for (tr, tc), tile in self.tiles.items():
            for (r, c), role in tile.cells().items():
                out[(tr * TILE + r, tc * TILE + c)] = role
        return out


@dataclass(frozen=True)
class Wired:
    """A board made into a puzzle: its cells' roles, the parity of each bit cell against
    its variable's anchor, and the node runs (clauses)."""

    puzzle: Puzzle
    roles: Mapping[Cell, CellRole]
    parity: Mapping[Cell, tuple[int, int]]
    """bit cell -> (variable, parity): the cell is high iff variable XOR parity."""
    anchors: Mapping[int, Cell]
    nodes: tuple[tuple[Cell, ...], ...]

    def values(self, assignment: Sequence[int]) -> dict[Cell, int]:
        """The grid's digits for an assignment of the variables (the fill it maps to)."""
        out: dict[Cell, int] = {}
        for cell, role in self.roles.items():
            if isinstance(role, Bit):
                var, par = self.parity[cell]
                out[cell] = role.hi if assignment[var] ^ par else role.lo
            else:
                out[cell] = role.value
        return out

    def decode(self, values: Mapping[Cell, int]) -> tuple[int, ...]:
        """The assignment a solution's digits stand for (read at the anchors)."""
        n = max(self.anchors, default=-1) + 1
        bits = []
        for var in range(n):
            cell = self.anchors[var]
            role = self.roles[cell]
            assert isinstance(role, Bit)
            bits.append(int(values[cell] == role.hi))
        return tuple(bits)


def _bit_relations(
    runs: Sequence[tuple[Direction, tuple[Cell, ...]]], roles: Mapping[Cell, CellRole]
) -> tuple[list[tuple[Cell, Cell, int]], list[tuple[Cell, ...]]]:
    """Edges (a, b, parity) between bit cells of one wire, and the node runs."""
    edges: list[tuple[Cell, Cell, int]] = []
    nodes: list[tuple[Cell, ...]] = []
    for _, cells in runs:
        bits = [c for c in cells if isinstance(roles[c], Bit)]
        deltas = [role.delta for c in bits if isinstance(role := roles[c], Bit)]
        if len(bits) == 2 and deltas[0] == deltas[1]:
            edges.append((bits[0], bits[1], 1))
        elif len(bits) == 3 and len(set(deltas)) == 1:
            nodes.append(tuple(bits))
        elif len(bits) == 3 and sorted(deltas)[2] == sorted(deltas)[0] + sorted(deltas)[1]:
            big = bits[deltas.index(max(deltas))]
            small = [c for c in bits if c != big]
            edges.append((small[0], small[1], 0))
            edges.append((small[0], big, 1))
        elif bits:
            raise KakuroError(f"run at {cells[0]} joins bits of deltas {deltas}: not a gadget")
    return edges, nodes


def wire(board: Board, pid: str = "exact-cover") -> Wired:
    """The puzzle of a board: white cells, each wire's parity from its anchor, clues."""
    roles = board.roles()
    layout = Layout(board.rows * TILE, board.cols * TILE, frozenset(roles))
    edges, nodes = _bit_relations(layout.runs, roles)
    neighbours: dict[Cell, list[tuple[Cell, int]]] = {}
    for a, b, p in edges:
        neighbours.setdefault(a, []).append((b, p))
        neighbours.setdefault(b, []).append((a, p))
    parity: dict[Cell, tuple[int, int]] = {}
    for var, anchor in board.anchors.items():
        parity[anchor] = (var, 0)
        todo = [anchor]
        while todo:
            cell = todo.pop()
            _, par = parity[cell]
            for other, p in neighbours.get(cell, ()):
                want = (var, par ^ p)
                if other not in parity:
                    parity[other] = want
                    todo.append(other)
                elif parity[other] != want:
                    raise KakuroError(f"wire of variable {var} is inconsistent at {other}")
    loose = [c for c, r in roles.items() if isinstance(r, Bit) and c not in parity]
    if loose:
        raise KakuroError(f"{len(loose)} bit cells belong to no variable, e.g. {loose[0]}")
    clues: dict[tuple[Direction, Cell], Clue] = {}
    zero = {c: (r.hi if parity[c][1] else r.lo) if isinstance(r, Bit) else r.value
            for c, r in roles.items()}
    node_set = set(nodes)
    for direction, cells in layout.runs:
        bits = tuple(c for c in cells if isinstance(roles[c], Bit))
        total = sum(zero[c] for c in cells)
        if bits in node_set:
            pars = {parity[c][1] for c in bits}
            if len(pars) != 1:
                raise KakuroError(f"node at {bits[0]} mixes port parities")
            # a port is high iff its variable XOR par; exactly one variable true
            high = 1 if pars == {0} else 2
            ports = [role for c in bits if isinstance(role := roles[c], Bit)]
            total = sum(zero[c] for c in cells if c not in bits) + sum(
                port.lo + (port.delta if i < high else 0) for i, port in enumerate(ports)
            )
        clues[(direction, cells[0])] = Clue(total)
    puzzle = from_clues(layout, clues, pid)
    return Wired(puzzle, roles, parity, dict(board.anchors), tuple(nodes))


def exact_cover_board(n: int, clauses: Sequence[tuple[int, int, int]]) -> Board:
    """The matrix layout of a 1-in-3 formula over variables 0..n-1 (see the docstring)."""
    occurs = sorted({v for clause in clauses for v in clause})
    free = [v for v in range(n) if v not in set(occurs)]
    m = len(clauses)
    groups: dict[int, list[int]] = {}
    for g, clause in enumerate(clauses):
        for v in clause:
            groups.setdefault(v, []).append(g)
    pair_of, pairs = _loop_pairs(occurs, groups)
    rows = 2 * (len(free) + pairs) + (2 if m else 0)
    board = Board(rows, max(7 * m + 1, 2))
    sketch = _Sketch()
    for i, v in enumerate(free):
        board.anchors[v] = sketch.free_loop(2 * i)
    row_of = {v: 2 * (len(free) + pair_of[v]) for v in occurs}
    for v in occurs:
        sketch.loop(row_of[v], 7 * min(groups[v]), 7 * max(groups[v]) + 7)
    sketch.clauses(clauses, row_of, board)
    for tile, letters in sketch.parts.items():
        hkind, vkind = sketch.kinds.get(tile, (Kind.BUS, Kind.LANE))
        role = Role.TAP if tile in sketch.taps else Role.NODE if tile in sketch.nodes else Role.WIRE
        board.tiles[tile] = Tile(frozenset(letters), hkind, vkind, role)
    return board


def _loop_pairs(occurs: list[int], groups: dict[int, list[int]]) -> tuple[dict[int, int], int]:
    """Each variable's pair of loop rows: loops whose columns do not meet share a pair (first
    fit, by left end); also how many pairs there are."""
    ends: list[int] = []  # the right end of the last loop in each pair of rows
    pair_of: dict[int, int] = {}
    for v in sorted(occurs, key=lambda v: (min(groups[v]), v)):
        left = 7 * min(groups[v])
        pair = next((i for i, end in enumerate(ends) if end < left), len(ends))
        if pair == len(ends):
            ends.append(0)
        ends[pair] = 7 * max(groups[v]) + 7
        pair_of[v] = pair
    return pair_of, len(ends)


class _Sketch:
    """The tiles of :func:`exact_cover_board` while they are drawn: each tile's wire ends
    (letters), the kinds of its two directions, and which tiles are taps and nodes."""

    def __init__(self) -> None:
        self.parts: dict[tuple[int, int], set[str]] = {}
        self.kinds: dict[tuple[int, int], tuple[Kind, Kind]] = {}
        self.taps: set[tuple[int, int]] = set()
        self.nodes: set[tuple[int, int]] = set()

    def add(self, tile: tuple[int, int], *letters: str) -> None:
        self.parts.setdefault(tile, set()).update(letters)

    def free_loop(self, up: int) -> tuple[int, int]:
        """A loop of four corners for a variable in no clause (two fills); its anchor."""
        low = up + 1
        self.add((up, 0), "R", "D")
        self.add((up, 1), "L", "D")
        self.add((low, 0), "R", "U")
        self.add((low, 1), "L", "U")
        for t in ((up, 0), (up, 1), (low, 0), (low, 1)):
            self.kinds[t] = (Kind.BUS, Kind.BUS)
        return (up * TILE + CENTRE[0], 0 * TILE + CENTRE[1])

    def loop(self, up: int, left: int, right: int) -> None:
        """A variable's loop on rows ``up`` and ``up + 1`` from column ``left`` to ``right``."""
        low = up + 1
        for c in range(left, right + 1):
            lr = ("R",) if c == left else ("L",) if c == right else ("L", "R")
            self.add((up, c), *lr)
            self.add((low, c), *lr)
            self.kinds[(up, c)] = self.kinds[(low, c)] = (Kind.BUS, Kind.LANE)
        self.add((up, left), "D")
        self.add((up, right), "D")
        self.add((low, left), "U")
        self.add((low, right), "U")
        for t in ((up, left), (up, right), (low, left), (low, right)):
            self.kinds[t] = (Kind.BUS, Kind.BUS)

    def clauses(
        self, clauses: Sequence[tuple[int, int, int]], row_of: dict[int, int], board: Board
    ) -> None:
        """Taps, lanes and the two exactly-one nodes of every clause (one per tap phase)."""
        node_a, node_b = board.rows - 2, board.rows - 1
        count: dict[int, int] = {}
        for g, clause in enumerate(clauses):
            cols_of: dict[int, list[int]] = {0: [], 1: []}
            for k in range(6):
                col = 7 * g + 1 + k
                v = clause[k % 3]
                parity = count.get(v, 0) % 2
                count[v] = count.get(v, 0) + 1
                cols_of[parity].append(col)
                tap = (row_of[v] + 1, col)
                self.add(tap, "D")
                self.taps.add(tap)
                if count[v] == 1:
                    board.anchors[v] = (tap[0] * TILE + CENTRE[0], col * TILE + CENTRE[1])
                end = node_a if parity == 0 else node_b
                for r in range(tap[0] + 1, end):
                    self.add((r, col), "U", "D")
                    self.kinds.setdefault((r, col), (Kind.BUS, Kind.LANE))
                self.add((end, col), "U")
            for parity, row in ((0, node_a), (1, node_b)):
                p1, p2, p3 = cols_of[parity]
                for c in range(p1, p3 + 1):
                    self.add((row, c), *(("R",) if c == p1 else ("L",) if c == p3 else ("L", "R")))
                    self.kinds[(row, c)] = (Kind.LANE, Kind.LANE)
                self.nodes.add((row, p2))


__all__ = ["Board", "Fixed", "Pin", "Wired", "exact_cover_board", "wire"]
