"""Solving, counting and uniqueness, written once above every backend.

Counting finds a solution, blocks that grid over the cell values only and asks again, so it
counts distinct grids, never distinct encodings of one grid.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import permutations
from typing import Any

from .backends import Backend, Result, Status, get_backend
from .model import LETTERS, Puzzle, Solution


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

    @property
    def letter_differences(self) -> list[str]:
        """Letters whose digits differ between the two witnesses (cryptic puzzles)."""
        if len(self.solutions) < 2:
            return []
        first, second = self.solutions[0].letters, self.solutions[1].letters
        return sorted(ch for ch in set(first) | set(second) if first.get(ch) != second.get(ch))


def letter_variants(puzzle: Puzzle, solution: Solution) -> Iterator[Solution]:
    """The solutions that share one grid: itself, plus, when two or more letters occur nowhere
    in the puzzle, every other way to give those letters the digits left over.

    Backends block grids (cell values only), so a grid is found once; but a cryptic answer names
    all ten letters, and letters the puzzle never shows are then not determined by the grid.
    """
    yield solution
    unused = [ch for ch in LETTERS if ch not in puzzle.used_letters]
    if not puzzle.is_cryptic or len(unused) < 2 or len(solution.letters) != len(LETTERS):
        return
    found = tuple(solution.letters[ch] for ch in unused)
    for digits in permutations(sorted(found)):
        if digits != found:
            yield Solution(
                solution.values, {**solution.letters, **dict(zip(unused, digits, strict=True))}
            )


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
    """Find up to ``limit`` distinct solutions (all when ``limit`` is None or 0, as the CLI's
    ``--limit 0``; a negative limit is a ValueError).

    The result's ``complete`` flag tells whether the count is exact (the solver proved there
    are no more) or was cut at the limit or by the timeout.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"count limit must be 0 (no limit) or positive, got {limit}")
    limit = limit or None
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
            for variant in letter_variants(puzzle, solution):
                if limit is not None and len(solutions) >= limit:
                    break
                solutions.append(variant)
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
