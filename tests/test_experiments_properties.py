"""Property-based tests of the experiment planner and of resuming (issue 29).

Random configurations: the plan holds exactly the runs the arithmetic says, each key once,
and a plan is refused exactly when the count passes the limit.  Random kill points: however
often a run is stopped (between rows, or in the middle of writing one), resuming loses no
finished row and writes none twice, and in the end every planned key has exactly one row.
The default examples keep this file within a few seconds; the ``slow`` variants run more.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import math
import shutil
import tempfile
from collections.abc import Generator
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kakurolab.errors import KakuroError
from kakurolab.experiments import RunSpec, plan, run_experiment
from kakurolab.experiments.plan import config_count, expand, parse_experiment
from kakurolab.experiments.runner import base_row
from kakurolab.experiments.runsfile import RowWriter, pending, read_rows

ROOT = Path(__file__).resolve().parents[1]
plan_module = importlib.import_module("kakurolab.experiments.plan")  # the package's `plan` is
# the planning function


def _small_set() -> Path:
    """The first ten PE424 puzzles in a file of their own: parsing all 200 for every example
    would be most of the time."""
    from kakurolab.formats import dumps, load

    folder = Path(tempfile.mkdtemp(prefix="kakuro-props-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "pe424-10.kakuro"
    puzzles = load(ROOT / "data" / "p424_kakuro200.txt", select=[str(i) for i in range(1, 11)])
    path.write_text(dumps(puzzles, "kakuro"))
    return path


PE424 = _small_set()
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MORE = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- random experiments --------------------------------------------------------------------

node_limits = st.lists(st.integers(1, 10**6), min_size=1, max_size=6, unique=True)
tables = st.lists(
    st.fixed_dictionaries(
        {"backend": st.just("native"), "node_limit": st.one_of(st.integers(1, 10**6), node_limits)},
        optional={"search": st.sampled_from(["dfs", ["dfs"]])},
    ),
    min_size=1,
    max_size=5,
)
tasks = st.lists(st.sampled_from(["solve", "unique", "count"]), min_size=1, max_size=3, unique=True)


@st.composite
def experiments(draw: st.DrawFn) -> dict:
    """An experiment as parsed TOML: a few puzzles, tables, tasks and repetitions; each table
    is labelled by its number so labels never collide across tables."""
    configs = draw(tables)
    for i, table in enumerate(configs):
        table["label"] = f"t{i}-{{node_limit}}"
    first, count = draw(st.integers(1, 7)), draw(st.integers(1, 4))
    return {
        "name": "prop",
        "timeout": 5,
        "task": draw(tasks),
        "repetitions": draw(st.integers(1, 3)),
        "puzzles": [{"file": str(PE424), "name": "p", "select": f"{first}-{first + count - 1}"}],
        "configs": configs,
    }


def _table_size(table: dict) -> int:
    return math.prod(len(v) if isinstance(v, list) else 1 for k, v in table.items() if k != "label")


@FAST
@given(experiments(), st.integers(1, 200))
def test_plans_hold_exactly_the_counted_runs(data: dict, limit: int) -> None:
    """The plan is refused exactly when configurations x tasks x repetitions pass the limit;
    otherwise it holds every run once: instances x configurations x repetitions keys."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "pyproject.toml").touch()
        path = Path(tmp) / "prop.toml"
        n_configs = sum(_table_size(t) for t in data["configs"])
        assert n_configs == sum(config_count(t, "t") for t in data["configs"])
        assert all(len(expand(t, "t")) == _table_size(t) for t in data["configs"])
        wanted = n_configs * len(data["task"]) * data["repetitions"]
        with mock.patch.object(plan_module, "MAX_RUNS", limit):
            if wanted > limit:
                # one table past the limit is named; else the total is
                with pytest.raises(KakuroError, match=f"(more than|at most) {limit}( runs|$)"):
                    parse_experiment(data, path)
                return
            experiment = parse_experiment(data, path)
        the_plan = plan(experiment)
        keys = [s.key for s in the_plan.specs]
        assert len(keys) == len(set(keys)) == len(the_plan.instances) * wanted
        assert len(experiment.configs) == n_configs * len(data["task"])
        assert {s.config for s in the_plan.specs} == {c.label for c in experiment.configs}


# -- random kill points --------------------------------------------------------------------


def _row(spec: RunSpec) -> dict:
    row = base_row(spec, datetime.now(UTC).isoformat())
    row.update(status="sat", verified=True, outcome="sat:x", time_s=0.001, wall_s=0.002)
    return row


def _line(row: dict) -> bytes:
    return (json.dumps(row, sort_keys=True, default=str) + "\n").encode()


def _specs(n: int) -> list[RunSpec]:
    from kakurolab.experiments.plan import Configuration, Experiment, Instance, puzzle_hash
    from kakurolab.experiments.runner import make_spec
    from kakurolab.formats import load

    puzzles = load(PE424, select=["1", "2", "3"])
    exp = Experiment(name="prop", path=PE424, root=ROOT, timeout=5.0)
    config = Configuration("native", "native", {})
    instances = [Instance(p.id, "s", p, puzzle_hash(p)) for p in puzzles]
    return [make_spec(exp, instances[i % 3], config, i // 3) for i in range(n)]


SPECS = _specs(40)
"""Enough specs for every example (made once: loading puzzles is the slow part)."""


@st.composite
def rounds(draw: st.DrawFn) -> tuple[int, list[tuple[list[int], float | None]]]:
    """How many specs, then per round: the order rows finish in (indexes into the pending
    list) and where the kill lands: None between rows, else the fraction of the next row's
    line written before it (1.0: the whole JSON without its newline)."""
    n = draw(st.integers(1, len(SPECS)))
    plan_rounds = []
    for _ in range(draw(st.integers(0, 6))):
        order = draw(st.permutations(range(n)))
        cut = draw(st.one_of(st.none(), st.floats(0.0, 1.0)))
        plan_rounds.append((order[: draw(st.integers(0, n))], cut))
    return n, plan_rounds


def _check_resume(n: int, kills: list[tuple[list[int], float | None]]) -> None:
    specs = SPECS[:n]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "runs.jsonl"
        finished: list[dict] = []
        for order, cut in kills:
            todo = pending(path, specs).pending
            assert {s.key for s in todo} == {s.key for s in specs} - {r["key"] for r in finished}
            writer = RowWriter(path)
            chosen = [todo[i] for i in order if i < len(todo)]
            for spec in chosen:
                row = _row(spec)
                writer.write(row)
                finished.append(row)
            writer.close()
            rest = [s for s in todo if s not in chosen]
            if cut is not None and rest:  # killed while writing the next row
                line = _line(_row(rest[0]))
                written = line[: min(len(line) - 1, int(cut * len(line)))]
                with path.open("ab") as fh:
                    fh.write(written)
                if len(written) == len(line) - 1:  # whole JSON, no newline: a finished row
                    finished.append(json.loads(written))
            rows = read_rows(path, quiet=True)
            keys = [r["key"] for r in rows]
            assert len(keys) == len(set(keys)), "a row was written twice"
            assert keys == [r["key"] for r in finished], "a finished row was lost"
        writer = RowWriter(path)  # the last, uninterrupted run
        for spec in pending(path, specs).pending:
            writer.write(_row(spec))
        writer.close()
        lines = path.read_bytes().splitlines()
        assert all(json.loads(line)["key"] for line in lines)  # every line is a whole row
        keys = [json.loads(line)["key"] for line in lines]
        assert sorted(keys) == sorted(s.key for s in specs)  # each planned key exactly once
        assert pending(path, specs).pending == []


@FAST
@given(rounds())
def test_random_kill_points_lose_and_duplicate_no_row(case) -> None:
    _check_resume(*case)


@pytest.mark.slow
@MORE
@given(rounds())
def test_random_kill_points_lose_and_duplicate_no_row_many(case) -> None:
    _check_resume(*case)


class _Killed(Exception):
    """The stand-in for SIGKILL of the parent: the run ends between two rows."""


class _DiesAfter:
    """An executor that finishes ``n`` runs (in the order given) and then is killed."""

    def __init__(self, n: int | None) -> None:
        self.n = n

    def run(self, specs: list[RunSpec]) -> Generator[dict, None, None]:
        for i, spec in enumerate(specs):
            if self.n is not None and i >= self.n:
                raise _Killed
            yield _row(spec)


@FAST
@given(experiments(), st.lists(st.integers(0, 12), max_size=5))
def test_run_experiment_resumes_after_random_kills(data: dict, kill_after: list[int]) -> None:
    """The whole runner (plan, resume, append) under a stand-in executor killed after a random
    number of rows each time: the file ends with each planned key exactly once."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "pyproject.toml").touch()
        try:
            experiment = parse_experiment(data, Path(tmp) / "prop.toml")
        except KakuroError:  # too many runs: the planner's property, tested above
            return
        path = experiment.results_dir / "runs.jsonl"
        seen = 0
        for n in kill_after:
            with contextlib.suppress(_Killed):
                run_experiment(experiment, _DiesAfter(n), progress=False)
            rows = read_rows(path, quiet=True)
            keys = [r["key"] for r in rows]
            assert len(keys) == len(set(keys)) >= seen
            seen = len(keys)
        summary = run_experiment(experiment, _DiesAfter(None), progress=False)
        keys = [r["key"] for r in read_rows(path, quiet=True)]
        assert len(keys) == len(set(keys)) == summary.planned
        assert summary.done_before + summary.ran == summary.planned
