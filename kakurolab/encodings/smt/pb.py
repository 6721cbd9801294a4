"""``smt=pb``: one-hot Boolean cells with z3's pseudo-Boolean and cardinality constraints.

Each cell is nine Booleans ``r1c2_d`` (exactly one true, ``PbEq``); a run forbids repeats with
one ``AtMost(..., 1)`` per digit and states its sum as ``PbEq`` with the digits as weights.  A
cryptic letter is ten Booleans ``A_k``; a letter clue joins the sum with negative weights
(``sum - 10*first - second == 0``), so every constraint stays one pseudo-Boolean equation.
z3's ``pb.solver`` and ``cardinality.encoding`` parameters choose how they are handled.
"""

from __future__ import annotations

from typing import Any

import z3

from ...combos import DIGITS
from ...deadline import checked
from ...model import LETTERS, Clue, Puzzle
from .common import Formula, OneHotDigit, cell_name, leading_letters

Weighted = list[tuple[z3.BoolRef, int]]


def _one_hot(name: str, low: int, high: int) -> OneHotDigit:
    return OneHotDigit(tuple(z3.Bool(f"{name}_{d}") for d in range(low, high + 1)), low)


def _exactly_one(bits: tuple[z3.BoolRef, ...] | list[z3.BoolRef]) -> z3.BoolRef:
    return z3.PbEq([(b, 1) for b in bits], 1)


def _clue_weights(clue: Clue, letters: dict[str, OneHotDigit]) -> tuple[Weighted, int]:
    """The clue moved to the left-hand side: negative weights on letter bits, and the constant
    right-hand side (the clue itself for a number clue, else 0)."""
    if clue.value is not None:
        return [], clue.value
    assert clue.letters is not None
    scale = 10 ** (len(clue.letters) - 1)
    merged: dict[int, tuple[z3.BoolRef, int]] = {}
    for ch in clue.letters:
        for k, bit in enumerate(letters[ch].bits):
            if k:
                old = merged.get(bit.get_id(), (bit, 0))[1]
                merged[bit.get_id()] = (bit, old - scale * k)
        scale //= 10
    return list(merged.values()), 0


def formula(puzzle: Puzzle) -> Formula:
    """One-hot cells, per-digit at-most-one per run, weighted sums; one-hot letters."""
    cells = {cell: _one_hot(cell_name(cell), 1, 9) for cell in checked(puzzle.whites)}
    assertions: list[Any] = [_exactly_one(x.bits) for x in checked(cells.values())]
    letters: dict[str, OneHotDigit] = {}
    if puzzle.is_cryptic:
        letters = {ch: _one_hot(ch, 0, 9) for ch in LETTERS}
        assertions.extend(_exactly_one(y.bits) for y in letters.values())
        assertions.extend(_exactly_one([y.bits[k] for y in letters.values()]) for k in range(10))
        assertions.extend(z3.Not(letters[ch].eq(0)) for ch in leading_letters(puzzle))
        for cell, ch in puzzle.shown_letters.items():
            assertions.append(z3.Not(letters[ch].eq(0)))
            assertions.extend(cells[cell].eq(d) == letters[ch].eq(d) for d in DIGITS)
    for run in checked(puzzle.runs):  # a timeout covers building the formula too
        row = [cells[cell] for cell in run.cells]
        assertions.extend(z3.AtMost(*[x.eq(d) for x in row], 1) for d in DIGITS)
        if run.clue is not None:
            weights, rhs = _clue_weights(run.clue, letters)
            weights = [(x.eq(d), d) for x in row for d in DIGITS] + weights
            assertions.append(z3.PbEq(weights, rhs))
    return Formula(assertions, cells, letters)
