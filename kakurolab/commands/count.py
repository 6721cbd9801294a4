"""``kakuro count``: how many solutions each puzzle has, up to a limit (or all)."""

from __future__ import annotations

import argparse

from ..backends import Result, Status
from ..errors import KakuroError
from ..uniqueness import Verdict, count
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

DEFAULT_LIMIT = 100


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "count", help="count solutions (distinct grids) up to a limit", epilog=exit_help(
            "every count finished (exact, or stopped at --limit) with at least one solution",
            "some puzzle has no solution (unsat: 0 solutions, exact), or the timeout cut a "
            "count short or the solver failed",
        ),
    )
    add_solver_args(parser)
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, metavar="K",
        help=f"stop after K solutions (default {DEFAULT_LIMIT}; 0 = no limit)",
    )
    limit.add_argument("--all", action="store_true", help="count every solution (no limit)")
    parser.add_argument("--show", action="store_true", help="print every grid found")
    parser.add_argument(
        "--exact", action="store_true",
        help="count all solutions with the pyganak model counter over the CNF --encoding "
        "(extra count; projected on cells and letters)",
    )
    parser.set_defaults(func=run)


def count_verdict(result: Result) -> str:
    """The JSON ``verdict``: ``unique``/``unsat`` once the count is exact, ``multiple`` from
    two solutions on, ``error``, else ``unknown`` (cut short before the answer was known)."""
    if result.n_solutions >= 2:
        return Verdict.MULTIPLE.value
    if result.complete:
        return (Verdict.UNIQUE if result.n_solutions == 1 else Verdict.UNSAT).value
    return (Verdict.ERROR if result.status is Status.ERROR else Verdict.UNKNOWN).value


def describe(result: Result, limit: int | None) -> str:
    n = result.n_solutions
    noun = "solution" if n == 1 else "solutions"
    if result.complete:
        return f"{n} {noun} (exact)" if n else "0 solutions (exact): unsat, no solution"
    if limit is not None and n >= limit:
        return f"at least {n} {noun} (stopped at --limit {limit})"
    return f"at least {n} {noun} ({'error' if result.status is Status.ERROR else 'timeout'})"


def run(args: argparse.Namespace) -> int:
    if args.exact:
        from ._cnf_modes import exact

        return exact(args)
    if args.limit < 0:
        raise KakuroError(f"--limit must be 0 (no limit) or positive, got {args.limit}")
    limit = None if args.all or args.limit == 0 else args.limit
    backend = make_backend(args)
    batch, puzzles = puzzles_with_progress(args, "count")
    tally = Tally(backend, batch)
    unfinished = 0  # cut short, or no solution: exit 1 as solve and unique say unsat
    for puzzle in puzzles:
        result = count(puzzle, limit, backend=backend, timeout=args.timeout)
        verdict = count_verdict(result)
        tally.add(verdict)
        reached = result.complete or (limit is not None and result.n_solutions >= limit)
        unfinished += not reached or verdict == Verdict.UNSAT.value
        obj = record(
            puzzle, status_name(result), result, result.solution,
            verdict=verdict, n_solutions=result.n_solutions, complete=result.complete,
            limit=limit,
        )
        if args.show:
            obj["solutions"] = [s.rows(puzzle) for s in result.solutions]
        head = f"{puzzle.id}: {describe(result, limit)} ({result.time:.3f} s)"
        if result.message and not reached:
            head += f": {result.message}"  # the reason, as solve prints it
        lines = [head]
        if args.show:
            for solution in result.solutions:
                lines.extend(grid_lines(puzzle, solution))
                lines.append("")
        emit(args, obj, lines)
    return tally.finish(args, not unfinished)
