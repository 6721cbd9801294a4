"""``smt=lia``: the textbook model, integer cells 1..9, ``Distinct`` and ``Sum == clue`` per run.

The smallest faithful model; every solver with linear integer arithmetic reads it, which is
why the cvc5 backend uses it too (``api=cvc5.pythonic``).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import z3

from ...deadline import checked
from ...model import Puzzle
from .common import (
    Formula,
    TermDigit,
    cell_name,
    int_clue,
    int_letters,
    leading_letters,
    run_distinct,
)


def formula(puzzle: Puzzle, api: ModuleType = z3) -> Formula:
    """Integer cells 1..9; per run all-different and the sum; cryptic letters as integers."""
    cells = {cell: api.Int(cell_name(cell)) for cell in checked(puzzle.whites)}
    assertions: list[Any] = [api.And(x >= 1, x <= 9) for x in checked(cells.values())]
    letters: dict[str, Any] = {}
    if puzzle.is_cryptic:
        letters, letter_constraints = int_letters(api)
        assertions.extend(letter_constraints)
        assertions.extend(letters[ch] != 0 for ch in leading_letters(puzzle))
        assertions.extend(cells[cell] == letters[ch] for cell, ch in puzzle.shown_letters.items())
    for run in checked(puzzle.runs):  # a timeout covers building the formula too
        terms = [cells[cell] for cell in run.cells]
        assertions.extend(run_distinct(terms, api))
        if run.clue is not None:
            assertions.append(api.Sum(*terms) == int_clue(run.clue, letters))
    return Formula(
        assertions,
        {cell: TermDigit(x) for cell, x in cells.items()},
        {ch: TermDigit(x) for ch, x in letters.items()},
    )
