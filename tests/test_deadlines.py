"""Every backend stops on time (issue 29): on the 100x100 grid of the issue every backend
answers within its timeout plus one second, including cvc5, whose preprocessing ignores its
own time limit and therefore runs in a child process killed at the deadline."""

from __future__ import annotations

import time

import pytest
from _puzzles import pattern_grid, square

import kakurolab as kl
from kakurolab.backends import BACKENDS, ChildSession, Status, get_backend
from kakurolab.rulebook import solution_problems

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
    """The better of two tries: on a loaded 2-core machine a process may get a tenth of a
    core for a second (native once took 2.005 s there); a backend that ignores its limit
    (cvc5 took 26 s) fails both."""
    kl.solve(AMBIGUOUS, backend=backend_name)  # imports outside the timed call
    tries = []
    for _ in range(2):
        start = time.perf_counter()
        result = kl.solve(large_grid, backend=backend_name, timeout=TIMEOUT)
        tries.append(time.perf_counter() - start)
        if tries[-1] < TIMEOUT + SLACK:
            break
    assert min(tries) < TIMEOUT + SLACK, (result.status, result.message, tries)
    if result.status is Status.SAT:  # a fast backend may finish: then it is right
        assert not solution_problems(large_grid, result.solutions[0])
    else:
        assert result.status is Status.UNKNOWN and "timeout" in result.message


def test_only_puzzles_a_solver_overruns_pay_for_a_child(large_grid) -> None:
    """A child costs about 0.1 s a session: CP-SAT keeps small puzzles in process."""
    small = square((3, 4), (3, 4))
    assert get_backend("native").overruns_from is None
    if BACKENDS["cvc5"].available():
        assert get_backend("cvc5").overruns(large_grid)
        assert not get_backend("cvc5").overruns(small)
    assert get_backend("native").overruns(large_grid) is False
    if BACKENDS["cpsat"].available():
        assert get_backend("cpsat").overruns(large_grid)
        assert not get_backend("cpsat").overruns(small)


@pytest.mark.skipif(not ChildSession.possible(), reason="no fork on this platform")
def test_a_child_session_counts_and_blocks_like_an_inner_one() -> None:
    """With a deadline, cvc5 runs in a child: the same eight grids come back, each once."""
    if not BACKENDS["cvc5"].available():
        pytest.skip("cvc5 is not installed (pip extra 'cvc5')")
    solver = get_backend("cvc5")
    with ChildSession(solver, AMBIGUOUS, time.perf_counter() + 60) as session:
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
        ChildSession(solver, AMBIGUOUS, time.perf_counter() + 60)


# --- the deduction commands stop on time ------------------------------------------------------


def _timed(call):  # type: ignore[no-untyped-def]
    """The call's value and wall seconds; run once more when it overshot, as the backends'
    test does, since a core shared with the other tests can stall a run past the slack (an
    explain on a busy core once took 2.58 s); one that ignores its deadline fails both."""
    for _ in range(2):
        start = time.perf_counter()
        value = call()
        elapsed = time.perf_counter() - start
        if elapsed < TIMEOUT + SLACK:
            break
    return value, elapsed


def test_hint_explain_and_grade_stop_at_their_deadline(large_grid) -> None:
    """On the 100x100 grid each ran 20-120 s (hint on a 60x60 pattern grid: over 300 s)."""
    from kakurolab.deadline import DeadlinePassed
    from kakurolab.logic import explain_puzzle, next_hint
    from kakurolab.logic.grading import grade

    hint, elapsed = _timed(lambda: next_hint(large_grid, timeout=TIMEOUT))
    assert elapsed < TIMEOUT + SLACK and hint.step is None and hint.timeout == TIMEOUT
    assert "timeout" in hint.text() and hint.to_json()["status"] == "unknown"
    result, elapsed = _timed(lambda: explain_puzzle(large_grid, timeout=TIMEOUT))
    assert elapsed < TIMEOUT + SLACK and result.timed_out and not result.solved
    assert result.summary().startswith("timeout after 1 s")
    start = time.perf_counter()
    with pytest.raises(DeadlinePassed, match="timeout after 1 s"):
        grade(large_grid, timeout=TIMEOUT)
    assert time.perf_counter() - start < TIMEOUT + SLACK


def test_certify_stops_at_its_deadline(large_grid) -> None:
    from kakurolab.proofs import certify
    from kakurolab.uniqueness import Verdict

    cert, elapsed = _timed(lambda: certify(large_grid, timeout=TIMEOUT))
    assert elapsed < TIMEOUT + SLACK, elapsed
    assert cert.verdict is Verdict.UNKNOWN and cert.timeout == TIMEOUT


def test_a_deadline_leaves_small_puzzles_alone() -> None:
    """A generous deadline changes nothing: the same steps as without one."""
    from kakurolab.logic import deduce
    from kakurolab.proofs import certify

    puzzle = square((3, 4), (3, 4))
    assert deduce(puzzle, timeout=30).steps == deduce(puzzle).steps
    assert deduce(puzzle, timeout=30).solved and not deduce(puzzle, timeout=30).timed_out
    assert certify(puzzle, timeout=30).verdict == "unique"


@pytest.mark.parametrize("command", ["hint", "explain", "grade", "certify"])
def test_every_long_command_takes_a_timeout(command, tmp_path, capsys) -> None:
    """``--timeout`` ends in a "timeout" answer (status unknown, exit 1), as for solve."""
    import json

    from kakurolab.cli import main
    from kakurolab.formats import dumps

    path = tmp_path / "p60.kakuro"
    path.write_text(dumps([pattern_grid(60)], "kakuro"))
    extra = ["-o", str(tmp_path / "certs")] if command == "certify" else []
    start = time.perf_counter()
    code = main([command, str(path), "--timeout", "0.5", "--json", *extra])
    assert time.perf_counter() - start < 0.5 + 5  # loading a 60x60 file is part of it
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1 and rows[-1]["status"] == "unknown" and "timeout" in rows[-1]["message"]


def test_a_deduction_that_breaks_a_rule_is_no_solution() -> None:
    """Deduction filled this grid, column 3 then summed to 4 against its clue 5, and explain
    and grade called it solved: now that is a contradiction (the puzzle has no solution)."""
    from kakurolab.logic import Contradiction, deduce

    unsat = square((3, 5), (3, 4))
    assert kl.solve(unsat).status is Status.UNSAT
    with pytest.raises(Contradiction, match="breaks a rule"):
        deduce(unsat)


# --- hint on a 60x60 grid within 5 s (issue 29) -------------------------------------------------

HINT_60_TARGET_S = 5.0
"""Issue 29: hint on a 60x60 answers within 5 s (a quiet machine; the bench test checks it)."""
HINT_60_BOUND_S = 30.0
"""The default suite's generous bound (2 shared cores under a full parallel load)."""


def _hint_60(kind: str) -> tuple[object, float, dict | None]:
    from _puzzles import tiled_bank_grid

    from kakurolab.logic import next_hint

    if kind == "pattern":
        puzzle, solution = pattern_grid(60), None
    else:
        puzzle, solution = tiled_bank_grid()
    hint, elapsed = _timed(lambda: next_hint(puzzle))
    return hint, elapsed, solution


def _check_hint_60(kind: str, hint, solution) -> None:  # type: ignore[no-untyped-def]
    """The pattern grid has no hint: the answer says so (not a timeout); the tiled bank grid
    gets a hint whose digits are the bank's verified solution."""
    assert hint.timeout is None
    if solution is None:
        assert hint.step is None and "no technique finds anything" in hint.text()
    else:
        assert hint.step is not None and hint.step.placements
        assert all(solution[c] == d for c, d in hint.step.placements.items())


@pytest.mark.parametrize("kind", ["pattern", "tiled"])
def test_hint_on_a_60x60_answers(kind) -> None:
    """On a unique 60x60 (tiled from the bank) and on the pattern grid, which has none."""
    hint, elapsed, solution = _hint_60(kind)
    _check_hint_60(kind, hint, solution)
    assert elapsed < HINT_60_BOUND_S, elapsed


@pytest.mark.bench
@pytest.mark.parametrize("kind", ["pattern", "tiled"])
def test_bench_hint_on_a_60x60_within_5_s(kind, tmp_path) -> None:
    """The command as a user runs it (start-up, reading the file, the hint), best of three."""
    import subprocess
    import sys

    from _puzzles import tiled_bank_grid

    from kakurolab.formats import dumps

    puzzle = pattern_grid(60) if kind == "pattern" else tiled_bank_grid()[0]
    path = tmp_path / "p60.kakuro"
    path.write_text(dumps([puzzle], "kakuro"))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "kakurolab", "hint", str(path)], capture_output=True, text=True
        )
        times.append(time.perf_counter() - start)
        assert done.returncode == 0, done.stderr
    print(f"hint on 60x60 {kind}: best {min(times):.2f} s of {[round(t, 2) for t in times]}")
    assert min(times) < HINT_60_TARGET_S


def test_work_in_a_child_is_stopped_at_its_deadline() -> None:
    """deadline.in_child: the answer when the work ends in time, None (the child killed) when
    it does not, and the child's exception raised again here."""
    from kakurolab.deadline import in_child

    assert in_child(lambda: sum(range(10)), time.perf_counter() + 30) == 45
    start = time.perf_counter()
    assert in_child(lambda: time.sleep(60), time.perf_counter() + 0.3) is None
    assert time.perf_counter() - start < 0.3 + SLACK
    with pytest.raises(ZeroDivisionError):
        in_child(lambda: 1 // 0, time.perf_counter() + 30)


@pytest.mark.parametrize(
    ("per_cell", "starts", "timeout"), [(0.0, True, 4.0), (1.0, False, TIMEOUT)]
)
def test_local_search_starts_only_when_its_flow_can_end_before_the_deadline(
    large_grid, monkeypatch, per_cell: float, starts: bool, timeout: float
) -> None:
    """Native's portfolio starts local search, whose flow start (0.9 s on this grid) cannot
    look at the clock, only when its estimate (``local.start_seconds``) still fits before
    the deadline: it was what ran a 1 s timeout to 2.6 s under load.  Where it must start,
    the deadline leaves room for the root propagation before it even on a busy machine (a
    1 s one was spent before local search's turn in a suite run at load 8)."""
    from kakurolab.propagation import local

    flows = []
    flow_start = local.flow_start
    monkeypatch.setattr(local, "START_SECONDS_PER_CELL", per_cell)
    monkeypatch.setattr(local, "flow_start", lambda *args: flows.append(1) or flow_start(*args))
    result = kl.solve(large_grid, backend="native", timeout=timeout)
    assert bool(flows) is starts
    assert result.status in (Status.SAT, Status.UNKNOWN)
