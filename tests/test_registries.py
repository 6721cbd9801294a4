"""Generic tests every registry entry must pass, one test item per registered name.

The names come from the registries through ``conftest.pytest_generate_tests``: a new backend,
CNF preset, encoding part or SMT encoding runs here without editing this file.  Backends must
solve, prove, count, block, time out and validate options; every encoding must give native's
models on small puzzles.
"""

from __future__ import annotations

import functools
import itertools
import time

import pytest
from _cnf_cases import HAND_MADE_COUNTS, hand_made
from _puzzles import square
from _registries import PARAMETERS, is_core

from kakurolab.backends import BACKENDS, Status, get_backend
from kakurolab.errors import KakuroError
from kakurolab.formats import loads
from kakurolab.model import Puzzle, Solution
from kakurolab.rulebook import solution_problems
from kakurolab.uniqueness import Verdict, count, prove_unique, solve

AMBIGUOUS = square((10, 10), (10, 10))  # b = c, d = a for any a != 5: eight grids
UNSAT = square((3, 5), (3, 4))  # a+b = a+c = 3, c+d = 4 force b = c = 1, a = 2, d = 3: b+d = 4
UNIQUE = square((3, 4), (3, 4))  # the same forcing, consistent this time
LOOSE = loads(  # 4 rows of 4 cells, every run 20: far more grids than any backend finds in
    # 0.3 s (native lists 50,000 in about 2 s; 3 rows of 4 had only 7,200, which a warm
    # native search counted completely in 0.2 s, so the timeout test could pass or fail)
    "id: loose\n   #   20\\  20\\  20\\  20\\\n" + "\\20     .    .    .    .\n" * 4,
    format="kakuro",
)[0]


@functools.cache
def _brute_force(puzzle: Puzzle) -> frozenset[Solution]:
    """Every valid grid, by trying all digit tuples (tiny standard puzzles only)."""
    cells = puzzle.whites
    grids = (
        Solution(dict(zip(cells, digits, strict=True)))
        for digits in itertools.product(range(1, 10), repeat=len(cells))
    )
    return frozenset(g for g in grids if not solution_problems(puzzle, g))


# -- the registries themselves -------------------------------------------------------------


@pytest.mark.parametrize("fixture", sorted(PARAMETERS))
def test_every_registry_is_nonempty_with_unique_names(fixture: str) -> None:
    names = PARAMETERS[fixture]()
    assert names and len(set(names)) == len(names)


def test_backend_fixture_runs_every_registered_name(request, backend_name: str) -> None:
    """The ids are the registry names (the CLI's --backend values)."""
    assert backend_name in BACKENDS
    assert request.node.callspec.id == backend_name
    cls = BACKENDS[backend_name]
    assert cls.name == backend_name and cls.doc
    assert all(doc for doc in cls.accepted_options.values())


def test_core_backends_are_installed(backend_name: str) -> None:
    """The fixture fails a missing core backend; this states the rule on its own."""
    assert BACKENDS[backend_name].available() or not is_core(backend_name)


# -- every backend -----------------------------------------------------------------------


def test_solves_small_standard_puzzles(backend_name: str) -> None:
    result = solve(UNIQUE, backend=backend_name)
    assert result.status is Status.SAT and result.backend == backend_name
    assert result.solution.rows(UNIQUE) == ["---", "-21", "-13"]
    block = hand_made("block")
    assert not solution_problems(block, solve(block, backend=backend_name).solution)


def test_solves_a_cryptic_pe424_puzzle(pe424_puzzles, backend_name: str) -> None:
    puzzle = pe424_puzzles[0]
    proof = prove_unique(puzzle, backend=backend_name)
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0].answer == "8426039571"  # Project Euler's example answer


def test_detects_unsat(backend_name: str) -> None:
    result = solve(UNSAT, backend=backend_name)
    assert result.status is Status.UNSAT and not result and result.complete
    assert prove_unique(UNSAT, backend=backend_name).verdict is Verdict.UNSAT


def test_ambiguous_gives_two_distinct_valid_witnesses(backend_name: str) -> None:
    proof = prove_unique(AMBIGUOUS, backend=backend_name)
    assert proof.verdict is Verdict.MULTIPLE
    first, second = proof.solutions
    assert first != second and proof.differences
    assert not solution_problems(AMBIGUOUS, first)
    assert not solution_problems(AMBIGUOUS, second)


def test_count_with_and_without_limit(backend_name: str) -> None:
    expected = _brute_force(AMBIGUOUS)
    assert len(expected) == 8
    capped = count(AMBIGUOUS, 3, backend=backend_name)
    assert capped.n_solutions == 3 and not capped.complete and set(capped.solutions) <= expected
    exact = count(AMBIGUOUS, None, backend=backend_name)
    assert exact.complete and set(exact.solutions) == expected and exact.n_solutions == 8


def test_blocking_enumerates_each_grid_once(backend_name: str) -> None:
    session = get_backend(backend_name).open(AMBIGUOUS)
    found: list[Solution] = []
    try:
        for _ in range(20):
            status, solution = session.next()
            if status is Status.UNSAT:
                break
            assert status is Status.SAT and solution is not None
            found.append(solution)
            session.block(solution)
    finally:
        session.close()
    assert len(found) == len(set(found)) and set(found) == _brute_force(AMBIGUOUS)


def test_timeout_returns_unknown(pe424_puzzles, backend_name: str) -> None:
    solve(UNIQUE, backend=backend_name)  # imports and warm-up outside the timed calls
    result = solve(pe424_puzzles[99], backend=backend_name, timeout=1e-6)
    assert result.status is Status.UNKNOWN and not result.complete
    start = time.perf_counter()
    cut = count(LOOSE, None, backend=backend_name, timeout=0.3)
    elapsed = time.perf_counter() - start
    assert not cut.complete and elapsed < 5, (cut.status, elapsed)
    assert cut.message == "timeout while solving"
    assert all(not solution_problems(LOOSE, s) for s in cut.solutions)


def test_options_are_validated(backend_name: str) -> None:
    with pytest.raises(KakuroError, match=f"backend '{backend_name}' does not take option"):
        get_backend(backend_name, no_such_option=1)
    with pytest.raises(KakuroError) as error:
        get_backend(backend_name, **{"no.such.parameter": 1})
    assert "\n" not in str(error.value)


# -- every CNF preset and encoding part, and every SMT encoding --------------------------


def _agrees_with_native(puzzle: Puzzle, backend: str, **options: str) -> None:
    found = count(puzzle, None, backend=backend, **options)
    native = count(puzzle, None, backend="native")
    assert found.complete and native.complete
    assert set(found.solutions) == set(native.solutions), puzzle.id


@pytest.mark.parametrize("case", sorted(HAND_MADE_COUNTS))
def test_cnf_preset_models_agree_with_native(cnf_preset: str, case: str) -> None:
    _agrees_with_native(hand_made(case), "pysat", encoding=cnf_preset)


def test_cnf_preset_solves_a_cryptic_puzzle(pe424_puzzles, cnf_preset: str) -> None:
    puzzle = pe424_puzzles[0]
    proof = prove_unique(puzzle, backend="pysat", encoding=cnf_preset)
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions == prove_unique(puzzle, backend="native").solutions


def test_encoding_part_models_agree_with_native(pe424_puzzles, encoding_spec: str) -> None:
    for case in ("ambiguous", "unsat", "block"):
        _agrees_with_native(hand_made(case), "pysat", encoding=encoding_spec)
    puzzle = pe424_puzzles[0]
    proof = prove_unique(puzzle, backend="pysat", encoding=encoding_spec)
    assert proof.solutions == prove_unique(puzzle, backend="native").solutions


@pytest.mark.parametrize("case", sorted(HAND_MADE_COUNTS))
def test_smt_encoding_models_agree_with_native(smt_encoding: str, case: str) -> None:
    _agrees_with_native(hand_made(case), "z3", encoding=f"smt={smt_encoding}")


def test_smt_encoding_solves_a_cryptic_puzzle(pe424_puzzles, smt_encoding: str) -> None:
    puzzle = pe424_puzzles[0]
    proof = prove_unique(puzzle, backend="z3", encoding=f"smt={smt_encoding}")
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions == prove_unique(puzzle, backend="native").solutions
