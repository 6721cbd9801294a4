"""A deadline that formula building checks, so ``timeout`` covers encoding as well as solving.

Solvers take a time limit, but building a large formula (a naive CNF or a bit-vector model of
a 31x46 grid) is Python code that runs before any solver starts.  Counting sets the deadline
around ``Backend.open`` with :func:`deadline`; encoders and model builders call :func:`check`
once per run (cheap: one clock read), and :class:`EncodingTimeout` unwinds the build so the
caller can answer "unknown (timeout)" on time instead of late.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_DEADLINE: ContextVar[float | None] = ContextVar("kakurolab_deadline", default=None)


class EncodingTimeout(Exception):
    """The deadline passed while the formula was being built."""


class DeadlinePassed(TimeoutError):
    """Work that has no partial answer (a grade of a cut deduction) stopped at its deadline."""


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Make ``at`` (a ``time.perf_counter()`` value, or None for none) the deadline that
    :func:`check` enforces inside the block."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def current() -> float | None:
    """The deadline in force here (None: none), for a backend that opens another one's
    session and hands the deadline on (``auto``)."""
    return _DEADLINE.get()


def check() -> None:
    """Raise :class:`EncodingTimeout` when the current deadline has passed."""
    at = _DEADLINE.get()
    if at is not None and time.perf_counter() >= at:
        raise EncodingTimeout


def passed() -> bool:
    """Whether the current deadline has passed (False when there is none)."""
    at = _DEADLINE.get()
    return at is not None and time.perf_counter() >= at


def checked(items: Iterable[T]) -> Iterator[T]:
    """``items``, checking the deadline before each one (for formula-building loops)."""
    for item in items:
        check()
        yield item


def in_child(work: Callable[[], T], at: float) -> T | None:
    """``work()`` in a forked child killed at ``at`` (a ``time.perf_counter()`` value): its
    result, or None when the deadline passes first.  For work no clock check can stop (a
    solver loading a large formula, CaDiCaL's preprocessing).  Where no child can be forked
    (a platform without fork, a daemonic worker whose parent holds the hard limit) the work
    runs here; an exception in the child is raised again here."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods() or (
        multiprocessing.current_process().daemon
    ):
        return work()
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(work, send), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(max(0.0, at - time.perf_counter())):
            return None
        ok, value = receive.recv()
    except EOFError:
        raise RuntimeError(f"the child process died (exit code {process.exitcode})") from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receive.close()
    if not ok:
        raise value
    result: T = value
    return result


def _child(work: Callable[[], object], send: Any) -> None:
    try:
        message: tuple[bool, object] = (True, work())
    except BaseException as exc:  # the parent raises it again
        message = (False, exc)
    send.send(message)
    send.close()
