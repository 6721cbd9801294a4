"""SMT-LIB2 export: every SMT encoding writes a file that z3's own parser reads back, whose
status is right (sat for a solvable puzzle, unsat for an unsatisfiable one) and whose model
decodes to the grid the native solver finds."""

from __future__ import annotations

import re

import pytest
import z3
from _puzzles import square
from _tools import cvc5_answers

from kakurolab.backends.z3 import smtlib_text
from kakurolab.cli import main
from kakurolab.encodings import encode
from kakurolab.encodings.smt import SMT_ENCODERS
from kakurolab.errors import KakuroError, UnknownNameError
from kakurolab.formats import loads
from kakurolab.model import Puzzle
from kakurolab.uniqueness import solve

SPECS = [f"smt={name}" for name in SMT_ENCODERS]


UNSAT_STANDARD = square((3, 3), (3, 4))
UNSAT_CRYPTIC = loads("3,X,(vA),(vB),(hC),D,D,(hE),O,O\n", format="pe424")[0]


def _read_back(text: str) -> z3.Solver:
    solver = z3.Solver()
    solver.from_string(text)
    return solver


def _commands(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines() if line.startswith("(")]


@pytest.mark.parametrize("spec", SPECS)
def test_file_shape(spec: str, pe424_puzzles) -> None:
    text = encode(pe424_puzzles[0], spec).to_text()
    commands = _commands(text)
    assert commands.index("(set-logic") < commands.index("(declare-fun")
    assert commands.index("(declare-fun") < commands.index("(assert")
    assert commands[-3:] == ["(check-sat)", "(get-model)", "(exit)"]
    assert "(set-info :status unknown)" in text
    assert encode(pe424_puzzles[0], spec).suffix == ".smt2"


@pytest.mark.parametrize("spec", SPECS)
def test_cryptic_file_solves_to_native_grid(spec: str, pe424_puzzles) -> None:
    puzzle = pe424_puzzles[0]
    encoding = encode(puzzle, spec)
    solver = _read_back(encoding.to_text())
    assert solver.check() == z3.sat
    solution = encoding.decode(solver.model())
    assert solution == solve(puzzle, backend="native").solution
    assert solution.answer == "8426039571"


@pytest.mark.parametrize("spec", SPECS)
def test_standard_file_solves_to_published_grid(spec: str, janko_puzzles) -> None:
    puzzle = next(p for p in janko_puzzles if p.id == "282_6x6")
    encoding = encode(puzzle, spec)
    solver = _read_back(encoding.to_text())
    assert solver.check() == z3.sat
    assert encoding.decode(solver.model()) == puzzle.meta["solution"]


@pytest.mark.parametrize("puzzle", [UNSAT_STANDARD, UNSAT_CRYPTIC], ids=["standard", "cryptic"])
@pytest.mark.parametrize("spec", SPECS)
def test_unsatisfiable_file_is_unsat(spec: str, puzzle: Puzzle) -> None:
    assert _read_back(encode(puzzle, spec).to_text()).check() == z3.unsat


@pytest.mark.parametrize("spec", SPECS)
def test_status_solve_writes_the_status(spec: str, pe424_puzzles) -> None:
    solved = smtlib_text(encode(pe424_puzzles[0], f"{spec},status=solve"))
    assert "(set-info :status sat)" in solved
    assert "(set-info :status unsat)" in smtlib_text(encode(UNSAT_STANDARD, f"{spec},status=solve"))
    with pytest.raises(KakuroError, match="status=solve needs z3"):
        encode(UNSAT_STANDARD, f"{spec},status=solve").to_text()  # an encoding runs no solver


def test_logic_and_tactic_reach_the_file(pe424_puzzles) -> None:
    text = encode(pe424_puzzles[0], "smt=lia,logic=QF_FD,tactic=qffd,declare=solver").to_text()
    assert "(set-logic QF_FD)" in text
    assert "(check-sat-using qffd)" in text
    assert _read_back(text).check() == z3.sat


def test_z3_only_logic_is_declared_as_the_standard_one(pe424_puzzles) -> None:
    """QF_FD is z3's solving strategy, not an SMT-LIB logic: the file declares the theory."""
    for spec, logic in [("smt", "QF_BV"), ("smt=lia,logic=QF_FD", "QF_LIA"), ("smt=pb", "ALL")]:
        text = encode(pe424_puzzles[0], spec).to_text()
        assert f"(set-logic {logic})" in text
        assert _read_back(text).check() == z3.sat


def test_default_logics() -> None:
    expected = {"lia": "QF_LIA", "bv": "QF_BV", "pb": "ALL", "table": "QF_LIA"}
    for name, logic in expected.items():
        assert f"(set-logic {logic})" in encode(UNSAT_STANDARD, f"smt={name}").to_text()


def test_bad_status_is_an_error() -> None:
    with pytest.raises(UnknownNameError, match="unknown status 'maybe'"):
        encode(UNSAT_STANDARD, "smt=lia,status=maybe")


def test_kakuro_encode_writes_smt2(tmp_path, pe424_path, capsys) -> None:
    out = tmp_path / "p1.smt2"
    code = main(
        ["encode", str(pe424_path), "--select", "1", "--encoding", "smt=lia", "-o", str(out)]
    )
    assert code == 0
    text = out.read_text()
    assert re.search(r"\(set-logic QF_LIA\)", text)
    assert _read_back(text).check() == z3.sat
    assert "smt=lia" in capsys.readouterr().out


def test_kakuro_encode_default_name_has_smt2_suffix(tmp_path, pe424_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["encode", str(pe424_path), "--select", "2", "--encoding", "smt=bv"]) == 0
    assert (tmp_path / "2.smt2").exists()


STANDARD_SMTLIB = [s for s in SPECS if s != "smt=pb"]
"""Exports in plain SMT-LIB2 (pb writes z3's pseudo-Boolean extensions)."""


@pytest.mark.parametrize("spec", STANDARD_SMTLIB)
def test_cvc5_reads_the_standard_exports(spec: str, pe424_puzzles) -> None:
    assert cvc5_answers(encode(pe424_puzzles[0], spec).to_text())[0] == "sat"
    assert cvc5_answers(encode(UNSAT_CRYPTIC, spec).to_text())[0] == "unsat"
