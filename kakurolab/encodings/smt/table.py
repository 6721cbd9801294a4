"""``smt=table``: each run as a disjunction of its admissible digit sets (the combination model).

For a run of ``n`` cells and clue ``t`` the solver gets one table constraint: the set of digits
the run uses is *one of* the sets of ``n`` distinct digits summing to ``t``
(``combos.combos``).  The set is a row of nine Booleans ``has_d`` per run, tied to the cells in
both directions (a cell's digit is in the set; every digit of the set sits in some cell).  With
``n`` cells and ``n`` digits that is the pigeonhole that makes the cells all different, so sum
and all-different are one disjunction, and the digit sets a clue rules out never enter the
formula.  A letter clue's disjunction pairs each set with the letter digits that spell its sum.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from ...combos import DIGITS, combos, digits_of
from ...deadline import checked
from ...model import Puzzle, Run
from ...rulebook import clue_values
from .common import (
    Formula,
    TermDigit,
    cell_name,
    conj,
    disj,
    int_letters,
    leading_letters,
)


def _clue_is(run: Run, letters: dict[str, Any]) -> Callable[[int], list[z3.BoolRef]]:
    """The condition "the clue stands for ``total``": nothing for a number clue, else one
    equality per letter (``C == 2, A == 3`` for ``CA`` = 23) rather than ``10*C + A == 23``,
    so each alternative of the table is a conjunction of plain variable assignments."""
    clue = run.clue
    assert clue is not None
    if clue.letters is None:
        return lambda total: []
    names = clue.letters
    atoms: dict[tuple[str, int], z3.BoolRef] = {}

    def atom(ch: str, digit: int) -> z3.BoolRef:
        if (ch, digit) not in atoms:
            atoms[ch, digit] = letters[ch] == digit
        return atoms[ch, digit]

    if len(names) == 1:
        return lambda total: [atom(names, total)]
    return lambda total: [atom(names[0], total // 10), atom(names[1], total % 10)]


def _run_table(run: Run, cells: list[z3.ArithRef], letters: dict[str, Any]) -> list[z3.BoolRef]:
    """The digit-set row of one run, its links to the cells, and the disjunction over sets."""
    tag = f"{run.direction.value[0]}_{cell_name(run.clue_cell)}"
    has = {d: z3.Bool(f"{tag}_has{d}") for d in DIGITS}
    eq = [{d: x == d for d in DIGITS} for x in cells]
    hasnt = {d: z3.Not(has[d]) for d in DIGITS}
    links = [disj([z3.Not(row[d]), has[d]]) for row in eq for d in DIGITS]
    links += [disj([hasnt[d], *[row[d] for row in eq]]) for d in DIGITS]
    clue_is = _clue_is(run, letters)
    options = []
    for total in clue_values(run):
        fixed = clue_is(total)
        for mask in combos(len(cells), total):
            chosen = set(digits_of(mask))
            options.append(conj([*fixed, *[has[d] if d in chosen else hasnt[d] for d in DIGITS]]))
    return [*links, disj(options)]


def formula(puzzle: Puzzle) -> Formula:
    """Integer cells 1..9 and one digit-set table per run; cryptic letters as in lia."""
    cells = {cell: z3.Int(cell_name(cell)) for cell in checked(puzzle.whites)}
    assertions: list[Any] = [z3.And(x >= 1, x <= 9) for x in checked(cells.values())]
    letters: dict[str, Any] = {}
    if puzzle.is_cryptic:
        letters, letter_constraints = int_letters()
        assertions.extend(letter_constraints)
        assertions.extend(letters[ch] != 0 for ch in leading_letters(puzzle))
        assertions.extend(cells[cell] == letters[ch] for cell, ch in puzzle.shown_letters.items())
    for run in checked(puzzle.runs):  # a timeout covers building the formula too
        terms = [cells[cell] for cell in run.cells]
        if run.clue is None:
            assertions.append(z3.Distinct(*terms))
        else:
            assertions.extend(_run_table(run, terms, letters))
    return Formula(
        assertions,
        {cell: TermDigit(x) for cell, x in cells.items()},
        {ch: TermDigit(x) for ch, x in letters.items()},
    )
