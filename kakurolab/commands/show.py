r"""``kakuro show``: draw puzzles in the terminal, clue cells as ``DOWN\ACROSS``."""

from __future__ import annotations

import argparse

from ..formats import embedded_solution, grid_lines
from ..model import Puzzle, Solution
from ._common import Batch, add_puzzle_args, emit_json, solution_rows

SOLVER = "native"
"""The backend that fills in a solution when the file carries none (if it is installed)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("show", help="draw puzzles as text grids (clue cells as D\\A)")
    add_puzzle_args(parser)
    parser.add_argument(
        "--solution",
        action="store_true",
        help="fill in the digits: the embedded solution, else one the native solver finds",
    )
    parser.set_defaults(func=run)


def find_solution(puzzle: Puzzle) -> tuple[Solution | None, str]:
    """The embedded solution, else a solved one when the native backend exists; and its origin."""
    solution = embedded_solution(puzzle)
    if solution is not None:
        return solution, "embedded"
    from ..backends import BACKENDS
    from ..uniqueness import solve

    if SOLVER in BACKENDS:
        result = solve(puzzle, backend=SOLVER)
        if result.solutions:
            return result.solutions[0], SOLVER
    return None, "none"


def run(args: argparse.Namespace) -> int:
    batch = Batch.load(args)
    for puzzle in batch:
        solution, origin = find_solution(puzzle) if args.solution else (None, "none")
        fill = None if solution is None else {c: str(d) for c, d in solution.values.items()}
        lines = grid_lines(puzzle, fill)
        kind = "cryptic" if puzzle.is_cryptic else "standard"
        if args.json:
            record: dict[str, object] = {
                "id": puzzle.id,
                "rows": puzzle.nrows,
                "cols": puzzle.ncols,
                "kind": kind,
                "grid": lines,
            }
            if args.solution:
                record["solution"] = solution_rows(puzzle, solution)
                record["solution_origin"] = origin
                record["answer"] = solution.answer if solution else None
            emit_json(record)
            continue
        print(f"puzzle {puzzle.id}: {puzzle.nrows}x{puzzle.ncols} {kind}")
        print("\n".join(lines))
        if args.solution and solution is None:
            print("(no solution embedded, and no solver installed to find one)")
        elif solution is not None and solution.answer:
            print(f"answer (A..J): {solution.answer}")
        print()
    return batch.exit_code(0)
