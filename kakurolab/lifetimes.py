"""Processes die with the process that started them (docs/cli-promises.md).

Three tools, for the three ways kakurolab starts processes:

- :func:`die_with_parent`: the calling process gets SIGKILL when its parent dies (Linux's
  ``PR_SET_PDEATHSIG``); the experiment workers, each run's child and each DIMACS solver
  (set between fork and exec: it survives ``exec``) call it.
- :func:`pass_on_death`: every process later forked from this one's main thread
  (``os.fork``, so ``multiprocessing``'s fork children too, such as a cvc5 session child or a
  timed certificate solve) calls :func:`die_with_parent` first, and passes the rule on.  A
  kill -9 of ``kakuro experiment run`` therefore ends the whole tree, generation by
  generation, whatever a backend forks.
- :func:`kill_marked`: a process that detaches itself (``setsid``, then a fork) leaves its
  process group and, once its parent is gone, is nobody's child; it still carries its
  environment, so a DIMACS solver is started with a :func:`marker` and every process
  holding it is killed when the solver's call ends.  The limit: a detached process of a
  solver whose ``kakuro`` was itself killed with SIGKILL is not swept (nothing is left to
  sweep); a cgroup (``systemd-run --scope``) contains that case.

Elsewhere than Linux the first two do nothing (the experiment workers keep their polling
watchdog) and the sweep finds nothing.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

_PR_SET_PDEATHSIG = 1
MARKER = "KAKUROLAB_PROCESS_MARK"
"""The environment variable :func:`marker` sets, inherited by everything a solver starts."""

_passing = False
_forking_parent = 0
_from_main_thread = True


def die_with_parent(parent: int | None = None) -> bool:
    """SIGKILL this process when its parent dies; True when the kernel will do it.  When
    ``parent`` (the pid it must have) is gone already, the process ends now."""
    armed = False
    libc = _libc()
    if libc is not None:
        try:
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if parent is not None and os.getppid() != parent:
        os._exit(0)
    return armed


@functools.cache
def _libc() -> Any:
    """The C library on Linux (loaded once, before a fork: the child only calls it), else
    None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _before_fork() -> None:
    global _forking_parent, _from_main_thread
    import threading

    _libc()
    _forking_parent = os.getpid()
    _from_main_thread = threading.current_thread() is threading.main_thread()


def _after_fork_in_child() -> None:
    """Arm the child, when it was forked by the main thread: the kernel ties the signal to
    the forking *thread*, and a pool thread that ends would kill a healthy child."""
    if _from_main_thread:
        die_with_parent(_forking_parent)


def pass_on_death() -> None:
    """From now on every ``os.fork`` child of this process dies with it, and passes that
    on to its own children (the hooks are copied with the process)."""
    global _passing
    if _passing or not hasattr(os, "register_at_fork"):
        return
    os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
    _passing = True


def marker() -> tuple[str, str]:
    """A fresh ``(name, value)`` environment entry to start a process with."""
    import uuid

    return MARKER, uuid.uuid4().hex


def kill_marked(value: str) -> list[int]:
    """SIGKILL every process (of ours to read) whose environment holds ``MARKER=value``;
    returns their pids.  Reads /proc: elsewhere it finds nothing."""
    wanted = f"{MARKER}={value}".encode()
    killed: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return killed
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if wanted not in handle.read().split(b"\0"):
                    continue
            os.kill(int(entry), signal.SIGKILL)
            killed.append(int(entry))
        except OSError:
            continue
    return killed


def run_program(
    argv: Sequence[str],
    stdout: IO[bytes],
    stderr: IO[bytes],
    timeout: float | None,
    *,
    preexec_fn: Callable[[], object] = die_with_parent,
) -> int | None:
    """Run an outside program (a SAT or CP solver) in its own process group, stdin closed,
    its output into the open files: its exit code, or None when ``timeout`` seconds passed.
    Either way its group is then killed and whatever left the group is found by a
    :func:`marker` (:func:`kill_marked`), so nothing it started outlives the call.  OSError
    when it cannot start."""
    mark_name, mark = marker()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,  # its own process group, killed as a whole
        preexec_fn=preexec_fn,
        env={**os.environ, mark_name: mark},  # finds what detaches itself
    )
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:  # also after a normal exit: whatever the program started dies with it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        kill_marked(mark)  # and what left the group (setsid)
