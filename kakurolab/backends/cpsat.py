"""The OR-Tools CP-SAT peer: the textbook Sum + AllDifferent model, solved by CP-SAT.

It is the *reference* the other backends are measured against, so the model is deliberately
plain: one integer variable 1-9 per white cell, ``AllDifferent`` and ``sum == clue`` per run,
and for cryptic puzzles ten letter variables 0-9 (all different) that clues and shown letters
are tied to.  No digit-set tables or other Kakuro knowledge is added: what CP-SAT makes of
the plain model is the baseline.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any, ClassVar

from .. import deadline
from ..errors import KakuroError, OptionValueError, require
from ..model import LETTERS, Cell, Puzzle, Solution
from .session import Backend, NumberOption, Session, Status

_FEATURE = "backend 'cpsat'"


def _cp_model() -> Any:
    return CpSatBackend.solver_module()


DEFAULT_PARAMETERS: dict[str, Any] = {"num_workers": 1}
"""One worker unless asked otherwise: one core, timings comparable with the other backends."""

_BOOL_TEXT = {"true": True, "1": True, "yes": True, "on": True}
_BOOL_TEXT.update({"false": False, "0": False, "no": False, "off": False})


def _parameters_module() -> Any:
    return require("ortools.sat.sat_parameters_pb2", extra="peers", feature=_FEATURE)


@cache
def _parameter_fields() -> dict[str, Any]:
    """Every ``SatParameters`` field by name (its protobuf field descriptor)."""
    return dict(_parameters_module().SatParameters.DESCRIPTOR.fields_by_name)


def _scalar(name: str, field: Any, value: Any) -> Any:
    """One value of a field's type, from a Python value or its CLI text."""
    cpp = field.cpp_type
    if cpp == field.CPPTYPE_BOOL:
        return _bool(name, value)
    if cpp == field.CPPTYPE_ENUM:
        return _enum(name, field, value)
    unsigned = (field.CPPTYPE_UINT32, field.CPPTYPE_UINT64)
    if cpp in (field.CPPTYPE_INT32, field.CPPTYPE_INT64, *unsigned):
        return _integer(name, value, unsigned=cpp in unsigned)
    if cpp in (field.CPPTYPE_DOUBLE, field.CPPTYPE_FLOAT):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise _fail(f"option {name} must be a number, got {value!r}") from None
    if cpp == field.CPPTYPE_STRING:
        return str(value)
    raise _fail(f"option {name} is a nested message; set its fields through CP-SAT directly")


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    found = _BOOL_TEXT.get(str(value).strip().lower())
    if found is None:
        raise _fail(f"option {name} must be true or false, got {value!r}")
    return found


def _enum(name: str, field: Any, value: Any) -> int:
    values = field.enum_type.values_by_name
    numbers = field.enum_type.values_by_number
    if isinstance(value, int) and not isinstance(value, bool) and value in numbers:
        return value
    key = str(value).strip().upper()
    if key in values:
        return int(values[key].number)
    raise _fail(f"option {name} must be one of {', '.join(values)}, got {value!r}")


def _integer(name: str, value: Any, *, unsigned: bool) -> int:
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise _fail(f"option {name} must be an integer, got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise _fail(f"option {name} must be an integer, got {value!r}") from None
    if number < 0 and unsigned:
        raise _fail(f"option {name} must be >= 0, got {number}")
    return number


def coerce_parameter(name: str, value: Any) -> Any:
    """``value`` as the type of the ``SatParameters`` field ``name`` (from its descriptor):
    text from the CLI or a Python value; a list for repeated fields (comma-separated text
    is split).  Unknown names raise the backend's one-line error with close matches."""
    field = _parameter_fields().get(name)
    if field is None:
        raise CpSatBackend.unknown_option(name)
    if _is_repeated(field):
        items = value if isinstance(value, list | tuple) else str(value).split(",")
        return [
            _scalar(name, field, item.strip() if isinstance(item, str) else item)
            for item in items
            if not (isinstance(item, str) and not item.strip())
        ]
    return _scalar(name, field, value)


def _is_repeated(field: Any) -> bool:
    if hasattr(field, "is_repeated"):  # protobuf 6 (``label`` is deprecated there)
        return bool(field.is_repeated)
    return bool(field.label == field.LABEL_REPEATED)


def _fail(message: str) -> OptionValueError:
    return OptionValueError(f"backend 'cpsat': {message}")


class CpSatBackend(Backend):
    name: ClassVar[str] = "cpsat"
    doc: ClassVar[str] = "OR-Tools CP-SAT on the plain Sum + AllDifferent model (peer reference)"
    extra: ClassVar[str | None] = "peers"
    requires: ClassVar[str | None] = "ortools.sat.python.cp_model"
    overruns_from: ClassVar[int | None] = 4000  # all-different expansion ignores max_time
    accepted_options: ClassVar[dict[str, str]] = {
        "num_workers": "CP-SAT search workers (default 1: one core, comparable timings)",
        "random_seed": "CP-SAT random seed (default: the solver's)",
        "max_time_in_seconds": "time limit per solve call, on top of any timeout",
    }
    numeric_options: ClassVar[dict[str, NumberOption]] = {
        "max_time_in_seconds": NumberOption(whole=False)
    }
    open_options: ClassVar[str] = (
        "any other CP-SAT SatParameters field (e.g. linearization_level=2, "
        "search_branching=FIXED_SEARCH)"
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.parameters = {**DEFAULT_PARAMETERS}
        self.parameters.update({k: coerce_parameter(k, v) for k, v in options.items()})
        self.max_time = self.parameters.pop("max_time_in_seconds", None)
        # Import here, not in _open, so that the first puzzle's encode time is not the import.
        self._cp = _cp_model()
        if options:
            self._validate()

    def _validate(self) -> None:
        """Let CP-SAT judge the values (ranges, combinations) on an empty model, now, so a bad
        value is a one-line error before any puzzle runs instead of an error status later."""
        solver = self._cp.CpSolver()
        self.apply(solver.parameters)
        if solver.solve(self._cp.CpModel()) == self._cp.MODEL_INVALID:
            raise _fail(str(solver.solution_info()).splitlines()[0])

    def apply(self, params: Any) -> None:
        """Set the backend's parameters on a solver's ``SatParameters``: merged as protobuf
        text, which both OR-Tools' pybind parameters and older protobuf ones take."""
        message: Any = _parameters_module().SatParameters()
        for name, value in self.parameters.items():
            if isinstance(value, list):
                getattr(message, name).extend(value)
            else:
                setattr(message, name, value)
        if hasattr(params, "merge_text_format"):
            from google.protobuf import text_format

            params.merge_text_format(text_format.MessageToString(message))
        else:  # OR-Tools before 9.12: the solver's parameters are the protobuf message
            params.MergeFrom(message)

    @property
    def num_workers(self) -> int:
        return int(self.parameters["num_workers"])

    @classmethod
    def accepts_option(cls, key: str) -> bool:
        """Every ``SatParameters`` field name (when OR-Tools is installed)."""
        if key in cls.accepted_options:
            return True
        try:
            return key in _parameter_fields()
        except KakuroError:
            return False

    @classmethod
    def option_names(cls) -> list[str]:
        try:
            return sorted(_parameter_fields())
        except KakuroError:
            return super().option_names()

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
            deadline.check()  # a timeout covers building the model too
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
        self._backend.apply(params)
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
