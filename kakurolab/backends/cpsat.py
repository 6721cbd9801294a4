"""The OR-Tools CP-SAT peer: the textbook Sum + AllDifferent model, solved by CP-SAT.

It is the *reference* the other backends are measured against, so the model is deliberately
plain: one integer variable 1-9 per white cell, ``AllDifferent`` and ``sum == clue`` per run,
and for cryptic puzzles ten letter variables 0-9 (all different) that clues and shown letters
are tied to.  No digit-set tables or other Kakuro knowledge is added: what CP-SAT makes of
the plain model is the baseline.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from ..errors import KakuroError, require
from ..model import LETTERS, Cell, Puzzle, Solution
from .base import Backend, Session, Status

_FEATURE = "backend 'cpsat'"


def _cp_model() -> Any:
    return require("ortools.sat.python.cp_model", extra="peers", feature=_FEATURE)


def _int_option(options: dict[str, Any], key: str, default: int | None) -> int | None:
    value = options.get(key, default)
    if value is None:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise KakuroError(
            f"backend 'cpsat': option {key} must be an integer, got {value!r}"
        ) from None
    if number < 0:
        raise KakuroError(f"backend 'cpsat': option {key} must be >= 0, got {number}")
    return number


class CpSatBackend(Backend):
    name: ClassVar[str] = "cpsat"
    doc: ClassVar[str] = "OR-Tools CP-SAT on the plain Sum + AllDifferent model (peer reference)"
    extra: ClassVar[str | None] = "peers"
    supports_standard: ClassVar[bool] = True
    supports_cryptic: ClassVar[bool] = True
    supports_counting: ClassVar[bool] = True
    supports_timeout: ClassVar[bool] = True
    accepted_options: ClassVar[dict[str, str]] = {
        "num_workers": "CP-SAT search workers (default 1: one core, comparable timings)",
        "random_seed": "CP-SAT random seed (default: the solver's)",
        "max_time_in_seconds": "time limit per solve call, on top of any --timeout",
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.num_workers = _int_option(options, "num_workers", 1) or 1
        self.random_seed = _int_option(options, "random_seed", None)
        limit = options.get("max_time_in_seconds")
        try:
            self.max_time = None if limit is None else float(limit)
        except (TypeError, ValueError):
            raise KakuroError(
                f"backend 'cpsat': option max_time_in_seconds must be a number, got {limit!r}"
            ) from None
        # Import here, not in _open, so that the first puzzle's encode time is not the import.
        self._cp = _cp_model()

    @classmethod
    def available(cls) -> bool:
        try:
            _cp_model()
        except KakuroError:
            return False
        return True

    def _open(self, puzzle: Puzzle) -> Session:
        return CpSatSession(self, puzzle)


class CpSatSession(Session):
    """The model is built once here (the encode time); each ``next`` is one CP-SAT solve."""

    def __init__(self, backend: CpSatBackend, puzzle: Puzzle) -> None:
        start = time.perf_counter()
        self._backend = backend
        self._cp = backend._cp
        model = self._cp.CpModel()
        self.model = model
        self.cells: dict[Cell, Any] = {
            (r, c): model.new_int_var(1, 9, f"r{r + 1}c{c + 1}") for r, c in puzzle.whites
        }
        self.letters: dict[str, Any] = {}
        if puzzle.is_cryptic:
            self.letters = {ch: model.new_int_var(0, 9, ch) for ch in LETTERS}
            model.add_all_different(list(self.letters.values()))
            for cell, letter in puzzle.shown_letters.items():
                model.add(self.cells[cell] == self.letters[letter])
        for run in puzzle.runs:
            variables = [self.cells[cell] for cell in run.cells]
            model.add_all_different(variables)
            clue = run.clue
            if clue is None:
                continue
            if clue.value is not None:
                model.add(sum(variables) == clue.value)
            elif clue.letters is not None and len(clue.letters) == 1:
                model.add(sum(variables) == self.letters[clue.letters])
            elif clue.letters is not None:
                tens, units = (self.letters[ch] for ch in clue.letters)
                model.add(tens >= 1)
                model.add(sum(variables) == 10 * tens + units)
        self._order = list(self.cells)
        self._stats: dict[str, Any] = {"conflicts": 0, "branches": 0, "wall_time": 0.0, "solves": 0}
        self.encode_time = time.perf_counter() - start

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        cp = self._cp
        solver = cp.CpSolver()
        params = solver.parameters
        params.num_workers = self._backend.num_workers
        if self._backend.random_seed is not None:
            params.random_seed = self._backend.random_seed
        limits = [t for t in (timeout, self._backend.max_time) if t is not None]
        if limits:
            params.max_time_in_seconds = max(0.0, min(limits))
        code = solver.solve(self.model)
        self._stats["conflicts"] += solver.num_conflicts
        self._stats["branches"] += solver.num_branches
        self._stats["wall_time"] += solver.wall_time
        self._stats["solves"] += 1
        if code in (cp.OPTIMAL, cp.FEASIBLE):
            values = {cell: int(solver.value(var)) for cell, var in self.cells.items()}
            letters = {ch: int(solver.value(var)) for ch, var in self.letters.items()}
            return Status.SAT, Solution(values, letters)
        if code == cp.INFEASIBLE:
            return Status.UNSAT, None
        if code == cp.UNKNOWN:
            return Status.UNKNOWN, None
        return Status.ERROR, None

    def block(self, solution: Solution) -> None:
        """Forbid this grid: one negative table tuple over the cell variables only."""
        self.model.add_forbidden_assignments(
            [self.cells[cell] for cell in self._order],
            [tuple(solution.values[cell] for cell in self._order)],
        )

    def stats(self) -> dict[str, Any]:
        return {**self._stats, "wall_time": round(self._stats["wall_time"], 6)}
