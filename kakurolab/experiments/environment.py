"""The machine and software a result was measured on, saved beside the rows."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from ..fileio import write_text

PACKAGES = (
    "kakurolab",
    "python-sat",
    "z3-solver",
    "ortools",
    "pyganak",
    "cvc5",
    "networkx",
    "dask",
    "distributed",
    "matplotlib",
    "tqdm",
)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 2)
    except OSError:
        pass
    return None


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def _versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def describe(root: Path) -> dict[str, Any]:
    """CPU, cores, memory, OS, Python, package versions and the git commit."""
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return {
        "recorded": datetime.now(UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": len(affinity) if affinity is not None else None,
        "memory_gib": _memory_gib(),
        # other work on the machine skews timings: say how busy it was at the start
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "packages": _versions(),
        "git_commit": _git(root, "rev-parse", "HEAD"),
        "git_dirty": bool(status) if status is not None else None,
    }


def write_environment(path: Path, experiment: Any) -> dict[str, Any]:
    """Write ``environment.json`` (the latest invocation's; rows carry their own host)."""
    env = describe(experiment.root)
    env["experiment"] = {
        "name": experiment.name,
        "description": experiment.description,
        "config": str(experiment.path),
        "task": experiment.task,
        "timeout": experiment.timeout,
        "memory_mb": experiment.memory_mb,
        "repetitions": experiment.repetitions,
        "report": experiment.report,
    }
    write_text(path, json.dumps(env, indent=1, sort_keys=True) + "\n")
    return env
