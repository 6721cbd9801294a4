"""Fair play: a competitive puzzle is recognised in any dress, and a finish no human could
make is flagged.

*The copy rule.*  A puzzle of a competitive mode (Arena, Battle: one per game; the Master
Calendar: one per date, the same for everyone) is *live* while anyone may still play it for a
score: an Arena or Battle until its game is over, a calendar day while the date is in the
calendar's archive (:data:`~kakurolab.game.calendar.ARCHIVE_DAYS`).  A game on a pasted
(or restarted) grid that is a live puzzle would end with its solution on show (a one-second
sprint does), so the service refuses to create it (:class:`LivePuzzleError`).  "The same
puzzle" means the same white cells and clues up to any of the 16 variants the bank uses
(:mod:`kakurolab.generator.transforms`: 8 symmetries times the digit complement) and any
translation (a format round trip may pad or crop the block frame): :func:`fingerprint` is a
hash of the layout and clues, minimised over the 16 variants, computed once per competitive
puzzle and kept in the store.

*The human floor.*  Placing a digit takes a human at least a moment: finding the cell,
reading its two clues, pressing the key.  A competitive finish faster than
:data:`HUMAN_FLOOR_S_PER_CELL` seconds per white cell (per cell the player placed, in a
Battle) is *flagged* (:func:`implausible`) in the results and the standings: it is not
disqualified (the engine cannot prove a copy), it is marked for whoever runs the server.
"""

from __future__ import annotations

import hashlib

from ..errors import KakuroError
from ..model import Puzzle

HUMAN_FLOOR_S_PER_CELL = 1.0
"""Seconds per white cell below which a competitive finish is flagged.  One second per cell
is well under any recorded human pace (a fast solver needs several seconds per cell on an
expert 8x8) and above what a script that knows the solution needs (milliseconds)."""


def layout_key(puzzle: Puzzle) -> str:
    """The puzzle's white cells and clues as text, moved so the whites start at (1, 1): the
    same for any grid that differs only by its frame of blocks."""
    whites = sorted(puzzle.whites)
    if not whites:
        return f"empty:{puzzle.nrows}x{puzzle.ncols}"
    top = min(r for r, _ in whites) - 1
    left = min(c for _, c in whites) - 1
    cells = ";".join(f"{r - top},{c - left}" for r, c in whites)
    runs = sorted(
        f"{run.direction.value[0]}{run.cells[0][0] - top},{run.cells[0][1] - left}"
        f"+{len(run.cells)}={run.clue.value if run.clue else '?'}"
        for run in puzzle.runs
    )
    return cells + "|" + ";".join(runs)


def fingerprint(puzzle: Puzzle) -> str:
    """A hash equal for every variant of one puzzle (symmetry, digit complement, frame)."""
    from ..bank import VARIANTS  # the bank's 16 variants (loaded when first needed)
    from ..generator import transform_puzzle

    keys = {layout_key(puzzle)}
    for transform in VARIANTS:
        if transform.complement and puzzle.is_cryptic:
            continue
        try:
            keys.add(layout_key(transform_puzzle(puzzle, transform)))
        except KakuroError:  # a grid the transforms cannot turn is no generated puzzle
            break
    return hashlib.sha256(min(keys).encode("utf-8")).hexdigest()


def human_floor_s(cells: int) -> float:
    """The fastest plausible human time for ``cells`` placed digits."""
    return HUMAN_FLOOR_S_PER_CELL * cells


def implausible(time_s: float | None, cells: int) -> bool:
    """Whether a finish in ``time_s`` seconds over ``cells`` placed digits is under the floor."""
    return time_s is not None and cells > 0 and time_s < human_floor_s(cells)
