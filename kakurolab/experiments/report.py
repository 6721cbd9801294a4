"""Tables from ``runs.jsonl``: Markdown, CSV and LaTeX, plus mkplot JSON and the plots.

Everything here is a pure function of the rows, so a report can be rebuilt any time from a
committed results directory without re-running anything.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from .. import tables
from ..fileio import write_text
from .growth import growth_table
from .results import (
    Results,
    Table,
    by_config,
    find_results,
    load_results,
    par2,
    run_time,
    solved,
    summary_table,
)
from .runner import find_disagreements
from .runs import Row
from .runsfile import warn

__all__ = ["Results", "by_config", "find_results", "load_results", "run_time", "solved"]


def base_label(row: Row) -> str:
    """The configuration without its ``task:`` prefix (experiments with several tasks)."""
    prefix = f"{row.get('task')}:"
    return row["config"][len(prefix) :] if row["config"].startswith(prefix) else row["config"]


def size_table(rows: list[Row]) -> Table:
    """Mean and largest formula size per configuration, where the backend recorded it.

    Tasks share formulas, so sizes are grouped by the configuration without its task and
    each instance counts once.
    """
    groups: dict[str, dict[str, Row]] = defaultdict(dict)
    for row in rows:
        if row.get("variables") is not None:
            groups[base_label(row)].setdefault(row["instance"], row)
    table = []
    for config, by_instance in groups.items():
        sized = list(by_instance.values())
        variables = [v for r in sized if (v := r.get("variables")) is not None]
        clauses = [c for r in sized if (c := r.get("clauses")) is not None]
        table.append(
            {
                "configuration": config,
                "instances": len(sized),
                "mean_variables": round(statistics.fmean(variables), 1),
                "max_variables": max(variables),
                "mean_clauses": round(statistics.fmean(clauses), 1) if clauses else None,
                "max_clauses": max(clauses) if clauses else None,
                "mean_encode_s": round(statistics.fmean(r.get("encode_s") or 0 for r in sized), 4),
            }
        )
    table.sort(key=lambda e: (e["mean_clauses"] or 0, e["configuration"]))
    return table


def task_table(rows: list[Row]) -> Table:
    """One line per configuration, one column group per task (experiments with several).

    For the encodings experiment this is the whole story in one table: formula size, how
    many puzzles unit propagation alone solves, and the solve and uniqueness times.
    """
    tasks = list(dict.fromkeys(r.get("task", "solve") for r in rows))
    if len(tasks) < 2:
        return []
    sizes = {e["configuration"]: e for e in size_table(rows)}
    groups: dict[str, dict[str, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        groups[base_label(row)][row.get("task", "solve")].append(row)
    table = []
    for config, by_task in groups.items():
        size = sizes.get(config, {})
        entry: dict[str, Any] = {
            "configuration": config,
            "variables": size.get("mean_variables"),
            "clauses": size.get("mean_clauses"),
        }
        for task in tasks:
            group = by_task.get(task, [])
            if task == "up-only":
                entry["up_solved"] = sum(bool(r.get("solved_by_up")) for r in group)
                fractions = [
                    r["fixed_cells"] / r["white_cells"]
                    for r in group
                    if r.get("white_cells") and r.get("fixed_cells") is not None
                ]
                entry["up_fixed_pct"] = (
                    round(100 * statistics.fmean(fractions), 1) if fractions else None
                )
                continue
            times = [run_time(r) for r in group if solved(r)]
            entry[f"{task}_solved"] = sum(solved(r) for r in group)
            entry[f"{task}_median_s"] = round(statistics.median(times), 4) if times else None
            entry[f"{task}_par2_s"] = (
                round(statistics.fmean(par2(r) for r in group), 4) if group else None
            )
        entry["of"] = len({r["instance"] for task_rows in by_task.values() for r in task_rows})
        table.append(entry)
    return table


def family_table(rows: list[Row], groups: Mapping[str, Sequence[str]] | None = None) -> Table:
    """PAR-2 per configuration and puzzle set, with solved/runs, best overall first; a last
    line names each set's best configuration.  Empty for a single set (the summary says it).
    ``groups`` (``[report] growth``) joins sets into families.

    Hard families differ in what wins, so one overall ranking hides the answer a reader
    wants: which solver for which kind of puzzle."""
    family_of = {s: family for family, members in (groups or {}).items() for s in members}
    rows = [{**r, "set": family_of.get(r.get("set") or "-", r.get("set") or "-")} for r in rows]
    sets = list(dict.fromkeys(r.get("set") or "-" for r in rows))
    if len(sets) < 2:
        return []
    scores: dict[str, dict[str, tuple[float, int, int]]] = defaultdict(dict)
    for config, group in by_config(rows).items():
        for name in sets:
            mine = [r for r in group if (r.get("set") or "-") == name]
            if mine:
                scores[config][name] = (
                    statistics.fmean(par2(r) for r in mine),
                    sum(solved(r) for r in mine),
                    len(mine),
                )
    order = [e["configuration"] for e in summary_table(rows)]
    table: Table = []
    for config in order:
        line: dict[str, Any] = {"configuration": config}
        for name in sets:
            found = scores[config].get(name)
            line[name] = "-" if found is None else f"{found[0]:.3g} ({found[1]}/{found[2]})"
        table.append(line)
    best: dict[str, Any] = {"configuration": "best"}
    for name in sets:
        ranked = sorted((v[name][0], c) for c, v in scores.items() if name in v)
        best[name] = ranked[0][1] if ranked else "-"
    table.append(best)
    return table


def up_table(rows: list[Row]) -> Table:
    """Cells fixed by unit propagation alone (rows of the ``up-only`` task)."""
    table: Table = []
    for config, group in by_config(r for r in rows if r.get("task") == "up-only").items():
        done = [r for r in group if r.get("fixed_cells") is not None]
        if not done:
            continue
        fractions = [r["fixed_cells"] / r["white_cells"] for r in done if r.get("white_cells")]
        table.append(
            {
                "configuration": config,
                "instances": len(done),
                "solved_by_up": sum(bool(r.get("solved_by_up")) for r in done),
                "mean_fixed_pct": round(100 * statistics.fmean(fractions), 2)
                if fractions
                else None,
                "min_fixed_pct": round(100 * min(fractions), 2) if fractions else None,
            }
        )
    table.sort(key=lambda e: (-int(e["solved_by_up"] or 0), -float(e["mean_fixed_pct"] or 0)))
    return table


def disagreement_table(rows: list[Row]) -> Table:
    return [
        {
            "instance": item["instance"],
            "task": item["task"],
            "outcomes": "; ".join(f"{o} <- {', '.join(c)}" for o, c in item["outcomes"].items()),
        }
        for item in find_disagreements(rows)
    ]


def skipped_table(results: Results) -> Table:
    return [dict(s) for s in results.skipped]


# -- rendering ---------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1000 else f"{value:.1f}"
    return str(value)


def markdown(table: Table) -> str:
    """A results table as Markdown (written by :mod:`kakurolab.tables`)."""
    return tables.Table.of_dicts(table, _cell).markdown(style="compact")


def to_csv(table: Table) -> str:
    """A results table as CSV of the raw values."""
    return tables.Table.of_dicts(table).csv()


def latex(table: Table) -> str:
    """A results table as a LaTeX tabular: the first column (the configuration) left, the
    figures right."""
    return tables.Table.of_dicts(table, _cell, lambda i: "right" if i else "left").latex()


def mkplot_json(results: Results, config: str, rows: Sequence[Row]) -> dict[str, Any]:
    """One configuration in mkplot's input format (``preamble`` + ``stats``)."""
    reps = len({r.get("repetition", 0) for r in rows}) > 1
    first = rows[0]
    stats = {}
    for row in sorted(rows, key=lambda r: (r["instance"], r.get("repetition", 0))):
        name = row["instance"] + (f"#{row.get('repetition', 0)}" if reps else "")
        entry: dict[str, Any] = {
            "status": solved(row),
            "rtime": round(run_time(row) if solved(row) else float(row.get("timeout_s") or 0), 6),
        }
        if row.get("peak_rss_mb") is not None:
            entry["mempeak"] = f"{round(row['peak_rss_mb'] * 1024)} KiB"
        stats[name] = entry
    options = " ".join(f"{k}={v}" for k, v in (first.get("options") or {}).items())
    return {
        "preamble": {
            "program": first.get("backend", config),
            "prog_args": options,
            "prog_alias": config,
            "benchmark": results.name,
        },
        "stats": stats,
    }


def safe_name(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", label).strip("_") or "config"


def plots_missing() -> str | None:
    """Why plots cannot be drawn here (matplotlib, the ``plots`` extra, is missing), or None."""
    from ..errors import MissingExtraError, require

    try:
        require("matplotlib", extra="plots", feature="experiment plots")
    except MissingExtraError as exc:
        return str(exc)
    return None


def headline(results: Results) -> str:
    """The main Markdown table (what ``run --report`` prints)."""
    by_task = task_table(results.rows)
    return markdown(by_task) if by_task else markdown(summary_table(results.timed_rows))


def build_report(results: Results, *, plots: bool = True) -> str:
    """Write every table, the mkplot files and (optionally) plots; return the Markdown."""
    out = results.path
    rows = results.rows
    tables = {
        "summary": summary_table(results.timed_rows),
        "families": family_table(results.timed_rows, _growth_groups(results)),
        "tasks": task_table(rows),
        "sizes": size_table(rows),
        "up": up_table(rows),
        "disagreements": disagreement_table(rows),
        "skipped": skipped_table(results),
        "growth": growth_table(results.timed_rows, _growth_groups(results)),
    }
    _write_files(results, tables)
    md = _opening(results)
    _tables_md(md, tables)
    md += _plots_md(results, plots)
    files = [f"`{name}.csv`" for name, table in tables.items() if table]
    files += ["`summary.tex`", "`mkplot/*.json` (one per configuration)", "`environment.json`"]
    md.append("Files: " + ", ".join(files) + ".\n")
    text = "\n".join(md)
    write_text(out / "report.md", text)
    return text


def _write_files(results: Results, tables: dict[str, Table]) -> None:
    """Each table's CSV (a stale one removed when the table is empty), the summary in
    LaTeX, and one mkplot JSON file per configuration."""
    out = results.path
    for name, table in tables.items():
        target = out / f"{name}.csv"
        if table:
            write_text(target, to_csv(table))
        elif target.exists():
            target.unlink()
    write_text(out / "summary.tex", latex(tables["summary"]))
    mk_dir = out / "mkplot"
    mk_dir.mkdir(exist_ok=True)
    for config, group in by_config(results.rows).items():
        data = mkplot_json(results, config, group)
        write_text(mk_dir / f"{safe_name(config)}.json", json.dumps(data, indent=1) + "\n")


def _opening(results: Results) -> list[str]:
    """The title and what was run where: task, limits, counts, machine, commit."""
    rows, env = results.rows, results.environment
    exp = env.get("experiment", {})
    md = [f"# Experiment `{results.name}`\n"]
    md.append(
        f"Task `{exp.get('task', rows[0].get('task'))}`, timeout {results.timeout:g} s, "
        f"memory limit {exp.get('memory_mb', '-')} MB; {len({r['instance'] for r in rows})} "
        f"instances, {len(by_config(rows))} configurations, {len(rows)} runs. "
        f"Machine: {env.get('cpu', '?')}, {env.get('usable_cores', '?')} usable cores, "
        f"Python {env.get('python', '?')}, commit {str(env.get('git_commit', '?'))[:10]}"
        f"{' with uncommitted changes' if env.get('git_dirty') else ''}.\n"
    )
    if results.description:
        md.append(f"{results.description}\n")
    md.append(
        "PAR-2: mean over runs of the time when solved, twice the timeout otherwise. "
        "Times are encode + solve seconds measured in the child.\n"
    )
    return md


def _tables_md(md: list[str], tables: dict[str, Table]) -> None:
    """The report's table sections, in their order."""
    _section(
        md, "By configuration and task", tables["tasks"],
        "`up_solved`: puzzles unit propagation alone solves (of `of`); `up_fixed_pct`: "
        "mean share of cells it fixes; `<task>_median_s` over solved runs.",
    )
    md.append("## Configurations\n")
    md.append(markdown(tables["summary"]))
    md.append(_answer_note(tables["summary"], len(tables["disagreements"])))
    _section(
        md, "PAR-2 by puzzle set", tables["families"],
        "PAR-2 seconds of each configuration on each set (solved/runs); the last line "
        "names each set's best configuration.",
    )
    _section(
        md, "Unit propagation alone", tables["up"],
        "Cells fixed by unit propagation on the CNF encoding, without search; "
        "`solved_by_up` counts puzzles propagation solves outright.",
    )
    if tables["sizes"]:
        md.append("## Encoding size\n")
        md.append(markdown(tables["sizes"]))
    _section(
        md, "Growth with size", tables["growth"],
        "`exponent`: slope b of ln(time) against ln(white cells) over the solved runs "
        "(time grows as whites^b), with its 95% t interval and r²; unsolved runs are "
        "left out (a configuration that times out on the largest puzzles grows faster "
        "than its exponent says).",
    )
    md.append("## Disagreements\n")
    md.append(
        markdown(tables["disagreements"])
        if tables["disagreements"]
        else "None: every definitive outcome agrees across configurations.\n"
    )
    if tables["skipped"]:
        md.append("## Skipped\n")
        md.append(markdown(tables["skipped"]))


def _plots_md(results: Results, plots: bool) -> list[str]:
    """The plots section (plots written now), or a warning when their extra is missing."""
    if plots and plots_missing():
        warn(f"plots skipped: {plots_missing()}; every table is written")
        return []
    if not plots:
        return []
    from .plots import write_plots

    made = write_plots(results, results.environment.get("experiment", {}).get("report", {}))
    if not made:
        return []
    return ["## Plots\n", *[f"![{name}]({name}.png)\n" for name in made]]


def _section(md: list[str], title: str, table: Table, note: str) -> None:
    """A report section (heading, what its columns mean, the table), when the table has rows."""
    if table:
        md += [f"## {title}\n", f"{note}\n", markdown(table)]


def _growth_groups(results: Results) -> dict[str, list[str]] | None:
    """``[report] growth`` of the experiment: family -> puzzle sets (None: one family)."""
    groups = results.environment.get("experiment", {}).get("report", {}).get("growth")
    return groups if isinstance(groups, dict) else None


def _answer_note(summary: Table, n_disagreements: int) -> str:
    if not any(e.get("answer_sum") for e in summary):
        return ""
    best = summary[0]
    agree = (
        "no configuration disagrees on any answer"
        if not n_disagreements
        else f"{n_disagreements} instance(s) with DISAGREEING answers, see below"
    )
    return (
        f"\nSum of the answers (A..J read as a 10-digit number) over the "
        f"{best['solved']} instances solved by {best['configuration']}: "
        f"**{best.get('answer_sum')}**; {agree}.\n"
    )
