"""``kakuro explain``: solve by deduction alone and print every step, or where it stops."""

from __future__ import annotations

import argparse

from ..logic import BY_NAME, TECHNIQUES, Contradiction, candidates_text, explain_puzzle
from ._common import Batch, add_puzzle_args, emit_json
from .hint import add_state_arg, start_state


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "explain",
        help="solve by human deduction alone, step by step (standard and cryptic puzzles)",
    )
    add_puzzle_args(parser)
    add_state_arg(parser)
    parser.add_argument(
        "--quiet", action="store_true", help="only the summary line per puzzle, not the steps"
    )
    parser.add_argument(
        "--up-to",
        metavar="TECHNIQUE",
        choices=list(BY_NAME),
        help="use only the ladder up to this technique (to see where a simpler solver stops); "
        f"one of: {', '.join(BY_NAME)}",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ladder = TECHNIQUES
    if args.up_to:
        ladder = TECHNIQUES[: TECHNIQUES.index(BY_NAME[args.up_to]) + 1]
    batch = Batch.load(args)
    solved = total = 0
    for puzzle in batch:
        start = start_state(puzzle, args.state)
        try:
            result = explain_puzzle(puzzle, start, techniques=ladder)
        except Contradiction as exc:
            raise Contradiction(
                f"puzzle {puzzle.id}: the state cannot be completed: {exc}"
            ) from None
        total += 1
        solved += result.solved
        if args.json:
            emit_json(result.to_json())
            continue
        print(f"== {puzzle.id}")
        if not args.quiet:
            width = len(str(len(result.steps)))
            for i, step in enumerate(result.steps, 1):
                print(f"{i:>{width}}. [{step.technique}] {step.text}")
        print(f"{puzzle.id}: {result.summary()}")
        if not result.solved and not args.quiet:
            print("grid where deduction stops ('.' = open):")
            print("\n".join("  " + row for row in result.state.grid_rows()))
            print("candidates of the open cells:")
            print("\n".join("  " + line for line in candidates_text(result.state).splitlines()))
    if total > 1 and not args.json:
        print(f"solved by deduction alone: {solved} of {total} puzzles")
    return batch.exit_code(0)
