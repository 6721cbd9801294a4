"""Uniqueness arguments: swap rectangles.

Four white cells at the corners of a rectangle, a and b in one across run, c and d in another,
a and c in one down run, b and d in another.  If a solution had a = d = x and b = c = y, then
exchanging x and y in the four cells changes no run's digit set, so it would be a second
solution.  Likewise a = x + k, b = y - k, c = z - k, d = w + k keeps every sum; it is a second
solution when the shifted digits are free in all four runs (their other cells written).  A
puzzle with one solution (as published puzzles are) cannot hold such a pattern, so a candidate
that would force one goes.  These steps are flagged: they rest on the puzzle being unique.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from .. import deadline as deadlines
from ..combos import bit, digits_of
from ..model import Cell, Direction, Puzzle, Run
from .candidates import State, cell_name
from .techniques import Finding

MAX_TUPLES = 6561
"""Corner fillings enumerated at most (9^4: every rectangle)."""


@dataclass(frozen=True, eq=False)
class Rectangle:
    """Corners a, b (one across run), c, d (another); a, c and b, d share down runs."""

    corners: tuple[Cell, Cell, Cell, Cell]
    runs: tuple[Run, Run, Run, Run]
    watch: tuple[Cell, ...]


def rectangles_of(puzzle: Puzzle) -> tuple[Rectangle, ...]:
    """Every rectangle of four white cells whose sides lie in four runs."""
    found = []
    across_of: dict[Cell, Run] = {}
    down_of: dict[Cell, Run] = {}
    for run in puzzle.runs:
        table = across_of if run.direction is Direction.ACROSS else down_of
        for cell in run.cells:
            table[cell] = run
    for top in (r for r in puzzle.runs if r.direction is Direction.ACROSS):
        deadlines.check()  # a 100x100 grid has some 50,000 rectangles: building them is long
        for i, a in enumerate(top.cells):
            for b in top.cells[i + 1 :]:
                left, right = down_of.get(a), down_of.get(b)
                if left is None or right is None:
                    continue
                for c in left.cells:
                    if c[0] <= a[0]:
                        continue
                    d = (c[0], b[1])
                    bottom = across_of.get(c)
                    if (
                        bottom is None
                        or down_of.get(d) is not right
                        or across_of.get(d) is not bottom
                    ):
                        continue
                    runs = (top, bottom, left, right)
                    watch = tuple(sorted({x for run in runs for x in run.cells}))
                    found.append(Rectangle((a, b, c, d), runs, watch))
    return tuple(found)


def swap_rectangle(state: State, rect: Rectangle) -> Finding | None:
    """Remove candidates of the corners that would only allow an exchangeable pattern."""
    cands = state.cands
    masks = [cands[x] for x in rect.corners]
    if all(x in state.placed for x in rect.corners) or any(
        x in state.puzzle.shown_letters for x in rect.corners
    ):
        return None  # nothing open, or a corner tied to a letter (its digit cannot move)
    size = 1
    for m in masks:
        size *= m.bit_count()
    if size > MAX_TUPLES:
        return None
    # Digits written elsewhere in each run (None when a cell there is still open: then only
    # the digit-set-preserving exchange is sure to stay valid).
    written = [_others(state, run, rect.corners) for run in rect.runs]
    if None in written and min(m.bit_count() for m in masks) >= 3:
        # Only the exchange a = d, b = c is swappable, and every digit v of a corner has a
        # filling that is no exchange: a neighbour != v, the other neighbour outside both, the
        # opposite corner outside the neighbours' two digits.  Nothing goes; skip the 9^4
        # enumeration (it made a hint on a 60x60 grid spend 25 of 40 s here).
        return None
    kept, swappable_only = _corner_digits(masks, written)
    removed = {}
    for k, cell in enumerate(rect.corners):
        gone = swappable_only[k] & ~kept[k]
        if gone and cell not in state.placed:
            removed[cell] = gone
    if not removed:
        return None
    names = ", ".join(cell_name(x) for x in rect.corners)
    detail = "; ".join(
        f"{cell_name(cell)} were {digit_words_list(m)}" for cell, m in removed.items()
    )
    return Finding(
        rect.corners,
        f"uniqueness (swap rectangle {names}): if {detail}, the four corners could only "
        "take digits that can be exchanged around the rectangle without changing any run's "
        "sum or repeating a digit, which would give a second solution; the puzzle has one",
        eliminations=removed,
        evidence={x: 0x1FF & ~cands[x] for x in rect.corners},
    )


def _corner_digits(
    masks: list[int], written: list[int | None]
) -> tuple[list[int], list[int]]:
    """Per corner, the digits some non-exchangeable filling uses, and those some
    exchangeable filling uses (fillings that break no rule among the corners)."""
    kept = [0, 0, 0, 0]
    swappable_only = [0, 0, 0, 0]
    for t in product(*(digits_of(m) for m in masks)):
        xa, xb, xc, xd = t
        if _clash(xa, xb, xc, xd):
            continue
        target = swappable_only if _swappable(t, written) else kept
        for k in range(4):
            target[k] |= bit(t[k])
    return kept, swappable_only


def digit_words_list(mask: int) -> str:
    digits = [str(d) for d in digits_of(mask)]
    return digits[0] if len(digits) == 1 else ", ".join(digits[:-1]) + " or " + digits[-1]


def _others(state: State, run: Run, corners: tuple[Cell, ...]) -> int | None:
    used = 0
    for cell in run.cells:
        if cell in corners:
            continue
        if cell not in state.placed:
            return None
        used |= bit(state.placed[cell])
    return used


def _swappable(t: tuple[int, ...], written: list[int | None]) -> bool:
    """Whether corner digits (a, b, c, d) have a sibling filling that keeps every run valid."""
    xa, xb, xc, xd = t
    if xa == xd and xb == xc:
        return True  # exchange x and y: every run keeps its digit set
    walls = [w for w in written if w is not None]
    if len(walls) < 4:
        return False
    top, bottom, left, right = walls
    for k in range(-8, 9):
        if not k:
            continue
        na, nb, nc, nd = xa + k, xb - k, xc - k, xd + k
        if not all(1 <= v <= 9 for v in (na, nb, nc, nd)):
            continue
        if _clash(na, nb, nc, nd):
            continue
        if (bit(na) | bit(nb)) & top or (bit(nc) | bit(nd)) & bottom:
            continue
        if (bit(na) | bit(nc)) & left or (bit(nb) | bit(nd)) & right:
            continue
        return True
    return False


def _clash(a: int, b: int, c: int, d: int) -> bool:
    """Two corners that share a run hold the same digit."""
    return a in (b, c) or d in (b, c)
