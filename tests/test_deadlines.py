"""Every backend stops on time (issue 29): on the 100x100 grid of the issue every backend
answers within its timeout plus one second, including cvc5, whose preprocessing ignores its
own time limit and therefore runs in a child process killed at the deadline."""

from __future__ import annotations

import time

import pytest
from _puzzles import pattern_grid, square

import kakurolab as kl
from kakurolab.backends import BACKENDS, ChildSession, Status, get_backend
from kakurolab.check import solution_problems

TIMEOUT = 1.0
SLACK = 1.0
"""The issue's bound: a backend returns within its timeout plus one second."""

AMBIGUOUS = square((10, 10), (10, 10))  # eight grids


@pytest.fixture(scope="module")
def large_grid() -> kl.Puzzle:
    puzzle = pattern_grid(100)
    assert len(puzzle.whites) == 8780  # the grid the issue measured
    return puzzle


def test_the_large_grid_is_a_valid_puzzle(large_grid: kl.Puzzle) -> None:
    """Its clues are the sums of a filled grid, so a timeout on it is never 'unsat'."""
    from kakurolab.model import Solution

    digits = {(r, c): (2 * r + c) % 9 + 1 for r, c in large_grid.whites}
    assert not solution_problems(large_grid, Solution(digits))


def test_every_backend_stops_within_its_timeout(backend_name: str, large_grid) -> None:
    kl.solve(AMBIGUOUS, backend=backend_name)  # imports outside the timed call
    start = time.perf_counter()
    result = kl.solve(large_grid, backend=backend_name, timeout=TIMEOUT)
    elapsed = time.perf_counter() - start
    assert elapsed < TIMEOUT + SLACK, (result.status, result.message, elapsed)
    if result.status is Status.SAT:  # a fast backend may finish: then it is right
        assert not solution_problems(large_grid, result.solutions[0])
    else:
        assert result.status is Status.UNKNOWN and "timeout" in result.message


def test_backends_that_overrun_their_limit_say_so() -> None:
    """Only backends whose solver ignores its limit pay for a child process."""
    assert not BACKENDS["cvc5"].interruptible
    assert BACKENDS["native"].interruptible


@pytest.mark.skipif(not ChildSession.possible(), reason="no fork on this platform")
def test_a_child_session_counts_and_blocks_like_an_inner_one() -> None:
    """With a deadline, cvc5 runs in a child: the same eight grids come back, each once."""
    if not BACKENDS["cvc5"].available():
        pytest.skip("cvc5 is not installed (pip extra 'cvc5')")
    solver = get_backend("cvc5")
    with solver.open(AMBIGUOUS, deadline=time.perf_counter() + 60) as session:
        assert "ChildSession" in type(session.inner).__name__  # type: ignore[attr-defined]
        found = []
        while (answer := session.next(30))[0] is Status.SAT:
            assert answer[1] is not None
            found.append(answer[1])
            session.block(answer[1])
        assert answer[0] is Status.UNSAT
        assert session.stats()["checks"] == 9
    assert len(set(found)) == len(found) == 8
    assert kl.count(AMBIGUOUS, None, backend="native").n_solutions == 8


@pytest.mark.skipif(not ChildSession.possible(), reason="no fork on this platform")
def test_a_child_session_passes_option_errors_back() -> None:
    if not BACKENDS["cvc5"].available():
        pytest.skip("cvc5 is not installed (pip extra 'cvc5')")
    solver = get_backend("cvc5", params="no-such-option=1")
    with pytest.raises(kl.KakuroError, match="backend 'cvc5': option"):
        solver.open(AMBIGUOUS, deadline=time.perf_counter() + 60)
