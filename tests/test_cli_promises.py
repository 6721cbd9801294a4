"""What the CLI promises where it meets the operating system (docs/cli-promises.md, issue 49):
output targets that are not regular files are written in place, never replaced; a full device
is an error; input that is not a regular file (or stdin as ``-``) is refused at once, and no
input is read past its limit."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _tools import one_line_error

from kakurolab import fileio
from kakurolab.cli import main

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "tiny.kakuro"
KAKURO = [sys.executable, "-m", "kakurolab"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
WRITERS = [
    ["convert", str(TINY), "--to", "pzpr"],
    ["encode", str(TINY), "--select", "tiny-a"],
    ["render", str(TINY), "--select", "tiny-a"],
]
"""Commands that write their answer to ``-o``, one of each kind of output."""


def _cli(*argv: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*KAKURO, *argv], env=ENV, capture_output=True, timeout=timeout, **kwargs
    )


# ------------------------------------------------------------------ 1: output targets


@ROOT_ONLY
@pytest.mark.parametrize("argv", WRITERS)
def test_output_onto_a_device_node_writes_into_it_and_keeps_the_node(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``mknod nullcopy c 1 3`` (a /dev/null of our own): the node stays a character device."""
    node = tmp_path / "nullcopy.svg"  # render names its format by the suffix
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert main([*argv, "-o", str(node)]) == 0, capsys.readouterr()
    assert stat.S_ISCHR(node.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nullcopy.svg"]  # no temporary left


@ROOT_ONLY
@pytest.mark.parametrize("argv", WRITERS)
def test_output_onto_a_full_device_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``-o /dev/full``, on a node of our own (c 1 7): were the promise broken, the test would
    replace a scratch node, not the machine's /dev/full."""
    full = tmp_path / "fullcopy.svg"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    line = one_line_error(capsys, main([*argv, "-o", str(full)]))
    assert str(full) in line and "No space left" in line
    assert stat.S_ISCHR(full.lstat().st_mode) and full.lstat().st_rdev == os.makedev(1, 7)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fullcopy.svg"]


@ROOT_ONLY
def test_output_onto_a_fifo_writes_through_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    done = _cli("convert", str(TINY), "--to", "pzpr", "-o", str(fifo))
    out, _ = reader.communicate(timeout=30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert out.startswith(b"pzprv3") or b"tiny" in out or len(out) > 20, out


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_output_to_stdout_works_on_a_pipe(tmp_path: Path, target: str) -> None:
    done = _cli("convert", str(TINY), "--to", "kakuro", "-o", target, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"id: tiny-a" in done.stdout
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_a_regular_file_is_still_replaced_atomically(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    inode = target.stat().st_ino
    fileio.write_text(target, "new\n")
    assert target.read_text() == "new\n" and target.stat().st_ino != inode


# ------------------------------------------------------------------ 2: input limits


def _special_inputs(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"zero": "/dev/zero", "fifo": str(fifo)}


@pytest.mark.parametrize("kind", ["zero", "fifo"])
@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "{}", "--timeout", "10"],
        ["info", "{}"],
        ["hint", str(TINY), "--select", "tiny-a", "--state", "@{}"],
    ],
)
def test_inputs_that_are_not_regular_files_are_refused_at_once(
    tmp_path: Path, kind: str, argv: list[str]
) -> None:
    path = _special_inputs(tmp_path)[kind]
    start = time.monotonic()
    done = _cli(*[a.replace("{}", path) for a in argv], timeout=30)
    took = time.monotonic() - start
    err = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(err) == 1, done.stderr
    assert "not a regular file" in err[0] and path in err[0], err
    assert took < 20, took  # not read until the timeout (start-up under a loaded machine)


def test_an_input_over_the_limit_is_refused_without_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 3 GB sparse file: refused from its size, before a byte is read."""
    big = tmp_path / "sparse.txt"
    with big.open("wb") as handle:
        handle.truncate(3 * 1024**3)
    line = one_line_error(capsys, main(["solve", str(big)]))
    assert "larger than" in line and str(big) in line


def test_an_input_that_grows_past_the_limit_is_read_only_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose size says nothing (as /proc files say 0) is read to the limit + 1 byte."""
    path = tmp_path / "x.txt"
    path.write_bytes(b"a" * 100)
    monkeypatch.setattr(fileio, "MAX_INPUT_BYTES", 10)
    with pytest.raises(fileio.InputError, match="larger than"):
        fileio.read_input(path)
    assert fileio.read_input(path, limit=100) == b"a" * 100


def test_stdin_as_dash_is_read(tmp_path: Path) -> None:
    done = _cli("info", "-", "--json", input=TINY.read_bytes())
    assert done.returncode == 0, done.stderr
    assert b"tiny-a" in done.stdout


def test_an_experiment_whose_file_is_dev_zero_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "exp.toml"
    config.write_text(
        'name = "z"\n[[puzzles]]\nfile = "/dev/zero"\n[[configs]]\nbackend = "native"\n'
    )
    done = _cli("experiment", "run", str(config), "--results", str(tmp_path / "out"), timeout=60)
    err = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(err) == 1, done.stderr
    assert "/dev/zero" in err[0] and "not a regular file" in err[0]


# ------------------------------------------------------------------ 4-5: processes


def _marked(mark: str) -> list[tuple[int, int]]:
    """(pid, parent pid) of every live process whose environment carries ``mark``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if mark.encode() not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if fields[0] != b"Z":  # a zombie is dead, only not yet reaped
                found.append((int(entry), int(fields[1])))
        except OSError:
            continue
    return found


def _depth(procs: list[tuple[int, int]], top: int) -> int:
    """How many generations below ``top`` the marked processes reach."""
    parent = dict(procs)
    deepest = 0
    for pid in parent:
        depth, here = 0, pid
        while here in parent and here != top:
            here, depth = parent[here], depth + 1
        if here == top:
            deepest = max(deepest, depth)
    return deepest


def _gone(mark: str, seconds: float) -> list[tuple[int, int]]:
    end = time.monotonic() + seconds
    while (left := _marked(mark)) and time.monotonic() < end:
        time.sleep(0.1)
    return left


def _kill_all(procs: list[tuple[int, int]]) -> None:
    for pid, _ in procs:  # only processes this test started (they carry its mark)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@LINUX
def test_kill_9_of_an_experiment_leaves_no_solver_process(tmp_path: Path) -> None:
    """cvc5 on a puzzle of 2,361 white cells runs in a session child (``overruns_from``): the
    run's child's child.  kill -9 of ``experiment run`` once left it alive for minutes."""
    pytest.importorskip("cvc5")
    config = tmp_path / "exp.toml"
    config.write_text(
        'name = "orphans"\ntask = "solve"\ntimeout = 60\n[[puzzles]]\n'
        f'file = "{ROOT / "data" / "hard" / "large-unique.txt"}"\n'
        'select = "large-unique-60x60-s1"\n[[configs]]\nbackend = "cvc5"\n'
    )
    mark = f"KAKURO_TEST_MARK={os.getpid()}-{time.monotonic_ns()}"
    env = {**ENV, mark.split("=")[0]: mark.split("=")[1]}
    proc = subprocess.Popen(
        [*KAKURO, "experiment", "run", str(config), "--results", str(tmp_path / "r"),
         "--no-progress"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        end = time.monotonic() + 60
        while _depth(_marked(mark), proc.pid) < 3 and time.monotonic() < end:
            time.sleep(0.05)  # parent -> worker -> run's child -> cvc5 session child
        assert _depth(_marked(mark), proc.pid) >= 3, _marked(mark)
        proc.kill()
        proc.wait()
        left = _gone(mark, 10)
        assert not left, f"processes outlived kill -9 of their experiment: {left}"
    finally:
        _kill_all(_marked(mark))
        if proc.poll() is None:
            proc.kill()


def _fake_solver(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-solver"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return f"{script} {{cnf}}"


@LINUX
@pytest.mark.skipif(not shutil.which("setsid"), reason="no setsid")
def test_a_dimacs_solver_that_detaches_a_process_is_contained(tmp_path: Path) -> None:
    """The solver starts ``setsid sleep 300`` (a session of its own, out of the solver's
    process group) and answers UNKNOWN: the detached process dies with the call."""
    cmd = _fake_solver(tmp_path, "setsid sleep 300 &\nsleep 0.2\necho 's UNKNOWN'\nexit 0\n")
    mark = f"KAKURO_TEST_MARK={os.getpid()}-{time.monotonic_ns()}"
    env = {**ENV, mark.split("=")[0]: mark.split("=")[1]}
    try:
        done = subprocess.run(
            [*KAKURO, "solve", str(TINY), "--select", "tiny-a", "--backend", "dimacs",
             "--option", f"cmd={cmd}"],
            env=env, capture_output=True, timeout=60,
        )  # fmt: skip
        assert b"Traceback" not in done.stderr, done.stderr
        left = _gone(mark, 5)
        assert not left, f"the detached process outlived the solver call: {left}"
    finally:
        _kill_all(_marked(mark))


# ------------------------------------------------------------------ 6-7: solver reasons


@pytest.mark.parametrize("command", ["unique", "count", "solve"])
def test_every_command_prints_the_dimacs_solver_error_reason(
    tmp_path: Path, command: str
) -> None:
    cmd = _fake_solver(tmp_path, "echo 'garbage from the solver'\nexit 10\n")
    done = _cli(command, str(TINY), "--select", "tiny-a", "--backend", "dimacs",
                "--option", f"cmd={cmd}")  # fmt: skip
    out = done.stdout.decode()
    assert "unexpected" in out or "garbage" in out, out
    assert "fake-solver" in out, out


def test_a_solver_answering_unknown_at_once_is_not_a_timeout(tmp_path: Path) -> None:
    cmd = _fake_solver(tmp_path, "echo 's UNKNOWN'\nexit 0\n")
    done = _cli("solve", str(TINY), "--select", "tiny-a", "--backend", "dimacs",
                "--option", f"cmd={cmd}", "--timeout", "30", "--json")  # fmt: skip
    line = json.loads(done.stdout.decode().splitlines()[0])
    assert line["status"] == "unknown"
    assert "timeout" not in line["message"] and "UNKNOWN" in line["message"], line


# ------------------------------------------------------------------ 8: experiment exit codes


def _experiment(tmp_path: Path, solver_body: str, *extra: str) -> subprocess.CompletedProcess:
    cmd = _fake_solver(tmp_path, solver_body)
    config = tmp_path / "exp.toml"
    config.write_text(
        f'name = "gate"\ntask = "solve"\ntimeout = 20\n[[puzzles]]\nfile = "{TINY}"\n'
        f'[[configs]]\nbackend = "native"\n[[configs]]\nbackend = "dimacs"\ncmd = "{cmd}"\n'
    )
    return _cli("experiment", "run", str(config), "--results", str(tmp_path / "r"),
                "--no-progress", *extra, timeout=120)  # fmt: skip


def test_an_experiment_whose_configuration_always_errors_exits_1(tmp_path: Path) -> None:
    """A broken solver must not pass a CI gate: every run of the dimacs configuration errors."""
    done = _experiment(tmp_path, "echo garbage\nexit 1\n")
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "every run" in err and "dimacs" in err, err


def test_strict_fails_an_experiment_on_any_error(tmp_path: Path) -> None:
    """The first call works (cadical), the next ones error: not every run of the
    configuration errors, so the default passes and ``--strict`` fails."""
    if not shutil.which("cadical"):
        pytest.skip("no cadical")
    flag = tmp_path / "called"
    body = f'if [ -e {flag} ]; then echo garbage; exit 1; fi\ntouch {flag}\nexec cadical -q "$1"\n'
    done = _experiment(tmp_path, body)
    assert done.returncode == 0, done.stderr.decode()
    flag.unlink()
    again = _experiment(tmp_path, body, "--fresh", "--strict")
    assert again.returncode == 1, again.stderr.decode()
    assert "--strict" in again.stderr.decode()


# ------------------------------------------------------------------ 9: strict inputs, lenient plans


@pytest.mark.parametrize("select", [None, "tiny-a,broken"])
def test_one_invalid_puzzle_does_not_abort_an_experiment(tmp_path: Path, select) -> None:
    """As ``solve`` runs the valid puzzles of a file, the plan runs them too; the invalid one
    gets its row in skipped.json with its reason, and a warning (selected by name or not)."""
    text = TINY.read_text()
    source = tmp_path / "mixed.kakuro"
    source.write_text(text + "\nid: broken\n   #   50\\\n\\50     .\n")
    config = tmp_path / "exp.toml"
    config.write_text(
        f'name = "mixed"\ntask = "solve"\ntimeout = 20\n[[puzzles]]\nfile = "{source}"\n'
        + (f'select = "{select}"\n' if select else "")
        + '[[configs]]\nbackend = "native"\n'
    )
    done = _cli("experiment", "run", str(config), "--results", str(tmp_path / "r"),
                "--no-progress", timeout=120)  # fmt: skip
    err = done.stderr.decode()
    assert done.returncode == 0, err
    rows = [json.loads(line) for line in (tmp_path / "r" / "runs.jsonl").read_text().splitlines()]
    expected = ["mixed/tiny-a"] if select else ["mixed/tiny-a", "mixed/tiny-b"]
    assert sorted(r["instance"] for r in rows) == expected
    skipped = json.loads((tmp_path / "r" / "skipped.json").read_text())
    (entry,) = [s for s in skipped if s["instances"] == "mixed/broken"]
    assert "invalid puzzle" in entry["reason"], entry
    assert "mixed/broken" in err


@pytest.mark.parametrize("count", ["NaN", "1e999", "-Infinity", "-1", "2.5", "true", '"2"'])
def test_puzzlekit_json_refuses_a_count_that_is_no_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    from kakurolab.formats import dumps, load

    good = json.loads(dumps(load(TINY)[:1], "puzzlekit"))
    text = json.dumps(good).replace(f'"count": {good["count"]}', f'"count": {count}')
    assert count in text
    path = tmp_path / "p.json"
    path.write_text(text)
    line = one_line_error(capsys, main(["info", str(path)]))
    assert "count" in line, line


def test_puzzlekit_json_refuses_non_finite_numbers_anywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kakurolab.formats import dumps, load

    good = json.loads(dumps(load(TINY)[:1], "puzzlekit"))
    (entry,) = good["data"].values()
    entry["rating"] = 1.5
    path = tmp_path / "p.json"
    path.write_text(json.dumps(good).replace("1.5", "NaN"))
    line = one_line_error(capsys, main(["info", str(path)]))
    assert "NaN" in line or "finite" in line, line


# ------------------------------------------------------------------ the page itself


def test_every_test_the_promises_page_names_exists() -> None:
    """docs/cli-promises.md names the test keeping each promise: each one must exist."""
    import ast

    page = (ROOT / "docs" / "cli-promises.md").read_text()
    named = set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", page))
    assert len(named) >= 25, named
    missing = []
    for path, name in sorted(named):
        tree = ast.parse((ROOT / path).read_text())
        tests = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        if name not in tests:
            missing.append(f"{path}::{name}")
    assert not missing, missing


@ROOT_ONLY
def test_grade_report_onto_a_device_is_written_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--report /dev/null`` (a node of our own: a regression replaces a scratch node, not
    the machine's): grade keeps the old report's rows, read from the file first; a device has
    none to keep, and is neither read nor replaced."""
    node = tmp_path / "null.md"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert main(["grade", str(TINY), "--report", str(node)]) == 0, capsys.readouterr()
    assert stat.S_ISCHR(node.lstat().st_mode)
