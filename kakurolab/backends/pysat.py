"""The ``pysat`` backend: a CNF encoding (``kakurolab.encodings``) solved by a PySAT solver.

Incremental: counting blocks each found grid with one clause over the cells' own variables
(and letters), never auxiliaries, and asks again on the same solver.  An encoding that leaves
constraints out (``sum=lazy``) gets a counterexample-guided loop here: solve, add the
encoding's ``cuts`` of the model, solve again, until a model needs none.  Timeouts interrupt
the solver from a ``threading.Timer`` (``solve_limited`` + ``interrupt``); PySAT's CaDiCaL
cannot be interrupted, so there the session solves in conflict-budgeted slices and checks the
clock between them.
"""

from __future__ import annotations

import difflib
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import cache
from importlib import metadata
from itertools import repeat
from typing import Any, ClassVar

from .. import deadline as deadlines
from ..encodings import DEFAULT_PRESET, encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..errors import KakuroError, UnknownNameError
from ..gcpause import gc_paused
from ..model import Puzzle, Solution
from .session import Backend, Session, Status

DEFAULT_SOLVER = "cadical195"
SLICE_CONFLICTS = 1000
MAX_SLICE_CONFLICTS = 64000
MIN_SLICE_CONFLICTS = 50
LOAD_CHUNK = 20000


def _interruptible(solver: Any) -> bool:
    """Whether the PySAT solver implements ``interrupt`` (CaDiCaL does not)."""
    try:
        solver.clear_interrupt()
    except NotImplementedError:
        return False
    return True


def solve_until(
    solver: Any, deadline: float | None, *, interruptible: bool | None = None
) -> bool | None:
    """``solver.solve()`` stopped at ``deadline`` (a ``time.perf_counter()`` value): None when
    it passes first.  A timer interrupts a solver that implements ``interrupt``; CaDiCaL in
    PySAT does not, so it solves in conflict-budgeted calls of doubling size, the clock checked
    between them (learnt clauses, and a proof being written, carry over from call to call)."""
    if deadline is None:
        return bool(solver.solve())
    if deadline - time.perf_counter() <= 0:
        return None
    if interruptible is None:
        interruptible = _interruptible(solver)
    if interruptible:
        timer = threading.Timer(max(0.0, deadline - time.perf_counter()), solver.interrupt)
        timer.start()
        try:
            answer: bool | None = solver.solve_limited(expect_interrupt=True)
            return answer
        finally:
            timer.cancel()
            solver.clear_interrupt()
    budget = SLICE_CONFLICTS
    while True:
        solver.conf_budget(budget)
        start = time.perf_counter()
        answer = solver.solve_limited()
        if answer is not None:
            return answer
        now = time.perf_counter()
        if now >= deadline:
            return None
        budget = next_slice(budget, now - start, deadline - now)


def answered(solver: Any, answer: bool | None) -> tuple[Status, list[int] | None]:
    """A PySAT solve's answer (None: the deadline passed first) as a status, with the
    solver's model when it is SAT: the one reading of an answer both PySAT backends share."""
    if answer is None:
        return Status.UNKNOWN, None
    if not answer:
        return Status.UNSAT, None
    model = solver.get_model()
    assert model is not None  # a SAT answer always has a model
    return Status.SAT, model


def next_slice(budget: int, seconds: float, left: float) -> int:
    """The conflict budget of CaDiCaL's next slice: double the last one, but no more than
    half the conflicts the last slice's rate fits into the time ``left``.  Conflicts get
    slower as a search goes on (on an 8,780-cell grid 2,000 took 0.26 s and the next 4,000
    took 1.0 s), so a slice doubled blindly overran a 1 s timeout by a second."""
    fits = int(0.5 * left * budget / seconds) if seconds > 0 else budget * 2
    return max(MIN_SLICE_CONFLICTS, min(budget * 2, MAX_SLICE_CONFLICTS, fits))


@cache
def _aliases() -> dict[str, str]:
    """Every name PySAT's ``SolverNames`` lists -> the canonical name (its attribute).

    The attribute itself counts as a name even where PySAT leaves it out of its own alias
    tuple (``cryptosat``, ``minisatgh``)."""
    from pysat.solvers import SolverNames

    out: dict[str, str] = {}
    for canonical, names in vars(SolverNames).items():
        if isinstance(names, tuple):
            out[canonical] = canonical
            out.update({alias: canonical for alias in names})
    return out


@cache
def solver_names() -> tuple[str, ...]:
    """Every solver name PySAT knows (canonical names, not aliases)."""
    return tuple(sorted(set(_aliases().values())))


def check_solver(name: str) -> str:
    """The canonical solver name for ``name`` (any PySAT alias) or an UnknownNameError that
    lists the canonical names."""
    canonical = _aliases().get(name.strip().lower())
    if canonical is None:
        close = difflib.get_close_matches(name.lower(), list(_aliases()), n=1)
        hint = f" (did you mean {_aliases()[close[0]]}?)" if close else ""
        raise UnknownNameError("pysat solver", name, solver_names(), hint=hint)
    return canonical


def pysat_name(canonical: str) -> str:
    """A name ``pysat.solvers.Solver`` accepts for a canonical one: the canonical name when
    PySAT lists it among its aliases, else its first alias (``cryptosat`` -> ``cms``)."""
    from pysat.solvers import SolverNames

    names = getattr(SolverNames, canonical)
    return canonical if canonical in names else names[0]


@cache
def versions() -> dict[str, str]:
    """Versions of the solver packages, recorded with every result."""
    out = {}
    for dist in ("python-sat", "z3-solver"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


DIRECT_ADD = {
    **{name: ("cadical", f"{name}_add_cl") for name in ("cadical103", "cadical153", "cadical195")},
    **{name: ("minisat", f"{name}_add_cl") for name in ("minisat22", "minisatgh")},
    **{name: ("maplesat", f"{name}_add_cl") for name in ("maplechrono", "maplecm", "maplesat")},
    "glucose3": ("glucose", "glucose3_add_cl"),
    "glucose4": ("glucose", "glucose41_add_cl"),
    "glucose42": ("glucose", "glucose421_add_cl"),
    "mergesat3": ("mergesat", "mergesat3_add_cl"),
}
"""Solvers whose clauses :func:`_load` hands straight to PySAT's C extension: solver name ->
(the handle's attribute on PySAT's solver object, the ``pysolvers`` function adding one
clause).  ``append_formula`` makes two Python calls and a type check per clause around that
same C call, about a third of the load time of a PE424 puzzle's 5,000 clauses.  The C call's
result (False: the formula is already refuted) is not needed: each of these solvers' own
solve starts by answering False for a refuted formula."""


def _clause_adder(solver: Any, name: str) -> Callable[[list[list[int]]], Any]:
    """The fastest way to add a list of clauses to ``solver`` (a ``pysat.solvers.Solver``
    named ``name``): the C function itself when :data:`DIRECT_ADD` knows the solver and this
    PySAT has it, else ``append_formula``."""
    found = DIRECT_ADD.get(name)
    handle = getattr(getattr(solver, "solver", None), found[0], None) if found else None
    if found is None or handle is None:
        return solver.append_formula
    try:
        import pysolvers
    except ImportError:
        return solver.append_formula
    add = getattr(pysolvers, found[1], None)
    if add is None:
        return solver.append_formula

    def append(clauses: list[list[int]]) -> None:
        deque(map(add, repeat(handle), clauses), maxlen=0)  # consumed in C, no loop here

    return append


def _load(solver: Any, clauses: list[list[int]], name: str = "") -> None:
    """Add the clauses in chunks, checking the deadline between them: loading a large CNF
    into the solver takes as long as encoding it, and a timeout covers both.  The garbage
    collector is paused meanwhile, as while encoding (:mod:`kakurolab.gcpause`)."""
    append = _clause_adder(solver, name)
    with gc_paused():
        for start in range(0, len(clauses), LOAD_CHUNK):
            deadlines.check()
            append(clauses[start : start + LOAD_CHUNK])


class PySATSession(Session):
    def __init__(self, encoding: CNFEncoding, solver: str) -> None:
        from pysat.solvers import Solver

        self.enc = encoding
        self.encode_time = encoding.encode_time
        self.solver_name = solver
        try:
            self.solver = Solver(name=pysat_name(solver))
        except Exception as exc:  # a known name whose library is not built in
            raise KakuroError(f"pysat solver {solver!r} cannot be started: {exc}") from None
        try:
            _load(self.solver, encoding.clauses, solver)
        except BaseException:  # the deadline passed while loading: free the solver
            self.solver.delete()
            raise
        self.cuts = 0
        self.calls = 0
        self.interruptible = _interruptible(self.solver)
        # Kissat in PySAT cannot take clauses after a solve (it aborts the process), so blocking
        # and lazy cuts are collected and the solver is rebuilt before its next call.
        self.incremental = not solver.startswith("kissat")
        if self.incremental:  # the solver holds the clauses; decoding needs none of them
            encoding.release()
        self.added: list[list[int]] = []
        self.stale = False

    def _add(self, clause: list[int]) -> None:
        if self.incremental:
            self.solver.add_clause(clause)
        else:
            self.added.append(clause)
            self.stale = True

    def _rebuild(self) -> None:
        from pysat.solvers import Solver

        self.solver.delete()
        self.solver = Solver(name=pysat_name(self.solver_name), bootstrap_with=self.enc.clauses)
        self.solver.append_formula(self.added)
        self.stale = False

    def _solve(self, deadline: float | None) -> bool | None:
        self.calls += 1
        if self.stale:
            self._rebuild()
        return solve_until(self.solver, deadline, interruptible=self.interruptible)

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            answer = self._solve(deadline)  # first: it may rebuild self.solver
            status, model = answered(self.solver, answer)
            if model is None:
                return status, None
            solution = self.enc.decode(model)
            cuts = self.enc.cuts(solution, model)
            if not cuts:
                return Status.SAT, solution
            for cut in cuts:
                self._add(cut)
            self.cuts += len(cuts)

    def block(self, solution: Solution) -> None:
        self._add([-lit for lit in self.enc.solution_lits(solution)])

    def stats(self) -> dict[str, Any]:
        try:
            stats: dict[str, Any] = dict(self.solver.accum_stats() or {})
        except NotImplementedError:  # Kissat exposes no statistics through PySAT
            stats = {}
        stats.update(self.enc.stats())
        stats["solve_calls"] = self.calls
        if self.enc.lazy:
            stats["lazy_cuts"] = self.cuts
        if self.enc.notes:
            stats["notes"] = list(self.enc.notes)
        stats["encoding"] = str(self.enc.spec)
        stats["solver"] = self.solver_name
        stats["versions"] = versions()
        return stats

    def close(self) -> None:
        self.solver.delete()


class PySATBackend(Backend):
    name = "pysat"
    doc = "CNF encodings (kakuro encodings) solved by a PySAT SAT solver (default cadical195)"
    extra = None
    requires = "pysat.solvers"
    accepted_options: ClassVar[dict[str, str]] = {
        "encoding": f"encoding preset or spec (kakuro encodings; default {DEFAULT_PRESET})",
        "solver": f"PySAT solver name (default {DEFAULT_SOLVER}; e.g. glucose4, minisat22)",
    }

    def __init__(self, encoding: str | None = None, solver: str | None = None, **options: Any):
        self.check_options(options)
        spec = parse_spec(encoding or DEFAULT_PRESET)
        if spec.family != "cnf":
            raise KakuroError(f"the pysat backend needs a CNF encoding, not {spec}")
        self.spec = spec
        self.solver = check_solver(solver or DEFAULT_SOLVER)
        super().__init__(encoding=str(spec), solver=self.solver)

    def _open(self, puzzle: Puzzle) -> Session:
        # One pause over building, loading and releasing the clauses: freed before the
        # collector runs again, the clause lists are never walked by it.
        with gc_paused():
            enc = encode(puzzle, self.spec)
            assert isinstance(enc, CNFEncoding)
            return PySATSession(enc, self.solver)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "versions": versions()}
