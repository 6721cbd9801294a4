"""What every backend shares: the Result type, the Backend base class and its sessions.

A backend opens a :class:`Session` on one puzzle; a session yields solutions one at a time
and accepts *blocking* of a found grid.  Counting and uniqueness (``kakurolab.uniqueness``) are
written once against this interface, so no backend re-implements them.  Every solution passes
the rule checker inside :meth:`Backend.open` before it leaves the backend.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import multiprocessing
import pickle
import shutil
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import import_module
from typing import Any, ClassVar, Self

from .. import deadline as deadlines
from ..errors import KakuroError, OptionValueError, UnknownOptionError, require
from ..model import Puzzle, Solution
from ..rulebook import solution_problems


class Status(StrEnum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"  # timeout or interrupted
    ERROR = "error"


@dataclass
class Result:
    """The one answer type of every backend.

    ``solutions`` holds every distinct grid found (up to the requested limit); ``solution`` is
    the first.  Times are wall-clock seconds; ``stats`` holds solver statistics under readable
    keys (``conflicts``, ``decisions``, ``propagations``, ``nodes`` ...).
    """

    status: Status
    solutions: list[Solution] = field(default_factory=list)
    encode_time: float = 0.0
    solve_time: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    backend: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    complete: bool = False
    """True when the search space was exhausted, so ``len(solutions)`` is the exact count."""

    def __bool__(self) -> bool:
        """Whether a solution was found, as PySAT's ``solve()`` and CPMpy's ``solve()`` answer:
        ``if kl.solve(puzzle):`` reads as "is it solvable"; unsat, timeout and error are false."""
        return bool(self.solutions)

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None

    @property
    def n_solutions(self) -> int:
        return len(self.solutions)

    @property
    def time(self) -> float:
        return self.encode_time + self.solve_time


class SolutionCheckError(KakuroError):
    """A backend produced a grid that breaks the rules: a bug, reported instead of hidden."""


class Session(ABC):
    """One puzzle loaded into one solver, solved incrementally.

    ``next`` returns ``(status, solution)``; after a solution, ``block`` excludes that grid
    (over cell values only, never auxiliary variables) so the next call finds a different one.
    """

    encode_time: float = 0.0
    message: str = ""
    """Why the last ``next`` ended without an answer (an error, a timeout), when it says."""

    @abstractmethod
    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]: ...

    @abstractmethod
    def block(self, solution: Solution) -> None: ...

    def stats(self) -> dict[str, Any]:
        """Cumulative solver statistics for this session."""
        return {}

    def close(self) -> None:  # noqa: B027 - optional hook, most sessions hold nothing
        """Free solver resources."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        """``with backend.open(puzzle) as session:`` closes the solver however the block ends."""
        self.close()


@dataclass(frozen=True)
class NumberOption:
    """The values a numeric backend option takes: whole or real, finite, at least ``least``."""

    whole: bool = True
    least: float = 0

    def accepts(self, value: object) -> bool:
        kinds = (int,) if self.whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return False
        return math.isfinite(value) and value >= self.least

    def __str__(self) -> str:
        kind = "a whole number" if self.whole else "a number, finite and"
        return f"{kind} >= {self.least:g}"


class Backend(ABC):
    """A solver behind the common interface; subclasses live in the ``BACKENDS`` registry.

    Class attributes declare what differs between backends: the solver module and its pip
    extra, and the options.  Capabilities are not declared: every backend solves standard and
    cryptic puzzles, counts (sessions block grids) and takes a timeout.
    """

    name: ClassVar[str]
    doc: ClassVar[str] = ""
    extra: ClassVar[str | None] = None  # pip extra that installs the solver
    requires: ClassVar[str | None] = None
    """The module the solver is imported from (checked by :meth:`available`); None: none."""
    requires_program: ClassVar[str | None] = None
    """The program the solver runs (looked up on PATH by :meth:`available`); None: none."""
    optional: ClassVar[bool] = False
    """True for a backend the package can do without (an outside program that is neither a
    dependency nor a pip extra, such as ``minizinc``): its generic tests skip when
    ``requires_program`` is absent, where a missing core solver fails them."""
    accepted_options: ClassVar[dict[str, str]] = {}
    """Option name -> one-line doc; any other option is refused in one line."""
    open_options: ClassVar[str] = ""
    """One line naming a family of options passed through to the solver (every CP-SAT
    parameter, z3's dotted parameters), accepted by :meth:`accepts_option`; empty: none."""
    numeric_options: ClassVar[dict[str, NumberOption]] = {}
    """Declared options that take a number, with its kind and least value (``node_limit``)."""
    overruns_from: ClassVar[int | None] = None
    """White cells from which the solver may run past the time limit it is given (None: it
    never does).  A session with a deadline on such a puzzle runs in a child process that is
    killed when the deadline passes, so the timeout holds whatever the solver does; smaller
    puzzles stay in process (a child costs about 0.1 s).  cvc5: 200 (its preprocessing ignores
    ``tlimit-per``: 3.7 s past a 1 s limit on 316 cells, 25 s on 8,780; within 0.1 s up to
    221 cells); CP-SAT: its
    expansion of all-different before search ignores ``max_time_in_seconds`` (0.5-3.7 s
    over on 8,780 cells, 0.7 s on 5,584, none on 3,108)."""

    def overruns(self, puzzle: Puzzle) -> bool:
        """Whether a timed session on ``puzzle`` needs a child process (see ``overruns_from``)."""
        return self.overruns_from is not None and len(puzzle.whites) >= self.overruns_from

    def __new__(cls, *args: Any, **options: Any) -> Backend:
        """Check option values before any subclass ``__init__`` sees them, so ``node_limit=abc``
        is one line at construction, never a ``TypeError`` deep in a search."""
        cls.check_values(options)
        return super().__new__(cls)

    def __init__(self, **options: Any) -> None:
        self.check_options(options)
        self.options = options

    @classmethod
    def accepts_option(cls, key: str) -> bool:
        """Whether ``key`` is an option of this backend: a declared one, or (in backends that
        override this) a member of the solver's own parameter family."""
        return key in cls.accepted_options

    @classmethod
    def option_names(cls) -> list[str]:
        """Every option name known up front, for close-match suggestions."""
        return sorted(cls.accepted_options)

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Refuse options the backend does not take, naming the ones it does."""
        for key in options:
            if not cls.accepts_option(key):
                raise cls.unknown_option(key)

    @classmethod
    def check_values(cls, options: Mapping[str, Any]) -> None:
        """Refuse a value of a declared numeric option that is not a number of its kind in
        range (``None`` means unset)."""
        for key, kind in cls.numeric_options.items():
            value = options.get(key)
            if value is not None and not kind.accepts(value):
                raise OptionValueError(
                    f"backend {cls.name!r}: option {key} must be {kind}, got {value!r}"[:200]
                )

    @classmethod
    def unknown_option(cls, key: str) -> UnknownOptionError:
        """The one-line error for an option the backend does not take."""
        close = difflib.get_close_matches(key, cls.option_names(), n=3, cutoff=0.6)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        known = sorted(cls.accepted_options)
        takes = f"it takes: {', '.join(known)}" if known else "it takes none"
        if cls.open_options:
            takes += f"; and {cls.open_options}"
        return UnknownOptionError(
            f"backend {cls.name!r} does not take option {key!r}{hint}; {takes}"
        )

    @classmethod
    def solver_module(cls) -> Any:
        """The imported ``requires`` module, or MissingExtraError naming the pip extra."""
        assert cls.requires is not None, f"backend {cls.name!r} declares no solver module"
        return require(cls.requires, extra=cls.extra or "", feature=f"backend {cls.name!r}")

    @classmethod
    def available(cls) -> bool:
        """Whether the solver module (``requires``) can be imported here and the solver
        program (``requires_program``) is on PATH (never raises)."""
        if cls.requires_program is not None and shutil.which(cls.requires_program) is None:
            return False
        if cls.requires is None:
            return True
        try:
            import_module(cls.requires)
        except ImportError:
            return False
        return True

    @abstractmethod
    def _open(self, puzzle: Puzzle) -> Session:
        """Load the puzzle into the solver (encoding it if the backend needs a formula)."""

    def open(self, puzzle: Puzzle, *, deadline: float | None = None) -> Session:
        """A session on ``puzzle``.  ``deadline`` (a ``time.perf_counter()`` value) bounds the
        encoding: past it, building stops with :class:`~kakurolab.deadline.EncodingTimeout`."""
        start = time.perf_counter()
        with deadlines.deadline(deadline):
            if deadline is not None and self.overruns(puzzle) and ChildSession.possible():
                session: Session = ChildSession(self, puzzle, deadline)
            else:
                session = self._open(puzzle)
        if not session.encode_time:
            session.encode_time = time.perf_counter() - start
        return _CheckedSession(session, puzzle, self.name)

    def describe(self) -> dict[str, Any]:
        """Name and options, for result rows."""
        return {"backend": self.name, **{k: v for k, v in self.options.items() if v is not None}}


class _CheckedSession(Session):
    """Runs the rule checker on every solution a session produces."""

    def __init__(self, inner: Session, puzzle: Puzzle, backend: str) -> None:
        self.inner, self.puzzle, self.backend = inner, puzzle, backend
        self.encode_time = inner.encode_time

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        status, solution = self.inner.next(timeout)
        self.message = self.inner.message
        if solution is not None:
            problems = solution_problems(self.puzzle, solution)
            if problems:
                raise SolutionCheckError(
                    f"backend {self.backend!r} returned a wrong solution for puzzle "
                    f"{self.puzzle.id}: {problems[0]}"
                )
        return status, solution

    def block(self, solution: Solution) -> None:
        self.inner.block(solution)

    def stats(self) -> dict[str, Any]:
        return self.inner.stats()

    def close(self) -> None:
        self.inner.close()



GRACE = 0.25
"""Seconds a child session may answer after its time limit before it is killed (the
solver's own limit usually stops it first, and its answer is worth the short wait)."""


class ChildSession(Session):
    """A session of a backend that ignores its time limit, run in a child process.

    The child builds the formula and serves ``next``/``block``/``stats`` over a pipe; the
    parent waits for each answer no longer than the time left (plus :data:`GRACE`), then
    kills the child and answers ``unknown``.  One mechanism for every such backend: the
    backend only declares ``overruns_from``.  The child is forked (its copy of the
    backend and puzzle needs no pickling; only solutions cross the pipe).
    """

    @staticmethod
    def possible() -> bool:
        """Whether a child can be started here: a forking platform, not inside a daemonic
        process (which may not have children; its own parent holds the hard deadline)."""
        return (
            "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon
        )

    def __init__(self, backend: Backend, puzzle: Puzzle, deadline: float) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(backend, puzzle, deadline, child), daemon=True
        )
        self._process.start()
        child.close()
        self._backend = backend.name
        self._stats: dict[str, Any] = {}
        self._dead = False
        answer = self._ask(None, deadline - time.perf_counter())
        if answer is None:
            raise deadlines.EncodingTimeout
        self.encode_time = answer[1]

    def _ask(self, message: tuple[Any, ...] | None, wait: float | None) -> tuple[Any, ...] | None:
        """Send ``message`` (None: only listen) and return the reply, or None after killing the
        child when none came within ``wait`` seconds (None: no limit) and grace."""
        if self._dead:
            return None
        try:
            if message is not None:
                self._conn.send(message)
            if wait is not None and not self._conn.poll(max(0.0, wait) + GRACE):
                self.close()
                return None
            reply: tuple[Any, ...] = self._conn.recv()
        except (EOFError, OSError):
            code = self._process.exitcode
            self.close()
            raise KakuroError(
                f"backend {self._backend!r}: the solver process died (exit code {code})"
            ) from None
        if reply[0] == "error":
            raise reply[1]
        if reply[0] == "timeout":
            self.close()
            return None
        return reply

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        reply = self._ask(("next", timeout), timeout)
        if reply is None:
            return Status.UNKNOWN, None
        _, status, solution, self._stats = reply
        return status, solution

    def block(self, solution: Solution) -> None:
        if not self._dead:
            self._conn.send(("block", solution))

    def stats(self) -> dict[str, Any]:
        return self._stats

    def close(self) -> None:
        """Stop the child: ask it to leave, kill it if it does not (or is still solving)."""
        if self._dead:
            return
        self._dead = True
        with contextlib.suppress(OSError):
            self._conn.send(("close",))
        self._process.join(0.05)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._conn.close()


def _serve(backend: Backend, puzzle: Puzzle, deadline: float, conn: Any) -> None:
    """The child of a :class:`ChildSession`: build the session, then answer requests."""
    try:
        with deadlines.deadline(deadline):
            session = backend._open(puzzle)
    except deadlines.EncodingTimeout:
        conn.send(("timeout",))
        return
    except Exception as exc:  # any failure goes back to the parent, which raises it
        conn.send(("error", _portable(exc)))
        return
    conn.send(("open", session.encode_time))
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        try:
            if message[0] == "next":
                status, solution = session.next(message[1])
                conn.send(("ok", status, solution, session.stats()))
            elif message[0] == "block":
                session.block(message[1])
            else:
                session.close()
                return
        except Exception as exc:  # as above
            conn.send(("error", _portable(exc)))


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives pickling (the pipe), else a KakuroError with its message."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # an exception class whose arguments do not round-trip
        return KakuroError(str(exc))
    return exc
