"""Certified uniqueness: a certificate anyone can check that a puzzle has exactly one solution.

A certificate is a directory.  ``solution.json`` is the solution; ``formula.cnf`` is the puzzle
as CNF plus one last clause that excludes that solution; ``proof.drat`` is the SAT solver's
DRAT proof that this formula is unsatisfiable; ``manifest.json`` holds hashes, sizes, times
and tool versions.  When deduction alone solves the puzzle, ``steps.json`` is a second,
independent certificate: the step list of ``kakuro explain``, which :mod:`kakurolab.stepcheck`
replays.  Nothing in a certificate names a path outside it.

:func:`verify_certificate` trusts none of the solver: it runs the rule checker on the
solution, re-encodes the puzzle with the recorded spec and demands exactly the recorded CNF
(blocking clause included), and replays the proof with ``dratify`` (pure Python, and its
native engine too when installed; both must accept).  What stays trusted is written down in
docs/certificates.md: the encoder, the rule checker and the DRAT checker.  The encoder part is
kept small by certifying with :data:`REFERENCE_ENCODING` and by :func:`self_test`.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from itertools import permutations
from pathlib import Path
from typing import Any

from . import deadline as deadlines
from .encodings import encode, parse_spec
from .encodings.cnf import CNFEncoding
from .encodings.spec import Spec
from .errors import KakuroError, require
from .formats import dumps, loads
from .model import Block, Clue, ClueCell, Puzzle, Solution, Square, White
from .rulebook import solution_problems, validate
from .schema import seconds
from .uniqueness import Verdict

REFERENCE_ENCODING = "cell=direct,sum=combo,alldiff=pairwise,amo=pairwise"
"""The encoding certificates use by default: the one whose clauses are easiest to read as the
rules.  One variable per cell and digit, exactly one digit per cell, pairwise all-different,
and per run one named selector for each admissible digit set (the set's digits occur in the
run iff it is chosen).  Every variable has a name in the file; no clause comes from a library
encoder (``naive``'s pysat.pb sums come from PBLib and bring anonymous auxiliaries), and its
proofs are about ten times smaller than ``naive``'s (docs/certificates.md)."""

DEFAULT_SOLVER = "cadical195"

PROOF_SOLVERS = (
    "cadical103",
    "cadical153",
    "cadical195",
    "cadical300",
    "ergo",
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "lingeling",
    "maplechrono",
    "maplecm",
    "maplesat",
)
"""PySAT solvers that write a DRAT proof with ``with_proof=True`` (CryptoMiniSat, Kissat,
MergeSat, Minicard and the MiniSats refuse; checked with python-sat 1.9.dev24)."""

FORMAT = "kakurolab-certificate/1"

ENCODER_VERSION = 4
"""The CNF encoder's version, recorded in every manifest (``encoder``): verify re-encodes,
and a formula from another version differs byte for byte.  1: before 2026-12 (no ``encoder``
field), two-letter clues tied by one clause per digit pair; 2: ``ties=split`` by default;
3: ``sets=exclude`` (``combo:lean`` writes wide cryptic runs without selectors) and
``guards=literal`` (a cryptic sum that is one letter's digit is selected by that literal) by
default; 4: ``letters=live`` (a presolved cryptic formula has letter variables only for the
digits the presolve left to undecided letters) by default."""

LEGACY_PARTS: dict[int, dict[str, str]] = {
    1: {"ties": "pairs", "sets": "select", "guards": "own", "letters": "all"},
    2: {"sets": "select", "guards": "own", "letters": "all"},
    3: {"letters": "all"},
}
"""Per older encoder version, the parts it used without naming them in its spec: verify adds
them (unless the spec names the part) to re-encode such a certificate exactly."""
PUZZLE, SOLUTION, FORMULA, PROOF, STEPS, MANIFEST = (
    "puzzle.txt",
    "solution.json",
    "formula.cnf",
    "proof.drat",
    "steps.json",
    "manifest.json",
)
ENGINES = ("python", "native")


class CertifyError(KakuroError):
    """A puzzle or option certify cannot work with (not a rejected certificate)."""


# -- making a certificate ------------------------------------------------------------------


@dataclass
class Certification:
    """The outcome of :func:`certify`: a verdict, its witnesses and, when unique, the files."""

    puzzle: Puzzle
    verdict: Verdict
    solutions: list[Solution]
    spec: Spec
    solver: str
    formula: str = ""
    proof: str = ""
    steps: list[dict[str, Any]] | None = None
    block: list[int] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    size: dict[str, int] = field(default_factory=dict)
    timeout: float | None = None
    """The limit (seconds) that ran out when the verdict is ``unknown``."""


def proof_solver(name: str) -> str:
    """The canonical name of a PySAT solver that writes proofs, or a one-line error."""
    from .backends.pysat import check_solver

    canonical = check_solver(name)
    if canonical not in PROOF_SOLVERS:
        raise CertifyError(
            f"pysat solver {canonical!r} writes no DRAT proof; use one of: "
            + ", ".join(PROOF_SOLVERS)
        )
    return canonical


def certificate_spec(text: str | Spec) -> Spec:
    """A CNF spec whose formula is the whole puzzle (no lazy sums, no SMT)."""
    spec = parse_spec(text)
    if spec.family != "cnf":
        raise CertifyError(f"certificates need a CNF encoding, not {spec}")
    if spec.name("sum") == "lazy":
        raise CertifyError("sum=lazy leaves the run sums out of the CNF: it cannot certify")
    return spec


def blocking_clause(enc: CNFEncoding, solution: Solution) -> list[int]:
    """The clause ``not (this grid and these letters)``: with it, any model is another
    solution.  Letters count (all ten), so a grid whose unused letters could swap is not
    certified unique, as :mod:`kakurolab.uniqueness` counts those as distinct solutions."""
    lits = list(enc.solution_lits(solution))
    if enc.puzzle.is_cryptic:
        lits += enc.letter_lits(solution.letters)
    return [-lit for lit in lits]


def formula_text(enc: CNFEncoding, block: Sequence[int]) -> str:
    """The encoder's DIMACS text (variable map and spec in comments) plus the blocking clause
    as the last clause."""
    lines = enc.to_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
    lines[header] = f"p cnf {enc.n_vars} {len(enc.clauses) + 1}"
    lines.insert(header, "c blocking: the last clause excludes the solution in solution.json")
    lines.append(" ".join(map(str, block)) + " 0")
    return "\n".join(lines) + "\n"


def _solve(
    name: str, clauses: Iterable[list[int]], *, proof: bool, at: float | None = None
) -> tuple[bool | None, Any, float]:
    """Solve (with a DRAT proof when asked); None instead of an answer when the deadline
    ``at`` (a ``time.perf_counter()`` value) passes first, stopped the way every pysat session
    is (:func:`~kakurolab.backends.pysat.solve_until`: CaDiCaL cannot be interrupted)."""
    start = time.perf_counter()
    if at is None:
        answer, out = _solve_here(name, clauses, proof, None)
        return answer, out, time.perf_counter() - start
    clauses = list(clauses)
    # loading a large formula and CaDiCaL's preprocessing heed no clock: past a deadline the
    # child doing them is killed
    found = deadlines.in_child(lambda: _solve_here(name, clauses, proof, at), at)
    answer, out = found if found is not None else (None, None)
    return answer, out, time.perf_counter() - start


def _solve_here(
    name: str, clauses: Iterable[list[int]], proof: bool, at: float | None
) -> tuple[bool | None, Any]:
    from pysat.solvers import Solver

    from .backends.pysat import solve_until

    with Solver(name=name, bootstrap_with=clauses, with_proof=proof) as solver:
        answer = solve_until(solver, at)
        out = None
        if answer is not None:
            out = solver.get_model() if answer else (solver.get_proof() if proof else None)
    return answer, out


def certify(
    puzzle: Puzzle,
    *,
    encoding: str | Spec = REFERENCE_ENCODING,
    solver: str = DEFAULT_SOLVER,
    steps: bool = True,
    timeout: float | None = None,
) -> Certification:
    """Find a solution, then refute every other one with a DRAT proof.

    The verdict is ``unique`` (with the certificate's contents), ``multiple`` (with two
    witnesses) or ``unsat``; ``unknown`` when ``timeout`` (seconds, encoding, both solves and
    the deduction steps included) runs out first (then ``timeout`` is set)."""
    at = None if timeout is None else time.perf_counter() + timeout
    spec = certificate_spec(encoding)
    name = proof_solver(solver)
    puzzle = Puzzle(puzzle.id, puzzle.grid)  # the grid only: meta may hold paths or answers
    late = Certification(puzzle, Verdict.UNKNOWN, [], spec, name, timeout=timeout)
    try:
        with deadlines.deadline(at):
            enc = encode(puzzle, spec)
    except deadlines.EncodingTimeout:
        return late
    assert isinstance(enc, CNFEncoding)
    cert = Certification(puzzle, Verdict.UNSAT, [], spec, name)
    cert.times["encode"] = enc.encode_time
    sat, model, cert.times["find"] = _solve(name, enc.clauses, proof=False, at=at)
    if sat is None:
        return late
    if not sat:
        return cert
    first = enc.decode(model)
    _check_witness(puzzle, first)
    cert.solutions.append(first)
    cert.block = blocking_clause(enc, first)
    sat, out, cert.times["refute"] = _solve(name, [*enc.clauses, cert.block], proof=True, at=at)
    if sat is None:
        late.solutions = cert.solutions
        return late
    if sat:
        second = enc.decode(out)
        _check_witness(puzzle, second)
        cert.solutions.append(second)
        cert.verdict = Verdict.MULTIPLE
        return cert
    cert.verdict = Verdict.UNIQUE
    cert.formula = formula_text(enc, cert.block)
    cert.proof = "".join(line + "\n" for line in out or ())
    cert.size = {
        "variables": enc.n_vars,
        "clauses": len(enc.clauses) + 1,
        "proof_lines": len(out or ()),
        "proof_bytes": len(cert.proof.encode()),
    }
    if steps and not puzzle.is_cryptic:
        left = None if at is None else max(0.0, at - time.perf_counter())
        cert.steps, cert.times["deduce"] = _deduction_steps(puzzle, first, left)
    return cert


def _check_witness(puzzle: Puzzle, solution: Solution) -> None:
    problems = solution_problems(puzzle, solution)
    if problems:  # an encoder bug: never write a certificate around it
        raise KakuroError(f"puzzle {puzzle.id}: the solver's grid breaks a rule: {problems[0]}")


def _deduction_steps(
    puzzle: Puzzle, solution: Solution, timeout: float | None = None
) -> tuple[list[dict] | None, float]:
    """The explain steps when deduction alone reaches the solution (within ``timeout``: the
    certificate is whole without them), else None."""
    from .logic import deduce

    start = time.perf_counter()
    result = deduce(puzzle, timeout=timeout)
    elapsed = time.perf_counter() - start
    if not result.solved or dict(result.state.placed) != dict(solution.values):
        return None, elapsed
    return [step.to_json() for step in result.steps], elapsed


def solution_json(puzzle: Puzzle, solution: Solution) -> dict[str, Any]:
    obj: dict[str, Any] = {"puzzle": puzzle.id, "rows": solution.rows(puzzle)}
    if puzzle.is_cryptic:
        obj["letters"] = dict(sorted(solution.letters.items()))
        obj["answer"] = solution.answer
    return obj


def steps_json(puzzle_id: str, steps: list[dict[str, Any]]) -> str:
    """The steps certificate, one step a line, so a person can read it top to bottom."""
    head = json.dumps({"puzzle": puzzle_id, "claim": "unique"})[:-1]
    body = ",\n".join("  " + json.dumps(step) for step in steps)
    return f'{head}, "steps": [\n{body}\n]}}\n'


def _digest(data: bytes) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def tool_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("kakurolab", "python-sat", "dratify", "cdclkit-native"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def directory_name(puzzle_id: str) -> str:
    """A file-system-safe directory name for a puzzle id."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", puzzle_id).strip("._") or "puzzle"


def write_certificate(cert: Certification, directory: Path) -> Path:
    """Write a unique verdict's certificate into ``directory`` (created); returns it."""
    if cert.verdict is not Verdict.UNIQUE:
        raise KakuroError(f"puzzle {cert.puzzle.id} is {cert.verdict}: no certificate")
    directory.mkdir(parents=True, exist_ok=True)
    files = {
        PUZZLE: dumps([cert.puzzle], "kakuro"),
        SOLUTION: json.dumps(solution_json(cert.puzzle, cert.solutions[0]), indent=1) + "\n",
        FORMULA: cert.formula,
        PROOF: cert.proof,
    }
    if cert.steps is not None:
        files[STEPS] = steps_json(cert.puzzle.id, cert.steps)
    digests = {}
    for name, text in files.items():
        data = text.encode()
        (directory / name).write_bytes(data)
        digests[name] = _digest(data)
    manifest = {
        "format": FORMAT,
        "puzzle": cert.puzzle.id,
        "claim": "unique",
        "kinds": ["drat"] + (["steps"] if cert.steps is not None else []),
        "encoding": str(cert.spec),
        "encoder": ENCODER_VERSION,
        "reference_encoding": cert.spec == parse_spec(REFERENCE_ENCODING),
        "solver": cert.solver,
        "files": digests,
        "formula": {
            "variables": cert.size["variables"],
            "clauses": cert.size["clauses"],
            "blocking_clause": cert.block,
        },
        "proof": {"lines": cert.size["proof_lines"], "bytes": cert.size["proof_bytes"]},
        "steps": None if cert.steps is None else len(cert.steps),
        "times_s": {k: round(v, 6) for k, v in cert.times.items()},
        "tools": tool_versions(),
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return directory


# -- checking a certificate ----------------------------------------------------------------


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
        got = _digest(data)
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


# -- the encoder self-test -----------------------------------------------------------------


@dataclass
class SelfTest:
    """Per spec, the (length, clue) pairs whose models differ from brute force."""

    spec: str
    pairs: int = 0
    models: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def single_run(length: int, total: int) -> Puzzle:
    """One across run of ``length`` cells with clue ``total`` (the cells' down runs have no
    clue and allow any digit), built directly so impossible clues can be encoded too."""
    row: tuple[Square, ...] = (
        ClueCell(across=Clue(value=total)),
        *(White() for _ in range(length)),
    )
    return Puzzle(f"run{length}-{total}", (row, (Block(),) * (length + 1)))


def brute_force(length: int, total: int) -> set[tuple[int, ...]]:
    return {t for t in permutations(range(1, 10), length) if sum(t) == total}


def run_models(spec: Spec, length: int, total: int, solver: str = "minisat22") -> set[tuple]:
    """Every filling of a single run the encoding admits (models projected on the cells)."""
    from pysat.solvers import Solver

    puzzle = single_run(length, total)
    enc = encode(puzzle, spec)
    assert isinstance(enc, CNFEncoding)
    found: set[tuple[int, ...]] = set()
    with Solver(name=solver, bootstrap_with=enc.clauses) as sat:
        while sat.solve():
            solution = enc.decode(sat.get_model())
            grid = tuple(solution.values[cell] for cell in puzzle.whites)
            if grid in found:
                raise KakuroError(f"{spec}: the same filling {grid} came back after blocking")
            found.add(grid)
            sat.add_clause([-lit for lit in enc.solution_lits(solution)])
    return found


def self_test(spec: str | Spec, max_length: int = 4) -> SelfTest:
    """Compare the encoding's models with brute force on every run of 1..max_length cells
    and every clue from 0 to one past the largest sum (impossible clues included)."""
    canon = certificate_spec(spec)
    result = SelfTest(str(canon))
    for length in range(1, max_length + 1):
        top = sum(range(10 - length, 10))
        for total in range(0, top + 2):
            got, want = run_models(canon, length, total), brute_force(length, total)
            result.pairs += 1
            result.models += len(got)
            if got != want:
                extra, missing = sorted(got - want)[:2], sorted(want - got)[:2]
                result.failures.append(
                    f"{length} cells, clue {total}: {len(got)} models, brute force "
                    f"{len(want)} (extra {extra}, missing {missing})"
                )
    return result


def self_test_specs() -> list[str]:
    """The reference encoding, then every sum encoding with direct cells, then the CNF
    presets (lazy excluded: its sums are not clauses)."""
    from .encodings import PRESETS
    from .encodings.cnf.sums import SUMS

    specs = [REFERENCE_ENCODING]
    for record in SUMS.values():
        if record.lazy:
            continue
        for arg in record.args or (None,):
            value = record.name if arg is None else f"{record.name}:{arg}"
            alldiff = "" if record.implies_alldiff else ",alldiff=pairwise"
            specs.append(f"cell=direct,sum={value}{alldiff}")
    for name, preset in PRESETS.items():
        spec = parse_spec(preset.spec)
        if spec.family == "cnf" and spec.name("sum") != "lazy":
            specs.append(name)
    unique: dict[str, str] = {}
    for text in specs:
        unique.setdefault(str(parse_spec(text)), text)
    return list(unique.values())


# -- one experiment row --------------------------------------------------------------------


def _grid_digest(puzzle: Puzzle, solution: Solution) -> str:
    return hashlib.sha256("\n".join(solution.rows(puzzle)).encode()).hexdigest()[:16]


def certificate_row(puzzle: Puzzle, encoding: str, solver: str, workdir: Path) -> dict[str, Any]:
    """Certify, write into ``workdir``, verify with every engine: the experiment's row fields
    (sizes, solve and check times, their ratios).  Solve time is the whole uniqueness solve
    (find the solution, then refute the rest with proof logging on)."""
    start = time.perf_counter()
    cert = certify(puzzle, encoding=encoding, solver=solver)
    solve = cert.times.get("find", 0.0) + cert.times.get("refute", 0.0)
    row: dict[str, Any] = {
        "verdict": str(cert.verdict),
        "encode_s": seconds(cert.times.get("encode", 0.0)),
        "solve_s": seconds(solve),
        "find_s": seconds(cert.times.get("find", 0.0)),
        "refute_s": seconds(cert.times.get("refute", 0.0)),
        "certify_s": seconds(time.perf_counter() - start),
        "answer": cert.solutions[0].answer if cert.solutions else None,
    }
    if cert.verdict is not Verdict.UNIQUE:
        return {**row, "status": "error", "message": f"not certified: {cert.verdict}"}
    report = verify_certificate(write_certificate(cert, workdir))
    checks = {k: round(v, 6) for k, v in report.times.items()}
    row.update(
        status="sat" if report.ok else "error",
        verified=report.ok,
        message=report.reason,
        outcome=f"unique:{row['answer'] or _grid_digest(cert.puzzle, cert.solutions[0])}",
        variables=cert.size["variables"],
        clauses=cert.size["clauses"],
        proof_lines=cert.size["proof_lines"],
        proof_bytes=cert.size["proof_bytes"],
        steps=None if cert.steps is None else len(cert.steps),
        check_times=checks,
        time=round(solve, 6),
    )
    for engine in ENGINES:
        took = report.times.get(f"check_{engine}")
        row[f"check_{engine}"] = None if took is None else round(took, 6)
        row[f"ratio_{engine}"] = None if took is None or solve <= 0 else round(took / solve, 4)
    return row
