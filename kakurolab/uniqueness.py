"""Solving, counting and uniqueness, written once above every backend.

Counting finds a solution, blocks that grid over the cell values only and asks again, so it
counts distinct grids, never distinct encodings of one grid.

A standard puzzle whose white cells form separate areas (janko.at publishes such grids) is
counted area by area: the areas share no run, so the puzzle's solutions are exactly the
combinations of its areas' solutions and its count is the product of theirs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from itertools import islice, permutations, product
from typing import Any

from . import deadline as deadlines
from .backends import Backend, Result, Session, Status, get_backend
from .deadline import EncodingTimeout
from .errors import KakuroError, PuzzleError
from .model import BLOCK, LETTERS, ClueCell, Direction, Puzzle, Solution, Square
from .rulebook import problem_message, structure_problems, white_components


class Verdict(StrEnum):
    """What :func:`prove_unique` found: one solution, several, none, or no answer in time
    (``unknown``) or from a failing solver (``error``).

    Examples:
        >>> kl.prove_unique(puzzle).verdict
        <Verdict.UNIQUE: 'unique'>
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNSAT = "unsat"
    UNKNOWN = "unknown"
    ERROR = "error"


@dataclass
class Uniqueness:
    """The verdict with its witnesses: one solution if unique, two distinct ones if multiple.

    Examples:
        >>> proof = kl.prove_unique(puzzle)
        >>> bool(proof), proof.verdict.value, len(proof.solutions)
        (True, 'unique', 1)
    """

    verdict: Verdict
    result: Result
    solutions: list[Solution] = field(default_factory=list)

    def __bool__(self) -> bool:
        """True only when the puzzle is proved unique: ``if kl.prove_unique(puzzle):`` reads as
        "is it a proper puzzle"; multiple, unsat, unknown (a timeout) and error are false."""
        return self.verdict is Verdict.UNIQUE

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

    Examples:
        >>> from kakurolab.uniqueness import letter_variants
        >>> solution = kl.solve(cryptic).solution
        >>> [v.answer for v in letter_variants(cryptic, solution)]
        ['2561079384']
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


def _checked(
    puzzle: object,
    backend: object,
    timeout: object,
    limit: object = None,
) -> None:
    """The public functions' arguments, checked at the boundary: a wrong type is a
    ``TypeError`` naming the parameter, a puzzle that breaks a rule of Kakuro (no clue on a
    run, an empty grid, ...) a :class:`PuzzleError` (a ``ValueError``), a timeout that is not a
    finite number >= 0 a ``ValueError``.  Solvers never see such a puzzle: they would answer
    ``sat`` for an unclued run."""
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a kakurolab Puzzle, got {type(puzzle).__name__}")
    if not isinstance(backend, str | Backend):
        raise TypeError(
            f"backend must be a backend name or a Backend, got {type(backend).__name__}"
        )
    for name, value in (("timeout", timeout), ("limit", limit)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise TypeError(f"{name} must be a number or None, got {type(value).__name__}")
    if isinstance(limit, float):
        raise TypeError("limit must be a whole number or None, got float")
    if isinstance(timeout, int | float) and not (math.isfinite(timeout) and timeout >= 0):
        raise ValueError(f"timeout must be a finite number of seconds >= 0 or None, got {timeout}")
    problems = _problems(puzzle)
    if problems:
        raise PuzzleError(problem_message(puzzle, list(problems)))


def _limit(limit: int | None) -> int | None:
    """One meaning of a solution limit everywhere (API, CLI ``--limit``, experiments'
    ``count_limit``): None or 0 is no limit, a negative one is a ValueError."""
    if limit is not None and limit < 0:
        raise ValueError(f"count limit must be 0 (no limit) or positive, got {limit}")
    return limit or None


@lru_cache(maxsize=256)
def _problems(puzzle: Puzzle) -> tuple[str, ...]:
    """Cached like :func:`_split`: a bench solves one puzzle many times."""
    return tuple(structure_problems(puzzle))


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

    Examples:
        >>> result = kl.count(puzzle, limit=None)  # None: count every solution
        >>> result.n_solutions, result.complete
        (1, True)
    """
    start = time.perf_counter()  # the timeout covers the checks too (0.7 s on 8,780 cells)
    _checked(puzzle, backend, timeout, limit)
    solver = _backend(backend, options)
    if timeout is not None:
        timeout = max(0.0, timeout - (time.perf_counter() - start))
    return _count(puzzle, limit, solver, timeout)


def _collect(
    session: Session,
    puzzle: Puzzle,
    limit: int | None,
    deadline: float | None,
    solutions: list[Solution],
) -> tuple[Status, bool, str]:
    """Ask ``session`` for grids (blocking each) into ``solutions`` until ``limit``: the last
    status, whether the search ran out (every grid found), and why it stopped otherwise."""
    status = Status.UNKNOWN
    while limit is None or len(solutions) < limit:
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        status, solution = session.next(remaining)
        if solution is None:
            message = ""
            if status is Status.UNKNOWN:  # say why, as an encoding timeout does
                message = session.message or (
                    "timeout while solving" if deadline is not None else "solver gave up"
                )
            elif status is Status.ERROR:
                message = session.message or "solver error"
            return status, status is Status.UNSAT, message
        for variant in letter_variants(puzzle, solution):
            if limit is not None and len(solutions) >= limit:
                break
            solutions.append(variant)
        if limit is not None and len(solutions) >= limit:
            break
        session.block(solution)
    return status, False, ""


def _count(puzzle: Puzzle, limit: int | None, solver: Backend, timeout: float | None) -> Result:
    """:func:`count` on checked arguments (areas of a checked puzzle come here directly)."""
    limit = _limit(limit)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    parts = split_components(puzzle)
    if len(parts) > 1:
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        return _count_parts(parts, limit, solver, remaining)
    try:
        session = solver.open(puzzle, deadline=deadline)
    except EncodingTimeout:
        return _encoding_timeout(solver, time.perf_counter() - start)
    solutions: list[Solution] = []
    with session:
        encode_time = session.encode_time
        if deadline is not None and time.perf_counter() >= deadline:
            return _encoding_timeout(solver, time.perf_counter() - start)
        status, complete, message = _collect(session, puzzle, limit, deadline, solutions)
        with deadlines.deadline(deadline):  # size figures that would overrun are left out
            stats = session.stats()
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
        message=message,
    )


def split_components(puzzle: Puzzle) -> list[Puzzle]:
    """One sub-puzzle per separate white area (the puzzle itself when it is one area).

    Each sub-puzzle keeps the whole grid's shape, so its cells keep their coordinates: the
    other areas' white cells become blocks and their clues are dropped.  Cryptic puzzles are
    never split: one letter-to-digit bijection spans every area (a letter shown in one area
    and a letter clue in another constrain each other), so the areas are not independent.

    Examples:
        >>> from kakurolab.uniqueness import split_components
        >>> [part.id for part in split_components(puzzle)]  # one white area
        ['standard']
    """
    parts = () if puzzle.is_cryptic else _split(puzzle)
    return list(parts) if len(parts) > 1 else [puzzle]  # the caller's object, not the cached


@lru_cache(maxsize=256)
def _split(puzzle: Puzzle) -> tuple[Puzzle, ...]:
    """Cached: counting calls this on every solve, and benches solve one puzzle repeatedly
    (the area search costs ~13 ms on a 990-cell grid, as much as native's whole solve)."""
    areas = white_components(puzzle)
    if len(areas) <= 1:
        return ()
    return tuple(_area_puzzle(puzzle, k, set(cells)) for k, cells in enumerate(areas, 1))


def _area_puzzle(puzzle: Puzzle, k: int, cells: set[tuple[int, int]]) -> Puzzle:
    """The puzzle with only the white cells of one area (and the clues of its runs)."""
    keep = {(run.clue_cell, run.direction) for run in puzzle.runs if run.cells[0] in cells}

    def square(r: int, c: int) -> Square:
        sq = puzzle.grid[r][c]
        if isinstance(sq, ClueCell):
            down = sq.down if ((r, c), Direction.DOWN) in keep else None
            across = sq.across if ((r, c), Direction.ACROSS) in keep else None
            return BLOCK if down is None and across is None else ClueCell(down, across)
        if (r, c) in puzzle.runs_of and (r, c) not in cells:
            return BLOCK
        return sq

    grid = tuple(tuple(square(r, c) for c in range(puzzle.ncols)) for r in range(puzzle.nrows))
    return Puzzle(f"{puzzle.id}#area{k}", grid)


def _count_parts(
    parts: list[Puzzle], limit: int | None, solver: Backend, timeout: float | None
) -> Result:
    """Count each area on its own, then combine: the solutions are the cartesian product
    (cut at ``limit``), an area without solutions leaves the whole without any, and the
    count is exact only when every area's count is."""
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    results: list[Result] = []
    for part in parts:
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        result = _count(part, limit, solver, timeout=remaining)
        results.append(result)
        if not result.solutions:  # unsat (or unknown, error): the rest cannot change that
            break
    stats = _merged_stats(results)
    stats["areas"] = len(parts)
    encode_time = sum(r.encode_time for r in results)
    common: dict[str, Any] = {
        "encode_time": encode_time,
        "solve_time": max(0.0, time.perf_counter() - start - encode_time),
        "stats": stats,
        "backend": solver.name,
        "options": solver.describe(),
    }
    empty = next((r for r in results if not r.solutions), None)
    if empty is not None:
        message = f"area {results.index(empty) + 1}: {empty.message}" if empty.message else ""
        return Result(empty.status, complete=empty.complete, message=message, **common)
    combos = product(*(r.solutions for r in results))
    solutions = [_joined(choice) for choice in islice(combos, limit)]
    total = 1
    for result in results:
        total *= result.n_solutions
    exact = all(r.complete for r in results) and (limit is None or total < limit)
    return Result(Status.SAT, solutions, complete=exact, **common)


def _joined(parts: tuple[Solution, ...]) -> Solution:
    values: dict[tuple[int, int], int] = {}
    for part in parts:
        values.update(part.values)
    return Solution(values)


def _merged_stats(results: list[Result]) -> dict[str, Any]:
    """Numeric statistics summed over the areas; others taken from the first area."""
    merged: dict[str, Any] = {}
    for result in results:
        for key, value in result.stats.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                merged[key] = merged.get(key, 0) + value
            else:
                merged.setdefault(key, value)
    return merged


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
    solutions (None or 0: no limit, as for :func:`count`) or when the solver proves there are
    no more.  ``timeout`` bounds the whole
    iteration, encoding included; running out raises :class:`SolveTimeout` (a
    ``TimeoutError``) rather than ending as if every solution had been seen.  Arguments are
    checked when it is called, not at the first ``next`` (as by :func:`count`).

    Examples:
        >>> [grid.rows(puzzle)[2] for grid in kl.solutions(puzzle, limit=5)]
        ['-5489']
    """
    _checked(puzzle, backend, timeout, limit)
    return _solutions(puzzle, _backend(backend, options), _limit(limit), timeout)


def _solutions(
    puzzle: Puzzle, solver: Backend, limit: int | None, timeout: float | None
) -> Iterator[Solution]:
    """The generator behind :func:`solutions` (its clock starts at the first ``next``)."""
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    found = 0
    try:
        session = solver.open(puzzle, deadline=deadline)
    except EncodingTimeout:
        raise SolveTimeout(puzzle.id, timeout, found) from None
    with session:
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


class SolveTimeout(KakuroError, TimeoutError):
    """The timeout of :func:`solutions` ran out before the solver proved there are no more;
    ``found`` solutions had been yielded.

    Examples:
        >>> issubclass(kl.SolveTimeout, TimeoutError)
        True
    """

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
    """One solution, or a proof that there is none.

    Arguments are checked at the boundary (as by :func:`count`): ``None`` or a wrong type is a
    ``TypeError`` naming the parameter; a puzzle that breaks a rule (an unclued run, an empty
    grid) is a :class:`~kakurolab.errors.PuzzleError`, a ``ValueError``.

    Examples:
        >>> result = kl.solve(puzzle, backend="native")
        >>> result.status, result.solution.values[2, 1]
        (<Status.SAT: 'sat'>, 5)
    """
    return count(puzzle, 1, backend=backend, timeout=timeout, **options)


def prove_unique(
    puzzle: Puzzle,
    *,
    backend: str | Backend = "native",
    timeout: float | None = None,
    **options: Any,
) -> Uniqueness:
    """Decide whether the puzzle has exactly one solution; two witnesses when it has more.

    Examples:
        >>> proof = kl.prove_unique(puzzle, backend="pysat", encoding="strong")
        >>> proof.verdict.value, proof.differences  # two witnesses and their differing cells if not
        ('unique', [])
    """
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
