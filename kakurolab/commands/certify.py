"""``kakuro certify``: write a checkable certificate that each puzzle has exactly one solution
(or none: a DRAT refutation of the puzzle's formula)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..proofs import (
    DEFAULT_SOLVER,
    PROOF_SOLVERS,
    REFERENCE_ENCODING,
    Certification,
    certify,
    directory_name,
    write_certificate,
)
from ..uniqueness import Verdict
from ._common import (
    Batch,
    add_puzzle_args,
    add_timeout_arg,
    check_output_dir,
    emit_json,
    progress,
    solution_rows,
    timeout_fields,
)
from ._solving import exit_help, grid_lines
from .unique import SHOWN_CELLS, cell_names


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "certify",
        help="prove puzzles unique, or without solution, with a certificate (DRAT proof, "
        "deduction steps) that `kakuro verify` checks",
        epilog=exit_help(
            "every puzzle is certified unique", "some puzzle is multiple or has no solution"
        ),
    )
    add_puzzle_args(parser)
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR",
        help="directory for the certificates (one subdirectory per puzzle)",
    )
    parser.add_argument(
        "--encoding",
        default=REFERENCE_ENCODING,
        metavar="SPEC",
        help=f"CNF encoding (default: the reference encoding {REFERENCE_ENCODING})",
    )
    parser.add_argument(
        "--solver",
        default=DEFAULT_SOLVER,
        metavar="NAME",
        help=f"PySAT solver writing the DRAT proof (default {DEFAULT_SOLVER}; proof-capable: "
        f"{', '.join(PROOF_SOLVERS)})",
    )
    add_timeout_arg(parser)
    parser.add_argument(
        "--no-steps",
        action="store_true",
        help="skip the deduction-steps certificate (standard puzzles deduction solves)",
    )
    parser.set_defaults(func=run)


def _unique_dir(root: Path, puzzle_id: str, taken: set[str]) -> Path:
    name = base = directory_name(puzzle_id)
    n = 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return root / name


def _kinds(cert: Certification) -> list[str]:
    unique = cert.verdict is Verdict.UNIQUE
    return ["drat"] + ["steps"] * bool(unique and cert.steps is not None)


def _lines(cert: Certification, where: Path | None) -> list[str]:
    head = f"{cert.puzzle.id}: {cert.verdict}"
    if where is not None:
        kinds = "DRAT proof" + (" and deduction steps" if "steps" in _kinds(cert) else "")
        head += (
            f", certificate in {where} ({kinds}; proof {cert.size['proof_lines']} lines, "
            f"{cert.size['proof_bytes'] / 1024:.1f} KiB; refuted in {cert.times['refute']:.3f} s)"
        )
    if cert.timeout is not None:
        head += f" (timeout after {cert.timeout:g} s)"
    lines = [head]
    if cert.verdict is Verdict.MULTIPLE:
        first, second = cert.solutions[:2]
        names = cell_names(first.differences(second))
        shown = " ".join(names[:SHOWN_CELLS]) + (" ..." if len(names) > SHOWN_CELLS else "")
        lines[0] += f": no certificate; the witnesses differ at {shown or 'the letters'}"
        for solution in cert.solutions[:2]:
            lines.extend(grid_lines(cert.puzzle, solution))
            lines.append("")
    return lines


def run(args: argparse.Namespace) -> int:
    """Certify each valid puzzle; an invalid one gets its line in place (as in ``solve``) and
    the exit code 2, never a verdict: its impossible clue is bad input, not ``unsat``."""
    batch = Batch.load(args)
    root = check_output_dir(args.output)
    taken: set[str] = set()
    ok = True
    for puzzle in progress(batch, total=len(batch), desc="certify"):
        cert = certify(
            puzzle,
            encoding=args.encoding,
            solver=args.solver,
            steps=not args.no_steps,
            timeout=args.timeout,
        )
        where = None
        if cert.certified:
            where = write_certificate(cert, _unique_dir(root, puzzle.id, taken))
        ok &= cert.verdict is Verdict.UNIQUE
        if args.json:
            emit_json(
                {
                    "id": puzzle.id,
                    "verdict": str(cert.verdict),
                    "certificate": None if where is None else str(where),
                    "kinds": None if where is None else _kinds(cert),
                    "solutions": [solution_rows(puzzle, s) for s in cert.solutions],
                    "answers": [s.answer for s in cert.solutions] if puzzle.is_cryptic else None,
                    "encoding": str(cert.spec),
                    "solver": cert.solver,
                    "size": cert.size,
                    "phase_times": {k: round(v, 6) for k, v in cert.times.items()},
                    **timeout_fields(cert.timeout),
                }
            )
        else:
            for line in _lines(cert, where):
                print(line, flush=True)
    return batch.exit_code(0 if ok else 1)
