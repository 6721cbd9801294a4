"""Layouts: which cells of a grid are white.

A layout is valid for Kakuro when every white cell lies in one across and one down run of
2-9 cells, the first row and column hold no white cell (clue cells sit left of and above
their runs), and the white cells form one connected network.  Layouts are drawn at random
(``draw``) and changed by the generator's repairs (``block_cascade``) and whitening
(``whitened``), each change checked around the cells it touched.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cached_property

from ..combos import MAX_RUN
from ..model import Cell, Direction, Puzzle, White
from ..shape import largest_black_region, pieces

Segment = tuple[Cell, ...]

STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
"""The four neighbours of a cell, as row and column steps."""


@dataclass(frozen=True)
class Layout:
    """A grid shape and its white cells (row 0 and column 0 stay non-white).

    ``full_frame`` asks that every row and column of the grid be used: each interior row and
    column holds a white cell, so row 0 and column 0 hold clues and no line of the grid is
    all blocks (a 5x5 request must not come back as a 4x4 puzzle padded with blocks).  The
    rule travels with the layout, so every repair that blocks cells keeps it.
    """

    nrows: int
    ncols: int
    whites: frozenset[Cell]
    full_frame: bool = False

    def blocked_with(self, whites: frozenset[Cell]) -> Layout:
        """The same grid and rules with fewer white cells; its :attr:`runs` are found
        around the blocked cells, as :meth:`grown`'s are (a blocking repair tries a few
        hundred candidates per 60x60 generation, and walking the whole grid for each was a
        twentieth of its time)."""
        smaller = Layout(self.nrows, self.ncols, whites, self.full_frame)
        smaller.__dict__["_derived_from"] = (self, self.whites - whites)
        return smaller

    def grown(self, shape: Iterable[Cell]) -> Layout:
        """The same grid and rules with the ``shape`` cells white too; its :attr:`runs`,
        once asked for, are found around the shape (every other run is this layout's, in
        the same order): whitening tries thousands of shapes, and walking a 60x60 grid for
        each was a seventh of its time.  Most tries fail before anything asks for them
        (:meth:`lines_of` answers without), so they are not found up front (generator 3.5;
        the same runs)."""
        shape = frozenset(shape)
        grown = Layout(self.nrows, self.ncols, self.whites | shape, self.full_frame)
        grown.__dict__["_derived_from"] = (self, shape)
        return grown

    def _derived_runs(
        self, parent: Layout, changed: frozenset[Cell]
    ) -> list[tuple[Direction, Segment]]:
        """:attr:`runs` of a layout that differs from ``parent`` in the ``changed`` cells
        only: the parent's runs that hold or touch a changed cell give way to the lines
        through the changed cells and their neighbours (:meth:`changed_lines`)."""
        fresh = self.changed_lines(changed)
        before, runs_of = parent.whites, parent.runs_of
        replaced = {runs_of[cell][side] for cell in changed if cell in before for side in (0, 1)}
        replaced.update(
            runs_of[old][0 if direction is Direction.ACROSS else 1]
            for (direction, _), cells in fresh.items()
            for old in cells
            if old in before
        )
        runs = [run for i, run in enumerate(parent.runs) if i not in replaced]
        runs += [(direction, cells) for (direction, _), cells in fresh.items()]
        runs.sort(key=lambda run: (run[0] is not Direction.ACROSS, run[1][0]))
        return runs

    def changed_lines(self, changed: Iterable[Cell]) -> dict[tuple[Direction, Cell], Segment]:
        """This layout's lines, by direction and first cell, through the ``changed`` cells
        and their neighbours along each direction: every run of this layout that a layout
        differing from it in those cells only does not have (the runs a blocking cut or a
        whitening joined)."""
        whites = self.whites
        found: dict[tuple[Direction, Cell], Segment] = {}
        for cell in sorted(changed):
            r, c = cell
            for direction in (Direction.ACROSS, Direction.DOWN):
                dr, dc = direction.step
                for seed in (cell, (r - dr, c - dc), (r + dr, c + dc)):
                    if seed in whites:
                        cells = line_through(whites, seed, direction.step)
                        found.setdefault((direction, cells[0]), cells)
        return found

    @cached_property
    def runs(self) -> tuple[tuple[Direction, Segment], ...]:
        """Maximal lines of white cells, across first, in reading order."""
        derived_from = self.__dict__.pop("_derived_from", None)  # not kept: the parent
        if derived_from is not None:
            return tuple(self._derived_runs(*derived_from))
        return tuple(segments(self.whites, self.nrows, self.ncols))

    def lines_of(self, cell: Cell) -> tuple[Segment, Segment]:
        """The cells of the across and the down run through a white ``cell``: from
        :attr:`runs_of` when the layout knows it, else walked from the cell (a whitening
        try looks at the runs near its shape only, and most tries end there)."""
        runs_of = self.__dict__.get("runs_of")
        if runs_of is not None:
            a, d = runs_of[cell]
            return self.runs[a][1], self.runs[d][1]
        whites = self.whites
        return line_through(whites, cell, (0, 1)), line_through(whites, cell, (1, 0))

    @cached_property
    def runs_of(self) -> dict[Cell, tuple[int, ...]]:
        """Indexes into :attr:`runs` of the runs through each white cell: its across run,
        then its down run (every white cell lies in one of each, one-cell lines included,
        and across runs come first).  Filled one run at a time by ``dict.update``: whitening
        asks this of thousands of grown 60x60 layouts, and a loop over every cell of every
        run was a tenth of a generation."""
        across: dict[Cell, int] = {}
        down: dict[Cell, int] = {}
        for i, (direction, cells) in enumerate(self.runs):
            (across if direction is Direction.ACROSS else down).update(dict.fromkeys(cells, i))
        return {cell: (across[cell], down[cell]) for cell in self.whites}

    def fine(self, max_run: int = MAX_RUN) -> bool:
        """Whether :func:`problems` finds nothing, remembered per ``max_run``: the local
        checks of :func:`block_cascade` start from a layout known to be fine."""
        known = self._fine
        if max_run not in known:
            known[max_run] = not problems(self, max_run=max_run)
        return known[max_run]

    @cached_property
    def _fine(self) -> dict[int, bool]:
        return {}

    @cached_property
    def bounds(self) -> tuple[int, int, int, int]:
        """The white cells' first and last row, first and last column."""
        rows = [r for r, _ in self.whites]
        cols = [c for _, c in self.whites]
        return min(rows), max(rows), min(cols), max(cols)

    @cached_property
    def largest_black(self) -> int:
        """The largest 4-connected black area of the interior (``shape``)."""
        return largest_black_region(self.nrows, self.ncols, self.whites)

    @property
    def interior(self) -> int:
        return (self.nrows - 1) * (self.ncols - 1)

    @property
    def fill_ratio(self) -> float:
        """White cells as a share of the cells that could be white."""
        return len(self.whites) / self.interior if self.interior else 0.0

    @classmethod
    def of(cls, puzzle: Puzzle) -> Layout:
        whites = frozenset(c for c in puzzle.cells() if isinstance(puzzle[c], White))
        return cls(puzzle.nrows, puzzle.ncols, whites)


def segments(whites: Iterable[Cell], nrows: int, ncols: int) -> list[tuple[Direction, Segment]]:
    """Every maximal horizontal then vertical line of white cells (length 1 included)."""
    white = set(whites)
    found: list[tuple[Direction, Segment]] = []
    for direction in (Direction.ACROSS, Direction.DOWN):
        dr, dc = direction.step
        for r in range(nrows):
            for c in range(ncols):
                if (r, c) not in white or (r - dr, c - dc) in white:
                    continue
                cells = []
                rr, cc = r, c
                while (rr, cc) in white:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                found.append((direction, tuple(cells)))
    return found


def within(layout: Layout, cells: Iterable[Cell], steps: int) -> set[Cell]:
    """The white cells within ``steps`` run steps of ``cells`` (1: the cells of their runs):
    the regions a stuck fill frees and a whitening's mend re-fills."""
    found = set(cells)
    ring = list(found)
    for _ in range(steps):
        ring = [m for c in ring for line in layout.lines_of(c) for m in line if m not in found]
        found.update(ring)
    return found


def runs_fit(whites: frozenset[Cell], cells: Iterable[Cell], max_run: int) -> bool:
    """Whether every run of ``whites`` through ``cells`` has 2 to ``max_run`` cells, found by
    walking from each cell: a whitening changes only those runs, so most candidates
    :func:`problems` would refuse for a run length are refused without building the whole
    grid's runs."""
    return all(
        2 <= _line_length(whites, cell, dr, dc) <= max_run
        for cell in cells
        for dr, dc in ((0, 1), (1, 0))
    )


def mirror(cell: Cell, nrows: int, ncols: int) -> Cell:
    """The partner of an interior cell under the half-turn of the interior (rows/cols >= 1)."""
    return nrows - cell[0], ncols - cell[1]


def problems(layout: Layout, *, max_run: int = MAX_RUN) -> list[str]:
    """What makes a layout unusable, as sentences (empty when it is fine)."""
    found: list[str] = []
    if not layout.whites:
        return ["no white cells"]
    if any(r == 0 or c == 0 or r >= layout.nrows or c >= layout.ncols for r, c in layout.whites):
        found.append("white cell in the first row/column or outside the grid")
    for _, cells in layout.runs:
        if not 2 <= len(cells) <= max_run:
            found.append(f"run at r{cells[0][0] + 1}c{cells[0][1] + 1} has {len(cells)} cells")
    if not found and not connected(layout.whites):
        found.append("white cells are not connected")
    if not found and closed_rectangles(layout):
        found.append("a white rectangle is closed off (its runs lie wholly inside it)")
    if layout.full_frame:
        found.extend(frame_gaps(layout))
    return found


def frame_gaps(layout: Layout) -> list[str]:
    """Interior rows and columns without a white cell: lines a puzzle leaves blank (row 0
    and column 0 are blank exactly when row 1 or column 1 is)."""
    rows = {r for r, _ in layout.whites}
    cols = {c for _, c in layout.whites}
    gaps = [f"row {r + 1} has no white cell" for r in range(1, layout.nrows) if r not in rows]
    gaps += [f"column {c + 1} has no white cell" for c in range(1, layout.ncols) if c not in cols]
    return gaps


def connected(whites: Iterable[Cell]) -> bool:
    """Whether the white cells form one network (orthogonal adjacency = shared runs)."""
    # A plain flood fill: blocking repairs check a 60x60 layout's connectivity per
    # candidate cell, and building a networkx graph for each was a sixth of a generation.
    return len(pieces(set(whites))) == 1


def closed_rectangles(layout: Layout) -> list[tuple[Cell, Cell]]:
    """White rectangles whose rows and columns are complete runs.

    Such a block of cells is a closed system: its sums never see the rest of the grid, and a
    rectangle that is the whole puzzle (say 2x2 of two-cell runs) tends to admit a swap of
    digits along a cycle.  Inside a connected layout one only exists as the whole puzzle, so
    this is a cheap guard for tiny grids.
    """
    found = []
    across = {cells[0]: cells for d, cells in layout.runs if d is Direction.ACROSS}
    down = {cells[0]: cells for d, cells in layout.runs if d is Direction.DOWN}
    for (r0, c0), row in across.items():
        column = down.get((r0, c0))
        if column is None:
            continue
        r1, c1 = column[-1][0], row[-1][1]
        rows_ok = all(len(across.get((r, c0), ())) == c1 - c0 + 1 for r in range(r0, r1 + 1))
        cols_ok = all(len(down.get((r0, c), ())) == r1 - r0 + 1 for c in range(c0, c1 + 1))
        if rows_ok and cols_ok:
            found.append(((r0, c0), (r1, c1)))
    return found


def without(layout: Layout, cell: Cell, *, max_run: int = MAX_RUN) -> Layout | None:
    """The layout with one more block at ``cell``, or None when that breaks a rule."""
    if cell not in layout.whites:
        return None
    smaller = layout.blocked_with(layout.whites - {cell})
    return None if problems(smaller, max_run=max_run) else smaller


def block_cascade(
    layout: Layout,
    cell: Cell,
    *,
    max_run: int = MAX_RUN,
    limit: int = 4,
    symmetric: bool = False,
) -> tuple[Layout, frozenset[Cell]] | None:
    """Block ``cell`` and then every cell left alone in a line, up to ``limit`` blocks
    (twice that when ``symmetric``: every block is mirrored, so the layout keeps its
    half-turn symmetry).

    Blocking one cell of a two-cell run strands its partner; blocking the partner too is
    often the only way to take a weak spot out of a layout.  None when the result breaks a
    rule or needs more than ``limit`` blocks.
    """
    if cell not in layout.whites:
        return None
    nrows, ncols = layout.nrows, layout.ncols
    todo = ({cell, mirror(cell, nrows, ncols)} if symmetric else {cell}) & layout.whites
    white = set(layout.whites)
    removed: set[Cell] = set()
    cap = 2 * limit if symmetric else limit
    while todo:
        white.difference_update(todo)
        removed.update(todo)
        if len(removed) > cap:
            return None
        # Only lines through a blocked cell's neighbours can have become single cells.
        near = {(r + dr, c + dc) for r, c in todo for dr, dc in STEPS} & white
        todo = {x for x in near if _alone(white, x)}
        if symmetric:
            todo |= {mirror(x, nrows, ncols) for x in todo}
            todo &= white
    smaller = layout.blocked_with(frozenset(white))
    if layout.fine(max_run):
        fine = fine_after_blocking(layout, smaller, removed)
    else:
        fine = not problems(smaller, max_run=max_run)
    return (smaller, frozenset(removed)) if fine else None


def fine_after_blocking(layout: Layout, smaller: Layout, removed: set[Cell]) -> bool:
    """``not problems(smaller)`` for ``smaller``, ``layout`` with the ``removed`` cells
    blocked, when ``layout`` itself has no problems: found around the removed cells, not
    over the whole grid (a blocking repair tries thousands of candidates; at 60x60 the
    whole-grid checks were a tenth of a generation).

    Runs only shorten, and those that changed end next to a removed cell.  The rest stays
    connected exactly when the white neighbours of each piece of removed cells stay linked
    to each other: every remaining cell reaches some removed cell's neighbour, and a path of
    the old layout crosses a piece from one of its neighbours to another, so linked
    neighbours link everything (and are usually linked a few steps away, where a whole-grid
    flood fill walks every cell; the mirror images of a symmetric block lie far apart).
    Inside a connected layout a closed rectangle is the whole layout
    (:func:`closed_rectangles`), and only the removed cells' lines can have lost their last
    white cell."""
    whites = smaller.whites
    if not whites or not all(_cut_fine(whites, cluster) for cluster in pieces(removed)):
        return False
    rows = [r for r, _ in whites]
    cols = [c for _, c in whites]
    if len(whites) == (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1):
        return False  # one white rectangle: closed
    if layout.full_frame:
        nrows, ncols = layout.nrows, layout.ncols
        for r, c in removed:
            if not any((r, k) in whites for k in range(1, ncols)):
                return False
            if not any((k, c) in whites for k in range(1, nrows)):
                return False
    return True


def _cut_fine(whites: frozenset[Cell], cluster: Iterable[Cell]) -> bool:
    """Whether the white neighbours of a piece of new blocks keep runs of two cells or more
    and stay linked to each other."""
    ends = set()
    for r, c in cluster:
        for dr, dc in STEPS:
            end = (r + dr, c + dc)
            if end in whites:
                ends.add(end)
                if _line_length(whites, end, abs(dr), abs(dc)) < 2:
                    return False
    return len(ends) <= 1 or _linked(whites, ends)


def whitened(layout: Layout, shape: frozenset[Cell], max_run: int = MAX_RUN) -> Layout | None:
    """``layout`` with the ``shape`` cells white too, when that is a valid layout (runs
    through the shape 2 to ``max_run`` long, :func:`fine_after_whitening`), else None.  Most
    candidates fail on their run lengths, found without building the grown runs."""
    if not runs_fit(layout.whites | shape, shape, max_run):
        return None
    grown = layout.grown(shape)
    return grown if fine_after_whitening(layout, grown, shape, max_run) else None


def fine_after_whitening(
    layout: Layout, grown: Layout, shape: Iterable[Cell], max_run: int = MAX_RUN
) -> bool:
    """``not problems(grown)`` for ``grown``, ``layout`` with the ``shape`` cells white
    too, whose runs through the shape fit (:func:`runs_fit`): found around the shape when
    ``layout`` itself has no problems.  Runs elsewhere are unchanged; no line loses its
    last white cell; and a piece of the shape that touches an old white cell joins the
    connected network (inside which a closed rectangle is the whole layout).  Otherwise,
    or for a layout not known to be fine, the whole-grid check."""
    shape = frozenset(shape)
    whites = layout.whites
    joined = layout.fine(max_run) and all(
        any((r + dr, c + dc) in whites for r, c in piece for dr, dc in STEPS)
        for piece in pieces(set(shape))
    )
    if joined:
        top, bottom, left, right = layout.bounds
        for r, c in shape:
            top, bottom, left, right = min(top, r), max(bottom, r), min(left, c), max(right, c)
        joined = len(grown.whites) < (bottom - top + 1) * (right - left + 1)
    fine = joined or not problems(grown, max_run=max_run)
    grown._fine[max_run] = fine
    return fine


def line_through(whites: Collection[Cell], cell: Cell, step: Cell) -> Segment:
    """The white line through ``cell`` along ``step`` ((0, 1) across, (1, 0) down), from
    its first cell: a run of the layout with these ``whites``, found without its runs."""
    dr, dc = step
    r, c = cell
    while (r - dr, c - dc) in whites:
        r, c = r - dr, c - dc
    line = []
    while (r, c) in whites:
        line.append((r, c))
        r, c = r + dr, c + dc
    return tuple(line)


def _line_length(whites: frozenset[Cell], cell: Cell, dr: int, dc: int) -> int:
    """Cells of the white line through ``cell`` along the step ``(dr, dc)``."""
    r, c = cell
    length = 1
    for sign in (1, -1):
        rr, cc = r + sign * dr, c + sign * dc
        while (rr, cc) in whites:
            length += 1
            rr, cc = rr + sign * dr, cc + sign * dc
    return length


def _linked(whites: frozenset[Cell], cells: set[Cell]) -> bool:
    """Whether ``cells`` lie in one 4-connected piece of ``whites``: a flood fill from one
    of them that stops once it has met them all (usually a few steps away)."""
    missing = set(cells)
    start = missing.pop()
    seen, todo = {start}, deque([start])
    while todo and missing:
        r, c = todo.popleft()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in whites and nb not in seen:
                seen.add(nb)
                todo.append(nb)
                missing.discard(nb)
    return not missing



def _alone(white: set[Cell], cell: Cell) -> bool:
    """Whether a white cell is alone in its across or its down line."""
    r, c = cell
    across = (r, c - 1) in white or (r, c + 1) in white
    down = (r - 1, c) in white or (r + 1, c) in white
    return not (across and down)


