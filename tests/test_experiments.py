"""The experiment runner: configs, killable children, resuming, disagreements and reports."""

from __future__ import annotations

import dataclasses
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _tools import write_config

from kakurolab.backends import BACKENDS
from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.experiments import (
    LocalExecutor,
    RunSpec,
    find_disagreements,
    load_experiment,
    plan,
    read_rows,
    run_experiment,
)
from kakurolab.experiments.plan import canonical_text, expand, parse_select
from kakurolab.experiments.report import build_report, find_results, load_results, summary_table
from kakurolab.experiments.runs import Row
from kakurolab.experiments.runsfile import ROW_RULES

ROOT = Path(__file__).resolve().parents[1]
# The OR-Tools peer when installed (the reference), else the dependency-free native solver.
BACKEND = "cpsat" if "cpsat" in BACKENDS and BACKENDS["cpsat"].available() else "native"


def small_config(pe424: Path, janko: Path | None = None, *, select: str = "1-5", **top) -> str:
    lines = [f'name = "{top.pop("name", "t")}"', "timeout = 10"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in top.items()]
    lines += ["[[puzzles]]", f'file = "{pe424}"', 'name = "pe424"', f'select = "{select}"']
    if janko is not None:
        lines += ["[[puzzles]]", f'file = "{janko}"', 'name = "janko"', "first = 2"]
    lines += ["[[configs]]", f'backend = "{BACKEND}"']
    return "\n".join(lines) + "\n"


# -- configs -----------------------------------------------------------------------------


def test_configs_expand_to_the_product_of_list_options() -> None:
    configs = expand({"backend": "pysat", "encoding": ["a", "b"], "solver": ["x", "y"]}, "t")
    assert [c.label for c in configs] == ["pysat/a/x", "pysat/a/y", "pysat/b/x", "pysat/b/y"]
    assert configs[1].options == {"encoding": "a", "solver": "y"}
    named = expand({"backend": "z3", "encoding": ["lia", "bv"], "label": "z3-{encoding}"}, "t")
    assert [c.label for c in named] == ["z3-lia", "z3-bv"]


def test_select_ranges() -> None:
    assert parse_select("1-3,7") == ["1", "2", "3", "7"]
    assert parse_select(["a", "2-3"]) == ["a", "2", "3"]
    with pytest.raises(KakuroError):
        parse_select("5-2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = [", "bad TOML"),
        ('name = "x"\ntask = "fly"\n', "task = 'fly': must be one of solve"),
        ('name = "x"\ncolour = 1\n', "unknown key"),
        ('name = "x"\n[[configs]]\nbackend = "cpsat"\n', "[[puzzles]]"),
    ],
)
def test_bad_configs_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = write_config(tmp_path, text)
    with pytest.raises(KakuroError, match=message.replace("[", r"\[")):
        load_experiment(path)


def test_missing_puzzle_file_and_unknown_backend_fail_clearly(tmp_path: Path, capsys) -> None:
    path = write_config(
        tmp_path,
        'name = "x"\n[[puzzles]]\nfile = "../nowhere/p.txt"\n[[configs]]\nbackend = "cpsat"\n',
    )
    assert main(["experiment", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "missing" in err and "nowhere" in err and len(err.strip().splitlines()) == 1


def test_unknown_backend_is_an_error(tmp_path: Path, pe424_path: Path) -> None:
    text = small_config(pe424_path).replace(f'backend = "{BACKEND}"', 'backend = "nosuch"')
    with pytest.raises(KakuroError, match="unknown backend 'nosuch'"):
        plan(load_experiment(write_config(tmp_path, text)))


def test_canonical_text_ignores_the_id(pe424_puzzles) -> None:
    puzzle = pe424_puzzles[0]
    assert canonical_text(puzzle) == canonical_text(puzzle.with_id("other"))
    assert canonical_text(puzzle) != canonical_text(pe424_puzzles[1])


# -- running -----------------------------------------------------------------------------


def test_run_verifies_rows_and_reports(tmp_path: Path, pe424_path: Path, janko_path: Path) -> None:
    experiment = load_experiment(write_config(tmp_path, small_config(pe424_path, janko_path)))
    summary = run_experiment(experiment, LocalExecutor(jobs=2), progress=False)
    assert summary.planned == summary.ran == 7 and summary.statuses["sat"] == 7
    rows = {r["instance"]: r for r in read_rows(tmp_path / "results" / "t" / "runs.jsonl")}
    assert rows["pe424/1"]["answer"] == "8426039571"
    assert all(r["verified"] is True for r in rows.values())
    assert sum(r["kind"] == "standard" for r in rows.values()) == 2
    one = rows["pe424/1"]
    for key in ("hash", "start", "peak_rss_mb", "encode_s", "solve_s", "seed", "digest"):
        assert one[key] is not None, key
    assert len(one["hash"]) == 64 and one["peak_rss_mb"] > 1

    for row in rows.values():  # rows are typed records: every field is declared in Row
        assert set(row) <= set(Row.__annotations__), set(row) - set(Row.__annotations__)
        assert row["cpu_s"] > 0 and row["process_s"] >= row["wall_s"]

    env = json.loads((tmp_path / "results" / "t" / "environment.json").read_text())
    assert env["cores"] and env["python"] and "packages" in env

    results = load_results(find_results(str(tmp_path / "results" / "t")))
    text = build_report(results, plots=False)
    assert f"| {BACKEND} | 7 | 7 |" in text
    mk = json.loads((tmp_path / "results" / "t" / "mkplot" / f"{BACKEND}.json").read_text())
    assert set(mk) == {"preamble", "stats"}
    assert set(mk["preamble"]) == {"program", "prog_args", "prog_alias", "benchmark"}
    assert mk["stats"]["pe424/1"]["status"] is True and mk["stats"]["pe424/1"]["rtime"] >= 0


def test_rerun_runs_nothing_and_torn_line_is_repaired(tmp_path: Path, pe424_path: Path) -> None:
    experiment = load_experiment(write_config(tmp_path, small_config(pe424_path, select="1-4")))
    run_experiment(experiment, LocalExecutor(), progress=False)
    path = tmp_path / "results" / "t" / "runs.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    # Keep two rows, then half of the third as if the writer were killed mid-line.
    path.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])
    summary = run_experiment(experiment, LocalExecutor(), progress=False)
    assert summary.done_before == 2 and summary.ran == 2
    rows = read_rows(path)
    assert [r["key"] for r in rows[:2]] == [json.loads(x)["key"] for x in lines[:2]]
    assert sorted(r["key"] for r in rows) == sorted(json.loads(x)["key"] for x in lines)
    again = run_experiment(experiment, LocalExecutor(), progress=False)
    assert again.ran == 0 and len(read_rows(path)) == 4


def test_killed_run_resumes_without_duplicates(tmp_path: Path, pe424_path: Path) -> None:
    text = small_config(pe424_path, select="1-50", repetitions=2)  # 100 runs
    config = write_config(tmp_path, text)
    path = tmp_path / "results" / "t" / "runs.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kakurolab", "experiment", "run", str(config), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if path.exists() and len(path.read_text().splitlines()) >= 10:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    before = read_rows(path)
    assert 10 <= len(before) < 100
    summary = run_experiment(load_experiment(config), LocalExecutor(jobs=2), progress=False)
    rows = read_rows(path)
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)) == 100
    assert summary.ran == 100 - len(before)
    assert rows[: len(before)] == before  # finished rows were not run again


def test_hard_timeout_kills_the_worker_and_the_pool_goes_on(pe424_path: Path) -> None:
    from kakurolab.experiments.plan import Configuration, Experiment, Instance, puzzle_hash
    from kakurolab.experiments.runner import make_spec
    from kakurolab.formats import load

    puzzles = load(pe424_path, select=["1", "2"])
    exp = Experiment(name="t", path=pe424_path, root=pe424_path.parent, timeout=0.01)
    config = Configuration(BACKEND, BACKEND, {})
    specs = [make_spec(exp, Instance(p.id, "s", p, puzzle_hash(p)), config, 0) for p in puzzles]
    specs[1] = dataclasses.replace(specs[1], timeout=30.0)
    # No grace: a cold worker cannot even import its solver in 10 ms, so it is killed.
    rows = list(LocalExecutor(jobs=1, grace=0.0).run(specs))
    by_key = {r["instance"]: r for r in rows}
    assert by_key["1"]["status"] == "timeout" and "killed" in by_key["1"]["message"]
    assert by_key["2"]["status"] == "timeout" or by_key["2"]["status"] == "sat"


def test_memory_limit_costs_one_row(janko_path: Path) -> None:
    """A formula too big for the memory limit is one memout row; the next run still runs."""
    from kakurolab.experiments.plan import Configuration, Experiment, Instance, puzzle_hash
    from kakurolab.experiments.runner import make_spec
    from kakurolab.formats import load

    big, small = load(janko_path, select=["960_31x46", "91_6x6"])
    exp = Experiment(name="t", path=janko_path, root=janko_path.parent, memory_mb=250, timeout=60)
    config = Configuration("c", "pysat", {"encoding": "naive", "solver": "glucose4"})
    instances = [Instance(p.id, "s", p, puzzle_hash(p)) for p in (big, small)]
    specs = [make_spec(exp, instance, config, 0) for instance in instances]
    rows = {r["instance"]: r for r in LocalExecutor().run(specs)}
    assert rows["960_31x46"]["status"] == "memout", rows["960_31x46"]["message"]
    assert rows["91_6x6"]["status"] == "sat" and rows["91_6x6"]["verified"] is True


def test_disagreements_are_found() -> None:
    def row(config: str, outcome: str | None, status: str = "sat") -> dict:
        return {"instance": "p/1", "config": config, "outcome": outcome, "status": status}

    rows = [row("a", "sat:1"), row("b", "sat:1"), row("c", "sat:2"), row("d", None, "timeout")]
    found = find_disagreements(rows)
    assert found == [
        {"instance": "p/1", "task": "solve", "outcomes": {"sat:1": ["a", "b"], "sat:2": ["c"]}}
    ]
    other_task = [dict(rows[0], task="unique", outcome="unique:1", config="u"), *rows[:2]]
    assert find_disagreements(other_task) == []
    table = summary_table([dict(r, key=r["config"], timeout=1, time=0.1) for r in rows])
    assert {e["configuration"]: e["disagree"] for e in table} == {"a": 0, "b": 0, "c": 1, "d": 0}
    assert find_disagreements(rows[:2]) == []
    # two grids that both pass the rule check: the puzzle has two solutions, nobody is wrong
    checked = [dict(r, verified=True) for r in rows]
    assert find_disagreements(checked) == []
    assert find_disagreements([*checked, row("e", "unsat", "unsat")])[0]["outcomes"] == {
        "sat": ["a", "b", "c"], "unsat": ["e"]}


def test_cli_run_report_prints_the_table(tmp_path: Path, pe424_path: Path, capsys) -> None:
    config = write_config(tmp_path, small_config(pe424_path, select="1-3"))
    assert main(["experiment", "run", str(config), "--report", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| configuration |") and f"| {BACKEND} | 3 | 3 |" in out
    assert (tmp_path / "results" / "t" / "cactus.png").exists()
    assert (tmp_path / "results" / "t" / "cactus.svg").exists()
    assert (tmp_path / "results" / "t" / "summary.csv").read_text().startswith("configuration,")


def test_shipped_configs_parse() -> None:
    configs = sorted((ROOT / "experiments").glob("*.toml"))
    assert {p.stem for p in configs} >= {"quick", "pe424", "encodings", "solvers", "scaling"}
    for path in configs:
        experiment = load_experiment(path)
        assert experiment.configs and experiment.sets


def test_generated_sets_are_made_once_and_cached(tmp_path: Path) -> None:
    from kakurolab.experiments import load_instances

    text = (
        'name = "g"\n[[puzzles]]\ngenerate = { size = "6x6", difficulty = "easy", seeds = 2 }\n'
        f'name = "g6"\n[[configs]]\nbackend = "{BACKEND}"\n'
    )
    experiment = load_experiment(write_config(tmp_path, text))
    first = load_instances(experiment)
    assert [i.id for i in first] == ["g6/6x6-easy-s0", "g6/6x6-easy-s1"]
    cached = list((tmp_path / "results" / "g" / "generated").glob("g6-*.kakuro"))
    assert len(cached) == 1
    again = load_instances(experiment)
    assert [i.hash for i in again] == [i.hash for i in first]


def test_a_set_another_generator_version_cached_is_made_again(tmp_path: Path, monkeypatch) -> None:
    """The cache of generated sets is keyed by the generator's version too: after a generator
    change the set is made again (another version makes other puzzles from the same seeds)."""
    import kakurolab.generator as generator
    from kakurolab.experiments import load_instances

    text = (
        'name = "g"\n[[puzzles]]\ngenerate = { size = "6x6", difficulty = "easy", seeds = 1 }\n'
        f'name = "g6"\n[[configs]]\nbackend = "{BACKEND}"\n'
    )
    experiment = load_experiment(write_config(tmp_path, text))
    load_instances(experiment)
    monkeypatch.setattr(generator, "GENERATOR_VERSION", "0.0-test")
    load_instances(experiment)
    cached = sorted((tmp_path / "results" / "g" / "generated").glob("g6-*.kakuro"))
    assert len(cached) == 2


def test_task_lists_and_the_by_task_table(tmp_path: Path, janko_path: Path) -> None:
    from kakurolab.experiments.report import task_table

    text = (
        'name = "e"\ntask = ["up-only", "unique"]\ntimeout = 20\n'
        f'[[puzzles]]\nfile = "{janko_path}"\nname = "janko"\nselect = ["91_6x6", "282_6x6"]\n'
        '[[configs]]\nbackend = "pysat"\nsolver = "glucose4"\nencoding = ["strong", "naive"]\n'
    )
    experiment = load_experiment(write_config(tmp_path, text))
    assert [c.label for c in experiment.configs][:2] == [
        "up-only:pysat/glucose4/strong",
        "up-only:pysat/glucose4/naive",
    ]
    summary = run_experiment(experiment, LocalExecutor(jobs=2), progress=False)
    assert summary.ran == 8 and not summary.disagreements
    rows = read_rows(tmp_path / "results" / "e" / "runs.jsonl")
    up = [r for r in rows if r["task"] == "up-only"]
    assert all(0 <= r["fixed_cells"] <= r["white_cells"] and r["clauses"] > 0 for r in up)
    table = {e["configuration"]: e for e in task_table(rows)}
    strong = table["pysat/glucose4/strong"]
    assert strong["unique_solved"] == 2 and strong["of"] == 2
    # the strong (MDD) encoding fixes every cell of these small puzzles by propagation alone
    assert strong["up_solved"] == 2 and strong["up_fixed_pct"] == 100
    assert table["pysat/glucose4/naive"]["clauses"] > strong["clauses"] > 0


def test_pe424_config_covers_every_cnf_preset_and_smt_encoding() -> None:
    """New presets or SMT encodings must join the shipped PE424 grid, not be forgotten."""
    from kakurolab.encodings import ENCODERS, PRESETS, parse_spec

    experiment = load_experiment(ROOT / "experiments" / "pe424.toml")
    pysat = {c.options["encoding"] for c in experiment.configs if c.backend == "pysat"}
    assert {name for name in PRESETS if parse_spec(name).family == "cnf"} <= pysat
    smt = {
        parse_spec(c.options["encoding"])["smt"] for c in experiment.configs if c.backend == "z3"
    }
    assert set(ENCODERS["smt"]) <= smt


def test_shipped_sets_load_by_file_or_folder(tmp_path: Path) -> None:
    from kakurolab.experiments import load_instances

    assert (ROOT / "kakurolab" / "data" / "generated").is_dir(), "the shipped sets are missing"
    text = 'name = "s"\n[[puzzles]]\nshipped = "generated"\n[[configs]]\nbackend = "native"\n'
    instances = load_instances(load_experiment(write_config(tmp_path, text)))
    ids = [i.id for i in instances]
    assert ids and len(set(ids)) == len(ids)  # file stems keep repeated puzzle ids apart
    assert {i.id.split("/")[1] for i in instances} >= {"standard-8x8-hard", "cryptic-6x6"}
    with pytest.raises(KakuroError, match="no shipped puzzle set"):
        load_instances(load_experiment(write_config(tmp_path, text.replace("generated", "nope"))))


def test_committed_results_come_from_a_clean_tree() -> None:
    """Every committed results directory records the commit it ran at, with no uncommitted
    change (rerun one with ``kakuro experiment run CONFIG --fresh``)."""
    envs = sorted((ROOT / "results").glob("*/environment.json"))
    assert envs, "no committed results"
    for env in envs:
        record = json.loads(env.read_text())
        assert record["git_dirty"] is False, f"{env.parent.name}: produced from a dirty tree"
        assert len(record["git_commit"]) == 40, env.parent.name


def test_report_without_matplotlib_writes_every_table(tmp_path: Path, monkeypatch, capsys) -> None:
    """Issue 26: with matplotlib missing (simulated), ``experiment report`` still writes every
    table, byte for byte as with plots, and says in one line that plots were skipped."""
    import shutil

    committed = ROOT / "results" / "scaling"
    target = tmp_path / "scaling"
    shutil.copytree(committed, target)
    written = [*sorted(p.name for p in target.glob("*.csv")), "summary.tex"]
    assert written
    for name in [*written, "report.md"]:
        (target / name).unlink()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    capsys.readouterr()
    assert main(["experiment", "report", str(target), "--print", "none"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    skipped = [line for line in err if "plots skipped" in line]
    assert len(skipped) == 1 and "kakurolab[plots]" in skipped[0], err
    assert "Traceback" not in "\n".join(err)
    for name in written:
        assert (target / name).read_bytes() == (committed / name).read_bytes(), name
    report = (target / "report.md").read_text()
    assert "## Configurations" in report and "## Plots" not in report


def _hog(spec: RunSpec) -> dict:
    """A run that touches 500 MB (every page, so all of it is resident)."""
    block = bytearray(500 * 2**20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return {"key": spec.key, "status": "sat", "touched": sum(block[::4096])}


def test_each_run_records_its_own_peak_memory(pe424_path: Path) -> None:
    """Issue 26: a small run after a 500 MB run records its own small peak, with its own CPU
    seconds (before: the worker's high-water mark, which only grew)."""
    from kakurolab.experiments.executors import _rss_mb, _run_forked
    from kakurolab.experiments.plan import Configuration, Experiment, Instance, puzzle_hash
    from kakurolab.experiments.runner import make_spec
    from kakurolab.formats import load

    (puzzle,) = load(pe424_path, select=["1"])
    exp = Experiment(name="t", path=pe424_path, root=pe424_path.parent, timeout=30)
    instance = Instance("1", "s", puzzle, puzzle_hash(puzzle))
    spec = make_spec(exp, instance, Configuration("n", "native", {}), 0)
    here = _rss_mb()
    big = _run_forked(spec, 60, run=_hog)
    small = _run_forked(spec, 60)
    assert isinstance(big, dict) and isinstance(small, dict)
    assert big["touched"] == 500 * 2**20 // 4096
    assert big["peak_rss_mb"] >= 500
    assert small["status"] == "sat" and small["verified"] is True
    # The small run starts from this process's memory, not from the 500 MB run's.
    assert small["peak_rss_mb"] < here + 100 < big["peak_rss_mb"]
    assert big["cpu_s"] > 0 and small["cpu_s"] > 0
    assert small["process_s"] >= small["wall_s"] > 0
    assert _rss_mb() < here + 50  # the 500 MB were never this process's


@pytest.mark.parametrize("name", ["certificates", "encodings", "pe424", "scaling", "solvers"])
def test_committed_rows_fit_the_row_record(name: str) -> None:
    """Every field of every committed row (renamed old keys included) is a declared field of
    the Row record, and every field the reader checks is one too."""
    assert set(ROW_RULES) <= set(Row.__annotations__)
    rows = read_rows(ROOT / "results" / name / "runs.jsonl")
    assert rows
    for row in rows:
        assert set(row) <= set(Row.__annotations__), set(row) - set(Row.__annotations__)


def test_par2_by_puzzle_set_names_each_sets_best() -> None:
    """Hard families differ in what wins: the table gives PAR-2 per set and each set's best."""
    from kakurolab.experiments.report import family_table

    def row(config: str, set_: str, i: int, time_s: float | None) -> Row:
        return {"key": f"{set_}/{i}|{config}|0", "config": config, "set": set_,
                "instance": f"{set_}/{i}", "status": "sat" if time_s else "timeout",
                "verified": True if time_s else None, "time_s": time_s, "timeout_s": 10.0}

    rows = [row("a", "easy", 1, 1.0), row("a", "easy", 2, 3.0), row("a", "hard", 1, None),
            row("b", "easy", 1, 4.0), row("b", "easy", 2, 4.0), row("b", "hard", 1, 5.0)]
    table = family_table(rows)
    by_config = {line["configuration"]: line for line in table}
    assert by_config["a"] == {"configuration": "a", "easy": "2 (2/2)", "hard": "20 (0/1)"}
    assert by_config["b"] == {"configuration": "b", "easy": "4 (2/2)", "hard": "5 (1/1)"}
    assert table[-1] == {"configuration": "best", "easy": "a", "hard": "b"}
    assert family_table([r for r in rows if r["set"] == "easy"]) == []  # one set: no table
