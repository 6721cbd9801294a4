"""Generate ``docs/encodings-smt.md``: the SMT encodings, their sizes and their speed.

    kakuro encodings --smt-md -o docs/encodings-smt.md
    python -m kakurolab.reports.smt -o docs/encodings-smt.md [--pe424 N] [--janko N]

Times are same-run ratios to the ``cpsat`` peer (``kakurolab.ratios``), never bare seconds: the
machine is shared, and a ratio measured puzzle by puzzle, interleaved, survives that noise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .. import datasets
from ..backends import Config
from ..backends.z3 import DEFAULT_ENCODING, Z3Backend
from ..encodings import encode, parse_spec
from ..encodings.smt import SMT_ENCODERS
from ..encodings.smt.common import LOGICS, LOGICS_OF, OPTIONS
from ..formats import load
from ..ratios import BenchReport, ConfigReport, SuiteOptions, run_bench
from ..tables import Column, Table

REFERENCE = "cpsat"
SUITE_TITLES = {"pe424": "solve, cryptic", "janko": "solve and prove unique, standard"}


def configurations() -> list[str]:
    """Every SMT encoding under every logic it accepts, a tactic variant, and cvc5."""
    configs = []
    for name in SMT_ENCODERS:
        for logic in LOGICS_OF[name]:
            configs.append(f"z3:encoding='smt={name},logic={logic}'")
    configs.append("z3:encoding='smt=lia,tactic=qffd'")
    configs.append("cvc5")
    return configs


def _encodings_table() -> list[str]:
    columns: list[Column[str]] = [
        Column("spec", lambda name: f"`smt={name}`"),
        Column("logics (default first)", lambda name: ", ".join(LOGICS_OF[name])),
        Column("model", lambda name: SMT_ENCODERS[name].doc),
    ]
    return Table(columns, list(SMT_ENCODERS)).markdown().splitlines()


@dataclass(frozen=True)
class SizeRow:
    """Mean formula size and build time of one encoding on one puzzle set."""

    name: str
    puzzles: str
    variables: float
    assertions: float
    terms: float
    encode_ms: float


def _sizes_table(pe424: Sequence, janko: Sequence) -> list[str]:
    """Mean formula size and build time per encoding on each puzzle set."""
    rows = []
    for name in SMT_ENCODERS:
        for label, puzzles in (("pe424", pe424), ("janko", janko)):
            encs = [encode(p, f"smt={name}") for p in puzzles]
            mean = {
                key: statistics.mean(e.stats()[key] for e in encs)
                for key in ("variables", "assertions", "terms")
            }
            ms = 1000 * statistics.mean(e.encode_time for e in encs)
            rows.append(
                SizeRow(
                    name,
                    f"{label} ({len(encs)})",
                    mean["variables"],
                    mean["assertions"],
                    mean["terms"],
                    ms,
                )
            )
    columns: list[Column[SizeRow]] = [
        Column("spec", lambda row: f"`smt={row.name}`"),
        Column("puzzles", lambda row: row.puzzles),
        Column("variables", lambda row: row.variables, "{:.0f}", "right"),
        Column("assertions", lambda row: row.assertions, "{:.0f}", "right"),
        Column("terms", lambda row: row.terms, "{:.0f}", "right"),
        Column("encode ms", lambda row: row.encode_ms, "{:.1f}", "right"),
    ]
    return Table(columns, rows).markdown().splitlines()


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _bench_table(report: BenchReport) -> list[str]:
    columns: list[Column[ConfigReport]] = [
        Column("configuration", lambda c: f"`{c.config.label}`"),
        Column("timeouts", lambda c: c.timeouts, align="right"),
        Column("total s", lambda c: c.total, "{:.2f}", "right"),
        Column("ratio to cpsat", lambda c: c.ratio, _ratio, "right"),
        Column("geo. mean ratio", lambda c: c.geo_ratio, _ratio, "right"),
    ]
    rows = sorted(report.configs, key=lambda c: c.ratio if c.ratio is not None else 0)
    return Table(columns, rows).markdown().splitlines()


def _total(report: BenchReport, label: str) -> float | None:
    found = [c for c in report.configs if c.config.label == label]
    return found[0].total if found else None


def _qffd_table(reports: dict[str, BenchReport]) -> list[str]:
    """Per encoding whose default logic is not QF_FD, QF_FD's total time over the
    default's, per suite."""

    def fd_ratio(report: BenchReport, name: str) -> str:
        default = LOGICS_OF[name][0]
        fd = _total(report, f"z3:encoding='smt={name},logic=QF_FD'")
        base = _total(report, f"z3:encoding='smt={name},logic={default}'")
        return "-" if not fd or not base else f"{fd / base:.2f}"

    names = [
        name
        for name in SMT_ENCODERS
        if LOGICS_OF[name][0] != "QF_FD" and "QF_FD" in LOGICS_OF[name]
    ]
    columns: list[Column[str]] = [
        Column("encoding", lambda name: f"`smt={name}` (default {LOGICS_OF[name][0]})")
    ]
    def suite_column(suite: str, report: BenchReport) -> Column[str]:
        return Column(suite, lambda name: fd_ratio(report, name), align="right")

    columns += [suite_column(suite, report) for suite, report in reports.items()]
    return Table(columns, names).markdown().splitlines()


def _fastest(report: BenchReport) -> str:
    smt = [c for c in report.configs if c.config.name == "z3" and not c.timeouts]
    best = min(smt, key=lambda c: c.total)
    return f"`{best.config.label}` ({best.ratio:.2f}x cpsat)"


def markdown(pe424_count: int, janko_count: int, timeout: float) -> str:
    """The whole page; runs both benchmarks (minutes on a shared two-core machine)."""
    pe424 = load(SUITES_FILES["pe424"])[:pe424_count]
    janko = load(SUITES_FILES["janko"])[:janko_count]
    configs = [Config.parse(c) for c in configurations()]
    reference = Config.parse(REFERENCE)
    reports = {}
    for suite, count in (("pe424", pe424_count), ("janko", janko_count)):
        reports[suite] = run_bench(
            suite,
            configs,
            reference=reference,
            options=SuiteOptions(subset=count),
            timeout=timeout,
        )
    out = [
        *_opening(),
        "## Formula size",
        "",
        *_sizes_table(pe424, janko),
        "",
        *_timing(reports, pe424_count, janko_count, timeout),
    ]
    return "\n".join(out)


def _opening() -> list[str]:
    """The page's head: what the encodings are, their table, their options."""
    return [
        "# SMT encodings",
        "",
        "<!-- generated by `kakuro encodings --smt-md -o docs/encodings-smt.md`;"
        " do not edit by hand -->",
        "",
        "Kakuro as SMT formulas, built with z3's Python API (`kakurolab/encodings/smt/`), solved",
        "by the `z3` backend (any encoding) or the `cvc5` backend (`lia` or `bv`), and written",
        "as SMT-LIB2 by `kakuro encode PUZZLE --encoding smt=lia -o out.smt2`.",
        "",
        "## Encodings",
        "",
        *_encodings_table(),
        "",
        "Cryptic puzzles (PE424) get ten letters with the matching representation (integers",
        "0..9 for `lia`/`table`, 4-bit vectors for `bv`, one-hot Booleans for `pb`), pairwise",
        "distinct; a one-letter clue is that letter, a two-letter clue `XY` is `10*X + Y` with",
        "`X != 0`; a cell showing a letter equals it.",
        "",
        "## Options",
        "",
        "Spec options (`smt=lia,logic=QF_FD`):",
        "",
        *[f"- `{k}`: {v}" for k, v in OPTIONS.items()],
        "",
        "Logics: " + "; ".join(f"`{k}` {v}" for k, v in LOGICS.items()) + ".",
        "",
        "z3 backend options (`z3:encoding='smt=pb,logic=QF_FD',pb.solver=totalizer`):",
        "",
        *[f"- `{k}`: {v}" for k, v in _z3_options().items()],
        f"- and {Z3Backend.open_options}",
        "",
        "The exported file's `(set-info :status ...)` is `unknown` unless the spec says",
        "`status=solve`, which asks z3 (not another backend) at export time.  Its",
        "`(set-logic ...)` is a standard logic: QF_FD is z3's own, so an encoding solved",
        "under it declares its theory (QF_BV for `bv`, QF_LIA for `lia` and `table`) unless",
        "the spec says `declare=solver`.  `lia`, `bv` and `table` files are plain SMT-LIB2",
        "(cvc5 reads and solves them); `pb` files use z3's",
        "`(_ pbeq ...)` / `(_ at-most ...)` extensions.  A `tactic` becomes",
        "`(check-sat-using TACTIC)`.",
        "",
    ]


def _timing(
    reports: dict[str, BenchReport], pe424_count: int, janko_count: int, timeout: float
) -> list[str]:
    """The same-run ratios against cpsat per suite, and QF_FD against the default logics."""
    out = [
        "## Time relative to cpsat",
        "",
        f"Same-run ratios of total time to the `cpsat` peer, per-case timeout {timeout:g} s"
        " (a timeout counts its full time).",
        "`pe424`: solve the first "
        f"{pe424_count} PE424 puzzles; `janko`: solve and prove unique (count to 2) the first "
        f"{janko_count} janko puzzles.  Generated {time.strftime('%Y-%m-%d')}.",
        "",
    ]
    for suite, report in reports.items():
        out += [
            f"### {suite} ({SUITE_TITLES[suite]}; wall {report.wall:.0f} s)",
            "",
            *_bench_table(report),
            "",
            f"Fastest z3 configuration: {_fastest(report)}.",
            "",
        ]
    out += [
        "### QF_FD against each encoding's default logic",
        "",
        "Time under `logic=QF_FD` (z3's SAT core) divided by time under the encoding's",
        "default logic, same run; below 1 means QF_FD is faster.",
        "",
        *_qffd_table(reports),
        "",
        f"The z3 backend's default encoding is the preset `{DEFAULT_ENCODING}` = "
        f"`{parse_spec(DEFAULT_ENCODING)}`.",
        "",
    ]
    return out


def _z3_options() -> dict[str, str]:
    return dict(Z3Backend.accepted_options)


PE424_COUNT, JANKO_COUNT, TIMEOUT = 50, 20, 30.0
"""The page's defaults: first N puzzles of each suite, seconds per case."""

SUITES_FILES = {"pe424": datasets.PE424, "janko": datasets.JANKO_DEV}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kakurolab.reports.smt")
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    parser.add_argument("--pe424", type=int, default=PE424_COUNT, help="first N PE424 puzzles")
    parser.add_argument("--janko", type=int, default=JANKO_COUNT, help="first N janko puzzles")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per case")
    args = parser.parse_args(argv)
    text = markdown(args.pe424, args.janko, args.timeout)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
