"""``kakuro verify`` on hostile certificates (issue 49 items 3 and 9): every bad certificate
gets a one-line reason, none a traceback, and the others in the batch are still checked.

Each tamper is made after the hashes are recomputed, as a forger would, so it reaches the
checks past the hashes.  The manifest and the steps are decoded with one declared schema
(:mod:`kakurolab.proofs.manifest`)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from _cnf_cases import hand_made

from kakurolab.cli import main
from kakurolab.proofs import MANIFEST, SOLUTION, STEPS, certify, verify_certificate
from kakurolab.proofs import write_certificate as write

pytest.importorskip("dratify")


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A small unique puzzle's certificate, with a steps certificate (deduction solves it)."""
    cert = certify(hand_made("unique"))
    path = write(cert, tmp_path_factory.mktemp("good") / "cert")
    assert (path / STEPS).is_file()
    return path


def _manifest(d: Path) -> dict:
    return json.loads((d / MANIFEST).read_text())


def _rehash(d: Path, name: str) -> None:
    manifest = _manifest(d)
    data = (d / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (d / MANIFEST).write_text(json.dumps(manifest))


def _set(key: str, value: object) -> Callable[[Path], None]:
    def tamper(d: Path) -> None:
        manifest = _manifest(d)
        manifest[key] = value
        (d / MANIFEST).write_text(json.dumps(manifest))

    return tamper


def _files_entry_is_a_string(d: Path) -> None:
    manifest = _manifest(d)
    manifest["files"]["proof.drat"] = "deadbeef"
    (d / MANIFEST).write_text(json.dumps(manifest))


def _deep_manifest(d: Path) -> None:
    (d / MANIFEST).write_text("[" * 100_000)


def _steps_is_a_number(d: Path) -> None:
    (d / STEPS).write_text('{"steps": 5}')
    _rehash(d, STEPS)


def _deep_steps(d: Path) -> None:
    (d / STEPS).write_text('{"steps": ' + "[" * 100_000 + "]" * 100_000 + "}")
    _rehash(d, STEPS)


def _arabic_indic_digit(d: Path) -> None:
    obj = json.loads((d / SOLUTION).read_text())
    row = next(i for i, r in enumerate(obj["rows"]) if any(ch.isdigit() for ch in r))
    chars = list(obj["rows"][row])
    j = next(j for j, ch in enumerate(chars) if ch.isdigit())
    chars[j] = chr(0x0660 + int(chars[j]))  # the same digit, Arabic-Indic
    obj["rows"][row] = "".join(chars)
    (d / SOLUTION).write_text(json.dumps(obj, ensure_ascii=False))
    _rehash(d, SOLUTION)


def _drop_steps_kind(d: Path) -> None:
    manifest = _manifest(d)
    manifest["kinds"] = ["drat"]  # yet steps.json is listed
    (d / MANIFEST).write_text(json.dumps(manifest))


TAMPERS: dict[str, tuple[Callable[[Path], None], str]] = {
    "files is a list": (_set("files", ["puzzle.txt"]), "manifest:"),
    "a files entry is a string": (_files_entry_is_a_string, "manifest:"),
    "100,000 nested [": (_deep_manifest, "manifest:"),
    "steps is a number": (_steps_is_a_number, "steps:"),
    "steps nested 100,000 deep": (_deep_steps, "steps:"),
    "claim is not a claim": (_set("claim", "probably"), "manifest:"),
    "claim unsat on a unique certificate": (_set("claim", "unsat"), "manifest:"),
    "kinds names an unknown kind": (_set("kinds", ["drat", "vibes"]), "manifest:"),
    "kinds omits the steps it ships": (_drop_steps_kind, "manifest:"),
    "Arabic-Indic digit in solution.json": (_arabic_indic_digit, "solution:"),
    "puzzle id is a number": (_set("puzzle", 5), "manifest:"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_a_hostile_certificate_is_rejected_in_one_line(good: Path, tmp_path: Path, name: str):
    tamper, prefix = TAMPERS[name]
    cert = tmp_path / "cert"
    shutil.copytree(good, cert)
    tamper(cert)
    report = verify_certificate(cert)
    assert not report.ok
    assert report.reason.startswith(prefix), report.reason
    assert "\n" not in report.reason and len(report.reason) < 400, report.reason


def test_a_batch_with_hostile_certificates_checks_every_one(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """48 tampered certificates once printed 4 verdicts, then a traceback: now one verdict per
    certificate, the good ones verified, exit 1."""
    batch = tmp_path / "batch"
    for i, name in enumerate(sorted(TAMPERS)):
        shutil.copytree(good, batch / f"{i:02d}-bad")
        TAMPERS[name][0](batch / f"{i:02d}-bad")
    shutil.copytree(good, batch / "00-good")
    shutil.copytree(good, batch / "99-good")
    code = main(["verify", str(batch)])
    captured = capsys.readouterr()
    assert code == 1, captured
    assert "Traceback" not in captured.err and captured.err == "", captured.err
    verdicts = [line for line in captured.out.splitlines() if line.startswith(("VERIFIED", "REJ"))]
    assert len(verdicts) == len(TAMPERS) + 2, captured.out
    assert sum(v.startswith("VERIFIED") for v in verdicts) == 2
    assert f"{len(TAMPERS) + 2} certificates: 2 verified, {len(TAMPERS)} rejected" in captured.out


def test_the_good_certificate_still_verifies(good: Path) -> None:
    report = verify_certificate(good)
    assert report.ok, report.reason


def test_missing_msgspec_names_the_extra(
    good: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The schema needs msgspec (the certify extra): without it, one line naming the extra."""
    import sys

    monkeypatch.setitem(sys.modules, "msgspec", None)
    assert main(["verify", str(good)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "kakurolab[certify]" in err[0], err
