"""Running an experiment: plan the grid, skip finished rows, execute the rest, append rows.

The parent process never solves: it plans ``instance x configuration x repetition`` runs,
hands pending ones to an executor (child processes with hard limits, see ``executors``) and
appends each row to ``results/<name>/runs.jsonl`` the moment it arrives, flushed.  A rerun
reads that file and only runs the keys it lacks, so an interrupted experiment resumes.

The task functions in :data:`TASKS` run inside the child and call only the public API.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ..errors import KakuroError
from ..fileio import write_text
from ..model import Puzzle, Solution
from ..schema import canonical, seconds
from .plan import (
    MAX_RUNS,
    Configuration,
    Experiment,
    Instance,
    Rule,
    integer,
    is_number,
    load_instances,
)

RunSpec = dict[str, Any]
Row = dict[str, Any]

DEFINITIVE = {"sat", "unsat"}
"""Statuses that end a run with an answer; everything else counts as unsolved."""


class Interrupted(KakuroError):
    """A run was stopped by a signal from outside (Ctrl-C, SIGTERM): it gets no row."""

    exit_code = 130


# -- tasks (run in the child) ------------------------------------------------------------


def _digest(puzzle: Puzzle, solution: Solution | None) -> str | None:
    if solution is None:
        return None
    text = "\n".join(solution.rows(puzzle)) + "\n" + (solution.answer or "")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _result_fields(puzzle: Puzzle, result: Any, timeout: float) -> Row:
    """The shared record of a :class:`~kakurolab.Result` (``kakurolab.schema``), with the
    rows' extras: re-verification, the grid digest and the formula size."""
    from ..check import solution_problems
    from ..schema import ResultRecord

    status = str(result.status)
    # Out of time: the backend gave up near the limit, or answered too late to count.
    late = result.time > timeout if status in DEFINITIVE else result.time >= 0.9 * timeout
    if status in DEFINITIVE | {"unknown"} and late:
        status = "timeout"
    solution = result.solution
    verified = None
    if solution is not None:
        verified = all(not solution_problems(puzzle, s) for s in result.solutions)
    stats = {k: v for k, v in result.stats.items() if isinstance(v, int | float | str | bool)}
    record = ResultRecord.from_result(result, status).to_json()
    del record["backend"], record["options"]  # the row's spec part has them
    return {
        **record,
        "verified": verified,
        "digest": _digest(puzzle, solution),
        "variables": stats.get("variables"),
        "clauses": stats.get("clauses"),
        "stats": stats,
    }


def _soft(spec: RunSpec) -> float | None:
    """The timeout handed to the backend (None: the hard kill alone enforces it)."""
    return spec["timeout"] if spec.get("soft_timeout", True) else None


def task_solve(puzzle: Puzzle, spec: RunSpec) -> Row:
    from ..uniqueness import solve

    result = solve(puzzle, backend=spec["backend"], timeout=_soft(spec), **spec["options"])
    row = _result_fields(puzzle, result, spec["timeout"])
    row["outcome"] = {"sat": f"sat:{row['answer'] or row['digest']}", "unsat": "unsat"}.get(
        row["status"]
    )
    return row


def task_unique(puzzle: Puzzle, spec: RunSpec) -> Row:
    from ..uniqueness import prove_unique

    verdict = prove_unique(puzzle, backend=spec["backend"], timeout=_soft(spec), **spec["options"])
    row = _result_fields(puzzle, verdict.result, spec["timeout"])
    row["verdict"] = str(verdict.verdict)
    if row["status"] == "timeout":  # too late, whatever the verdict
        return row
    if row["verdict"] in ("unique", "multiple", "unsat"):
        row["status"] = "unsat" if row["verdict"] == "unsat" else "sat"
        key = row["answer"] or row["digest"] if row["verdict"] == "unique" else ""
        row["outcome"] = f"{row['verdict']}:{key}".rstrip(":")
    elif row["status"] in DEFINITIVE:  # one solution found, uniqueness not proven in time
        row["status"] = "timeout"
    return row


def task_count(puzzle: Puzzle, spec: RunSpec) -> Row:
    """Count solutions up to ``count_limit`` (None or 0: all of them).

    ``unsat`` needs a proof (the solver exhausted the search with no solution); a count cut
    at the limit is ``sat`` with outcome ``count:N+``, and anything else is unsolved.
    """
    from ..uniqueness import count

    limit = spec.get("count_limit") or None
    result = count(
        puzzle,
        limit,
        backend=spec["backend"],
        timeout=_soft(spec),
        **spec["options"],
    )
    row = _result_fields(puzzle, result, spec["timeout"])
    if row["status"] == "timeout":
        return row
    found = len(result.solutions)
    if result.complete:
        row["status"] = "sat" if found else "unsat"
        row["outcome"] = f"count:{found}"
    elif limit is not None and found >= limit > 0:
        row["status"] = "sat"
        row["outcome"] = f"count:{found}+"
    elif row["status"] in DEFINITIVE:
        row["status"] = "timeout"
    return row


def task_up_only(puzzle: Puzzle, spec: RunSpec) -> Row:
    """Unit propagation alone on the CNF encoding: how many cells it fixes, no search."""
    from .. import encodings
    from ..analysis import up_fixed_cells

    encoding = str(spec["options"].get("encoding", encodings.DEFAULT_PRESET))
    start = time.perf_counter()
    fixed, whites = up_fixed_cells(puzzle, encoding)
    total = time.perf_counter() - start
    enc = encodings.encode(puzzle, encoding)  # again, outside the timed part: for its size
    size = enc.stats()
    return {
        "status": "sat" if fixed >= whites else "unknown",
        "outcome": None,
        "fixed_cells": fixed,
        "solved_by_up": fixed >= whites,
        "encode_s": seconds(enc.encode_time),
        "solve_s": seconds(max(0.0, total - enc.encode_time)),
        "time_s": seconds(total),
        "variables": size.get("variables"),
        "clauses": size.get("clauses"),
        "stats": {k: v for k, v in size.items() if isinstance(v, int | float)},
    }


def task_certify(puzzle: Puzzle, spec: RunSpec) -> Row:
    """Certify uniqueness (DRAT proof) and verify the certificate with every DRAT engine."""
    import tempfile

    from ..certify import DEFAULT_SOLVER, REFERENCE_ENCODING, certificate_row

    options = spec["options"]
    with tempfile.TemporaryDirectory() as tmp:
        return certificate_row(
            puzzle,
            str(options.get("encoding", REFERENCE_ENCODING)),
            str(options.get("solver", DEFAULT_SOLVER)),
            Path(tmp) / "certificate",
        )


TASKS: dict[str, Callable[[Puzzle, RunSpec], Row]] = {
    "certify": task_certify,
    "solve": task_solve,
    "unique": task_unique,
    "count": task_count,
    "up-only": task_up_only,
}


def execute(spec: RunSpec) -> Row:
    """Run one spec and return its full row; every failure becomes an error/memout row."""
    import traceback

    start = datetime.now(UTC).isoformat(timespec="milliseconds")
    t0 = time.perf_counter()
    row = base_row(spec, start)
    try:
        row.update(TASKS[spec["task"]](spec["puzzle"], spec))
    except MemoryError:
        row.update(status="memout", message="MemoryError (memory limit reached)")
    except KakuroError as exc:  # backends wrap solver failures, out-of-memory included
        row.update(status="memout" if _is_memout(str(exc)) else "error", message=str(exc))
    except Exception as exc:
        last = traceback.format_exception_only(exc)[-1].strip()
        row.update(status="memout" if _is_memout(last) else "error", message=last)
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
    puzzle: Puzzle = spec["puzzle"]
    return {
        "key": spec["key"],
        "experiment": spec["experiment"],
        "instance": spec["instance"],
        "set": spec["set"],
        "hash": spec["hash"],
        "rows": puzzle.nrows,
        "cols": puzzle.ncols,
        "white_cells": len(puzzle.whites),
        "kind": "cryptic" if puzzle.is_cryptic else "standard",
        "config": spec["config"],
        "backend": spec["backend"],
        "options": spec["options"],
        "encoding": spec["options"].get("encoding"),
        "solver": spec["options"].get("solver"),
        "task": spec["task"],
        "repetition": spec["repetition"],
        "seed": spec["seed"],
        "timeout_s": spec["timeout"],
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
    row.update(status=status, message=message, wall_s=seconds(elapsed))
    if status == "timeout":
        row["time_s"] = spec["timeout"]
    return row


# -- planning and resuming ---------------------------------------------------------------


@dataclass
class Plan:
    """The runs of an experiment, and what was left out and why (never silently)."""

    experiment: Experiment
    instances: list[Instance]
    configs: list[Configuration]
    specs: list[RunSpec] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)


def run_key(instance: Instance, config: Configuration, repetition: int) -> str:
    return f"{instance.id}|{config.label}|{repetition}"


def plan(experiment: Experiment, instances: list[Instance] | None = None) -> Plan:
    """Expand the grid; unknown backends or bad options are errors, unavailable ones skips."""
    from ..backends import BACKENDS

    instances = load_instances(experiment) if instances is None else instances
    result = Plan(experiment, instances, [])
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
        unsupported = [inst for inst in instances if not cls.supports(inst.puzzle)]
        if unsupported:
            kinds = sorted({"cryptic" if i.puzzle.is_cryptic else "standard" for i in unsupported})
            result.skipped.append(
                {
                    "config": config.label,
                    "instances": len(unsupported),
                    "reason": f"backend {config.backend!r} cannot do {'/'.join(kinds)} puzzles",
                }
            )
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
            for config in result.configs:
                if BACKENDS[config.backend].supports(inst.puzzle):
                    result.specs.append(_spec(experiment, inst, config, rep))
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


def _spec(exp: Experiment, inst: Instance, config: Configuration, rep: int) -> RunSpec:
    puzzle = inst.puzzle
    return {
        "key": run_key(inst, config, rep),
        "experiment": exp.name,
        "instance": inst.id,
        "set": inst.set,
        "hash": inst.hash,
        # A fresh copy: cached properties hold mapping proxies, which do not pickle.
        "puzzle": Puzzle(puzzle.id, puzzle.grid, dict(puzzle.meta)),
        "config": config.label,
        "backend": config.backend,
        "options": dict(config.options),
        "task": config.task,
        "repetition": rep,
        "seed": rep,
        "timeout": exp.timeout,
        "soft_timeout": config.soft_timeout,
        "count_limit": exp.count_limit,
        "memory_mb": exp.memory_mb,
    }


# -- the results file --------------------------------------------------------------------

MAX_SHOWN_PROBLEMS = 5
"""Bad lines of a results file named one by one; the rest are counted."""


def _maybe(rule: Rule) -> Rule:
    return Rule(f"{rule.must_be}, or null", lambda v: v is None or rule.holds(v))


_SECONDS = _maybe(Rule("a number >= 0", lambda v: is_number(v) and v >= 0))
_COUNT = _maybe(integer(0))
_FLAG = _maybe(Rule("true or false", lambda v: isinstance(v, bool)))
_WORDS = _maybe(Rule("a string", lambda v: isinstance(v, str)))
ROW_REQUIRED: dict[str, Rule] = {
    name: Rule("a non-empty string", lambda v: isinstance(v, str) and bool(v))
    for name in ("key", "instance", "config", "hash", "status")
}
"""Fields without which a row means nothing (resume, tables and disagreements need them)."""
ROW_RULES: dict[str, Rule] = {
    **ROW_REQUIRED,
    **{name: _SECONDS for name in ("time_s", "wall_s", "timeout_s", "encode_s")},
    **{name: _SECONDS for name in ("solve_s", "peak_rss_mb", "base_rss_mb", "cpu_s")},
    "process_s": _SECONDS,
    **{name: _COUNT for name in ("repetition", "white_cells", "fixed_cells", "variables")},
    **{name: _COUNT for name in ("clauses", "n_solutions")},
    **{name: _FLAG for name in ("verified", "solved_by_up", "complete")},
    **{name: _WORDS for name in ("outcome", "message", "backend", "set", "digest")},
    "task": Rule("a string", lambda v: isinstance(v, str)),
    "answer": _maybe(Rule("a string of digits", lambda v: isinstance(v, str) and v.isdecimal())),
    "options": _maybe(Rule("a table", lambda v: isinstance(v, dict))),
}
"""The fields the runner and the report read, with their types: a row breaking one is
skipped with a warning rather than trusted (or crashing a table)."""


def row_problem(row: Any) -> str | None:
    """Why a parsed line is not a usable row, or None."""
    if not isinstance(row, dict):
        return f"not a row (a JSON {type(row).__name__})"
    for name in ROW_REQUIRED:
        if name not in row:
            return f"row without {name!r}"
    for name, rule in ROW_RULES.items():
        if name in row and not rule.holds(row[name]):
            return f"{name} = {str(row[name])[:30]!r}: must be {rule.must_be}"
    return None


def _parse_line(raw: bytes) -> Any:
    """One JSON line; ValueError says what is wrong with it."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("not JSON (nesting too deep)") from None
    except ValueError as exc:  # JSONDecodeError, and integers past Python's digit limit
        raise ValueError(f"not JSON ({str(exc)[:60]})") from None


def last_line(data: bytes) -> str:
    """The one decision about the end of a results file, shared by reader and writer.

    ``closed``: empty, or ends with a newline.  ``complete``: the last line lacks its
    newline but is whole JSON (the writer died between the row and its newline): it is a
    row, and the writer adds the newline.  ``torn``: an unfinished write, which the reader
    ignores and the writer cuts off before appending.
    """
    if not data or data.endswith(b"\n"):
        return "closed"
    try:
        _parse_line(data[data.rfind(b"\n") + 1 :])
    except ValueError:
        return "torn"
    return "complete"


@dataclass
class RunsFile:
    """A ``runs.jsonl`` read defensively: its good rows and a note per bad line."""

    rows: list[Row]
    problems: list[str]


def scan_runs(path: Path) -> RunsFile:
    """Every usable row of a results file; bad lines become problems, never exceptions."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return RunsFile([], [])
    except OSError as exc:
        raise KakuroError(f"{path}: cannot read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    torn = last_line(data) == "torn"
    result = RunsFile([], [])
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        if torn and number == len(lines):
            result.problems.append(f"line {number}: unfinished last line, ignored")
            continue
        try:
            row = _parse_line(raw)
            if isinstance(row, dict):
                row = canonical(row)  # rows written before the shared key names
        except ValueError as exc:
            result.problems.append(f"line {number}: {exc}, skipped")
            continue
        problem = row_problem(row)
        if problem:
            result.problems.append(f"line {number}: {problem}, skipped")
        else:
            result.rows.append(row)
    return result


def read_rows(path: Path, *, quiet: bool = False) -> list[Row]:
    """The usable rows of a runs.jsonl, warning (unless ``quiet``) about each bad line."""
    found = scan_runs(path)
    if not quiet:
        for problem in found.problems[:MAX_SHOWN_PROBLEMS]:
            warn(f"{path}: {problem}")
        if len(found.problems) > MAX_SHOWN_PROBLEMS:
            warn(f"{path}: {len(found.problems) - MAX_SHOWN_PROBLEMS} more bad line(s) skipped")
    return found.rows


def latest_rows(rows: Iterable[Row]) -> dict[str, Row]:
    """One row per key (the last one written wins)."""
    return {row["key"]: row for row in rows if "key" in row}


class RowWriter:
    """Appends rows as JSON lines, flushed one by one; first settles the last line
    (:func:`last_line`): a whole row gets its newline, a torn one is cut off."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size:
            with path.open("rb+") as fh:
                data = fh.read()
                state = last_line(data)
                if state == "torn":
                    fh.truncate(data.rfind(b"\n") + 1)
                elif state == "complete":
                    fh.write(b"\n")
        self.fh = path.open("a", encoding="utf-8")

    def write(self, row: Row) -> None:
        self.fh.write(json.dumps(row, sort_keys=True, default=str) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


# -- running -----------------------------------------------------------------------------


class Executor(Protocol):
    """Where runs execute (``executors.EXECUTORS``): rows come back as runs finish."""

    def run(self, specs: list[RunSpec]) -> Generator[Row, None, None]: ...


@dataclass
class Summary:
    """What a run call did, for the CLI's closing line."""

    planned: int
    done_before: int
    ran: int
    statuses: Counter[str]
    skipped: list[dict[str, Any]]
    disagreements: list[dict[str, Any]]
    results_dir: Path
    wrong: int = 0
    """Rows (old and new) whose solution fails the rule checker."""


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
    """
    from .environment import write_environment

    out = results_dir or experiment.results_dir
    the_plan = plan(experiment)
    for skip in the_plan.skipped:
        warn(f"skipping {skip['config']} on {skip['instances']} instance(s): {skip['reason']}")
    path = out / "runs.jsonl"
    done = latest_rows(read_rows(path))
    pending = [s for s in the_plan.specs if s["key"] not in done]
    stale = [
        s["key"] for s in the_plan.specs if s["key"] in done and done[s["key"]]["hash"] != s["hash"]
    ]
    if stale:
        warn(
            f"{len(stale)} finished row(s) were measured on a different puzzle under the same id "
            f"(e.g. {stale[0]}); they are kept, delete {path} to measure afresh"
        )
    if limit is not None:
        pending = pending[:limit]
    out.mkdir(parents=True, exist_ok=True)
    if pending or not (out / "environment.json").exists():  # describes who made the rows
        write_environment(out / "environment.json", experiment)
    write_text(out / "skipped.json", json.dumps(the_plan.skipped, indent=1) + "\n")
    statuses: Counter[str] = Counter()
    repeats: Counter[tuple[str, str]] = Counter()
    writer = RowWriter(path)
    rows_in = executor.run(pending)
    try:
        for row in _progress(rows_in, len(pending), experiment.name, progress):
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
    disagreements = find_disagreements(rows)
    for item in disagreements:
        warn(f"DISAGREEMENT on {item['instance']}: {item['outcomes']}")
    return Summary(
        planned=len(the_plan.specs),
        done_before=sum(s["key"] in done for s in the_plan.specs),
        ran=sum(statuses.values()),
        statuses=statuses,
        skipped=the_plan.skipped,
        disagreements=disagreements,
        results_dir=out,
        wrong=sum(r.get("verified") is False for r in rows),
    )


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
    Outcomes are compared within one task (a count and a solve say different things).
    """
    groups: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        outcome = row.get("outcome")
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


def warn(message: str) -> None:
    print(f"kakuro: warning: {message}", file=sys.stderr, flush=True)
