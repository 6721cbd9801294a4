"""Running an experiment: plan the grid, skip finished rows, execute the rest, append rows.

The parent process never solves: it plans ``instance x configuration x repetition`` runs,
hands pending ones to an executor (child processes with hard limits, see ``executors``) and
appends each row to ``results/<name>/runs.jsonl`` the moment it arrives, flushed.  A rerun
reads that file and only runs the keys it lacks (``runsfile.pending``), so an interrupted
experiment resumes.

The tasks (``tasks.TASKS``) run inside the child and call only the public API.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ..errors import KakuroError
from ..fileio import write_text
from ..model import Puzzle
from ..schema import seconds
from .plan import MAX_RUNS, Configuration, Experiment, Instance, load_instances
from .runs import DEFINITIVE, Row, RunSpec
from .runsfile import RowWriter, latest_rows, pending, read_rows, warn
from .tasks import TASKS

__all__ = ["DEFINITIVE", "Row", "RunSpec", "read_rows", "warn"]


class Interrupted(KakuroError):
    """A run was stopped by a signal from outside (Ctrl-C, SIGTERM): it gets no row."""

    exit_code = 130


def execute(spec: RunSpec) -> Row:
    """Run one spec and return its full row; every failure becomes an error/memout row."""
    import traceback

    start = datetime.now(UTC).isoformat(timespec="milliseconds")
    t0 = time.perf_counter()
    row = base_row(spec, start)
    try:
        row.update(TASKS[spec.task].run(spec))
    except MemoryError:
        row.update({"status": "memout", "message": "MemoryError (memory limit reached)"})
    except KakuroError as exc:  # backends wrap solver failures, out-of-memory included
        row.update({"status": "memout" if _is_memout(str(exc)) else "error", "message": str(exc)})
    except Exception as exc:
        last = traceback.format_exception_only(exc)[-1].strip()
        row.update({"status": "memout" if _is_memout(last) else "error", "message": last})
    row["wall_s"] = seconds(time.perf_counter() - t0)
    return row


def _is_memout(message: str) -> bool:
    """Whether a solver's error message means it hit the memory limit."""
    text = message.lower()
    return "bad_alloc" in text or (
        "memory" in text
        and any(word in text for word in ("out of", "exceeded", "cannot allocate", "limit"))
    )


def base_row(spec: RunSpec, start: str) -> Row:
    """The fields every row has, whatever happened to the run."""
    puzzle = spec.puzzle
    return {
        "key": spec.key,
        "experiment": spec.experiment,
        "instance": spec.instance,
        "set": spec.set,
        "hash": spec.hash,
        "rows": puzzle.nrows,
        "cols": puzzle.ncols,
        "white_cells": len(puzzle.whites),
        "kind": "cryptic" if puzzle.is_cryptic else "standard",
        "config": spec.config,
        "backend": spec.backend,
        "options": dict(spec.options),
        "encoding": spec.options.get("encoding"),
        "solver": spec.options.get("solver"),
        "task": spec.task,
        "repetition": spec.repetition,
        "seed": spec.seed,
        "timeout_s": spec.timeout,
        "start": start,
        "host": os.uname().nodename,
        "status": "error",
        "verified": None,
        "outcome": None,
        "time_s": None,
        "message": "",
    }


def failure_row(spec: RunSpec, status: str, message: str, elapsed: float) -> Row:
    """The row for a run whose child was killed or died (written by the parent)."""
    row = base_row(spec, datetime.now(UTC).isoformat(timespec="milliseconds"))
    row.update({"status": status, "message": message, "wall_s": seconds(elapsed)})
    if status == "timeout":
        row["time_s"] = spec.timeout
    return row


# -- planning and resuming ---------------------------------------------------------------


@dataclass
class Plan:
    """The runs of an experiment, and what was left out and why (never silently).

    Examples:
        >>> from kakurolab.experiments import load_experiment, plan
        >>> planned = plan(load_experiment(tiny_config))
        >>> len(planned.instances), len(planned.configs), len(planned.specs)
        (1, 1, 1)
    """

    experiment: Experiment
    instances: list[Instance]
    configs: list[Configuration]
    specs: list[RunSpec] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)


def run_key(instance: Instance, config: Configuration, repetition: int) -> str:
    return f"{instance.id}|{config.label}|{repetition}"


def plan(experiment: Experiment, instances: list[Instance] | None = None) -> Plan:
    """Expand the grid; unknown backends or bad options are errors, unavailable ones skips.

    Examples:
        >>> from kakurolab.experiments import load_experiment, plan
        >>> [spec.key for spec in plan(load_experiment(tiny_config)).specs]
        ['standard/standard|native|0']
    """
    from ..backends import BACKENDS

    invalid: list[dict[str, Any]] = []
    if instances is None:
        instances = load_instances(experiment, invalid=invalid)
    result = Plan(experiment, instances, [])
    result.skipped += invalid
    for config in experiment.configs:
        cls = BACKENDS.get(config.backend)
        if cls is None:
            known = ", ".join(sorted(BACKENDS))
            raise KakuroError(
                f"{experiment.path}: configuration {config.label!r}: unknown backend "
                f"{config.backend!r}; registered here: {known}"
            )
        if not cls.available():
            extra = f" (pip install 'kakurolab[{cls.extra}]')" if cls.extra else ""
            result.skipped.append(
                {
                    "config": config.label,
                    "instances": "all",
                    "reason": f"backend {config.backend!r} is not available here{extra}",
                }
            )
            continue
        _check_options(config, experiment)
        _check_encoding(config, experiment)
        result.configs.append(config)
    grid = experiment.repetitions * len(instances) * len(result.configs)
    if grid > MAX_RUNS:  # multiplied out, not expanded
        raise KakuroError(
            f"{experiment.path}: {len(instances)} instances x {len(result.configs)} "
            f"configurations x {experiment.repetitions} repetition(s) = {grid} runs; at most "
            f"{MAX_RUNS} per experiment (split it, or select fewer puzzles)"
        )
    # Instance-major order: a partial run covers every configuration on its first instances,
    # and slow configurations spread over the whole run (a truthful ETA).
    for rep in range(experiment.repetitions):
        for inst in instances:
            puzzle = picklable(inst.puzzle)
            for config in result.configs:
                result.specs.append(make_spec(experiment, inst, config, rep, puzzle))
    return result


def _check_options(config: Configuration, experiment: Experiment) -> None:
    """Options are checked once here, not once per run in a child: the first option a
    backend refuses is named (backends that do not check a value trip over it here)."""
    from ..backends import get_backend

    where = f"{experiment.path}: configuration {config.label!r}"
    try:
        get_backend(config.backend, **config.options)
        return
    except KakuroError as exc:
        raise KakuroError(f"{where}: {exc}") from None
    except Exception as exc:
        problem = f"{type(exc).__name__}: {exc}"
    for key, value in config.options.items():
        try:
            get_backend(config.backend, **{key: value})
        except Exception as exc:
            problem = f"option {key} = {value!r} refused ({type(exc).__name__}: {exc})"
            break
    raise KakuroError(f"{where}: {problem}"[:300])


def _check_encoding(config: Configuration, experiment: Experiment) -> None:
    """Unknown encoding names fail before any run, with the config's label."""
    spec = config.options.get("encoding")
    if spec is None:
        return
    from .. import encodings

    try:
        encodings.parse_spec(str(spec))
    except KakuroError as exc:
        raise KakuroError(f"{experiment.path}: configuration {config.label!r}: {exc}") from None


def picklable(puzzle: Puzzle) -> Puzzle:
    """A fresh copy: cached properties hold mapping proxies, which do not pickle."""
    return Puzzle(puzzle.id, puzzle.grid, dict(puzzle.meta))


def make_spec(
    exp: Experiment, inst: Instance, config: Configuration, rep: int, puzzle: Puzzle | None = None
) -> RunSpec:
    """The run of ``inst`` under ``config`` at repetition ``rep`` (``puzzle``: a picklable
    copy of the instance's puzzle, shared by its runs)."""
    return RunSpec(
        key=run_key(inst, config, rep),
        experiment=exp.name,
        instance=inst.id,
        set=inst.set,
        hash=inst.hash,
        puzzle=puzzle or picklable(inst.puzzle),
        config=config.label,
        backend=config.backend,
        task=config.task,
        repetition=rep,
        timeout=exp.timeout,
        options=dict(config.options),
        soft_timeout=config.soft_timeout,
        count_limit=exp.count_limit,
        memory_mb=exp.memory_mb,
    )


# -- running -----------------------------------------------------------------------------


class Executor(Protocol):
    """Where runs execute (``executors.EXECUTORS``): rows come back as runs finish."""

    def run(self, specs: list[RunSpec]) -> Generator[Row, None, None]: ...


@dataclass
class Summary:
    """What a run call did, for the CLI's closing line.

    Examples:
        >>> from kakurolab.experiments import load_experiment, make_executor, run_experiment
        >>> experiment = load_experiment(tiny_config)
        >>> summary = run_experiment(experiment, make_executor("local"), progress=False)
        >>> summary.planned, summary.ran, summary.wrong, summary.disagreements
        (1, 1, 0, [])
    """

    planned: int
    done_before: int
    ran: int
    statuses: Counter[str]
    skipped: list[dict[str, Any]]
    disagreements: list[dict[str, Any]]
    results_dir: Path
    wrong: int = 0
    """Rows (old and new) whose solution fails the rule checker."""
    broken: dict[str, str] = field(default_factory=dict)
    """Configurations of the plan every row of which failed (``error``/``crash``), with the
    first message: a broken solver, which must not pass a CI gate."""
    failed: int = 0
    """Rows (old and new, of the plan's configurations) that failed (``error``/``crash``)."""


def run_experiment(
    experiment: Experiment,
    executor: Executor,
    *,
    results_dir: Path | None = None,
    progress: bool = True,
    limit: int | None = None,
) -> Summary:
    """Run every pending run of the experiment through ``executor``; rows land as they finish.

    ``limit`` stops after that many new rows (for smoke tests and partial runs).

    Examples:
        >>> from kakurolab.experiments import load_experiment, make_executor, run_experiment
        >>> experiment = load_experiment(tiny_config)
        >>> run_experiment(experiment, make_executor("local"), progress=False).ran
        1
        >>> run_experiment(experiment, make_executor("local"), progress=False).ran  # resumed: done
        0
    """
    from .environment import write_environment

    out = results_dir or experiment.results_dir
    the_plan = plan(experiment)
    for skip in the_plan.skipped:
        if skip["config"] == "all":  # an invalid puzzle: no configuration runs it
            warn(f"{skip['instances']}: {skip['reason']}; not run")
        else:
            warn(f"skipping {skip['config']} on {skip['instances']} instance(s): {skip['reason']}")
    path = out / "runs.jsonl"
    resume = pending(path, the_plan.specs)
    if resume.stale:
        warn(
            f"{len(resume.stale)} finished row(s) were measured on a different puzzle under the "
            f"same id (e.g. {resume.stale[0]}); they are kept, delete {path} to measure afresh"
        )
    todo = resume.pending if limit is None else resume.pending[:limit]
    out.mkdir(parents=True, exist_ok=True)
    if todo or not (out / "environment.json").exists():  # describes who made the rows
        write_environment(out / "environment.json", experiment)
    write_text(out / "skipped.json", json.dumps(the_plan.skipped, indent=1) + "\n")
    statuses: Counter[str] = Counter()
    repeats: Counter[tuple[str, str]] = Counter()
    writer = RowWriter(path)
    rows_in = executor.run(todo)
    try:
        for row in _progress(rows_in, len(todo), experiment.name, progress):
            _check_row(row, repeats)
            writer.write(row)
            statuses[row["status"]] += 1
    finally:
        rows_in.close()  # kills the workers now, also on Ctrl-C
        writer.close()
    for (config, message), n in sorted(repeats.items()):
        if n > 1:
            warn(f"{config}: {n} runs in all failed with: {message}")
    rows = list(latest_rows(read_rows(path, quiet=True)).values())
    configs = {spec.config for spec in the_plan.specs}
    disagreements = find_disagreements(rows)
    for item in disagreements:
        warn(f"DISAGREEMENT on {item['instance']}: {item['outcomes']}")
    return Summary(
        planned=len(the_plan.specs),
        done_before=resume.done_of(the_plan.specs),
        ran=sum(statuses.values()),
        statuses=statuses,
        skipped=the_plan.skipped,
        disagreements=disagreements,
        results_dir=out,
        wrong=sum(r.get("verified") is False for r in rows),
        broken=broken_configs(rows, configs),
        failed=sum(r["status"] in FAILED for r in rows if r.get("config") in configs),
    )


FAILED = ("error", "crash")
"""Row statuses that mean the run failed (a timeout or a memout is a result, not a fault)."""


def broken_configs(rows: Iterable[Row], configs: set[str]) -> dict[str, str]:
    """Each configuration in ``configs`` whose rows all failed, with its first message."""
    by_config: dict[str, list[Row]] = {}
    for row in rows:
        if row.get("config") in configs:
            by_config.setdefault(row["config"], []).append(row)
    return {
        config: str(found[0].get("message") or found[0]["status"])
        for config, found in sorted(by_config.items())
        if found and all(r["status"] in FAILED for r in found)
    }


def _check_row(row: Row, repeats: Counter[tuple[str, str]]) -> None:
    """Warn about wrong solutions always, and about each distinct failure once."""
    if row["status"] == "sat" and row.get("verified") is False:
        warn(f"WRONG SOLUTION: {row['config']} on {row['instance']} fails the rule checker")
    if row["status"] in ("error", "crash") and row.get("message"):
        key = (row["config"], row["message"])
        repeats[key] += 1
        if repeats[key] == 1:
            warn(f"{row['status']}: {row['config']} on {row['instance']}: {row['message']}")


def _progress(rows: Iterator[Row], total: int, name: str, enabled: bool) -> Iterator[Row]:
    """Rows, with a tqdm bar (ETA, status counts) on stderr when it is a terminal."""
    if not enabled or total == 0:
        yield from rows
        return
    from tqdm import tqdm

    counts: Counter[str] = Counter()
    with tqdm(
        total=total, desc=name, unit="run", file=sys.stderr, dynamic_ncols=True, disable=None
    ) as bar:
        for row in rows:
            counts[row["status"]] += 1
            bar.set_postfix_str(" ".join(f"{k}={v}" for k, v in sorted(counts.items())), False)
            bar.update(1)
            yield row


def find_disagreements(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """Instances whose definitive outcomes differ between configurations or repetitions.

    An outcome is ``sat:<answer or solution digest>``, ``unsat``, ``unique:<digest>``,
    ``multiple`` or ``count:<n>``; timeouts and errors have none and never disagree.
    Outcomes are compared within one task (a count and a solve say different things).  Two
    solutions that each passed the rule check are both right (the puzzle has several), so a
    verified ``sat`` counts as plain ``sat``: only an unchecked grid's digest is compared.

    Examples:
        >>> from kakurolab.experiments import find_disagreements
        >>> rows = [{"instance": "p1", "config": "native", "status": "sat", "outcome": "unsat"},
        ...         {"instance": "p1", "config": "cpsat", "status": "sat", "outcome": "sat:123"}]
        >>> find_disagreements(rows)
        [{'instance': 'p1', 'task': 'solve',
          'outcomes': {'sat:123': ['cpsat'], 'unsat': ['native']}}]
    """
    groups: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        outcome = row.get("outcome")
        if outcome and outcome.startswith("sat:") and row.get("verified") is True:
            outcome = "sat"
        if outcome and row.get("status") in DEFINITIVE:
            groups[row["instance"], row.get("task", "solve")][outcome].add(row["config"])
    found = []
    for (instance, task), outcomes in sorted(groups.items()):
        if len(outcomes) > 1:
            found.append(
                {
                    "instance": instance,
                    "task": task,
                    "outcomes": {o: sorted(cfgs) for o, cfgs in sorted(outcomes.items())},
                }
            )
    return found
