"""The z3 backend: any SMT encoding (``smt=lia/bv/pb/table``), one incremental z3 solver.

The session adds the encoding's assertions once; counting adds one blocking clause over the
cell digits per found grid (``Or(cell != v, ...)``), so z3 keeps what it learnt between
solutions.  This module is ``kakurolab.backends.z3``; ``import z3`` inside it still finds the
z3 package, because imports are absolute.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ..errors import OptionValueError
from ..model import Puzzle, Solution
from .session import Backend, Session, Status

if TYPE_CHECKING:
    from ..encodings.encoding import Encoding
    from ..encodings.smt.common import SmtEncoding
    from ..encodings.spec import Spec

DEFAULT_ENCODING = "smt"
"""The preset of the fastest SMT encoding measured on PE424 and janko (docs/encodings-smt.md)."""

SAT_CORE_PARAMS = {"pb.solver": "sat.pb.solver", "cardinality.encoding": "sat.cardinality.encoding"}
"""Options that configure z3's SAT core, so they need ``logic=QF_FD`` or a tactic."""

_STAT_KEYS = {
    "conflicts": ("conflicts", "sat conflicts"),
    "decisions": ("decisions", "sat decisions"),
    "propagations": ("propagations", "sat propagations 2ary", "sat propagations nary"),
    "restarts": ("restarts", "sat restarts"),
}
"""Readable statistic -> the z3 keys it adds up (SMT core and SAT core name them differently)."""


def make_solver(logic: str, tactic: str | None = None) -> Any:
    """z3's solver for a logic (``ALL``: the default combined solver), or a tactic's solver."""
    import z3

    if tactic:
        return z3.Tactic(tactic).solver()
    return z3.Solver() if logic == "ALL" else z3.SolverFor(logic)


def solver_for(encoding: SmtEncoding) -> Any:
    """A fresh z3 solver for the encoding's logic or tactic, holding its assertions."""
    solver = make_solver(encoding.logic, encoding.tactic)
    solver.add(*encoding.assertions)
    return solver


def smtlib_text(encoding: Encoding) -> str:
    """The encoding as a file; an SMT spec saying ``status=solve`` gets the ``:status`` z3
    decides (the encoding itself runs no solver)."""
    if encoding.spec.family == "smt" and encoding.spec.get("status") == "solve":
        smt = cast("SmtEncoding", encoding)
        return smt.to_text(status=str(solver_for(smt).check()))
    return encoding.to_text()


def _fail(message: str) -> OptionValueError:
    return OptionValueError(f"backend 'z3': {message}")


def _param_value(text: Any) -> Any:
    """A z3 parameter value from CLI text: bool, int, float or the text itself."""
    if not isinstance(text, str):
        return text
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_params(text: Any) -> dict[str, Any]:
    """``name=value;name=value`` (or a dict) -> z3 solver parameters."""
    if text is None or text == "":
        return {}
    if isinstance(text, dict):
        return {str(k): _param_value(v) for k, v in text.items()}
    params: dict[str, Any] = {}
    for item in str(text).split(";"):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise _fail(f"bad z3 parameter {item!r}: expected name=value")
        params[name.strip()] = _param_value(value.strip())
    return params


class Z3Backend(Backend):
    name: ClassVar[str] = "z3"
    doc: ClassVar[str] = "z3 on an SMT encoding (smt=lia/bv/pb/table; logics, tactics, params)"
    extra: ClassVar[str | None] = None  # z3-solver is a core dependency
    requires: ClassVar[str | None] = "z3"
    accepted_options: ClassVar[dict[str, str]] = {
        "encoding": f"SMT encoding spec or preset (default {DEFAULT_ENCODING})",
        "logic": "QF_LIA, QF_BV, QF_FD or ALL: overrides the spec's logic",
        "tactic": "solve with this z3 tactic (e.g. qffd) instead of the logic's solver",
        "seed": "random seed (z3 random_seed, and sat.random_seed in the SAT core)",
        "pb.solver": "SAT core pseudo-Boolean handling: solver, totalizer, sorting, "
        "segmented, binary_merge (needs logic=QF_FD or a tactic)",
        "cardinality.encoding": "SAT core cardinality encoding: grouped, bimander, ordered, "
        "unate, circuit (needs logic=QF_FD or a tactic)",
        "params": "more z3 solver parameters, 'name=value;name=value'",
    }
    open_options: ClassVar[str] = (
        "any dotted z3 module parameter (e.g. sat.random_seed=3, smt.arith.solver=6)"
    )

    @classmethod
    def accepts_option(cls, key: str) -> bool:
        """The declared options, and every dotted parameter z3 knows (``module.name``)."""
        return key in cls.accepted_options or ("." in key and is_z3_param(key))

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.spec = self._spec(options)
        self.params = self._params(options)
        _check_values(self.params, make_solver(self.logic, self.spec.get("tactic")))

    def _spec(self, options: dict[str, Any]) -> Spec:
        """The encoding spec with ``logic``/``tactic`` options folded in, validated now."""
        from ..encodings import parse_spec
        from ..encodings.smt.common import resolve_logic

        spec = parse_spec(str(options.get("encoding") or DEFAULT_ENCODING))
        if spec.family != "smt":
            raise _fail(f"needs an SMT encoding (smt=lia, smt=bv, ...), got {spec}")
        overrides = {k: str(options[k]) for k in ("logic", "tactic") if options.get(k)}
        if overrides:
            spec = parse_spec(str(spec.replace(**overrides)))
        self.logic = resolve_logic(spec)
        return spec

    def _params(self, options: dict[str, Any]) -> dict[str, Any]:
        sat_core = self.logic == "QF_FD" or bool(self.spec.get("tactic"))
        params = parse_params(options.get("params"))
        params.update(
            {k: _param_value(v) for k, v in options.items() if k not in self.accepted_options}
        )
        for option, param in SAT_CORE_PARAMS.items():
            if options.get(option) is None:
                continue
            if not sat_core:
                raise _fail(f"option {option} configures the SAT core: add logic=QF_FD")
            params[param] = _param_value(options[option])
        seed = options.get("seed")
        if seed is not None:
            try:
                params["random_seed"] = int(seed)
            except (TypeError, ValueError):
                raise _fail(f"option seed must be an integer, got {seed!r}") from None
            if sat_core:
                params["sat.random_seed"] = int(seed)
        return params

    def _open(self, puzzle: Puzzle) -> Session:
        from ..encodings import encode

        encoding = encode(puzzle, self.spec)
        return Z3Session(encoding, self.params)  # type: ignore[arg-type]


class Z3Session(Session):
    """One z3 solver holding the encoding; blocking clauses accumulate between solutions."""

    def __init__(self, encoding: SmtEncoding, params: dict[str, Any]) -> None:
        import z3

        start = time.perf_counter()
        self.encoding = encoding
        self.solver = solver_for(encoding)
        try:
            for name, value in params.items():
                self.solver.set(name, value)
        except z3.Z3Exception as exc:
            raise _fail(_z3_message(exc)) from None
        self.encode_time = encoding.encode_time + time.perf_counter() - start
        # The SAT core (logic QF_FD without a tactic) reports cumulative statistics; the SMT
        # core and tactic solvers report the last check only, so those are added up here.
        self._cumulative = encoding.logic == "QF_FD" and not encoding.tactic
        self._stats: dict[str, float] = {}
        self._checks = 0
        self._solve_time = 0.0

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        import z3

        millis = 4294967295 if timeout is None else max(1, int(timeout * 1000))
        start = time.perf_counter()
        try:
            self.solver.set("timeout", millis)
            answer = self.solver.check()
        except z3.Z3Exception as exc:
            raise _fail(_z3_message(exc)) from None
        finally:
            self._solve_time += time.perf_counter() - start
        self._checks += 1
        self._collect()
        if answer == z3.sat:
            return Status.SAT, self.encoding.decode(self.solver.model())
        if answer == z3.unsat:
            return Status.UNSAT, None
        return Status.UNKNOWN, None

    def block(self, solution: Solution) -> None:
        self.solver.add(self.encoding.blocking_clause(solution))

    def _collect(self) -> None:
        raw = self.solver.statistics()
        values = {key: raw.get_key_value(key) for key in raw.keys()}  # noqa: SIM118
        for name, keys in _STAT_KEYS.items():
            found = [values[k] for k in keys if k in values]
            if not found:
                continue
            total = sum(found)
            self._stats[name] = total if self._cumulative else self._stats.get(name, 0) + total

    def stats(self) -> dict[str, Any]:
        return {
            **self._stats,
            "checks": self._checks,
            "solve_time": round(self._solve_time, 6),
            **self.encoding.stats(),
        }

    def close(self) -> None:
        self.solver = None


def _check_values(params: dict[str, Any], solver: Any) -> None:
    """Set the parameters on a throwaway solver of the sessions' kind, so a value of the wrong
    type is a one-line error now rather than when the first puzzle opens."""
    import z3

    try:
        for name, value in params.items():
            solver.set(name, value)
        solver.check()  # z3 checks types and module parameters when it starts, not in set
    except z3.Z3Exception as exc:
        raise _fail(_z3_message(exc)) from None


def is_z3_param(name: str) -> bool:
    """Whether z3 knows the module parameter ``name`` (``sat.random_seed``), asked without
    letting z3 print its warning and list of legal parameters for an unknown one."""
    import z3

    warn = z3.get_param("warning")
    z3.set_param("warning", False)
    try:
        z3.get_param(name)
    except z3.Z3Exception:
        return False
    finally:
        z3.set_param("warning", warn)
    return True


def _z3_message(exc: Exception) -> str:
    """The first line of a z3 error (z3 appends the list of every legal parameter)."""
    text = exc.args[0] if exc.args else str(exc)
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return str(text).splitlines()[0] if str(text) else "z3 error"
