"""The ``dimacs`` backend: outside SAT solver programs, believed only when their model checks.

The real solvers (Debian's cadical, minisat, cryptominisat5, picosat) must agree with the
native backend; fake solvers (small Python scripts) that answer wrongly, garble their output,
crash, hang or eat memory must come back as error or timeout results, never as answers.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from _puzzles import square

import kakurolab as kl
from kakurolab.backends import BACKENDS, Status, get_backend
from kakurolab.backends.dimacs import (
    CONVENTIONS,
    SolverError,
    check_model,
    find_program,
    read_answer,
)
from kakurolab.cli import main
from kakurolab.errors import KakuroError

DATA = Path(__file__).parent / "data"
REAL = ["cadical", "minisat", "cryptominisat5", "picosat", "kissat", "glucose"]


@pytest.fixture
def tiny_path() -> Path:
    return DATA / "tiny.kakuro"


@pytest.fixture
def tiny(tiny_path: Path) -> kl.Puzzle:
    return kl.load(tiny_path)[0]


def _solver(name: str) -> str:
    if find_program(name) is None:
        if name == "glucose":
            pytest.skip("glucose has no Debian package or maintained wheel; install it by hand")
        where = "the test extra installs passagemath-kissat" if name == "kissat" else ".ci/run"
        pytest.fail(f"{name} is not on PATH ({where} installs it)")
    return name


def test_kissat_comes_from_its_wheel() -> None:
    """Debian has no kissat: the passagemath-kissat wheel (in the test extra) ships it."""
    program = find_program("kissat")
    assert program is not None
    assert get_backend("dimacs:cmd=kissat").command.words[0] == program


def test_every_known_solver_is_tested() -> None:
    assert sorted(REAL) == sorted(CONVENTIONS)


@pytest.mark.parametrize("name", REAL)
def test_real_solver_agrees_with_native(name: str, tiny, pe424_puzzles) -> None:
    backend = get_backend(f"dimacs:cmd={_solver(name)}")
    for puzzle in (tiny, pe424_puzzles[0]):
        ours = kl.prove_unique(puzzle, backend="native")
        theirs = kl.prove_unique(puzzle, backend=backend)
        assert theirs.verdict == ours.verdict == kl.Verdict.UNIQUE
        assert theirs.solutions[0] == ours.solutions[0]
        assert theirs.result.stats["solve_calls"] == 2  # one to solve, one to refute a second


@pytest.mark.parametrize("name", ["cadical", "minisat"])
def test_counting_blocks_and_runs_again(name: str) -> None:
    """A puzzle with several solutions: every grid is found once, as native counts."""
    loose = square((10, 10), (10, 10))
    ours = kl.count(loose, 0, backend="native")
    theirs = kl.count(loose, 0, backend=f"dimacs:cmd={_solver(name)}")
    assert ours.complete and theirs.complete and len(ours.solutions) > 2
    assert sorted(map(str, theirs.solutions)) == sorted(map(str, ours.solutions))
    assert theirs.stats["solve_calls"] == len(ours.solutions) + 1


def test_lazy_encoding_adds_cuts(tiny) -> None:
    result = kl.solve(tiny, backend=f"dimacs:cmd={_solver('cadical')},encoding=sum=lazy")
    assert result.status is Status.SAT and result.solution == kl.solve(tiny).solution


def test_unsat_puzzle() -> None:
    broken = square((3, 3), (4, 4))  # columns need {1, 2}, rows {1, 3}: only 1 fits, twice
    assert kl.solve(broken, backend="native").status is Status.UNSAT
    assert kl.solve(broken, backend=f"dimacs:cmd={_solver('cadical')}").status is Status.UNSAT


# ---------------------------------------------------------------- fake solvers

FAKES = {
    # every variable false: breaks the clauses that ask for a digit
    "wrong-model": (
        "print('s SATISFIABLE'); print('v ' + ' '.join(f'-{v}' for v in range(1, nv + 1)) + ' 0');"
        " sys.exit(10)"
    ),
    "garbage": "print('s SATISFIABLE'); print('v 1 2 banana 0'); sys.exit(10)",
    "no-model": "print('s SATISFIABLE'); sys.exit(10)",
    "wrong-code": "print('s UNSATISFIABLE'); sys.exit(10)",
    "chatter": "print('hello world'); sys.exit(0)",
    "crash": "sys.stderr.write('segfault, honest\\n'); os.abort()",
    "silent": "sys.exit(0)",
    "out-of-range": "print('s SATISFIABLE'); print(f'v {nv + 5} 0'); sys.exit(10)",
}
"""name -> body of a fake solver; ``nv`` is the formula's variable count from its header."""

PRELUDE = """\
import os, sys, time
cnf = sys.argv[1]
nv = int(next(line for line in open(cnf) if line.startswith('p')).split()[2])
"""


def _fake(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake_solver.py"
    script.write_text(PRELUDE + body + "\n")
    return f"{sys.executable} {script} {{cnf}}"


@pytest.mark.parametrize("name", sorted(FAKES))
def test_a_misbehaving_solver_is_reported_not_believed(name: str, tiny, tmp_path) -> None:
    result = kl.solve(tiny, backend=get_backend("dimacs", cmd=_fake(tmp_path, FAKES[name])))
    assert result.status is Status.ERROR and not result.solutions
    assert "solver" in result.message, result.message
    again = get_backend("dimacs", cmd=_fake(tmp_path, FAKES[name]))
    assert kl.prove_unique(tiny, backend=again).verdict is kl.Verdict.ERROR


def test_the_messages_say_what_went_wrong(tiny, tmp_path) -> None:
    def message(name: str) -> str:
        backend = get_backend("dimacs", cmd=_fake(tmp_path, FAKES[name]))
        return kl.solve(tiny, backend=backend).message

    assert "model breaks clause" in message("wrong-model")
    assert "'banana' is not a literal" in message("garbage")
    assert "gives no model" in message("no-model")
    assert "says unsat but exits with code 10" in message("wrong-code")
    assert "SIGABRT" in message("crash") and "segfault, honest" in message("crash")
    assert "beyond the formula's" in message("out-of-range")


def test_the_cli_reports_a_bad_solver_without_a_grid(tiny_path, tmp_path, capsys) -> None:
    code = main(["solve", str(tiny_path), "--backend", "dimacs", "--option",
                 f"cmd={_fake(tmp_path, FAKES['wrong-model'])}"])
    out, err = capsys.readouterr()
    assert code != 0 and "model breaks clause" in out + err
    assert "Traceback" not in err


def test_a_hanging_solver_and_its_children_are_killed_at_the_timeout(tiny, tmp_path) -> None:
    pids = tmp_path / "child.pid"
    body = (
        "import subprocess\n"
        "child = subprocess.Popen(['sleep', '60'])\n"
        f"open({str(pids)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    backend = get_backend("dimacs", cmd=_fake(tmp_path, body))
    start = time.perf_counter()
    result = kl.solve(tiny, backend=backend, timeout=1.0)
    assert time.perf_counter() - start < 10
    assert result.status is Status.UNKNOWN and "timeout" in result.message
    _assert_gone(int(pids.read_text()))


def test_children_of_a_solver_that_answers_are_killed(tiny, tmp_path) -> None:
    """A solver that leaves a helper process behind: it dies with the solver's group."""
    pids = tmp_path / "child.pid"
    body = (
        "import subprocess\n"
        "child = subprocess.Popen(['sleep', '60'])\n"
        f"open({str(pids)!r}, 'w').write(str(child.pid))\n"
        "print('s UNKNOWN')\n"
    )
    result = kl.solve(tiny, backend=get_backend("dimacs", cmd=_fake(tmp_path, body)))
    assert result.status is Status.UNKNOWN
    _assert_gone(int(pids.read_text()))


def _assert_gone(pid: int) -> None:
    for _ in range(50):  # a killed orphan is reaped by init shortly after
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return  # a zombie: dead, waiting for init to reap it
        time.sleep(0.1)
    pytest.fail(f"the solver's child {pid} survived")


def test_the_memory_limit_holds(tiny, tmp_path) -> None:
    body = "block = bytearray(1024 * 1024 * 1024)\nprint('s UNKNOWN')\n"
    limited = get_backend("dimacs", cmd=_fake(tmp_path, body), memory=200)
    result = kl.solve(tiny, backend=limited)
    assert result.status is Status.ERROR and "memory limit 200 MB" in result.message
    unlimited = get_backend("dimacs", cmd=_fake(tmp_path, body))
    assert kl.solve(tiny, backend=unlimited).status is Status.UNKNOWN  # it did get the GB


# ---------------------------------------------------------------- options and parsing


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cmd": "no-such-solver-here"}, "not on PATH"),
        ({"cmd": "python3 -c pass"}, "unknown solver 'python3'.*\\{cnf\\}"),
        ({"cmd": ""}, "cmd is empty"),
        ({"cmd": "cadical 'unclosed"}, "cannot read cmd"),
        ({"encoding": "smt=lia"}, "needs a CNF encoding"),
        ({"memory": 0}, "memory must be a whole number >= 1"),
        ({"solver": "x"}, "does not take option 'solver'"),
    ],
)
def test_bad_options_are_one_line(options: dict[str, object], message: str) -> None:
    with pytest.raises(KakuroError, match=message):
        get_backend("dimacs", **options)


def test_generic_command_with_a_model_file(tiny, tmp_path) -> None:
    """``{model}`` in a command: the model is read from that file, as MiniSat writes it."""
    minisat = _solver("minisat")
    backend = get_backend("dimacs", cmd=f"{minisat} -verb=0 {{cnf}} {{model}}")
    assert kl.solve(tiny, backend=backend).solution == kl.solve(tiny).solution


def test_available_follows_the_default_command(monkeypatch) -> None:
    cls = BACKENDS["dimacs"]
    assert cls.available() == (shutil.which("cadical") is not None)
    monkeypatch.setenv("PATH", "")
    assert not cls.available()


@pytest.mark.parametrize(
    ("code", "output", "message"),
    [
        (10, "s SATISFIABLE\nv 1 -2\n", "does not end with 0"),
        (10, "s SATISFIABLE\nv 1 0\nv 2 0\n", "continues after its 0"),
        (10, "s SATISFIABLE\ns SATISFIABLE\nv 1 0\n", "unexpected status"),
        (20, "s UNSATISFIABLE\nv 1 0\n", "gives a model"),
        (139, "", "code 139"),
        (-9, "", "SIGKILL"),
    ],
)
def test_read_answer_refuses(code: int, output: str, message: str) -> None:
    with pytest.raises(SolverError, match=message):
        read_answer(code, output, None)


def test_read_answer_accepts_the_competition_format() -> None:
    answer = read_answer(10, "c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n", None)
    assert answer.status is Status.SAT and answer.model == (1, -2, 3)
    assert read_answer(20, "s UNSATISFIABLE\n", None).status is Status.UNSAT
    assert read_answer(0, "s UNKNOWN\n", None).status is Status.UNKNOWN


def test_check_model() -> None:
    check_model([1, -2], [[1, 2], [-2]], 2)
    with pytest.raises(SolverError, match="both ways"):
        check_model([1, -1], [[1]], 1)
    with pytest.raises(SolverError, match="breaks clause 2"):
        check_model([1, 2], [[1], [-2]], 2)
