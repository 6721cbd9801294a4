"""Making a certificate: find a solution, then refute every other one with a DRAT proof.

:func:`certify` trusts its solver for nothing it writes: each witness passes the rule checker
first, and :mod:`kakurolab.proofs.verify` re-derives everything else from the files.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import deadline as deadlines
from ..encodings import encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..encodings.spec import Spec
from ..errors import KakuroError
from ..formats import dumps
from ..model import Puzzle, Solution
from ..rulebook import solution_problems
from ..uniqueness import Verdict
from .formula import (
    DEFAULT_SOLVER,
    ENCODER_VERSION,
    FORMAT,
    FORMULA,
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
    proof_solver,
)


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
    refuted: bool = False
    """Whether the solver refuted the certificate's formula with proof logging on (a proof
    may be empty: unit propagation alone refutes some formulas)."""
    timeout: float | None = None
    """The limit (seconds) that ran out when the verdict is ``unknown`` (or ``unsat`` with no
    proof yet)."""

    @property
    def certified(self) -> bool:
        """Whether there is a certificate to write: a ``unique`` or ``unsat`` verdict with
        its DRAT proof."""
        return self.verdict in (Verdict.UNIQUE, Verdict.UNSAT) and self.refuted


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

    from ..backends.pysat import solve_until

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
        return _refute_puzzle(cert, enc, name, at, timeout)
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
    cert.refuted = True
    cert.formula = formula_text(enc, cert.block)
    cert.proof = "".join(line + "\n" for line in out or ())
    cert.size = _size(enc, cert.proof, len(out or ()), blocking=True)
    if steps and not puzzle.is_cryptic:
        left = None if at is None else max(0.0, at - time.perf_counter())
        cert.steps, cert.times["deduce"] = _deduction_steps(puzzle, first, left)
    return cert


def _refute_puzzle(
    cert: Certification, enc: CNFEncoding, name: str, at: float | None, timeout: float | None
) -> Certification:
    """An ``unsat`` verdict's certificate: the puzzle's formula alone and the solver's DRAT
    refutation of it (solved again with proof logging, which the first solve does without:
    most puzzles have a solution, and logging costs).  Past the deadline the verdict stays
    ``unsat`` without a certificate, ``timeout`` set."""
    sat, out, cert.times["refute"] = _solve(name, enc.clauses, proof=True, at=at)
    if sat is None:
        cert.timeout = timeout
        return cert
    if sat:  # the same formula, another run of the same solver: never believed
        raise KakuroError(f"puzzle {cert.puzzle.id}: the solver found no model, then one")
    cert.formula = formula_text(enc, None)
    cert.refuted = True
    cert.proof = "".join(line + "\n" for line in out or ())
    cert.size = _size(enc, cert.proof, len(out or ()), blocking=False)
    return cert


def _size(enc: CNFEncoding, proof: str, lines: int, *, blocking: bool) -> dict[str, int]:
    return {
        "variables": enc.n_vars,
        "clauses": len(enc.clauses) + blocking,
        "proof_lines": lines,
        "proof_bytes": len(proof.encode()),
    }


def _check_witness(puzzle: Puzzle, solution: Solution) -> None:
    problems = solution_problems(puzzle, solution)
    if problems:  # an encoder bug: never write a certificate around it
        raise KakuroError(f"puzzle {puzzle.id}: the solver's grid breaks a rule: {problems[0]}")


def _deduction_steps(
    puzzle: Puzzle, solution: Solution, timeout: float | None = None
) -> tuple[list[dict] | None, float]:
    """The explain steps when deduction alone reaches the solution (within ``timeout``: the
    certificate is whole without them), else None."""
    from ..logic import deduce

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


def tool_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("kakurolab", "python-sat", "dratify", "cdclkit-native"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def write_certificate(cert: Certification, directory: Path) -> Path:
    """Write a ``unique`` or ``unsat`` verdict's certificate into ``directory`` (created);
    returns it."""
    if not cert.certified:
        raise KakuroError(f"puzzle {cert.puzzle.id} is {cert.verdict}: no certificate")
    unique = cert.verdict is Verdict.UNIQUE
    directory.mkdir(parents=True, exist_ok=True)
    files = {PUZZLE: dumps([cert.puzzle], "kakuro")}
    if unique:
        solution = solution_json(cert.puzzle, cert.solutions[0])
        files[SOLUTION] = json.dumps(solution, indent=1) + "\n"
    files |= {FORMULA: cert.formula, PROOF: cert.proof}
    if unique and cert.steps is not None:
        files[STEPS] = steps_json(cert.puzzle.id, cert.steps)
    digests = {}
    for name, text in files.items():
        data = text.encode()
        (directory / name).write_bytes(data)
        digests[name] = digest(data)
    manifest = {
        "format": FORMAT,
        "puzzle": cert.puzzle.id,
        "claim": "unique" if unique else "unsat",
        "kinds": ["drat"] + (["steps"] if STEPS in files else []),
        "encoding": str(cert.spec),
        "encoder": ENCODER_VERSION,
        "reference_encoding": cert.spec == parse_spec(REFERENCE_ENCODING),
        "solver": cert.solver,
        "files": digests,
        "formula": {
            "variables": cert.size["variables"],
            "clauses": cert.size["clauses"],
            "blocking_clause": cert.block if unique else None,
        },
        "proof": {"lines": cert.size["proof_lines"], "bytes": cert.size["proof_bytes"]},
        "steps": len(cert.steps) if STEPS in files and cert.steps is not None else None,
        "times_s": {k: round(v, 6) for k, v in cert.times.items()},
        "tools": tool_versions(),
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return directory
