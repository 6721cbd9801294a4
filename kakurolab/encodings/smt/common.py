"""What every SMT encoding shares: digit representations, cryptic letters, the Encoding class.

An SMT encoding is a list of z3 assertions plus, for every white cell and every letter, a
:class:`Digit` that says how its value is represented (an integer, a bit-vector or a one-hot
row of Booleans).  Decoding a model and blocking a grid go through the digits only, so the
solvers and the SMT-LIB2 export never need to know which encoding built the formula.

The builders are pure functions of the puzzle; ``api`` is the z3 module by default, and the
integer (``lia``) and bit-vector (``bv``) models also run on ``cvc5.pythonic``, whose
functions mirror z3's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import z3
from z3.z3types import Ast

from ... import deadline as deadlines
from ...errors import KakuroError, UnknownNameError
from ...model import LETTERS, Cell, Clue, Puzzle, Solution
from ..encoding import Encoding, Part
from ..spec import Spec

LOGICS: dict[str, str] = {
    "QF_LIA": "linear integer arithmetic (z3's SMT core with its arithmetic solver)",
    "QF_BV": "bit-vectors (z3 bit-blasts into its SMT core)",
    "QF_FD": "finite domains: z3 bit-blasts everything into its SAT core with native "
    "cardinality and pseudo-Boolean constraints",
    "ALL": "no logic: z3's default combined solver picks a strategy",
}
"""Logics an SMT encoding may be solved (and exported) under."""

STANDARD_LOGICS = ("QF_LIA", "QF_BV", "ALL")
"""Logics of the SMT-LIB standard, which every SMT-LIB solver reads (QF_FD is z3's own)."""

DECLARES = ("standard", "solver")
"""``declare=`` of an exported file: ``standard`` (default) writes a standard logic, the
encoding's own theory when it is solved under z3's QF_FD; ``solver`` writes the logic z3
solves it under, QF_FD included."""

STATUSES = ("unknown", "solve")
"""``status=`` of an exported file: ``unknown``, or ``solve`` it with z3 at export time."""

OPTIONS: dict[str, str] = {
    "logic": "SMT-LIB logic: " + ", ".join(LOGICS) + " (default depends on the encoding)",
    "tactic": "a z3 tactic to solve with instead of the logic's solver, e.g. qffd",
    "status": "set-info :status of the exported file: unknown (default) or solve (z3 decides)",
    "declare": "set-logic of the exported file: standard (default; QF_FD becomes the "
    "encoding's QF_LIA/QF_BV/ALL, which cvc5 and others read) or solver (z3's logic as is)",
}
"""The spec kinds every SMT encoding accepts besides ``smt=``."""


def cell_name(cell: Cell) -> str:
    """``r3c2``: 1-based like the rule checker's messages, a plain SMT-LIB symbol."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


class Digit(Protocol):
    """How one cell's (or letter's) digit is represented in the formula."""

    def eq(self, value: int) -> Any:
        """The formula "this digit is ``value``"."""

    def ne(self, value: int) -> Any:
        """The formula "this digit is not ``value``" (blocking clauses are built from these)."""

    def value(self, model: Any) -> int:
        """The digit a model gives it."""


@dataclass(frozen=True)
class TermDigit:
    """An integer or bit-vector constant holding the digit itself."""

    term: Any

    def eq(self, value: int) -> Any:
        return self.term == value

    def ne(self, value: int) -> Any:
        return self.term != value

    def value(self, model: Any) -> int:
        return model.eval(self.term, model_completion=True).as_long()


@dataclass(frozen=True)
class OneHotDigit:
    """One Boolean per possible digit ``low, low+1, ...``; exactly one is true."""

    bits: tuple[z3.BoolRef, ...]
    low: int

    def eq(self, value: int) -> Any:
        return self.bits[value - self.low]

    def ne(self, value: int) -> Any:
        return z3.Not(self.bits[value - self.low])

    def value(self, model: Any) -> int:
        for offset, bit in enumerate(self.bits):
            if z3.is_true(model.eval(bit, model_completion=True)):
                return self.low + offset
        raise KakuroError("model assigns no digit to a one-hot variable")


@dataclass(frozen=True)
class Formula:
    """What a builder returns: assertions, and the digits of the cells and letters."""

    assertions: Sequence[Any]
    cells: Mapping[Cell, Digit]
    letters: Mapping[str, Digit]

    def decode(self, model: Any) -> Solution:
        """The grid and letters a model gives (no letters for a standard puzzle)."""
        values = {cell: digit.value(model) for cell, digit in self.cells.items()}
        letters = {ch: digit.value(model) for ch, digit in self.letters.items()}
        return Solution(values, letters)

    def blocking_clause(self, solution: Solution, api: ModuleType = z3) -> Any:
        """Some cell differs from this grid: over cell digits only, never letters, so that
        counting counts grids."""
        return api.Or(*[self.cells[cell].ne(v) for cell, v in solution.values.items()])


Builder = Callable[[Puzzle], Formula]


def _nary(make: Callable[..., Any], args: Sequence[z3.BoolRef], empty: bool) -> z3.BoolRef:
    if not args:
        return z3.BoolVal(empty)
    ctx = args[0].ctx
    array = (Ast * len(args))(*[a.as_ast() for a in args])
    return z3.BoolRef(make(ctx.ref(), len(args), array), ctx)


def conj(args: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``And`` of Boolean z3 terms without z3py's per-argument coercion (16x faster), for the
    thousands of conjunctions a table encoding builds; empty is true."""
    return _nary(z3.Z3_mk_and, args, True)


def disj(args: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``Or`` like :func:`conj`; empty is false."""
    return _nary(z3.Z3_mk_or, args, False)


def run_distinct(terms: Sequence[Any], api: ModuleType = z3) -> list[Any]:
    """A run's all-different: ``[Distinct(*terms)]``, or nothing for a one-cell run, which
    repeats nothing (and cvc5 refuses a ``DISTINCT`` of one term)."""
    return [api.Distinct(*terms)] if len(terms) > 1 else []


# --- cryptic letters in integer arithmetic (lia and table) ------------------------------------


def int_letters(api: ModuleType = z3) -> tuple[dict[str, Any], list[Any]]:
    """Ten integer letters 0..9, pairwise distinct: the unknown bijection of a cryptic puzzle."""
    letters = {ch: api.Int(ch) for ch in LETTERS}
    constraints = [api.And(term >= 0, term <= 9) for term in letters.values()]
    constraints.append(api.Distinct(*letters.values()))
    return letters, constraints


def int_clue(clue: Clue, letters: Mapping[str, Any]) -> Any:
    """A clue as an integer term: its number, a letter, or ``10*first + second``."""
    if clue.value is not None:
        return clue.value
    assert clue.letters is not None
    if len(clue.letters) == 1:
        return letters[clue.letters]
    first, second = clue.letters[0], clue.letters[1]
    return 10 * letters[first] + letters[second]


def leading_letters(puzzle: Puzzle) -> list[str]:
    """Letters that start a two-letter clue, so they cannot be zero (sorted, each once)."""
    return sorted(
        {
            run.clue.letters[0]
            for run in puzzle.runs
            if run.clue is not None and run.clue.letters is not None and len(run.clue.letters) == 2
        }
    )


# --- the Encoding --------------------------------------------------------------------------


class SmtEncoding(Encoding):
    """Assertions over cell and letter digits, solved by z3 or exported as SMT-LIB2."""

    suffix = ".smt2"

    def __init__(
        self,
        puzzle: Puzzle,
        spec: Spec,
        formula: Formula,
        *,
        logic: str,
    ) -> None:
        super().__init__(puzzle, spec)
        self.formula = formula
        self.assertions = list(formula.assertions)
        self.logic = logic
        self.tactic = spec.get("tactic")
        self.status = spec.get("status", "unknown")
        self.declared_logic = logic
        """The logic the exported file declares (see ``DECLARES``)."""
        self._counted: tuple[int, int] | None = None
        """(variables, terms) once counted (see :meth:`stats`)."""
        if spec.get("declare", DECLARES[0]) == "standard" and logic not in STANDARD_LOGICS:
            own = LOGICS_OF.get(spec.name("smt"), ())
            self.declared_logic = next(x for x in (*own, "ALL") if x in STANDARD_LOGICS)

    def decode(self, model: Any) -> Solution:
        return self.formula.decode(model)

    def blocking_clause(self, solution: Solution) -> Any:
        """Some cell differs from this grid (cell digits only, so counting counts grids)."""
        return self.formula.blocking_clause(solution)

    def stats(self) -> dict[str, int]:
        """Size figures; ``variables`` and ``terms`` are left out when the current deadline
        passes before the walk that counts them ends (a timeout bounds the whole call)."""
        if self._counted is None:
            self._counted = _size(self.assertions)
        counts = {"assertions": len(self.assertions)}
        if self._counted is not None:
            counts["variables"], counts["terms"] = self._counted
        return counts

    def to_text(self, status: str | None = None) -> str:
        """SMT-LIB2 for any solver that reads it (z3 reads every encoding; ``pb`` writes z3's
        ``(_ pbeq ...)`` / ``(_ at-most ...)`` extensions).  The declared logic is a standard
        one unless the spec says ``declare=solver`` (see ``DECLARES``); models are switched on
        because the file ends with ``(get-model)``.  ``:status`` is ``status`` when given,
        else ``unknown``.  An encoding runs no solver: a spec saying ``status=solve`` is
        exported by the z3 backend's ``smtlib_text``, which asks z3 for the status."""
        if status is None:
            if self.status == "solve":
                raise KakuroError(
                    f"encoding {self.spec}: status=solve needs z3 to decide the status; "
                    "export it with the z3 backend's smtlib_text, as kakuro encode does"
                )
            status = "unknown"
        holder = z3.Solver()
        holder.add(*self.assertions)
        body = holder.sexpr().strip()
        check = f"(check-sat-using {self.tactic})" if self.tactic else "(check-sat)"
        lines = [
            f"; kakurolab: puzzle {self.puzzle.id}, encoding {self.spec}",
            "; cells are r<row>c<col> (1-based); cryptic letters are A..J",
            "(set-info :smt-lib-version 2.6)",
            "(set-option :produce-models true)",
            f"(set-logic {self.declared_logic})",
            f"(set-info :status {status})",
            body,
            check,
            "(get-model)",
            "(exit)",
        ]
        return "\n".join(lines) + "\n"


def _size(assertions: Sequence[Any]) -> tuple[int, int] | None:
    """Uninterpreted constants and distinct terms (shared subterms counted once), or None
    when the current deadline passes first.

    Walks z3's C API rather than z3py's ``children()``, which wraps every argument in a
    reference-counted object: 4.5x faster (0.30 s against 1.34 s on 8,780 cells).  The walk
    runs when a session's statistics are read, after solving; it checks the deadline so
    that a timed-out solve does not spend that time past its limit."""
    exprs = [a for a in assertions if z3.is_expr(a)]
    if not exprs:
        return 0, 0
    ctx = exprs[0].ctx.ref()
    api = z3.z3core
    seen: set[int] = set()
    consts = 0
    stack = [a.as_ast() for a in exprs]
    while stack:
        if len(seen) % 4096 == 0 and deadlines.passed():
            return None
        term = stack.pop()
        key = api.Z3_get_ast_id(ctx, term)
        if key in seen:
            continue
        seen.add(key)
        if api.Z3_get_ast_kind(ctx, term) != z3.Z3_APP_AST:
            continue
        app = api.Z3_to_app(ctx, term)
        width = api.Z3_get_app_num_args(ctx, app)
        if width:
            stack.extend(api.Z3_get_app_arg(ctx, app, i) for i in range(width))
        elif api.Z3_get_decl_kind(ctx, api.Z3_get_app_decl(ctx, app)) == z3.Z3_OP_UNINTERPRETED:
            consts += 1
    return consts, len(seen)


def check_logic(logic: str, allowed: Sequence[str]) -> str:
    if logic not in LOGICS:
        raise UnknownNameError("SMT logic", logic, LOGICS)
    if logic not in allowed:
        raise KakuroError(
            f"logic {logic} does not fit this encoding; use one of {', '.join(allowed)}"
        )
    return logic


def check_tactic(tactic: str | None) -> str | None:
    if tactic is not None and tactic not in z3.tactics():
        raise KakuroError(f"unknown z3 tactic {tactic!r} (see z3.tactics(), e.g. qffd, smt, sat)")
    return tactic


def smt_part(
    name: str,
    doc: str,
    builder: Builder,
    *,
    logics: Sequence[str],
) -> Part:
    """A registry entry whose ``build(puzzle, spec)`` validates the options, times the builder
    and wraps its formula; ``logics[0]`` is the default logic."""

    def build(puzzle: Puzzle, spec: Spec) -> SmtEncoding:
        logic = resolve_logic(spec, logics)
        start = time.perf_counter()
        formula = builder(puzzle)
        encoding = SmtEncoding(puzzle, spec, formula, logic=logic)
        encoding.encode_time = time.perf_counter() - start
        return encoding

    part = Part(name=name, doc=doc, build=build, options=dict(OPTIONS))
    LOGICS_OF[name] = tuple(logics)
    return part


LOGICS_OF: dict[str, tuple[str, ...]] = {}
"""Encoding name -> the logics it may be solved under, default first (filled by smt_part)."""


def resolve_logic(spec: Spec, logics: Sequence[str] | None = None) -> str:
    """The logic an SMT spec is solved under, after checking its ``logic``, ``tactic`` and
    ``status`` values (one-line errors for bad ones)."""
    allowed = logics if logics is not None else LOGICS_OF[spec.name("smt")]
    logic = check_logic(spec.get("logic") or allowed[0], allowed)
    check_tactic(spec.get("tactic"))
    status = spec.get("status", "unknown")
    if status not in STATUSES:
        raise UnknownNameError("status", str(status), STATUSES)
    declare = spec.get("declare", DECLARES[0])
    if declare not in DECLARES:
        raise UnknownNameError("declare", str(declare), DECLARES)
    return logic
