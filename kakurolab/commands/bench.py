"""``kakuro bench``: time configurations against a reference in the same run (ratios)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

from ..errors import KakuroError
from ..ratios import AGGREGATES, SUITES, Case, Config, SuiteOptions, parse_targets, run_bench
from ._common import MAX_SECONDS, positive_float, progress


def register(sub: argparse._SubParsersAction) -> None:
    suites = "; ".join(f"{name}: {suite.doc}" for name, suite in SUITES.items())
    parser = sub.add_parser(
        "bench",
        help="benchmark configurations against a reference (same-run ratios)",
        description=f"Suites -- {suites}.  Configurations run interleaved puzzle by puzzle "
        "(order rotated per puzzle); every answer is cross-checked, a disagreement is an error.",
        epilog="exit status: 0 when every --target passes (or none is given), 1 when one fails, "
        "2 for bad input or when configurations disagree",
    )
    parser.add_argument("suite", metavar="SUITE", help=f"one of: {', '.join(SUITES)}")
    parser.add_argument(
        "--config", action="append", default=[], metavar="NAME[:K=V,...]",
        help="a configuration to time (repeatable), e.g. 'pysat:encoding=strong,solver=cadical195'"
        " (default: native)",
    )
    parser.add_argument(
        "--reference", default="cpsat", metavar="CONFIG",
        help="configuration the ratios are relative to (default: cpsat; added if not a --config)",
    )
    parser.add_argument("--file", type=Path, help="puzzle file (default: the suite's data set)")
    parser.add_argument("--subset", type=int, metavar="N", help="only the first N cases")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="runs per case")
    parser.add_argument(
        "--aggregate", choices=sorted(AGGREGATES), default="min",
        help="how repeated runs of a case combine (default: min)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float("--timeout", MAX_SECONDS),
        metavar="S",
        help="time limit per run",
    )
    parser.add_argument(
        "--target", action="append", default=[], metavar="[CONFIG=]RATIO",
        help="highest acceptable total-time ratio; prints PASS/FAIL (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.subset is not None and args.subset < 1:
        raise KakuroError(f"--subset must be at least 1, got {args.subset}")
    configs = [Config.parse(spec) for spec in args.config or ["native"]]

    def bar(cases: Iterable[Case], total: int) -> Iterable[Case]:
        return progress(cases, total=total, desc=f"bench {args.suite}")

    report = run_bench(
        args.suite,
        configs,
        reference=Config.parse(args.reference),
        options=SuiteOptions(file=args.file, subset=args.subset),
        repeat=args.repeat,
        aggregate=args.aggregate,
        timeout=args.timeout,
        targets=parse_targets(args.target),
        progress=bar,
    )
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(report.table())
    return 0 if report.ok else 1
