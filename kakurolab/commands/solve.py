"""``kakuro solve``: one solution per puzzle (grid and cryptic answer), or unsat/timeout."""

from __future__ import annotations

import argparse

from ..uniqueness import solve
from ._solving import (
    Tally,
    add_solver_args,
    emit,
    exit_help,
    grid_lines,
    make_backend,
    puzzles_with_progress,
    record,
    status_name,
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "solve", help="solve puzzles (grid and cryptic answer)", epilog=exit_help(
            "every puzzle is solved", "some puzzle is unsat, timed out or failed"
        ),
    )
    add_solver_args(parser)
    parser.add_argument(
        "--up-only", action="store_true",
        help="no search: report the cells unit propagation fixes under the CNF --encoding",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.up_only:
        from ._cnf_modes import up_only

        return up_only(args)
    backend = make_backend(args)
    batch, puzzles = puzzles_with_progress(args, "solve")
    tally = Tally(backend, batch)
    for puzzle in puzzles:
        result = solve(puzzle, backend=backend, timeout=args.timeout)
        status = status_name(result)
        tally.add(status)
        obj = record(puzzle, status, result, result.solution)
        head = f"{puzzle.id}: {status} ({result.time:.3f} s)"
        if result.message:
            head += f": {result.message}"
        lines = [head]
        if result.solution is not None:
            lines.extend(grid_lines(puzzle, result.solution))
        emit(args, obj, lines)
    return tally.finish(args, tally.only("sat"))
