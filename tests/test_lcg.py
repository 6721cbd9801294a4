"""The ``lcg`` backend: CaDiCaL with the Kakuro run propagator (kakurolab/backends/lcg.py).

The generic backend tests (tests/test_registries.py, the cross-checks, the CLI tests) run on
``lcg`` from the registry; here are the parts only it has: every explanation and conflict
clause the engine gives CaDiCaL is implied by the puzzle's exact encoding (checked by a second
solver, MiniSat, on the ``fast`` CNF: the encoding plus the clause's negation is UNSAT),
counts agree with native's on puzzles that need search, the options, the model check and the
timeout.
"""

from __future__ import annotations

import random
import time

import pytest
from _puzzles import clued_lines, square

from kakurolab import datasets, formats
from kakurolab.backends import Status, get_backend
from kakurolab.encodings import encode
from kakurolab.errors import KakuroError
from kakurolab.model import LETTERS, Puzzle
from kakurolab.uniqueness import count

HARD = datasets.DATA_DIR / "hard"


def _hard(name: str, member: str) -> Puzzle:
    return formats.load(HARD / f"{name}.txt", select=[member])[0]


def _random_puzzle(seed: int, rows: int = 5, cols: int = 6) -> Puzzle:
    """A random numeric puzzle clued from a random fill: at least that solution, often more."""
    rng = random.Random(seed)
    grid = [[r > 0 and c > 0 and rng.random() < 0.75 for c in range(cols)] for r in range(rows)]
    fill: dict[tuple[int, int], int] = {}
    for r in range(rows):
        for c in range(cols):
            if grid[r][c]:
                used = set()
                for dr, dc in ((0, 1), (1, 0)):
                    rr, cc = r - dr, c - dc
                    while grid[rr][cc]:
                        used.add(fill[(rr, cc)])
                        rr, cc = rr - dr, cc - dc
                fill[(r, c)] = rng.choice([d for d in range(1, 10) if d not in used])
    lines = clued_lines(grid, fill)
    return formats.loads(f"{rows} {cols}\n" + "\n".join(lines) + "\n", check=False)[0]


def _open(puzzle: Puzzle, **options: str):  # type: ignore[no-untyped-def]
    """An lcg session (unchecked: the test reads its engine) with the clause log on."""
    from kakurolab.backends.lcg import LcgSession

    session = LcgSession(puzzle, options.get("alldiff", "pairwise"), options.get("pre", "none"))
    assert session.engine is not None
    session.engine.log = []
    return session


def _to_exact(session, enc) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """The lcg base's variables -> the same facts' variables in the exact encoding (0 for a
    digit the encoding leaves out of a cell's domain: false in all its models)."""
    cnf = session.cnf
    out: dict[int, int] = {}
    for slot, row in enumerate(cnf.var_of):
        for i, v in enumerate(row):
            if not v:
                continue
            if slot < cnf.n_cells:
                cell = cnf.puzzle.whites[slot]
                out[v] = enc.cells.eq(cell, i + 1) if i + 1 in enc.cells.allowed[cell] else 0
            else:
                out[v] = enc.pool.obj2id[("letter", LETTERS[slot - cnf.n_cells], i)]
    return out


def _check_clauses(puzzle: Puzzle, session, cap: int = 1500) -> int:  # type: ignore[no-untyped-def]
    """Assert each logged clause is implied by the exact ``fast`` encoding (MiniSat: the
    encoding with the clause's literals assumed false is UNSAT); the number checked."""
    from pysat.solvers import Solver

    enc = encode(puzzle, "fast")
    to_exact = _to_exact(session, enc)
    clauses = session.engine.log
    assert clauses, "the engine explained nothing: the test would prove nothing"
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as checker:
        for clause in clauses[:cap]:
            if any(lit < 0 and not to_exact[-lit] for lit in clause):
                continue  # a literal true in every model of the encoding: implied
            negated = [-to_exact[lit] if lit > 0 else to_exact[-lit] for lit in clause]
            negated = [lit for lit in negated if lit]  # false facts, dropped
            assert not checker.solve(assumptions=negated), f"unsound explanation {clause}"
    return min(len(clauses), cap)


SEARCHED = [
    ("random-3", lambda: _random_puzzle(3)),
    ("random-11", lambda: _random_puzzle(11, rows=6, cols=7)),
    ("unsat-10x10", lambda: _hard("unsat", "unsat-10x10-s1")),
    ("ambiguous-10x10", lambda: _hard("ambiguous", "ambiguous-10x10-s1")),
    ("cryptic-10x10", lambda: _hard("cryptic", "1")),
    ("pe424-1", lambda: formats.load(datasets.PE424, select=["1"])[0]),
]


@pytest.mark.parametrize("alldiff", ["pairwise", "none"])
@pytest.mark.parametrize(("name", "make"), SEARCHED, ids=[name for name, _ in SEARCHED])
def test_every_explanation_is_implied_by_the_exact_encoding(name, make, alldiff) -> None:  # type: ignore[no-untyped-def]
    """Counting with every digit open (``pre=none``) makes the engine do all the run
    reasoning, so it explains hundreds of propagations and conflicts; each one alone must
    follow from the puzzle (and says nothing about the blocking clauses)."""
    puzzle = make()
    session = _open(puzzle, alldiff=alldiff)
    try:
        for _ in range(30):
            status, solution = session.next()
            if status is not Status.SAT:
                break
            assert solution is not None
            session.block(solution)
        checked = _check_clauses(puzzle, session)
        assert checked >= 10
    finally:
        session.close()


def _grids(puzzle: Puzzle, backend: str) -> set[tuple[int, ...]]:
    result = count(puzzle, None, backend=backend)
    assert result.complete
    return {tuple(s.values[cell] for cell in puzzle.whites) for s in result.solutions}


@pytest.mark.parametrize("seed", [1, 3, 5, 11, 17])
@pytest.mark.parametrize("config", ["lcg", "lcg:pre=none", "lcg:alldiff=none,pre=none"])
def test_counts_match_native_on_random_puzzles(seed: int, config: str) -> None:
    """Every grid once: the same set of grids as native's enumeration (blocking clauses on
    a solver that keeps its learned explanations between calls)."""
    puzzle = _random_puzzle(seed, rows=6, cols=6)
    expected = _grids(puzzle, "native")
    assert _grids(puzzle, config) == expected


def test_counts_match_native_on_a_many_solution_square() -> None:
    puzzle = square((10, 10), (10, 10))
    assert _grids(puzzle, "lcg:pre=none") == _grids(puzzle, "native")
    assert len(_grids(puzzle, "lcg")) > 2


@pytest.mark.parametrize("pre", ["root", "none"])
def test_cryptic_puzzles_solve_with_their_letters(pre: str) -> None:
    """A cryptic puzzle's letters come back with the grid (the rule checker reads both),
    and the uniqueness verdict is native's."""
    puzzle = _hard("cryptic", "2")
    result = count(puzzle, 2, backend=f"lcg:pre={pre}")
    native = count(puzzle, 2, backend="native")
    assert result.complete and result.n_solutions == native.n_solutions == 1
    assert result.solution is not None and native.solution is not None
    assert result.solution.letters == native.solution.letters


def test_the_engine_propagates_and_explains_during_search() -> None:
    """With every digit open the run reasoning is the engine's: it propagates literals,
    CaDiCaL asks it for reasons, and the counts it keeps show it."""
    result = count(_hard("unsat", "unsat-10x10-s1"), 2, backend="lcg:pre=none")
    assert result.status is Status.UNSAT
    assert result.stats["propagated"] > 0 and result.stats["reasons"] > 0
    assert result.stats["notifications"] > result.stats["propagate_calls"] > 0


def test_a_wrong_model_is_refused_with_a_clause_it_falsifies() -> None:
    """The model check guards the run constraints: a complete assignment that breaks a run
    is refused, and the clause handed back excludes it."""
    session = _open(square((4, 6), (3, 7)))
    engine = session.engine
    cnf = session.cnf
    # Rows right (2+1, 3+4), the first column not (2+3 against 4).
    wrong = {(1, 1): 2, (1, 2): 1, (2, 1): 3, (2, 2): 4}
    true = {cnf.var_of[i][wrong[cell] - 1] for i, cell in enumerate(cnf.puzzle.whites)}
    model = [v if v in true else -v for v in range(1, cnf.n_vars + 1)]
    assert not engine.check_model(model)
    clause = engine.add_clause()
    assert clause and all(-lit in model for lit in clause)
    right = {(1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4}
    true = {cnf.var_of[i][right[cell] - 1] for i, cell in enumerate(cnf.puzzle.whites)}
    assert engine.check_model([v if v in true else -v for v in range(1, cnf.n_vars + 1)])
    session.close()


def test_a_settled_root_answers_its_grid_without_a_solver() -> None:
    """A published puzzle the root fixpoint decides: its grid, then nothing more."""
    puzzle = formats.load(datasets.JANKO_DEV, select=["1_10x12"])[0]
    result = count(puzzle, 2, backend="lcg")
    assert result.complete and result.n_solutions == 1
    assert result.stats["open_cells"] == 0 and result.stats["solve_calls"] == 0
    assert result.solution == count(puzzle, 2, backend="native").solution


def test_a_refuted_root_answers_unsat_without_a_solver() -> None:
    puzzle = _hard("loose-unsat", "loose-unsat-20x20-s1")
    session = get_backend("lcg").open(puzzle)
    assert session.next()[0] is Status.UNSAT


def test_timeout_answers_unknown_in_time() -> None:
    """CaDiCaL cannot be interrupted: the session solves in conflict slices and stops at
    the deadline (a loose 40x40 grid that lcg does not solve in seconds)."""
    puzzle = _hard("loose", "loose-40x40-s1")
    start = time.perf_counter()
    result = count(puzzle, 2, backend="lcg", timeout=1.0)
    elapsed = time.perf_counter() - start
    assert result.status is Status.UNKNOWN or result.n_solutions == 2
    assert elapsed < 3.0


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(KakuroError, match="alldiff must be one of"):
        get_backend("lcg", alldiff="sometimes")
    with pytest.raises(KakuroError, match="pre must be one of"):
        get_backend("lcg:pre=probe")
    with pytest.raises(KakuroError, match="does not take option"):
        get_backend("lcg", solver="glucose4")


# Benchmarks (run with -m bench): issue 48's targets for lcg against CP-SAT (1 worker).
@pytest.mark.bench
@pytest.mark.parametrize(("suite", "target"), [("pe424", 1.0), ("janko", 0.2)])
def test_lcg_meets_its_target(capsys, suite: str, target: float) -> None:  # type: ignore[no-untyped-def]
    from kakurolab.cli import main

    code = main(["bench", suite, "--config", "lcg", "--reference", "cpsat", "--repeat", "3",
                 "--target", f"lcg={target}"])
    out = capsys.readouterr().out
    print(out)
    assert code == 0, out
