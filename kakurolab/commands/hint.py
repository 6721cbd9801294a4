"""``kakuro hint``: the next deduction in words and the cell(s) it fixes (the Logic Shield)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import KakuroError
from ..fileio import read_text
from ..logic import STATE_HELP, Contradiction, State, cell_name, next_hint, parse_state
from ..model import Puzzle
from ._common import add_puzzle_args, add_timeout_arg, emit_json, load_all, report_unsat
from ._solving import exit_help


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "hint", help="the next human deduction and the cell(s) it fixes (standard and cryptic)",
        epilog=exit_help(
            "a hint was found or no technique applies (a hint is one step and asks no solver "
            "whether a solution exists: solve, unique and count do)",
            "the deduction from the blank grid meets a contradiction before its hint (unsat: "
            "no solution) or --timeout ran out; a --state that cannot be completed is bad input",
        ),
    )
    add_puzzle_args(parser, many=False)
    add_state_arg(parser)
    add_timeout_arg(parser)
    parser.set_defaults(func=run)


def add_state_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state", metavar="GRID", help=STATE_HELP)


def single_puzzle(args: argparse.Namespace) -> Puzzle:
    """The one puzzle a command works on: the file's only puzzle or the one --select names."""
    puzzles = load_all(args)
    if not puzzles:
        raise KakuroError("no puzzle selected")
    if len(puzzles) > 1:
        ids = ", ".join(p.id for p in puzzles[:5])
        more = ", ..." if len(puzzles) > 5 else ""
        raise KakuroError(
            f"{args.puzzles[0]} holds {len(puzzles)} puzzles ({ids}{more}); "
            "choose one with --select"
        )
    return puzzles[0]


def start_state(puzzle: Puzzle, text: str | None) -> State:
    """The blank grid, or the --state grid checked against the rules and, when the file
    carries one, the published solution (a wrong digit cannot lead anywhere)."""
    if text is None:
        return State.initial(puzzle)
    if text.startswith("@") or _names_file(text):
        path = Path(text[1:] if text.startswith("@") else text)
        text = read_text(path, what="--state")
    digits = parse_state(puzzle, text)
    state = State.from_digits(puzzle, digits)
    solution = puzzle.meta.get("solution")
    values = getattr(solution, "values", None)
    if values:
        wrong = sorted(c for c, d in digits.items() if values.get(c) not in (None, d))
        if wrong:
            raise Contradiction(
                f"the state cannot be completed: {cell_name(wrong[0])} = {digits[wrong[0]]} "
                f"contradicts the puzzle's solution"
                + (f" (and {len(wrong) - 1} more cells)" if len(wrong) > 1 else "")
            )
    return state


def _names_file(text: str) -> bool:
    """Whether a --state value names an existing file (a long grid or a NUL is not a name)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def run(args: argparse.Namespace) -> int:
    puzzle = single_puzzle(args)
    start = start_state(puzzle, args.state)
    try:
        hint = next_hint(puzzle, start, timeout=args.timeout)
    except Contradiction as exc:
        if args.state is None:  # from the blank grid: the puzzle has no solution
            report_unsat(puzzle.id, exc, args.json)
            return 1
        raise Contradiction(f"the state cannot be completed: {exc}") from None
    if args.json:
        emit_json({"id": puzzle.id, **hint.to_json()})
    else:
        print(f"{puzzle.id}: {hint.text()}" if hint.step is None else hint.text())
    return 1 if hint.timeout is not None else 0
