"""The counting layer above the backends: limits, exactness, verdicts and the checker gate.

These tests drive ``kakurolab.uniqueness`` with a tiny exhaustive enumerator written here, so
they exercise the blocking loop itself independently of any real solver.
"""

from __future__ import annotations

import functools
import itertools
from typing import ClassVar

import pytest
from _puzzles import square as two_by_two

from kakurolab.backends import Backend, Session, SolutionCheckError, Status
from kakurolab.formats import loads
from kakurolab.model import Puzzle, Solution
from kakurolab.rulebook import solution_problems
from kakurolab.uniqueness import Verdict, count, prove_unique


def _brute_force(puzzle: Puzzle) -> list[Solution]:
    """Every valid grid, by trying all digit tuples (only for tiny puzzles)."""
    cells = puzzle.whites
    found = []
    for digits in itertools.product(range(1, 10), repeat=len(cells)):
        candidate = Solution(dict(zip(cells, digits, strict=True)))
        if not solution_problems(puzzle, candidate):
            found.append(candidate)
    return found


class _Enumerator(Session):
    def __init__(self, puzzle: Puzzle, corrupt: bool) -> None:
        self.pending = _brute_force(puzzle)
        self.blocked: set[Solution] = set()
        self.corrupt = corrupt

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        if self.corrupt:
            cell = next(iter(self.pending[0].values))
            return Status.SAT, Solution({cell: 9})
        while self.pending:
            solution = self.pending.pop(0)
            if solution not in self.blocked:
                return Status.SAT, solution
        return Status.UNSAT, None

    def block(self, solution: Solution) -> None:
        self.blocked.add(solution)


class EnumeratorBackend(Backend):
    name = "enumerator"
    accepted_options: ClassVar[dict[str, str]] = {"corrupt": "return a broken grid"}

    def _open(self, puzzle: Puzzle) -> Session:
        return _Enumerator(puzzle, self.options.get("corrupt", False))


@pytest.fixture
def square() -> Puzzle:
    """Rows and columns of {1, 3}: the two grids 13/31 and 31/13."""
    return two_by_two((4, 4), (4, 4))


def test_count_all_is_exact(square: Puzzle) -> None:
    expected = _brute_force(square)
    result = count(square, None, backend=EnumeratorBackend())
    assert result.complete
    assert result.n_solutions == len(expected) > 1
    assert set(result.solutions) == set(expected)


def test_count_stops_at_limit(square: Puzzle) -> None:
    result = count(square, 1, backend=EnumeratorBackend())
    assert result.n_solutions == 1 and not result.complete and result.status is Status.SAT


def test_multiple_has_two_distinct_valid_witnesses(square: Puzzle) -> None:
    verdict = prove_unique(square, backend=EnumeratorBackend())
    assert verdict.verdict is Verdict.MULTIPLE
    first, second = verdict.solutions
    assert first != second and verdict.differences
    assert not solution_problems(square, first) and not solution_problems(square, second)


def test_wrong_solution_never_leaves_the_backend(square: Puzzle) -> None:
    with pytest.raises(SolutionCheckError, match="wrong solution"):
        count(square, 1, backend=EnumeratorBackend(corrupt=True))


@pytest.mark.parametrize(
    ("down", "across", "verdict"),
    [
        ((3, 4), (3, 4), Verdict.UNIQUE),
        ((4, 4), (3, 3), Verdict.UNSAT),
        ((4, 4), (4, 4), Verdict.MULTIPLE),
    ],
)
def test_verdict_matches_brute_force(down, across, verdict) -> None:
    puzzle = two_by_two(down, across)
    expected = {0: Verdict.UNSAT, 1: Verdict.UNIQUE}.get(
        len(_brute_force(puzzle)), Verdict.MULTIPLE
    )
    assert expected is verdict
    assert prove_unique(puzzle, backend=EnumeratorBackend()).verdict is verdict


def test_letters_the_puzzle_never_shows_make_the_answer_ambiguous() -> None:
    """Two letters that occur nowhere can swap digits: same grid, two answers -> multiple."""
    # The unique 2x2 grid 21/13 with its sums 3 and 4 written as letters D and E.
    puzzle = loads("3,X,(vD),(vE),(hD),O,O,(hE),O,O\n", format="pe424")[0]
    verdict = prove_unique(puzzle, backend="native")
    assert verdict.verdict is Verdict.MULTIPLE
    first, second = verdict.solutions
    assert dict(first.values) == dict(second.values)
    assert first.answer != second.answer
    assert not solution_problems(puzzle, first) and not solution_problems(puzzle, second)


def test_one_unused_letter_is_determined_by_the_others(pe424_puzzles) -> None:
    """PE424 puzzles leave at most one letter unused: the bijection fixes it, still unique."""
    puzzle = next(p for p in pe424_puzzles if len(p.used_letters) == 9)
    assert prove_unique(puzzle, backend="native").verdict is Verdict.UNIQUE


@functools.cache
def _square_grids(down: tuple[int, int], across: tuple[int, int]) -> frozenset[Solution]:
    """The brute-force grids of one 2x2 square, computed once for every backend."""
    return frozenset(_brute_force(two_by_two(down, across)))


@pytest.mark.parametrize(
    ("down", "across"), [((3, 4), (3, 4)), ((4, 4), (3, 3)), ((10, 10), (10, 10))]
)
def test_every_backend_counts_like_the_brute_force(backend_name: str, down, across) -> None:
    """Each registered backend finds exactly the grids the exhaustive enumeration finds."""
    found = count(two_by_two(down, across), None, backend=backend_name)
    assert found.complete
    assert len(found.solutions) == len(set(found.solutions))
    assert set(found.solutions) == _square_grids(down, across)
