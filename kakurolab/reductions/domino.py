"""Domino tilings as Kakuro: a board's tilings are in bijection with the puzzle's solutions.

A board is a set of squares ``(row, column)``.  Every square becomes a 1-of-4 node
(``domino_gadgets``): exactly one of its ports is high, the neighbour its domino covers.  Every
pair of neighbouring squares becomes a wire that makes both squares' ports agree, so a
solution is a perfect matching of the board's grid graph, i.e. a domino tiling, and each
tiling has exactly one solution (every gadget completes in one way: the reduction is
*parsimonious*).  So a full board's solution count is its tiling count (Kasteleyn), a board
with more squares of one colour than of the other (the mutilated board) has no solution,
and a region with one tiling gives a unique puzzle.

Layout: wires are diagonal staircases, so square ``(i, j)`` is placed at ``j*EAST - i*NORTH``
on a skewed diagonal lattice (squares with ``i + j`` odd, the down nodes, moved by
``DOWN_OFFSET``).  The vectors are the solution of the four wire equations (one per side:
the ends must lie on a diagonal in the side's direction); ``build`` checks that the runs of
the finished grid are exactly the runs the gadgets promise, so a layout bug is an error, not
a different puzzle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import KakuroError
from ..model import BLOCK, WHITE, Cell, Clue, ClueCell, Direction, Puzzle, Solution, Square
from .domino_gadgets import Node, PlacedRun, node, wire

Board = frozenset[Cell]
Domino = tuple[Cell, Cell]
Tiling = frozenset[Domino]

STEPS: Mapping[str, Cell] = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

EAST_WIRE = 3
"""Diagonal steps of the wire from an across node east to its down neighbour (the west
wire then has 2, the north wire ``NORTH_WIRE`` and the south one a step less)."""
NORTH_WIRE = 3
EAST = (EAST_WIRE + 2, EAST_WIRE + 2)
NORTH = (-(NORTH_WIRE + 3), NORTH_WIRE + 2)
DOWN_OFFSET = (-1, 2)


def is_across(square: Cell) -> bool:
    """Squares of one colour (``i + j`` even) are across nodes, the others down nodes."""
    return (square[0] + square[1]) % 2 == 0


def origin(square: Cell) -> Cell:
    i, j = square
    r = j * EAST[0] - i * NORTH[0]
    c = j * EAST[1] - i * NORTH[1]
    if not is_across(square):
        r, c = r + DOWN_OFFSET[0], c + DOWN_OFFSET[1]
    return (r, c)


@dataclass(frozen=True)
class Edge:
    """Two neighbouring squares and the ports that say whether a domino covers both."""

    across: Cell
    down: Cell
    across_port: Cell
    across_low: int
    down_port: Cell
    down_low: int

    @property
    def domino(self) -> Domino:
        a, b = sorted((self.across, self.down))
        return (a, b)


@dataclass(frozen=True)
class DominoPuzzle:
    """A board, its Kakuro and the edges to read a tiling back from a solution."""

    board: Board
    puzzle: Puzzle
    edges: tuple[Edge, ...]

    def tiling(self, solution: Solution) -> Tiling:
        """The tiling a solution stands for: the edges whose ports are high (both ends agree,
        as the wire forces; a solution where they do not is not this puzzle's)."""
        chosen = []
        for edge in self.edges:
            high = solution.values[edge.across_port] == edge.across_low + 1
            if high != (solution.values[edge.down_port] == edge.down_low + 1):
                raise KakuroError(f"the ports of {edge.domino} disagree: not a solution")
            if high:
                chosen.append(edge.domino)
        return frozenset(chosen)


def full_board(rows: int, cols: int | None = None) -> Board:
    return frozenset((i, j) for i in range(rows) for j in range(cols or rows))


def mutilated_board(n: int) -> Board:
    """The n x n board without two opposite corners: both of one colour, so no tiling."""
    return full_board(n) - {(0, 0), (n - 1, n - 1)}


def board_text(board: Board) -> str:
    """One line per row, ``#`` a square of the board and ``.`` a hole (for ``meta``)."""
    rows = range(min(i for i, _ in board), max(i for i, _ in board) + 1)
    cols = range(min(j for _, j in board), max(j for _, j in board) + 1)
    return "/".join("".join("#" if (i, j) in board else "." for j in cols) for i in rows)


def parse_board(text: str) -> Board:
    """The board ``board_text`` wrote (rows split by ``/``, ``#`` a square)."""
    squares = frozenset(
        (i, j) for i, row in enumerate(text.split("/")) for j, ch in enumerate(row) if ch == "#"
    )
    if not squares or set(text) - set("#./"):
        raise KakuroError(f"not a board: {text[:40]!r} (rows of '#' and '.', split by '/')")
    return squares


def of_puzzle(puzzle: Puzzle) -> DominoPuzzle:
    """The reduction a puzzle came from, rebuilt from the board in its ``board`` header line
    (as ``hard`` writes it) and checked to give the same grid, so its solutions decode."""
    text = puzzle.meta.get("board")
    if not isinstance(text, str):
        raise KakuroError(f"puzzle {puzzle.id} has no board line: not a domino puzzle")
    made = build(parse_board(text), puzzle.id, puzzle.meta)
    if made.puzzle.grid != puzzle.grid:
        raise KakuroError(f"puzzle {puzzle.id} is not the Kakuro of its board line")
    return made


def count_tilings(board: Iterable[Cell]) -> int:
    """The number of domino tilings, by dynamic programming over the squares in reading
    order with a bit per column saying whether the square there is already covered from the
    row above or from the left (a broken profile): the ground truth, computed without Kakuro."""
    squares = frozenset(board)
    if not squares:
        return 1
    rows = range(min(i for i, _ in squares), max(i for i, _ in squares) + 1)
    cols = range(min(j for _, j in squares), max(j for _, j in squares) + 1)
    states = {0: 1}
    for i in rows:
        for k, j in enumerate(cols):
            bit = 1 << k
            after: dict[int, int] = {}
            for mask, ways in states.items():
                if (i, j) not in squares:
                    nexts = [] if mask & bit else [mask]
                elif mask & bit:
                    nexts = [mask & ~bit]
                else:
                    nexts = []
                    if (i + 1, j) in squares:
                        nexts.append(mask | bit)
                    if (i, j + 1) in squares and not mask & (bit << 1):
                        nexts.append(mask | (bit << 1))
                for new in nexts:
                    after[new] = after.get(new, 0) + ways
            states = after
    return states.get(0, 0)


def build(board: Iterable[Cell], pid: str, meta: Mapping[str, object] | None = None
          ) -> DominoPuzzle:
    """The Kakuro of a board (any set of squares): one node per square, one wire per pair of
    neighbours; the grid is shifted so that every clue cell fits."""
    squares = frozenset(board)
    if not squares:
        raise KakuroError("the board has no squares")
    nodes: dict[Cell, Node] = {}
    for square in sorted(squares):
        present = {
            side for side, (di, dj) in STEPS.items()
            if (square[0] + di, square[1] + dj) in squares
        }
        nodes[square] = node(is_across(square), present, origin(square))
    runs: list[PlacedRun] = [run for n in nodes.values() for run in n.runs]
    edges = []
    for square in sorted(squares):
        if not is_across(square):
            continue
        for side, (di, dj) in STEPS.items():
            other = (square[0] + di, square[1] + dj)
            if other not in squares:
                continue
            a, b = nodes[square].port(side), nodes[other].port(OPPOSITE[side])
            assert a.end is not None and b.end is not None
            runs.extend(wire(a.end, b.end))
            edges.append(Edge(square, other, a.cell, a.low, b.cell, b.low))
    puzzle, (sr, sc) = _grid(runs, pid, meta or {})
    moved = tuple(
        Edge(e.across, e.down, (e.across_port[0] + sr, e.across_port[1] + sc), e.across_low,
             (e.down_port[0] + sr, e.down_port[1] + sc), e.down_low)
        for e in edges
    )
    return DominoPuzzle(squares, puzzle, moved)


def _grid(
    runs: list[PlacedRun], pid: str, meta: Mapping[str, object]
) -> tuple[Puzzle, Cell]:
    """The puzzle holding exactly ``runs``: white cells, a clue cell in front of each run,
    blocks elsewhere, shifted so the top-left clue cell is at (0, 0); and the shift."""
    whites = {cell for run in runs for cell in run.cells}
    top = min(r for r, _ in whites) - 1
    left = min(c for _, c in whites) - 1
    shift = (-top, -left)
    runs = [run.moved(shift) for run in runs]
    whites = {cell for run in runs for cell in run.cells}
    nrows = max(r for r, _ in whites) + 1
    ncols = max(c for _, c in whites) + 1
    promised = {(run.direction, run.cells): run.clue for run in runs}
    if len(promised) != len(runs):
        raise KakuroError("domino layout: two gadgets place the same run")
    heads: dict[Cell, dict[Direction, Clue]] = {}
    for run in runs:
        dr, dc = run.direction.step
        front = (run.cells[0][0] - dr, run.cells[0][1] - dc)
        heads.setdefault(front, {})[run.direction] = Clue(run.clue)
    grid: list[tuple[Square, ...]] = []
    for r in range(nrows):
        row: list[Square] = []
        for c in range(ncols):
            if (r, c) in whites:
                row.append(WHITE)
            elif (r, c) in heads:
                head = heads[(r, c)]
                row.append(ClueCell(down=head.get(Direction.DOWN),
                                    across=head.get(Direction.ACROSS)))
            else:
                row.append(BLOCK)
        grid.append(tuple(row))
    puzzle = Puzzle(pid, tuple(grid), dict(meta))
    actual = {(run.direction, run.cells) for run in puzzle.runs}
    if actual != set(promised):
        stray = sorted(actual ^ set(promised))[:3]
        raise KakuroError(f"domino layout: the grid's runs are not the gadgets' runs: {stray}")
    return puzzle, shift
