"""Certified uniqueness: certify writes certificates, verify accepts them and rejects every kind
of tampering with the reason, the step checker and the encoder self-test can fail.

Independent cross-checks: certified solutions equal the published janko solutions, the PE424
answer and the native backend's; a witness pair for a non-unique puzzle passes the rule
checker; the step checker's run support equals brute force over permutations."""

from __future__ import annotations

import ast
import hashlib
import json
import random
import shutil
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest
from _cnf_cases import hand_made

from kakurolab import combos
from kakurolab.cli import main
from kakurolab.encodings import encode, parse_spec
from kakurolab.formats import embedded_solution
from kakurolab.proofs import (
    ENCODER_VERSION,
    FORMULA,
    MANIFEST,
    PROOF,
    REFERENCE_ENCODING,
    SOLUTION,
    STEPS,
    Certification,
    available_engines,
    blocking_clause,
    brute_force,
    certify,
    formula_text,
    self_test,
    self_test_specs,
    verify_certificate,
    write_certificate,
)
from kakurolab.proofs.stepcheck import _fits, check_steps
from kakurolab.rulebook import solution_problems
from kakurolab.uniqueness import Verdict, prove_unique

ROOT = Path(__file__).resolve().parents[1]
PE424_ANSWER_1 = "8426039571"


def _smallest(puzzles, n):
    return sorted(puzzles, key=lambda p: (len(p.whites), p.id))[:n]


def _made(puzzle, directory: Path, **options) -> Path:
    cert = certify(puzzle, **options)
    assert cert.verdict is Verdict.UNIQUE, (puzzle.id, cert.verdict)
    return write_certificate(cert, directory)


def _names(report) -> list[str]:
    return [check.name for check in report.checks]


def _rehash(directory: Path, name: str) -> None:
    """Update the manifest after tampering with a file, as a forger would."""
    manifest = json.loads((directory / MANIFEST).read_text())
    data = (directory / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (directory / MANIFEST).write_text(json.dumps(manifest))


@pytest.fixture(scope="module")
def pe424_cert(tmp_path_factory, pe424_puzzles) -> Path:
    """PE424 puzzle 1: cryptic, and its proof is not refuted by unit propagation alone."""
    return _made(pe424_puzzles[0], tmp_path_factory.mktemp("pe") / "1")


@pytest.fixture(scope="module")
def janko_cert(tmp_path_factory, janko_puzzles) -> Path:
    return _made(_smallest(janko_puzzles, 1)[0], tmp_path_factory.mktemp("jk") / "j")


def _copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "copy"
    shutil.copytree(src, dst)
    return dst


# -- certify and verify --------------------------------------------------------------------


def test_small_unique_puzzle(tmp_path):
    puzzle = hand_made("unique")
    cert = certify(puzzle)
    assert cert.verdict is Verdict.UNIQUE
    assert cert.solutions[0] == prove_unique(puzzle, backend="native").solutions[0]
    report = verify_certificate(write_certificate(cert, tmp_path / "u"))
    assert report.ok, report.reason
    assert {"rules", "formula", "drat:python", "steps"} <= set(_names(report))


def test_pe424_certificates_verify(tmp_path, pe424_puzzles, pe424_cert):
    report = verify_certificate(pe424_cert)
    assert report.ok, report.reason
    solution = json.loads((pe424_cert / SOLUTION).read_text())
    assert solution["answer"] == PE424_ANSWER_1
    drat = next(c for c in report.checks if c.name == "drat:python")
    assert "unit propagation alone" not in drat.detail  # the proof itself is checked
    assert STEPS not in json.loads((pe424_cert / MANIFEST).read_text())["files"]  # cryptic
    for puzzle in pe424_puzzles[1:3]:
        cert = certify(puzzle)
        native = prove_unique(puzzle, backend="native")
        assert native.verdict is Verdict.UNIQUE
        assert cert.solutions[0] == native.solutions[0]
        report = verify_certificate(write_certificate(cert, tmp_path / puzzle.id))
        assert report.ok, (puzzle.id, report.reason)


def test_janko_certificates_verify_with_steps(tmp_path, janko_puzzles):
    for puzzle in _smallest(janko_puzzles, 3):
        cert = certify(puzzle)
        assert cert.solutions[0] == embedded_solution(puzzle), puzzle.id
        assert cert.steps, f"{puzzle.id}: deduction solves it, so a steps certificate"
        report = verify_certificate(write_certificate(cert, tmp_path / puzzle.id))
        assert report.ok, (puzzle.id, report.reason)
        assert "steps" in _names(report)


def test_both_drat_engines_run_when_native_is_installed(pe424_cert):
    report = verify_certificate(pe424_cert)
    engines = available_engines()
    assert [n for n in _names(report) if n.startswith("drat:")] == [f"drat:{e}" for e in engines]


def test_other_encodings_and_solvers_verify(tmp_path, pe424_puzzles, janko_puzzles):
    small = _smallest(janko_puzzles, 1)[0]
    cases = [
        (pe424_puzzles[1], "fast", "cadical195"),
        (small, "strong", "glucose4"),
        (small, "naive", "lingeling"),
    ]
    for i, (puzzle, encoding, solver) in enumerate(cases):
        directory = _made(puzzle, tmp_path / str(i), encoding=encoding, solver=solver)
        assert verify_certificate(directory).ok
        strict = verify_certificate(directory, strict=True)
        assert not strict.ok and "reference encoding" in strict.reason


def test_certify_refuses_lazy_smt_and_proofless_solvers(pe424_puzzles):
    from kakurolab.errors import KakuroError

    for options in (
        {"encoding": "sum=lazy,alldiff=pairwise"},
        {"encoding": "smt=lia"},
        {"solver": "minisat22"},
    ):
        with pytest.raises(KakuroError):
            certify(pe424_puzzles[0], **options)


def test_moved_certificate_still_verifies(tmp_path, janko_puzzles):
    made = _made(_smallest(janko_puzzles, 1)[0], tmp_path / "made" / "here")
    moved = tmp_path / "elsewhere" / "deeper" / "cert"
    moved.parent.mkdir(parents=True)
    shutil.move(str(made), moved)
    assert verify_certificate(moved).ok
    for path in moved.iterdir():
        text = path.read_text()
        assert str(tmp_path) not in text and "/home/" not in text and "/tmp" not in text


def test_formula_is_the_same_under_other_hash_seeds(pe424_puzzles):
    """A certificate made on one machine verifies on another: the encoder's text does not
    depend on Python's hash randomisation."""
    puzzle = pe424_puzzles[4]
    enc = encode(puzzle, parse_spec(REFERENCE_ENCODING))
    here = hashlib.sha256(enc.to_text().encode()).hexdigest()
    code = (
        "import hashlib\n"
        "from kakurolab.formats import load\nfrom kakurolab.datasets import PE424\n"
        "from kakurolab.encodings import encode, parse_spec\n"
        "from kakurolab.proofs import REFERENCE_ENCODING\n"
        "p = load(PE424)[4]\n"
        "print(hashlib.sha256(encode(p, parse_spec(REFERENCE_ENCODING)).to_text().encode())"
        ".hexdigest())\n"
    )
    for seed in ("12345",):
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == here


# -- puzzles that cannot be certified ------------------------------------------------------


def test_two_solutions_give_multiple_with_witnesses():
    puzzle = hand_made("ambiguous")
    cert = certify(puzzle)
    assert cert.verdict is Verdict.MULTIPLE
    first, second = cert.solutions
    assert first != second
    assert not solution_problems(puzzle, first) and not solution_problems(puzzle, second)
    assert not cert.formula and not cert.proof


def test_cli_multiple_exits_1_with_witnesses_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "amb.kakuro"
    path.write_text("id: ambiguous\n   #   10\\  10\\\n\\10     .    .\n\\10     .    .\n")
    out = tmp_path / "certs"
    assert main(["certify", str(path), "-o", str(out)]) == 1
    text = capsys.readouterr().out
    assert "ambiguous: multiple" in text and "witnesses differ at" in text
    grids = [line.strip() for line in text.splitlines() if line.strip().startswith("-")]
    assert len(grids) == 6  # two witnesses of three rows
    assert not out.exists() or not any(out.iterdir())


def test_unsat_puzzle_is_certified_unsat():
    """No solution: an ``unsat`` certificate (tests/test_certify_unsat.py checks it)."""
    cert = certify(hand_made("unsat"))
    assert cert.verdict is Verdict.UNSAT and cert.certified


# -- tampering -----------------------------------------------------------------------------


def _flip_a_clause(directory: Path) -> None:
    lines = (directory / FORMULA).read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("p cnf")) + 5
    first, *rest = lines[i].split()
    lines[i] = " ".join([str(-int(first)), *rest])
    (directory / FORMULA).write_text("\n".join(lines) + "\n")


def test_changed_clause_is_caught_by_the_hash(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    _flip_a_clause(cert)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("hashes: formula.cnf")


def test_changed_clause_is_caught_by_re_encoding(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    _flip_a_clause(cert)
    _rehash(cert, FORMULA)
    report = verify_certificate(cert)
    assert not report.ok
    assert report.reason.startswith("formula: formula.cnf line") and "differs" in report.reason


def test_dropped_blocking_clause_is_rejected(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    lines = (cert / FORMULA).read_text().splitlines()
    (cert / FORMULA).write_text("\n".join(lines[:-1]) + "\n")
    _rehash(cert, FORMULA)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("formula:")


def test_truncated_proof_is_rejected_by_every_engine(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    lines = (cert / PROOF).read_text().splitlines()
    (cert / PROOF).write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    _rehash(cert, PROOF)
    report = verify_certificate(cert)
    assert not report.ok
    failed = [c for c in report.checks if not c.ok]
    assert [c.name for c in failed] == [f"drat:{e}" for e in available_engines()]
    assert all("never derives the empty clause" in c.detail for c in failed)


def test_proof_with_a_wrong_lemma_is_rejected(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    lines = (cert / PROOF).read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if not line.startswith("d") and len(line) > 4)
    lines.insert(i, "1 0")  # a unit that does not follow (RUP nor RAT)
    (cert / PROOF).write_text("\n".join(lines) + "\n")
    _rehash(cert, PROOF)
    report = verify_certificate(cert)
    assert not report.ok and "neither RUP nor RAT" in report.reason


def test_another_solution_is_rejected_by_the_rule_checker(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    obj = json.loads((cert / SOLUTION).read_text())
    row = next(i for i, r in enumerate(obj["rows"]) if sum(ch.isdigit() for ch in r) >= 2)
    chars = list(obj["rows"][row])
    a, b = [j for j, ch in enumerate(chars) if ch.isdigit()][:2]
    chars[a], chars[b] = chars[b], chars[a]
    if chars[a] == chars[b]:
        chars[a] = str(int(chars[a]) % 9 + 1)
    obj["rows"][row] = "".join(chars)
    (cert / SOLUTION).write_text(json.dumps(obj))
    _rehash(cert, SOLUTION)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("rules:")


def test_forged_certificate_for_a_puzzle_with_two_solutions_is_rejected(tmp_path, pe424_cert):
    """A valid solution, the matching formula and blocking clause, and a proof borrowed from
    a real certificate: only the DRAT check can catch it, and does."""
    puzzle = hand_made("ambiguous")
    first = certify(puzzle).solutions[0]
    enc = encode(puzzle, parse_spec(REFERENCE_ENCODING))
    block = blocking_clause(enc, first)
    proof = (pe424_cert / PROOF).read_text()
    forged = Certification(
        puzzle,
        Verdict.UNIQUE,
        [first],
        parse_spec(REFERENCE_ENCODING),
        "cadical195",
        formula=formula_text(enc, block),
        proof=proof,
        refuted=True,
        block=block,
        size={
            "variables": enc.n_vars,
            "clauses": len(enc.clauses) + 1,
            "proof_lines": proof.count("\n"),
            "proof_bytes": len(proof),
        },
    )
    report = verify_certificate(write_certificate(forged, tmp_path / "forged"))
    assert not report.ok
    assert {"rules", "formula"} <= {c.name for c in report.checks if c.ok}
    assert report.reason.startswith("drat:")


def test_other_encoding_in_the_manifest_is_rejected(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    manifest = json.loads((cert / MANIFEST).read_text())
    manifest["encoding"] = "fast"
    (cert / MANIFEST).write_text(json.dumps(manifest))
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("formula:")


def _as_version(directory: Path, version: int, parts: tuple[str, ...]) -> None:
    """Rewrite a certificate as an older encoder wrote it: the spec (manifest and formula
    comment) without the ``parts`` that encoder did not have, and its ``encoder`` field
    (version 1 had none).  (Checked against certificates made by that code.)"""
    manifest = json.loads((directory / MANIFEST).read_text())
    spec = parse_spec(manifest["encoding"])
    old = ",".join(f"{k}={v}" for k, v in spec if k not in parts)
    formula = (directory / FORMULA).read_text()
    (directory / FORMULA).write_text(formula.replace(f"c encoding {spec}\n", f"c encoding {old}\n"))
    if version == 1:
        del manifest["encoder"]
    else:
        manifest["encoder"] = version
    manifest["encoding"] = old
    (directory / MANIFEST).write_text(json.dumps(manifest))
    _rehash(directory, FORMULA)


@pytest.mark.parametrize(
    ("version", "encoding", "parts"),
    [
        (1, REFERENCE_ENCODING + ",ties=pairs,sets=select,guards=own", ("ties", "sets", "guards")),
        (2, "sum=combo:lean,alldiff=pairwise,sets=select,guards=own", ("sets", "guards")),
        (3, "sum=combo:lean,alldiff=pairwise,pre=root,letters=all", ("letters",)),
    ],
)
def test_certificates_of_older_encoders_still_verify(
    tmp_path, pe424_puzzles, version, encoding, parts
):
    """Version 2 ties two-letter clues by ``ties=split``, version 3 writes wide cryptic runs
    by ``sets=exclude``, version 4 gives a presolved cryptic formula live letters only; a
    certificate of an encoder before (its parts unnamed) still verifies by re-encoding with
    the parts it used."""
    old = _made(pe424_puzzles[0], tmp_path / "old", encoding=encoding)
    _as_version(old, version, parts)
    report = verify_certificate(old)
    assert report.ok, report.reason
    assert f"encoder version {version}" in next(
        c.detail for c in report.checks if c.name == "formula"
    )


def test_certificates_of_another_encoder_version_are_rejected(
    tmp_path, pe424_puzzles, pe424_cert
):
    """A version the code does not know, or a current formula claimed as an older version
    (``fast`` on a cryptic puzzle differs in each), is rejected."""
    assert json.loads((pe424_cert / MANIFEST).read_text())["encoder"] == ENCODER_VERSION
    fast = _made(pe424_puzzles[0], tmp_path / "fast", encoding="fast")
    for version, reason in ((1, "formula:"), (2, "formula:"), (99, "encoding:")):
        for source in (pe424_cert, fast):

            cert = _copy(source, tmp_path / f"{version}-{source.name}")
            manifest = json.loads((cert / MANIFEST).read_text())
            manifest["encoder"] = version
            (cert / MANIFEST).write_text(json.dumps(manifest))
            report = verify_certificate(cert)
            assert not report.ok and report.reason.startswith(reason), report.reason


def test_missing_file_is_rejected(tmp_path, pe424_cert):
    cert = _copy(pe424_cert, tmp_path)
    (cert / PROOF).unlink()
    report = verify_certificate(cert)
    assert not report.ok and "proof.drat is missing" in report.reason


# -- the deduction-steps certificate -------------------------------------------------------


def _steps(directory: Path) -> dict:
    return json.loads((directory / STEPS).read_text())


def _write_steps(directory: Path, obj: dict) -> None:
    (directory / STEPS).write_text(json.dumps(obj))
    _rehash(directory, STEPS)


def _only_steps_fail(report) -> None:
    assert not report.ok
    assert all(c.ok for c in report.checks if c.name != "steps")
    assert report.reason.startswith("steps:")


def test_unjustified_elimination_is_rejected(tmp_path, janko_cert):
    cert = _copy(janko_cert, tmp_path)
    obj = _steps(cert)
    solution = json.loads((cert / SOLUTION).read_text())["rows"]
    step = obj["steps"][0]
    cell = next(iter(step["eliminations"]))
    r, c = (int(x) - 1 for x in cell[1:].split("c"))
    kept = int(solution[r][c])  # the digit the cell really holds cannot follow from anything
    step["eliminations"][cell] = sorted({*step["eliminations"][cell], kept})
    _write_steps(cert, obj)
    report = verify_certificate(cert)
    _only_steps_fail(report)
    assert "does not follow" in report.reason and f"removing {kept} from {cell}" in report.reason


def test_wrong_placement_is_rejected(tmp_path, janko_cert):
    cert = _copy(janko_cert, tmp_path)
    obj = _steps(cert)
    step = next(s for s in obj["steps"] if s["placements"])
    cell, digit = next(iter(step["placements"].items()))
    step["placements"][cell] = digit % 9 + 1
    _write_steps(cert, obj)
    report = verify_certificate(cert)
    _only_steps_fail(report)
    assert f"writes {digit % 9 + 1} in {cell}" in report.reason


def test_missing_steps_are_rejected(tmp_path, janko_cert):
    cert = _copy(janko_cert, tmp_path)
    obj = _steps(cert)
    del obj["steps"][len(obj["steps"]) // 3]
    _write_steps(cert, obj)
    _only_steps_fail(verify_certificate(cert))
    obj["steps"] = obj["steps"][:5]
    _write_steps(cert, obj)
    report = verify_certificate(cert)
    _only_steps_fail(report)
    assert "several candidates" in report.reason


def test_step_checker_shares_no_code_with_logic():
    tree = ast.parse((ROOT / "kakurolab" / "proofs" / "stepcheck.py").read_text())
    imported = {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert not any("logic" in name or "combos" in name for name in imported), imported


def test_step_checker_run_support_matches_brute_force():
    rng = random.Random(18)
    for _ in range(300):
        length = rng.randint(1, 5)
        cands = tuple(frozenset(rng.sample(range(1, 10), rng.randint(1, 9))) for _ in range(length))
        total = rng.randint(1, 40)
        want = [set() for _ in range(length)]
        for filling in permutations(range(1, 10), length):
            if sum(filling) == total and all(d in c for d, c in zip(filling, cands, strict=True)):
                for i, d in enumerate(filling):
                    want[i].add(d)
        assert [set(s) for s in _fits(total, cands)] == want, (total, cands)


def test_step_checker_accepts_explain_output_of_janko(janko_puzzles):
    from kakurolab.logic import deduce

    for puzzle in _smallest(janko_puzzles, 5):
        result = deduce(puzzle)
        report = check_steps(puzzle, [s.to_json() for s in result.steps])
        assert report.ok, (puzzle.id, report.reason)
        assert report.grid == dict(embedded_solution(puzzle).values)


def test_step_checker_rejects_malformed_steps(janko_puzzles):
    puzzle = _smallest(janko_puzzles, 1)[0]
    for bad in ([{"eliminations": {"r0c0": [1]}}], [{"placements": {"r2c2": 11}}], ["x"]):
        report = check_steps(puzzle, bad)
        assert not report.ok and report.reason


# -- the encoder self-test -----------------------------------------------------------------


def test_brute_force_reference():
    assert brute_force(2, 3) == {(1, 2), (2, 1)}
    assert brute_force(3, 6) == set(permutations((1, 2, 3)))
    assert brute_force(1, 10) == set()
    assert sum(len(brute_force(4, s)) for s in range(50)) == 9 * 8 * 7 * 6


QUICK_SELF_TEST = [REFERENCE_ENCODING, "fast", "strong", "naive"]
"""The reference encoding and the three of the experiment; the slow run tests all."""


def test_self_test_covers_every_sum_record():
    """The self-test's list comes from the sum registry: every non-lazy record is in it."""
    from kakurolab.encodings.cnf.sums import SUMS

    listed = " ".join(self_test_specs())
    for record in SUMS.values():
        assert record.lazy or f"sum={record.name}" in listed, record.name


@pytest.mark.parametrize("spec", QUICK_SELF_TEST)
def test_self_test_passes(spec):
    result = self_test(spec, max_length=4)
    assert result.ok, result.failures
    assert result.pairs == sum(sum(range(10 - n, 10)) + 2 for n in range(1, 5))  # 0..max+1
    assert result.models == sum(len(brute_force(n, s)) for n in range(1, 5) for s in range(46))


def test_self_test_catches_a_broken_encoder(monkeypatch):
    original = combos.combos
    monkeypatch.setattr(combos, "combos", lambda n, s: original(n, s)[1:])  # drops a digit set
    result = self_test(REFERENCE_ENCODING, max_length=3)
    assert not result.ok
    assert any("missing" in failure for failure in result.failures)


def test_self_test_cli(capsys):
    assert main(["verify", "--self-test", "--encoding", "fast", "--max-length", "3"]) == 0
    assert "ok" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("spec", self_test_specs())
def test_self_test_every_sum_encoding(spec):
    result = self_test(spec, max_length=4)
    assert result.ok, result.failures


@pytest.mark.slow
def test_self_test_reference_runs_of_five():
    result = self_test(REFERENCE_ENCODING, max_length=5)
    assert result.ok, result.failures


# -- the command line ----------------------------------------------------------------------


def test_cli_certify_then_verify(tmp_path, capsys, janko_path, pe424_path):
    out = tmp_path / "certs"
    assert main(["certify", str(pe424_path), "--select", "2", "-o", str(out)]) == 0
    assert main(["certify", str(janko_path), "--select", "1_10x12", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["1_10x12", "2"]
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.count("VERIFIED") == 2 and "REJECTED" not in text
    _flip_a_clause(out / "2")
    assert main(["verify", str(out)]) == 1
    text = capsys.readouterr().out
    assert "REJECTED" in text and "formula.cnf does not match" in text


def test_cli_verify_errors(tmp_path, capsys):
    assert main(["verify", str(tmp_path)]) == 2
    assert "no certificate" in capsys.readouterr().err
    assert main(["verify"]) == 2


def test_missing_dratify_names_the_extra(monkeypatch, pe424_cert, capsys):
    monkeypatch.setitem(sys.modules, "dratify", None)
    assert main(["verify", str(pe424_cert)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "kakurolab[certify]" in err[0]


# -- the whole data sets -------------------------------------------------------------------


@pytest.mark.slow
def test_all_pe424_and_janko_dev_certify_and_verify(tmp_path, pe424_puzzles, janko_puzzles):
    assert len(pe424_puzzles) == 200 and len(janko_puzzles) == 105
    for puzzle in [*pe424_puzzles, *janko_puzzles]:
        cert = certify(puzzle)
        assert cert.verdict is Verdict.UNIQUE, puzzle.id
        published = embedded_solution(puzzle)
        if published is not None:
            assert cert.solutions[0] == published, puzzle.id
        directory = write_certificate(cert, tmp_path / puzzle.id)
        report = verify_certificate(directory)
        assert report.ok, (puzzle.id, report.reason)
        shutil.rmtree(directory)


def test_the_old_import_paths_give_the_proofs_objects():
    """``kakurolab.certify``, ``.stepcheck`` and ``.analysis`` moved into ``kakurolab.proofs``;
    scripts importing the old paths get the same objects, every public name of each."""
    import kakurolab.analysis as old_analysis
    import kakurolab.certify as old_certify
    import kakurolab.stepcheck as old_stepcheck
    from kakurolab import proofs
    from kakurolab.proofs import analysis, stepcheck

    assert old_certify.certify is proofs.certify
    assert old_certify.verify_certificate is proofs.verify_certificate
    for old, new in ((old_certify, proofs), (old_stepcheck, stepcheck), (old_analysis, analysis)):
        assert old.__all__, old
        for name in old.__all__:
            assert getattr(old, name) is getattr(new, name), (old.__name__, name)
