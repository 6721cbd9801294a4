"""Fair play: a competitive puzzle is recognised in any dress, and a finish no human could
make is flagged.

*The copy rule.*  A puzzle of a competitive mode (Arena, Battle: one per game; the Master
Calendar: one per date, the same for everyone) is *live* while anyone may still play it for a
score: an Arena or Battle until its game is over, a calendar day while the date is in the
calendar's archive (:data:`~kakurolab.game.calendar.ARCHIVE_DAYS`).  A game on a pasted
(or restarted) grid that is a live puzzle would end with its solution on show (a one-second
sprint does), so the service refuses to create it (:class:`LivePuzzleError`), and so it
does for a grid that holds a live puzzle as one of its independent pieces (:func:`pieces`:
the live grid pasted beside another puzzle).  "The same puzzle" means the same white cells
and clues up to any of the 16 variants the bank uses (``bank.VARIANTS``, the public
:class:`~kakurolab.generator.transforms.Transform`: 8 symmetries times the digit complement)
and any translation (a format round trip may pad or crop the block frame): a piece's
fingerprint (:func:`fingerprints`) is a hash of its entries (cells and clue), minimised over
the 16 variants, computed once per competitive puzzle and kept in the store.

*The human floor.*  Placing a digit takes a human at least a moment: finding the cell,
reading its two clues, pressing the key.  A competitive finish faster than
:data:`HUMAN_FLOOR_S_PER_CELL` seconds per white cell (per cell the player placed, in a
Battle) is *flagged* (:func:`implausible`) in the results and the standings: it is not
disqualified (the engine cannot prove a copy), it is marked for whoever runs the server.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from ..model import Cell, Puzzle

if TYPE_CHECKING:
    from ..generator import Transform

HUMAN_FLOOR_S_PER_CELL = 1.0
"""Seconds per white cell below which a competitive finish is flagged.  One second per cell
is well under any recorded human pace (a fast solver needs several seconds per cell on an
expert 8x8) and above what a script that knows the solution needs (milliseconds)."""


Entry = tuple[tuple[Cell, ...], int | None]
"""A clue entry as its cells and its clue: directions and clue cells follow from the cells."""


def pieces(puzzle: Puzzle) -> list[list[Entry]]:
    """The puzzle's independent pieces: its entries grouped by shared cells.  A generated
    puzzle is one piece; a grid pasted beside another puzzle is two, and each is checked."""
    entries: list[Entry] = [
        (tuple(run.cells), run.clue.value if run.clue else None) for run in puzzle.runs
    ]
    parent = list(range(len(entries)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[Cell, int] = {}
    for i, (cells, _) in enumerate(entries):
        for cell in cells:
            j = first.setdefault(cell, i)
            parent[root(i)] = root(j)
    groups: dict[int, list[Entry]] = {}
    for i, entry in enumerate(entries):
        groups.setdefault(root(i), []).append(entry)
    return list(groups.values())


def piece_key(piece: list[Entry], shape: tuple[int, int], variant: Transform) -> str:
    """A piece seen through one of the 16 variants, as text, moved to the origin (a frame of
    blocks added or cut by a format round trip changes nothing)."""
    nrows, ncols = shape
    moved = []
    for cells, clue in piece:
        to = sorted(variant.cell(c, nrows, ncols) for c in cells)
        total = None if clue is None else (10 * len(cells) - clue if variant.complement else clue)
        moved.append((to, total))
    top = min(r for to, _ in moved for r, _ in to)
    left = min(c for to, _ in moved for _, c in to)
    return ";".join(sorted(
        " ".join(f"{r - top},{c - left}" for r, c in to) + f"={total}" for to, total in moved
    ))  # fmt: skip


def white_cells(piece: list[Entry]) -> int:
    return len({c for cells, _ in piece for c in cells})


def piece_fingerprint(piece: list[Entry], shape: tuple[int, int], cryptic: bool = False) -> str:
    """A piece's key minimised over the 16 variants (8 for a cryptic puzzle), SHA-256."""
    from ..bank import VARIANTS  # the bank's 16 variants (loaded when first needed)

    key = min(piece_key(piece, shape, v) for v in VARIANTS if not (v.complement and cryptic))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def fingerprints(puzzle: Puzzle) -> dict[str, int]:
    """Each piece's fingerprint with its white cells: equal for every variant of the piece
    (symmetry, digit complement, frame)."""
    return {
        piece_fingerprint(piece, puzzle.shape, puzzle.is_cryptic): white_cells(piece)
        for piece in pieces(puzzle)
    }


def fingerprint(puzzle: Puzzle) -> str:
    """The puzzle's fingerprint: of its one piece, or of all its pieces together."""
    return hashlib.sha256(" ".join(sorted(fingerprints(puzzle))).encode()).hexdigest()


def human_floor_s(cells: int) -> float:
    """The fastest plausible human time for ``cells`` placed digits."""
    return HUMAN_FLOOR_S_PER_CELL * cells


def implausible(time_s: float | None, cells: int) -> bool:
    """Whether a finish in ``time_s`` seconds over ``cells`` placed digits is under the floor."""
    return time_s is not None and cells > 0 and time_s < human_floor_s(cells)
