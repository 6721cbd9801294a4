"""What a certificate is made of and both sides agree on: its files, the reference encoding,
the encoder's version, the spec rules, the blocking clause and the formula's text.

A certificate is a directory.  ``solution.json`` is the solution; ``formula.cnf`` is the puzzle
as CNF plus one last clause that excludes that solution; ``proof.drat`` is the SAT solver's
DRAT proof that this formula is unsatisfiable; ``manifest.json`` holds hashes, sizes, times
and tool versions.  When deduction alone solves the puzzle, ``steps.json`` is a second,
independent certificate: the step list of ``kakuro explain``, which
:mod:`kakurolab.proofs.stepcheck` replays.  Nothing in a certificate names a path outside it.

A certificate of **no solution** (claim ``unsat``) has no solution and no steps:
``formula.cnf`` is the puzzle's formula alone and ``proof.drat`` refutes it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from ..encodings import parse_spec
from ..encodings.cnf import CNFEncoding
from ..encodings.spec import Spec
from ..errors import KakuroError
from ..model import Solution

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


def proof_solver(name: str) -> str:
    """The canonical name of a PySAT solver that writes proofs, or a one-line error."""
    from ..backends.pysat import check_solver

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


def formula_text(enc: CNFEncoding, block: Sequence[int] | None) -> str:
    """The encoder's DIMACS text (variable map and spec in comments) plus, for a ``unique``
    claim, the blocking clause as the last clause; for an ``unsat`` claim (``block`` None) the
    puzzle's formula alone, with a comment saying so."""
    lines = enc.to_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
    if block is None:
        lines.insert(header, "c unsat: the formula is the puzzle's alone, no blocking clause")
        return "\n".join(lines) + "\n"
    lines[header] = f"p cnf {enc.n_vars} {len(enc.clauses) + 1}"
    lines.insert(header, "c blocking: the last clause excludes the solution in solution.json")
    lines.append(" ".join(map(str, block)) + " 0")
    return "\n".join(lines) + "\n"


def digest(data: bytes) -> dict[str, Any]:
    """A file's manifest entry: its sha256 and its size."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def directory_name(puzzle_id: str) -> str:
    """A file-system-safe directory name for a puzzle id."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", puzzle_id).strip("._") or "puzzle"

