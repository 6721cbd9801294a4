"""``kakuro convert``: rewrite puzzles in another format, refusing what it cannot express."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import KakuroError
from ..formats import CP_MODELS, FORMATS, dumps, loads
from ..model import Puzzle
from ._common import Batch, add_puzzle_args, emit_json
from ._output import write_text, written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "convert",
        help="rewrite puzzles in another format",
        description="Rewrite puzzles in another format. Under --json: with -o, one record of "
        "the file written (output, format, bytes, ids); without, one object per puzzle with its "
        "text.",
    )
    add_puzzle_args(parser, many=False)
    parser.add_argument(
        "--to", required=True, choices=sorted(FORMATS), metavar="FORMAT", help="output format"
    )
    parser.add_argument(
        "--model",
        choices=sorted(CP_MODELS),
        help="the CP model of the runs, in the formats that state constraints (mzn, xcsp3): "
        + "; ".join(f"{m.name}: {m.doc}" for m in CP_MODELS.values())
        + " (default sum)",
    )
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    parser.set_defaults(func=run)


def convert(puzzles: Sequence[Puzzle], to: str, model: str | None = None) -> str:
    """The text in format ``to`` (its runs in CP ``model`` where the format has a choice),
    read back once to prove the writer kept every grid."""
    text = dumps(puzzles, to, model=model)
    again = loads(text, format=to, check=False)
    if len(again) != len(puzzles) or any(
        a.grid != b.grid for a, b in zip(again, puzzles, strict=True)
    ):
        raise KakuroError(f"the {to} writer lost part of a grid (a bug; please report it)")
    return text


def run(args: argparse.Namespace) -> int:
    batch = Batch.load(args)
    puzzles = batch.puzzles  # an invalid puzzle is reported and left out; the rest are written
    text = convert(puzzles, args.to, args.model) if puzzles else ""
    if args.output and puzzles:
        write_text(args.output, text)
        if args.json:
            batch.report_invalid()
            emit_json(written(args.output, args.to, ids=[p.id for p in puzzles]))
    if args.json and not args.output:
        for puzzle in batch:
            one = dumps([puzzle], args.to, model=args.model)
            emit_json({"id": puzzle.id, "format": args.to, "text": one})
    elif not args.output:
        batch.report_invalid()
        print(text, end="")
    return batch.exit_code(0)
