"""DIMACS round trip: ``kakuro encode`` writes a file an outside solver can solve, and
``kakuro decode`` reads that solver's model back to the right grid.

The outside-solver tests run Debian's ``cadical`` / ``minisat`` when they are on PATH and skip
otherwise; the same round trip also runs through PySAT so it is always covered.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from _cnf_cases import HAND_MADE

from kakurolab.cli import main
from kakurolab.encodings import encode
from kakurolab.encodings.cnf import key_text

SPECS = ["strong", "combo", "naive", "cell=log,sum=pb:bdd", "cell=order,sum=table"]


def _run_solver(binary: str, cnf: str, out: str) -> None:
    if binary == "minisat":
        subprocess.run(["minisat", "-verb=0", cnf, out], capture_output=True, timeout=60)
    else:
        with open(out, "w") as fh:
            subprocess.run([binary, "-q", cnf], stdout=fh, timeout=60)


def _encode(capsys, tmp_path, puzzle_args, spec):
    cnf = tmp_path / "p.cnf"
    assert main(["encode", *puzzle_args, "--encoding", spec, "-o", str(cnf)]) == 0
    capsys.readouterr()
    return cnf


def _decode(capsys, puzzle_args, cnf, model):
    assert main(["decode", *puzzle_args, str(cnf), str(model), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("binary", ["cadical", "minisat"])
@pytest.mark.parametrize("spec", SPECS)
def test_outside_solver_pe424(binary, spec, pe424_path, tmp_path, capsys):
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not on PATH (apt-get install {binary})")
    args = [str(pe424_path), "--select", "1"]
    cnf = _encode(capsys, tmp_path, args, spec)
    model = tmp_path / "model.txt"
    _run_solver(binary, str(cnf), str(model))
    decoded = _decode(capsys, args, cnf, model)
    assert decoded["status"] == "sat"
    assert decoded["answer"] == "8426039571"


@pytest.mark.parametrize("binary", ["cadical", "minisat"])
def test_outside_solver_janko(binary, janko_path, janko_puzzles, tmp_path, capsys):
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not on PATH (apt-get install {binary})")
    puzzle = janko_puzzles[0]
    args = [str(janko_path), "--select", puzzle.id]
    cnf = _encode(capsys, tmp_path, args, "strong")
    model = tmp_path / "model.txt"
    _run_solver(binary, str(cnf), str(model))
    decoded = _decode(capsys, args, cnf, model)
    expected = [row.replace(".", "0") for row in puzzle.meta["solution"].rows(puzzle)]
    assert decoded["solution"] == expected


@pytest.mark.parametrize("spec", SPECS)
def test_round_trip_through_pysat(spec, pe424_path, tmp_path, capsys):
    """The same round trip with PySAT reading the DIMACS file: always runs."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    args = [str(pe424_path), "--select", "2"]
    cnf = _encode(capsys, tmp_path, args, spec)
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        assert solver.solve()
        lits = solver.get_model()
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n")
    decoded = _decode(capsys, args, cnf, model)
    assert decoded["status"] == "sat" and len(decoded["answer"]) == 10


def test_header_and_variable_map(pe424_puzzles):
    enc = encode(pe424_puzzles[0], "combo")
    text = enc.to_text()
    lines = text.splitlines()
    assert lines[0] == "c kakurolab CNF"
    assert f"c encoding {enc.spec}" in lines
    header = next(line for line in lines if line.startswith("p cnf"))
    assert header == f"p cnf {enc.stats()['variables']} {enc.stats()['clauses']}"
    r, c = pe424_puzzles[0].whites[0]
    d = enc.cells.allowed[(r, c)][0]
    assert f"c var {enc.cells.eq((r, c), d)} cell r{r + 1}c{c + 1} {d}" in lines
    assert f"c var {enc.var('letter', 'A', 8)} letter A 8" in lines
    assert key_text(("tuple", 3, (1, 2))) == "tuple 3 1,2"


def test_minisat_result_format_and_unsat(tmp_path, capsys):
    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["unique"])
    cnf = _encode(capsys, tmp_path, [str(puzzle)], "combo")
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="glucose4", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        solver.solve()
        lits = solver.get_model()
    model = tmp_path / "m.txt"
    model.write_text("SAT\n" + " ".join(map(str, lits)) + " 0\n")
    decoded = _decode(capsys, [str(puzzle)], cnf, model)
    assert decoded["status"] == "sat"
    model.write_text("UNSAT\n")
    assert main(["decode", str(puzzle), str(cnf), str(model)]) == 2
    assert "reports UNSAT" in capsys.readouterr().err


def test_decode_refuses_foreign_files(tmp_path, capsys):
    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["unique"])
    plain = tmp_path / "plain.cnf"
    plain.write_text("p cnf 1 1\n1 0\n")
    model = tmp_path / "m.txt"
    model.write_text("v 1 0\n")
    assert main(["decode", str(puzzle), str(plain), str(model)]) == 2
    assert "written by kakuro encode" in capsys.readouterr().err


def test_encode_writes_default_name_and_json(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["ambiguous"])
    assert main(["encode", str(puzzle), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["output"] == "ambiguous.cnf" and (tmp_path / "ambiguous.cnf").exists()
    assert info["clauses"] > 0


def test_encode_rejects_bad_specs(tmp_path, capsys):
    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["unique"])
    assert main(["encode", str(puzzle), "--encoding", "sum=magic", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert "unknown sum encoding 'magic'" in err and err.count("\n") == 1


def _solved_model(cnf) -> list[int]:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="glucose4", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        assert solver.solve()
        return solver.get_model()


def test_decode_reads_the_model_from_standard_input(tmp_path, capsys):
    """``cadical p.cnf | kakuro decode p.txt p.cnf -``: the model comes through a pipe."""
    import sys

    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["unique"])
    cnf = _encode(capsys, tmp_path, [str(puzzle)], "strong")
    from_file = tmp_path / "m.txt"
    from_file.write_text("s SATISFIABLE\nv " + " ".join(map(str, _solved_model(cnf))) + " 0\n")
    expected = _decode(capsys, [str(puzzle)], cnf, from_file)
    solver = shutil.which("cadical")
    model_text = (
        subprocess.run([solver, "-q", str(cnf)], capture_output=True, text=True).stdout
        if solver
        else from_file.read_text()
    )
    proc = subprocess.run(
        [sys.executable, "-m", "kakurolab", "decode", str(puzzle), str(cnf), "-", "--json"],
        input=model_text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected


def test_decode_prints_no_grid_that_breaks_a_rule(tmp_path, capsys):
    puzzle = tmp_path / "p.kakuro"
    puzzle.write_text(HAND_MADE["unique"])
    cnf = _encode(capsys, tmp_path, [str(puzzle)], "naive")
    lits = set(_solved_model(cnf))
    cell_vars: dict[str, dict[int, int]] = {}
    for line in cnf.read_text().splitlines():
        if line.startswith("c var ") and " cell " in line:
            _, _, vid, _, cell, digit = line.split()
            cell_vars.setdefault(cell, {})[int(digit)] = int(vid)
    cell, by_digit = next(item for item in sorted(cell_vars.items()) if len(item[1]) > 1)
    true_digit = next(d for d, v in by_digit.items() if v in lits)
    other = next(d for d in by_digit if d != true_digit)
    wrong = (lits - {by_digit[true_digit], -by_digit[other]}) | {
        -by_digit[true_digit],
        by_digit[other],
    }
    model = tmp_path / "wrong.txt"
    model.write_text("v " + " ".join(map(str, sorted(wrong, key=abs))) + " 0\n")
    assert main(["decode", str(puzzle), str(cnf), str(model)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "breaks the rules" in err and len(err.splitlines()) == 1
    assert main(["decode", str(puzzle), str(cnf), str(model), "--json"]) == 2
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "wrong" and record["problems"] and "solution" not in record


def test_encode_writes_dimacs_from_the_clauses_without_z3(pe424_path, tmp_path):
    """Issue 46: a CNF file is the encoding's own DIMACS text, written without the z3 backend
    (only an SMT spec's ``status=solve`` needs z3's answer)."""
    import sys

    from kakurolab.formats import load

    cnf = tmp_path / "p.cnf"
    script = (
        "import sys; from kakurolab.cli import main; "
        f"code = main(['encode', {str(pe424_path)!r}, '--select', '1', '--encoding', 'fast', "
        f"'-o', {str(cnf)!r}]); "
        "print(code, 'kakurolab.backends.z3' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr
    puzzle = load(pe424_path, select="1")[0]
    assert cnf.read_text() == encode(puzzle, "fast").to_text()
