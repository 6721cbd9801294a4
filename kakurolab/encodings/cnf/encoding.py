"""The :class:`CNFEncoding`: clauses over one shared ``IDPool`` keyed by readable tuples
(``("cell", r, c, d)``, ``("letter", "A", d)``, ``("combo", run, mask)`` ...), with the decoder,
the grid variables, DIMACS text and its variable map.  While it is built it is the
:class:`.pool.Pool` the parts draw variables from; :mod:`.assemble` builds it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pysat.formula import CNF, IDPool

from ...errors import KakuroError
from ...model import LETTERS, Puzzle, Run, Solution
from ..encoding import Encoding
from ..spec import Spec
from .alldiff import at_most_one
from .cells import CELL_ENCODINGS, CellEncoding
from .letters import (
    letter,
    letter_row,
)
from .pool import Clauses
from .registry import DEFAULT_SETS
from .sums import Target

CELL_KEYS = frozenset({"cell", "ge", "bit"})
"""Variable kinds keyed by a cell's row and column (0-based in the key, like ``Puzzle``)."""


def key_text(key: tuple[Any, ...]) -> str:
    """A variable key as one line of text, as DIMACS comments write it.  Cells are named as
    the CLI prints them, ``r<row>c<col>`` counted from 1: the key ``("cell", 1, 2, 5)`` is
    ``cell r2c3 5``.  Run indices (``combo 4 ...``) count the puzzle's runs from 0."""
    if len(key) >= 3 and key[0] in CELL_KEYS:
        kind, r, c, *rest = key
        key = (kind, f"r{r + 1}c{c + 1}", *rest)
    return " ".join(",".join(map(str, k)) if isinstance(k, tuple) else str(k) for k in key)


class CNFEncoding(Encoding):
    """Clauses over a shared IDPool, with the decoder and the grid variables; while it is
    built, the :class:`.pool.Pool` its parts draw variables from."""

    suffix = ".cnf"

    def __init__(self, puzzle: Puzzle, spec: Spec) -> None:
        super().__init__(puzzle, spec)
        self.pool = IDPool()
        self._ids = self.pool.obj2id
        self.letter_masks: dict[str, int] = {}
        """Per letter, the digits (bit d) a presolve left it; empty: no presolve."""
        self.live_letters = False
        """Whether only the pairs a presolve left to undecided letters have variables
        (``letters=live`` once ``pre=root`` ran on a cryptic puzzle)."""
        self.fixed_letters: dict[str, int] = {}
        """With :attr:`live_letters`, each decided letter's digit (a constant: no variable)."""
        self.clauses: list[list[int]] = []
        self._released: dict[str, int] | None = None
        self.notes: list[str] = []
        self.lazy_runs: list[tuple[Run, list[Target]]] = []
        self.presolved = False
        """True when ``pre=root`` narrowed the domains (sum encoders may skip dead sets)."""
        sets = spec.get("sets") or DEFAULT_SETS
        self.exclusion = sets == "exclude" and spec["alldiff"] != "none"
        """Whether ``combo:lean`` may write guarded runs as exclusion clauses (``sets``)."""
        self.amo: str = spec["amo"]
        """The spec's exactly-one encoding (``amo``), which :meth:`one_of` writes."""
        self.cells: CellEncoding = CELL_ENCODINGS[spec["cell"]][0](self)

    # -- building ---------------------------------------------------------------------------
    def var(self, *key: Any) -> int:
        """The variable named by ``key`` (created on first use).  Works on the pool's map
        directly: ``IDPool.id`` also keeps a reverse map nothing here needs, and this pool
        has no occupied ranges to skip."""
        v = self._ids.get(key)
        if v is None:
            self.pool.top += 1
            v = self._ids[key] = self.pool.top
        return v

    def vars(self, keys: list[tuple[Any, ...]]) -> list[int]:
        """The variables named by ``keys`` (distinct), in order, as ``var`` would number them: when
        none exists yet (the usual case: a run's selectors), one block of fresh ids."""
        ids = self._ids
        if not ids.keys().isdisjoint(keys):
            return [self.var(*key) for key in keys]
        first = self.pool.top + 1
        self.pool.top += len(keys)
        fresh = range(first, self.pool.top + 1)
        ids.update(zip(keys, fresh, strict=True))
        return list(fresh)

    def one_of(self, lits: list[int]) -> list[list[int]]:
        """At least one plus at-most-one by the spec's ``amo`` encoding, as clauses."""
        return [list(lits), *at_most_one(self.pool, lits, self.amo)]

    def define(self, clauses: Clauses) -> None:
        """Add the definition of a literal made on demand (see :mod:`.pool`)."""
        self.clauses += clauses

    def note(self, message: str) -> None:
        """A message about the encoding (e.g. a fallback), shown by the CLI."""
        self.notes.append(message)

    # -- solving ----------------------------------------------------------------------------
    @property
    def lazy(self) -> bool:
        return bool(self.lazy_runs)

    def cuts(self, solution: Solution, model: Iterable[int] = ()) -> list[list[int]]:
        """For each lazy run whose cells miss the chosen sum, a clause excluding that
        assignment (its cells' values and the guard of the chosen total)."""
        if not self.lazy_runs:
            return []
        true = {lit for lit in model if lit > 0}
        cuts = []
        value_lits = self.cells.value_lits
        for run, targets in self.lazy_runs:
            got = sum(solution.values[cell] for cell in run.cells)
            chosen = [(total, g) for total, g in targets if g is None or g in true]
            if chosen and chosen[0][0] == got:
                continue
            cut = [-lit for cell in run.cells for lit in value_lits(cell, solution.values[cell])]
            cut += [-g for _, g in chosen if g is not None]
            cuts.append(cut)
        return cuts

    # -- reading ----------------------------------------------------------------------------
    @property
    def grid_vars(self) -> list[int]:
        """The variables that define the grid: cells' own variables and letters only."""
        out = [v for cell in self.puzzle.whites for v in self.cells.own_vars(cell)]
        if self.puzzle.is_cryptic:
            out += [lit for ch in LETTERS for lit in letter_row(self, ch) if lit]
        return out

    def decode(self, model: Iterable[int]) -> Solution:
        true = {lit for lit in model if lit > 0}
        values = {cell: self.cells.decode(cell, true) for cell in self.puzzle.whites}
        letters = dict(self.fixed_letters)
        if self.puzzle.is_cryptic:
            for ch in LETTERS:
                for d in range(10):
                    lit = letter(self, ch, d)
                    if lit and lit in true:
                        letters[ch] = d
        return Solution(values, letters)

    def letter_lits(self, letters: Mapping[str, int]) -> list[int]:
        """The letter literals that spell ``letters`` (each letter's digit), leaving out the
        decided letters, which are constants (``letters=live``)."""
        return [lit for ch in LETTERS if (lit := letter(self, ch, letters[ch]))]

    def solution_lits(self, solution: Solution) -> list[int]:
        """Own cell literals that together spell the grid of ``solution`` (negate them to
        block it).  Letters stay out: the grid fixes every letter the puzzle uses, and
        blocking letters too would find a grid again with the unused letters swapped,
        counting it twice (the caller expands such letter variants itself)."""
        return [
            lit
            for cell in self.puzzle.whites
            for lit in self.cells.value_lits(cell, solution.values[cell])
        ]

    def stats(self) -> dict[str, int]:
        if self._released is not None:
            return dict(self._released)
        return {
            "variables": self.n_vars,
            "clauses": len(self.clauses),
            "literals": sum(map(len, self.clauses)),
        }

    def release(self) -> None:
        """Drop the clause list once a solver holds its copy (:meth:`stats` keeps its sizes).

        A solving session keeps the encoding to decode models; the thousands of small clause
        lists it would keep alive are what the cyclic garbage collector walks after the build
        (about a fifth of building a PE424 puzzle's formula).  Freed while the collector is
        paused, they are never walked.  The formula is gone: :meth:`to_text` and
        :meth:`to_cnf` refuse."""
        self._released = self.stats()
        self.clauses = []

    def _intact(self) -> None:
        if self._released is not None:
            raise KakuroError("this CNF encoding was released by its solver session")

    @property
    def n_vars(self) -> int:
        """The highest variable: every variable, auxiliaries of pysat.card / pysat.pb
        included, comes from the shared pool, so this is the pool's top."""
        return self.pool.top

    def var_map(self) -> list[tuple[int, tuple[Any, ...]]]:
        """Named variables as ``(id, key)``, ascending ids."""
        return sorted((v, k) for k, v in self.pool.obj2id.items())

    def comments(self) -> list[str]:
        """The DIMACS comment lines: header, variable map and projection.

        ``c p show V... 0`` (the model counting competition's projection line) lists the
        grid variables, so an outside model counter (ganak, d4, approxmc) counts grids, not
        the ways auxiliary variables can be set."""
        lines = [
            "c kakurolab CNF",
            f"c puzzle {self.puzzle.id}",
            f"c encoding {self.spec}",
            "c cells are r<row>c<col> counted from 1, as kakuro prints them",
        ]
        lines += [f"c note {note}" for note in self.notes]
        if self.lazy_runs:
            lines.append(
                "c warning sum=lazy: run sums are not in this file (checked by the solver loop)"
            )
        lines += [f"c var {v} {key_text(key)}" for v, key in self.var_map()]
        lines.append("c p show " + " ".join(map(str, self.grid_vars)) + " 0")
        return lines

    def to_cnf(self) -> CNF:
        """The formula as a ``pysat.formula.CNF`` (a copy), with :meth:`comments`, so it
        works with the rest of PySAT (``Solver(bootstrap_with=...)``, ``to_file``)."""
        cnf = CNF()
        cnf.clauses = [list(clause) for clause in self.clauses]
        cnf.nv = self.n_vars
        cnf.comments = self.comments()
        return cnf

    def to_text(self) -> str:
        self._intact()
        lines = self.comments()
        lines.append(f"p cnf {self.n_vars} {len(self.clauses)}")
        lines += [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(lines) + "\n"
