"""Executors: where runs execute.  Each run gets a killable process with a memory limit.

:class:`LocalExecutor` keeps a pool of persistent worker processes (``python -c ...``
speaking length-prefixed pickles over pipes).  A worker sets ``RLIMIT_AS`` once at start,
imports the package once, and then forks one child per run: the child runs the spec and
dies, so its peak memory and CPU time (``wait4``) are the run's own, while a millisecond
PE424 run costs a fork and a pipe round trip, not a process start.  A run whose child
dies is one ``crash``/``memout``/``timeout`` row and the worker goes on; a worker that
overruns its hard deadline or dies is killed and replaced.

Workers are plain subprocesses rather than ``multiprocessing`` children on purpose: Dask
workers are daemonic processes, which may not start ``multiprocessing`` children, but may
start subprocesses.  :class:`DaskExecutor` therefore ships chunks of runs to a Dask cluster
and each chunk runs through a one-worker :class:`LocalExecutor` on the Dask worker's host,
measured the same way.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import KakuroError, UnknownNameError, require
from ..lifetimes import pass_on_death
from .runner import Interrupted, failure_row
from .runs import Row, RunSpec

_HEADER = struct.Struct("!I")
RECYCLE_AFTER = 2000
"""Runs a worker serves before it is replaced (bounds slow leaks in solver libraries)."""
_WORKER_CODE = (
    # SIGINT is ignored before the slow imports: Ctrl-C is for the parent, which stops us.
    "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "from kakurolab.experiments.executors import worker_main; worker_main()"
)
WORKER_MARGIN = 1.0
"""Seconds past the parent's hard deadline after which a worker kills itself: the parent
normally kills it first; this catches a parent that is gone or stuck."""
SETUP_FAILED = 3
"""Exit code of a worker that could not set itself up (its message is on stderr)."""
INTERRUPTS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT}
"""Signals that mean "stop", not "this run failed": a worker ended by one gets no row."""
_PR_SET_PDEATHSIG = 1


def hard_deadline(timeout: float, grace: float | None = None) -> float:
    """Seconds after which a run is killed: the soft timeout plus room for start-up.

    The default grace (half the timeout, at least 2 s) covers a cold worker importing a
    solver library; the backends stop themselves at the soft timeout.
    """
    return timeout + (max(2.0, 0.5 * timeout) if grace is None else grace)


# -- the worker side ---------------------------------------------------------------------


def _write_frame(fh: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    fh.write(_HEADER.pack(len(data)) + data)
    fh.flush()


def _read_exact(fh: IO[bytes], n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = fh.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_frame(fh: IO[bytes]) -> Any:
    header = _read_exact(fh, _HEADER.size)
    if header is None:
        return None
    body = _read_exact(fh, _HEADER.unpack(header)[0])
    return None if body is None else pickle.loads(body)


def _rss_mb() -> float:
    """This process's resident memory now (VmRSS), 0 where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


_MAXRSS_SCALE = 1 if sys.platform == "darwin" else 1024
"""``ru_maxrss`` is in bytes on macOS, KiB on Linux."""


@dataclass(frozen=True)
class ChildDied:
    """What the worker sends instead of a row when the process of a run died."""

    status: int
    """The exit status of the run's process, as ``subprocess`` reports it (``-SIG``)."""
    usage: dict[str, float]


def _usage(ru: resource.struct_rusage, base_mb: float, wall: float) -> dict[str, float]:
    """The run's own figures, from ``wait4`` of the process that ran it and nothing else."""
    return {
        "peak_rss_mb": round(ru.ru_maxrss * _MAXRSS_SCALE / 2**20, 1),
        "base_rss_mb": base_mb,
        "cpu_s": round(ru.ru_utime + ru.ru_stime, 6),
        "process_s": round(wall, 6),
    }


def _run_forked(
    spec: RunSpec, seconds: float, run: Callable[[RunSpec], Row] | None = None
) -> Row | ChildDied:
    """One run in a child forked from this (warm, idle) worker: its peak memory is its own.

    ``wait4`` gives the child's own ``ru_maxrss`` and CPU time: a run after a large one
    starts from the worker's memory, not from what the large one left behind.  The child
    starts with the worker's resident pages (``base_rss_mb``: the interpreter and the
    libraries loaded so far), so ``peak_rss_mb - base_rss_mb`` is what the run added.
    Modules the child imported are imported here afterwards, so the next child starts warm.
    ``run`` replaces :func:`runner.execute` (tests).
    """
    from .runner import execute

    run = run or execute
    base = _rss_mb()
    known = set(sys.modules)
    parent = os.getpid()
    read_end, write_end = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: runs the spec, sends its row, never returns
        try:
            os.close(read_end)
            _die_with_parent(parent)
            _set_alarm(seconds)
            row = run(spec)
            row["pid"] = os.getpid()
            new = sorted(set(sys.modules) - known)
            with os.fdopen(write_end, "wb") as out:
                _write_frame(out, (row, new))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as answer:
        frame = _read_frame(answer)  # None: the child died before it answered
    _, status, usage = os.wait4(pid, 0)
    figures = _usage(usage, base, time.perf_counter() - start)
    if frame is None or not os.WIFEXITED(status):
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        return ChildDied(code, figures)
    row, new_modules = frame
    row.update(figures)
    _warm(new_modules)
    return row


def _warm(modules: list[str]) -> None:
    """Import what a run imported, so later runs do not pay for it again."""
    import importlib

    for name in modules:
        if name not in sys.modules:
            with contextlib.suppress(Exception):
                importlib.import_module(name)


@functools.cache
def _libc() -> Any:
    """The C library, loaded once by the worker (each run's child only calls it)."""
    return ctypes.CDLL(None, use_errno=True)


def _die_with_parent(parent: int) -> None:
    """A worker never outlives the process that started it.

    On Linux the kernel kills it when its parent dies (``PR_SET_PDEATHSIG``); elsewhere a
    watchdog thread polls ``getppid()``.  A parent already gone ends it now.  (No thread
    where the kernel does the job: with one, a worker at its ``RLIMIT_AS`` was seen to fail
    inside a solver library's Rust allocation and hang, instead of a clean MemoryError;
    a second thread also reserves its own stack and malloc arena under the limit.)
    """
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            armed = _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != parent:
        os._exit(0)
    if armed:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _set_alarm(seconds: float) -> None:
    """The worker's own deadline: SIGALRM with its default action ends the process in the
    kernel, even while a solver holds the GIL in C code.  Zero disarms it."""
    signal.setitimer(signal.ITIMER_REAL, min(max(seconds, 0.0), 1e7))


def worker_main() -> None:
    """Serve runs from stdin until EOF; protocol frames go to the original stdout only.

    Arguments: the memory limit in MB (0: none) and the parent's pid.  Each frame is a
    ``(spec, seconds)`` pair: the run and the deadline after which the worker kills itself.
    Each run executes in a child forked for it (:func:`_run_forked`); the answer is its row,
    or :class:`ChildDied` when that child died.
    """
    memory_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    parent = int(sys.argv[2]) if len(sys.argv) > 2 else os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # again, when started some other way
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    _die_with_parent(parent)
    pass_on_death()  # what a run forks (a cvc5 session child) dies with the run's child
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # solver chatter on stdout must not corrupt the protocol
    if memory_mb:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_mb * 2**20
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        except (ValueError, OSError) as exc:
            print(f"kakuro: worker cannot set memory_mb = {memory_mb}: {exc}", file=sys.stderr)
            os._exit(SETUP_FAILED)
    from . import runner  # noqa: F401  (the package and backend registry, imported once)

    stdin = sys.stdin.buffer
    while (frame := _read_frame(stdin)) is not None:
        spec, seconds = frame
        _set_alarm(seconds)  # the child has the same deadline; either ends the run
        answer = _run_forked(spec, seconds)
        _set_alarm(0)
        _write_frame(proto, answer)


# -- the parent side ---------------------------------------------------------------------


class _Worker:
    """One child process; ``spec``/``deadline`` are set while it runs something."""

    def __init__(self, memory_mb: int | None) -> None:
        env = dict(os.environ)
        package_parent = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
        # A session of its own: a Ctrl-C at the terminal reaches the parent only, which
        # stops the workers; an interrupt never turns into a row.
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WORKER_CODE, str(memory_mb or 0), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        self.spec: RunSpec | None = None
        self.served = 0
        self.started = 0.0
        self.deadline = math.inf

    def fileno(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def send(self, spec: RunSpec, grace: float | None) -> None:
        assert self.proc.stdin is not None
        self.spec, self.started = spec, time.monotonic()
        limit = hard_deadline(spec.timeout, grace)
        self.deadline = self.started + limit
        _write_frame(self.proc.stdin, (spec, limit + WORKER_MARGIN))

    def receive(self) -> Row | ChildDied | None:
        assert self.proc.stdout is not None
        row = _read_frame(self.proc.stdout)
        self.spec, self.deadline = None, math.inf
        return row

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for fh in (self.proc.stdin, self.proc.stdout):
            if fh is not None:
                fh.close()


class LocalExecutor:
    """``jobs`` persistent worker processes on this machine (the default executor).

    ``grace`` overrides the seconds past the timeout before a run is killed.

    Examples:
        >>> from kakurolab.experiments import LocalExecutor, load_experiment, run_experiment
        >>> experiment = load_experiment(tiny_config)
        >>> run_experiment(experiment, LocalExecutor(jobs=1), progress=False).statuses
        Counter({'sat': 1})
    """

    def __init__(self, jobs: int = 1, grace: float | None = None) -> None:
        if jobs < 1:
            raise KakuroError(f"jobs must be at least 1, got {jobs}")
        self.jobs, self.grace = jobs, grace

    def run(self, specs: list[RunSpec]) -> Generator[Row, None, None]:
        """Rows in completion order; the generator kills its workers when closed."""
        if not specs:
            return
        memory_mb = specs[0].memory_mb
        queue = deque(specs)
        workers = [_Worker(memory_mb) for _ in range(min(self.jobs, len(specs)))]
        failed_starts = 0
        try:
            while queue or any(w.spec is not None for w in workers):
                failed_starts = self._hand_out(workers, queue, memory_mb, failed_starts)
                busy = [w for w in workers if w.spec is not None]
                if not busy:
                    continue
                wait = max(0.0, min(w.deadline for w in busy) - time.monotonic())
                ready, _, _ = select.select(busy, [], [], wait)
                for w in ready:
                    yield from self._receive(workers, w, memory_mb)
                yield from self._kill_overdue(workers, memory_mb)
        finally:
            for w in workers:
                w.kill()

    def _hand_out(
        self, workers: list[_Worker], queue: deque[RunSpec], memory_mb: int | None, failed: int
    ) -> int:
        """Give each idle worker the next run; a worker that died while idle is replaced.
        Returns the count of failed starts in a row (too many: workers cannot start)."""
        for w in workers:
            if w.spec is None and queue:
                try:
                    w.send(queue[0], self.grace)
                    queue.popleft()
                    failed = 0
                except OSError:  # the worker died while idle: replace it
                    failed += 1
                    if failed > 3 * len(workers):
                        raise KakuroError(
                            f"worker processes die before their first run "
                            f"(memory_mb = {memory_mb} too low?)"
                        ) from None
                    self._replace(workers, w, memory_mb)
        return failed

    def _receive(
        self, workers: list[_Worker], w: _Worker, memory_mb: int | None
    ) -> Iterator[Row]:
        """The row of a worker that has one ready (or of its death)."""
        spec, started = w.spec, w.started
        assert spec is not None
        row = w.receive()
        if row is None:  # the worker itself died
            code = w.proc.wait()
            yield self._death_row(code, w.proc.pid, spec, started, memory_mb)
            self._replace(workers, w, memory_mb)
            return
        if isinstance(row, ChildDied):  # the run's own process died
            row = self._death_row(row.status, w.proc.pid, spec, started, memory_mb)
        yield row
        w.served += 1
        if self._worn_out(w, row, memory_mb):
            self._replace(workers, w, memory_mb)

    def _kill_overdue(self, workers: list[_Worker], memory_mb: int | None) -> Iterator[Row]:
        """A timeout row for each run past its hard limit, its worker replaced."""
        now = time.monotonic()
        for w in [w for w in workers if w.spec is not None and w.deadline <= now]:
            assert w.spec is not None
            yield failure_row(
                w.spec,
                "timeout",
                f"killed after {now - w.started:.1f}s (hard limit)",
                now - w.started,
            )
            self._replace(workers, w, memory_mb)

    @staticmethod
    def _death_row(
        code: int, pid: int, spec: RunSpec, started: float, memory_mb: int | None
    ) -> Row:
        """The row for a worker (or the run's child) that died during a run; none for an
        interrupt or a worker that could not start (those stop the experiment, the run stays
        pending)."""
        elapsed = time.monotonic() - started
        if code == SETUP_FAILED:
            raise KakuroError("worker processes cannot start (their message is above)")
        if -code in INTERRUPTS:
            name = signal.Signals(-code).name
            raise Interrupted(
                f"worker {pid} was stopped by {name} during {spec.key}; "
                "that run is not recorded: rerun to resume"
            )
        if code == -signal.SIGALRM:
            return failure_row(spec, "timeout", f"stopped itself after {elapsed:.1f}s", elapsed)
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        message = f"worker died ({how}); memory limit {memory_mb} MB may have been hit"
        return failure_row(spec, "crash", message, elapsed)

    @staticmethod
    def _worn_out(worker: _Worker, row: Row, memory_mb: int | None) -> bool:
        """Replace a worker when its own memory (the runs' children start from it) grows
        past half the limit (modules imported on the way), and after ``RECYCLE_AFTER``
        runs.  A memout ends only the run's child: the worker is untouched."""
        if worker.served >= RECYCLE_AFTER:
            return True
        base = row.get("base_rss_mb")
        return bool(memory_mb and base and base > memory_mb / 2)

    @staticmethod
    def _replace(workers: list[_Worker], old: _Worker, memory_mb: int | None) -> None:
        old.kill()
        workers[workers.index(old)] = _Worker(memory_mb)


def run_chunk(specs: list[RunSpec]) -> list[Row]:
    """One Dask task: a chunk of runs through a one-worker local pool on the Dask worker."""
    return list(LocalExecutor(jobs=1).run(specs))


class DaskExecutor:
    """Chunks of runs as tasks on a Dask cluster (``tcp://host:port``, or ``local``).

    ``local`` starts a loopback ``LocalCluster`` of ``jobs`` single-threaded workers.  Rows
    come back per chunk, so an interrupted run loses at most the chunks in flight.

    Examples:
        >>> from kakurolab.experiments import DaskExecutor
        >>> executor = DaskExecutor("local", jobs=2)  # a cluster starts only when runs are given
        >>> executor.address, executor.jobs
        ('local', 2)
    """

    def __init__(self, address: str = "local", jobs: int = 1, chunk: int | None = None) -> None:
        self.address, self.jobs, self.chunk = address, jobs, chunk

    def run(self, specs: list[RunSpec]) -> Generator[Row, None, None]:
        if not specs:
            return
        distributed: Any = require("distributed", extra="dask", feature="the dask executor")
        cluster = None
        if self.address == "local":
            cluster = distributed.LocalCluster(
                n_workers=self.jobs,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
                processes=True,
            )
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(self.address, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise KakuroError(f"cannot reach Dask scheduler {self.address}: {exc}") from None
        try:
            yield from self._run_on(client, specs)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    def _run_on(self, client: Any, specs: list[RunSpec]) -> Generator[Row, None, None]:
        from distributed import as_completed

        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = self.chunk or min(100, max(10, math.ceil(len(specs) / (4 * n_workers))))
        chunks = [specs[i : i + size] for i in range(0, len(specs), size)]
        futures = [client.submit(run_chunk, chunk, pure=False) for chunk in chunks]
        try:
            for future in as_completed(futures):
                yield from future.result()
        finally:
            client.cancel(futures)


EXECUTORS: dict[str, type[LocalExecutor] | type[DaskExecutor]] = {
    "local": LocalExecutor,
    "dask": DaskExecutor,
}


def make_executor(name: str, **options: Any) -> LocalExecutor | DaskExecutor:
    """The executor named in ``EXECUTORS`` (``--executor`` on the command line).

    Examples:
        >>> from kakurolab.experiments import make_executor
        >>> type(make_executor("local", jobs=2)).__name__, type(make_executor("dask")).__name__
        ('LocalExecutor', 'DaskExecutor')
    """
    try:
        cls = EXECUTORS[name]
    except KeyError:
        raise UnknownNameError("executor", name, EXECUTORS) from None
    return cls(**options)
