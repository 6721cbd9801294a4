"""One experiment row of the ``certify`` task: certify, write, verify, and time each part."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from ..model import Puzzle, Solution
from ..schema import seconds
from ..uniqueness import Verdict
from .formula import ENGINES
from .produce import certify, write_certificate
from .verify import verify_certificate


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
    if not cert.certified:
        return {**row, "status": "error", "message": f"not certified: {cert.verdict}"}
    unique = cert.verdict is Verdict.UNIQUE
    report = verify_certificate(write_certificate(cert, workdir))
    checks = {k: round(v, 6) for k, v in report.times.items()}
    row.update(
        status=("sat" if unique else "unsat") if report.ok else "error",
        verified=report.ok,
        message=report.reason,
        outcome=(
            f"unique:{row['answer'] or _grid_digest(cert.puzzle, cert.solutions[0])}"
            if unique
            else "unsat"
        ),
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
