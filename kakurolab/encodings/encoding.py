"""The shared interface of CNF and SMT encodings.

An :class:`Encoding` is a pure function of (puzzle, spec): the formula plus everything needed
to read a model back as a :class:`~kakurolab.model.Solution`.  Backends, the ``encode`` and
``decode`` commands and the statistics table only talk to this interface, so CNF (``.cnf``,
DIMACS) and SMT (``.smt2``, SMT-LIB2) encodings travel through the same code paths.

A registry entry is a :class:`Part`: a name, a one-line doc and a builder whose signature
depends on the part kind (the CNF encoder calls CNF builders; ``ENCODERS["smt"]`` builders are
called as ``build(puzzle, spec) -> Encoding``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import KakuroError
from ..model import Puzzle, Solution
from .spec import Spec

if TYPE_CHECKING:
    from pysat.formula import CNF


@dataclass(frozen=True)
class Part:
    """One registered value of one part kind (e.g. ``sum=combo``).

    ``args`` lists the arguments the value accepts after a colon (``pb:bdd``) with the default
    first, or is empty when it takes none.  ``cells`` lists the cell encodings a constraint
    part works with (empty: all).  ``implies_alldiff`` marks sum encodings that already forbid
    repeated digits, so ``alldiff=none`` is their default.
    """

    name: str
    doc: str
    build: Callable[..., Any] | None = None
    args: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    implies_alldiff: bool = False
    options: dict[str, str] = field(default_factory=dict)
    """Extra spec kinds this part accepts (SMT: ``logic`` ...), mapped to a one-line doc."""


class Encoding(ABC):
    """A puzzle as a formula, with its decoder and size statistics.

    ``encode_time`` is the wall-clock seconds spent building the formula.
    """

    suffix: ClassVar[str] = ".txt"

    def __init__(self, puzzle: Puzzle, spec: Spec) -> None:
        self.puzzle = puzzle
        self.spec = spec
        self.encode_time = 0.0

    @abstractmethod
    def decode(self, model: Any) -> Solution:
        """The grid (and letters) a solver's model stands for."""

    @abstractmethod
    def stats(self) -> dict[str, int]:
        """Size of the formula: ``variables``, ``clauses`` (or ``assertions``), ``literals``."""

    @abstractmethod
    def to_text(self) -> str:
        """The formula as a file: DIMACS with a variable map (CNF) or SMT-LIB2 (SMT)."""

    @property
    def lazy(self) -> bool:
        """Whether part of the formula is left out and added by :meth:`cuts` while solving."""
        return False

    def cuts(self, solution: Solution, model: Iterable[int] = ()) -> list[list[int]]:
        """Clauses to add because ``solution`` (decoded from the solver's ``model``) breaks a
        constraint the formula leaves out (``sum=lazy``); empty: the solution stands."""
        return []

    def to_cnf(self) -> CNF:
        """The formula as a ``pysat.formula.CNF``; only CNF encodings have one."""
        raise KakuroError(
            f"encoding {self.spec} is not CNF: it has no pysat CNF (to_text gives SMT-LIB2)"
        )
