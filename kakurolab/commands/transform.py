"""``kakuro transform``: a puzzle under a rotation, reflection and/or digit complement.

Rotation comes first (clockwise), then the flip (``h`` mirrors left-right, ``v`` top-bottom),
then the complement d -> 10 - d.  Clue cells are re-derived at the heads of the moved runs.
"""

from __future__ import annotations

import argparse

from ..formats import FORMATS, dumps
from ..generator import Transform, transform_puzzle, transform_solution
from ..model import Puzzle, Solution
from ._common import Batch, add_puzzle_args, emit_json
from ._output import write_text, written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("transform", help="rotate, reflect or complement puzzles")
    add_puzzle_args(parser, many=False)
    parser.add_argument(
        "--rotate",
        type=int,
        default=0,
        choices=(0, 90, 180, 270),
        help="clockwise rotation in degrees",
    )
    parser.add_argument(
        "--flip", choices=("h", "v"), help="mirror left-right (h) or top-bottom (v)"
    )
    parser.add_argument("--complement", action="store_true", help="replace each digit d by 10-d")
    parser.add_argument(
        "--to",
        choices=sorted(FORMATS),
        help="output format (default: kakuro, pe424 for cryptic puzzles)",
    )
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    t = Transform(args.rotate, args.flip, args.complement)
    pairs: list[tuple[Puzzle, Puzzle]] = []
    batch = Batch.load(args)
    for puzzle in batch:
        moved = transform_puzzle(puzzle, t)
        known = puzzle.meta.get("solution")
        if isinstance(known, Solution):
            solution = transform_solution(known, puzzle.shape, t)
            moved = Puzzle(moved.id, moved.grid, {**moved.meta, "solution": solution})
        pairs.append((puzzle, moved))
    out = [moved for _, moved in pairs]
    fmt = args.to or ("pe424" if any(p.is_cryptic for p in out) else "kakuro")
    text = dumps(out, fmt)
    if args.output:
        write_text(args.output, text)
    if args.json:
        for puzzle, moved in pairs:
            record: dict[str, object] = {
                "id": puzzle.id,
                "new_id": moved.id,
                "transform": t.name,
                "rows": moved.nrows,
                "cols": moved.ncols,
            }
            if not args.output:
                record |= {"format": fmt, "text": dumps([moved], fmt)}
            emit_json(record)
        if args.output:
            emit_json(written(args.output, fmt, ids=[moved.id for moved in out]))
    elif not args.output:
        print(text, end="")
    return batch.exit_code(0)
