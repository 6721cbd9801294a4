"""Generation benchmark: median seconds to a unique puzzle, per size and level.

Run ``python -m kakurolab.generator.speed --difficulty normal,hard,expert``.  Each size is
generated from several seeds; the median hides the occasional seed that needs many repairs.
Targets (issue 15, a 2-core machine) for ``normal``: 12x12 under 1 s, 16x22 under 5 s, 20x20
under 10 s, 30x30 under 60 s; ``hard`` and ``expert`` within three times those.  Both wall
and CPU seconds are reported: on a shared machine the CPU time is the honest one.  After each
level's rows comes the log-log slope of the median CPU time against the number of cells
(``loglog_slope``): time grows like cells to that power.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import KakuroError
from ..tables import Column, Table
from .core import generate
from .job import WHITE_GOAL, white_goal_arg

if TYPE_CHECKING:
    from ..shape import LayoutStats

BENCH_SIZES: tuple[tuple[int, int], ...] = ((12, 12), (16, 22), (20, 20), (30, 30))
TARGETS: dict[tuple[int, int], float] = {
    (12, 12): 1.0,
    (16, 22): 5.0,
    (20, 20): 10.0,
    (30, 30): 60.0,
}
"""Median seconds to one ``normal`` puzzle; other levels get ``LEVEL_FACTOR`` times that."""

LEVEL_FACTOR: dict[str, float] = {"easy": 1.0, "normal": 1.0, "hard": 3.0, "expert": 3.0}

CPU_TARGETS: dict[tuple[int, int, str], tuple[float, float | None]] = {
    (20, 20, "expert"): (5.0, None),
    (30, 30, "expert"): (15.0, 60.0),
    (60, 60, "normal"): (60.0, None),
}
"""Issue 27's targets: median and (when set) worst CPU seconds over 10 seeds."""


def meets_cpu_target(row: dict[str, Any]) -> bool | None:
    """Whether a ``bench_generate`` row meets its ``CPU_TARGETS`` entry (None: it has none)."""
    nrows, ncols = (int(x) for x in row["size"].split("x"))
    target = CPU_TARGETS.get((nrows, ncols, row["difficulty"]))
    if target is None:
        return None
    median, worst = target
    return row["median_cpu_s"] <= median and (worst is None or row["max_cpu_s"] <= worst)


def bench_generate(
    sizes: Sequence[tuple[int, int]] = BENCH_SIZES,
    *,
    difficulty: str = "normal",
    seeds: int = 5,
    backend: str = "native",
    white_goal: float | None = WHITE_GOAL,
) -> list[dict[str, Any]]:
    """One row per size: median, min and max seconds over ``seeds`` seeds, and the target
    (``white_goal``: as ``generate``'s, whitening included in the time)."""
    rows = []
    for nrows, ncols in sizes:
        times, cpu, solves = [], [], []
        for seed in range(seeds):
            start, start_cpu = time.perf_counter(), time.process_time()
            made = generate(
                nrows, ncols, difficulty, seed=seed, backend=backend, white_goal=white_goal
            )
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            solves.append(made.stats.solves)
        target = TARGETS.get((nrows, ncols))
        rows.append(
            {
                "size": f"{nrows}x{ncols}",
                "difficulty": difficulty,
                "median_s": round(statistics.median(times), 3),
                "min_s": round(min(times), 3),
                "max_s": round(max(times), 3),
                "median_cpu_s": round(statistics.median(cpu), 3),
                "max_cpu_s": round(max(cpu), 3),
                "cells": nrows * ncols,
                "median_solves": statistics.median(solves),
                "target_s": None if target is None else target * LEVEL_FACTOR.get(difficulty, 1),
            }
        )
    return rows


def loglog_slope(points: Sequence[tuple[float, float]]) -> float | None:
    """The least-squares slope of log(seconds) against log(size) over ``(size, seconds)``
    points: generation time grows like size to this power (None with fewer than two
    distinct sizes, or a time of zero)."""
    pairs = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pairs) < len(points) or len({x for x, _ in pairs}) < 2:
        return None
    xs, ys = zip(*pairs, strict=True)
    return statistics.linear_regression(xs, ys).slope


LOOK_CASES: tuple[tuple[str, str], ...] = (
    ("12x12", "normal"),
    ("16x22", "normal"),
    ("16x22", "hard"),
    ("12x12", "hard"),
)
"""The issue's table columns (Done-when: normal and hard at 12x12 and 16x22)."""


def look_table(
    cases: Sequence[tuple[str, str]] = LOOK_CASES,
    seeds: int = 5,
    white_goal: float | None = WHITE_GOAL,
) -> str:
    """The layout statistics table (``kakurolab.shape``) of freshly generated sets next to
    the janko dev set, as markdown: medians (and the least white share), and how many
    layouts are symmetric; ``white_goal`` as ``generate``'s."""
    from .. import datasets
    from ..formats import load
    from ..shape import layout_stats
    from .core import parse_size

    columns = [("janko dev", [layout_stats(p) for p in load(datasets.JANKO_DEV)])]
    for size, level in cases:
        nrows, ncols = parse_size(size)
        made = [
            generate(nrows, ncols, level, seed=s, white_goal=white_goal).puzzle
            for s in range(seeds)
        ]
        columns.append((f"{size} {level} ({seeds} seeds)", [layout_stats(p) for p in made]))
    rows: list[Statistic] = [
        (
            "white cells / interior area (median)",
            _over(statistics.median, lambda st: st.white_share, "{:.2f}"),
        ),
        ("white cells / interior area (least)", _over(min, lambda st: st.white_share, "{:.2f}")),
        (
            "share of runs with 2 cells (median)",
            _over(statistics.median, lambda st: st.two_cell_share, "{:.2f}"),
        ),
        (
            "largest non-white region (median cells)",
            _over(statistics.median, lambda st: st.largest_black, "{:g}"),
        ),
        ("half-turn symmetric layouts", _symmetric),
    ]

    def column(name: str, stats: list[LayoutStats]) -> Column[Statistic]:
        return Column(name, lambda row: row[1](stats), align="right")

    table: list[Column[Statistic]] = [Column("statistic", lambda row: row[0])]
    table += [column(name, stats) for name, stats in columns]
    return Table(table, rows).markdown().rstrip("\n")


Statistic = tuple[str, "Callable[[list[LayoutStats]], str]"]
"""A row of :func:`look_table`: its label, and its cell for one set of layouts."""


def _symmetric(stats: list[LayoutStats]) -> str:
    return f"{sum(st.symmetric for st in stats)} / {len(stats)}"


def _over(
    reduce: Callable[[list[float]], float], get: Callable[[LayoutStats], float], fmt: str
) -> Callable[[list[LayoutStats]], str]:
    """One statistic over a set of layouts, reduced (median, least) and printed with ``fmt``."""
    return lambda stats: fmt.format(reduce([get(st) for st in stats]))


def _cases(text: str) -> list[tuple[str, str]]:
    """``12x12:normal,16x22:hard`` as (size, level) pairs."""
    return [(size, level) for size, _, level in (item.partition(":") for item in text.split(","))]


def _white_goal(text: str) -> float | None:
    try:
        return white_goal_arg(text)
    except KakuroError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="12x12,16x22,20x20,30x30")
    parser.add_argument("--difficulty", default="normal", help="comma-separated levels")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument(
        "--look", action="store_true", help="print the layout statistics table against janko"
    )
    parser.add_argument(
        "--cases",
        type=_cases,
        default=LOOK_CASES,
        help="the --look table's columns, SIZE:LEVEL,... (default: the issue's four)",
    )
    parser.add_argument(
        "--white-goal",
        type=_white_goal,
        default=WHITE_GOAL,
        metavar="SHARE|off",
        help=f"whiten each puzzle towards SHARE, as generate does (default {WHITE_GOAL})",
    )
    args = parser.parse_args(argv)
    if args.look:
        print(look_table(args.cases, seeds=args.seeds, white_goal=args.white_goal))
        return 0
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    for level in args.difficulty.split(","):
        measured = []
        for size in sizes:  # one at a time, so each line prints as soon as it is measured
            (row,) = bench_generate(
                [size],  # type: ignore[list-item]
                difficulty=level,
                seeds=args.seeds,
                white_goal=args.white_goal,
            )
            measured.append((row["cells"], row["median_cpu_s"]))
            target = row["target_s"]
            verdict = "" if target is None else (" ok" if row["median_s"] < target else " SLOW")
            cpu_verdict = meets_cpu_target(row)
            if cpu_verdict is not None:
                verdict += f"; issue 27 CPU target {'met' if cpu_verdict else 'NOT met'}"
            print(
                f"{row['size']:>6} {row['difficulty']:<7} median {row['median_s']:.3f} s, "
                f"cpu {row['median_cpu_s']:.3f} s (worst {row['max_cpu_s']:.3f}; wall min "
                f"{row['min_s']:.3f}, max {row['max_s']:.3f}, {row['median_solves']} solves)"
                f"{'' if target is None else f' target {target} s'}{verdict}",
                flush=True,
            )
        slope = loglog_slope(measured)
        if slope is not None:
            print(f"{level}: log-log slope of median CPU time against cells {slope:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
