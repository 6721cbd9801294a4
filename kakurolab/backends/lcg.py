"""The ``lcg`` backend: lazy clause generation, CaDiCaL with a Kakuro run propagator.

CaDiCaL 1.9.5 (PySAT's ``cadical195``) searches over a small CNF *base*: one variable per
cell and digit the root fixpoint left (the native kernel's, computed once before search and
entered as the domains themselves, so a settled cell is one unit), exactly-one per cell, and
for cryptic puzzles the letters (a variable per letter and digit left), their bijection and
the shown letters tied to their cells.  The run constraints stay out of the CNF: the run
propagator of :mod:`.lcg_engine`, attached through IPASIR-UP, revises them with the native
kernel's tables and explains every removal and every wiped-out run as a clause, which
CaDiCaL learns from like any other.  ``alldiff=pairwise`` keeps each run's all-different
as binary clauses too, so CaDiCaL propagates it without a callback.

Counting and uniqueness block each grid over the open cells' literals (``block``), as the
``pysat`` backend does.  Timeouts: PySAT's CaDiCaL cannot be interrupted, so a session
solves in conflict-budgeted slices and checks the clock between them, as
:func:`.pysat.solve_until` does but from smaller slices (:data:`FIRST_SLICE`).

Proofs: CaDiCaL would write the propagator's clauses into a DRAT proof as external (input)
clauses, which a checker takes on trust, so an ``lcg`` run certifies nothing by itself;
``kakuro certify`` stays with pure CNF encodings (docs/lcg.md).
"""

from __future__ import annotations

import time
from collections import deque
from itertools import repeat
from typing import Any, ClassVar

from .. import deadline
from ..errors import OptionValueError
from ..model import LETTERS, Puzzle, Solution
from . import Backend, Session, Status

ALLDIFF = ("none", "pairwise")
"""The ``alldiff`` option: whether each run's all-different is also in the CNF base."""
DEFAULT_ALLDIFF = "pairwise"
PRESOLVES = ("root", "none")
"""The ``pre`` option: the root fixpoint before search (the domains CaDiCaL starts from), or
every digit open (the engine then does the root's work through callbacks: for tests)."""
CHUNK = 500
"""Slots, runs or (times 40) clauses handled between two deadline checks while building."""
FIRST_SLICE = 50
"""Conflicts of the first budgeted slice under a deadline: a conflict here costs Python
callbacks (the first thousand took 3.1 s on a loose 40x40 grid, cold caches), so the slices
start small and grow by :func:`.pysat.next_slice`, which fits them into the time left."""
CONFIGURE = {"chrono": 0}
"""CaDiCaL options: no chronological backtracking, so every literal is assigned at the
current decision level and the engine's undo per level is exact."""


class BaseCNF:
    """The CNF base of one puzzle (see the module docstring) and its variable map.

    ``base`` is the root fixpoint (a mask per slot: cells, then letters; None when the clues
    contradict each other), ``var_of[slot][bit]`` the variable of a slot's digit (0: none).
    """

    def __init__(self, puzzle: Puzzle, alldiff: str, pre: str = "root") -> None:
        from ..propagation import Propagator

        self.puzzle = puzzle
        self.propagator = propagator = Propagator(puzzle, cut_sums=not puzzle.is_cryptic)
        self.n_cells = propagator.n_cells
        root = propagator.root() if pre == "root" else list(propagator.initial)
        self.refuted = root is None
        self.base: list[int] = root if root is not None else list(propagator.initial)
        self.var_of: list[list[int]] = []
        self.clauses: list[list[int]] = []
        self.n_vars = 0
        self.settled = root is not None and all(not m & (m - 1) for m in root)
        """Whether the root decided every slot: then no formula is needed (the session
        answers the grid, see :class:`LcgSession`)."""
        if root is None or self.settled:
            return
        top = 0
        for mask in self.base:
            row = [0] * 10
            for i in range(10):
                if mask >> i & 1:
                    top += 1
                    row[i] = top
            self.var_of.append(row)
        self.n_vars = top
        clauses = self.clauses
        for k, row in enumerate(self.var_of):
            if not k % CHUNK:
                deadline.check()  # a timeout covers building the base too
            _exactly_one([v for v in row if v], clauses)
        if propagator.cryptic:
            self._letters(propagator.base)
        if alldiff == "pairwise":
            var_of = self.var_of
            for k, members in enumerate(propagator.run_cells):
                if not k % CHUNK:
                    deadline.check()
                for i in range(9):
                    lits = [var_of[c][i] for c in members if var_of[c][i]]
                    if len(lits) > 1:
                        clauses += _pairwise(lits)

    def _letters(self, first: int) -> None:
        """The bijection (exactly one digit per letter is in the rows; here exactly one
        letter per digit) and each shown letter tied to its cell."""
        var_of, clauses = self.var_of, self.clauses
        letters = range(first, first + len(LETTERS))
        for d in range(10):
            if any(self.base[s] == 1 << d for s in letters):
                continue  # a decided letter holds it; the root took it from the others
            _exactly_one([var_of[s][d] for s in letters if var_of[s][d]], clauses)
        index = {cell: i for i, cell in enumerate(self.puzzle.whites)}
        for cell, ch in self.puzzle.shown_letters.items():
            c, s = index[cell], first + LETTERS.index(ch)
            if var_of[s][0]:
                clauses.append([-var_of[s][0]])  # white cells hold 1-9
            for d in range(1, 10):
                x, y = var_of[c][d - 1], var_of[s][d]
                if x and y:
                    clauses += [[-x, y], [x, -y]]
                elif x or y:
                    clauses.append([-(x or y)])

    def decode(self, model: list[int]) -> Solution:
        """The grid (and letters) of a model: each slot's digit whose variable is true (a
        settled base needs no model)."""
        digits = []
        for slot, mask in enumerate(self.base):
            if not mask & (mask - 1):
                digits.append(mask.bit_length() - 1)
                continue
            row = self.var_of[slot]
            digits.append(next(i for i in range(10) if row[i] and model[row[i] - 1] > 0))
        n = self.n_cells
        return Solution(
            dict(zip(self.puzzle.whites, [d + 1 for d in digits[:n]], strict=True)),
            dict(zip(LETTERS, digits[n:], strict=True)) if self.puzzle.is_cryptic else {},
        )

    def blocking(self, solution: Solution) -> list[int]:
        """The clause excluding the grid of ``solution`` over the cells the root left open
        (empty when the root decided every cell: then no other grid exists)."""
        out = []
        for cell, mask, row in zip(self.puzzle.whites, self.base, self.var_of, strict=False):
            if mask & (mask - 1):
                v = row[solution.values[cell] - 1]
                if v:
                    out.append(-v)
        return out


_PAIRS = [[(i, j) for i in range(k) for j in range(i + 1, k)] for k in range(11)]


def _pairwise(lits: list[int]) -> list[list[int]]:
    """At most one of ``lits`` (at most ten), as binary clauses."""
    return [[-lits[i], -lits[j]] for i, j in _PAIRS[len(lits)]]


def _exactly_one(lits: list[int], clauses: list[list[int]]) -> None:
    clauses.append(lits)
    if len(lits) > 1:
        clauses += _pairwise(lits)


def _clause_adder(solver: Any) -> Any:
    """Add a list of clauses to PySAT's CaDiCaL 1.9.5: its C function mapped over the list
    when this PySAT has it (:data:`.pysat.DIRECT_ADD`: ``append_formula`` costs two Python
    calls per clause, most of loading a cryptic puzzle's base), else ``append_formula``."""
    from .pysat import DIRECT_ADD

    attribute, function = DIRECT_ADD["cadical195"]
    handle = getattr(getattr(solver, "solver", None), attribute, None)
    try:
        import pysolvers
    except ImportError:
        return solver.append_formula
    add = getattr(pysolvers, function, None)
    if handle is None or add is None:
        return solver.append_formula

    def append(clauses: list[list[int]]) -> None:
        deque(map(add, repeat(handle), clauses), maxlen=0)  # consumed in C

    return append


class LcgSession(Session):
    """One puzzle in one CaDiCaL with the run engine attached."""

    def __init__(self, puzzle: Puzzle, alldiff: str, pre: str = "root") -> None:
        from pysat.solvers import Solver

        from .lcg_engine import RunEngine

        start = time.perf_counter()
        self.cnf = cnf = BaseCNF(puzzle, alldiff, pre)
        self.calls = 0
        self.solver: Any = None
        self.engine: RunEngine | None = None
        self.settled: Solution | None = None
        """The grid when the root decided every cell and letter: the kernel revised each
        run exactly, so it is the one solution, answered without starting CaDiCaL."""
        if cnf.refuted:
            self.encode_time = time.perf_counter() - start
            return
        if cnf.settled:
            self.settled = cnf.decode([])
            self.encode_time = time.perf_counter() - start
            return
        self.solver = solver = Solver(name="cadical195")
        solver.configure(CONFIGURE)
        self.engine = engine = RunEngine(
            cnf.propagator, cnf.base, cnf.var_of, cnf.n_vars, fixpoint=pre == "root"
        )
        try:
            solver.connect_propagator(engine)
            engine.setup_observe(solver)
            add = _clause_adder(solver)
            clauses, step = cnf.clauses, CHUNK * 40
            for at in range(0, len(clauses), step):
                deadline.check()
                add(clauses[at : at + step])
        except BaseException:  # the deadline passed while loading: free the solver
            self.close()
            raise
        self.encode_time = time.perf_counter() - start

    def _solve(self, deadline: float | None) -> bool | None:
        """Solve, stopped at ``deadline``: None when it passes first (CaDiCaL cannot be
        interrupted, so conflict-budgeted slices with the clock read between them)."""
        from .pysat import next_slice

        solver = self.solver
        if deadline is None:
            return bool(solver.solve())
        budget = FIRST_SLICE
        while time.perf_counter() < deadline:
            solver.conf_budget(budget)
            start = time.perf_counter()
            answer: bool | None = solver.solve_limited()
            if answer is not None:
                return answer
            now = time.perf_counter()
            budget = next_slice(budget, now - start, deadline - now)
        return None

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        if self.settled is not None:
            return Status.SAT, self.settled
        if self.solver is None:
            return Status.UNSAT, None
        from .pysat import answered

        deadline = None if timeout is None else time.perf_counter() + timeout
        self.calls += 1
        answer = self._solve(deadline)
        status, model = answered(self.solver, answer)
        return status, None if model is None else self.cnf.decode(model)

    def block(self, solution: Solution) -> None:
        if self.settled is not None:
            if dict(solution.values) == dict(self.settled.values):
                self.settled = None  # no solver: every later call answers UNSAT
            return
        if self.solver is not None:
            self.solver.add_clause(self.cnf.blocking(solution))

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variables": self.cnf.n_vars,
            "clauses": len(self.cnf.clauses),
            "solve_calls": self.calls,
            "open_cells": sum(1 for m in self.cnf.base[: self.cnf.n_cells] if m & (m - 1)),
        }
        if self.solver is not None:
            out.update(self.solver.accum_stats() or {})
        if self.engine is not None:
            counts = self.engine.stats
            out.update(
                notifications=self.engine.notified,
                propagate_calls=counts.propagate_calls,
                revisions=counts.revisions,
                propagated=counts.propagated,
                reasons=counts.reasons,
                reason_literals=counts.reason_literals,
                external_conflicts=counts.conflicts,
                backtracks=counts.backtracks,
                model_checks=counts.model_checks,
            )
        return out

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class LcgBackend(Backend):
    name = "lcg"
    doc = (
        "lazy clause generation: CaDiCaL 1.9.5 over cell digits, Kakuro runs by an IPASIR-UP "
        "propagator with the native kernel's tables, every deduction explained as a clause"
    )
    extra = None
    requires = "pysat.engines"
    accepted_options: ClassVar[dict[str, str]] = {
        "alldiff": f"each run's all-different also as CNF: {' or '.join(ALLDIFF)} "
        f"(default {DEFAULT_ALLDIFF})",
        "pre": "root (the native root fixpoint narrows the domains before search, the "
        "default) or none (every digit open: the engine propagates the root too)",
    }

    def __init__(
        self, *, alldiff: str = DEFAULT_ALLDIFF, pre: str = "root", **options: Any
    ) -> None:
        super().__init__(**options)
        for key, value, allowed in (("alldiff", alldiff, ALLDIFF), ("pre", pre, PRESOLVES)):
            if value not in allowed:
                raise OptionValueError(
                    f"lcg {key} must be one of {', '.join(allowed)}, got {value!r}"
                )
        self.alldiff, self.pre = alldiff, pre
        self.options = {"alldiff": alldiff, "pre": pre}

    def _open(self, puzzle: Puzzle) -> Session:
        return LcgSession(puzzle, self.alldiff, self.pre)
