"""Small puzzles the tests build by hand, shared so each is written once."""

from __future__ import annotations

from kakurolab.formats import loads
from kakurolab.model import Puzzle, Square


def square(down: tuple[int, int], across: tuple[int, int]) -> Puzzle:
    """A 2x2 white square with the given column (down) and row (across) sums."""
    return loads(f"3 3\n- {down[0]}, {down[1]},\n,{across[0]} 0 0\n,{across[1]} 0 0\n")[0]


def clued_lines(grid: list[list[bool]], fill: dict[tuple[int, int], int]) -> list[str]:
    """The kakuro format's grid lines for a filled layout: ``0`` for a white cell, and each
    black cell clued ``down,across`` with the sums of the fill's runs it starts (``-`` for
    none)."""
    rows, cols = len(grid), len(grid[0])

    def total(r: int, c: int, dr: int, dc: int) -> str:
        found, rr, cc = 0, r + dr, c + dc
        while rr < rows and cc < cols and grid[rr][cc]:
            found += fill[(rr, cc)]
            rr, cc = rr + dr, cc + dc
        return str(found) if found else ""

    lines = []
    for r in range(rows):
        tokens = []
        for c in range(cols):
            down, across = total(r, c, 1, 0), total(r, c, 0, 1)
            tokens.append("0" if grid[r][c] else f"{down},{across}" if down or across else "-")
        lines.append(" ".join(tokens))
    return lines


def pattern_grid(size: int) -> Puzzle:
    """The large grid of issue 29: black on the top row and left column and where
    ``(3r + c) mod 10 == 0`` (then any white cell left in a one-cell run), every other cell
    white with the digit ``(2r + c) mod 9 + 1``, each run clued with the sum of its digits.
    Runs have at most nine cells with distinct digits, so the grid is a valid puzzle with at
    least that solution; ``size`` 100 has 8,780 white cells."""
    from kakurolab.model import BLOCK, WHITE, Clue, ClueCell

    whites = {
        (r, c) for r in range(1, size) for c in range(1, size) if (3 * r + c) % 10 != 0
    }

    def run(cell: tuple[int, int], dr: int, dc: int) -> list[tuple[int, int]]:
        r, c = cell[0] + dr, cell[1] + dc
        cells = []
        while (r, c) in whites:
            cells.append((r, c))
            r, c = r + dr, c + dc
        return cells

    def lonely(cell: tuple[int, int]) -> bool:
        r, c = cell
        return any(
            (r - dr, c - dc) not in whites and (r + dr, c + dc) not in whites
            for dr, dc in ((0, 1), (1, 0))
        )

    while lone := {cell for cell in whites if lonely(cell)}:
        whites -= lone

    def clue(cell: tuple[int, int], dr: int, dc: int) -> Clue | None:
        cells = run(cell, dr, dc)
        return Clue(sum((2 * r + c) % 9 + 1 for r, c in cells)) if cells else None

    def square(r: int, c: int) -> Square:
        if (r, c) in whites:
            return WHITE
        down, across = clue((r, c), 1, 0), clue((r, c), 0, 1)
        return BLOCK if down is None and across is None else ClueCell(down, across)

    grid = tuple(tuple(square(r, c) for c in range(size)) for r in range(size))
    return Puzzle(f"pattern{size}", grid)


def tiled_bank_grid(tiles: int = 3, size: str = "20x20", difficulty: str = "hard") -> tuple[
    Puzzle, dict[tuple[int, int], int]
]:
    """A real unique large puzzle built fast: ``tiles`` x ``tiles`` verified bank bases side
    by side (each sheet's clue row and column end the runs of its neighbours, so the blocks
    stay independent and the whole has one solution); with that solution (cell -> digit).
    Three 20x20 tiles make a 60x60 of 2,222 white cells."""
    from kakurolab import bank

    bases = bank.bases(size, difficulty)
    rows, cols = bases[0].puzzle.shape
    grid: list[tuple[Square, ...]] = []
    solution: dict[tuple[int, int], int] = {}
    for bi in range(tiles):
        picked = [bases[(bi * tiles + bj) % len(bases)] for bj in range(tiles)]
        for r in range(rows):
            grid.append(tuple(sq for base in picked for sq in base.puzzle.grid[r]))
        for bj, base in enumerate(picked):
            for (r, c), digit in base.solution.values.items():
                solution[(bi * rows + r, bj * cols + c)] = digit
    return Puzzle(f"tiled{tiles * rows}", tuple(grid)), solution
