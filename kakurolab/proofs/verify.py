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

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..encodings import encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..errors import KakuroError, one_line, require
from ..fileio import TooLarge, read_limited
from ..formats import loads
from ..model import Puzzle, Solution
from ..rulebook import solution_problems, validate
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

if TYPE_CHECKING:  # msgspec (the certify extra) is imported when a certificate is read
    from .manifest import Manifest, SolutionFile

T = TypeVar("T")
ASCII_DIGITS = frozenset("0123456789")


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
    claim: str = "unique"
    """What the certificate claims: ``unique`` (exactly one solution) or ``unsat`` (none)."""
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
    require("msgspec", extra="certify", feature="reading certificates")  # the schema's
    report = Verification(directory)
    engines = tuple(engines) if engines is not None else available_engines()
    try:
        manifest, blobs = _read_files(directory, report)
        puzzle = _check_puzzle(blobs, report)
        solution = None
        if manifest.claim == "unique":
            solution = _check_solution(blobs, puzzle, report)
        _check_formula(manifest, blobs, puzzle, solution, report, strict)
        _check_proof(blobs, report, engines)
        if steps and solution is not None and STEPS in blobs:
            _check_steps(blobs, puzzle, solution, report)
    except Rejected:
        pass
    return report


def _need(report: Verification, name: str, ok: bool, detail: str) -> None:
    """Record a failed check and stop; a passing one is recorded by its summary line."""
    if not ok:
        report.add(name, False, detail)
        raise Rejected


def _read_files(directory: Path, report: Verification) -> tuple[Manifest, dict[str, bytes]]:
    """The manifest, decoded with the declared schema, and the files it lists, each matching
    its hash; only regular files inside ``directory``, each read to its declared size + 1."""
    from .manifest import MAX_JSON_BYTES, SchemaError, read_manifest

    try:
        manifest = read_manifest(read_limited(directory / MANIFEST, limit=MAX_JSON_BYTES))
    except (OSError, KakuroError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        prefix = "" if isinstance(exc, SchemaError) else f"cannot read {MANIFEST}: "
        _need(report, "manifest", False, f"{prefix}{reason}")
    report.claim = manifest.claim
    report.puzzle_id = manifest.puzzle
    report.add("manifest", True, f"{FORMAT}, claim {manifest.claim!r}, kinds {manifest.kinds}")
    blobs: dict[str, bytes] = {}
    for name, want in sorted(manifest.files.items()):
        path = directory / name
        try:
            data = read_limited(path, limit=want.bytes)
        except FileNotFoundError:
            _need(report, "files", False, f"{name} is missing")
        except TooLarge:
            _need(
                report,
                "hashes",
                False,
                f"{name} does not match its manifest entry (larger than {want.bytes} bytes)",
            )
        except (OSError, KakuroError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            _need(report, "files", False, f"{name}: {reason}")
        got = digest(data)
        _need(
            report,
            "hashes",
            got == {"sha256": want.sha256, "bytes": want.bytes},
            f"{name} does not match its manifest entry (sha256 {got['sha256'][:12]}..., "
            f"{got['bytes']} bytes; manifest {want.sha256[:12]}..., {want.bytes} bytes)",
        )
        blobs[name] = data
    report.add("hashes", True, f"{len(blobs)} files match their sha256 in {MANIFEST}")
    return manifest, blobs


def read_solution(puzzle: Puzzle, obj: Any) -> Solution:
    """A solution.json object (decoded JSON) back into a Solution; shape errors raise
    KakuroError.  Only ASCII digits are digits (``٣`` is not 3)."""
    from .manifest import SchemaError, SolutionFile

    try:
        found = msgspec_convert(obj, SolutionFile)
    except SchemaError as exc:
        raise KakuroError(str(exc)) from None
    return _solution(puzzle, found)


def _solution(puzzle: Puzzle, found: SolutionFile) -> Solution:
    rows = found.rows
    if len(rows) != puzzle.nrows or any(len(row) != puzzle.ncols for row in rows):
        raise KakuroError(f"the rows do not have the puzzle's {puzzle.nrows}x{puzzle.ncols} shape")
    values = {}
    for r, c in puzzle.whites:
        ch = rows[r][c]
        if ch not in ASCII_DIGITS:
            raise KakuroError(f"r{r + 1}c{c + 1} holds {ch!r}, not a digit 0-9")
        values[(r, c)] = int(ch)
    return Solution(values, dict(found.letters))


def msgspec_convert(obj: Any, kind: type[T]) -> T:
    """An already decoded JSON value as the schema type ``kind``, or one SchemaError line."""
    import msgspec

    from .manifest import SchemaError

    try:
        return msgspec.convert(obj, kind)
    except msgspec.ValidationError as exc:
        raise SchemaError(one_line(exc)[:200]) from None
    except RecursionError:
        raise SchemaError("nested too deep") from None


def _check_puzzle(blobs: dict[str, bytes], report: Verification) -> Puzzle:
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
    return puzzle


def _check_solution(blobs: dict[str, bytes], puzzle: Puzzle, report: Verification) -> Solution:
    from .manifest import SchemaError, SolutionFile, decode

    try:
        solution = _solution(puzzle, decode(blobs[SOLUTION], SolutionFile, SOLUTION))
    except SchemaError as exc:
        _need(report, "solution", False, str(exc))
    except KakuroError as exc:
        _need(report, "solution", False, f"{SOLUTION}: {exc}")
    problems = solution_problems(puzzle, solution)
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    _need(report, "rules", not problems, f"{problems[0] if problems else ''}{more}")
    report.add("rules", True, f"the solution in {SOLUTION} keeps every rule (rule checker)")
    return solution


def _check_formula(
    manifest: Manifest,
    blobs: dict[str, bytes],
    puzzle: Puzzle,
    solution: Solution | None,
    report: Verification,
    strict: bool,
) -> None:
    """Re-encode the puzzle with the recorded spec and demand exactly the recorded formula:
    with the solution's blocking clause for ``unique``, the puzzle's formula alone for
    ``unsat``."""
    try:
        spec = certificate_spec(manifest.encoding)
    except KakuroError as exc:
        _need(report, "encoding", False, str(exc))
    reference = spec == parse_spec(REFERENCE_ENCODING)
    _need(
        report,
        "encoding",
        reference or not strict,
        f"{spec} is not the reference encoding {parse_spec(REFERENCE_ENCODING)} (--strict)",
    )
    version = manifest.encoder
    _need(
        report,
        "encoding",
        version in (*LEGACY_PARTS, ENCODER_VERSION),
        f"made by encoder version {version!r}; this kakurolab re-encodes versions "
        f"{', '.join(map(str, sorted({*LEGACY_PARTS, ENCODER_VERSION})))}",
    )
    implicit = {k: v for k, v in LEGACY_PARTS.get(version, {}).items() if k not in spec}
    start = time.perf_counter()
    try:
        enc = encode(puzzle, spec.replace(**implicit))
    except KakuroError as exc:
        _need(report, "encoding", False, f"{spec} cannot encode the puzzle: {exc}")
    assert isinstance(enc, CNFEncoding)  # certificate_spec admits CNF specs only
    block = None
    if solution is not None:
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
    tail = (
        "the puzzle's formula alone (an unsat claim)"
        if block is None
        else f"{len(enc.clauses)} clauses + the blocking clause of the solution"
    )
    report.add(
        "formula",
        True,
        f"re-encoding with {spec} ({which}{legacy}) gives exactly {FORMULA}: "
        f"{enc.n_vars} variables, {tail}",
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
    import msgspec

    from .manifest import SchemaError, StepsFile, decode
    from .stepcheck import check_steps

    try:
        raw = msgspec.to_builtins(decode(blobs[STEPS], StepsFile, STEPS).steps)
    except SchemaError as exc:
        _need(report, "steps", False, str(exc))
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

