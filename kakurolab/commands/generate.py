"""``kakuro generate``: new puzzles with exactly one solution, reproducible from a seed.

Puzzle ``i`` of a ``--count N`` run uses seed ``SEED + i``, so ``--seed 8`` alone reproduces
the second puzzle of ``--seed 7 --count 2``.  Standard puzzles are written in the native
``kakuro`` format (with their solution), cryptic ones in the PE424 format.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import KakuroError
from ..formats import FORMATS, dumps
from ..generator import (
    DIFFICULTIES,
    MAX_ASPECT,
    MAX_SIZE,
    MIN_SIZE,
    PRESETS,
    WHITE_GOAL,
    GenerationStats,
    generate,
    generate_cryptic,
    parse_size,
    white_goal_arg,
)
from ..model import Puzzle, Solution
from ._common import emit_json, live_status, progress
from ._output import check_writable, renamed, write_text, written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("generate", help="generate puzzles with exactly one solution")
    parser.add_argument(
        "--size",
        default="intermediate",
        help=f"ROWSxCOLS (e.g. 12x12, rows first; each {MIN_SIZE}-{MAX_SIZE}, {MIN_SIZE} only as "
        f"{MIN_SIZE}x{MIN_SIZE}, the longer side at most {MAX_ASPECT} times the shorter; every "
        f"row and column is used) or a preset: "
        f"{', '.join(f'{k} {r}x{c}' for k, (r, c) in PRESETS.items())} (default: intermediate)",
    )
    parser.add_argument(
        "--difficulty", default="normal", choices=list(DIFFICULTIES), help="clue ambiguity level"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first puzzle")
    parser.add_argument("--count", type=int, default=1, help="how many puzzles (seeds SEED..)")
    parser.add_argument("--cryptic", action="store_true", help="cryptic PE424 puzzles (square)")
    parser.add_argument(
        "--logic-only",
        action="store_true",
        help="only puzzles deduction solves without search (the default; kept for old scripts)",
    )
    parser.add_argument(
        "--allow-search",
        action="store_true",
        help="accept unique puzzles that need search (trial and error) to solve",
    )
    parser.add_argument(
        "--symmetric",
        action="store_true",
        help="half-turn symmetric layout (the default; kept for old scripts)",
    )
    parser.add_argument(
        "--asymmetric", action="store_true", help="a layout without half-turn symmetry"
    )
    parser.add_argument(
        "--white-goal",
        default=str(WHITE_GOAL),
        metavar="SHARE|off",
        help="whiten black cells of each finished puzzle (in mirror pairs, keeping it unique, "
        "solved by deduction and at its level) until its interior white share reaches SHARE "
        f"(default {WHITE_GOAL}; published puzzles: about 0.73) or no cell can be whitened; "
        "off keeps the layout as drawn",
    )
    parser.add_argument("--backend", default="native", help="uniqueness solver (default native)")
    parser.add_argument(
        "--to", choices=sorted(FORMATS), help="output format (default: kakuro, pe424 for --cryptic)"
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="output file (default: stdout)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON line of stats per puzzle (its text too without -o; with -o, a last line "
        "records the file written)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    nrows, ncols = parse_size(args.size)
    _refuse_bad_arguments(args, nrows, ncols)
    white_goal = white_goal_arg(args.white_goal)
    fmt = args.to or ("pe424" if args.cryptic else "kakuro")
    puzzles: list[Puzzle] = []
    seeds = range(args.seed, args.seed + args.count)
    for seed in progress(seeds, total=args.count, desc="generate"):
        puzzle, solution, stats = _make(args, nrows, ncols, seed, white_goal)
        puzzles.append(Puzzle(puzzle.id, puzzle.grid, {**puzzle.meta, "solution": solution}))
        if args.json:
            record = stats_record(puzzle, seed, stats)
            if not args.output:
                record |= {"format": fmt, "text": dumps(puzzles[-1:], fmt)}
            emit_json(record)
    text = dumps(puzzles, fmt)
    if args.output:
        write_text(args.output, text)
        if args.json:
            emit_json(written(args.output, fmt, ids=[p.id for p in puzzles]))
        else:
            print(f"wrote {len(puzzles)} puzzle(s) to {args.output}", file=sys.stderr)
    elif not args.json:
        print(text, end="")
    return 0


def _refuse_bad_arguments(args: argparse.Namespace, nrows: int, ncols: int) -> None:
    """One clear error for arguments that cannot go together, before any work."""
    if args.output:
        check_writable(args.output)
    if args.count < 1:
        raise KakuroError(f"--count must be at least 1, got {args.count}")
    if args.cryptic and nrows != ncols:
        raise KakuroError(f"cryptic puzzles are square (PE424 format); got {nrows}x{ncols}")
    if args.symmetric and args.asymmetric:
        raise KakuroError("--symmetric and --asymmetric exclude each other")
    if args.logic_only and args.allow_search:
        raise KakuroError("--logic-only and --allow-search exclude each other")
    if args.cryptic and args.logic_only:
        raise KakuroError("--logic-only applies to standard puzzles only")


def _make(
    args: argparse.Namespace, nrows: int, ncols: int, seed: int, white_goal: float | None
) -> tuple[Puzzle, Solution, dict[str, Any]]:
    """One puzzle of the seed, its solution and the generator's statistics."""
    if args.cryptic:
        made = generate_cryptic(
            nrows,
            seed=seed,
            difficulty=args.difficulty,
            symmetric=not args.asymmetric,
            backend=args.backend,
            white_goal=white_goal,
        )
        return made.puzzle, made.solution, made.stats
    live = GenerationStats()
    with live_status(
        f"{nrows}x{ncols} {args.difficulty} seed {seed}",
        live.status,
        position=int(args.count > 1),
    ):
        got = generate(
            nrows,
            ncols,
            args.difficulty,
            seed=seed,
            symmetric=not args.asymmetric,
            logic_only=not args.allow_search,
            backend=args.backend,
            white_goal=white_goal,
            stats=live,
        )
    return got.puzzle, got.solution, got.stats.as_dict()


def stats_record(puzzle: Puzzle, seed: int, stats: dict[str, Any]) -> dict[str, Any]:
    """The generator's statistics under the shared keys (``seconds`` becomes ``time_s``)."""
    kept = {k: v for k, v in stats.items() if k != "search"}
    return {"id": puzzle.id, "seed": seed, **renamed(kept, {"seconds": "time_s"})}
