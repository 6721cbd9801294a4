"""The CP models the MiniZinc and XCSP3 writers offer, by name (:data:`CP_MODELS`).

Simonis' "model ladder" for Kakuro (Simonis 2008, and Gecode's own Kakuro case study): the
decomposition ``sum`` (an ``alldifferent`` and a linear sum per run) propagates too little on
hard grids, while ``table`` (one table constraint per run over every digit tuple its clue
admits) is domain consistent on each run, at the price of large tables: a run of nine cells has
9! = 362,880 tuples.  The same names are the ``--model`` of ``kakuro convert``, the ``model``
option of the ``minizinc`` backend and the result columns of the experiments.

The tuples come from :mod:`kakurolab.combos` (every permutation of every digit set of the
clue), so a writer and a reader that checks a table agree on them by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from ..combos import combos, digits_of
from ..errors import UnknownNameError


@dataclass(frozen=True)
class CpModel:
    """One way to state a run's constraint to a CP solver."""

    name: str
    doc: str


CP_MODELS: dict[str, CpModel] = {
    model.name: model
    for model in (
        CpModel("sum", "alldifferent plus a linear sum per run (the decomposition)"),
        CpModel("table", "a table constraint per run over every digit tuple its clue admits"),
    )
}
"""The model registry: the same names in ``kakuro convert --model``, the ``minizinc``
backend's ``model`` option, tests and result columns."""
DEFAULT_MODEL = "sum"
"""The writers' model when none is named: the files they wrote before models had names."""


def get_model(name: str) -> CpModel:
    try:
        return CP_MODELS[name]
    except KeyError:
        raise UnknownNameError("model", name, CP_MODELS) from None


@cache
def run_tuples(length: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every tuple of ``length`` distinct digits 1-9 adding up to ``total``, sorted: all
    permutations of the clue's digit sets (empty when the clue admits none)."""
    return tuple(
        sorted(t for mask in combos(length, total) for t in permutations(digits_of(mask)))
    )


LETTER_SHAPES = ("X", "XY", "XX")
"""The shapes of a cryptic clue: one letter, two letters, one letter twice (``AA`` is 11A).
A table has one column per distinct letter (a variable twice in one table scope is legal
but not every solver reads it right: ACE 2.6 lost ``AA``'s equality)."""


def letter_shape(letters: str) -> str:
    """The shape of a clue's letters (``"B"`` -> X, ``"BC"`` -> XY, ``"BB"`` -> XX)."""
    if len(letters) == 1:
        return "X"
    return "XX" if letters[0] == letters[1] else "XY"


def distinct_letters(letters: str) -> str:
    """The letters a clue's table has columns for: each once, tens first."""
    return "".join(dict.fromkeys(letters))


_SPELLINGS: dict[str, tuple[tuple[int, ...], ...]] = {
    "X": tuple((d,) for d in range(1, 10)),
    "XY": tuple(divmod(v, 10) for v in range(10, 100)),
    "XX": tuple((d,) for d in range(1, 10)),
}
"""The digits of a clue's distinct letters, per shape (a leading letter is not 0)."""
_VALUES: dict[str, Callable[[tuple[int, ...]], int]] = {
    "X": lambda ds: ds[0],
    "XY": lambda ds: 10 * ds[0] + ds[1],
    "XX": lambda ds: 11 * ds[0],
}
"""The clue's value from those digits, per shape."""


@cache
def letter_tuples(length: int, shape: str) -> tuple[tuple[int, ...], ...]:
    """A cryptic clue's table: a run's digits followed by the digits of the clue's distinct
    letters, tens first, for every value the clue can spell (a leading letter is not 0)."""
    out: list[tuple[int, ...]] = []
    for letters in _SPELLINGS[shape]:
        out += [t + letters for t in run_tuples(length, _VALUES[shape](letters))]
    return tuple(sorted(out))
