"""``kakuro decode``: read an outside SAT solver's model back as a grid.

Takes the puzzle, the DIMACS file ``kakuro encode`` wrote (its ``c encoding`` and ``c var``
comment lines, whose keys are matched as text, cells as ``r<row>c<col>`` from 1) and the
solver's output (a file, or ``-`` for standard input: ``cadical p.cnf | kakuro decode p.txt
p.cnf -``).  Accepted model formats: competition output
(``s SATISFIABLE`` and ``v ...`` lines, as cadical/kissat print), minisat result files
(``SAT`` then one line of literals) and a bare line of literals.  A decoded grid that breaks a
rule is never printed: the command names the first broken rule and exits 2.
"""

from __future__ import annotations

import argparse
import re

from ..encodings import CNFEncoding, encode, key_text
from ..errors import KakuroError
from ..fileio import read_text
from ..rulebook import solution_problems
from ._common import add_puzzle_args, emit_json, load_all, solution_rows

_LITERAL = re.compile(r"-?[0-9]{1,12}")
"""A DIMACS literal: ASCII digits only (no ``²``, no 5,000-digit numbers)."""
_VAR_ID = re.compile(r"[0-9]{1,12}")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("decode", help="decode an outside SAT solver's model to a grid")
    add_puzzle_args(parser, many=False)
    parser.add_argument("cnf", metavar="CNF", help="the DIMACS file written by kakuro encode")
    parser.add_argument(
        "model", metavar="MODEL", help="the solver's output (v lines or SAT file); - reads stdin"
    )
    parser.set_defaults(func=run)


def read_var_map(path: str) -> tuple[str, dict[int, str]]:
    """The encoding spec and the ``id -> key text`` map from a DIMACS file's comments."""
    spec = None
    names: dict[int, str] = {}
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if line.startswith("p "):
            break
        if line.startswith("c encoding "):
            spec = line[len("c encoding ") :].strip()
        elif line.startswith("c var "):
            vid, _, key = line[len("c var ") :].partition(" ")
            if not (_VAR_ID.fullmatch(vid) and key.strip()):
                raise KakuroError(
                    f"{path}, line {number}: expected 'c var ID KEY', got {line[:40]!r}"
                )
            names[int(vid)] = key
    if spec is None or not names:
        raise KakuroError(
            f"{path}: no 'c encoding' / 'c var' lines; was it written by kakuro encode?"
        )
    return spec, names


def read_model(path: str) -> list[int]:
    """The literals of a model file (``-``: standard input); raises when the solver found none."""
    text = read_text(path)  # "-": standard input, to the input limit as any file
    if path == "-":
        path = "standard input"
    lits: list[int] = []
    verdict = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("s "):
            verdict = line[2:].strip()
            continue
        if line in ("SAT", "UNSAT", "INDET", "UNSATISFIABLE", "SATISFIABLE"):
            verdict = line
            continue
        if line.startswith("v "):
            line = line[2:]
        tokens = line.split()
        if not all(_LITERAL.fullmatch(tok) for tok in tokens):
            raise KakuroError(f"{path}: cannot read model line {raw.strip()[:40]!r}")
        lits.extend(int(tok) for tok in tokens)
    if verdict is not None and verdict.startswith("UNSAT"):
        raise KakuroError(f"{path}: the solver reports UNSAT; there is no model to decode")
    lits = [lit for lit in lits if lit != 0]
    if not lits:
        raise KakuroError(f"{path}: no model literals found")
    return lits


def _our_model(
    args: argparse.Namespace, enc: CNFEncoding, names: dict[int, str], puzzle_id: str
) -> list[int]:
    """The outside solver's model in our encoding's variables (matched by their names in
    the file's variable map; auxiliary variables left out)."""
    ours = {key_text(key): vid for key, vid in enc.pool.obj2id.items()}
    model = []
    for lit in read_model(args.model):
        key = names.get(abs(lit))
        if key is None:
            continue  # auxiliary variable
        if key not in ours:
            raise KakuroError(f"{args.cnf}: variable {key} does not belong to puzzle {puzzle_id}")
        model.append(ours[key] if lit > 0 else -ours[key])
    return model


def run(args: argparse.Namespace) -> int:
    puzzles = load_all(args)
    if len(puzzles) != 1:
        raise KakuroError(f"decode takes one puzzle, the input has {len(puzzles)} (use --select)")
    puzzle = puzzles[0]
    spec, names = read_var_map(args.cnf)
    enc = encode(puzzle, spec)
    if not isinstance(enc, CNFEncoding):
        raise KakuroError(f"{args.cnf}: {spec} is not a CNF encoding")
    solution = enc.decode(_our_model(args, enc, names, puzzle.id))
    problems = solution_problems(puzzle, solution)
    if args.json:
        record: dict[str, object] = {"id": puzzle.id, "status": "wrong" if problems else "sat"}
        if problems:  # a grid that breaks a rule is not shown, as no backend's would be
            record["problems"] = problems
        else:
            record["solution"] = solution_rows(puzzle, solution)
            if puzzle.is_cryptic:
                record["answer"] = solution.answer
        emit_json(record)
    if problems:
        raise KakuroError(f"the decoded grid breaks the rules: {problems[0]}")
    if not args.json:
        if puzzle.is_cryptic:
            print(f"answer {solution.answer}")
        for row in solution.rows(puzzle):
            print(row)
    return 0
