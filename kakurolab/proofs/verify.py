"""Checking a certificate without trusting the solver that made it.

:func:`verify_certificate` runs the rule checker on the solution, re-encodes the puzzle with
the recorded spec and demands exactly the recorded CNF (blocking clause included), and replays
the proof with ``dratify`` (pure Python, and its native engine too when installed; both must
accept).  What stays trusted is written down in docs/certificates.md: the encoder, the rule
checker and the DRAT checker.  The encoder part is kept small by certifying with
:data:`~kakurolab.proofs.formula.REFERENCE_ENCODING` and by
:func:`~kakurolab.proofs.selftest.self_test`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..check import solution_problems, validate
from ..encodings import encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..errors import KakuroError, require
from ..formats import loads
from ..model import Puzzle, Solution
from .formula import (
    ENCODER_VERSION,
    ENGINES,
    FORMAT,
    FORMULA,
    LEGACY_PARTS,
    MANIFEST,
    PROOF,
    PUZZLE,
    REFERENCE_ENCODING,
    SOLUTION,
    STEPS,
    blocking_clause,
    certificate_spec,
    digest,
    formula_text,
)


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Verification:
    """What verify checked, each with its outcome; ``ok`` only when every check passed."""

    directory: Path
    puzzle_id: str = "?"
    checks: list[Check] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    steps_lines: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    @property
    def reason(self) -> str:
        bad = next((c for c in self.checks if not c.ok), None)
        return "" if bad is None else f"{bad.name}: {bad.detail}"

    def add(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok


class Rejected(Exception):
    """Stops verification at the first failed check (already recorded)."""


def certificate_dirs(root: Path) -> list[Path]:
    """``root`` itself when it is a certificate, else its certificate subdirectories."""
    if (root / MANIFEST).is_file():
        return [root]
    if not root.is_dir():
        raise KakuroError(f"{root}: no such directory")
    found = sorted(p.parent for p in root.glob(f"*/{MANIFEST}"))
    if not found:
        raise KakuroError(f"{root}: no certificate ({MANIFEST}) in it or its subdirectories")
    return found


def dratify_module() -> Any:
    return require("dratify", extra="certify", feature="checking DRAT proofs")


def available_engines() -> tuple[str, ...]:
    """``python`` always; ``native`` when a native checker is installed (cdclkit-native
    registers only when asked, so it is offered to dratify here)."""
    dratify = dratify_module()
    if not dratify.native_available():
        try:
            import cdclkit_native

            dratify.register_native(cdclkit_native)
        except ImportError:
            pass
    return ENGINES if dratify.native_available() else ENGINES[:1]


def verify_certificate(
    directory: Path,
    *,
    engines: Sequence[str] | None = None,
    strict: bool = False,
    steps: bool = True,
) -> Verification:
    """Check one certificate directory; every check is recorded, the first failure ends it.

    ``strict`` also rejects certificates not made with :data:`REFERENCE_ENCODING` (whose
    encoder is the smallest part of the trusted base)."""
    report = Verification(directory)
    engines = tuple(engines) if engines is not None else available_engines()
    try:
        manifest, blobs = _read_files(directory, report)
        puzzle, solution = _check_solution(manifest, blobs, report)
        _check_formula(manifest, blobs, puzzle, solution, report, strict)
        _check_proof(blobs, report, engines)
        if steps and STEPS in blobs:
            _check_steps(blobs, puzzle, solution, report)
    except Rejected:
        pass
    return report


def _need(report: Verification, name: str, ok: bool, detail: str) -> None:
    """Record a failed check and stop; a passing one is recorded by its summary line."""
    if not ok:
        report.add(name, False, detail)
        raise Rejected


def _read_files(directory: Path, report: Verification) -> tuple[dict[str, Any], dict[str, bytes]]:
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        _need(report, "manifest", False, f"cannot read {MANIFEST}: {exc}")
    _need(
        report,
        "manifest",
        isinstance(manifest, dict) and manifest.get("format") == FORMAT,
        f"{MANIFEST} is not a {FORMAT} manifest",
    )
    report.add("manifest", True, f"{FORMAT}, claim {manifest.get('claim')!r}")
    report.puzzle_id = str(manifest.get("puzzle", "?"))
    files = manifest.get("files") or {}
    blobs: dict[str, bytes] = {}
    for name in (PUZZLE, SOLUTION, FORMULA, PROOF):
        _need(report, "files", name in files, f"the manifest lists no {name}")
    for name, want in sorted(files.items()):
        _need(report, "files", "/" not in name and "\\" not in name, f"{name!r} is not local")
        path = directory / name
        _need(report, "files", path.is_file(), f"{name} is missing")
        data = path.read_bytes()
        got = digest(data)
        _need(
            report,
            "hashes",
            got == want,
            f"{name} does not match its manifest entry (sha256 {got['sha256'][:12]}..., "
            f"{got['bytes']} bytes; manifest {str(want.get('sha256'))[:12]}..., "
            f"{want.get('bytes')} bytes)",
        )
        blobs[name] = data
    report.add("hashes", True, f"{len(blobs)} files match their sha256 in {MANIFEST}")
    return manifest, blobs


def read_solution(puzzle: Puzzle, obj: Any) -> Solution:
    """A solution.json object back into a Solution (shape errors raise KakuroError)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("rows"), list):
        raise KakuroError("solution.json has no rows")
    rows = obj["rows"]
    if len(rows) != puzzle.nrows or any(
        not isinstance(row, str) or len(row) != puzzle.ncols for row in rows
    ):
        raise KakuroError(f"the rows do not have the puzzle's {puzzle.nrows}x{puzzle.ncols} shape")
    values = {}
    for r, c in puzzle.whites:
        ch = rows[r][c]
        if not ch.isdigit():
            raise KakuroError(f"r{r + 1}c{c + 1} holds {ch!r}, not a digit")
        values[(r, c)] = int(ch)
    letters = obj.get("letters") or {}
    if not isinstance(letters, dict) or not all(isinstance(v, int) for v in letters.values()):
        raise KakuroError("the letters are not a map from letter to digit")
    return Solution(values, dict(letters))


def _check_solution(
    manifest: dict[str, Any], blobs: dict[str, bytes], report: Verification
) -> tuple[Puzzle, Solution]:
    try:
        (puzzle,) = loads(blobs[PUZZLE].decode(), format="kakuro", check=False)
        validate(puzzle, allow_short_runs=True)
    except (KakuroError, ValueError, UnicodeDecodeError) as exc:
        _need(report, "puzzle", False, f"{PUZZLE} does not hold one valid puzzle: {exc}")
    _need(
        report,
        "puzzle",
        puzzle.id == report.puzzle_id,
        f"{PUZZLE} holds puzzle {puzzle.id!r}, the manifest says {report.puzzle_id!r}",
    )
    try:
        solution = read_solution(puzzle, json.loads(blobs[SOLUTION]))
    except (KakuroError, ValueError) as exc:
        _need(report, "solution", False, f"{SOLUTION}: {exc}")
    problems = solution_problems(puzzle, solution)
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    _need(report, "rules", not problems, f"{problems[0] if problems else ''}{more}")
    report.add("rules", True, f"the solution in {SOLUTION} keeps every rule (rule checker)")
    return puzzle, solution


def _check_formula(
    manifest: dict[str, Any],
    blobs: dict[str, bytes],
    puzzle: Puzzle,
    solution: Solution,
    report: Verification,
    strict: bool,
) -> None:
    try:
        spec = certificate_spec(str(manifest.get("encoding")))
    except KakuroError as exc:
        _need(report, "encoding", False, str(exc))
    reference = spec == parse_spec(REFERENCE_ENCODING)
    _need(
        report,
        "encoding",
        reference or not strict,
        f"{spec} is not the reference encoding {parse_spec(REFERENCE_ENCODING)} (--strict)",
    )
    version = manifest.get("encoder", 1)
    _need(
        report,
        "encoding",
        version in (*LEGACY_PARTS, ENCODER_VERSION),
        f"made by encoder version {version!r}; this kakurolab re-encodes versions "
        f"{', '.join(map(str, sorted({*LEGACY_PARTS, ENCODER_VERSION})))}",
    )
    implicit = {k: v for k, v in LEGACY_PARTS.get(version, {}).items() if k not in spec}
    start = time.perf_counter()
    enc = encode(puzzle, spec.replace(**implicit))
    assert isinstance(enc, CNFEncoding)
    try:
        block = blocking_clause(enc, solution)
    except KeyError:
        _need(report, "formula", False, "the solution uses a digit the encoding rules out")
    text = formula_text(enc, block)
    if implicit:  # that encoder's comment names the spec as it was written, without them
        text = text.replace(f"c encoding {enc.spec}\n", f"c encoding {spec}\n", 1)
    expected = text.encode()
    report.times["encode"] = time.perf_counter() - start
    recorded = blobs[FORMULA]
    which = "the reference encoding" if reference else "NOT the reference encoding"
    _need(
        report,
        "formula",
        expected == recorded,
        _first_difference(expected.decode(), recorded.decode(errors="replace")),
    )
    legacy = f", encoder version {version}" if implicit else ""
    report.add(
        "formula",
        True,
        f"re-encoding with {spec} ({which}{legacy}) gives exactly {FORMULA}: "
        f"{enc.n_vars} variables, {len(enc.clauses)} clauses + the blocking clause of the "
        "solution",
    )


def _first_difference(expected: str, recorded: str) -> str:
    want, got = expected.splitlines(), recorded.splitlines()
    for i, (a, b) in enumerate(zip(want, got, strict=False), 1):
        if a != b:
            return (
                f"{FORMULA} line {i} differs from the re-encoded puzzle: "
                f"recorded {b[:60]!r}, expected {a[:60]!r}"
            )
    return (
        f"{FORMULA} has {len(got)} lines, the re-encoded puzzle {len(want)} "
        "(clauses added or removed)"
    )


def _check_proof(blobs: dict[str, bytes], report: Verification, engines: Sequence[str]) -> None:
    dratify = dratify_module()
    try:
        formula = dratify.parse_dimacs(blobs[FORMULA].decode(), strict=True)
        proof = blobs[PROOF].decode()
    except (ValueError, UnicodeDecodeError) as exc:
        _need(report, "drat", False, f"cannot read the formula or proof: {exc}")
    verdicts = []
    for engine in engines:
        start = time.perf_counter()
        try:
            result = dratify.check_proof(formula, proof, engine=engine)
        except (ValueError, RuntimeError) as exc:
            _need(report, f"drat:{engine}", False, f"{PROOF} is malformed: {exc}")
        report.times[f"check_{engine}"] = time.perf_counter() - start
        verdicts.append(result.ok)
        where = "" if result.ok else f" (first bad step {result.failed_step})"
        report.add(
            f"drat:{engine}",
            result.ok,
            f"{result.reason}{where}; {result.steps} steps, {result.rup_steps} RUP, "
            f"{result.rat_steps} RAT, {result.deletions} deletions "
            f"[dratify {dratify.__version__}, {engine} engine]",
        )
    _need(report, "drat", len(set(verdicts)) == 1, "the DRAT engines disagree")
    if not all(verdicts):
        raise Rejected


def _check_steps(
    blobs: dict[str, bytes], puzzle: Puzzle, solution: Solution, report: Verification
) -> None:
    from .stepcheck import check_steps

    try:
        raw = json.loads(blobs[STEPS])["steps"]
    except (ValueError, KeyError, TypeError) as exc:
        _need(report, "steps", False, f"{STEPS} is malformed: {exc}")
    start = time.perf_counter()
    result = check_steps(puzzle, raw)
    report.times["steps"] = time.perf_counter() - start
    _need(report, "steps", result.ok, result.reason)
    differ = sorted(c for c, d in result.grid.items() if solution.values.get(c) != d)
    _need(
        report,
        "steps",
        not differ,
        f"the steps end in another grid than {SOLUTION} ({len(differ)} cells differ)",
    )
    report.add("steps", True, f"{result.reason}; they end in the grid of {SOLUTION}")
    for justified in result.justified:
        report.steps_lines.append(f"step {justified.index} [{justified.technique}]")
        report.steps_lines.extend(justified.lines())

