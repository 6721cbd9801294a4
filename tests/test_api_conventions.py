"""The library fits its ecosystem: results are falsy without a solution (as PySAT's and CPMpy's
``solve`` answers are), solutions come lazily, a CNF encoding is a ``pysat.formula.CNF``,
errors are the standard exceptions they mean, backend options reach the solver, a timeout
covers encoding, and exported files work in the tools they are written for."""

from __future__ import annotations

import ast
import gc
import os
import re
import time
from pathlib import Path

import pytest
from _cnf_cases import hand_made
from _puzzles import square
from _tools import cvc5_answers

import kakurolab as kl
from kakurolab.backends import BACKENDS, Backend, Config, Result, Status, get_backend
from kakurolab.cli import main
from kakurolab.encodings import encode
from kakurolab.encodings.cnf import CNFEncoding, key_text
from kakurolab.errors import (
    FormatError,
    KakuroError,
    KakuroFileNotFoundError,
    OptionError,
    PuzzleError,
    UnknownNameError,
)
from kakurolab.formats import loads

UNSAT = square((3, 3), (3, 4))


@pytest.fixture(scope="module")
def largest_janko(janko_puzzles):
    return max(janko_puzzles, key=lambda p: len(p.whites))


# --- Result truthiness -------------------------------------------------------------------------


def test_result_is_truthy_only_with_a_solution(pe424_puzzles) -> None:
    assert kl.solve(pe424_puzzles[0])
    unsat = kl.solve(UNSAT, backend="pysat")
    assert unsat.status is Status.UNSAT and not unsat
    assert not Result(Status.UNKNOWN) and not Result(Status.ERROR)
    counted = kl.count(hand_made("ambiguous"), None, backend="pysat")
    assert counted and counted.n_solutions == 8


def test_a_timeout_result_is_falsy(largest_janko) -> None:
    result = kl.solve(largest_janko, backend="pysat", encoding="naive", timeout=0.01)
    assert result.status is Status.UNKNOWN and not result


def test_uniqueness_is_truthy_only_when_unique(pe424_puzzles) -> None:
    """``if kl.prove_unique(p):`` means "proved unique": multiple, unsat and unknown are false."""
    unique = kl.prove_unique(pe424_puzzles[0])
    assert unique.verdict is kl.Verdict.UNIQUE and unique
    multiple = kl.prove_unique(hand_made("ambiguous"), backend="pysat")
    assert multiple.verdict is kl.Verdict.MULTIPLE and not multiple
    unsat = kl.prove_unique(UNSAT, backend="pysat")
    assert unsat.verdict is kl.Verdict.UNSAT and not unsat
    assert not kl.Uniqueness(kl.Verdict.UNKNOWN, Result(Status.UNKNOWN))
    assert not kl.Uniqueness(kl.Verdict.ERROR, Result(Status.ERROR))


def test_dir_shows_only_the_api() -> None:
    shown = set(dir(kl))
    assert set(kl.__all__) <= shown
    assert not shown & {"TYPE_CHECKING", "annotations", "import_module", "_API"}
    assert all(not name.startswith("_") or name == "__version__" for name in shown)
    for name in shown:  # everything listed is really there
        getattr(kl, name)


# --- kl.solutions: lazy iteration ------------------------------------------------------------


@pytest.mark.parametrize("backend", ["native", "pysat", "z3", "cpsat"])
def test_solutions_yields_every_grid_once(backend) -> None:
    puzzle = hand_made("block")
    grids = list(kl.solutions(puzzle, backend=backend))
    assert len(grids) == kl.count(puzzle, None, backend="native").n_solutions == 15
    assert len({tuple(sorted(s.values.items())) for s in grids}) == 15
    assert all(not kl.solution_problems(puzzle, s) for s in grids)


def test_solutions_limit_and_unsat() -> None:
    assert len(list(kl.solutions(hand_made("block"), limit=4))) == 4
    assert list(kl.solutions(UNSAT, backend="pysat")) == []
    # one meaning of a limit everywhere (issue 19 item 1): 0 is no limit, negative refused
    assert len(list(kl.solutions(hand_made("block"), limit=0))) == 15
    with pytest.raises(ValueError, match="0 \\(no limit\\) or positive"):
        kl.solutions(hand_made("block"), limit=-1)


def test_solutions_expand_letter_variants_like_count(pe424_puzzles) -> None:
    puzzle = next(p for p in pe424_puzzles if p.is_cryptic)
    lazily = list(kl.solutions(puzzle, backend="pysat", limit=50))
    counted = kl.count(puzzle, 50, backend="native")
    assert sorted(s.answer for s in lazily) == sorted(s.answer for s in counted.solutions)


class _Spy(Backend):
    """pysat behind a wrapper that records how many of its sessions are still open."""

    name = "spy"
    open_sessions = 0

    def __init__(self) -> None:
        super().__init__()
        self.inner = get_backend("pysat")

    def _open(self, puzzle):
        session = self.inner._open(puzzle)
        spy = type(self)
        spy.open_sessions += 1
        close = session.close

        def closing() -> None:
            spy.open_sessions -= 1
            close()

        session.close = closing  # type: ignore[method-assign]
        return session


def test_solutions_is_lazy_and_closes_its_session() -> None:
    puzzle = hand_made("block")
    backend = _Spy()
    gen = kl.solutions(puzzle, backend=backend)
    assert _Spy.open_sessions == 0  # nothing runs before the first next()
    first = next(gen)
    assert _Spy.open_sessions == 1 and not kl.solution_problems(puzzle, first)
    gen.close()
    assert _Spy.open_sessions == 0
    gen = kl.solutions(puzzle, backend=backend)
    next(gen)
    del gen
    gc.collect()
    assert _Spy.open_sessions == 0
    for _ in kl.solutions(puzzle, backend=backend):
        break
    gc.collect()
    assert _Spy.open_sessions == 0
    assert len(list(kl.solutions(puzzle, backend=backend))) == 15
    assert _Spy.open_sessions == 0


def test_solutions_timeout_raises_instead_of_ending_quietly(largest_janko) -> None:
    gen = kl.solutions(largest_janko, backend="z3", encoding="smt=bv", timeout=0.02)
    with pytest.raises(kl.SolveTimeout, match=r"timeout after 0\.02 s") as info:
        next(gen)
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, KakuroError)
    assert info.value.found == 0


# --- Encoding.to_cnf ---------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["fast", "naive", "cell=log,sum=pb:bdd"])
def test_to_cnf_is_a_pysat_cnf(spec, pe424_puzzles) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    puzzle = pe424_puzzles[1]
    enc = encode(puzzle, spec)
    cnf = enc.to_cnf()
    assert isinstance(cnf, CNF)
    assert cnf.nv == enc.n_vars and cnf.clauses == enc.clauses
    assert cnf.clauses is not enc.clauses  # a copy: changing it leaves the encoding alone
    assert cnf.to_dimacs() + "\n" == enc.to_text()
    with Solver(name="minisat22", bootstrap_with=cnf) as solver:
        assert solver.solve()
        solution = enc.decode(solver.get_model())
    assert solution.answer == kl.solve(puzzle).solution.answer


def test_smt_encodings_have_no_cnf(pe424_puzzles) -> None:
    with pytest.raises(KakuroError, match="not CNF"):
        encode(pe424_puzzles[0], "smt=lia").to_cnf()


# --- errors are the standard exceptions they mean --------------------------------------------


def test_missing_file_is_file_not_found(tmp_path) -> None:
    missing = tmp_path / "nope.txt"
    with pytest.raises(FileNotFoundError) as info:
        kl.load(missing)
    err = info.value
    assert isinstance(err, KakuroError) and isinstance(err, KakuroFileNotFoundError)
    assert str(err) == f"{missing}: no such file"
    assert err.filename == str(missing) and err.errno == 2


def test_errors_subclass_value_and_key_error() -> None:
    with pytest.raises(ValueError, match="unknown cell"):
        loads("#  what\n", format="kakuro")
    assert issubclass(FormatError, ValueError) and issubclass(PuzzleError, ValueError)
    with pytest.raises(KeyError) as info:
        get_backend("nosuch")
    assert isinstance(info.value, UnknownNameError)
    assert str(info.value) == "unknown backend 'nosuch'; known: " + ", ".join(sorted(BACKENDS))
    with pytest.raises(ValueError, match="impossible") as info:
        loads("id: bad\n   #   3\\  4\\\n \\45    .   .\n", format="kakuro")  # 45 in 2 cells
    assert isinstance(info.value, PuzzleError)


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("cpsat:bogus=1", TypeError),  # an unknown option, as an unexpected keyword argument
        ("native:node_limit=-3", ValueError),
        ("native:search=sideways", ValueError),
        ("cpsat:num_workers=-1", ValueError),
        ("z3:sat.no_such_parameter=1", TypeError),
        ("z3:sat.random_seed=abc", ValueError),
        ("pysat:encoding", ValueError),  # a malformed configuration
    ],
)
def test_option_errors_are_standard_exceptions(spec, kind) -> None:
    with pytest.raises(kind) as info:
        Config.parse(spec).backend()
    assert isinstance(info.value, OptionError) and isinstance(info.value, KakuroError)
    assert "\n" not in str(info.value)


def test_option_errors_through_get_backend() -> None:
    with pytest.raises(TypeError, match="does not take option 'bogus'"):
        get_backend("native", bogus=1)
    with pytest.raises(ValueError, match="node_limit"):
        get_backend("native", node_limit="abc")


def test_errors_survive_pickling(tmp_path) -> None:
    """Worker processes hand errors back pickled: each comes back with its message."""
    import pickle

    errors = [
        KakuroFileNotFoundError(tmp_path / "x"),
        UnknownNameError("backend", "nosuch", ["a", "b"], hint=" (did you mean a?)"),
        kl.SolveTimeout("p1", 0.5, 3),
        FormatError("bad", line=3),
    ]
    for err in errors:
        again = pickle.loads(pickle.dumps(err))
        assert type(again) is type(err) and str(again) == str(err)


def test_cli_reports_the_new_errors_in_one_line(tmp_path, capsys) -> None:
    assert main(["info", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert err == f"kakuro: error: {tmp_path / 'nope.txt'}: no such file\n"
    assert main(["solve", str(tmp_path / "x.txt"), "--backend", "nosuch"]) == 2
    assert "'unknown backend" not in capsys.readouterr().err  # no KeyError quotes


FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
LIBRARY = Path(kl.__file__).parent
FLAG_MESSAGES_LEFT: set[str] = set()
"""Modules allowed to name CLI flags in their messages (none left)."""


def _raised_messages(source: str) -> list[str]:
    """The string constants inside ``raise`` statements and ``problems.append`` calls."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "problems"
        ):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found.append(sub.value)
    return found


def test_library_messages_name_no_cli_flags() -> None:
    offenders = []
    for path in sorted(LIBRARY.rglob("*.py")):
        rel = path.relative_to(LIBRARY).as_posix()
        if rel.startswith("commands/") or rel == "cli.py" or rel in FLAG_MESSAGES_LEFT:
            continue
        messages = _raised_messages(path.read_text(encoding="utf-8"))
        offenders += [f"{rel}: {m!r}" for m in messages if FLAG.search(m)]
    assert offenders == []


def test_the_flag_scan_finds_flags() -> None:
    source = 'raise KakuroError(f"{n} puzzles (use --select ID)")\nproblems.append("see --help")\n'
    assert [m for m in _raised_messages(source) if FLAG.search(m)] == [
        " puzzles (use --select ID)",
        "see --help",
    ]
    assert not FLAG.search("cell r1c1 -- or a range 1--9")


# --- backend options reach the solver ----------------------------------------------------------


def test_cpsat_takes_any_sat_parameter(pe424_puzzles) -> None:
    puzzle = pe424_puzzles[0]
    backend = get_backend("cpsat", search_branching="fixed_search", linearization_level="2")
    assert backend.parameters["linearization_level"] == 2
    assert kl.solve(puzzle, backend=backend).solution.answer == "8426039571"
    # a parameter that changes the outcome shows it reached CP-SAT
    assert kl.solve(puzzle, backend="cpsat", stop_after_presolve=True).status is Status.UNKNOWN
    repeated = get_backend("cpsat", subsolvers="default_lp,no_lp", num_workers=2)
    assert repeated.parameters["subsolvers"] == ["default_lp", "no_lp"]
    assert kl.solve(puzzle, backend=repeated).solution.answer == "8426039571"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"linearisation_level": 2}, "did you mean linearization_level"),
        ({"search_branching": "sideways"}, "must be one of AUTOMATIC_SEARCH"),
        ({"log_search_progress": "maybe"}, "must be true or false"),
        ({"num_workers": -1}, "should be in"),
    ],
)
def test_cpsat_refuses_bad_parameters_in_one_line(options, message) -> None:
    with pytest.raises(KakuroError, match=message) as info:
        get_backend("cpsat", **options)
    assert "\n" not in str(info.value)


def test_z3_takes_dotted_parameters(pe424_puzzles) -> None:
    puzzle = pe424_puzzles[0]
    seeded = kl.solve(puzzle, backend="z3", **{"sat.random_seed": 3})
    assert seeded.solution.answer == "8426039571"
    lia = kl.solve(puzzle, backend="z3", encoding="smt=lia", **{"smt.arith.solver": 6})
    assert lia.solution.answer == "8426039571"
    # a conflict budget of zero shows the parameter reached the solver
    assert kl.solve(puzzle, backend="z3", **{"sat.max_conflicts": 0}).status is Status.UNKNOWN
    capped = kl.solve(puzzle, backend="z3", encoding="smt=lia", **{"smt.max_conflicts": 0})
    assert capped.status is Status.UNKNOWN


def test_z3_refuses_unknown_dotted_parameters(capfd) -> None:
    with pytest.raises(KakuroError, match=r"does not take option 'smt\.bogus'") as info:
        get_backend("z3", **{"smt.bogus": 1})
    assert "\n" not in str(info.value)
    with pytest.raises(KakuroError, match="random_seed") as info:
        get_backend("z3", **{"sat.random_seed": "abc"})
    assert "\n" not in str(info.value)
    with pytest.raises(KakuroError, match=r"unknown parameter 'sat\.random_seed'"):
        get_backend("z3", logic="ALL", **{"sat.random_seed": 3})  # not a SAT-core solver
    assert "Legal parameters" not in capfd.readouterr().out  # z3's own listing stays quiet


def test_pysat_takes_every_solver_name_pysat_does(pe424_puzzles) -> None:
    from pysat.solvers import SolverNames

    from kakurolab.backends.pysat import check_solver

    for canonical, aliases in vars(SolverNames).items():
        if isinstance(aliases, tuple):
            assert check_solver(canonical) == canonical
            assert {check_solver(alias) for alias in aliases} == {canonical}
    result = kl.solve(pe424_puzzles[0], backend="pysat", solver="cryptosat")
    assert result.solution.answer == "8426039571"


def test_pysat_refuses_unknown_solvers_naming_the_real_ones() -> None:
    with pytest.raises(UnknownNameError) as info:
        get_backend("pysat", solver="cryptominisat9")
    text = str(info.value)
    assert "cadical195" in text and "cryptosat" in text and "did you mean" in text
    assert "\n" not in text


def test_config_parse_keeps_open_options_apart() -> None:
    config = Config.parse("z3:encoding=smt=bv,logic=QF_FD,sat.random_seed=3")
    assert dict(config.options) == {"encoding": "smt=bv", "logic": "QF_FD", "sat.random_seed": 3}
    assert config.backend().params["sat.random_seed"] == 3
    config = Config.parse("cpsat:linearization_level=2,num_workers=1")
    assert dict(config.options) == {"linearization_level": 2, "num_workers": 1}


def test_cli_option_reaches_cpsat(pe424_path, capsys) -> None:
    args = ["solve", str(pe424_path), "--select", "1", "--backend", "cpsat"]
    assert main([*args, "--option", "stop_after_presolve=true"]) == 1
    assert main([*args, "--option", "linearization_level=2"]) == 0
    capsys.readouterr()
    assert main([*args, "--option", "linearisation_level=2"]) == 2
    assert "did you mean linearization_level" in capsys.readouterr().err


# --- the timeout covers encoding -------------------------------------------------------------


@pytest.mark.parametrize(
    ("backend", "options"),
    [("pysat", {"encoding": "naive"}), ("z3", {"encoding": "smt=bv"}), ("cvc5", {})],
)
def test_timeout_covers_encoding(backend, options, largest_janko) -> None:
    solver = get_backend(backend, **options)  # imports happen here, outside the timing
    encodings = []
    for _ in range(3):
        with solver.open(largest_janko) as session:
            encodings.append(session.encode_time)
    # A fifth of this machine's quickest encoding: a fixed 0.05 s once fell 0.1 ms short of
    # cvc5's encoding on a loaded CI machine, and a fifth of the first (cold, > 0.38 s) encoding
    # still let a warm one (0.077 s) finish in time; the timeout then ran out while solving.
    timeout = min(encodings) / 5
    start = time.perf_counter()
    result = kl.count(largest_janko, 2, backend=solver, timeout=timeout)
    elapsed = time.perf_counter() - start
    assert result.status is Status.UNKNOWN and not result.solutions
    assert "encoding" in result.message
    assert elapsed < timeout + 2.0
    verdict = kl.prove_unique(largest_janko, backend=solver, timeout=timeout)
    assert verdict.verdict == "unknown"


# --- exported files work in the tools they are for --------------------------------------------


def test_cvc5_reads_and_solves_the_default_smt_export(pe424_path, tmp_path, capsys) -> None:
    out = tmp_path / "p1.smt2"
    args = ["encode", str(pe424_path), "--select", "1", "--encoding", "smt", "-o", str(out)]
    assert main(args) == 0
    text = out.read_text()
    assert "(set-logic QF_BV)" in text
    answers = cvc5_answers(text)
    assert answers[0] == "sat"
    values = dict(re.findall(r"\(define-fun (\w+) \(\) \(_ BitVec 4\) #b([01]{4})\)", answers[1]))
    letters = "".join(str(int(values[ch], 2)) for ch in "ABCDEFGHIJ")
    assert letters == "8426039571"
    assert cvc5_answers(encode(UNSAT, "smt").to_text())[0] == "unsat"


def test_qf_fd_is_declared_only_on_request(pe424_puzzles) -> None:
    on_request = encode(pe424_puzzles[0], "smt=bv,logic=QF_FD,declare=solver")
    assert "(set-logic QF_FD)" in on_request.to_text()
    assert "(set-logic QF_LIA)" in encode(pe424_puzzles[0], "smt=lia,logic=QF_FD").to_text()
    assert encode(pe424_puzzles[0], "smt").logic == "QF_FD"  # z3 still solves it there


def _show_line(text: str) -> list[int]:
    lines = [line for line in text.splitlines() if line.startswith("c p show ")]
    assert len(lines) == 1
    numbers = [int(tok) for tok in lines[0].split()[3:]]
    assert numbers[-1] == 0
    return numbers[:-1]


def _projected_count(text: str) -> int:
    """Distinct assignments of the file's projection variables over all models (PySAT)."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    show = _show_line(text)
    cnf = CNF(from_string=text)
    count = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            true = set(lit for lit in model if lit > 0)
            count += 1
            solver.add_clause([-v if v in true else v for v in show])
    return count


@pytest.mark.parametrize("spec", ["naive", "fast", "cell=log,sum=pb:bdd", "cell=order,sum=table"])
@pytest.mark.parametrize("name", ["ambiguous", "block", "unsat"])
def test_dimacs_projection_counts_grids(spec, name) -> None:
    puzzle = hand_made(name)
    enc = encode(puzzle, spec)
    assert isinstance(enc, CNFEncoding)
    text = enc.to_text()
    show = _show_line(text)
    assert show == enc.grid_vars
    own = {v for cell in puzzle.whites for v in enc.cells.own_vars(cell)}
    assert set(show) == own
    expected = kl.count(puzzle, None, backend="native").n_solutions
    assert _projected_count(text) == expected


def test_dimacs_projection_counts_cryptic_grids_with_pyganak(pe424_puzzles) -> None:
    import pyganak

    puzzle = pe424_puzzles[0]
    text = encode(puzzle, "naive").to_text()
    counter = pyganak.Counter()
    from pysat.formula import CNF

    cnf = CNF(from_string=text)
    counter.new_vars(cnf.nv)
    counter.add_clauses(cnf.clauses)
    counter.set_sampling_set(_show_line(text))
    assert int(counter.count()) == kl.count(puzzle, None, backend="native").n_solutions


def test_variable_map_names_cells_like_the_cli(pe424_puzzles) -> None:
    puzzle = pe424_puzzles[0]
    enc = encode(puzzle, "compact")
    r, c = puzzle.whites[0]
    assert key_text(("cell", r, c, 5)) == f"cell r{r + 1}c{c + 1} 5"
    lines = enc.to_text().splitlines()
    assert any(line.startswith("c var ") and f" bit r{r + 1}c{c + 1} 0" in line for line in lines)
    assert not any(re.match(r"c var \d+ (cell|ge|bit) \d", line) for line in lines)


@pytest.mark.parametrize("command", ["encode", "convert"])
def test_written_files_get_normal_permissions(command, pe424_path, tmp_path, capsys) -> None:
    out = tmp_path / "out.file"
    extra = ["--to", "kakuro"] if command == "convert" else []
    old = os.umask(0o022)
    try:
        assert main([command, str(pe424_path), "--select", "1", *extra, "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644
