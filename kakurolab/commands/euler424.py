"""``kakuro euler424``: Project Euler 424 -- each cryptic puzzle's answer and their sum."""

from __future__ import annotations

import argparse
import time

from ..errors import KakuroError
from ..uniqueness import solve
from ._common import emit_json
from ._solving import (
    Tally,
    add_solver_args,
    emit,
    exit_help,
    make_backend,
    puzzles_with_progress,
    record,
    status_name,
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "euler424",
        help="Project Euler 424: the answer (letters A..J as digits) of each puzzle, and the sum",
        epilog=exit_help(
            "every puzzle has an answer", "some puzzle is unsat, timed out or failed"
        )
        + '; under --json the last line is {"answer_sum": ..., "puzzles": ...}',
    )
    add_solver_args(parser, many=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args)
    batch, iterable = puzzles_with_progress(args, "euler424")
    puzzles = batch.puzzles
    plain = [p.id for p in puzzles if not p.is_cryptic]
    if plain:
        raise KakuroError(
            f"puzzle {plain[0]} is not cryptic: euler424 answers are the digits of letters A-J"
        )
    start = time.perf_counter()
    tally = Tally(backend, batch)
    total = 0
    missing = 0
    for puzzle in iterable:
        result = solve(puzzle, backend=backend, timeout=args.timeout)
        status = status_name(result)
        tally.add(status)
        answer = result.solution.answer if result.solution is not None else None
        if answer is None:
            missing += 1
        else:
            total += int(answer)
        obj = record(puzzle, status, result, result.solution)
        emit(args, obj, [f"{puzzle.id}: {answer or status}"])
    missing += len(batch.invalid)  # an invalid puzzle has no answer: the sum is incomplete
    suffix = f" (incomplete: {missing} puzzle(s) without an answer)" if missing else ""
    if args.json:
        emit_json({
            "answer_sum": total, "puzzles": len(batch.entries),
            "answered": len(batch.entries) - missing,
            "time_s": round(time.perf_counter() - start, 6), "backend": backend.name,
        })
    else:
        print(f"sum: {total}{suffix}")
    return tally.finish(args, not missing)
