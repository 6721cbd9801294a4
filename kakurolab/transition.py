"""The phase transition scan (issue 47 §1): cost and P(unique) against the ambiguity knob.

For each size, each seed and each knob value, the member ``generator.tighten`` makes (a
planted fill with that share of the generator's uniqueness repairs applied) and its
``twin`` (+1 on an across and on a down clue of one white area, totals balanced) are run
in killable children (``experiments.LocalExecutor``, one worker) under each configuration:

* members: the ``solve`` and ``unique`` tasks under ``native``, ``cpsat`` and CNF ``fast``
  on CaDiCaL 1.9.5 through PySAT;
* twins: the ``solve`` task under ``native`` and ``cpsat``, two independent backends: a
  twin is *unsat* when both prove it, *sat* when either finds a (rule-checked) solution,
  undecided otherwise.

Costs are PAR-2 (the run's time when solved, twice the timeout otherwise).  ``report``
turns ``runs.jsonl`` into the tables (``points.csv``: P(unique) and P(twin unsat) with
Wilson intervals; ``costs.csv``: median with a bootstrap interval and 90th percentile per
configuration and task; ``peaks.csv``: the knob at the largest median per size;
``growth.csv``: the slope of log peak cost against log white cells), ``transition.png`` /
``.svg`` and ``report.md``.

``python -m kakurolab.transition scan --out results/transition`` makes, runs (resuming
from ``runs.jsonl``) and reports; ``report`` rebuilds the tables alone; ``trails`` times
the making of trails (``--spread``, ``--repair-factor``: ``generator.tighten``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KakuroError, require
from .experiments.growth import fit_line
from .experiments.plan import puzzle_hash
from .experiments.results import par2
from .experiments.runs import Row, RunSpec
from .fileio import replacing, write_text
from .formats import dumps, loads
from .generator import mean_ambiguity
from .generator.tighten import REPAIR_FACTOR, SPREAD, tightening, twin
from .model import Puzzle
from .tables import Column, Table

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "native": ("native", {}),
    "cpsat": ("cpsat", {}),
    "pysat-fast": ("pysat", {"encoding": "fast", "solver": "cadical195"}),
}
"""The configurations every member runs under: label -> (backend, options)."""

TASKS = ("solve", "unique")
"""The tasks every member runs."""

TWIN_CONFIGS = ("native", "cpsat")
"""The two independent backends that decide a twin (the ``solve`` task)."""

KNOBS = (0.0, 0.5, 0.8, 0.9, 0.95, 1.0)
"""The default knob values: denser near the tight end, where the last spots go."""

BOOTSTRAP = 1000
"""Bootstrap resamples for a median's interval (a fixed seed: the same rows give the same
interval)."""

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Scan:
    """What a scan covers: sizes (square sides), knob values, seeds per size and the
    per-run timeout, and where its files go."""

    sizes: tuple[int, ...]
    knobs: tuple[float, ...] = KNOBS
    seeds: int = 20
    seeds_at: Mapping[int, int] = field(default_factory=dict)
    """Fewer (or more) seeds at some sizes: size -> seeds."""
    timeout: float = 20.0
    out: Path = Path("results/transition")
    configs: tuple[str, ...] = tuple(CONFIGS)
    """The members' configurations (labels of ``CONFIGS``)."""
    twin_configs: tuple[str, ...] = TWIN_CONFIGS
    spread: int = SPREAD
    """The trail's check: one probe near the fill per this many cells of a large open
    region (``generator.tighten.SPREAD``; 0: the trail before it, one spot per check)."""
    repair_factor: int = REPAIR_FACTOR
    """The repair budget per fill, in the generator's (``generator.tighten.REPAIR_FACTOR``)."""

    @property
    def trail(self) -> dict[str, int]:
        """The trail's parameters, as ``made.jsonl`` records them."""
        return {"spread": self.spread, "repair_factor": self.repair_factor}

    def seeds_of(self, size: int) -> int:
        return self.seeds_at.get(size, self.seeds)


# -- making the members -------------------------------------------------------------------


def members_path(scan: Scan, size: int, seed: int) -> Path:
    return scan.out / "puzzles" / f"{size}x{size}-s{seed}.txt"


def make_members(scan: Scan, size: int, seed: int) -> list[Puzzle]:
    """The members and twins of one size and seed (knob order, member then twin), made
    once and kept in ``puzzles/`` (a rerun reads them back); the making is logged in
    ``made.jsonl``."""
    path = members_path(scan, size, seed)
    if path.exists():
        return loads(path.read_text(), format="kakuro")
    start = time.perf_counter()
    trail = tightening(size, seed, scan.spread, scan.repair_factor)
    puzzles: list[Puzzle] = []
    for knob in scan.knobs:
        member = trail.puzzle(knob)
        puzzles += [member, twin(member, seed)]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, dumps(puzzles, "kakuro"))
    made = {
        "size": size, "seed": seed, "steps": trail.steps,
        "seconds": round(time.perf_counter() - start, 2),
        "whites": [len(trail.puzzle(k).whites) for k in scan.knobs], **scan.trail,
    }
    with open(scan.out / "made.jsonl", "a") as fh:
        fh.write(json.dumps(made) + "\n")
    return puzzles


OLD_TRAIL = {"spread": 0, "repair_factor": 1}
"""The trail parameters of a ``made.jsonl`` row that names none (made before they
existed: one spot per check, the generator's repair budget)."""


def check_trail(scan: Scan) -> None:
    """Refuse to add members of another trail to a scan's directory: its sizes would not
    be comparable (KakuroError naming both)."""
    path = scan.out / "made.jsonl"
    if not path.exists():
        return
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        made = json.loads(line)
        trail = {key: made.get(key, old) for key, old in OLD_TRAIL.items()}
        if trail != scan.trail:
            raise KakuroError(
                f"{path} holds members of another trail ({trail_words(trail)}) than this "
                f"scan's ({trail_words(scan.trail)}): scan with that trail, or into another "
                "folder"
            )


def trail_words(trail: Mapping[str, int]) -> str:
    """Trail parameters in words, for a library message (no command-line flags there)."""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in trail.items())


def parse_id(pid: str) -> tuple[int, float, int, str]:
    """(size, knob, seed, kind) from a member's id (``generator.tighten.member_id``)."""
    kind = "twin" if pid.endswith("-twin") else "member"
    parts = pid.removesuffix("-twin").split("-")
    return int(parts[1].split("x")[0]), float(parts[2][1:]), int(parts[3][1:]), kind


def specs_for(scan: Scan, puzzles: Iterable[Puzzle]) -> list[RunSpec]:
    """The runs of these members and twins, those of the scan's knobs only (members kept
    in ``puzzles/`` hold every knob they were made with: a scan of fewer knobs, a longer
    timeout at the loose end say, reruns a part of them)."""
    specs = []
    for puzzle in puzzles:
        size, knob, _, kind = parse_id(puzzle.id)
        if not any(math.isclose(knob, wanted) for wanted in scan.knobs):
            continue
        if kind == "member":
            runs = [(label, task) for label in scan.configs for task in TASKS]
        else:
            runs = [(label, "solve") for label in scan.twin_configs]
        digest = puzzle_hash(puzzle)
        for label, task in runs:
            backend, options = CONFIGS[label]
            specs.append(
                RunSpec(
                    f"{puzzle.id}|{label}|{task}", "transition", puzzle.id,
                    f"{size}|{knob:g}|{kind}", digest, puzzle, label, backend, task, 0,
                    scan.timeout, options,
                )
            )
    return specs


def read_rows(path: Path) -> list[Row]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_scan(scan: Scan, progress: bool = True, plots: bool = True) -> Path:
    """Make the members, run every spec not yet in ``runs.jsonl`` (seed by seed, so a scan
    stopped early covers every size at fewer seeds), then write the report."""
    from .experiments.executors import LocalExecutor

    check_trail(scan)
    scan.out.mkdir(parents=True, exist_ok=True)
    runs = scan.out / "runs.jsonl"
    done = {row["key"] for row in read_rows(runs)}
    executor = LocalExecutor(jobs=1)
    for seed in range(max(scan.seeds_of(size) for size in scan.sizes)):
        for size in scan.sizes:
            if seed >= scan.seeds_of(size):
                continue
            made = make_members(scan, size, seed)
            specs = [s for s in specs_for(scan, made) if s.key not in done]
            with open(runs, "a") as fh:
                for row in executor.run(specs):
                    fh.write(json.dumps(row, sort_keys=True) + "\n")
                    fh.flush()
            if progress:
                print(f"size {size} seed {seed}: {len(specs)} runs", file=sys.stderr, flush=True)
    return write_report(scan.out, scan.timeout, plots)


def time_trails(
    sizes: Sequence[int], seeds: Sequence[int], spread: int, repair_factor: int
) -> Iterable[dict[str, Any]]:
    """Make the trail of each size and seed (nothing written) and say what it took: the
    repairs on it (``steps``), wall and CPU seconds (the CPU's: on a shared machine), and
    the generation's counters (layouts, fills, checks, repairs), for comparing trail
    parameters on the same seeds."""
    for size in sizes:
        for seed in seeds:
            start, cpu = time.perf_counter(), time.process_time()
            trail = tightening(size, seed, spread, repair_factor)
            seconds = round(time.perf_counter() - start, 2)
            stats = trail.stats
            yield {
                "size": size, "seed": seed, "spread": spread, "repair_factor": repair_factor,
                "steps": trail.steps, "seconds": seconds,
                "cpu_s": round(time.process_time() - cpu, 2), "layouts": stats.get("layouts"),
                "fills": stats.get("fills"), "checks": stats.get("solves"),
                "repairs": stats.get("repairs"),
            }


# -- statistics ---------------------------------------------------------------------------


def wilson(successes: int, n: int) -> tuple[float | None, float | None, float | None]:
    """The share and its 95% Wilson interval (Nones for n = 0)."""
    if n == 0:
        return None, None, None
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return p, round(max(0.0, min(p, centre - half)), 4), round(min(1.0, max(p, centre + half)), 4)


def bootstrap_median(values: Sequence[float], seed: int = 0) -> tuple[float, float, float]:
    """The median and its 95% percentile-bootstrap interval."""
    rng = random.Random(seed)
    n = len(values)
    medians = sorted(
        statistics.median(rng.choices(values, k=n)) for _ in range(BOOTSTRAP)
    )
    return statistics.median(values), medians[int(0.025 * BOOTSTRAP)], medians[
        int(0.975 * BOOTSTRAP) - 1
    ]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (linear interpolation between order statistics)."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# -- the report ---------------------------------------------------------------------------


@dataclass
class Member:
    """What the runs say about one member and its twin."""

    size: int
    knob: float
    seed: int
    whites: int = 0
    verdicts: set[str] = field(default_factory=set)
    twin: set[str] = field(default_factory=set)

    @property
    def unique(self) -> bool | None:
        """True/False when some backend settled it (``multiple`` wins: it shows a second,
        rule-checked solution), None when none did."""
        if "multiple" in self.verdicts:
            return False
        return True if "unique" in self.verdicts else None

    @property
    def twin_unsat(self) -> bool | None:
        """True when both twin backends proved no solution, False when one found one."""
        if "sat" in self.twin:
            return False
        return True if self.twin == {"unsat"} and self.twin_votes >= 2 else None

    twin_votes: int = 0


def members_of(rows: Sequence[Row]) -> dict[tuple[int, float, int], Member]:
    members: dict[tuple[int, float, int], Member] = {}
    for row in rows:
        size, knob, seed, kind = parse_id(row["instance"])
        m = members.setdefault((size, knob, seed), Member(size, knob, seed))
        if kind == "member":
            m.whites = row.get("white_cells", 0)
            if row["task"] == "unique" and row["status"] != "timeout" and row.get("verdict"):
                m.verdicts.add(str(row["verdict"]))
        elif row["status"] in ("sat", "unsat") and row.get("verified") is not False:
            m.twin.add(row["status"])
            m.twin_votes += row["status"] == "unsat"
    return members


def ambiguities(out: Path) -> dict[tuple[int, float], float]:
    """The mean clue ambiguity (digit sets per clue, ``generator.mean_ambiguity``) of the
    members kept in ``out/puzzles``, per size and knob: what the repairs do to the clues."""
    found: dict[tuple[int, float], list[float]] = defaultdict(list)
    for path in sorted((out / "puzzles").glob("*.txt")):
        for puzzle in loads(path.read_text(), format="kakuro"):
            size, knob, _, kind = parse_id(puzzle.id)
            if kind == "member":
                found[(size, knob)].append(mean_ambiguity(puzzle))
    return {key: round(statistics.fmean(values), 2) for key, values in found.items()}


def point_rows(
    members: Mapping[tuple[int, float, int], Member],
    ambiguity: Mapping[tuple[int, float], float] | None = None,
) -> list[dict[str, Any]]:
    """P(unique) and P(twin unsat) per size and knob, with Wilson intervals over the
    members (twins) some backend settled, and the members' mean clue ambiguity."""
    groups: dict[tuple[int, float], list[Member]] = defaultdict(list)
    for m in members.values():
        groups[(m.size, m.knob)].append(m)
    out = []
    for (size, knob), ms in sorted(groups.items()):
        settled = [m.unique for m in ms if m.unique is not None]
        twins = [m.twin_unsat for m in ms if m.twin_unsat is not None]
        pu, pu_lo, pu_hi = wilson(sum(settled), len(settled))
        pt, pt_lo, pt_hi = wilson(sum(twins), len(twins))
        out.append({
            "size": size, "knob": knob, "seeds": len(ms),
            "white_cells": round(statistics.fmean(m.whites for m in ms), 1),
            "mean_ambiguity": (ambiguity or {}).get((size, knob)),
            "p_unique": pu, "p_unique_lo": pu_lo, "p_unique_hi": pu_hi,
            "unsettled": len(ms) - len(settled),
            "p_twin_unsat": pt, "p_twin_unsat_lo": pt_lo, "p_twin_unsat_hi": pt_hi,
            "twins_undecided": len(ms) - len(twins),
        })
    return out


def cost_rows(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Median (bootstrap interval) and 90th percentile of PAR-2 seconds per size, knob,
    kind (member or twin), configuration and task."""
    groups: dict[tuple[int, float, str, str, str], list[Row]] = defaultdict(list)
    for row in rows:
        size, knob, _, kind = parse_id(row["instance"])
        groups[(size, knob, kind, row["config"], row["task"])].append(row)
    out = []
    for (size, knob, kind, config, task), rs in sorted(groups.items()):
        costs = [par2(r) for r in rs]
        median, lo, hi = bootstrap_median(costs)
        out.append({
            "size": size, "knob": knob, "kind": kind, "config": config, "task": task,
            "runs": len(rs), "unsolved": sum(1 for r in rs if r["status"] not in ("sat", "unsat")),
            "median_s": round(median, 4), "median_lo": round(lo, 4), "median_hi": round(hi, 4),
            "p90_s": round(percentile(costs, 0.9), 4),
        })
    return out


def peak_rows(costs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per size, kind (member or twin), configuration and task: the knob with the largest
    median cost, whether it lies inside the range (an easy-hard-easy peak), its height over
    the dearer end, whether its interval clears both ends' (``significant``), and whether
    half its runs or more timed out (``censored``: the median is then the timeout's PAR-2
    penalty, a lower bound of the true cost)."""
    groups: dict[tuple[int, str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for c in costs:
        groups[(c["size"], c["kind"], c["config"], c["task"])].append(c)
    out = []
    for (size, kind, config, task), cs in sorted(groups.items()):
        cs = sorted(cs, key=lambda c: c["knob"])
        top = max(cs, key=lambda c: (c["median_s"], -c["knob"]))
        ends = max(cs[0]["median_s"], cs[-1]["median_s"])
        inside = top is not cs[0] and top is not cs[-1]
        out.append({
            "size": size, "kind": kind, "config": config, "task": task,
            "peak_knob": top["knob"], "interior": inside,
            "peak_median_s": top["median_s"], "peak_lo": top["median_lo"],
            "peak_hi": top["median_hi"], "peak_p90_s": top["p90_s"],
            "over_ends": round(top["median_s"] / ends, 2) if ends > 0 else None,
            "significant": inside
            and top["median_lo"] > max(cs[0]["median_hi"], cs[-1]["median_hi"]),
            "censored": 2 * top["unsolved"] >= top["runs"],
        })
    return out


def growth_rows(
    peaks: Sequence[Mapping[str, Any]], points: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The slope of log peak median cost against log white cells (at the peak's knob), per
    kind, configuration and task, with its 95% t interval (three sizes at least: fewer
    leave the slope empty).  ``censored_sizes`` counts the sizes whose peak median is the
    timeout's penalty: with any, the exponent is a lower bound (the largest sizes' costs are
    cut off)."""
    whites = {(p["size"], p["knob"]): p["white_cells"] for p in points}
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for p in peaks:
        groups[(p["kind"], p["config"], p["task"])].append(p)
    out = []
    for (kind, config, task), ps in sorted(groups.items()):
        xs = [math.log(whites[(p["size"], p["peak_knob"])]) for p in ps]
        ys = [math.log(max(p["peak_median_s"], 1e-4)) for p in ps]
        fit = fit_line(xs, ys)
        two = (ys[-1] - ys[0]) / (xs[-1] - xs[0]) if len(ps) >= 2 and xs[-1] != xs[0] else None
        out.append({
            "kind": kind, "config": config, "task": task, "sizes": len(ps),
            "exponent": None if fit is None else round(fit.slope, 2),
            "ci_low": None if fit is None else round(fit.ci_low, 2),
            "ci_high": None if fit is None else round(fit.ci_high, 2),
            "r2": None if fit is None else round(fit.r2, 3),
            "end_to_end_slope": None if two is None else round(two, 2),
            "censored_sizes": sum(1 for p in ps if p.get("censored")),
        })
    return out


def _fmt(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _getter(key: str) -> Any:
    return lambda row: row.get(key)


def _table(rows: Sequence[Mapping[str, Any]]) -> Table[Mapping[str, Any]]:
    keys = list(rows[0]) if rows else []
    columns: list[Column[Mapping[str, Any]]] = [Column(k, _getter(k), _fmt) for k in keys]
    return Table(columns, rows)


def write_report(out: Path, timeout: float | None = None, plots: bool = True) -> Path:
    """The tables, the plot (unless ``plots`` is off) and ``report.md`` from
    ``out/runs.jsonl``."""
    rows = read_rows(out / "runs.jsonl")
    if not rows:
        raise KakuroError(f"{out / 'runs.jsonl'}: no runs to report")
    timeout = timeout or float(rows[0].get("timeout_s") or 0)
    members = members_of(rows)
    points = point_rows(members, ambiguities(out))
    costs = cost_rows(rows)
    peaks = peak_rows(costs)
    growth = growth_rows(peaks, points)
    tables = {"points": points, "costs": costs, "peaks": peaks, "growth": growth}
    for name, table in tables.items():
        write_text(out / f"{name}.csv", _table(table).csv())
    plotted = plot(out, points, costs, timeout) if plots else None
    md = [
        "# The phase transition (issue 47 §1)",
        "",
        f"{len(rows)} runs, timeout {timeout:g} s (PAR-2: twice that when unsolved).",
        "A peak that is `censored` (half its runs or more timed out) is the timeout's penalty, "
        "a lower bound; a growth exponent with `censored_sizes` above 0 is a lower bound too.",
        "Rebuild: `python -m kakurolab.transition report --out " + str(out) + "`.",
        "",
    ]
    if plotted:
        md += [f"![cost and P(unique) against the knob]({plotted}.png)", ""]
    for name, table in tables.items():
        md += [f"## {name}", "", _table(table).markdown()]
    write_text(out / "report.md", "\n".join(md))
    return out / "report.md"


def plot(
    out: Path,
    points: Sequence[Mapping[str, Any]],
    costs: Sequence[Mapping[str, Any]],
    timeout: float | None = None,
) -> str | None:
    """``transition.png``/``.svg``: per size, the median cost of each configuration and
    task against the knob (log scale, bootstrap intervals), and under it P(unique) and
    P(twin unsat) with Wilson intervals; a median on the timeout's PAR-2 line is censored
    (a lower bound).  None when matplotlib is missing."""
    try:
        matplotlib: Any = require("matplotlib", extra="plots", feature="transition plots")
    except KakuroError:
        return None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "kakurolab"
    import matplotlib.pyplot as plt

    sizes = sorted({p["size"] for p in points})
    fig, axes = plt.subplots(
        2, len(sizes), figsize=(3.4 * len(sizes), 6), sharex=True, squeeze=False,
        gridspec_kw={"height_ratios": [2, 1]},
    )
    lines = sorted({(c["kind"], c["config"], c["task"]) for c in costs})
    for j, size in enumerate(sizes):
        top, bottom = axes[0][j], axes[1][j]
        for i, (kind, config, task) in enumerate(lines):
            cs = sorted(
                (c for c in costs if c["size"] == size and c["kind"] == kind
                 and c["config"] == config and c["task"] == task),
                key=lambda c: c["knob"],
            )
            xs = [c["knob"] for c in cs]
            ys = [c["median_s"] for c in cs]
            err = [[max(0.0, y - c["median_lo"]) for y, c in zip(ys, cs, strict=True)],
                   [max(0.0, c["median_hi"] - y) for y, c in zip(ys, cs, strict=True)]]
            top.errorbar(
                xs, ys, yerr=err, color=f"C{i}", marker="o.sv^D"[i % 6], markersize=3,
                linestyle=":" if kind == "twin" else "-" if task == "unique" else "--",
                linewidth=1.1, capsize=2,
                label=f"{config} {task}" + (" (twins)" if kind == "twin" else ""),
            )
        if timeout and any(c["size"] == size and c["median_s"] >= 2 * timeout for c in costs):
            top.axhline(2 * timeout, color="grey", linewidth=0.8, linestyle="-.",
                        label=f"timeout's PAR-2 ({2 * timeout:g} s): censored")  # fmt: skip
        top.set_yscale("log")
        whites = statistics.fmean(p["white_cells"] for p in points if p["size"] == size)
        top.set_title(f"{size}x{size} (~{whites:.0f} white cells)", fontsize=9)
        top.grid(True, which="both", alpha=0.3)
        ps = sorted((p for p in points if p["size"] == size), key=lambda p: p["knob"])
        for key, colour, label in (("p_unique", "black", "P(unique)"),
                                   ("p_twin_unsat", "C3", "P(twin unsat)")):
            got = [p for p in ps if p[key] is not None]
            bottom.errorbar(
                [p["knob"] for p in got], [p[key] for p in got],
                yerr=[[max(0.0, p[key] - p[f"{key}_lo"]) for p in got],
                      [max(0.0, p[f"{key}_hi"] - p[key]) for p in got]],
                color=colour, marker="o", markersize=3, capsize=2, label=label,
            )
        bottom.set_ylim(-0.05, 1.05)
        bottom.set_xlabel("knob (share of uniqueness repairs applied)", fontsize=8)
        bottom.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("median PAR-2 s (95% bootstrap CI)")
    axes[1][0].set_ylabel("share (95% Wilson CI)")
    axes[0][-1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    axes[1][-1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    for suffix, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        with replacing(out / f"transition.{suffix}") as handle:
            fig.savefig(handle, format=suffix, dpi=110, bbox_inches="tight", metadata=metadata)
    plt.close(fig)
    return "transition"


# -- command line -------------------------------------------------------------------------


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise KakuroError(f"bad list {text!r}: use numbers such as 12,20") from None


def _knobs(text: str) -> tuple[float, ...]:
    try:
        knobs = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise KakuroError(f"bad knobs {text!r}: use shares such as 0,0.5,1") from None
    if any(not 0 <= k <= 1 for k in knobs):
        raise KakuroError(f"bad knobs {text!r}: each is between 0 and 1")
    return knobs


def _seeds_at(items: Sequence[str]) -> dict[int, int]:
    out = {}
    for item in items:
        size, _, seeds = item.partition("=")
        try:
            out[int(size)] = int(seeds)
        except ValueError:
            raise KakuroError(f"bad seeds per size {item!r}: use SIZE=SEEDS, e.g. 40=8") from None
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kakurolab.transition scan|report|trails``."""
    parser = argparse.ArgumentParser(prog="python -m kakurolab.transition", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    scan = sub.add_parser("scan", help="make the members, run them, write the report")
    scan.add_argument("--sizes", default="12,20,30,40")
    scan.add_argument("--knobs", default=",".join(f"{k:g}" for k in KNOBS))
    scan.add_argument("--seeds", type=int, default=20)
    scan.add_argument("--seeds-at", action="append", default=[], metavar="SIZE=SEEDS")
    scan.add_argument("--timeout", type=float, default=20.0)
    scan.add_argument("--out", default="results/transition")
    scan.add_argument("--spread", type=int, default=SPREAD, help="0: the first trail")
    scan.add_argument("--repair-factor", type=int, default=REPAIR_FACTOR)
    report = sub.add_parser("report", help="rebuild the tables and the plot from runs.jsonl")
    report.add_argument("--out", default="results/transition")
    trails = sub.add_parser("trails", help="time the making of trails (one JSON line each)")
    trails.add_argument("--sizes", default="20,30")
    trails.add_argument("--seeds", default="0,1,2")
    trails.add_argument("--spread", type=int, default=SPREAD)
    trails.add_argument("--repair-factor", type=int, default=REPAIR_FACTOR)
    args = parser.parse_args(argv)
    try:
        if args.action == "trails":
            for made in time_trails(
                _ints(args.sizes), _ints(args.seeds), args.spread, args.repair_factor
            ):
                print(json.dumps(made), flush=True)
        elif args.action == "scan":
            chosen = Scan(
                _ints(args.sizes), _knobs(args.knobs), args.seeds, _seeds_at(args.seeds_at),
                args.timeout, Path(args.out), spread=args.spread,
                repair_factor=args.repair_factor,
            )
            print(run_scan(chosen))
        else:
            print(write_report(Path(args.out)))
        return 0
    except KakuroError as exc:
        print(f"python -m kakurolab.transition: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the rows written so far stay: a rerun resumes
        print("python -m kakurolab.transition: interrupted; rerun to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
