"""Results of an experiment as data: the rows of ``runs.jsonl`` with their side files, and the
summary every report and plot starts from (solved runs, times, per-configuration groups).

The report (tables) and the plots both read these; neither imports the other's module.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KakuroError
from .runner import find_disagreements
from .runs import DEFINITIVE, Row
from .runsfile import latest_rows, read_rows, warn

Table = list[dict[str, Any]]


@dataclass
class Results:
    """A results directory read back: rows (one per key), environment and skips."""

    path: Path
    rows: list[Row]
    environment: dict[str, Any] = field(default_factory=dict)
    skipped: list[dict[str, Any]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.environment.get("experiment", {}).get("name") or self.path.name

    @property
    def description(self) -> str:
        return str(self.environment.get("experiment", {}).get("description", ""))

    @property
    def timed_rows(self) -> list[Row]:
        """Rows of the solving tasks (up-only rows have their own table), or all rows."""
        return [r for r in self.rows if r.get("task") != "up-only"] or self.rows

    @property
    def timeout(self) -> float:
        timeouts = [r["timeout_s"] for r in self.rows if r.get("timeout_s")]
        return float(max(timeouts)) if timeouts else 1.0


def find_results(name_or_dir: str, root: Path | None = None) -> Path:
    """A results directory from a path, a config file, or an experiment name."""
    from .plan import load_experiment, project_root

    given = Path(name_or_dir)
    if given.is_dir() and (given / "runs.jsonl").exists():
        return given
    if given.suffix == ".toml" and given.exists():
        return load_experiment(given).results_dir
    root = root or project_root(Path.cwd() / "x")
    candidate = root / "results" / name_or_dir
    if (candidate / "runs.jsonl").exists():
        return candidate
    raise KakuroError(f"no results for {name_or_dir!r} (looked for {candidate}/runs.jsonl)")


def load_results(path: Path) -> Results:
    """The rows (bad lines skipped with a warning) and the side files of a results dir."""
    rows = list(latest_rows(read_rows(path / "runs.jsonl")).values())
    if not rows:
        raise KakuroError(f"{path / 'runs.jsonl'}: no usable rows")
    env = _side_file(path / "environment.json", dict) or {}
    if not isinstance(env.get("experiment", {}), dict):
        env["experiment"] = {}
    report = env.get("experiment", {}).get("report", {})
    if not isinstance(report, dict):
        env["experiment"]["report"] = {}
    skipped = [s for s in _side_file(path / "skipped.json", list) or [] if isinstance(s, dict)]
    return Results(path, rows, env, skipped)


def _side_file(path: Path, kind: type) -> Any:
    """A JSON side file, or None (with a warning when it is there but unreadable)."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        warn(f"{path}: unreadable ({str(exc)[:60]}), ignored")
        return None
    if not isinstance(data, kind):
        warn(f"{path}: not a JSON {kind.__name__}, ignored")
        return None
    return data


# -- the numbers -------------------------------------------------------------------------


def solved(row: Row) -> bool:
    return row.get("status") in DEFINITIVE and row.get("verified") is not False


def run_time(row: Row) -> float:
    value = row.get("time_s")
    return float(value if value is not None else row.get("wall_s") or 0.0)


def par2(row: Row) -> float:
    """The PAR-2 score of a run: its time when solved, twice the timeout otherwise."""
    return run_time(row) if solved(row) else 2.0 * float(row.get("timeout_s") or 0.0)


def by_config(rows: Iterable[Row]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row["config"]].append(row)
    return dict(groups)


def _minority(disagreements: list[dict[str, Any]]) -> Counter[str]:
    """How often each configuration sides against the most common outcome."""
    against: Counter[str] = Counter()
    for item in disagreements:
        outcomes = sorted(item["outcomes"].items(), key=lambda kv: -len(kv[1]))
        for _outcome, configs in outcomes[1:]:
            against.update(configs)
    return against


def summary_table(rows: list[Row]) -> Table:
    """Solved count, PAR-2, median and total time per configuration, best first."""
    against = _minority(find_disagreements(rows))
    cryptic = any(r.get("answer") for r in rows)
    table = []
    for config, group in by_config(rows).items():
        statuses = Counter(r["status"] for r in group)
        times = [run_time(r) for r in group if solved(r)]
        entry: dict[str, Any] = {
            "configuration": config,
            "runs": len(group),
            "solved": sum(solved(r) for r in group),
            "timeout": statuses["timeout"],
            "memout": statuses["memout"],
            "error": statuses["error"] + statuses["crash"],
            "wrong": sum(r.get("verified") is False for r in group),
            "disagree": against[config],
            "par2_s": round(statistics.fmean(par2(r) for r in group), 4),
            "median_s": round(statistics.median(times), 4) if times else None,
            "total_s": round(sum(times), 3),
        }
        if cryptic:
            answers = {r["instance"]: a for r in group if solved(r) and (a := r.get("answer"))}
            entry["answer_sum"] = sum(int(a) for a in answers.values()) if answers else None
        table.append(entry)
    table.sort(key=lambda e: (-e["solved"], e["par2_s"], e["configuration"]))
    return table
