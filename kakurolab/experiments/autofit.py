"""Fit and measure the ``auto`` backend's rule from the committed experiment runs.

    python -m kakurolab.experiments.autofit            # rule.json + results/auto/
    python -m kakurolab.experiments.autofit --check    # the committed rule reproduces?

Each run of a source experiment (:data:`SOURCES`: ``results/<name>/runs.jsonl``) becomes a
*problem*: one puzzle (found by its hash in the experiment's puzzle files), its task and
timeout, and the PAR-2 seconds of every configuration run on it.  The rule is a small
decision tree over :data:`kakurolab.backends.auto.AUTO_FEATURES`, grown greedily: a leaf picks the
candidate with the fewest *blunders* (a timeout where some configuration answered in under
:data:`QUICK` seconds), then the least total PAR-2; a split is kept only when it saves at
least :data:`MIN_GAIN_S` seconds and :data:`MIN_GAIN_SHARE` of its node's PAR-2, with at least
:data:`MIN_LEAF` problems on each side.  The candidates are the configurations run on every
problem, so every choice can be scored from the runs.

The evaluation is leave-one-family-out: for each family the rule is fitted on the others
and scored on it, against the virtual best solver (VBS: per problem the best configuration
in hindsight, over every configuration run on it, and over the candidates only).  Nothing is
solved again: auto's time on a problem is its choice's recorded time plus the features'
cost (the cheap ones as measured here by the fit, the probe estimated at
:data:`PROBE_S_PER_CELL`, the same estimate the fit charges).
Only the rule's shape depends on the runs, so it is the same on every machine.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..backends import AUTO_FEATURES, AutoRule, PuzzleFeatures
from ..errors import KakuroError
from ..fileio import write_text
from ..formats import load
from ..model import Puzzle
from ..tables import Column, Table
from .environment import describe
from .plan import load_experiment, project_root, puzzle_hash
from .results import load_results, par2, solved
from .runs import Row

SOURCES = ("hard", "scaling", "pe424", "solvers", "transition-spread")
"""The experiments the rule learns from.  Left out: ``encodings`` (CNF presets only, on
janko: no native, no CP-SAT, so no candidate but one), ``hard-quick`` (a subset of ``hard``,
run before it), ``certificates`` (the certify task, not solving), ``transition`` (the first
trail's scan at two sizes: ``transition-spread`` is the same scan at four)."""

FAMILY_OF = {
    re.compile(r"g\d\d"): "generated",
    re.compile(r"\d+\|[0-9.]+\|member"): "transition",
}
"""Sets that form one family when one is left out (the generated sizes of ``scaling``);
any other set is its own family, and a set name shared by two sources (``loose`` in
``hard`` and ``scaling``, ``pe424`` in ``pe424`` and ``solvers``) is one family."""

QUICK = 1.0
"""Seconds: a configuration that times out where another answered within this is a blunder."""
MIN_LEAF = 5
"""Problems on each side of a split, at least."""
MIN_GAIN_S = 1.0
"""Summed PAR-2 seconds a split must save, at least (less is measurement noise)."""
MIN_GAIN_SHARE = 0.02
"""Share of its node's summed PAR-2 a split must save, at least."""
MAX_DEPTH = 3
PROBE_S_PER_CELL = 4e-5
"""Estimated seconds of the probe per white cell (0.36-0.39 s measured on 7,039-12,792
cells of ``loose`` and ``tiled``): charged to every problem that must compute it."""

AUTO = "auto"
"""The backend the rule is for; its own rows in a source are left out of the fit."""

RESULTS = "auto"
"""``results/<RESULTS>/``: the evaluation's files."""


@dataclass(frozen=True)
class Problem:
    """One puzzle under one source's task and timeout, with every configuration's score."""

    source: str
    family: str
    instance: str
    task: str
    timeout: float
    features: Mapping[str, float]
    par2: Mapping[str, float]
    """Configuration -> PAR-2 seconds."""
    answered: Mapping[str, bool] = field(default_factory=dict)
    digest: str = ""
    """The puzzle's hash (``plan.puzzle_hash``)."""
    measured: str = ""
    """When the source's last run started (ISO time): which of two sources is newer."""
    feature_s: float = 0.0
    """Seconds the cheap features took here (the least of :data:`TIMINGS` measurements by
    the fit; no part of the rule)."""

    def blunder(self, config: str) -> bool:
        """``config`` did not answer where another configuration answered within QUICK s."""
        return not self.answered[config] and min(self.par2.values()) < QUICK


def config_of(row: Mapping[str, Any]) -> str:
    """A row's configuration as ``--backend`` text (``pysat:encoding=fast,solver=...``)."""
    options = row.get("options") or {}
    text = ",".join(f"{k}={options[k]}" for k in sorted(options))
    return f"{row['backend']}:{text}" if text else str(row["backend"])


def family_of(set_name: str) -> str:
    return next((f for pattern, f in FAMILY_OF.items() if pattern.fullmatch(set_name)), set_name)


SCANS = {"transition-spread": "puzzles"}
"""Sources that are scans, not experiment files: name -> the folder of ``results/<name>/``
holding their puzzles (``kakurolab.transition`` writes each size and seed's members and
twins there)."""

SKIPPED_SETS = re.compile(r".*\|twin")
"""Sets left out: the transition scan's twins run under native and CP-SAT only (two
backends decide them), so as problems they would leave two candidates for every choice."""


def _puzzles(root: Path, name: str) -> dict[str, Puzzle]:
    """Hash -> puzzle over every puzzle file the experiment names (generated sets: the
    cached files beside its results; a scan: its puzzle folder)."""
    paths: list[Path] = []
    if name in SCANS:
        paths.extend(sorted((root / "results" / name / SCANS[name]).glob("*.txt")))
        return _hashed(paths)
    experiment = load_experiment(root / "experiments" / f"{name}.toml")
    for entry in experiment.sets:
        if "file" in entry:
            paths.append(root / entry["file"])
        elif "shipped" in entry:
            paths.append(Path(__file__).resolve().parents[1] / "data" / entry["shipped"])
        else:
            cache = experiment.results_dir / "generated"
            paths.extend(sorted(cache.glob(f"{entry.get('name', '')}-*.kakuro")))
    return _hashed(paths)


def _hashed(paths: Iterable[Path]) -> dict[str, Puzzle]:
    found: dict[str, Puzzle] = {}
    for path in paths:
        for puzzle in load(path):
            found.setdefault(puzzle_hash(puzzle), puzzle)
    return found


TIMINGS = 3
"""Times the cheap features are measured per puzzle (the least counts: the machine may be
shared, and a pause of the scheduler is no part of their cost)."""


def _cheap_seconds(puzzle: Puzzle) -> float:
    view = PuzzleFeatures(puzzle)
    for feature in AUTO_FEATURES.values():
        if not feature.probe:
            view[feature.name]
    return view.seconds


def load_problems(
    root: Path, sources: Sequence[str] = SOURCES, *, superseded: bool = False
) -> tuple[list[Problem], list[str]]:
    """Every problem of the sources, and a line per problem left out: no puzzle found, or
    (unless ``superseded``) the puzzle measured again by a newer source.  One puzzle is one
    problem, from the source run last: the solvers changed between the runs (``scaling``'s
    loose members predate native's local-search work of c7d7d51, which took loose-60x60
    from a 30 s timeout to 2.8 s), and the newest runs say what the code does today."""
    problems: list[Problem] = []
    notes: list[str] = []
    measured: dict[str, tuple[Mapping[str, float], float]] = {}
    for name in sources:
        puzzles = _puzzles(root, name)
        rows = load_results(root / "results" / name).timed_rows
        last = max(str(r.get("start") or "") for r in rows)
        groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
        for row in rows:
            if row.get("backend") == AUTO:
                continue  # auto's own runs: the rule would score its own choices
            if SKIPPED_SETS.fullmatch(str(row.get("set") or "")):
                continue
            groups[(row["instance"], row.get("task") or "solve")].append(row)
        for (instance, task), group in sorted(groups.items()):
            digest = group[0].get("hash", "")
            puzzle = puzzles.get(digest)
            if puzzle is None:
                notes.append(f"{name}: {instance}: no puzzle with hash {digest[:12]}, left out")
                continue
            if digest not in measured:
                _ = puzzle.runs  # derived once when the puzzle is loaded and checked, as in a run
                cheap = min(_cheap_seconds(puzzle) for _ in range(TIMINGS))
                view = PuzzleFeatures(puzzle)
                measured[digest] = ({f: view[f] for f in AUTO_FEATURES}, cheap)
            values, cheap = measured[digest]
            problems.append(
                Problem(
                    source=name,
                    family=family_of(str(group[0]["set"])),
                    instance=instance,
                    task=task,
                    timeout=float(group[0].get("timeout_s") or 0.0),
                    features=values,
                    par2={config_of(r): par2(r) for r in group},
                    answered={config_of(r): solved(r) for r in group},
                    digest=digest,
                    measured=last,
                    feature_s=cheap,
                )
            )
    if superseded:
        return problems, notes
    newest: dict[str, str] = {}
    for problem in problems:
        newest[problem.digest] = max(newest.get(problem.digest, ""), problem.measured)
    kept = [p for p in problems if p.measured == newest[p.digest]]
    dropped = _counts(f"{p.source} ({p.family})" for p in problems if p not in kept)
    notes += [
        f"{where}: {n} problem(s) measured again by a newer source, left out"
        for where, n in dropped.items()
    ]
    return kept, notes


def candidates_of(problems: Iterable[Problem]) -> list[str]:
    """The configurations run on every problem (native first, then by name)."""
    common: set[str] | None = None
    for problem in problems:
        common = set(problem.par2) if common is None else common & set(problem.par2)
    return sorted(common or (), key=lambda c: (c != "native", c))


# -- fitting -----------------------------------------------------------------------------


def _probe_cost(problem: Problem) -> float:
    return PROBE_S_PER_CELL * problem.features["whites"]


def _leaf(problems: Sequence[Problem], candidates: Sequence[str], probed: bool) -> dict[str, Any]:
    """The leaf for ``problems``: the candidate with the fewest blunders, then least PAR-2."""
    charge = sum(_probe_cost(p) for p in problems) if probed else 0.0

    def key(config: str) -> tuple[int, float]:
        return sum(p.blunder(config) for p in problems), sum(p.par2[config] for p in problems)

    best = min(candidates, key=key)  # min keeps the first on ties: candidates' order
    blunders, total = key(best)
    return {
        "config": best,
        "why": {
            "problems": len(problems),
            "families": sorted({p.family for p in problems}),
            "par2_s": round(total + charge, 4),
            "blunders": blunders,
        },
    }


def _score(leaf: Mapping[str, Any]) -> tuple[int, float]:
    return leaf["why"]["blunders"], leaf["why"]["par2_s"]


def fit(
    problems: Sequence[Problem],
    candidates: Sequence[str],
    depth: int = MAX_DEPTH,
    probed: bool = False,
) -> dict[str, Any]:
    """The decision tree for ``problems`` (see the module docstring); deterministic."""
    leaf = _leaf(problems, candidates, probed)
    if depth == 0 or len(problems) < 2 * MIN_LEAF:
        return leaf
    best: tuple[tuple[int, float], str, float] | None = None
    for name, feature in AUTO_FEATURES.items():
        values = sorted({p.features[name] for p in problems})
        uses_probe = probed or feature.probe
        for low, high in itertools.pairwise(values):
            threshold = round((low + high) / 2, 6)
            below = [p for p in problems if p.features[name] < threshold]
            above = [p for p in problems if p.features[name] >= threshold]
            if len(below) < MIN_LEAF or len(above) < MIN_LEAF:
                continue
            a, b = _leaf(below, candidates, uses_probe), _leaf(above, candidates, uses_probe)
            score = (
                _score(a)[0] + _score(b)[0],
                round(_score(a)[1] + _score(b)[1], 6),
            )
            if best is None or score < best[0]:
                best = (score, name, threshold)
    if best is None:
        return leaf
    (blunders, total), name, threshold = best
    own_blunders, own_total = _score(leaf)
    gain = own_total - total
    worth = gain >= max(MIN_GAIN_S, MIN_GAIN_SHARE * own_total)
    if blunders > own_blunders or (blunders == own_blunders and not worth):
        return leaf
    uses_probe = probed or AUTO_FEATURES[name].probe
    below = [p for p in problems if p.features[name] < threshold]
    above = [p for p in problems if p.features[name] >= threshold]
    node = {
        "feature": name,
        "threshold": threshold,
        "below": fit(below, candidates, depth - 1, uses_probe),
        "above": fit(above, candidates, depth - 1, uses_probe),
    }
    return leaf if _picks(node) == {leaf["config"]} else node  # a test that changes nothing


def _picks(node: Mapping[str, Any]) -> set[str]:
    """The configurations the leaves under ``node`` pick."""
    if "config" in node:
        return {node["config"]}
    return _picks(node["below"]) | _picks(node["above"])


def rule_data(problems: Sequence[Problem]) -> dict[str, Any]:
    """The rule file's content: the tree fitted on every problem, and what it came from."""
    candidates = candidates_of(problems)
    return {
        "version": AutoRule.version,
        "fitted_by": "python -m kakurolab.experiments.autofit",
        "sources": [f"results/{s}/runs.jsonl" for s in SOURCES],
        "problems": len(problems),
        "families": sorted({p.family for p in problems}),
        "candidates": candidates,
        "settings": {
            "quick_s": QUICK,
            "min_leaf": MIN_LEAF,
            "min_gain_s": MIN_GAIN_S,
            "min_gain_share": MIN_GAIN_SHARE,
            "max_depth": MAX_DEPTH,
            "probe_s_per_cell": PROBE_S_PER_CELL,
        },
        "tree": fit(problems, candidates),
    }


# -- evaluation --------------------------------------------------------------------------


def _uses_probe(rule: AutoRule, problem: Problem) -> bool:
    used: list[str] = []

    def value(name: str) -> float:
        used.append(name)
        return problem.features[name]

    rule.leaf(value)
    return any(AUTO_FEATURES[name].probe for name in used)


@dataclass
class Scored:
    """Auto's choice on one problem under the rule fitted without its family."""

    problem: Problem
    config: str
    auto_s: float

    @property
    def vbs_s(self) -> float:
        return min(self.problem.par2.values())


def cross_validate(problems: Sequence[Problem]) -> list[Scored]:
    """Leave one family out: fit on the others, score on it."""
    candidates = candidates_of(problems)
    scored: list[Scored] = []
    for family in sorted({p.family for p in problems}):
        train = [p for p in problems if p.family != family]
        tree = fit(train, candidates)
        data = {"version": AutoRule.version, "tree": tree}
        rule = AutoRule(data, f"cv-{family}", runnable=False)
        for problem in (p for p in problems if p.family == family):
            leaf, _ = rule.leaf(problem.features.__getitem__)
            config = str(leaf["config"])
            cost = problem.feature_s + (_probe_cost(problem) if _uses_probe(rule, problem) else 0.0)
            scored.append(Scored(problem, config, problem.par2[config] + cost))
    return scored


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b > 0 else None


def cv_table(scored: Sequence[Scored], candidates: Sequence[str]) -> list[dict[str, Any]]:
    """Per family, per source of several families (``results/hard`` pooled: the issue's
    target is on it) and overall: PAR-2 (mean seconds) of the VBS (every configuration run,
    and the candidates only), of each candidate alone, and of auto in cross-validation."""
    groups: dict[str, list[Scored]] = defaultdict(list)
    sources: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        groups[s.problem.family].append(s)
        sources[s.problem.source].append(s)
    pooled = [
        (f"all of results/{source}", group)
        for source, group in sorted(sources.items())
        if len({s.problem.family for s in group}) > 1
    ]
    rows = []
    for family, group in [*sorted(groups.items()), *pooled, ("all", list(scored))]:
        vbs = statistics.fmean(s.vbs_s for s in group)
        vbs_c = statistics.fmean(min(s.problem.par2[c] for c in candidates) for s in group)
        auto = statistics.fmean(s.auto_s for s in group)
        row: dict[str, Any] = {
            "family": family,
            "problems": len(group),
            "vbs_s": round(vbs, 4),
            "vbs_candidates_s": round(vbs_c, 4),
            "auto_s": round(auto, 4),
            "auto_vs_vbs": _ratio(auto, vbs),
            "auto_vs_vbs_candidates": _ratio(auto, vbs_c),
            "blunders": sum(s.problem.blunder(s.config) for s in group),
            "picked": dict(sorted(_counts(s.config for s in group).items())),
        }
        for config in candidates:
            mean = statistics.fmean(s.problem.par2[config] for s in group)
            row[f"{config}_vs_vbs"] = _ratio(mean, vbs)
        rows.append(row)
    return rows


def _counts(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[item] += 1
    return dict(counts)


def table_markdown(rows: Sequence[Mapping[str, Any]], candidates: Sequence[str]) -> str:
    """The cross-validation table as Markdown (ratios: PAR-2 against the VBS's)."""

    def col(key: str, header: str, fmt: str = "{}") -> Column[Mapping[str, Any]]:
        return Column(header, lambda r: r.get(key), lambda v: "-" if v is None else fmt.format(v))

    columns = [
        col("family", "family"),
        col("problems", "problems"),
        col("vbs_s", "VBS PAR-2 s", "{:.4g}"),
        col("vbs_candidates_s", "VBS over candidates s", "{:.4g}"),
        col("auto_s", "auto (CV) s", "{:.4g}"),
        col("auto_vs_vbs", "auto / VBS", "{:.2f}x"),
        col("auto_vs_vbs_candidates", "auto / VBS over candidates", "{:.2f}x"),
        col("blunders", "blunders"),
        *(col(f"{c}_vs_vbs", f"`{c}` alone / VBS", "{:.2f}x") for c in candidates),
        col("picks", "auto picked"),
    ]
    shown = [{**r, "picks": ", ".join(f"{c} {n}" for c, n in r["picked"].items())} for r in rows]
    return Table(columns, shown).markdown()


# -- the command -------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kakurolab.experiments.autofit", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--root", type=Path, default=None, help="project root (default: here)")
    parser.add_argument("--rule", type=Path, default=AutoRule.file, help="rule file to write")
    parser.add_argument("--check", action="store_true", help="compare with --rule, write nothing")
    parser.add_argument(
        "--keep-superseded",
        action="store_true",
        help="keep problems a newer source measured again (prints the table, writes nothing)",
    )
    args = parser.parse_args(argv)
    root = args.root or project_root(Path.cwd() / "x")
    environment = describe(root)  # before anything is written: the tree the fit ran from
    try:
        problems, notes = load_problems(root, superseded=args.keep_superseded)
    except KakuroError as exc:
        print(f"autofit: {exc}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"autofit: {note}", file=sys.stderr)
    data = rule_data(problems)
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.keep_superseded:
        candidates = candidates_of(problems)
        print(table_markdown(cv_table(cross_validate(problems), candidates), candidates))
        return 0
    if args.check:
        same = args.rule.exists() and args.rule.read_text(encoding="utf-8") == text
        print(f"{args.rule}: {'reproduces' if same else 'DIFFERS from the fit'}")
        return 0 if same else 1
    args.rule.parent.mkdir(parents=True, exist_ok=True)
    write_text(args.rule, text)
    rule = AutoRule(data, str(args.rule))
    candidates = data["candidates"]
    rows = cv_table(cross_validate(problems), candidates)
    out = root / "results" / RESULTS
    out.mkdir(parents=True, exist_ok=True)
    write_text(out / "cv.json", json.dumps({"rule": data["tree"], "table": rows}, indent=1) + "\n")
    environment["experiment"] = {
        "name": RESULTS,
        "description": "auto's rule fitted on the committed runs, scored leaving one family out",
        "command": "python -m kakurolab.experiments.autofit",
        "sources": data["sources"],
    }
    write_text(out / "environment.json", json.dumps(environment, indent=1, sort_keys=True) + "\n")
    markdown = table_markdown(rows, candidates)
    report = "\n".join(
        [
            "# auto: leave-one-family-out PAR-2 against the virtual best solver",
            "",
            "Rebuilt by `python -m kakurolab.experiments.autofit` from "
            + ", ".join(f"`results/{s}`" for s in SOURCES)
            + f" ({len(problems)} problems, no solver run).",
            "",
            "The rule fitted on every problem:",
            "",
            "```",
            *rule.describe(),
            "```",
            "",
            markdown,
        ]
    )
    write_text(out / "report.md", report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
