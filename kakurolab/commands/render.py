"""``kakuro render``: a picture of a puzzle as SVG or PNG, optionally solved or pencil-marked."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..errors import KakuroError
from ..model import Cell, Puzzle, Solution
from ._common import add_puzzle_args, emit_json, positive_float
from ._output import check_writable, written
from .hint import add_state_arg, single_puzzle, start_state

MAX_SCALE = 20.0
"""The largest PNG ``--scale`` (a 30x30 puzzle is then about 12,000 pixels wide)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("render", help="draw a puzzle as SVG or PNG")
    add_puzzle_args(parser, many=False)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="out.svg or out.png")
    parser.add_argument(
        "--solution",
        action="store_true",
        help="fill in the solution: the file's published one, else solved (native backend)",
    )
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="pencil marks in empty cells: the digits both runs allow (after --after-steps)",
    )
    parser.add_argument(
        "--after-steps",
        type=int,
        default=0,
        metavar="N",
        help="apply N human deduction steps first (digits and candidates as they then stand)",
    )
    add_state_arg(parser)
    parser.add_argument(
        "--scale",
        type=positive_float("--scale", MAX_SCALE),
        default=1.0,
        help=f"PNG size factor, above 0 and at most {MAX_SCALE:g} (default 1)",
    )
    parser.set_defaults(func=run)


def solution_of(puzzle: Puzzle) -> Solution:
    """The published solution when the file has one, else one found by a solver."""
    published = puzzle.meta.get("solution")
    if isinstance(published, Solution):
        return published
    from .. import uniqueness
    from ..backends import BACKENDS

    names = [name for name in ("native", "cpsat") if name in BACKENDS]
    if not names:
        raise KakuroError(
            f"puzzle {puzzle.id} has no published solution and no solver is available"
        )
    result = uniqueness.solve(puzzle, backend=names[0])
    if not result.solutions:
        raise KakuroError(f"puzzle {puzzle.id}: {names[0]} found no solution ({result.status})")
    return result.solutions[0]


def run(args: argparse.Namespace) -> int:
    if args.after_steps < 0:
        raise KakuroError("--after-steps must be 0 or more")
    check_writable(args.output)
    began = time.perf_counter()
    puzzle = single_puzzle(args)
    values: dict[Cell, int] = {}
    given: dict[Cell, int] = {}
    candidates: dict[Cell, int] = {}
    if args.solution:
        values = dict(solution_of(puzzle).values)
    if args.state is not None or args.candidates or args.after_steps:
        from ..logic import Contradiction, Engine, cross_candidates

        state = start_state(puzzle, args.state)
        given = dict(state.placed)
        engine = Engine(state)
        try:
            engine.run(limit=args.after_steps)
        except Contradiction as exc:
            raise KakuroError(f"the state cannot be completed: {exc}") from None
        deduced = {c: d for c, d in engine.state.placed.items() if c not in given}
        values = {**deduced, **values}
        if args.candidates:
            candidates = cross_candidates(engine.state)
    from ..render import scene, write

    write(
        scene(puzzle, values=values, given=given, candidates=candidates),
        args.output,
        scale=args.scale,
    )
    took = time.perf_counter() - began
    if args.json:
        fmt = Path(args.output).suffix.lstrip(".").lower()
        size = {"id": puzzle.id, "rows": puzzle.nrows, "cols": puzzle.ncols}
        emit_json(written(args.output, fmt, **size, time_s=round(took, 6)))
    else:
        print(f"{puzzle.id}: wrote {args.output} ({puzzle.nrows}x{puzzle.ncols}) in {took:.2f} s")
    return 0
