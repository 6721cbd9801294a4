"""``smt=table``: each run as a disjunction of its admissible digit sets (the combination model).

For a run of ``n`` cells and clue ``t`` the solver gets one table constraint: the set of digits
the run uses is *one of* the sets of ``n`` distinct digits summing to ``t``
(``combos.combos``).  The set is a row of nine Booleans ``has_d`` per run, tied to the cells in
both directions (a cell's digit is in the set; every digit of the set sits in some cell).  With
``n`` cells and ``n`` digits that is the pigeonhole that makes the cells all different, so sum
and all-different are one disjunction, and the digit sets a clue rules out never enter the
formula.  A letter clue's disjunction pairs each set with ``clue == its sum``.
"""

from __future__ import annotations

from typing import Any

import z3

from ...check import clue_values
from ...combos import DIGITS, combos, digits_of
from ...model import Puzzle, Run
from .common import (
    Formula,
    TermDigit,
    cell_name,
    conj,
    disj,
    int_clue,
    int_letters,
    leading_letters,
)


def _run_table(run: Run, cells: list[z3.ArithRef], clue: Any) -> list[z3.BoolRef]:
    """The digit-set row of one run, its links to the cells, and the disjunction over sets."""
    tag = f"{run.direction.value[0]}_{cell_name(run.clue_cell)}"
    has = {d: z3.Bool(f"{tag}_has{d}") for d in DIGITS}
    eq = [{d: x == d for d in DIGITS} for x in cells]
    hasnt = {d: z3.Not(has[d]) for d in DIGITS}
    links = [disj([z3.Not(row[d]), has[d]]) for row in eq for d in DIGITS]
    links += [disj([hasnt[d], *[row[d] for row in eq]]) for d in DIGITS]
    options = []
    for total in clue_values(run):
        fixed = [] if isinstance(clue, int) else [clue == total]
        for mask in combos(len(cells), total):
            chosen = set(digits_of(mask))
            options.append(conj([*fixed, *[has[d] if d in chosen else hasnt[d] for d in DIGITS]]))
    return [*links, disj(options)]


def formula(puzzle: Puzzle) -> Formula:
    """Integer cells 1..9 and one digit-set table per run; cryptic letters as in lia."""
    cells = {cell: z3.Int(cell_name(cell)) for cell in puzzle.whites}
    assertions: list[Any] = [z3.And(x >= 1, x <= 9) for x in cells.values()]
    letters: dict[str, Any] = {}
    if puzzle.is_cryptic:
        letters, letter_constraints = int_letters()
        assertions.extend(letter_constraints)
        assertions.extend(letters[ch] != 0 for ch in leading_letters(puzzle))
        assertions.extend(cells[cell] == letters[ch] for cell, ch in puzzle.shown_letters.items())
    for run in puzzle.runs:
        terms = [cells[cell] for cell in run.cells]
        if run.clue is None:
            assertions.append(z3.Distinct(*terms))
        else:
            assertions.extend(_run_table(run, terms, int_clue(run.clue, letters)))
    return Formula(
        assertions,
        {cell: TermDigit(x) for cell, x in cells.items()},
        {ch: TermDigit(x) for ch, x in letters.items()},
    )
