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
from .deadline import EncodingTimeout
from .errors import KakuroError
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
    """Find up to ``limit`` distinct solutions (all when ``limit`` is None).

    The result's ``complete`` flag tells whether the count is exact (the solver proved there
    are no more) or was cut at the limit or by the timeout.
    """
    solver = _backend(backend, options)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    try:
        session = solver.open(puzzle, deadline=deadline)
    except EncodingTimeout:
        return _encoding_timeout(solver, time.perf_counter() - start)
    encode_time = session.encode_time
    if deadline is not None and time.perf_counter() >= deadline:
        session.close()
        return _encoding_timeout(solver, time.perf_counter() - start)
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


def _encoding_timeout(solver: Backend, elapsed: float) -> Result:
    """The answer when the timeout ran out before the formula was built: unknown, on time."""
    return Result(
        status=Status.UNKNOWN,
        encode_time=elapsed,
        backend=solver.name,
        options=solver.describe(),
        message="timeout while encoding",
    )


def solutions(
    puzzle: Puzzle,
    *,
    backend: str | Backend = "native",
    limit: int | None = None,
    timeout: float | None = None,
    **options: Any,
) -> Iterator[Solution]:
    """The puzzle's distinct solutions, found one at a time as the caller asks for them.

    A generator over one solver session: find a grid, yield it, block it, search again, so
    ``next(kl.solutions(p))`` costs one solve and a ``for`` loop may stop whenever it likes
    (closing or dropping the generator closes the session).  It ends after ``limit``
    solutions or when the solver proves there are no more.  ``timeout`` bounds the whole
    iteration, encoding included; running out raises :class:`SolveTimeout` (a
    ``TimeoutError``) rather than ending as if every solution had been seen.
    """
    if limit is not None and limit <= 0:
        return
    solver = _backend(backend, options)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    found = 0
    try:
        session = solver.open(puzzle, deadline=deadline)
    except EncodingTimeout:
        raise SolveTimeout(puzzle.id, timeout, found) from None
    try:
        while True:
            remaining = None if deadline is None else deadline - time.perf_counter()
            if remaining is not None and remaining <= 0:
                raise SolveTimeout(puzzle.id, timeout, found)
            status, solution = session.next(remaining)
            if solution is None:
                if status is Status.UNSAT:
                    return
                if status is Status.UNKNOWN:
                    raise SolveTimeout(puzzle.id, timeout, found)
                raise KakuroError(
                    f"backend {solver.name!r} failed on puzzle {puzzle.id} after {found} "
                    f"solution(s) (status {status})"
                )
            for variant in letter_variants(puzzle, solution):
                yield variant
                found += 1
                if limit is not None and found >= limit:
                    return
            session.block(solution)
    finally:
        session.close()


class SolveTimeout(KakuroError, TimeoutError):
    """The timeout of :func:`solutions` ran out before the solver proved there are no more;
    ``found`` solutions had been yielded."""

    def __init__(self, puzzle_id: str, timeout: float | None, found: int) -> None:
        self.puzzle_id, self.timeout, self.found = puzzle_id, timeout, found
        after = "" if timeout is None else f" after {timeout:g} s"
        super().__init__(
            f"puzzle {puzzle_id}: timeout{after} with {found} solution(s) found "
            "and more not ruled out"
        )

    def __reduce__(self) -> tuple[type, tuple[str, float | None, int]]:
        return type(self), (self.puzzle_id, self.timeout, self.found)


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
