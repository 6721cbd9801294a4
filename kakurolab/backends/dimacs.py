"""The ``dimacs`` backend: a CNF encoding solved by an outside SAT solver program.

Any program that speaks the SAT competition's interface works: it reads a DIMACS CNF file,
exits with 10 (satisfiable) or 20 (unsatisfiable) and prints an ``s`` line and ``v`` lines
of the model.  Each ``next`` writes the formula (with the blocking clauses and lazy cuts so
far) to a file and runs the program once, in its own process group, so a timeout kills the
solver and anything it started; a process the solver detaches (``setsid``) carries a marker
in its environment and is killed when the call ends (:mod:`kakurolab.lifetimes`), and the
solver dies with the process that runs it.  The solver is never believed on its word: a model must
satisfy every clause of the file it was given, and a status that contradicts the exit code,
a crash or unreadable output is an error result (an UNSAT claim cannot be checked here).
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .. import deadline as deadlines
from ..encodings import DEFAULT_PRESET, encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..errors import KakuroError
from ..lifetimes import die_with_parent, run_program
from ..model import Puzzle, Solution
from .session import Backend, NumberOption, Session, Status

DEFAULT_COMMAND = "cadical"
SAT, UNSAT = 10, 20
"""The competition's exit codes."""
OUTPUT_LIMIT = 64 * 1024 * 1024
"""Bytes of output (and of any file) a solver may write beyond its model's size: a solver
gone wild is stopped by the file-size limit instead of filling the disk."""


@dataclass(frozen=True)
class Convention:
    """How a known solver is called: arguments after the program (``{cnf}`` and ``{model}``
    stand for the formula and the model file), and where its model goes."""

    args: tuple[str, ...]
    model_in_file: bool = False
    """True when the model is written to ``{model}`` (MiniSat's ``SAT``/``UNSAT`` file)
    rather than as ``v`` lines on standard output."""


CONVENTIONS: dict[str, Convention] = {
    "cadical": Convention(("-q", "{cnf}")),
    "kissat": Convention(("-q", "{cnf}")),
    "minisat": Convention(("-verb=0", "{cnf}", "{model}"), model_in_file=True),
    "cryptominisat5": Convention(("--verb", "0", "{cnf}")),
    "picosat": Convention(("{cnf}",)),
    "glucose": Convention(("-verb=0", "-model", "{cnf}")),
}
"""Known solvers by program name; any other program is named with a ``{cnf}`` placeholder
(``cmd='mysolver --quiet {cnf}'``, or ``{cnf} {model}`` for a model file)."""


WHEELS: dict[str, tuple[str, str]] = {
    "kissat": ("passagemath-kissat", "sage_wheels/bin/kissat"),
}
"""Solver programs a maintained wheel ships outside PATH: name -> (distribution, file).
Debian has no kissat package; passagemath-kissat (no dependencies) carries the binary."""


def find_program(name: str) -> str | None:
    """The program's path: on PATH, else inside the wheel that ships it (``kissat``)."""
    found = shutil.which(name)
    if found is not None or name not in WHEELS:
        return found
    from importlib import metadata

    dist, path = WHEELS[name]
    try:
        program = Path(str(metadata.distribution(dist).locate_file(path)))
    except metadata.PackageNotFoundError:
        return None
    return str(program) if os.access(program, os.X_OK) else None


@dataclass(frozen=True)
class Command:
    """A solver command line with placeholders, checked when the backend is made."""

    words: tuple[str, ...]
    model_in_file: bool

    @classmethod
    def parse(cls, text: str) -> Command:
        try:
            words = tuple(shlex.split(text))
        except ValueError as exc:
            raise KakuroError(f"backend 'dimacs': cannot read cmd={text!r}: {exc}") from None
        if not words:
            raise KakuroError("backend 'dimacs': cmd is empty (e.g. cmd=cadical)")
        program = find_program(words[0])
        if program is None:
            wheel = WHEELS.get(words[0])
            hint = f" (pip install {wheel[0]})" if wheel else ""
            raise KakuroError(f"backend 'dimacs': solver {words[0]!r} is not on PATH{hint}")
        words = (program, *words[1:])
        if any("{cnf}" in word for word in words):
            return cls(words, any("{model}" in word for word in words))
        convention = CONVENTIONS.get(Path(words[0]).name)
        if convention is None:
            raise KakuroError(
                f"backend 'dimacs': unknown solver {Path(words[0]).name!r}: name the formula "
                f"with {{cnf}} (cmd='{text} {{cnf}}'), or use one of: {', '.join(CONVENTIONS)}"
            )
        return cls(words + convention.args, convention.model_in_file)

    def argv(self, cnf: Path, model: Path) -> list[str]:
        return [w.replace("{cnf}", str(cnf)).replace("{model}", str(model)) for w in self.words]


class SolverError(KakuroError):
    """The outside solver crashed, or answered in a way that is not believed."""


@dataclass(frozen=True)
class Answer:
    """What a solver run said: its status, and the model when satisfiable."""

    status: Status
    model: tuple[int, ...] = ()
    timed_out: bool = False
    """UNKNOWN because the deadline passed and the solver was killed (not its own answer)."""


def read_answer(code: int, output: str, model_file: str | None) -> Answer:
    """The solver's answer from its exit code and output, or SolverError when they disagree
    or cannot be read (``model_file``: MiniSat's result file, when the solver writes one)."""
    if code not in (0, SAT, UNSAT):
        raise SolverError(f"exited with code {code}{_signal_name(code)}")
    said, lits = (
        _read_result_file(model_file) if model_file is not None else _read_competition(output)
    )
    by_code = {SAT: Status.SAT, UNSAT: Status.UNSAT}.get(code)
    if said is None:
        said = by_code
    if said is None:
        raise SolverError("gave no answer (no s line, exit code 0)")
    if by_code is not None and said is not by_code:
        raise SolverError(f"says {said.value} but exits with code {code}")
    if said is Status.SAT and not lits:
        raise SolverError("says satisfiable but gives no model")
    if said is not Status.SAT and lits:
        raise SolverError(f"says {said.value} but gives a model")
    return Answer(said, tuple(lits))


_S_LINES = {"SATISFIABLE": Status.SAT, "UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.UNKNOWN}


def _read_competition(output: str) -> tuple[Status | None, list[int]]:
    """``s`` and ``v`` lines; comments (``c``) and blank lines are skipped, anything else is
    garbage and an error."""
    said: Status | None = None
    lits: list[int] = []
    ended = False
    for number, raw in enumerate(output.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        kind, _, rest = line.partition(" ")
        if kind == "s":
            if said is not None or rest.strip() not in _S_LINES:
                raise SolverError(f"output line {number}: unexpected status {_cut(line)!r}")
            said = _S_LINES[rest.strip()]
        elif kind == "v":
            if ended:
                raise SolverError(f"output line {number}: model continues after its 0")
            ended = _literals(rest, lits, number)
        else:
            raise SolverError(f"output line {number}: cannot read {_cut(line)!r}")
    if lits and not ended:
        raise SolverError("the model does not end with 0")
    return said, lits


def _read_result_file(path: str) -> tuple[Status | None, list[int]]:
    """MiniSat's result file: ``SAT`` and a line of literals ending in 0, ``UNSAT`` or
    ``INDET``; a missing file means no answer."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return None, []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None, []
    said = {"SAT": Status.SAT, "UNSAT": Status.UNSAT, "INDET": Status.UNKNOWN}.get(lines[0])
    if said is None:
        raise SolverError(f"result file: cannot read {_cut(lines[0])!r}")
    lits: list[int] = []
    ended = False
    for number, line in enumerate(lines[1:], start=2):
        if ended:
            raise SolverError(f"result file line {number}: model continues after its 0")
        ended = _literals(line, lits, number)
    if lits and not ended:
        raise SolverError("the model does not end with 0")
    return said, lits


def _literals(text: str, into: list[int], line: int) -> bool:
    """Add the literals of one model line; True when it ends with the closing 0."""
    for word in text.split():
        try:
            lit = int(word)
        except ValueError:
            raise SolverError(f"output line {line}: {_cut(word)!r} is not a literal") from None
        if lit == 0:
            return True
        into.append(lit)
    return False


def check_model(model: Sequence[int], clauses: Sequence[Sequence[int]], n_vars: int) -> None:
    """Raise SolverError unless the model is consistent, within the formula's variables, and
    satisfies every clause."""
    true = set(model)
    for lit in true:
        if abs(lit) > n_vars:
            raise SolverError(f"model literal {lit} is beyond the formula's {n_vars} variables")
        if -lit in true:
            raise SolverError(f"model sets variable {abs(lit)} both ways")
    for index, clause in enumerate(clauses, start=1):
        if not any(lit in true for lit in clause):
            raise SolverError(f"model breaks clause {index} ({' '.join(map(str, clause))} 0)")


def _signal_name(code: int) -> str:
    if code >= 0:
        return ""
    try:
        return f" (killed by {signal.Signals(-code).name})"
    except ValueError:
        return f" (killed by signal {-code})"


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _limits(memory_mb: int | None, output_bytes: int) -> Callable[[], None]:
    """The child's resource limits, set between fork and exec: address space (the memory
    option) and the size of any file it writes (its output goes to a file); and it dies
    with the process that runs it (:func:`kakurolab.lifetimes.die_with_parent`)."""

    def apply() -> None:
        die_with_parent()
        if memory_mb is not None:
            size = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        resource.setrlimit(resource.RLIMIT_FSIZE, (output_bytes, output_bytes))

    return apply


BODY_CHUNK = 20_000
"""Clauses written between two deadline checks (some 30 ms)."""


def _dimacs_body(clauses: list[list[int]]) -> str:
    """The clause lines of the DIMACS text.  Writing 945,000 clauses (a 100x100 grid) takes
    1.5 s, so the session's deadline (:mod:`kakurolab.deadline`) is checked as it goes."""
    parts = []
    for start in range(0, len(clauses), BODY_CHUNK):
        deadlines.check()
        chunk = clauses[start : start + BODY_CHUNK]
        parts.append("".join(" ".join(map(str, c)) + " 0\n" for c in chunk))
    return "".join(parts)


class DimacsSession(Session):
    def __init__(self, encoding: CNFEncoding, command: Command, memory: int | None) -> None:
        self.enc = encoding
        self.encode_time = encoding.encode_time
        self.command = command
        self.memory = memory
        self.body = _dimacs_body(encoding.clauses)  # before the folder: it may time out
        self.dir = Path(tempfile.mkdtemp(prefix="kakurolab-dimacs-"))
        self.added: list[list[int]] = []
        self.calls = 0
        self.cuts = 0
        self.solver_time = 0.0
        self.message = ""

    def _write(self) -> Path:
        path = self.dir / "formula.cnf"
        with path.open("w") as fh:
            fh.write(f"p cnf {self.enc.n_vars} {len(self.enc.clauses) + len(self.added)}\n")
            fh.write(self.body)
            fh.writelines(" ".join(map(str, c)) + " 0\n" for c in self.added)
        return path

    def _run(self, deadline: float | None) -> Answer:
        """One solver run on the formula so far; UNKNOWN when the deadline passes."""
        self.calls += 1
        cnf, model = self._write(), self.dir / "model.txt"
        model.unlink(missing_ok=True)
        out_path, err_path = self.dir / "stdout.txt", self.dir / "stderr.txt"
        limit = OUTPUT_LIMIT + 16 * self.enc.n_vars
        start = time.perf_counter()
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                code = run_program(
                    self.command.argv(cnf, model), out, err, remaining,
                    preexec_fn=_limits(self.memory, limit),
                )  # fmt: skip
            except OSError as exc:
                raise SolverError(f"cannot start: {exc}") from None
            finally:
                self.solver_time += time.perf_counter() - start
        if code is None:
            return Answer(Status.UNKNOWN, timed_out=True)
        try:
            return read_answer(
                code,
                out_path.read_text(errors="replace"),
                str(model) if self.command.model_in_file else None,
            )
        except SolverError as exc:
            raise SolverError(f"{exc}{self._memory_note(code)}{self._stderr(err_path)}") from None

    def _memory_note(self, code: int) -> str:
        if self.memory is None or code in (0, SAT, UNSAT):
            return ""
        return f" (memory limit {self.memory} MB)"

    @staticmethod
    def _stderr(path: Path) -> str:
        lines = path.read_text(errors="replace").strip().splitlines()
        return f"; stderr: {_cut(lines[-1], 120)}" if lines else ""

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        deadline = None if timeout is None else time.perf_counter() + timeout
        self.message = ""
        while True:
            try:
                answer = self._run(deadline)
                if answer.status is Status.SAT:
                    check_model(answer.model, [*self.enc.clauses, *self.added], self.enc.n_vars)
            except SolverError as exc:
                self.message = f"solver {Path(self.command.words[0]).name!r}: {exc}"
                return Status.ERROR, None
            if answer.status is Status.UNKNOWN:
                self.message = (
                    "timeout while solving"
                    if answer.timed_out
                    else f"solver {Path(self.command.words[0]).name!r} answered UNKNOWN "
                    "(s UNKNOWN: it gave up)"
                )
            if answer.status is not Status.SAT:
                return answer.status, None
            solution = self.enc.decode(answer.model)
            cuts = self.enc.cuts(solution, answer.model)
            if not cuts:
                return Status.SAT, solution
            self.added += cuts
            self.cuts += len(cuts)

    def block(self, solution: Solution) -> None:
        self.added.append([-lit for lit in self.enc.solution_lits(solution)])

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = dict(self.enc.stats())
        stats["solve_calls"] = self.calls
        stats["solver_time"] = round(self.solver_time, 6)
        if self.enc.lazy:
            stats["lazy_cuts"] = self.cuts
        if self.enc.notes:
            stats["notes"] = list(self.enc.notes)
        stats["encoding"] = str(self.enc.spec)
        stats["solver"] = " ".join(self.command.words)
        return stats

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class DimacsBackend(Backend):
    name = "dimacs"
    doc = (
        "CNF encodings solved by an outside SAT solver program (DIMACS in, exit 10/20, "
        f"v lines out; default {DEFAULT_COMMAND})"
    )
    extra = None
    requires_program = DEFAULT_COMMAND
    accepted_options: ClassVar[dict[str, str]] = {
        "cmd": (
            f"solver command (default {DEFAULT_COMMAND}; known: {', '.join(CONVENTIONS)}; "
            "others with a {cnf} placeholder)"
        ),
        "encoding": f"encoding preset or spec (kakuro encodings; default {DEFAULT_PRESET})",
        "memory": "memory limit of the solver process in MB (address space; default none)",
    }
    numeric_options: ClassVar[dict[str, NumberOption]] = {"memory": NumberOption(least=1)}

    def __init__(
        self,
        cmd: str | None = None,
        encoding: str | None = None,
        memory: int | None = None,
        **options: Any,
    ) -> None:
        self.check_options(options)
        spec = parse_spec(encoding or DEFAULT_PRESET)
        if spec.family != "cnf":
            raise KakuroError(f"the dimacs backend needs a CNF encoding, not {spec}")
        self.spec = spec
        self.cmd = str(cmd) if cmd is not None else DEFAULT_COMMAND
        self.command = Command.parse(self.cmd)
        self.memory = memory
        super().__init__(cmd=self.cmd, encoding=str(spec), memory=memory)

    def _open(self, puzzle: Puzzle) -> Session:
        enc = encode(puzzle, self.spec)
        assert isinstance(enc, CNFEncoding)
        return DimacsSession(enc, self.command, self.memory)
