"""The cvc5 backend: z3's ``smt=lia`` or ``smt=bv`` model solved by cvc5, to compare z3 with.

The formula is the same builder as z3's (:func:`kakurolab.encodings.smt.lia.formula`,
:func:`kakurolab.encodings.smt.bv.formula`) run on ``cvc5.pythonic``, whose API mirrors z3's,
so both solvers see one model.  ``smt=lia`` (the textbook model) is the default, as every
committed cvc5 result ran it; ``smt=bv`` is the one to use on large grids: on the janko set
cvc5's arithmetic gave up after 60 s on 262_15x20 and 251_20x30, which its bit-vector solver
proves unique in 2 s and 13 s.  cvc5 is the optional extra ``cvc5``; this module is
``kakurolab.backends.cvc5`` and imports the real cvc5 lazily (absolute imports, so the names
do not clash).
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any, ClassVar

from ..errors import OptionValueError
from ..model import Puzzle, Solution
from .session import Backend, Session, Status
from .z3 import parse_params

ENCODINGS = ("smt=lia", "smt=bv")
"""The SMT models whose builders also run on ``cvc5.pythonic``; the first is the default."""

Z3_ONLY_LOGICS = ("QF_FD",)
"""Logics of the SMT registry that only z3 reads (QF_FD is z3's finite-domain SAT core)."""


def _logics(encoding: str) -> tuple[str, ...]:
    """The logics cvc5 may solve a model under, default first: the SMT registry's own list
    (``LOGICS_OF``, filled when the ``smt`` package registers its encodings), less z3's."""
    from ..encodings.smt.common import LOGICS_OF

    return tuple(x for x in LOGICS_OF[encoding.removeprefix("smt=")] if x not in Z3_ONLY_LOGICS)

_STAT_KEYS = {
    "conflicts": "sat::conflicts",
    "decisions": "sat::decisions",
    "propagations": "sat::propagations",
}
"""Readable statistic -> cvc5's key (cvc5 reports them cumulatively)."""


def _api() -> ModuleType:
    return Cvc5Backend.solver_module()


def _fail(message: str) -> OptionValueError:
    return OptionValueError(f"backend 'cvc5': {message}")


class Cvc5Backend(Backend):
    name: ClassVar[str] = "cvc5"
    doc: ClassVar[str] = "cvc5 on z3's smt=lia (default) or smt=bv model, to compare with z3"
    extra: ClassVar[str | None] = "cvc5"
    requires: ClassVar[str | None] = "cvc5.pythonic"
    overruns_from: ClassVar[int | None] = 200  # tlimit-per does not cover its preprocessing
    accepted_options: ClassVar[dict[str, str]] = {
        "encoding": "smt=lia (default, the textbook model) or smt=bv (faster on large grids)",
        "logic": "the model's logic (QF_LIA or QF_BV, the default) or ALL",
        "seed": "cvc5 random-seed",
        "params": "more cvc5 options, 'name=value;name=value' (set before solving)",
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.encoding = str(options.get("encoding") or ENCODINGS[0])
        if self.encoding not in ENCODINGS:
            raise _fail(f"encoding must be one of {', '.join(ENCODINGS)}, got {self.encoding!r}")
        logics = _logics(self.encoding)
        self.logic = str(options.get("logic") or logics[0])
        if self.logic not in logics:
            raise _fail(f"logic must be one of {', '.join(logics)}, got {self.logic!r}")
        self.params = parse_params(options.get("params"))
        seed = options.get("seed")
        if seed is not None:
            try:
                self.params["random-seed"] = int(seed)
            except (TypeError, ValueError):
                raise _fail(f"option seed must be an integer, got {seed!r}") from None
        self._cp = _api()

    def _open(self, puzzle: Puzzle) -> Session:
        return Cvc5Session(self._cp, puzzle, self.encoding, self.logic, self.params)


class Cvc5Session(Session):
    """One incremental cvc5 solver; blocking clauses accumulate like z3's."""

    def __init__(
        self, api: ModuleType, puzzle: Puzzle, encoding: str, logic: str, params: dict[str, Any]
    ):
        from ..encodings.smt import bv, lia

        start = time.perf_counter()
        self.api = api
        builders = {"smt=lia": lia.formula, "smt=bv": bv.formula}  # keys: ENCODINGS
        self.formula = builders[encoding](puzzle, api=api)
        self.solver = api.SolverFor(logic) if logic != "ALL" else api.Solver()
        try:
            for name, value in params.items():
                self.solver.set(name, value)
        except Exception as exc:  # cvc5 raises its own RuntimeError subclasses
            raise _fail(f"option: {str(exc).splitlines()[0]}") from None
        self.solver.add(*self.formula.assertions)
        self.encode_time = time.perf_counter() - start
        self._checks = 0

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        api = self.api
        millis = 0 if timeout is None else max(1, int(timeout * 1000))  # 0: no limit
        self.solver.set("tlimit-per", millis)
        answer = self.solver.check()
        self._checks += 1
        if answer == api.sat:
            return Status.SAT, self.formula.decode(self.solver.model())
        if answer == api.unsat:
            return Status.UNSAT, None
        return Status.UNKNOWN, None

    def block(self, solution: Solution) -> None:
        self.solver.add(self.formula.blocking_clause(solution, self.api))

    def stats(self) -> dict[str, Any]:
        raw = self.solver.statistics().get(True, False)
        found = {
            name: raw[key]["value"]
            for name, key in _STAT_KEYS.items()
            if key in raw and isinstance(raw[key], dict)
        }
        return {**found, "checks": self._checks}
