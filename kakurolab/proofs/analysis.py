"""Analysis of CNF encodings, above encodings and solvers: propagation strength and counts.

Propagation strength: what unit propagation alone decides, with no decision at all.

:func:`unit_closure` is a small two-watched-literal propagator in pure Python, run from the
root-level units (PySAT's ``propagate()`` leaves those out, so it cannot answer this by
itself; :func:`pysat_closure` reproduces the closure with a real solver for cross-checks).
A cell counts as *fixed* when exactly one of its allowed digits is still consistent with the
closure.  Strong encodings (table, mdd) fix more cells than decomposed ones (pb + alldiff).

:func:`exact_count` counts solutions with the Ganak model counter (extra ``count``), projected
onto the grid variables (cells' own variables and letters): every grid counts once however
many ways the encoding's auxiliaries can be set.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence

from ..encodings import Spec, encode
from ..encodings.cnf import CNFEncoding
from ..errors import KakuroError, require
from ..model import Cell, Puzzle

__all__ = [
    "CountTimeout",
    "candidates",
    "exact_count",
    "pysat_closure",
    "unit_closure",
    "up_fixed_cells",
]


def unit_closure(clauses: Sequence[Sequence[int]]) -> set[int] | None:
    """Every literal unit propagation derives from the clauses (None on a conflict)."""
    value: dict[int, bool] = {}
    watches: dict[int, list[list[int]]] = {}
    queue: list[int] = []

    def assign(lit: int) -> bool:
        var, val = abs(lit), lit > 0
        old = value.get(var)
        if old is not None:
            return old == val
        value[var] = val
        queue.append(lit)
        return True

    for clause in clauses:
        if not clause:
            return None
        if len(clause) == 1:
            if not assign(clause[0]):
                return None
            continue
        lits = list(clause)
        watches.setdefault(-lits[0], []).append(lits)
        watches.setdefault(-lits[1], []).append(lits)

    def is_false(lit: int) -> bool:
        val = value.get(abs(lit))
        return val is not None and val != (lit > 0)

    def is_true(lit: int) -> bool:
        val = value.get(abs(lit))
        return val is not None and val == (lit > 0)

    head = 0
    while head < len(queue):
        lit = queue[head]
        head += 1
        watching = watches.get(lit)  # clauses that watch -lit, which just became false
        if not watching:
            continue
        keep: list[list[int]] = []
        for i, clause in enumerate(watching):
            if clause[0] == -lit:  # make clause[1] the false watch
                clause[0], clause[1] = clause[1], clause[0]
            if is_true(clause[0]):
                keep.append(clause)
                continue
            for k in range(2, len(clause)):
                if not is_false(clause[k]):
                    clause[1], clause[k] = clause[k], clause[1]
                    watches.setdefault(-clause[1], []).append(clause)
                    break
            else:
                keep.append(clause)
                if not assign(clause[0]):
                    keep.extend(watching[i + 1 :])
                    watches[lit] = keep
                    return None
        watches[lit] = keep
    return {var if val else -var for var, val in value.items()}


def pysat_closure(clauses: Sequence[Sequence[int]], solver: str = "glucose4") -> set[int] | None:
    """The same closure by a PySAT solver: units as assumptions, then ``propagate``."""
    from pysat.solvers import Solver

    units = [c[0] for c in clauses if len(c) == 1]
    if any(not c for c in clauses):
        return None
    with Solver(name=solver, bootstrap_with=[c for c in clauses if len(c) > 1]) as s:
        ok, lits = s.propagate(assumptions=units)
    if not ok:
        return None
    return set(lits) | set(units)


def up_fixed_cells(puzzle: Puzzle, spec: str | Spec) -> tuple[int, int]:
    """How many white cells unit propagation fixes under the encoding: ``(fixed, total)``.

    A root-level conflict proves the puzzle unsatisfiable; every cell then counts as fixed.
    Lazy sums contribute no clauses, so they fix nothing beyond the rest of the encoding.
    """
    enc = encode(puzzle, spec)
    if not isinstance(enc, CNFEncoding):
        raise TypeError("up_fixed_cells needs a CNF encoding")
    total = len(puzzle.whites)
    closure = unit_closure(enc.clauses)
    if closure is None:
        return total, total
    return sum(1 for cell in puzzle.whites if len(candidates(enc, cell, closure)) == 1), total


def candidates(enc: CNFEncoding, cell: Cell, closure: set[int]) -> list[int]:
    """The digits of ``cell`` that no derived literal rules out."""
    cells = enc.cells
    return [
        d
        for d in cells.allowed[cell]
        if not any(-lit in closure for lit in cells.value_lits(cell, d))
    ]


class CountTimeout(Exception):
    """The exact count did not finish within its timeout (its process was killed)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"exact count stopped after {seconds:g} s (--timeout); pyganak cannot be "
            "interrupted, so its process was killed"
        )
        self.seconds = seconds


def exact_count(puzzle: Puzzle, spec: str | Spec = "combo", timeout: float | None = None) -> int:
    """The number of solutions of the puzzle, by projected model counting over the CNF.

    With a ``timeout`` the count runs in a forked child that is killed at the deadline
    (pyganak takes no time limit and holds the interpreter while it counts), and
    :class:`CountTimeout` says so; without one it runs here.
    """
    require("pyganak", extra="count", feature="exact counting")  # the message, here
    if timeout is None or not hasattr(os, "fork"):
        return _count(puzzle, spec)
    return _in_child(lambda: _count(puzzle, spec), timeout)


def _count(puzzle: Puzzle, spec: str | Spec) -> int:
    pyganak = require("pyganak", extra="count", feature="exact counting")
    enc = encode(puzzle, spec)
    if not isinstance(enc, CNFEncoding):
        raise KakuroError(f"exact counting needs a CNF encoding, not {enc.spec}")
    if enc.lazy:
        raise KakuroError("exact counting needs every sum in the CNF; sum=lazy leaves them out")
    if any(not clause for clause in enc.clauses):
        return 0
    counter = pyganak.Counter()  # type: ignore[attr-defined]
    counter.new_vars(enc.n_vars)
    counter.add_clauses(enc.clauses)
    counter.set_sampling_set(enc.grid_vars)
    return int(counter.count())


_PR_SET_PDEATHSIG = 1


def _in_child(work: Callable[[], int], timeout: float) -> int:
    """``work()`` in a forked child, killed when ``timeout`` seconds pass.

    The child sends back ``("ok", value)`` or ``("error", message)`` over a pipe; a
    KakuroError in the child is raised again here with its message.  On Linux the child
    dies with this process (``PR_SET_PDEATHSIG``), so a killed command leaves no counter.
    """
    import pickle
    import select
    import signal
    import time

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            os.close(read_end)
            _die_with_parent()
            try:
                answer: tuple[str, object] = ("ok", work())
            except KakuroError as exc:
                answer = ("error", str(exc))
            except BaseException as exc:
                answer = ("error", f"exact count failed: {type(exc).__name__}: {exc}")
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(answer))
        finally:
            os._exit(0)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    data = bytearray()
    finished = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CountTimeout(timeout)
            ready, _, _ = select.select([read_end], [], [], left)
            if ready:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    break
                data += chunk
        _, status = os.waitpid(pid, 0)
        finished = True
    finally:
        os.close(read_end)
        if not finished:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if not data:
        raise KakuroError(f"exact count failed: its process died ({_how(status)})")
    kind, value = pickle.loads(bytes(data))
    if kind == "error":
        raise KakuroError(str(value))
    return int(value)


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}, out of memory?"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _die_with_parent() -> None:
    """Linux: the kernel kills this child when its parent dies (elsewhere: best effort)."""
    import ctypes
    import signal
    import sys

    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
