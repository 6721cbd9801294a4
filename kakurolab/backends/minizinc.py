"""The ``minizinc`` backend: the project's MiniZinc export solved by the ``minizinc`` program.

The puzzle is written as the ``.mzn`` of :mod:`kakurolab.formats` in one of the CP models of
:data:`~kakurolab.formats.cpmodels.CP_MODELS` (``sum``: alldifferent plus a linear sum per
run; ``table``: a table per run), and MiniZinc's CP solver (Gecode by default) solves it.  So
the model ladder of Simonis is measured with the same solver on the same files a user gets
from ``kakuro convert --to mzn --model NAME``.

Each run asks for ``batch`` solutions (default 2) with MiniZinc's own time limit, so the
uniqueness task costs one run: two grids, or one and a complete search.  When more are asked
for, the next run asks for twice as many and excludes the grids blocked so far (a constraint
per grid, cell values only).  The program runs in its own process group, killed as a whole
when the call ends or its deadline passes (plus :data:`GRACE`); it dies with the process that
runs it.  Its grids are read back through the format's solution reader and pass the rule
checker like every backend's.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from ..errors import KakuroError
from ..formats import dumps, solutions_from_text
from ..formats.cpmodels import CP_MODELS, DEFAULT_MODEL, get_model
from ..lifetimes import run_program
from ..model import Puzzle, Solution
from .session import Backend, NumberOption, Session, Status

PROGRAM = "minizinc"
DEFAULT_SOLVER = "gecode"
DEFAULT_BATCH = 2
GRACE = 0.5
"""Seconds past its deadline before the program is killed: MiniZinc's own ``--time-limit``
(compilation included) usually stops it first, and an answer printed at the limit is worth
a short wait; but it does not always keep to it (2.4 s for a 1 s limit on the 8,780-cell
grid of tests/test_deadlines.py on a loaded machine, where a 2 s grace let it run on), and
a backend must stop about when its timeout says."""
SEPARATOR = "%%% kakurolab: end of a solution"
COMPLETE = "%%% kakurolab: search complete"
"""MiniZinc's solution separator and search-complete line, renamed (``--soln-sep``,
``--search-complete-msg``): its own ``----------`` is also the row of a 10-column grid whose
first row holds no white cell."""
ENDINGS = {
    "=====UNSATISFIABLE=====": Status.UNSAT,
    "=====UNKNOWN=====": Status.UNKNOWN,
    "=====ERROR=====": Status.ERROR,
}
"""MiniZinc's closing lines other than :data:`COMPLETE` (all solutions printed)."""
_STAT = re.compile(r"^%%%mzn-stat:\s*(\w+)=(\S+)\s*$", re.M)
STATS = {"flatTime": "flatten_time", "solveTime": "solver_time", "nodes": "nodes",
         "failures": "failures", "propagations": "propagations"}
"""MiniZinc's statistics (``-s``) kept, summed over runs, under the readable keys."""


class MinizincError(KakuroError):
    """The minizinc program failed or answered in a way that cannot be read."""


class MinizincSession(Session):
    def __init__(self, puzzle: Puzzle, backend: MinizincBackend) -> None:
        start = time.perf_counter()
        self.puzzle, self.backend = puzzle, backend
        self.text = dumps([puzzle], "mzn", model=backend.model)
        self.dir = Path(tempfile.mkdtemp(prefix="kakurolab-minizinc-"))
        self.encode_time = time.perf_counter() - start
        self.blocked: list[Solution] = []
        self.pending: list[Solution] = []
        self.exhausted = False
        """The last run searched the whole space left after the grids blocked then."""
        self.calls = 0
        self.ask = backend.batch
        """Solutions the next run asks for: ``batch``, doubled after each run (counting many
        grids costs a logarithmic number of runs, each compiling the model again)."""
        self.totals: dict[str, float] = {}

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        self.message = ""
        self.pending = [s for s in self.pending if not self._is_blocked(s)]
        if self.pending:
            return Status.SAT, self.pending.pop(0)
        if self.exhausted:
            return Status.UNSAT, None
        try:
            status, found = self._run(timeout)
        except MinizincError as exc:
            self.message = f"{PROGRAM}: {exc}"
            return Status.ERROR, None
        self.pending = [s for s in found if not self._is_blocked(s)]
        if self.pending:
            return Status.SAT, self.pending.pop(0)
        if status is Status.UNKNOWN:
            self.message = "timeout while solving"
        return (Status.UNSAT if self.exhausted else status), None

    def _is_blocked(self, solution: Solution) -> bool:
        return any(solution.values == grid.values for grid in self.blocked)

    def block(self, solution: Solution) -> None:
        self.blocked.append(solution)

    def _model(self) -> Path:
        """The model with one constraint per blocked grid (its cell values only)."""
        path = self.dir / "puzzle.mzn"
        blocks = [
            "constraint not ("
            + " /\\ ".join(f"x[{r + 1}, {c + 1}] = {v}" for (r, c), v in sorted(s.values.items()))
            + ");\n"
            for s in self.blocked
        ]
        path.write_text(self.text + "".join(blocks))
        return path

    def _run(self, timeout: float | None) -> tuple[Status, list[Solution]]:
        """One program run: its solutions, and SAT, UNSAT (none at all), or UNKNOWN (stopped
        by the time limit); sets :attr:`exhausted` when the search was complete."""
        if timeout is not None and timeout <= 0:
            return Status.UNKNOWN, []
        self.calls += 1
        argv = [self.backend.program, "--solver", self.backend.solver, "-s",
                "-n", str(self.ask), "--soln-sep", SEPARATOR,
                "--search-complete-msg", COMPLETE]
        if timeout is not None:
            argv += ["--time-limit", str(max(1, int(timeout * 1000)))]
        argv.append(str(self._model()))
        self.ask *= 2
        out, err = self.dir / "stdout.txt", self.dir / "stderr.txt"
        code = _run_program(argv, out, err, None if timeout is None else timeout + GRACE)
        stdout = out.read_text(errors="replace")
        for name, value in _STAT.findall(stdout):
            if name in STATS:
                with contextlib.suppress(ValueError):
                    key = STATS[name]
                    self.totals[key] = self.totals.get(key, 0.0) + float(value)
        if code is None:
            return Status.UNKNOWN, self._solutions(stdout)
        if code != 0 or "=====ERROR=====" in stdout:
            lines = err.read_text(errors="replace").strip().splitlines()
            last = next((ln for ln in reversed(lines) if not ln.startswith("Warning")), "")
            raise MinizincError(f"exited with code {code}: {last[:160]}")
        solutions = self._solutions(stdout)
        ending = next((line for line in stdout.splitlines() if line.strip() in ENDINGS), None)
        self.exhausted = COMPLETE in stdout.splitlines() or ending == "=====UNSATISFIABLE====="
        if solutions:
            return Status.SAT, solutions
        return (ENDINGS[ending] if ending else Status.UNKNOWN), []

    def _solutions(self, stdout: str) -> list[Solution]:
        """The grids printed before each separator (a last one cut by a kill is dropped)."""
        marks = (SEPARATOR, COMPLETE)
        lines = [
            ln for ln in stdout.splitlines()
            if ln.strip() and (ln in marks or not ln.startswith("%"))
        ]  # comments and statistics dropped
        body = "\n".join(lines).split(COMPLETE)[0]
        found = []
        for part in body.split(SEPARATOR)[:-1]:
            text = part.strip("\n") + "\n"
            try:
                found.append(solutions_from_text(text, [self.puzzle], PROGRAM)[self.puzzle.id])
            except KakuroError as exc:
                raise MinizincError(f"cannot read a solution: {exc}") from None
        return found

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = {"solve_calls": self.calls, "model": self.backend.model}
        stats.update({k: round(v, 6) for k, v in self.totals.items()})
        stats["solver"] = self.backend.solver
        stats["model_chars"] = len(self.text)
        return stats

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _run_program(argv: list[str], out: Path, err: Path, wait: float | None) -> int | None:
    """Run the program with its output in files (:func:`kakurolab.lifetimes.run_program`:
    its own process group, killed afterwards with the solver's fzn process); its exit code,
    or None when ``wait`` seconds passed and it was killed."""
    with out.open("wb") as stdout, err.open("wb") as stderr:
        try:
            return run_program(argv, stdout, stderr, wait)
        except OSError as exc:
            raise MinizincError(f"cannot start: {exc}") from None


class MinizincBackend(Backend):
    name = "minizinc"
    doc = (
        "the MiniZinc export (model sum or table) solved by the minizinc program's CP solver "
        f"(default {DEFAULT_SOLVER}); optional: needs minizinc on PATH"
    )
    extra = None
    requires_program = PROGRAM
    optional = True
    accepted_options: ClassVar[dict[str, str]] = {
        "model": "CP model of the runs: "
        + "; ".join(f"{m.name}: {m.doc}" for m in CP_MODELS.values())
        + f" (default {DEFAULT_MODEL})",
        "solver": f"MiniZinc solver id (minizinc --solvers; default {DEFAULT_SOLVER})",
        "batch": f"solutions asked of each minizinc run (default {DEFAULT_BATCH})",
    }
    numeric_options: ClassVar[dict[str, NumberOption]] = {"batch": NumberOption(least=1)}

    def __init__(
        self,
        model: str | None = None,
        solver: str | None = None,
        batch: int | None = None,
        **options: Any,
    ) -> None:
        self.check_options(options)
        self.model = get_model(str(model) if model is not None else DEFAULT_MODEL).name
        self.solver = str(solver) if solver is not None else DEFAULT_SOLVER
        self.batch = batch if batch is not None else DEFAULT_BATCH
        program = shutil.which(PROGRAM)
        if program is None:
            raise KakuroError(
                f"backend 'minizinc': the {PROGRAM} program is not on PATH "
                "(apt-get install minizinc)"
            )
        self.program = program
        super().__init__(model=self.model, solver=self.solver, batch=batch)

    def _open(self, puzzle: Puzzle) -> Session:
        return MinizincSession(puzzle, self)
