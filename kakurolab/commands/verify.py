"""``kakuro verify``: check certificates from ``kakuro certify`` without trusting the solver;
``--self-test`` checks the encoder against brute force instead."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..errors import KakuroError, MissingExtraError
from ..proofs import (
    ENGINES,
    REFERENCE_ENCODING,
    Verification,
    available_engines,
    certificate_dirs,
    self_test,
    self_test_specs,
    verify_certificate,
)
from ._common import emit_json
from ._solving import exit_help


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "verify",
        help="check uniqueness and no-solution certificates (rule checker, re-encoding, DRAT "
        "proof, steps)",
        epilog=exit_help("every certificate (or self-test) passes", "some certificate is rejected"),
    )
    parser.add_argument(
        "dirs",
        nargs="*",
        metavar="DIR",
        help="a certificate directory, or a directory of them (kakuro certify -o DIR)",
    )
    parser.add_argument(
        "--engine",
        choices=["auto", *ENGINES],
        default="auto",
        help="DRAT checker: auto (default) runs dratify's pure-Python engine and its native "
        "engine when installed, and both must accept",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help=f"reject certificates not made with the reference encoding {REFERENCE_ENCODING}",
    )
    parser.add_argument(
        "--no-steps", action="store_true", help="skip the deduction-steps certificates"
    )
    parser.add_argument(
        "--show-steps",
        action="store_true",
        help="print, for each deduction step, the run that rules out each removed digit",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="compare the encodings' models with brute force on every run of 1..N cells "
        "and every clue (the encoder part of the trusted base)",
    )
    parser.add_argument(
        "--encoding",
        action="append",
        metavar="SPEC",
        help="with --self-test: the encoding(s) to test (default: the reference encoding, "
        "every sum encoding and every CNF preset)",
    )
    parser.add_argument(
        "--max-length",
        type=int,
        default=4,
        metavar="N",
        help="with --self-test: the longest run tested (default 4)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.self_test:
        return _self_test(args)
    if not args.dirs:
        raise KakuroError("verify needs a certificate DIR (or --self-test)")
    engines = available_engines() if args.engine == "auto" else (args.engine,)
    if args.engine == "native" and "native" not in available_engines():
        raise KakuroError(
            "no native DRAT checker is installed (pip install cdclkit-native); use --engine python"
        )
    dirs = [d for root in args.dirs for d in certificate_dirs(Path(root))]
    rejected = 0
    for directory in dirs:
        start = time.perf_counter()
        report = _verify_one(args, directory, engines)
        rejected += not report.ok
        _print(args, report, time.perf_counter() - start)
    if not args.json and len(dirs) > 1:
        print(f"{len(dirs)} certificates: {len(dirs) - rejected} verified, {rejected} rejected")
    return 0 if not rejected else 1


def _verify_one(
    args: argparse.Namespace, directory: Path, engines: tuple[str, ...]
) -> Verification:
    """One certificate's report; a bad certificate is a rejected report, never the end of
    the batch (a missing extra still ends it: no certificate could be checked)."""
    try:
        return verify_certificate(
            directory, engines=engines, strict=args.strict, steps=not args.no_steps
        )
    except MissingExtraError:
        raise
    except KakuroError as exc:
        report = Verification(directory)
        report.add("certificate", False, str(exc))
        return report


def _print(args: argparse.Namespace, report: Verification, elapsed: float) -> None:
    if args.json:
        emit_json(
            {
                "certificate": str(report.directory),
                "id": report.puzzle_id,
                "claim": report.claim,
                "verified": report.ok,
                "reason": report.reason,
                "checks": [
                    {"check": c.name, "ok": c.ok, "detail": c.detail} for c in report.checks
                ],
                "phase_times": {k: round(v, 6) for k, v in report.times.items()},
            }
        )
        return
    if report.ok:
        claim = "has no solution" if report.claim == "unsat" else "has exactly one solution"
        print(f"VERIFIED {report.directory}: puzzle {report.puzzle_id} {claim} ({elapsed:.2f} s)")
    else:
        print(f"REJECTED {report.directory}: puzzle {report.puzzle_id}: {report.reason}")
    for check in report.checks:
        print(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}")
    if args.show_steps and report.steps_lines:
        print("\n".join("    " + line for line in report.steps_lines))


def _self_test(args: argparse.Namespace) -> int:
    if args.max_length < 1 or args.max_length > 6:
        raise KakuroError(f"--max-length must be 1-6, got {args.max_length}")
    specs = args.encoding or self_test_specs()
    ok = True
    for spec in specs:
        start = time.perf_counter()
        result = self_test(spec, args.max_length)
        ok &= result.ok
        elapsed = time.perf_counter() - start
        if args.json:
            emit_json(
                {
                    "encoding": result.spec,
                    "ok": result.ok,
                    "pairs": result.pairs,
                    "models": result.models,
                    "failures": result.failures,
                    "time_s": round(elapsed, 3),
                }
            )
            continue
        verdict = "ok  " if result.ok else "FAIL"
        print(
            f"{verdict} {result.spec}: {result.pairs} (length, clue) pairs, "
            f"{result.models} models equal brute force ({elapsed:.2f} s)"
            if result.ok
            else f"{verdict} {result.spec}: {len(result.failures)} pairs differ"
        )
        for failure in result.failures[:5]:
            print(f"     {failure}")
    return 0 if ok else 1
