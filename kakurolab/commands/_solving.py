"""What the solving commands (solve, unique, count, euler424) share: backend arguments, the
per-puzzle record, its text form, the summary line and the exit code.

Exit codes follow one rule: 0 when every puzzle got the answer the command asks for (solve and
euler424: a solution; unique: ``unique``; count: a count not cut short by the timeout), 1
otherwise, 2 for user errors (bad input, unknown backend, an option the backend does not take).
An invalid puzzle in a collection is bad input too: every valid puzzle still runs, the invalid
one gets its one-line error (status ``invalid`` under --json) and the exit code is 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from ..backends import BACKENDS, Backend, Config, Result, Status, coerce
from ..errors import KakuroError
from ..model import Puzzle, Solution
from ..schema import ResultRecord
from ._common import (
    MAX_SECONDS,
    Batch,
    add_puzzle_args,
    emit_json,
    positive_float,
    progress,
    solution_rows,
)


def exit_help(ok: str, not_ok: str) -> str:
    """The ``--help`` epilog stating a command's exit codes."""
    return f"exit status: 0 when {ok}, 1 when {not_ok}, 2 for bad input or options"


def add_solver_args(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """PUZZLES and the puzzle options, plus --backend, --timeout, --option, --encoding, --solver."""
    add_puzzle_args(parser, many=many)
    names = ", ".join(sorted(BACKENDS)) or "none registered"
    parser.add_argument(
        "--backend",
        default="native",
        metavar="NAME",
        help=f"solver backend (default: native; registered: {names})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float("--timeout", MAX_SECONDS),
        metavar="S",
        help="time limit per puzzle in seconds (above 0, at most a week)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="backend option (repeatable), e.g. num_workers=2",
    )
    parser.add_argument("--encoding", metavar="SPEC", help="encoding spec (backends taking one)")
    parser.add_argument("--solver", metavar="NAME", help="inner solver (backends taking one)")


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise KakuroError(f"--option expects KEY=VALUE, got {item!r}")
        options[key.strip()] = coerce(value.strip())
    for key in ("encoding", "solver"):
        if getattr(args, key, None) is not None:
            options[key] = getattr(args, key)
    return options


def make_backend(args: argparse.Namespace) -> Backend:
    """The backend the arguments ask for, refusing what it cannot do in one line."""
    return Config(args.backend, backend_options(args)).backend()


def puzzles_with_progress(args: argparse.Namespace, desc: str) -> tuple[Batch, Iterable[Puzzle]]:
    """The command's batch and its valid puzzles under a progress bar (invalid ones are
    reported in their place as the loop passes them)."""
    batch = Batch.load(args)
    return batch, progress(batch, total=len(batch), desc=desc)


def status_name(result: Result) -> str:
    """The JSON ``status`` (docs/json.md): a :class:`Status` value, ``sat`` once a grid is
    found (``unknown`` means the time ran out or the run was interrupted)."""
    return Status.SAT.value if result.solution is not None else Status(result.status).value


def record(
    puzzle: Puzzle, status: str, result: Result, solution: Solution | None, **extra: Any
) -> dict[str, Any]:
    """The JSON object of one puzzle (also what the text output is rendered from)."""
    obj: dict[str, Any] = {"id": puzzle.id, "status": status}
    obj.update(extra)
    obj["solution"] = solution_rows(puzzle, solution)
    if puzzle.is_cryptic:
        obj["answer"] = solution.answer if solution is not None else None
    shared = ResultRecord.from_result(result, status).to_json()
    for key in ("time_s", "encode_s", "solve_s", "backend", "options", "stats"):
        obj[key] = shared[key]
    if result.message:
        obj["message"] = result.message
    return obj


def grid_lines(puzzle: Puzzle, solution: Solution, indent: str = "  ") -> Iterator[str]:
    if puzzle.is_cryptic and solution.answer:
        yield f"{indent}answer {solution.answer}"
    for row in solution.rows(puzzle):
        yield indent + row


class Tally:
    """Counts statuses and total time; renders the final summary line."""

    def __init__(self, backend: Backend, batch: Batch | None = None) -> None:
        self.backend = backend
        self.batch = batch
        self.statuses: Counter[str] = Counter()
        self.start = time.perf_counter()

    def add(self, status: str) -> None:
        self.statuses[status] += 1

    def summary(self) -> str:
        statuses = Counter(self.statuses)
        if self.batch is not None and self.batch.invalid:
            statuses["invalid"] = len(self.batch.invalid)
        n = sum(statuses.values())
        parts = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        elapsed = time.perf_counter() - self.start
        return f"{n} puzzle(s): {parts or 'none'} in {elapsed:.3f} s [{self.backend.name}]"

    def only(self, *wanted: str) -> bool:
        """Whether every puzzle so far ended with one of these statuses."""
        return set(self.statuses) <= set(wanted)

    def finish(self, args: argparse.Namespace, ok: bool) -> int:
        """Print the summary (stderr under --json, so stdout stays one object a line); the exit
        code (2 when the batch held an invalid puzzle)."""
        code = 0 if ok else 1
        if self.batch is not None:
            code = self.batch.exit_code(code)
        print(self.summary(), file=sys.stderr if args.json else sys.stdout)
        return code


def emit(args: argparse.Namespace, obj: dict[str, Any], text: Iterable[str]) -> None:
    if args.json:
        emit_json(obj)
    else:
        for line in text:
            print(line, flush=True)
