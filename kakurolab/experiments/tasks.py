"""Experiment tasks: what one run does with its puzzle, one record per task.

Each :class:`Task` names itself, says what it measures, and holds the function that runs in
the child; the planner's schema takes the names from :data:`TASKS`, the runner the functions.
The functions call only the public API, importing it lazily (the planner imports this module).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..model import Puzzle, Solution
from ..schema import seconds
from .runs import DEFINITIVE, Row, RunSpec


@dataclass(frozen=True)
class Task:
    """One task an experiment may name (``task = "..."``).

    Examples:
        >>> from kakurolab.experiments import TASKS
        >>> TASKS["unique"].doc
        '...'
    """

    name: str
    run: Callable[[RunSpec], Row]
    """Runs in the child; returns the task's fields of the row."""
    doc: str


def _digest(puzzle: Puzzle, solution: Solution | None) -> str | None:
    if solution is None:
        return None
    text = "\n".join(solution.rows(puzzle)) + "\n" + (solution.answer or "")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _result_fields(puzzle: Puzzle, result: Any, timeout: float) -> Row:
    """The shared record of a :class:`~kakurolab.Result` (``kakurolab.schema``), with the
    rows' extras: re-verification, the grid digest and the formula size."""
    from ..rulebook import solution_problems
    from ..schema import ResultRecord

    status = str(result.status)
    # Out of time: the backend gave up near the limit, or answered too late to count.
    late = result.time > timeout if status in DEFINITIVE else result.time >= 0.9 * timeout
    if status in DEFINITIVE | {"unknown"} and late:
        status = "timeout"
    solution = result.solution
    verified = None
    if solution is not None:
        verified = all(not solution_problems(puzzle, s) for s in result.solutions)
    stats = {k: v for k, v in result.stats.items() if isinstance(v, int | float | str | bool)}
    record = ResultRecord.from_result(result, status).to_json()
    del record["backend"], record["options"]  # the row's spec part has them
    fields: dict[str, Any] = {
        **record,
        "verified": verified,
        "digest": _digest(puzzle, solution),
        "variables": stats.get("variables"),
        "clauses": stats.get("clauses"),
        "stats": stats,
    }
    return cast(Row, fields)  # the shared record's keys are Row fields


def task_solve(spec: RunSpec) -> Row:
    from ..uniqueness import solve

    puzzle = spec.puzzle
    result = solve(puzzle, backend=spec.backend, timeout=spec.soft, **spec.options)
    row = _result_fields(puzzle, result, spec.timeout)
    row["outcome"] = {"sat": f"sat:{row['answer'] or row['digest']}", "unsat": "unsat"}.get(
        row["status"]
    )
    return row


def task_unique(spec: RunSpec) -> Row:
    from ..uniqueness import prove_unique

    puzzle = spec.puzzle
    verdict = prove_unique(puzzle, backend=spec.backend, timeout=spec.soft, **spec.options)
    row = _result_fields(puzzle, verdict.result, spec.timeout)
    row["verdict"] = str(verdict.verdict)
    if row["status"] == "timeout":  # too late, whatever the verdict
        return row
    if row["verdict"] in ("unique", "multiple", "unsat"):
        row["status"] = "unsat" if row["verdict"] == "unsat" else "sat"
        key = row["answer"] or row["digest"] if row["verdict"] == "unique" else ""
        row["outcome"] = f"{row['verdict']}:{key}".rstrip(":")
    elif row["status"] in DEFINITIVE:  # one solution found, uniqueness not proven in time
        row["status"] = "timeout"
    return row


def task_count(spec: RunSpec) -> Row:
    """Count solutions up to ``count_limit`` (None or 0: all of them).

    ``unsat`` needs a proof (the solver exhausted the search with no solution); a count cut
    at the limit is ``sat`` with outcome ``count:N+``, and anything else is unsolved.
    """
    from ..uniqueness import count

    puzzle = spec.puzzle
    limit = spec.count_limit or None
    result = count(puzzle, limit, backend=spec.backend, timeout=spec.soft, **spec.options)
    row = _result_fields(puzzle, result, spec.timeout)
    if row["status"] == "timeout":
        return row
    found = len(result.solutions)
    if result.complete:
        row["status"] = "sat" if found else "unsat"
        row["outcome"] = f"count:{found}"
    elif limit is not None and found >= limit > 0:
        row["status"] = "sat"
        row["outcome"] = f"count:{found}+"
    elif row["status"] in DEFINITIVE:
        row["status"] = "timeout"
    return row


def task_up_only(spec: RunSpec) -> Row:
    """Unit propagation alone on the CNF encoding: how many cells it fixes, no search."""
    from .. import encodings
    from ..proofs import up_fixed_cells

    puzzle = spec.puzzle
    encoding = str(spec.options.get("encoding", encodings.DEFAULT_PRESET))
    start = time.perf_counter()
    fixed, whites = up_fixed_cells(puzzle, encoding)
    total = time.perf_counter() - start
    enc = encodings.encode(puzzle, encoding)  # again, outside the timed part: for its size
    size = enc.stats()
    return {
        "status": "sat" if fixed >= whites else "unknown",
        "outcome": None,
        "fixed_cells": fixed,
        "solved_by_up": fixed >= whites,
        "encode_s": seconds(enc.encode_time),
        "solve_s": seconds(max(0.0, total - enc.encode_time)),
        "time_s": seconds(total),
        "variables": size.get("variables"),
        "clauses": size.get("clauses"),
        "stats": {k: v for k, v in size.items() if isinstance(v, int | float)},
    }


def task_certify(spec: RunSpec) -> Row:
    """Certify uniqueness (DRAT proof) and verify the certificate with every DRAT engine."""
    import tempfile

    from ..proofs import DEFAULT_SOLVER, REFERENCE_ENCODING, certificate_row

    options = spec.options
    with tempfile.TemporaryDirectory() as tmp:
        fields = certificate_row(
            spec.puzzle,
            str(options.get("encoding", REFERENCE_ENCODING)),
            str(options.get("solver", DEFAULT_SOLVER)),
            Path(tmp) / "certificate",
        )
    return cast(Row, fields)  # certificate_row's keys are Row fields


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task("solve", task_solve, "find a solution"),
        Task("unique", task_unique, "prove the solution unique (or find a second one)"),
        Task("count", task_count, "count solutions up to count_limit (0: all of them)"),
        Task("up-only", task_up_only, "cells unit propagation alone fixes on the CNF"),
        Task("certify", task_certify, "certify uniqueness with a DRAT proof, check it"),
    )
}
"""Every task, by name, in the order the docs list them."""
