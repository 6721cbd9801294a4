"""Experiments whatever the input (issue 19): no wrong row, no lost row, no traceback, no
runaway process.  Each test names the item of the issue it guards."""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from _tools import write_config

import kakurolab as kl
from kakurolab import uniqueness
from kakurolab.backends import Result, Status
from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.experiments import LocalExecutor, load_experiment, read_rows, run_experiment
from kakurolab.experiments.executors import _WORKER_CODE, _Worker
from kakurolab.experiments.plan import MAX_RUNS, Configuration, Experiment, Instance, puzzle_hash
from kakurolab.experiments.runner import _spec, task_count

ROOT = Path(__file__).resolve().parents[1]
PYTHON = [sys.executable, "-m", "kakurolab"]
# 25 white cells, every run of five summing to 15: the 161280 Latin squares of order 5.
# Counting them all takes the native solver far longer than any test waits.
LATIN = """id: latin5
  #    15\\  15\\  15\\  15\\  15\\
 \\15    .    .    .    .    .
 \\15    .    .    .    .    .
 \\15    .    .    .    .    .
 \\15    .    .    .    .    .
 \\15    .    .    .    .    .
"""


def pe424_config(pe424: Path, *, select: str = "1-3", top: str = "", config: str = "") -> str:
    return (
        f'name = "t"\ntimeout = 10\n{top}\n'
        f'[[puzzles]]\nfile = "{pe424}"\nname = "pe424"\nselect = "{select}"\n'
        f'[[configs]]\nbackend = "native"\n{config}\n'
    )


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def cli(*args: str, cwd: Path, memory_mb: int | None = None) -> subprocess.CompletedProcess:
    """The real command in a child, optionally under an address-space limit (so a command
    that would balloon fails fast instead of eating the machine)."""

    def limit() -> None:
        if memory_mb:
            size = memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return subprocess.run(
        [*PYTHON, *args],
        cwd=cwd,
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    """The command failed with exit 2 and one line, never a traceback."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error: "), proc.stderr
    return lines[0]


def one_line_main(capsys, *args: str) -> str:
    """The same through ``main`` in this process (a traceback would be an exception here)."""
    capsys.readouterr()
    assert main(list(args)) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error: "), lines
    return lines[0]


# -- processes ---------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[1] not in ("Z", "X")


def workers_of(parent: int) -> list[int]:
    """Live worker processes started by ``parent`` (their command line names its pid), found
    by scanning /proc: this finds them after the parent died and they were re-parented."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (
            _WORKER_CODE.encode() in argv
            and str(parent).encode() in argv
            and alive(int(entry.name))
        ):
            found.append(int(entry.name))
    return found


def wait_until(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


# -- 1: count_limit = 0 ------------------------------------------------------------------


def test_count_limit_zero_means_no_limit_and_is_never_unsat(tmp_path: Path, pe424_path: Path):
    """Item 1: ``count_limit = 0`` counts every solution (before: 'unsat' for puzzles with a
    solution); the count agrees with an omitted limit and with a uniqueness proof."""
    counted = {}
    for name, top in (("zero", 'task = "count"\ncount_limit = 0'), ("all", 'task = "count"')):
        text = pe424_config(pe424_path, top=top).replace('name = "t"', f'name = "{name}"')
        experiment = load_experiment(write_config(tmp_path, text, name))
        assert experiment.count_limit is None
        run_experiment(experiment, LocalExecutor(), progress=False)
        rows = read_rows(tmp_path / "results" / name / "runs.jsonl")
        counted[name] = {r["instance"]: (r["status"], r["outcome"]) for r in rows}
    assert counted["zero"] == counted["all"]
    for instance, (status, outcome) in counted["zero"].items():
        puzzle = kl.load(pe424_path, select=[instance.split("/")[1]])[0]
        assert kl.prove_unique(puzzle, backend="native").verdict == "unique"
        assert (status, outcome) == ("sat", "count:1")


def test_negative_count_limit_is_refused(tmp_path: Path, pe424_path: Path) -> None:
    path = write_config(tmp_path, pe424_config(pe424_path, top='task = "count"\ncount_limit = -1'))
    with pytest.raises(KakuroError, match="count_limit = -1"):
        load_experiment(path)


def test_count_api_limit_zero_is_no_limit(pe424_puzzles) -> None:
    """Item 1, the API: ``kl.count(p, limit=0)`` is ``--limit 0``: no limit, an exact count."""
    puzzle = pe424_puzzles[0]
    zero = kl.count(puzzle, limit=0)
    assert zero.complete and len(zero.solutions) == 1
    assert [s.values for s in zero.solutions] == [
        s.values for s in kl.count(puzzle, None).solutions
    ]
    with pytest.raises(ValueError, match="limit"):
        kl.count(puzzle, limit=-1)


@pytest.mark.parametrize("limit", [None, 0, 3])
def test_a_count_without_proof_is_never_unsat(monkeypatch, pe424_puzzles, limit) -> None:
    """Item 1: no solutions and no proof (``complete`` false) is not ``unsat``, whatever the
    limit; a proof of no solution is."""
    puzzle = pe424_puzzles[0]
    results = {
        False: Result(status=Status.UNKNOWN, solutions=[], complete=False),
        True: Result(status=Status.UNSAT, solutions=[], complete=True),
    }
    spec = {"backend": "native", "options": {}, "timeout": 100.0, "count_limit": limit}
    for proved, result in results.items():
        monkeypatch.setattr(uniqueness, "count", lambda *a, _r=result, **k: _r)
        row = task_count(puzzle, spec)
        assert (row["status"] == "unsat") is proved, (proved, row["status"])


# -- 2: the last line --------------------------------------------------------------------


def test_resume_keeps_a_last_row_without_its_newline(tmp_path: Path, pe424_path: Path) -> None:
    """Item 2: a whole last row lacking its newline is done, and stays (before: deleted)."""
    experiment = load_experiment(write_config(tmp_path, pe424_config(pe424_path)))
    run_experiment(experiment, LocalExecutor(), progress=False)
    path = tmp_path / "results" / "t" / "runs.jsonl"
    before = path.read_bytes()
    path.write_bytes(before.rstrip(b"\n"))
    summary = run_experiment(experiment, LocalExecutor(), progress=False)
    assert summary.done_before == 3 and summary.ran == 0
    assert path.read_bytes() == before
    assert len(read_rows(path)) == 3


# -- 3: bad lines ------------------------------------------------------------------------

BAD_LINES = {
    "invalid UTF-8": b"\xff\xfe",
    "a number": b"5",
    "null": b"null",
    "a string": b'"x"',
    "no hash": None,
    "no status": None,
    "time is text": None,
    "huge integer": b'{"key": ' + b"9" * 5000 + b"}",
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "answer is not digits": None,
}


RUN_AGAIN = {"invalid UTF-8", "null", "no hash", "time is text", "deep nesting"}


@pytest.fixture(scope="module")
def three_rows(tmp_path_factory, pe424_path: Path) -> bytes:
    """A good runs.jsonl of three rows, measured once for the bad-line cases."""
    root = tmp_path_factory.mktemp("three")
    run_experiment(
        load_experiment(write_config(root, pe424_config(pe424_path))),
        LocalExecutor(),
        progress=False,
    )
    return (root / "results" / "t" / "runs.jsonl").read_bytes()


@pytest.mark.parametrize("kind", list(BAD_LINES))
def test_a_bad_line_is_skipped_with_a_warning(
    tmp_path: Path, pe424_path: Path, capsys, three_rows: bytes, kind: str
) -> None:
    """Item 3: a bad line (here line 2 of 3) never crashes ``run`` or ``report``: it is
    skipped with a warning naming it, and ``run`` measures that run again."""
    config = write_config(tmp_path, pe424_config(pe424_path))
    path = tmp_path / "results" / "t" / "runs.jsonl"
    path.parent.mkdir(parents=True)
    lines = three_rows.splitlines()
    row = json.loads(lines[1])
    edits = {
        "no hash": lambda r: r.pop("hash"),
        "no status": lambda r: r.pop("status"),
        "time is text": lambda r: r.update(time="fast"),
        "answer is not digits": lambda r: r.update(answer="x1"),
    }
    if kind in edits:
        edits[kind](row)
        bad = json.dumps(row).encode()
    else:
        bad = BAD_LINES[kind]
    path.write_bytes(b"\n".join([lines[0], bad, lines[2]]) + b"\n")

    capsys.readouterr()
    assert main(["experiment", "report", str(path.parent), "--no-plots"]) == 0
    out, err = capsys.readouterr()
    assert "kakuro: warning: " in err and "runs.jsonl: line 2: " in err, err
    assert "| native | 2 | 2 |" in out

    if kind not in RUN_AGAIN:  # run reads through the same reader: a few kinds suffice
        return
    assert main(["experiment", "run", str(config), "--no-progress"]) == 0
    assert "runs.jsonl: line 2: " in capsys.readouterr().err
    keys = [r["key"] for r in read_rows(path, quiet=True)]
    assert sorted(keys) == sorted(json.loads(lines[i])["key"] for i in range(3))


def test_bad_side_files_do_not_crash_the_report(tmp_path: Path, pe424_path: Path) -> None:
    config = write_config(tmp_path, pe424_config(pe424_path))
    run_experiment(load_experiment(config), LocalExecutor(), progress=False)
    out = tmp_path / "results" / "t"
    (out / "environment.json").write_bytes(b"\xff{")
    (out / "skipped.json").write_text('{"a": 1}')
    report = cli("experiment", "report", str(out), "--no-plots", cwd=tmp_path)
    assert report.returncode == 0 and "Traceback" not in report.stderr, report.stderr
    assert "environment.json" in report.stderr and "skipped.json" in report.stderr


# -- 4: interrupts -----------------------------------------------------------------------


def latin_config(root: Path, pe424: Path, *, timeout: float = 2, soft: bool = True) -> Path:
    (root / "latin.kakuro").write_text(LATIN)
    return write_config(
        root,
        f'name = "t"\ntask = "count"\ntimeout = {timeout}\n'
        f'[[puzzles]]\nfile = "latin.kakuro"\nname = "latin"\n'
        f'[[puzzles]]\nfile = "{pe424}"\nname = "pe424"\nselect = "1-2"\n'
        f'[[configs]]\nbackend = "native"\nsoft_timeout = {str(soft).lower()}\n',
    )


def start_run(config: Path, cwd: Path) -> subprocess.Popen:
    """``experiment run`` as the leader of its own process group, as a shell starts it."""
    return subprocess.Popen(
        [*PYTHON, "experiment", "run", str(config), "--no-progress"],
        cwd=cwd,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_ctrl_c_reaching_the_worker_is_not_a_row(tmp_path: Path, pe424_path: Path) -> None:
    """Item 4: SIGINT sent to the worker itself (before: a permanent ``crash`` row that
    resume took as done) leaves the run to finish with its real result."""
    config = latin_config(tmp_path, pe424_path)
    proc = start_run(config, tmp_path)
    try:
        assert wait_until(lambda: bool(workers_of(proc.pid)), 30)
        time.sleep(1.0)  # inside the 2 s count of the Latin square
        for pid in workers_of(proc.pid):
            os.kill(pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait()
    rows = {r["instance"]: r for r in read_rows(tmp_path / "results" / "t" / "runs.jsonl")}
    assert rows["latin/latin5"]["status"] == "timeout", rows["latin/latin5"]["message"]
    assert {rows[f"pe424/{i}"]["outcome"] for i in (1, 2)} == {"count:1"}


def test_ctrl_c_at_the_terminal_stops_without_rows(tmp_path: Path, pe424_path: Path) -> None:
    """Item 4: Ctrl-C (SIGINT to the whole process group) stops the run with exit 130 and
    writes no row for the run it interrupted; resuming measures it."""
    config = latin_config(tmp_path, pe424_path)
    proc = start_run(config, tmp_path)
    try:
        assert wait_until(lambda: bool(workers_of(proc.pid)), 30)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    finally:
        proc.kill()
        proc.wait()
    path = tmp_path / "results" / "t" / "runs.jsonl"
    assert all(r["status"] not in ("error", "crash") for r in read_rows(path))
    assert wait_until(lambda: not workers_of(proc.pid), 5)
    summary = run_experiment(load_experiment(config), LocalExecutor(), progress=False)
    rows = {r["instance"]: r for r in read_rows(path)}
    assert summary.ran >= 1 and len(rows) == 3
    assert rows["latin/latin5"]["status"] == "timeout"


def test_a_worker_stopped_from_outside_is_not_a_row(tmp_path: Path, pe424_path: Path) -> None:
    """Item 4: a worker ended by SIGTERM stops the experiment (exit 130) without a row."""
    config = latin_config(tmp_path, pe424_path)
    proc = start_run(config, tmp_path)
    try:
        assert wait_until(lambda: bool(workers_of(proc.pid)), 30)
        time.sleep(1.0)
        for pid in workers_of(proc.pid):
            os.kill(pid, signal.SIGTERM)
        assert proc.wait(timeout=30) == 130
        assert proc.stderr is not None and "SIGTERM" in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
    rows = read_rows(tmp_path / "results" / "t" / "runs.jsonl")
    assert all(r["status"] not in ("error", "crash") for r in rows)
    assert "latin/latin5" not in {r["instance"] for r in rows}


# -- 5: runaway sizes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "select", "config", "message"),
    [
        ("repetitions = 100000000", "1-3", "", "repetitions = 100000000"),
        ("", "1-100000000", "", "the set has only 200 puzzle(s)"),
        ("repetitions = 1000", "1-200", "", f"at most {MAX_RUNS}"),
        ("", "1-3", f"node_limit = {list(range(400))}\nseed = {list(range(300))}", "at most"),
    ],
)
def test_huge_plans_are_refused_in_one_line(
    tmp_path: Path, pe424_path: Path, top: str, select: str, config: str, message: str
) -> None:
    """Item 5: sizes are checked by arithmetic before anything is expanded: one line, in
    well under a second and 1 GB (before: gigabytes, then the kernel's OOM killer)."""
    path = write_config(tmp_path, pe424_config(pe424_path, select=select, top=top, config=config))
    start = time.monotonic()
    proc = cli("experiment", "plan", str(path), cwd=tmp_path, memory_mb=1024)
    assert message in one_line_error(proc)
    assert time.monotonic() - start < 20


# -- 6: workers die with their parent and keep their own deadline -------------------------


def test_workers_die_with_a_killed_parent(tmp_path: Path, pe424_path: Path) -> None:
    """Item 6: SIGKILL of ``experiment run`` while its worker runs a long job (hard limit
    60 s) ends the worker at once (before: it ran on, at 100% CPU, with no deadline)."""
    config = latin_config(tmp_path, pe424_path, timeout=60, soft=False)
    proc = start_run(config, tmp_path)
    try:
        assert wait_until(lambda: bool(workers_of(proc.pid)), 30)
        workers = workers_of(proc.pid)
        time.sleep(1.0)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert wait_until(lambda: not any(alive(p) for p in workers), 5), workers
    finally:
        proc.kill()
        proc.wait()
        for pid in workers_of(proc.pid):  # do not leave one behind when the test fails
            os.kill(pid, signal.SIGKILL)


def test_a_worker_keeps_its_own_deadline(pe424_path: Path, tmp_path: Path) -> None:
    """Item 6: a worker whose parent never reads its answer (stuck, or gone) kills itself
    shortly after the hard deadline: the kernel's SIGALRM, not the parent, ends it."""
    (tmp_path / "latin.kakuro").write_text(LATIN)
    puzzle = kl.load(tmp_path / "latin.kakuro")[0]
    exp = Experiment(name="t", path=tmp_path, root=tmp_path, timeout=0.5, count_limit=None)
    config = Configuration("native", "native", {}, task="count", soft_timeout=False)
    spec = _spec(exp, Instance("latin", "s", puzzle, puzzle_hash(puzzle)), config, 0)
    worker = _Worker(None)
    try:
        start = time.monotonic()
        worker.send(spec, grace=0.5)  # the parent would kill at 1 s, the worker dies at 2 s
        code = worker.proc.wait(timeout=30)
        assert code == -signal.SIGALRM
        assert 1.0 <= time.monotonic() - start < 15
    finally:
        worker.kill()


# -- 13: the config schema ---------------------------------------------------------------

CONFIG_CASES = [
    ("", "", "encoding = 5", "encoding = 5"),
    ("", "", 'label = "{"', "label = '{'"),
    ("", "", 'label = "{0}"', "label = '{0}'"),
    ("", "", 'label = "{backend.x}"', "label = '{backend.x}'"),
    ("", "", 'node_limit = "abc"', "node_limit = 'abc'"),
    ("", "", "soft_timeout = 1", "soft_timeout = 1"),
    ("", "", "when = 1979-05-27", "when = datetime.date"),
    ("", "file = 5", "", "file = 5"),
    ("", 'first = "abc"', "", "first = 'abc'"),
    ("", "first = -1", "", "first = -1"),
    ("", "max_whites = 0", "", "max_whites = 0"),
    ("", 'select = "5-2"', "", "empty range '5-2'"),
    ("memory_mb = 10000000000000", "", "", "memory_mb = 10000000000000"),
    ("timeout = inf", "", "", "timeout = inf"),
    ("timeout = nan", "", "", "timeout = nan"),
    ("timeout = true", "", "", "timeout = True"),
    ('task = ["solve", 5]', "", "", "task = ['solve', 5]"),
    ("description = 5", "", "", "description = 5"),
    ("[report]\nscatter = 5", "", "", "scatter = 5"),
]
GENERATE_CASES = [
    ('{size = "6x6", seeds = 2, colour = "red"}', "unknown key(s) ['colour']"),
    ('{size = "6x6", seeds = "ab"}', "seeds = 'ab'"),
    ("{size = 5}", "size = 5"),
    ('{size = "6x6", seeds = -1}', "seeds = -1"),
    ('{size = "6x6", symmetric = "yes"}', "symmetric = 'yes'"),
    ("{seeds = 2}", "generate needs size"),
]


def _with_top(text: str, top: str) -> str:
    """Top-level lines go before the first table; a [report] table goes last."""
    if top.startswith("["):
        return text + top + "\n"
    if top.startswith("timeout"):
        return text.replace("timeout = 10\n", f"{top}\n", 1)
    return text.replace("timeout = 10\n", f"timeout = 10\n{top}\n", 1)


@pytest.mark.parametrize(("top", "puzzles", "config", "message"), CONFIG_CASES)
def test_bad_fields_are_one_line_naming_the_field(
    tmp_path: Path, pe424_path: Path, capsys, top: str, puzzles: str, config: str, message: str
) -> None:
    """Item 13: every field is checked, with its name and value in the message (before:
    tracebacks, or silently accepted)."""
    text = _with_top(pe424_config(pe424_path, config=config), top)
    if puzzles:  # the set's lines: the bad one, with the file unless it is the file
        source = "" if puzzles.startswith("file") else f'file = "{pe424_path}"\n'
        text = text.replace(f'file = "{pe424_path}"\n', source + puzzles + "\n")
        text = text.replace('select = "1-3"\n', "")
    path = write_config(tmp_path, text)
    line = one_line_main(capsys, "experiment", "plan", str(path))
    assert message in line, line
    assert one_line_main(capsys, "experiment", "run", str(path)) == line
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(("spec", "message"), GENERATE_CASES)
def test_bad_generate_tables(tmp_path: Path, spec: str, message: str) -> None:
    text = f'name = "g"\n[[puzzles]]\ngenerate = {spec}\n[[configs]]\nbackend = "native"\n'
    line = one_line_error(
        cli("experiment", "plan", str(write_config(tmp_path, text)), cwd=tmp_path)
    )
    assert message in line and "generate" in line, line


def test_plan_writes_nothing(tmp_path: Path) -> None:
    """Item 13: ``experiment plan`` of a generated set generates in memory, writes no file."""
    text = (
        'name = "g"\n[[puzzles]]\ngenerate = { size = "6x6", difficulty = "easy", seeds = 1 }\n'
        'name = "g6"\n[[configs]]\nbackend = "native"\n'
    )
    path = write_config(tmp_path, text)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert main(["experiment", "plan", str(path)]) == 0
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_shipped_configs_still_parse_under_the_schema() -> None:
    for path in sorted((ROOT / "experiments").glob("*.toml")):
        assert load_experiment(path).configs, path


# -- the kill test -----------------------------------------------------------------------


def kill_and_resume(tmp_path: Path, pe424_path: Path, rounds: int, seed: int, jobs: int) -> None:
    """Start ``experiment run``, kill it (SIGKILL or SIGTERM) at a random moment, check that
    no worker survives it and no finished row is lost; repeat, then finish.  At the end
    every planned key has exactly one row, and every line of the file is a row."""
    rng = random.Random(seed)
    config = write_config(
        tmp_path,
        pe424_config(pe424_path, select="1-200", top="repetitions = 2")
        + '[[configs]]\nbackend = "native"\nnode_limit = 100000\n',
    )
    path = tmp_path / "results" / "t" / "runs.jsonl"
    stopped = 0  # rounds whose signal arrived before the run finished
    for i in range(rounds):
        before = read_rows(path, quiet=True)
        proc = subprocess.Popen(
            [*PYTHON, "experiment", "run", str(config), "--no-progress", "--jobs", str(jobs)],
            cwd=tmp_path,
            env=env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            # A random point measured in finished rows, not seconds: the run is as fast as the
            # machine, and a kill after the last row would test nothing.
            target = len(before) + rng.randint(1, 300 // rounds)
            wait_until(lambda t=target: len(read_rows(path, quiet=True)) >= t, 30)
            workers = workers_of(proc.pid)
            proc.send_signal(signal.SIGKILL if i % 2 == 0 else signal.SIGTERM)
            code = proc.wait(timeout=30)
            assert code in (0, -signal.SIGKILL, -signal.SIGTERM, 130), code
            stopped += code != 0
        finally:
            proc.kill()
            proc.wait()
        started = [*workers, *workers_of(proc.pid)]
        assert wait_until(lambda s=started: not any(alive(p) for p in s), 5), f"round {i}"
        after = read_rows(path, quiet=True)
        assert after[: len(before)] == before, f"round {i}: finished rows changed"
        keys = [r["key"] for r in after]
        assert len(keys) == len(set(keys)), f"round {i}: a row was written twice"
    assert stopped >= rounds // 2, f"only {stopped} of {rounds} kills landed during a run"
    summary = run_experiment(load_experiment(config), LocalExecutor(jobs=jobs), progress=False)
    rows = read_rows(path)
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)) == summary.planned == 800
    assert all(r["status"] == "sat" and r["verified"] for r in rows)
    assert len(path.read_bytes().splitlines()) == 800


def test_kill_and_resume(tmp_path: Path, pe424_path: Path) -> None:
    kill_and_resume(tmp_path, pe424_path, rounds=4, seed=19, jobs=2)


@pytest.mark.slow
def test_kill_and_resume_many_times(tmp_path: Path, pe424_path: Path) -> None:
    kill_and_resume(tmp_path, pe424_path, rounds=24, seed=1919, jobs=2)


def test_fresh_reruns_a_finished_experiment_into_a_new_directory(
    tmp_path: Path, pe424_path: Path
) -> None:
    """A committed experiment is all done: plain ``run`` resumes and runs nothing, ``--fresh``
    runs every task again beside it, and again from scratch each time it is given."""
    config = write_config(tmp_path, pe424_config(pe424_path))
    assert cli("experiment", "run", str(config), "--no-progress", cwd=tmp_path).returncode == 0
    committed = tmp_path / "results" / "t" / "runs.jsonl"
    before = committed.read_bytes()
    again = cli("experiment", "run", str(config), "--no-progress", "--json", cwd=tmp_path)
    assert json.loads(again.stdout)["ran"] == 0
    fresh = cli(
        "experiment", "run", str(config), "--no-progress", "--fresh", "--json", cwd=tmp_path
    )
    record = json.loads(fresh.stdout)
    assert fresh.returncode == 0 and record["ran"] == 3 and record["done_before"] == 0
    assert Path(record["output"]).resolve() == tmp_path / "results" / "t-fresh" / "runs.jsonl"
    assert committed.read_bytes() == before
    fresh_rows = tmp_path / "results" / "t-fresh" / "runs.jsonl"
    first = read_rows(fresh_rows)
    (fresh_rows.parent / "report.md").write_text("the previous fresh report\n")
    # Issue 26: again and again, each time from scratch (before: refused the second time).
    again = cli(
        "experiment", "run", str(config), "--no-progress", "--fresh", "--json", cwd=tmp_path
    )
    record = json.loads(again.stdout)
    assert again.returncode == 0 and record["ran"] == 3 and record["done_before"] == 0
    second = read_rows(fresh_rows)
    assert len(second) == 3 and {r["key"] for r in second} == {r["key"] for r in first}
    assert {r["start"] for r in second}.isdisjoint(r["start"] for r in first)
    assert not (fresh_rows.parent / "report.md").exists()
    assert committed.read_bytes() == before


def test_fresh_never_deletes_the_committed_rows_or_foreign_files(
    tmp_path: Path, pe424_path: Path
) -> None:
    """``--fresh --results`` naming the experiment's own directory, or a directory holding a
    file no experiment writes, is one line and deletes nothing."""
    config = write_config(tmp_path, pe424_config(pe424_path))
    assert cli("experiment", "run", str(config), "--no-progress", cwd=tmp_path).returncode == 0
    own = tmp_path / "results" / "t"
    before = sorted(p.name for p in own.iterdir())
    line = one_line_error(
        cli("experiment", "run", str(config), "--fresh", "--results", str(own), cwd=tmp_path)
    )
    assert "never replaces the experiment's own results" in line
    assert sorted(p.name for p in own.iterdir()) == before
    other = tmp_path / "thesis"
    other.mkdir()
    (other / "runs.jsonl").write_text("")
    (other / "chapter1.tex.bak").write_text("precious")
    line = one_line_error(
        cli("experiment", "run", str(config), "--fresh", "--results", str(other), cwd=tmp_path)
    )
    assert "'chapter1.tex.bak', which no experiment wrote" in line
    assert (other / "chapter1.tex.bak").read_text() == "precious"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d, "is a directory"),
        (lambda d: _written(d / "binary.toml", b"\x00\xff\xfe\x80 name = 1\n"), "invalid UTF-8"),
        (lambda d: _written(d / "deep.toml", b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n"), ""),
    ],
    ids=["directory", "binary", "deeply-nested"],
)
def test_experiment_run_on_a_bad_config_file_is_one_line(tmp_path: Path, make, message) -> None:
    """Issue 19 item 12: a directory, a binary file or deeply nested TOML as CONFIG."""
    target = make(tmp_path)
    proc = cli("experiment", "run", str(target), cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error:"), proc.stderr
    assert message in lines[0]


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
