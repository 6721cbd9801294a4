"""``kakuro encode``: write a puzzle's formula (DIMACS for CNF, SMT-LIB2 for SMT) to a file.

The DIMACS file carries ``c var ID KEY...`` comment lines mapping variables back to cells
(named ``r<row>c<col>`` from 1, as every command prints them), digits and letters, so
``kakuro decode`` can read an outside solver's model, and a ``c p show ... 0`` line naming the
grid variables, so an outside model counter counts grids.  The SMT-LIB2 file declares a
standard logic (see ``declare=`` in ``kakuro encodings``), so solvers besides z3 read it.
"""

from __future__ import annotations

import argparse
import sys

from ..encodings import DEFAULT_PRESET, Encoding, encode
from ..errors import KakuroError
from ._common import add_puzzle_args, emit_json, load_all
from ._output import named_output, write_text


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "encode", help="write a puzzle as DIMACS CNF or SMT-LIB2 (for outside solvers)"
    )
    add_puzzle_args(parser, many=False)
    parser.add_argument(
        "--encoding",
        default=DEFAULT_PRESET,
        metavar="SPEC",
        help=f"preset or spec, e.g. cell=direct,sum=combo (default: {DEFAULT_PRESET}; "
        "see kakuro encodings)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="output file or directory (default: the puzzle id, made a safe file name, plus "
        ".cnf/.smt2, in the current directory; '-' for stdout)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    puzzles = load_all(args)
    if len(puzzles) != 1:
        raise KakuroError(f"encode takes one puzzle, the input has {len(puzzles)} (use --select)")
    puzzle = puzzles[0]
    enc = encode(puzzle, args.encoding)
    text = file_text(enc)
    out = named_output(puzzle.id, enc.suffix, args.output)
    if out == "-":
        sys.stdout.write(text)
    else:
        write_text(out, text)
    for note in getattr(enc, "notes", ()):
        print(f"kakuro: note: {note}", file=sys.stderr)
    if getattr(enc, "lazy_runs", None):
        print(
            "kakuro: warning: sum=lazy writes no sum clauses; the file under-constrains",
            file=sys.stderr,
        )
    info = {"id": puzzle.id, "encoding": str(enc.spec), "output": out, **enc.stats()}
    if args.json:
        emit_json(info)
    elif out != "-":
        stats = ", ".join(f"{v} {k}" for k, v in enc.stats().items())
        print(f"{puzzle.id}: wrote {out} ({enc.spec}; {stats})")
    return 0


def file_text(enc: Encoding) -> str:
    """The file: a CNF encoding's own DIMACS text (its clauses, the variable map and the
    shown grid variables), an SMT encoding's SMT-LIB2 through the z3 backend, which decides
    the ``:status`` a ``status=solve`` spec asks for (imported only then: z3 is heavy)."""
    if enc.spec.family == "smt":
        from ..backends.z3 import smtlib_text

        return smtlib_text(enc)
    return enc.to_text()
