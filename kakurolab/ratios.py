"""Same-run benchmarks: configurations timed against a reference, reported as ratios.

Seconds measured on a shared machine mean little; the ratio of two configurations measured in
the same run, puzzle by puzzle and interleaved (puzzle-major, with the configuration order
rotated per puzzle), survives the noise because the noise hits every configuration alike.
Every configuration's answer is checked against the others' (and against published solutions
where the data has them): a benchmark of a wrong solver is an error, not a result.

A *configuration* is a backend name with options, written ``NAME[:key=value,...]``; the CLI's
solving commands build their backend through the same :class:`Config`.  Suites live in the
plain dict :data:`SUITES` (name -> :class:`Suite`); adding a suite touches nothing else.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import datasets
from .backends import Backend, Config, Status
from .errors import KakuroError, UnknownNameError
from .generator import BENCH_SIZES, generate
from .model import Puzzle
from .tables import Column, Table
from .uniqueness import Verdict, prove_unique, solve


class BenchError(KakuroError):
    """Configurations disagree, or one contradicts published data: the timings are void."""


# --------------------------------------------------------------------------- configurations


# --------------------------------------------------------------------------- suites


@dataclass(frozen=True)
class Outcome:
    """What one run produced: ``answer`` must be equal across configurations."""

    answer: object
    timeout: bool = False


@dataclass(frozen=True)
class Case:
    """One timed unit of work (usually one puzzle)."""

    id: str
    run: Callable[[Backend, float | None], Outcome]


@dataclass(frozen=True)
class SuiteOptions:
    file: Path | None = None
    subset: int | None = None


@dataclass(frozen=True)
class Suite:
    doc: str
    cases: Callable[[SuiteOptions], list[Case]]


def _load(options: SuiteOptions, default: Path) -> list[Puzzle]:
    from .formats import load

    path = options.file or default
    if not Path(path).exists():
        raise KakuroError(f"{path}: no such file")
    puzzles = load(path)
    return puzzles[: options.subset] if options.subset else puzzles


def _solve_case(puzzle: Puzzle) -> Case:
    def run(backend: Backend, timeout: float | None) -> Outcome:
        result = solve(puzzle, backend=backend, timeout=timeout)
        if result.solution is not None:
            return Outcome(result.solution.answer or tuple(result.solution.rows(puzzle)))
        if result.status is Status.UNSAT:
            return Outcome("unsat")
        return Outcome(None, timeout=True)

    return Case(puzzle.id, run)


def _unique_case(puzzle: Puzzle) -> Case:
    published = puzzle.meta.get("solution")

    def run(backend: Backend, timeout: float | None) -> Outcome:
        proof = prove_unique(puzzle, backend=backend, timeout=timeout)
        if proof.verdict is Verdict.UNKNOWN:
            return Outcome(None, timeout=True)
        if proof.verdict is Verdict.ERROR:
            raise BenchError(f"backend {backend.name!r} failed on puzzle {puzzle.id}")
        if proof.verdict is Verdict.UNIQUE:
            solution = proof.solutions[0]
            if published is not None and solution != published:
                cells = solution.differences(published)  # type: ignore[arg-type]
                raise BenchError(
                    f"backend {backend.name!r} solved puzzle {puzzle.id} unlike the published "
                    f"solution ({len(cells)} cells differ)"
                )
            return Outcome(("unique", tuple(solution.rows(puzzle))))
        return Outcome(proof.verdict.value)  # multiple witnesses may differ between backends

    return Case(puzzle.id, run)


def pe424_cases(options: SuiteOptions) -> list[Case]:
    return [_solve_case(p) for p in _load(options, datasets.PE424)]


def janko_cases(options: SuiteOptions) -> list[Case]:
    return [_unique_case(p) for p in _load(options, datasets.JANKO_DEV)]


def generate_cases(options: SuiteOptions) -> list[Case]:
    """Cases for the ``kakuro bench generate`` suite: one generation per size and seed.

    ``options.subset`` limits the number of seeds per size (default 3).  The answer compared
    across configurations is only "a unique puzzle of this size": different backends may
    return different second solutions, so the repairs (and puzzles) can legitimately differ.
    """
    seeds = options.subset or 3
    cases = []
    for nrows, ncols in BENCH_SIZES:
        for seed in range(seeds):

            def run(backend: Any, timeout: float | None, r=nrows, c=ncols, s=seed) -> Outcome:
                generate(r, c, "normal", seed=s, backend=backend)
                return Outcome(("unique", r, c))

            cases.append(Case(f"{nrows}x{ncols}-s{seed}", run))
    return cases


def explain_cases(options: SuiteOptions) -> list[Case]:
    """Human deduction (``kakuro explain``) over the janko dev set: no backend is involved, so
    every configuration times the same work; the answer is the deduced grid."""
    from .logic import deduce

    def case(puzzle: Puzzle) -> Case:
        def run(backend: Backend, timeout: float | None) -> Outcome:
            result = deduce(puzzle)
            return Outcome(tuple(result.state.grid_rows()))

        return Case(puzzle.id, run)

    return [case(p) for p in _load(options, datasets.JANKO_DEV)]


def stress_cases(options: SuiteOptions) -> list[Case]:
    """The loose 101x31 grid (one-cell runs, many solutions): uniqueness answered ``multiple``."""
    return [_unique_case(p) for p in _load(options, datasets.STRESS_LOOSE)]


SUITES: dict[str, Suite] = {
    "pe424": Suite("solve the 200 cryptic Project Euler 424 puzzles", pe424_cases),
    "janko": Suite("solve + prove unique (count to 2) the 105 janko.at puzzles", janko_cases),
    "generate": Suite("generate unique normal puzzles, 12x12 to 30x30", generate_cases),
    "explain": Suite("deduce the 105 janko.at puzzles by human techniques", explain_cases),
    "stress": Suite(
        "prove unique (count to 2) the loose 101x31 grid: 1,931 cells, many solutions",
        stress_cases,
    ),
}


# --------------------------------------------------------------------------- running


@dataclass
class ConfigReport:
    config: Config
    times: dict[str, float]
    timeouts: int
    total: float
    median: float
    maximum: float
    ratio: float | None = None
    geo_ratio: float | None = None
    target: float | None = None

    @property
    def passed(self) -> bool | None:
        if self.target is None or self.ratio is None:
            return None
        return self.ratio <= self.target and not self.timeouts

    def as_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.label,
            "backend": self.config.name,
            "options": dict(self.config.options),
            "cases": len(self.times),
            "timeouts": self.timeouts,
            "total_s": round(self.total, 6),
            "median_s": round(self.median, 6),
            "max_s": round(self.maximum, 6),
            "ratio": None if self.ratio is None else round(self.ratio, 4),
            "geo_ratio": None if self.geo_ratio is None else round(self.geo_ratio, 4),
            "target": self.target,
            "pass": self.passed,
        }


@dataclass
class BenchReport:
    suite: str
    reference: str
    repeat: int
    aggregate: str
    configs: list[ConfigReport]
    wall: float

    @property
    def ok(self) -> bool:
        return all(c.passed is not False for c in self.configs)

    def as_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "reference": self.reference,
            "repeat": self.repeat,
            "aggregate": self.aggregate,
            "cases": len(self.configs[0].times) if self.configs else 0,
            "wall_s": round(self.wall, 3),
            "configs": [c.as_dict() for c in self.configs],
            "times": {c.config.label: c.times for c in self.configs},
            "ok": self.ok,
        }

    def table(self) -> str:
        """The report as aligned text: a title line, then one row per configuration."""

        def times(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}x"

        def verdict(c: ConfigReport) -> str:
            if c.passed is None:
                return ""
            return f"{'PASS' if c.passed else 'FAIL'} (<= {c.target:g}x)"

        columns: list[Column[ConfigReport]] = [
            Column(
                "config",
                lambda c: c.config.label + (" (ref)" if c.config.label == self.reference else ""),
            ),
            Column("cases", lambda c: len(c.times), align="right"),
            Column("timeouts", lambda c: c.timeouts, align="right"),
            Column("total s", lambda c: c.total, "{:.3f}", "right"),
            Column("median ms", lambda c: 1000 * c.median, "{:.2f}", "right"),
            Column("max ms", lambda c: 1000 * c.maximum, "{:.1f}", "right"),
            Column("ratio", lambda c: c.ratio, times, "right"),
            Column("geo ratio", lambda c: c.geo_ratio, times, "right"),
            Column("target", verdict, align="right"),
        ]
        title = (
            f"suite {self.suite}: {len(self.configs[0].times) if self.configs else 0} cases, "
            f"reference {self.reference}, repeat {self.repeat} ({self.aggregate}), "
            f"wall {self.wall:.1f} s"
        )
        return title + "\n" + Table(columns, self.configs).plain()


AGGREGATES: dict[str, Callable[[Sequence[float]], float]] = {
    "min": min,
    "median": statistics.median,
}


def run_bench(
    suite: str,
    configs: Sequence[Config],
    *,
    reference: Config,
    options: SuiteOptions | None = None,
    repeat: int = 1,
    aggregate: str = "min",
    timeout: float | None = None,
    targets: Mapping[str, float] | None = None,
    progress: Callable[[Iterable[Case], int], Iterable[Case]] | None = None,
) -> BenchReport:
    """Time every configuration on every case of a suite, interleaved, against ``reference``.

    ``targets`` maps a configuration label (or ``"*"`` for every non-reference one) to the
    highest acceptable ratio of its total time to the reference's.
    """
    try:
        chosen = SUITES[suite]
    except KeyError:
        raise UnknownNameError("suite", suite, SUITES) from None
    if aggregate not in AGGREGATES:
        raise UnknownNameError("aggregate", aggregate, AGGREGATES)
    if repeat < 1:
        raise KakuroError(f"repeat must be at least 1, got {repeat}")
    configs = _with_reference(configs, reference)
    labels = [c.label for c in configs]
    backends = {c.label: c.backend() for c in configs}
    targets = dict(targets or {})
    unknown = [label for label in targets if label != "*" and label not in backends]
    if unknown:
        raise KakuroError(f"the target names {unknown[0]!r}, which is not a configuration")
    cases = chosen.cases(options or SuiteOptions())
    if not cases:
        raise KakuroError(f"suite {suite!r} has no cases")

    start = time.perf_counter()
    for backend in backends.values():  # warm-up: imports and first-call caches
        cases[0].run(backend, timeout)
    iterable: Iterable[Case] = progress(cases, len(cases)) if progress else cases
    samples, timed_out = _timed(iterable, labels, backends, repeat, timeout)
    wall = time.perf_counter() - start
    reduce = AGGREGATES[aggregate]
    reports = [
        _config_report(config, samples[config.label], len(timed_out[config.label]), reduce)
        for config in configs
    ]
    ref = next(r for r in reports if r.config.label == reference.label)
    for report in reports:
        if ref.total > 0:
            report.ratio = report.total / ref.total
        report.geo_ratio = _geo_ratio(report.times, ref.times)
        if report is not ref:
            report.target = targets.get(report.config.label, targets.get("*"))
    return BenchReport(suite, reference.label, repeat, aggregate, reports, wall)


def _with_reference(configs: Sequence[Config], reference: Config) -> list[Config]:
    """The configurations with the reference first when it is not among them; a label given
    twice is refused."""
    configs = list(configs)
    if reference.label not in {c.label for c in configs}:
        configs.insert(0, reference)
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        dup = next(label for label in labels if labels.count(label) > 1)
        raise KakuroError(f"configuration {dup!r} is given twice")
    return configs


def _timed(
    cases: Iterable[Case],
    labels: list[str],
    backends: Mapping[str, Backend],
    repeat: int,
    timeout: float | None,
) -> tuple[dict[str, dict[str, list[float]]], dict[str, set[str]]]:
    """Every configuration's seconds on every case (in turns that rotate with the case, so no
    configuration always runs first), and the cases each timed out on; the answers must
    agree."""
    samples: dict[str, dict[str, list[float]]] = {label: {} for label in labels}
    timed_out: dict[str, set[str]] = {label: set() for label in labels}
    with _quiet_heap():
        for index, case in enumerate(cases):
            order = labels[index % len(labels) :] + labels[: index % len(labels)]
            answers: dict[str, object] = {}
            for _ in range(repeat):
                for label in order:
                    gc.collect()  # this run's garbage is its own (see _quiet_heap)
                    t0 = time.perf_counter()
                    outcome = case.run(backends[label], timeout)
                    elapsed = time.perf_counter() - t0
                    samples[label].setdefault(case.id, []).append(elapsed)
                    if outcome.timeout:
                        timed_out[label].add(case.id)
                    else:
                        answers.setdefault(label, outcome.answer)
                        _agree(case.id, answers, label, outcome.answer)
    return samples, timed_out


def _config_report(
    config: Config,
    samples: Mapping[str, list[float]],
    timeouts: int,
    reduce: Callable[[Sequence[float]], float],
) -> ConfigReport:
    times = {cid: reduce(ts) for cid, ts in samples.items()}
    values = list(times.values())
    return ConfigReport(
        config=config,
        times=times,
        timeouts=timeouts,
        total=sum(values),
        median=statistics.median(values),
        maximum=max(values),
    )


@contextmanager
def _quiet_heap() -> Iterator[None]:
    """Freeze what the warm-up left on the heap, for the timed runs.

    The cyclic collector runs when allocations pile up, so a run could pay for the garbage of
    the run before it, another configuration's.  Each timed run starts after a collection,
    which with the warm-up's objects frozen (``gc.freeze``) walks only what came since:
    microseconds, not the 50 ms of a full collection.  (Ratios still move a little with the
    mix of configurations in one bench, through the CPU's caches: compare two at a time.)"""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _agree(case_id: str, answers: dict[str, object], label: str, answer: object) -> None:
    for other, theirs in answers.items():
        if theirs != answer:
            raise BenchError(
                f"case {case_id}: configurations disagree: {other} says {_short(theirs)}, "
                f"{label} says {_short(answer)}"
            )


def _short(answer: object) -> str:
    text = repr(answer)
    return text if len(text) <= 60 else text[:57] + "..."


def _geo_ratio(times: Mapping[str, float], ref: Mapping[str, float]) -> float | None:
    """Geometric mean of per-case time ratios: no single slow case dominates it."""
    logs = [math.log(times[k] / ref[k]) for k in times if times[k] > 0 and ref.get(k, 0) > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


def parse_targets(specs: Iterable[str]) -> dict[str, float]:
    """``0.25`` (every non-reference configuration) or ``LABEL=0.25``."""
    targets: dict[str, float] = {}
    for spec in specs:
        label, eq, value = spec.rpartition("=")
        try:
            ratio = float(value)
        except ValueError:
            raise KakuroError(f"a target is RATIO or CONFIG=RATIO, got {spec!r}") from None
        targets[label if eq else "*"] = ratio
    return targets
