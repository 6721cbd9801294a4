"""``kakuro experiment run|report|plan``: grids of puzzles x configurations, and their tables."""

from __future__ import annotations

import argparse
import contextlib
import re
import signal
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KakuroError
from ._common import emit_json
from ._output import written

if TYPE_CHECKING:
    from ..experiments import Summary

JSON_HELP = {
    "run": "one JSON object: the run counts, statuses and the rows file (runs.jsonl); with "
    "--report, then the record of report.md",
    "report": "one JSON object: the record of report.md and every file the report wrote "
    "(instead of the table)",
    "plan": "one JSON object: instances, configurations with their run counts, and skips",
}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "experiment", help="run experiment grids (TOML under experiments/) and report on them"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    run = actions.add_parser(
        "run",
        help="run (or resume) an experiment; rows go to results/NAME/",
        epilog="exit status: 0 when every outcome agrees and every solution checks, 1 when "
        "some instance has disagreeing outcomes or a wrong solution, or every run of some "
        "configuration failed (error or crash: a broken solver), or, with --strict, any run "
        "failed; 2 for bad input or options",
    )
    run.add_argument(
        "config", metavar="CONFIG.toml", help="experiment config (docs/experiments.md)"
    )
    run.add_argument("--jobs", "-j", type=int, default=1, help="parallel runs (default 1)")
    run.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:port, or 'local' for a loopback LocalCluster)",
    )
    run.add_argument("--chunk", type=int, help="runs per Dask task (default: automatic)")
    run.add_argument("--results", metavar="DIR", help="results directory (default results/NAME)")
    run.add_argument("--limit", type=int, help="stop after this many new runs (0: no limit)")
    run.add_argument(
        "--fresh",
        action="store_true",
        help="run everything again, from scratch, into results/NAME-fresh/ (or --results DIR), "
        "deleting the previous fresh run's files first; the committed results stay to compare "
        "with",
    )
    run.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when any run failed (error or crash), not only when every run of a "
        "configuration did",
    )
    run.add_argument("--report", action="store_true", help="write the report, print the table")
    run.add_argument("--no-plots", action="store_true", help="with --report: tables only")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help=JSON_HELP["run"])
    run.set_defaults(func=cmd_run)

    rep = actions.add_parser("report", help="tables, plots and mkplot JSON from results")
    rep.add_argument("target", metavar="NAME_OR_DIR", help="experiment name, config or results dir")
    rep.add_argument("--no-plots", action="store_true", help="tables only")
    rep.add_argument(
        "--print",
        choices=("headline", "full", "none"),
        default="headline",
        help="what to print (default: the headline table)",
    )
    rep.add_argument("--json", action="store_true", help=JSON_HELP["report"])
    rep.set_defaults(func=cmd_report)

    pl = actions.add_parser("plan", help="list the configurations and run counts, run nothing")
    pl.add_argument("config", metavar="CONFIG.toml", help="experiment config")
    pl.add_argument("--json", action="store_true", help=JSON_HELP["plan"])
    pl.set_defaults(func=cmd_plan)


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM stops a run like Ctrl-C: workers are killed, the rows so far are kept."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _refuse_bad_counts(args: argparse.Namespace) -> None:
    if args.limit is not None and args.limit < 0:
        raise KakuroError(f"--limit must be 0 (no limit) or positive, got {args.limit}")
    if args.jobs < 1:
        raise KakuroError(f"--jobs must be at least 1, got {args.jobs}")
    if args.chunk is not None and args.chunk < 1:
        raise KakuroError(f"--chunk must be at least 1, got {args.chunk}")


def _say_summary(name: str, summary: Summary, rows_file: Path) -> None:
    """What the run did, on stderr, with loud lines for disagreements and wrong grids."""
    counts = ", ".join(f"{n} {s}" for s, n in sorted(summary.statuses.items())) or "nothing new"
    print(
        f"{name}: {summary.planned} runs planned, {summary.done_before} already done, "
        f"{summary.ran} run now ({counts}); rows in {rows_file}",
        file=sys.stderr,
    )
    if summary.disagreements:
        print(
            f"kakuro: {len(summary.disagreements)} instance(s) with DISAGREEING outcomes",
            file=sys.stderr,
        )
    if summary.wrong:
        print(f"kakuro: {summary.wrong} WRONG solution(s) in the rows", file=sys.stderr)
    for config, message in summary.broken.items():
        print(f"kakuro: every run of {config} failed: {message}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    from ..experiments import load_experiment, make_executor, run_experiment

    _refuse_bad_counts(args)
    experiment = load_experiment(args.config)
    results_dir = Path(args.results) if args.results else None
    if args.fresh:
        results_dir = results_dir or experiment.results_dir.with_name(f"{experiment.name}-fresh")
        start_afresh(results_dir, experiment.results_dir)
    if args.dask:
        executor = make_executor("dask", address=args.dask, jobs=args.jobs, chunk=args.chunk)
    else:
        executor = make_executor("local", jobs=args.jobs)
    with _sigterm_stops():
        summary = run_experiment(
            experiment,
            executor,
            results_dir=results_dir,
            progress=not args.no_progress,
            limit=args.limit or None,  # 0: no limit, as everywhere
        )
    rows_file = summary.results_dir / "runs.jsonl"
    if args.json:
        emit_json(
            {
                "experiment": experiment.name,
                "planned": summary.planned,
                "done_before": summary.done_before,
                "ran": summary.ran,
                "statuses": dict(sorted(summary.statuses.items())),
                "disagreements": len(summary.disagreements),
                "wrong": summary.wrong,
                "broken": sorted(summary.broken),
                "failed": summary.failed,
                "output": str(rows_file),
            }
        )
    _say_summary(experiment.name, summary, rows_file)
    strict_failed = args.strict and summary.failed > 0
    if strict_failed:
        print(f"kakuro: {summary.failed} run(s) failed (--strict)", file=sys.stderr)
    if args.report:
        from ..experiments.report import build_report, headline, load_results

        results = load_results(summary.results_dir)
        build_report(results, plots=not args.no_plots)
        if args.json:
            emit_json(written(summary.results_dir / "report.md", "markdown"))
        else:
            print(headline(results), end="")
        print(f"report: {summary.results_dir / 'report.md'}", file=sys.stderr)
    return 1 if summary.disagreements or summary.wrong or summary.broken or strict_failed else 0


RESULT_FILES = re.compile(r"(runs\.jsonl|[\w.=-]+\.(csv|md|tex|json|png|svg))")
"""What a results directory holds (besides ``mkplot/``): what ``--fresh`` may delete."""


def start_afresh(target: Path, committed: Path) -> None:
    """Empty a results directory for ``--fresh``, so that it can be run again and again.

    Each fresh run starts anew: the rows, report and plots of the previous fresh run are
    deleted first.  Never the experiment's own directory (the committed results), and never
    a directory holding anything a results directory does not, so a mistyped ``--results``
    cannot delete unrelated files.
    """
    import shutil

    if not target.exists():
        return
    if target.resolve() == committed.resolve():
        raise KakuroError(
            f"--fresh never replaces the experiment's own results ({target}); "
            "name another directory with --results, or leave --results out"
        )
    if not target.is_dir():
        raise KakuroError(f"{target}: not a directory")
    foreign = [
        p.name
        for p in target.iterdir()
        if not (p.is_file() and RESULT_FILES.fullmatch(p.name))
        and not (p.is_dir() and p.name == "mkplot")
    ]
    if foreign:
        raise KakuroError(
            f"{target} holds {foreign[0]!r}, which no experiment wrote: --fresh deletes only "
            "results directories; name another one with --results"
        )
    try:
        shutil.rmtree(target)
    except OSError as exc:
        raise KakuroError(f"{target}: cannot start afresh: {exc.strerror or exc}") from None


def cmd_report(args: argparse.Namespace) -> int:
    from ..experiments.report import build_report, find_results, headline, load_results

    results = load_results(find_results(args.target))
    before = _mtimes(results.path)
    text = build_report(results, plots=not args.no_plots)
    report = results.path / "report.md"
    if args.json:
        after = _mtimes(results.path)
        files = sorted(name for name, mtime in after.items() if before.get(name) != mtime)
        emit_json(
            written(
                report, "markdown", experiment=results.name, n_runs=len(results.rows), files=files
            )
        )
    elif args.print == "full":
        print(text, end="")
    elif args.print == "headline":
        print(headline(results), end="")
    print(f"report: {report}", file=sys.stderr)
    return 0


def _mtimes(directory: Path) -> dict[str, int]:
    """Modification times under ``directory`` by relative name: what changed is what a step
    wrote."""
    return {
        str(path.relative_to(directory)): path.stat().st_mtime_ns
        for path in directory.rglob("*")
        if path.is_file()
    }


def cmd_plan(args: argparse.Namespace) -> int:
    from ..experiments import load_experiment, load_instances, plan

    experiment = load_experiment(args.config)
    # Plans write nothing: generated sets stay in memory.
    the_plan = plan(experiment, load_instances(experiment, keep_generated=False))
    if not the_plan.specs and not the_plan.skipped:
        raise KakuroError(f"{args.config}: nothing to run")
    per_config = Counter(s.config for s in the_plan.specs)  # one pass: linear in runs
    runs = {config.label: per_config[config.label] for config in the_plan.configs}
    if args.json:
        emit_json(
            {
                "experiment": experiment.name,
                "task": experiment.task,
                "instances": len(the_plan.instances),
                "repetitions": experiment.repetitions,
                "timeout_s": experiment.timeout,
                "configs": [{"config": label, "n_runs": n} for label, n in runs.items()],
                "skipped": the_plan.skipped,
                "n_runs": len(the_plan.specs),
            }
        )
        return 0
    print(
        f"{experiment.name}: task {experiment.task}, {len(the_plan.instances)} instances, "
        f"{experiment.repetitions} repetition(s), timeout {experiment.timeout:g}s"
    )
    for label, n in runs.items():
        print(f"  {label}: {n} runs")
    for skip in the_plan.skipped:
        print(f"  SKIP {skip['config']} ({skip['instances']} instances): {skip['reason']}")
    print(f"{len(the_plan.specs)} runs in all")
    return 0
