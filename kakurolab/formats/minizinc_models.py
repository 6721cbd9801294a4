"""The MiniZinc models :mod:`.minizinc`'s ``.mzn`` writer puts after a puzzle's data items:
the classic layout's and the cryptic one's."""

MODEL = """\
% Kakuro: every run of white cells holds distinct digits 1-9 that add up to its clue.
include "alldifferent.mzn";

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
constraint forall (i in 1..n_h) (
    sum (j in 1..h_clue[i, 3]) (x[h_clue[i, 1], h_clue[i, 2] + j]) = h_clue[i, 4]
    /\\ alldifferent ([x[h_clue[i, 1], h_clue[i, 2] + j] | j in 1..h_clue[i, 3]])
);
constraint forall (i in 1..n_v) (
    sum (j in 1..v_clue[i, 3]) (x[v_clue[i, 1] + j, v_clue[i, 2]]) = v_clue[i, 4]
    /\\ alldifferent ([x[v_clue[i, 1] + j, v_clue[i, 2]] | j in 1..v_clue[i, 3]])
);

solve satisfy;

% One line per grid row: a digit per white cell, '-' for any other (kakuro solution rows).
output [
    (if grid_data[r, c] = 1 then show(x[r, c]) else "-" endif)
    ++ (if c = w then "\\n" else "" endif)
    | r in 1..h, c in 1..w
];
"""
"""A MiniZinc model for the classic data layout (written for kakurolab, not the benchmarks'
model): ``minizinc MODEL.mzn p.dzn`` solves a ``.dzn`` :mod:`.minizinc` writes or reads."""

CRYPTIC_MODEL = """\
% Cryptic Kakuro: the letters A-J stand for the ten digits, one each; a clue XY is 10*X + Y
% with X not 0; every run holds distinct digits 1-9 that add up to its clue.
include "alldifferent.mzn";

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
constraint forall (i in 1..n_shown) (x[shown[i, 1], shown[i, 2]] = letter[shown[i, 3]]);

solve satisfy;

% The digits of A..J on a "solution:" line, then the grid as kakuro solution rows.
output ["solution: ", join("", [show(letter[k]) | k in 1..10]), "\\n"] ++ [
    (if grid_data[r, c] = 1 then show(x[r, c]) else "-" endif)
    ++ (if c = w then "\\n" else "" endif)
    | r in 1..h, c in 1..w
];
"""
"""The model of a cryptic puzzle's ``.mzn``: the classic items plus
:data:`.minizinc.CRYPTIC_NAMES`."""
