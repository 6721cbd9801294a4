"""Certificates of no solution (issue 47 section 3, issue 49 item 10): ``kakuro certify``
writes a DRAT refutation of the puzzle's formula, ``kakuro verify`` checks it by re-encoding
and replaying the proof, and dratify, the outside checker, accepts the same files on its own.
Tampering with the puzzle, the formula or the proof is caught."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from _cnf_cases import hand_made

from kakurolab.cli import main
from kakurolab.encodings import encode, parse_spec
from kakurolab.formats import dumps, load
from kakurolab.proofs import (
    FORMULA,
    MANIFEST,
    PROOF,
    PUZZLE,
    REFERENCE_ENCODING,
    SOLUTION,
    Certification,
    certify,
    formula_text,
    verify_certificate,
    write_certificate,
)
from kakurolab.uniqueness import Verdict

dratify = pytest.importorskip("dratify")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def unsat_cert(tmp_path_factory) -> Path:
    cert = certify(hand_made("unsat"))
    assert cert.verdict is Verdict.UNSAT and cert.certified
    return write_certificate(cert, tmp_path_factory.mktemp("unsat") / "cert")


def _copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "copy"
    shutil.copytree(src, dst)
    return dst


def _rehash(d: Path, name: str) -> None:
    manifest = json.loads((d / MANIFEST).read_text())
    data = (d / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (d / MANIFEST).write_text(json.dumps(manifest))


def test_an_unsat_certificate_verifies(unsat_cert: Path) -> None:
    manifest = json.loads((unsat_cert / MANIFEST).read_text())
    assert manifest["claim"] == "unsat" and manifest["kinds"] == ["drat"]
    assert sorted(manifest["files"]) == sorted([PUZZLE, FORMULA, PROOF])
    assert not (unsat_cert / SOLUTION).exists()
    report = verify_certificate(unsat_cert)
    assert report.ok, report.reason
    assert report.claim == "unsat"
    assert {"manifest", "hashes", "formula", "drat:python"} <= {c.name for c in report.checks}
    assert "rules" not in {c.name for c in report.checks}  # there is no solution to check


def test_dratify_accepts_the_refutation_on_its_own(unsat_cert: Path) -> None:
    """The outside checker, given only the two files: the formula has no model."""
    formula = dratify.parse_dimacs((unsat_cert / FORMULA).read_text(), strict=True)
    result = dratify.check_proof(formula, (unsat_cert / PROOF).read_text(), engine="python")
    assert result.ok, result.reason
    # and the formula is the puzzle's own, clause for clause
    enc = encode(hand_made("unsat"), parse_spec(REFERENCE_ENCODING))
    text = (unsat_cert / FORMULA).read_text()
    assert text == formula_text(enc, None)
    assert sum(1 for line in text.splitlines() if line and line[0] not in "cp") == len(enc.clauses)


def test_a_changed_clue_in_the_puzzle_is_rejected(unsat_cert: Path, tmp_path: Path) -> None:
    cert = _copy(unsat_cert, tmp_path)
    text = (cert / PUZZLE).read_text()
    (cert / PUZZLE).write_text(text.replace("\\3  .", "\\7  .", 1))
    assert (cert / PUZZLE).read_text() != text
    _rehash(cert, PUZZLE)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("formula:"), report.reason


def test_a_solvable_puzzle_with_a_borrowed_refutation_is_rejected(
    unsat_cert: Path, tmp_path: Path
) -> None:
    """A forger's whole certificate: a puzzle that has a solution, its own formula (so the
    re-encoding agrees) and the real refutation of another puzzle: only DRAT can catch it."""
    puzzle = hand_made("unique")
    enc = encode(puzzle, parse_spec(REFERENCE_ENCODING))
    proof = (unsat_cert / PROOF).read_text()
    forged = Certification(
        puzzle,
        Verdict.UNSAT,
        [],
        parse_spec(REFERENCE_ENCODING),
        "cadical195",
        formula=formula_text(enc, None),
        proof=proof,
        refuted=True,
        size={
            "variables": enc.n_vars,
            "clauses": len(enc.clauses),
            "proof_lines": 1,
            "proof_bytes": len(proof),
        },
    )
    report = verify_certificate(write_certificate(forged, tmp_path / "forged"))
    assert not report.ok
    assert {"formula"} <= {c.name for c in report.checks if c.ok}
    assert report.reason.startswith("drat:"), report.reason


def test_a_dropped_clause_in_the_formula_is_rejected(unsat_cert: Path, tmp_path: Path) -> None:
    cert = _copy(unsat_cert, tmp_path)
    lines = (cert / FORMULA).read_text().splitlines()
    clause = next(i for i, line in enumerate(lines) if line and line[0] not in "cp")
    del lines[clause]
    (cert / FORMULA).write_text("\n".join(lines) + "\n")
    _rehash(cert, FORMULA)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("formula:"), report.reason


@pytest.fixture(scope="module")
def shipped_cert(tmp_path_factory) -> Path:
    """data/hard/unsat.txt's smallest near-miss (one clue changed on a unique 10x10): unit
    propagation alone does not refute it, so its proof carries the weight."""
    puzzle = min(load(ROOT / "data" / "hard" / "unsat.txt"), key=lambda p: len(p.whites))
    cert = certify(puzzle, steps=False)
    assert cert.verdict is Verdict.UNSAT and cert.certified
    return write_certificate(cert, tmp_path_factory.mktemp("shipped") / "c")


def test_the_smallest_shipped_unsat_member_is_certified(shipped_cert: Path) -> None:
    report = verify_certificate(shipped_cert)
    assert report.ok, report.reason
    drat = next(c for c in report.checks if c.name == "drat:python")
    assert "unit propagation alone" not in drat.detail, drat.detail


def test_a_broken_proof_is_rejected(shipped_cert: Path, tmp_path: Path) -> None:
    cert = _copy(shipped_cert, tmp_path)
    lines = (cert / PROOF).read_text().splitlines()
    (cert / PROOF).write_text("\n".join(lines[: len(lines) // 2]) + "\n")  # truncated
    _rehash(cert, PROOF)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("drat:"), report.reason
    assert "never derives the empty clause" in report.reason
    (cert / PROOF).write_text("0\n")  # the empty clause at once: it does not follow by UP
    _rehash(cert, PROOF)
    report = verify_certificate(cert)
    assert not report.ok and report.reason.startswith("drat:"), report.reason


def test_the_cli_certifies_and_verifies_no_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's sentence: ``kakuro certify`` checks an unsat claim with a DRAT proof.
    Exit 1 (not every puzzle is unique), the certificate written; verify exits 0."""
    source = tmp_path / "unsat.kakuro"
    source.write_text(dumps([hand_made("unsat")], "kakuro"))
    assert main(["certify", str(source), "-o", str(tmp_path / "certs"), "--json"]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line["verdict"] == "unsat" and line["kinds"] == ["drat"]
    assert main(["verify", line["certificate"]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("VERIFIED") and "has no solution" in out


SHIPPED = ROOT / "data" / "hard" / "certificates"


def test_every_shipped_unsat_member_is_certified_or_has_a_stated_reason() -> None:
    """Issue 47: every unsat member committed in data/hard carries a certificate of no
    solution, or data/hard/certificates/README.md says why not; each one committed verifies
    (pure-Python DRAT engine) and names a member of those families."""
    families = [
        ROOT / "data" / "hard" / f"{family}.txt"
        for family in ("unsat", "loose-unsat", "domino-unsat")
    ]
    members = {p.id for path in families for p in load(path)}
    committed = {d.name for d in SHIPPED.iterdir() if d.is_dir()}
    readme = (SHIPPED / "README.md").read_text()
    stated = {m for m in members if f"| {m} |" in readme.split("## Not committed", 1)[1]}
    assert committed <= members, committed - members
    assert not committed & stated, committed & stated
    assert members == committed | stated, members - committed - stated
    assert len(committed) >= 6
    for name in sorted(committed):
        if (SHIPPED / name / PROOF).stat().st_size > QUICK_PROOF_BYTES:
            continue  # test_the_long_shipped_proofs_verify
        report = verify_certificate(SHIPPED / name, engines=("python",))
        assert report.ok and report.claim == "unsat", (name, report.reason)


QUICK_PROOF_BYTES = 130_000
"""Proofs up to this size replay in at most about 2 s each in pure Python, keeping the test
above near 5 s; longer ones (the mutilated domino boards' 6 x 6 and 8 x 8, 133 KB and 311 KB:
1.8 s and 14 s) are replayed by the slow test below."""


@pytest.mark.slow
def test_the_long_shipped_proofs_verify() -> None:
    long = [d for d in SHIPPED.iterdir() if d.is_dir()
            and (d / PROOF).stat().st_size > QUICK_PROOF_BYTES]
    assert long
    for directory in sorted(long):
        report = verify_certificate(directory, engines=("python",))
        assert report.ok and report.claim == "unsat", (directory.name, report.reason)
