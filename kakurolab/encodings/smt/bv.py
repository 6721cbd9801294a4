"""``smt=bv``: 4-bit bit-vector cells, run sums in 8 bits.

A digit fits in 4 bits, but a run sum reaches 45 and a two-letter clue 99, both past 4 bits, so
every cell is zero-extended to 8 bits (room up to 255) before adding: no sum can wrap around,
and the bit-vector model means exactly what the integer one does.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import z3

from ...deadline import checked
from ...model import LETTERS, Clue, Puzzle
from .common import Formula, TermDigit, cell_name, leading_letters, run_distinct

DIGIT_BITS = 4
SUM_BITS = 8


def _wide(term: Any, api: ModuleType) -> Any:
    return api.ZeroExt(SUM_BITS - DIGIT_BITS, term)


def _clue(clue: Clue, letters: dict[str, Any], api: ModuleType) -> Any:
    if clue.value is not None:
        return api.BitVecVal(clue.value, SUM_BITS)
    assert clue.letters is not None
    if len(clue.letters) == 1:
        return _wide(letters[clue.letters], api)
    first, second = clue.letters[0], clue.letters[1]
    return api.BitVecVal(10, SUM_BITS) * _wide(letters[first], api) + _wide(letters[second], api)


def formula(puzzle: Puzzle, api: ModuleType = z3) -> Formula:
    """Unsigned 4-bit cells in 1..9, ``Distinct`` per run, 8-bit sums; 4-bit letters 0..9.

    ``api`` is z3 or ``cvc5.pythonic`` (the cvc5 backend's ``smt=bv``), whose functions
    mirror z3's, so both solvers read one model."""
    cells = {cell: api.BitVec(cell_name(cell), DIGIT_BITS) for cell in checked(puzzle.whites)}
    assertions: list[Any] = [api.And(api.ULE(1, x), api.ULE(x, 9)) for x in checked(cells.values())]
    letters: dict[str, Any] = {}
    if puzzle.is_cryptic:
        letters = {ch: api.BitVec(ch, DIGIT_BITS) for ch in LETTERS}
        assertions.extend(api.ULE(x, 9) for x in letters.values())
        assertions.append(api.Distinct(*letters.values()))
        assertions.extend(letters[ch] != 0 for ch in leading_letters(puzzle))
        assertions.extend(cells[cell] == letters[ch] for cell, ch in puzzle.shown_letters.items())
    for run in checked(puzzle.runs):  # a timeout covers building the formula too
        terms = [cells[cell] for cell in run.cells]
        assertions.extend(run_distinct(terms, api))
        if run.clue is not None:
            total = api.Sum(*[_wide(x, api) for x in terms])
            assertions.append(total == _clue(run.clue, letters, api))
    return Formula(
        assertions,
        {cell: TermDigit(x) for cell, x in cells.items()},
        {ch: TermDigit(x) for ch, x in letters.items()},
    )
