"""The pysat backend: solvers, options, timeouts, statistics and incremental blocking."""

from __future__ import annotations

import pytest
from _cnf_cases import HAND_MADE_COUNTS, hand_made

from kakurolab.backends import BACKENDS, Status, get_backend
from kakurolab.backends.pysat import PySATBackend, solver_names
from kakurolab.errors import KakuroError, UnknownNameError
from kakurolab.uniqueness import count, prove_unique, solve

# kissat404 is not incremental in PySAT: the session rebuilds it after each blocking clause.
SOLVERS = [
    "cadical195",
    "glucose4",
    "maplechrono",
    "minisat22",
    "lingeling",
    "cadical153",
    "kissat404",
]


def test_registered():
    assert BACKENDS["pysat"] is PySATBackend
    assert set(PySATBackend.accepted_options) == {"encoding", "solver"}


@pytest.mark.parametrize("solver", SOLVERS)
def test_solvers_agree(solver, pe424_puzzles):
    result = solve(pe424_puzzles[0], backend="pysat", solver=solver)
    assert result.solution is not None and result.solution.answer == "8426039571"
    assert result.options["solver"] == solver


@pytest.mark.parametrize("solver", ["cadical195", "kissat404"])
def test_session_releases_the_clauses_it_loaded(solver, pe424_puzzles):
    """An incremental session frees the encoding's clause list once the solver holds it
    (the cyclic GC would walk it otherwise): its statistics still give the formula's sizes,
    writing the released formula is refused, and blocking still works.  Kissat, rebuilt
    after each blocking clause, keeps its clauses."""
    from kakurolab.encodings import encode

    puzzle = pe424_puzzles[0]
    want = encode(puzzle, "fast").stats()
    session = PySATBackend(solver=solver).open(puzzle)
    with session:
        enc = session.inner.enc  # type: ignore[attr-defined]
        status, solution = session.next()
        assert status is Status.SAT and solution is not None
        session.block(solution)
        assert session.next()[0] is Status.UNSAT  # puzzle 1 is unique
        stats = session.stats()
    assert {k: stats[k] for k in want} == want
    if solver == "kissat404":
        assert enc.stats() == want and enc.to_text()
    else:
        assert enc.clauses == [] and enc.stats() == want
        with pytest.raises(KakuroError, match="released"):
            enc.to_text()


def _direct_or_not() -> list[str]:
    from kakurolab.backends.pysat import DIRECT_ADD

    return [*sorted(DIRECT_ADD), "lingeling"]  # lingeling: through ``append_formula``


@pytest.mark.parametrize("solver", _direct_or_not())
def test_loading_clauses_directly_gives_the_same_formula(solver, pe424_puzzles):
    """The solvers of DIRECT_ADD take their clauses straight from PySAT's C extension (the
    others through ``append_formula``): the solver holds as many clauses and finds the same
    answer, and a clause the formula rules out then makes it unsatisfiable."""
    from pysat.solvers import Solver

    from kakurolab.backends.pysat import DIRECT_ADD, _clause_adder, _load, pysat_name
    from kakurolab.encodings import encode

    enc = encode(pe424_puzzles[0], "fast")
    name = pysat_name(solver)
    with Solver(name=name) as direct, Solver(name=name) as plain:
        adder = _clause_adder(direct, solver)
        assert (getattr(adder, "__self__", None) is direct) == (solver not in DIRECT_ADD)
        _load(direct, enc.clauses, solver)
        plain.append_formula(enc.clauses)
        assert direct.nof_clauses() == plain.nof_clauses()
        assert direct.solve() and plain.solve()
        solution = enc.decode(direct.get_model() or [])
        assert solution.answer == "8426039571" == enc.decode(plain.get_model() or []).answer
        _load(direct, [[-lit for lit in enc.solution_lits(solution)]], solver)
        assert direct.solve() is False  # puzzle 1 is unique
        _load(direct, [[1], [-1]], solver)  # refuted while loading: the result is ignored
        assert direct.solve() is False


@pytest.mark.parametrize("solver", SOLVERS)
def test_solvers_count_the_ambiguous_grid(solver):
    result = count(hand_made("ambiguous"), None, backend="pysat", solver=solver)
    assert result.complete and result.n_solutions == HAND_MADE_COUNTS["ambiguous"]


def test_solver_aliases_are_canonicalised():
    assert get_backend("pysat", solver="g4").solver == "glucose4"


def test_unknown_solver_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match=r"pysat solver 'nosat'; known: .*cadical195"):
        get_backend("pysat", solver="nosat")
    assert "minisat22" in solver_names()


def test_unknown_option_and_smt_encoding_are_refused():
    with pytest.raises(KakuroError, match="take option 'colour'; it takes: encoding, solver"):
        get_backend("pysat", colour="red")
    with pytest.raises(UnknownNameError, match="unknown encoding preset"):
        get_backend("pysat", encoding="nosuch")


@pytest.mark.parametrize(
    "spec", ["strong", "table", "naive", "cell=log,sum=pb:bdd", "cell=order,sum=mdd"]
)
@pytest.mark.parametrize("name", sorted(HAND_MADE_COUNTS))
def test_blocking_counts_grids_not_encodings(spec, name):
    """Auxiliary variables must not multiply the count: blocking is over cells only."""
    result = count(hand_made(name), None, backend="pysat", encoding=spec)
    assert result.complete
    assert result.n_solutions == HAND_MADE_COUNTS[name]
    assert len(set(result.solutions)) == result.n_solutions


def test_statistics_and_versions(janko_puzzles):
    result = solve(janko_puzzles[0], backend="pysat", encoding="combo")
    stats = result.stats
    for key in ("conflicts", "decisions", "propagations", "variables", "clauses", "literals"):
        assert key in stats, key
    assert set(stats["versions"]) == {"python-sat", "z3-solver"}
    assert result.options["versions"]["python-sat"] == "1.9.dev24"
    assert stats["encoding"].endswith("sum=combo:full")
    assert result.encode_time > 0


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_timeout_gives_unknown(solver, janko_puzzles):
    """An expired deadline gives UNKNOWN (glucose is interrupted; CaDiCaL is sliced)."""
    result = solve(janko_puzzles[0], backend="pysat", solver=solver, encoding="naive", timeout=1e-9)
    assert result.status is Status.UNKNOWN and not result.complete


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_generous_timeout_still_solves(solver, pe424_puzzles):
    u = prove_unique(pe424_puzzles[1], backend="pysat", solver=solver, timeout=60)
    assert u.verdict == "unique"


def test_lazy_adds_cuts(janko_puzzles):
    result = solve(janko_puzzles[0], backend="pysat", encoding="lazy")
    assert result.solution is not None
    assert result.stats["lazy_cuts"] > 0
    assert result.stats["solve_calls"] > 1


def test_lazy_handles_cryptic_sums(pe424_puzzles):
    u = prove_unique(pe424_puzzles[0], backend="pysat", encoding="lazy")
    assert u.verdict == "unique" and u.solutions[0].answer == "8426039571"


def test_unsat_is_complete():
    result = count(hand_made("unsat"), 2, backend="pysat")
    assert result.status is Status.UNSAT and result.complete


def test_smt_spec_is_refused_by_pysat():
    from kakurolab.encodings import ENCODERS

    name = sorted(ENCODERS["smt"])[0]  # SMT encodings are core: an empty registry fails here
    with pytest.raises(KakuroError, match="needs a CNF encoding"):
        get_backend("pysat", encoding=f"smt={name}")


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_timeout_stops_a_long_search(solver, janko_puzzles):
    """sum=lazy on the largest janko puzzle needs thousands of cuts: the deadline stops it."""
    import time

    puzzle = max(janko_puzzles, key=lambda p: len(p.whites))
    start = time.perf_counter()
    result = solve(puzzle, backend="pysat", solver=solver, encoding="lazy", timeout=0.5)
    assert result.status is Status.UNKNOWN
    assert time.perf_counter() - start < 5


@pytest.mark.bench
@pytest.mark.parametrize(
    ("preset", "suite", "target", "solver"),
    [
        ("presolved", "pe424", 0.5, "cadical195"),
        ("presolved", "janko", 0.2, "cadical195"),
        pytest.param(
            "fast",
            "pe424",
            1.0,  # issue 26's target for pure CNF
            "cadical195",
            marks=pytest.mark.xfail(
                reason="measured 1.19-1.22x cpsat, two at a time on a quiet machine "
                "(2026-12-02): CaDiCaL takes 1.4 ms to load a cryptic puzzle's ~3,300 clauses "
                "(Glucose 0.8 ms), against CP-SAT's whole solve of about 3 ms",
                strict=False,
            ),
        ),
        pytest.param(
            "fast",
            "pe424",
            1.0,
            "minisat22",
            marks=pytest.mark.xfail(
                reason="measured 1.04-1.05x cpsat, two at a time on a quiet machine "
                "(2026-12-02); 0.92-1.0x only beside other PySAT configurations",
                strict=False,
            ),
        ),
        ("fast", "janko", 0.2, "cadical195"),
    ],
)
def test_cnf_preset_meets_target(capsys, preset, suite, target, solver):
    """The issue's targets, as ratios to cpsat timed in the same run."""
    from kakurolab.cli import main

    config = f"pysat:encoding={preset},solver={solver}"
    code = main(
        ["bench", suite, "--config", config, "--reference", "cpsat",
         "--repeat", "3", "--target", f"{config}={target}"]
    )  # fmt: skip
    out = capsys.readouterr().out
    print(out)
    assert code == 0, out


class _SlowingSolver:
    """A stand-in for CaDiCaL that never answers and whose conflicts get slower as its search
    goes on (0.3 ms each for the first 1,000, then 1 ms), as on the 8,780-cell deadline grid."""

    def __init__(self) -> None:
        self.budget = 0
        self.done = 0

    def conf_budget(self, budget: int) -> None:
        self.budget = budget

    def solve_limited(self) -> None:
        import time

        per = 0.0003 if self.done < 1000 else 0.001
        time.sleep(self.budget * per)
        self.done += self.budget


def test_conflict_slices_end_near_the_deadline():
    """CaDiCaL is stopped between conflict-budgeted slices: a slice sized by the last one's
    rate ends near the deadline, where doubling blindly (1,000 then 2,000 conflicts here:
    2.3 s in all) overran it by almost two seconds."""
    import time

    from kakurolab.backends.pysat import solve_until

    start = time.perf_counter()
    answer = solve_until(_SlowingSolver(), start + 0.5, interruptible=False)
    assert answer is None
    assert time.perf_counter() - start < 0.5 + 0.35
