"""The MiniZinc models :mod:`.minizinc`'s ``.mzn`` writer puts after a puzzle's data items:
the classic layout's and the cryptic one's, in the two models of :mod:`.cpmodels`.

``sum`` models are fixed texts that read the data items, so :data:`MODEL` also solves a bare
``.dzn``.  A ``table`` model names each run's cells and table, so it is written per puzzle
(:func:`table_model`): the data items stay in front of it (the reader takes them back), and
each (length, clue) table is written once and shared by the runs that have it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..model import LETTERS, Puzzle
from .cpmodels import distinct_letters, letter_shape, letter_tuples, run_tuples

_DECLS = """\
int: h;
int: w;
array[1..h, 1..w] of 0..1: grid_data;  % 1: white cell, 0: block or clue cell
int: n_h;
array[1..n_h, 1..4] of int: h_clue;    % row, col of the clue cell, run length, sum (across)
int: n_v;
array[1..n_v, 1..4] of int: v_clue;    % the same for the runs downward

array[1..h, 1..w] of var 0..9: x;

constraint forall (r in 1..h, c in 1..w) (
    if grid_data[r, c] = 1 then x[r, c] >= 1 else x[r, c] = 0 endif
);
"""

_SUM_RUNS = """\
constraint forall (i in 1..n_h) (
    sum (j in 1..h_clue[i, 3]) (x[h_clue[i, 1], h_clue[i, 2] + j]) = h_clue[i, 4]
    /\\ alldifferent ([x[h_clue[i, 1], h_clue[i, 2] + j] | j in 1..h_clue[i, 3]])
);
constraint forall (i in 1..n_v) (
    sum (j in 1..v_clue[i, 3]) (x[v_clue[i, 1] + j, v_clue[i, 2]]) = v_clue[i, 4]
    /\\ alldifferent ([x[v_clue[i, 1] + j, v_clue[i, 2]] | j in 1..v_clue[i, 3]])
);
"""

_GRID_OUTPUT = """\
    (if grid_data[r, c] = 1 then show(x[r, c]) else "-" endif)
    ++ (if c = w then "\\n" else "" endif)
    | r in 1..h, c in 1..w
];
"""

_OUTPUT = """\
solve satisfy;

% One line per grid row: a digit per white cell, '-' for any other (kakuro solution rows).
output [
""" + _GRID_OUTPUT

MODEL = (
    "% Kakuro: every run of white cells holds distinct digits 1-9 that add up to its clue.\n"
    'include "alldifferent.mzn";\n\n' + _DECLS + _SUM_RUNS + "\n" + _OUTPUT
)
"""A MiniZinc model for the classic data layout (written for kakurolab, not the benchmarks'
model): ``minizinc MODEL.mzn p.dzn`` solves a ``.dzn`` :mod:`.minizinc` writes or reads."""

_CRYPTIC_DECLS = """\
int: h;
int: w;
array[1..h, 1..w] of 0..1: grid_data;  % 1: white cell, 0: block or clue cell
int: n_h;
array[1..n_h, 1..4] of int: h_clue;    % row, col of the clue cell, run length, numeric sum
array[1..n_h, 1..2] of 0..10: h_letters;  % tens, units letter (1-10 for A-J; 0, 0: numeric)
int: n_v;
array[1..n_v, 1..4] of int: v_clue;
array[1..n_v, 1..2] of 0..10: v_letters;
int: n_shown;
array[1..n_shown, 1..3] of int: shown;  % row, col, letter shown in a white cell

array[1..h, 1..w] of var 0..9: x;
array[1..10] of var 0..9: letter;

constraint alldifferent (letter);
constraint forall (r in 1..h, c in 1..w) (
    if grid_data[r, c] = 1 then x[r, c] >= 1 else x[r, c] = 0 endif
);
"""

_CRYPTIC_SUM_RUNS = """\
function var int: target(array[int, int] of int: clue, array[int, int] of int: ls, int: i) =
    if ls[i, 2] = 0 then clue[i, 4]
    elseif ls[i, 1] = 0 then letter[ls[i, 2]]
    else 10 * letter[ls[i, 1]] + letter[ls[i, 2]] endif;
constraint forall (i in 1..n_h) (
    sum (j in 1..h_clue[i, 3]) (x[h_clue[i, 1], h_clue[i, 2] + j]) = target(h_clue, h_letters, i)
    /\\ alldifferent ([x[h_clue[i, 1], h_clue[i, 2] + j] | j in 1..h_clue[i, 3]])
    /\\ (h_letters[i, 1] = 0 \\/ letter[max(1, h_letters[i, 1])] > 0)
);
constraint forall (i in 1..n_v) (
    sum (j in 1..v_clue[i, 3]) (x[v_clue[i, 1] + j, v_clue[i, 2]]) = target(v_clue, v_letters, i)
    /\\ alldifferent ([x[v_clue[i, 1] + j, v_clue[i, 2]] | j in 1..v_clue[i, 3]])
    /\\ (v_letters[i, 1] = 0 \\/ letter[max(1, v_letters[i, 1])] > 0)
);
"""

_SHOWN = """\
constraint forall (i in 1..n_shown) (x[shown[i, 1], shown[i, 2]] = letter[shown[i, 3]]);
"""

_CRYPTIC_OUTPUT = """\
solve satisfy;

% The digits of A..J on a "solution:" line, then the grid as kakuro solution rows.
output ["solution: ", join("", [show(letter[k]) | k in 1..10]), "\\n"] ++ [
""" + _GRID_OUTPUT

CRYPTIC_MODEL = (
    "% Cryptic Kakuro: the letters A-J stand for the ten digits, one each; a clue XY is 10*X + Y\n"
    "% with X not 0; every run holds distinct digits 1-9 that add up to its clue.\n"
    'include "alldifferent.mzn";\n\n' + _CRYPTIC_DECLS + _CRYPTIC_SUM_RUNS + _SHOWN + "\n"
    + _CRYPTIC_OUTPUT
)
"""The model of a cryptic puzzle's ``.mzn``: the classic items plus
:data:`.minizinc.CRYPTIC_NAMES`."""


def sum_model(puzzle: Puzzle) -> str:
    """The ``sum`` model of one puzzle: a fixed text over its data items."""
    return CRYPTIC_MODEL if puzzle.is_cryptic else MODEL


def table_model(puzzle: Puzzle) -> str:
    """The ``table`` model of one puzzle: per run ``table(cells, T)``, each table ``T`` once."""
    head = (
        "% Kakuro, table model: each run's digits are one row of its clue's table (every\n"
        "% permutation of every digit set of its length and sum), one table per run.\n"
    )
    if puzzle.is_cryptic:  # the letters are all different
        head += "% Letters A-J are letter[1..10]; a letter clue's table ends with its letters.\n"
        head += 'include "table.mzn";\ninclude "alldifferent.mzn";\n\n'
    else:
        head += 'include "table.mzn";\n\n'
    head += _CRYPTIC_DECLS if puzzle.is_cryptic else _DECLS
    tables: dict[str, str] = {}
    constraints = []
    for run in puzzle.runs:
        assert run.clue is not None  # a valid puzzle
        cells = [f"x[{r + 1}, {c + 1}]" for r, c in run.cells]
        letters = run.clue.letters
        if letters is None:
            name = f"t{len(cells)}_{run.clue.value}"
            tables.setdefault(name, _table(name, len(cells), run.clue.value or 0, ""))
        else:
            shape = letter_shape(letters)
            name = f"l{len(cells)}_{shape}"
            tables.setdefault(name, _table(name, len(cells), 0, shape))
            cells += [f"letter[{LETTERS.index(ch) + 1}]" for ch in distinct_letters(letters)]
        constraints.append(f"constraint table([{', '.join(cells)}], {name});\n")
    body = "".join(tables.values()) + "".join(constraints)
    if puzzle.is_cryptic:
        return head + body + _SHOWN + "\n" + _CRYPTIC_OUTPUT
    return head + body + "\n" + _OUTPUT


@cache
def _table(name: str, length: int, total: int, shape: str) -> str:
    """One table as a 2D array, a tuple a line (cached: the loose 60x60 grid's tables hold
    882,360 tuples, shared by many puzzles of a collection); ``shape``: a letter clue's."""
    tuples = letter_tuples(length, shape) if shape else run_tuples(length, total)
    width = len(tuples[0]) if tuples else length
    return (
        f"array[1..{len(tuples)}, 1..{width}] of int: {name} = array2d(1..{len(tuples)}, "
        f"1..{width}, [\n{_rows(tuples)}]);\n"
    )


def _rows(tuples: Iterable[tuple[int, ...]]) -> str:
    return "".join(",".join(map(str, t)) + ",\n" for t in tuples)
