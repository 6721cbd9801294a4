"""Drawing layouts at random: scattered blocks (``random_layout``) or the published look
(``published_layout``: dense, blocks spread out, few two-cell runs, half-turn symmetric),
each settled by adding blocks only until every run has 2..``max_run`` cells, so a draw
always ends."""

from __future__ import annotations

import random

from ..combos import MAX_RUN
from ..errors import KakuroError
from ..model import Cell
from ..shape import pattern_stats, pieces
from .layout import STEPS, Layout, mirror, problems, segments


def random_layout(
    nrows: int,
    ncols: int,
    rng: random.Random,
    *,
    block_rate: float = 0.3,
    max_run: int = MAX_RUN,
    max_square: int = 3,
    min_fill: float = 0.45,
    symmetric: bool = False,
    attempts: int = 200,
    full_frame: bool = False,
) -> Layout:
    """A random valid layout; raises KakuroError when ``attempts`` draws all fail.

    Blocks are scattered at ``block_rate`` (in mirror pairs when ``symmetric``), then runs
    that are too long are cut, fully white ``max_square`` x ``max_square`` squares (dense areas
    where sums rarely pin the digits) broken, and single cells blocked until every run has
    2..``max_run`` cells; only the largest connected network survives.  ``min_fill`` rejects
    sparse results, and ``full_frame`` layouts that leave a row or column without white cells.
    """
    interior = _interior(nrows, ncols)
    for _ in range(attempts):
        white = set(interior)
        order = interior[:]
        rng.shuffle(order)
        for cell in order:
            if symmetric and mirror(cell, nrows, ncols) < cell:
                continue
            if rng.random() < block_rate and _safe(white, cell, nrows, ncols, symmetric):
                _block(white, cell, nrows, ncols, symmetric)
        layout = _settled(white, nrows, ncols, rng, max_run, max_square, symmetric, full_frame)
        if layout is not None and layout.fill_ratio >= min_fill:
            return layout
    raise KakuroError(
        f"no valid {nrows}x{ncols} layout in {attempts} attempts "
        f"(max run {max_run}, min fill {min_fill}); try another seed or size"
    )


def _interior(nrows: int, ncols: int) -> list[Cell]:
    """The cells a draw may make white (all but the clue row and column), row by row; a
    grid smaller than 3x3 is refused (one white run needs two cells and a clue cell)."""
    if nrows < 3 or ncols < 3:
        raise KakuroError(f"a {nrows}x{ncols} grid is too small (at least 3x3)")
    return [(r, c) for r in range(1, nrows) for c in range(1, ncols)]


def _settled(
    white: set[Cell],
    nrows: int,
    ncols: int,
    rng: random.Random,
    max_run: int,
    max_square: int,
    symmetric: bool,
    full_frame: bool,
) -> Layout | None:
    """The end of every layout draw: settle the runs (``_settle``), keep the largest white
    network, and the layout if it is still symmetric (when asked) and breaks no rule."""
    _settle(white, nrows, ncols, rng, max_run, max_square, symmetric)
    if not white:
        return None
    kept = _largest_component(white)
    if symmetric and any(mirror(c, nrows, ncols) not in kept for c in kept):
        return None
    layout = Layout(nrows, ncols, frozenset(kept), full_frame)
    return None if problems(layout, max_run=max_run) else layout


def _safe(white: set[Cell], cell: Cell, nrows: int, ncols: int, symmetric: bool) -> bool:
    """Whether blocking ``cell`` (and its mirror) leaves no white line of a single cell."""
    cells = (cell, mirror(cell, nrows, ncols)) if symmetric else (cell,)

    def after(x: Cell) -> bool:  # white once ``cells`` are blocked (no copy of ``white``:
        return x in white and x not in cells  # that made layouts quadratic in the cells)

    for r, c in cells:
        for dr, dc in STEPS:
            nb = (r + dr, c + dc)
            # a white neighbour with no white beyond it would be left alone in its line
            if (
                after(nb)
                and not after((nb[0] + dr, nb[1] + dc))
                and not after((nb[0] - dr, nb[1] - dc))
            ):
                return False
    return True


def _block(white: set[Cell], cell: Cell, nrows: int, ncols: int, symmetric: bool) -> None:
    white.discard(cell)
    if symmetric:
        white.discard(mirror(cell, nrows, ncols))


def _settle(
    white: set[Cell],
    nrows: int,
    ncols: int,
    rng: random.Random,
    max_run: int,
    max_square: int,
    symmetric: bool,
) -> None:
    """Add blocks until every line of white cells has 2..max_run cells and no white square
    of side ``max_square`` remains."""
    changed = True
    while changed:
        changed = False
        if max_square:
            for r in range(1, nrows - max_square + 1):
                for c in range(1, ncols - max_square + 1):
                    square = [(r + i, c + j) for i in range(max_square) for j in range(max_square)]
                    if all(cell in white for cell in square):
                        safe = [x for x in square if _safe(white, x, nrows, ncols, symmetric)]
                        _block(white, rng.choice(safe or square), nrows, ncols, symmetric)
                        changed = True
        for _, cells in segments(white, nrows, ncols):
            if not all(c in white for c in cells):
                continue  # an earlier fix in this pass already cut it
            if len(cells) == 1:
                _block(white, cells[0], nrows, ncols, symmetric)
                changed = True
            elif len(cells) > max_run:
                # Cut so that both pieces keep at least two cells.
                cuts = list(range(2, len(cells) - 2))
                fine = [i for i in cuts if _safe(white, cells[i], nrows, ncols, symmetric)]
                cut = rng.choice(fine or cuts or [0])
                _block(white, cells[cut], nrows, ncols, symmetric)
                changed = True


def _largest_component(white: set[Cell]) -> set[Cell]:
    """The largest white network (ties: the one holding the smallest cell)."""
    return max(pieces(sorted(white)), key=len)  # pieces come in order of their least cell


def published_layout(
    nrows: int,
    ncols: int,
    rng: random.Random,
    *,
    white_share: float = 0.72,
    max_run: int = MAX_RUN,
    max_square: int = 4,
    max_black: int = 4,
    max_two_cell: float = 0.36,
    symmetric: bool = True,
    attempts: int = 200,
    full_frame: bool = False,
) -> Layout:
    """A dense layout with a published look; raises KakuroError when ``attempts`` draws fail.

    Published puzzles keep about three quarters of the interior white, scatter their blocks
    (no black area larger than a few cells) and are almost always half-turn symmetric.  So
    blocks go in one at a time (in mirror pairs when ``symmetric``), each on a white cell
    whose across and down lines are long and that does not touch a black area already at
    ``max_black`` cells, never leaving a white line of one cell, until the share of white
    cells reaches ``white_share``; then runs longer than ``max_run`` are cut and fully white
    ``max_square`` squares broken (``_settle``).  Draws whose largest black area exceeds
    twice ``max_black``, or with more than ``max_two_cell`` of their runs two cells long,
    are drawn again (a draw costs milliseconds).
    """
    interior = _interior(nrows, ncols)
    area = len(interior)

    for attempt in range(attempts):
        white = set(interior)
        for _ in range(4 * area):
            if len(white) <= white_share * area:
                break
            cell = _scatter_pick(white, interior, rng, nrows, ncols, max_black, symmetric)
            if cell is not None:
                _block(white, cell, nrows, ncols, symmetric)
        layout = _settled(white, nrows, ncols, rng, max_run, max_square, symmetric, full_frame)
        if layout is None:
            continue
        stats = pattern_stats(nrows, ncols, layout.whites)
        # half the draws must meet the two-cell share, the rest get some slack (short maximum
        # runs cut long lines into more two-cell runs) and the last quarter none (tiny grids)
        slack = 0.0 if attempt < attempts // 2 else 0.06 if attempt < 3 * attempts // 4 else 1.0
        if stats.largest_black > 2 * max_black or stats.two_cell_share > max_two_cell + slack:
            continue
        return layout
    raise KakuroError(
        f"no valid {nrows}x{ncols} layout in {attempts} attempts "
        f"(max run {max_run}, white share {white_share}); try another seed or size"
    )


def _scatter_pick(
    white: set[Cell],
    interior: list[Cell],
    rng: random.Random,
    nrows: int,
    ncols: int,
    max_black: int,
    symmetric: bool,
    tries: int = 12,
) -> Cell | None:
    """The best of a few random white cells that can be blocked: long lines through it,
    few black neighbours, no two-cell run left beside it."""
    best: tuple[float, Cell] | None = None
    for _ in range(tries):
        cell = interior[rng.randrange(len(interior))]
        if cell not in white or not _safe(white, cell, nrows, ncols, symmetric):
            continue
        r, c = cell
        across = _line(white, cell, 0, 1)
        down = _line(white, cell, 1, 0)
        dark = sum(
            1
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
            if nb not in white and 0 < nb[0] < nrows and 0 < nb[1] < ncols
        )
        if dark and _black_area(white, cell, nrows, ncols, max_black + 1) > max_black:
            continue
        # a block two cells from another leaves a two-cell run between them: published
        # puzzles have fewer of those than a random scatter gives
        pairs = sum(_reach(white, cell, dr, dc) == 2 for dr, dc in STEPS)
        score = across + down - 3.0 * dark - 2.0 * pairs + rng.random()
        if best is None or score > best[0]:
            best = (score, cell)
    return None if best is None else best[1]


def _reach(white: set[Cell], cell: Cell, dr: int, dc: int) -> int:
    """White cells from ``cell`` (excluded) in one direction up to the first non-white one."""
    n = 0
    r, c = cell[0] + dr, cell[1] + dc
    while (r, c) in white:
        n += 1
        r, c = r + dr, c + dc
    return n


def _line(white: set[Cell], cell: Cell, dr: int, dc: int) -> int:
    """Cells of the white line through ``cell`` along (dr, dc) (the cell included)."""
    return 1 + _reach(white, cell, dr, dc) + _reach(white, cell, -dr, -dc)


def _black_area(white: set[Cell], cell: Cell, nrows: int, ncols: int, cap: int) -> int:
    """Interior black cells 4-connected to ``cell`` were it blocked (counting stops at cap)."""
    seen = {cell}
    todo = [cell]
    while todo and len(seen) <= cap:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb not in seen and nb not in white and 0 < nb[0] < nrows and 0 < nb[1] < ncols:
                seen.add(nb)
                todo.append(nb)
    return len(seen)
