"""Solving, counting and uniqueness, written once above every backend.

Counting finds a solution, blocks that grid over the cell values only and asks again, so it
counts distinct grids, never distinct encodings of one grid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .backends import Backend, Result, Status, get_backend
from .model import Puzzle, Solution


class Verdict(StrEnum):
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNSAT = "unsat"
    UNKNOWN = "unknown"
    ERROR = "error"


@dataclass
class Uniqueness:
    """The verdict with its witnesses: one solution if unique, two distinct ones if multiple."""

    verdict: Verdict
    result: Result
    solutions: list[Solution] = field(default_factory=list)

    @property
    def differences(self) -> list[tuple[int, int]]:
        if len(self.solutions) < 2:
            return []
        return self.solutions[0].differences(self.solutions[1])


def _backend(backend: str | Backend, options: dict[str, Any]) -> Backend:
    return backend if isinstance(backend, Backend) else get_backend(backend, **options)


def count(
    puzzle: Puzzle,
    limit: int | None = 2,
    *,
    backend: str | Backend = "native",
    timeout: float | None = None,
    **options: Any,
) -> Result:
    """Find up to ``limit`` distinct solutions (all when ``limit`` is None).

    The result's ``complete`` flag tells whether the count is exact (the solver proved there
    are no more) or was cut at the limit or by the timeout.
    """
    solver = _backend(backend, options)
    start = time.perf_counter()
    session = solver.open(puzzle)
    encode_time = session.encode_time
    deadline = None if timeout is None else start + timeout
    solutions: list[Solution] = []
    status = Status.UNKNOWN
    complete = False
    try:
        while limit is None or len(solutions) < limit:
            remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
            status, solution = session.next(remaining)
            if solution is None:
                complete = status is Status.UNSAT
                break
            solutions.append(solution)
            if limit is not None and len(solutions) >= limit:
                break
            session.block(solution)
        stats = session.stats()
    finally:
        session.close()
    if solutions:
        status = Status.SAT
    total = time.perf_counter() - start
    return Result(
        status=status,
        solutions=solutions,
        encode_time=encode_time,
        solve_time=max(0.0, total - encode_time),
        stats=stats,
        backend=solver.name,
        options=solver.describe(),
        complete=complete,
    )


def solve(
    puzzle: Puzzle,
    *,
    backend: str | Backend = "native",
    timeout: float | None = None,
    **options: Any,
) -> Result:
    """One solution, or a proof that there is none."""
    return count(puzzle, 1, backend=backend, timeout=timeout, **options)


def prove_unique(
    puzzle: Puzzle,
    *,
    backend: str | Backend = "native",
    timeout: float | None = None,
    **options: Any,
) -> Uniqueness:
    """Decide whether the puzzle has exactly one solution; two witnesses when it has more."""
    result = count(puzzle, 2, backend=backend, timeout=timeout, **options)
    if len(result.solutions) >= 2:
        verdict = Verdict.MULTIPLE
    elif result.status is Status.ERROR:
        verdict = Verdict.ERROR
    elif len(result.solutions) == 1:
        verdict = Verdict.UNIQUE if result.complete else Verdict.UNKNOWN
    else:
        verdict = Verdict.UNSAT if result.status is Status.UNSAT else Verdict.UNKNOWN
    return Uniqueness(verdict, result, list(result.solutions))
