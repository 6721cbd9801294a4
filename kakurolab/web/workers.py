"""Worker processes for the slow part of a new game, in lanes that can drop one job.

A generation (seconds to minutes of CPU) or a pasted puzzle's uniqueness proof and grading
must not run on the server's threads: a thread holds Python's lock against the event loop
and cannot be stopped.  A :class:`Lane` is a few spawned processes, each fed one job at a
time through its own pipe, at the lowest CPU priority, with a bounded list of jobs.  Unlike
``multiprocessing.Pool`` a lane can give up one job: a waiting job is taken off its list, and
a running one (its client gone, or over its time limit) has its process killed and replaced,
so the slot and the CPU are free again at once.  A pipe needs no semaphore, so stopping the
server (every process killed) leaves none for the resource tracker to warn about.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ..errors import KakuroError
from .port import Busy

WORKER_NICE = 19
"""The worker processes run at the lowest CPU priority: on a busy machine the kernel then
gives moves the CPU first (a generation is background work nobody waits on keystroke by
keystroke), and on a machine with an idle core they lose nothing."""


def _work(conn: Connection) -> None:
    """A worker process: run each job received, send back (True, result) or (False, error)."""
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, WORKER_NICE)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except KakuroError as exc:
            answer = (False, exc)
        except Exception as exc:  # reported to the server as one line, never re-raised here
            answer = (False, KakuroError(f"{type(exc).__name__}: {exc}"))
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle
            conn.send((False, KakuroError(f"{type(exc).__name__}: {exc}")))


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    worker: _Worker | None = None
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    job: _Job | None = None


@dataclass(eq=False)
class Lane:
    """Up to ``workers`` processes and ``capacity`` jobs (waiting or running); a job runs at
    most ``time_s`` seconds (see module doc)."""

    name: str
    workers: int
    capacity: int
    time_s: float
    _waiting: deque[_Job] = field(default_factory=deque)
    _idle: list[_Worker] = field(default_factory=list)
    _busy: set[_Worker] = field(default_factory=set)
    closed: bool = False

    @property
    def queued(self) -> int:
        return len(self._waiting) + len(self._busy)

    @property
    def running(self) -> list[Any]:
        """The processes running a job now (``multiprocessing`` process objects)."""
        return [worker.process for worker in self._busy]

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker process; its result, or its KakuroError, or Busy (503)
        when the lane is full, stopping, or the job ran out of time.  Cancelling the caller
        drops the job (see module doc)."""
        if self.closed:
            raise Busy("the server is stopping", retry_after=30)
        if self.queued >= self.capacity:
            raise Busy(f"the server is {self.name} too many puzzles; try again soon",
                       retry_after=30)  # fmt: skip
        job = _Job(fn, args, asyncio.get_running_loop().create_future())
        self._waiting.append(job)
        self._dispatch()
        try:
            return await job.future
        finally:
            self._drop(job)

    def _dispatch(self) -> None:
        while self._waiting and not self.closed:
            if not self._idle:
                if len(self._busy) >= self.workers:
                    return
                self._idle.append(self._spawn())
            job = self._waiting.popleft()
            worker = self._idle.pop()
            try:
                worker.conn.send((job.fn, job.args))
            except (OSError, ValueError):  # the process died while idle: a new one
                self._kill(worker)
                self._waiting.appendleft(job)
                continue
            worker.job, job.worker = job, worker
            self._busy.add(worker)
            loop = job.future.get_loop()
            loop.add_reader(worker.conn.fileno(), self._answered, worker)
            job.timer = loop.call_later(self.time_s, self._too_long, job)

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=_work, args=(theirs,), daemon=True,
                                  name=f"kakuro-{self.name}")  # fmt: skip
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def _answered(self, worker: _Worker) -> None:
        job = worker.job
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            ok, value = False, Busy("a worker process was lost; try again", retry_after=10)
            self._release(worker, keep=False)
        else:
            self._release(worker, keep=True)
        if job is not None and not job.future.done():
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        self._dispatch()

    def _too_long(self, job: _Job) -> None:
        if not job.future.done():
            job.future.set_exception(
                Busy(f"this took over {self.time_s:g} s and was stopped", retry_after=60))
        self._drop(job)

    def _release(self, worker: _Worker, *, keep: bool) -> None:
        """The worker's job is over: back to idle (``keep``) or killed."""
        job, worker.job = worker.job, None
        if job is not None:
            job.worker = None
            if job.timer is not None:
                job.timer.cancel()
        self._busy.discard(worker)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        if keep and not self.closed:
            self._idle.append(worker)
        else:
            self._kill(worker)

    def _drop(self, job: _Job) -> None:
        """Nobody waits for ``job`` any more: off the list, or its process killed."""
        if job.timer is not None:
            job.timer.cancel()
        with contextlib.suppress(ValueError):
            self._waiting.remove(job)
        if job.worker is not None:
            self._release(job.worker, keep=False)
            self._dispatch()

    @staticmethod
    def _kill(worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(5)
        with contextlib.suppress(OSError):  # stop() may have closed it, from another thread
            worker.conn.close()

    def stop(self) -> None:
        """Kill every process now and answer every job 503 (see the server's SIGTERM)."""
        self.closed = True
        for job in list(self._waiting):
            _fail(job.future, Busy("the server is stopping", retry_after=30))
        for worker in list(self._busy):
            if worker.job is not None:
                _fail(worker.job.future, Busy("the server is stopping", retry_after=30))
        self._waiting.clear()
        workers = [*self._idle, *self._busy]
        with contextlib.suppress(RuntimeError):  # in the loop's thread: stop watching pipes
            loop = asyncio.get_running_loop()
            for worker in self._busy:
                loop.remove_reader(worker.conn.fileno())
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
        for worker in workers:
            with contextlib.suppress(Exception):
                running, worker.job = worker.job, None
                if running is not None:
                    running.worker = None  # its caller's _drop must not close this pipe again
                    if running.timer is not None:
                        running.timer.cancel()
                self._busy.discard(worker)
                worker.process.join(5)
                worker.conn.close()
        self._idle.clear()


def _fail(future: asyncio.Future[Any], error: Exception) -> None:
    """Fail ``future`` from any thread (stop may run outside the event loop's thread)."""

    def settle() -> None:
        if not future.done():
            future.set_exception(error)

    loop = future.get_loop()
    if loop.is_closed():
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        settle()
    else:
        loop.call_soon_threadsafe(settle)
