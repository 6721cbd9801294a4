"""Experiment plans are bounded before they are built, and planning is linear (issue 29).

Each plan runs in a child under an address-space limit, so a regression fails fast instead of
eating the machine; the child reports its CPU seconds (steadier than wall time on a loaded
machine) and its peak resident memory.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from _tools import write_config

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 5.0
"""The target: any experiment file planned or refused within 5 s ..."""
MEGABYTES = 300
"""... and 300 MB."""
SLACK = 3.0
"""Room for a loaded CI machine (2 cores shared with other jobs): the time asserted is
``SLACK * SECONDS``; quiet-machine figures are in the commit messages."""

_MEASURE = """
import contextlib, io, json, sys, time
from pathlib import Path
from kakurolab.cli import main

def peak_mb():
    # VmHWM starts afresh at exec; ru_maxrss would include the forking test process's pages
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
start, cpu = time.perf_counter(), time.process_time()
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    code = main(["experiment", "plan", sys.argv[1]])
print(json.dumps({"code": code, "seconds": time.perf_counter() - start,
                  "cpu_s": time.process_time() - cpu,
                  "peak_mb": peak_mb(),
                  "stdout": out.getvalue()[-300:], "stderr": err.getvalue()}))
"""


def measure_plan(config: Path, memory_mb: int = 2048) -> dict:
    """``experiment plan CONFIG`` in a child: exit code, wall and CPU seconds of the plan, the
    child's peak resident memory (interpreter and imports included), output."""

    def limit() -> None:
        size = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(config)],
        cwd=config.parent,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=limit,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def header(pe424: Path) -> str:
    return f'name = "big"\ntimeout = 10\n[[puzzles]]\nfile = "{pe424}"\nselect = "1"\n'


def many_tables(n_tables: int, values: int) -> str:
    table = (
        f'[[configs]]\nbackend = "native"\nnode_limit = {list(range(values))}\n'
        f"seed = {list(range(values))}\n"
    )
    return table * n_tables


def node_limits(n: int) -> str:
    """One table of ``n`` configurations: node_limit = 1..n."""
    return f'[[configs]]\nbackend = "native"\nnode_limit = {list(range(1, n + 1))}\n'


@pytest.mark.parametrize("n_tables", [2, 80])
def test_many_tables_are_counted_before_they_are_built(
    tmp_path: Path, pe424_path: Path, n_tables: int
) -> None:
    """Tables each under the limit add up past it: refused by arithmetic, in bounded time and
    memory (before: 80 tables of two 316-value lists took 39 s and 3.0 GB first)."""
    config = write_config(tmp_path, header(pe424_path) + many_tables(n_tables, 316))
    got = measure_plan(config)
    assert got["code"] == 2
    assert f"{n_tables * 316 * 316} configuration(s)" in got["stderr"], got["stderr"]
    assert "more than 100000 runs" in got["stderr"]
    assert got["peak_mb"] < MEGABYTES, got
    assert got["cpu_s"] < SLACK * SECONDS, got


@pytest.mark.parametrize(
    "n",
    [
        20_000,  # before: 21-25 s, quadratic label checks
        # just under the limit (before: not in 180 s)
        pytest.param(316 * 316, marks=pytest.mark.slow),
    ],
)
def test_a_single_table_plans_in_linear_time(n: int, tmp_path: Path, pe424_path: Path) -> None:
    """One table with node_limit = 1..n plans within the time and memory bounds."""
    config = write_config(tmp_path, header(pe424_path) + node_limits(n))
    got = measure_plan(config)
    assert got["code"] == 0, got["stderr"]
    assert got["stdout"].strip().endswith(f"{n} runs in all")
    assert got["peak_mb"] < MEGABYTES, got
    assert got["cpu_s"] < SLACK * SECONDS, got
