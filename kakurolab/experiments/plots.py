"""Plots of an experiment (matplotlib, Agg): cactus, scatter of two configurations, time vs size.

Each plot is saved as PNG and SVG beside the rows.  matplotlib is the ``plots`` extra; a
report without it says which extra to install.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ..errors import require
from ..fileio import replacing
from .growth import families_of, growth
from .results import Results, Row, by_config, run_time, solved, summary_table

_MIN_TIME = 1e-4  # log axes need a floor; faster runs are drawn here
MAX_LINES = 16
"""Line plots show the best configurations only (by the summary's order): a legend of 60
entries helps nobody.  The CSV tables and mkplot files keep every configuration."""


def _pyplot() -> Any:
    matplotlib: Any = require("matplotlib", extra="plots", feature="experiment plots")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "kakurolab"  # stable SVG ids: same rows, same file
    import matplotlib.pyplot as plt

    return plt


PALETTE = (
    *(f"C{i}" for i in range(10)),  # matplotlib's tab10 cycle
    "black", "navy", "magenta", "goldenrod", "teal", "maroon",
)
"""Sixteen colours, no two alike: tab20 pairs each hue with its light shade, and the pairs
(native blue, then ``fast`` light blue) looked like one configuration at a glance."""


def _style(plt: Any, index: int) -> dict[str, Any]:
    """Up to sixteen lines told apart by colour, and by markers that change with them."""
    return {
        "color": PALETTE[index % len(PALETTE)],
        "marker": "o.sv^D"[index % 6],
        "markersize": 3,
        "linewidth": 1.2,
    }


def _legend(ax: Any) -> None:
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)


def _save(fig: Any, results: Results, name: str) -> str:
    """PNG and SVG, without a date in them, so a rebuilt report changes no committed file."""
    for suffix, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        path = results.path / f"{name}.{suffix}"
        with replacing(path) as handle:  # whole or not at all, as every output
            fig.savefig(handle, format=suffix, dpi=120, bbox_inches="tight", metadata=metadata)
    return name


def _best(results: Results) -> tuple[dict[str, list[Row]], str]:
    """The configurations to draw, and a title suffix saying when some were left out."""
    groups = by_config(results.timed_rows)
    order = [e["configuration"] for e in summary_table(results.timed_rows)]
    kept = {c: groups[c] for c in order[:MAX_LINES]}
    note = f" (best {len(kept)} of {len(groups)})" if len(kept) < len(groups) else ""
    return kept, note


def cactus(results: Results) -> str:
    """Instances solved (x) within a time (y, log): the further right and lower, the better."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups, note = _best(results)
    for i, (config, rows) in enumerate(groups.items()):
        times = sorted(max(run_time(r), _MIN_TIME) for r in rows if solved(r))
        if times:
            ax.plot(range(1, len(times) + 1), times, label=config, **_style(plt, i))
    ax.set_yscale("log")
    ax.axhline(results.timeout, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("instances solved")
    ax.set_ylabel("time (s, log)")
    ax.set_title(f"{results.name}: cactus plot{note}")
    _legend(ax)
    ax.grid(True, which="both", alpha=0.3)
    name = _save(fig, results, "cactus")
    plt.close(fig)
    return name


def scatter(results: Results, x_config: str, y_config: str) -> str:
    """Per-instance time of two configurations; unsolved runs sit on the timeout line."""
    plt = _pyplot()
    groups = by_config(results.timed_rows)
    cap = results.timeout

    def times(config: str) -> dict[str, float]:
        return {
            r["instance"]: max(run_time(r), _MIN_TIME) if solved(r) else cap
            for r in groups[config]
            if r.get("repetition", 0) == 0
        }

    xs, ys = times(x_config), times(y_config)
    common = sorted(set(xs) & set(ys))
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter([xs[i] for i in common], [ys[i] for i in common], s=10, alpha=0.7)
    ax.plot([_MIN_TIME, cap], [_MIN_TIME, cap], color="grey", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{x_config} (s)")
    ax.set_ylabel(f"{y_config} (s)")
    ax.set_title(f"{results.name}: {len(common)} instances")
    ax.grid(True, which="both", alpha=0.3)
    name = _save(fig, results, "scatter")
    plt.close(fig)
    return name


def time_vs_size(results: Results) -> str:
    """Median solve time against the number of white cells, one line per configuration."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups, note = _best(results)
    for i, (config, rows) in enumerate(groups.items()):
        by_size: dict[int, list[float]] = defaultdict(list)
        for r in rows:
            by_size[int(r.get("white_cells") or 0)].append(
                max(run_time(r), _MIN_TIME) if solved(r) else 2 * results.timeout
            )
        sizes = sorted(by_size)
        medians = [statistics.median(by_size[s]) for s in sizes]
        ax.plot(sizes, medians, label=config, **_style(plt, i))
    ax.set_yscale("log")
    ax.axhline(results.timeout, color="grey", linestyle=":", linewidth=1)
    whites = [r.get("white_cells") or 1 for r in results.timed_rows]
    if max(whites) > 20 * min(whites):  # spread the many small puzzles out
        ax.set_xscale("log")
    ax.set_xlabel("white cells")
    ax.set_ylabel("median time (s, log; unsolved = 2 x timeout)")
    ax.set_title(f"{results.name}: time vs size{note}")
    _legend(ax)
    ax.grid(True, which="both", alpha=0.3)
    name = _save(fig, results, "size")
    plt.close(fig)
    return name


def growth_plot(results: Results, groups: Mapping[str, Any] | None) -> str | None:
    """Log-log time against white cells, one panel per family: each configuration's solved
    runs (points) and its fitted power law (line, exponent b in the legend)."""
    fits = growth(results.timed_rows, groups)
    if not fits:
        return None
    plt = _pyplot()
    families = list(dict.fromkeys(g.family for g in fits))
    ncols = min(2, len(families))
    nrows = -(-len(families) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 4.5 * nrows), squeeze=False)
    for ax in axes.flat[len(families) :]:
        ax.set_visible(False)
    order = [e["configuration"] for e in summary_table(results.timed_rows)][:MAX_LINES]
    rows_of = families_of(results.timed_rows, groups)
    for ax, family in zip(axes.flat, families, strict=False):
        mine = {g.configuration: g for g in fits if g.family == family}
        configs = by_config(rows_of[family])
        for config in (c for c in order if c in mine):
            fit, style = mine[config], _style(plt, order.index(config))
            done = [r for r in configs[config] if solved(r)]
            xs = [r["white_cells"] for r in done]
            ax.scatter(xs, [max(run_time(r), _MIN_TIME) for r in done], s=8, alpha=0.5,
                       color=style["color"], marker=style["marker"])
            ends = [fit.min_whites, fit.max_whites]
            ax.plot(ends, [fit.seconds_at(w) for w in ends], color=style["color"],
                    linewidth=1.2, label=f"{config}: {fit.label()}")
        ax.set_xscale("log")
        # 10, 20, 50, 100 ...: a narrow span otherwise labels its minor ticks over each other
        ax.xaxis.set_major_locator(plt.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax.xaxis.set_minor_formatter(plt.NullFormatter())
        ax.set_yscale("log")
        ax.set_xlabel("white cells (log)")
        ax.set_ylabel("time (s, log)")
        ax.set_title(f"{results.name}: {family}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6, loc="upper left", frameon=False)
    fig.tight_layout()
    name = _save(fig, results, "growth")
    plt.close(fig)
    return name


def write_plots(results: Results, options: Mapping[str, Any] | None = None) -> list[str]:
    """All plots; the scatter pair comes from ``[report] scatter = [X, Y]`` or the best two."""
    made = [cactus(results), time_vs_size(results)]
    groups = (options or {}).get("growth")
    if (grown := growth_plot(results, groups if isinstance(groups, dict) else None)) is not None:
        made.append(grown)
    pair = (options or {}).get("scatter")
    configs = set(by_config(results.timed_rows))
    if not isinstance(pair, list) or len(pair) != 2 or not set(map(str, pair)) <= configs:
        pair = [e["configuration"] for e in summary_table(results.timed_rows)[:2]]
    if len(pair) == 2:
        made.append(scatter(results, pair[0], pair[1]))
    return made
