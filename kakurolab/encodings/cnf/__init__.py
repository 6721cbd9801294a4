"""CNF encodings through PySAT: one :class:`CNFEncoding` built from the spec's parts.

Parts (``ENCODERS`` kinds):

* ``cell``  -- cell-value encoding (:mod:`.cells`: direct, order, log);
* ``amo``   -- the exactly-one of every one-hot (direct cells, letters, selectors), any
  ``pysat.card`` encoding;
* ``sum``   -- run sums (:mod:`.sums`: combo, table, mdd, pb:<pysat.pb encoding>, lazy);
* ``alldiff`` -- per run and digit at-most-one (:mod:`.alldiff`), or ``none``;
* ``redundant`` -- extra, logically implied clauses (``domain``, ``combo``);
* ``ties`` -- how a two-letter cryptic clue's digits select its sum (:mod:`.letters`:
  ``split``, the default, or ``pairs``, the encoder before 2026-12);
* ``sets`` -- how ``combo:lean`` writes a guarded (cryptic) run's digit sets (:mod:`.sums`:
  ``exclude``, the default, one clause per set where that is smaller than selectors, or
  ``select``, selectors everywhere, the encoder before 2026-12-02);
* ``guards`` -- what selects a cryptic run's sum (:mod:`.letters`): ``literal``, the default,
  a letter's digit literal itself where the sum is one letter's digit, or ``own``, a guard
  variable per feasible sum everywhere (the encoder before 2026-12-02).
* ``letters`` -- which letter variables a presolved (``pre=root``/``probe``) cryptic formula has:
  ``live``, the default, only the digits the presolve left to undecided letters (a decided
  letter is a constant, with no variable and no clause), or ``all``, 100 letter variables
  with units for the removed digits (the encoder before 2026-12-02, later in the day).

All variables come from one shared ``IDPool`` keyed by readable tuples (``("cell", r, c, d)``,
``("letter", "A", d)``, ``("combo", run, mask)`` ...), so a model decodes in one place and
DIMACS files carry a variable map.  Every part is a function of the pool (the
:class:`CNFEncoding` under construction, seen through :class:`.pool.Pool`) that returns its
clauses; :func:`encode_cnf` alone adds them to the formula, in a fixed order.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from pysat.formula import CNF, IDPool

from ... import combos, deadline
from ...errors import KakuroError
from ...gcpause import gc_paused
from ...model import LETTERS, Cell, Puzzle, Run, Solution
from ..base import Encoding, Part
from ..spec import Spec
from .alldiff import CARD_ENCODINGS, at_most_one, encode_alldiff
from .cells import CELL_ENCODINGS, CellEncoding, Direct, Log, Order
from .letters import (
    TIES,
    encode_letters,
    letter,
    letter_row,
    make_live_letters,
    run_targets,
)
from .pool import Clauses, Pool
from .sums import SUMS, SumBuilder, Target, encode_combo

PRESOLVES = ("root", "probe")
"""``pre`` values that narrow domains by native propagation before encoding."""

DECLARE_CHUNK = 500
"""Cells declared between two deadline checks."""

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


REDUNDANT: dict[str, SumBuilder | None] = {"none": None, "domain": None, "combo": encode_combo}
"""The clauses each ``redundant`` value adds per run (``domain`` adds none: it prunes cell
domains before encoding).  ``combo`` on top of ``sum=combo`` adds nothing either."""


def redundant_part(spec: Spec) -> SumBuilder | None:
    """The builder of the spec's redundant clauses per run (None: none to add)."""
    build = REDUNDANT[spec["redundant"]]
    return None if build is SUMS[spec.name("sum")].build else build


def run_domain(run: Run, targets: list[Target]) -> int:
    """The digits (mask) some admissible digit set of the run holds."""
    allowed = 0
    for total, _ in targets:
        allowed |= combos.union(len(run), total)
    return allowed


def _presolve(enc: CNFEncoding) -> dict[Cell, int] | None:
    """``pre=root``: narrow cell and letter domains by the native propagator at the root;
    ``pre=probe``: then probe the letters too (:func:`~kakurolab.propagation.probed_state`).

    Domain filtering before encoding, as Savile Row (with Minion) and Picat's SAT compiler
    do: propagation removes only values no solution uses, so the CNF keeps every solution
    (counts and uniqueness verdicts are unchanged) and encodes what is left.  Contradictory
    clues give the empty clause, the whole formula.  Probing is the singleton consistency
    such systems offer as a stronger preprocessing level, on the ten letters alone."""
    from ...propagation import probed_state, root_state

    # The band totals (cut sums) only refute, never narrow a domain, and a letter clue
    # bounds its run by the run's length alone, so on a cryptic puzzle they are weak while
    # building them took half of the root propagation of the open hard-cryptic members
    # (0.24-0.31 ms): there the formula refutes what they would.
    cut_sums = not enc.puzzle.is_cryptic
    if enc.spec.get("pre") == "probe":
        found = probed_state(enc.puzzle, cut_sums=cut_sums)
    else:
        found = root_state(enc.puzzle, cut_sums=cut_sums)
    if found is None:
        enc.clauses.append([])
        return None
    enc.presolved = True
    enc.letter_masks.update(found.letters)
    if found.letters and (enc.spec.get("letters") or DEFAULT_LETTERS) == "live":
        enc.live_letters = True
        enc.fixed_letters.update(
            (ch, mask.bit_length() - 1)
            for ch, mask in found.letters.items()
            if not mask & (mask - 1)
        )
        make_live_letters(enc)
    return found.cells


def _encode_settled(enc: CNFEncoding, root: dict[Cell, int]) -> bool:
    """When root propagation left one digit per cell (and per letter), that grid is the
    puzzle's only solution: the formula is then its units alone (the run constraints could
    only agree).  True when it wrote them.  Published-look puzzles often settle so; on the
    hard cryptic family writing every run for them took most of the presolved preset's time.

    The grid is not rule-checked here (that took a third of the rest of the work): the
    propagator revises each run exactly, so a run whose cells are all decided keeps its
    distinct digits and its clue or is wiped out (refuted), and native's search yields such
    a state as a solution as it stands.  Every session's answers are rule-checked anyway."""
    if any(mask & (mask - 1) for mask in root.values()):
        return False
    masks = enc.letter_masks
    if enc.puzzle.is_cryptic and (
        len(masks) < len(LETTERS) or any(mask & (mask - 1) for mask in masks.values())
    ):
        return False
    letters = {ch: mask.bit_length() - 1 for ch, mask in masks.items()}
    if len(set(letters.values())) < len(letters):
        return False  # not a bijection: let the letter clauses refute it
    enc.clauses += enc.cells.declare_fixed(
        {cell: root[cell].bit_length() for cell in enc.puzzle.whites}
    )
    if not enc.live_letters:  # live: every letter is decided, a constant
        for ch, digit in letters.items():
            row = letter_row(enc, ch)
            enc.clauses += [[lit if d == digit else -lit] for d, lit in enumerate(row)]
    return True


def _filled_runs(enc: CNFEncoding, root: dict[Cell, int]) -> set[int] | None:
    """The runs root propagation filled in whose clue is known (a number, or letters it
    fixed too), each checked here: distinct digits adding up to the clue.  Their cells'
    units say all there is, so the presolved formula leaves their constraints out (most
    runs of a published-look puzzle: 653 of 682 on the 40x40 large-unique member).  None
    when a filled run breaks a rule: then no solution exists."""
    filled: set[int] = set()
    letters = enc.letter_masks
    for index, run in enumerate(enc.puzzle.runs):
        masks = [root[cell] for cell in run.cells]
        clue = run.clue
        if clue is None or any(mask & (mask - 1) for mask in masks):
            continue
        known = {ch: letters.get(ch, combos.ALL_LETTER_DIGITS) for ch in clue.letters or ""}
        if any(mask & (mask - 1) for mask in known.values()):
            continue
        target = clue.evaluate({ch: mask.bit_length() - 1 for ch, mask in known.items()})
        digits = {mask.bit_length() for mask in masks}
        if len(digits) != len(masks) or sum(digits) != target:
            return None
        filled.add(index)
    return filled


def encode_cnf(puzzle: Puzzle, spec: Spec) -> CNFEncoding:
    """The puzzle as CNF under a canonical CNF spec (see :func:`..parse_spec`), built with
    the garbage collector paused (:mod:`kakurolab.gcpause`: clause lists form no cycles)."""
    start = time.perf_counter()
    with gc_paused():
        enc = _encode_cnf(puzzle, spec)
    enc.encode_time = time.perf_counter() - start
    return enc


def _encode_cnf(puzzle: Puzzle, spec: Spec) -> CNFEncoding:
    enc = CNFEncoding(puzzle, spec)
    root = None
    filled: set[int] = set()
    if spec.get("pre") in PRESOLVES:
        root = _presolve(enc)
        if root is None or _encode_settled(enc, root):
            return enc  # refuted (the empty clause is the formula), or settled at the root
        found_filled = _filled_runs(enc, root)
        if found_filled is None:
            enc.clauses.append([])
            return enc
        filled = found_filled
    targets: list[list[Target]] = []
    ties = spec.get("ties") or DEFAULT_TIES
    guards = spec.get("guards") or DEFAULT_GUARDS
    for index, run in enumerate(puzzle.runs):
        deadline.check()
        if index in filled:
            targets.append([])  # no constraint left: its cells' units say it all
            continue
        found, clauses = run_targets(enc, index, run, ties, guards)
        targets.append(found)
        enc.clauses += clauses
    sum_encoding = SUMS[spec.name("sum")]
    prune = sum_encoding.prunes or spec["redundant"] in ("domain", "combo")
    masks = dict(root) if root is not None else dict.fromkeys(puzzle.whites, combos.ALL_DIGITS)
    if prune:  # per run, not per cell: a run's hash is not cached
        for index, (run, found) in enumerate(zip(puzzle.runs, targets, strict=True)):
            if index in filled:
                continue
            domain = run_domain(run, found)
            for cell in run.cells:
                masks[cell] &= domain
    declare = enc.cells.declare_all
    whites = puzzle.whites
    for start in range(0, len(whites), DECLARE_CHUNK):  # declaring 8,780 cells takes 1-2 s
        deadline.check()
        chunk = whites[start : start + DECLARE_CHUNK]
        enc.clauses += declare({cell: combos.digits_of(masks[cell]) for cell in chunk})
    if puzzle.is_cryptic:
        enc.clauses += encode_letters(enc, puzzle)
    build_sum = sum_encoding.build
    sum_arg = spec.arg("sum")
    alldiff = spec["alldiff"]
    redundant = redundant_part(spec)
    for index, run in enumerate(puzzle.runs):
        deadline.check()  # a timeout covers building the formula too
        if not targets[index]:
            continue
        enc.clauses += build_sum(enc, index, run, targets[index], sum_arg)
        if sum_encoding.lazy:
            enc.lazy_runs.append((run, targets[index]))
        if redundant is not None:
            enc.clauses += redundant(enc, index, run, targets[index], None)
        enc.clauses += encode_alldiff(enc, run, alldiff)
    return enc


ALL_CELLS = tuple(CELL_ENCODINGS)
"""Every constraint part works with every cell encoding: ``pb`` sums read the cells' own
variables (one-hot digits, ladder steps or binary bits, see ``CellEncoding.pb_terms``); the
others use ``x = d`` literals, which order and log cells define by channelling on demand."""

_IMPLYING = ", ".join(name for name, record in SUMS.items() if record.implies_alldiff)

CNF_ENCODERS: dict[str, dict[str, Part]] = {
    "cell": {name: Part(name, doc) for name, (_, doc) in CELL_ENCODINGS.items()},
    "amo": {
        "auto": Part(
            "auto", "exactly-one of each one-hot: pairwise up to 9 literals, else sequential"
        ),
        **{
            name: Part(name, f"exactly-one of each one-hot by pysat.card {name}")
            for name in CARD_ENCODINGS
        },
    },
    "sum": {
        name: Part(
            name,
            record.doc,
            build=record.build,
            args=record.args,
            cells=ALL_CELLS,
            implies_alldiff=record.implies_alldiff,
        )
        for name, record in SUMS.items()
    },
    "alldiff": {
        "none": Part("none", f"no clauses (only with {_IMPLYING}, which imply it)"),
        **{
            name: Part(name, f"per run and digit at-most-one by pysat.card {name}", cells=ALL_CELLS)
            for name in CARD_ENCODINGS
        },
    },
    "pre": {
        "none": Part("none", "no presolve: the whole puzzle is encoded (the default)"),
        "root": Part(
            "root", "presolve: cell and letter domains narrowed by native root propagation"
        ),
        "probe": Part(
            "probe",
            "presolve: root propagation, then the letters' digits probed (a digit whose "
            "propagation fails is removed), at most 16 probes; numeric puzzles as root",
        ),
    },
    "ties": {name: Part(name, doc) for name, (_, doc) in TIES.items()},
    "sets": {
        "exclude": Part(
            "exclude",
            "combo:lean on guarded (cryptic) runs: one clause per digit set (all its digits "
            "occur -> its sum's guard) where selectors cost more; needs an explicit alldiff",
        ),
        "select": Part(
            "select", "combo:lean on guarded runs: selectors everywhere (the encoder before)"
        ),
    },
    "guards": {
        "literal": Part(
            "literal",
            "a cryptic sum that is one letter's digit (one letter, AA, or one tens digit left) "
            "is selected by that letter literal itself",
        ),
        "own": Part("own", "every feasible cryptic sum gets its own guard (the encoder before)"),
    },
    "letters": {
        "live": Part(
            "live",
            "presolved (pre=root/probe) cryptic puzzles: letter variables only for the digits "
            "the presolve left to undecided letters; a decided letter is a constant",
        ),
        "all": Part("all", "presolved: all 100 letter variables (the encoder before)"),
    },
    "redundant": {
        "none": Part("none", "no redundant clauses"),
        "domain": Part("domain", "remove digits that no admissible digit set of a run holds"),
        "combo": Part("combo", "add the combo encoding on top of the sum encoding"),
    },
}

CNF_DEFAULTS = {"cell": "direct", "amo": "auto", "sum": "combo", "redundant": "none"}

DEFAULT_TIES = "split"
"""``ties`` when a spec names none: left out of canonical specs (as ``pre=none`` is), so the
spec strings from before the part existed keep their names."""

DEFAULT_SETS = "exclude"
"""``sets`` when a spec names none (left out of canonical specs, as ``ties``)."""

DEFAULT_GUARDS = "literal"
"""``guards`` when a spec names none (left out of canonical specs, as ``ties``)."""

DEFAULT_LETTERS = "live"
"""``letters`` when a spec names none (left out of canonical specs, as ``ties``)."""

OPTIONAL_DEFAULTS = {
    "pre": "none",
    "ties": DEFAULT_TIES,
    "sets": DEFAULT_SETS,
    "guards": DEFAULT_GUARDS,
    "letters": DEFAULT_LETTERS,
}
"""Parts a canonical spec leaves out when they have these values."""

CNF_PRESETS: dict[str, tuple[str, str]] = {
    "naive": (
        "cell=direct,sum=pb:best,alldiff=pairwise",
        "textbook: one-hot cells, pysat.pb sums, pairwise all-different",
    ),
    "compact": (
        "cell=log,sum=pb:bdd,alldiff=seqcounter",
        "few variables: binary cells, BDD sums, sequential-counter all-different",
    ),
    "order": (
        "cell=order,sum=pb:totalizer,alldiff=pairwise",
        "order-encoded cells with totalizer sums",
    ),
    "combo": ("cell=direct,sum=combo", "digit-set selectors (all-different implied)"),
    "fast": (
        "cell=direct,sum=combo:lean,alldiff=pairwise",
        "lean combo plus explicit all-different: small, propagates well (the default)",
    ),
    "presolved": (
        "cell=direct,sum=combo:lean,alldiff=pairwise,pre=root",
        "fast after root propagation by the native solver (fastest; not independent of native)",
    ),
    "probed": (
        "cell=direct,sum=combo:lean,alldiff=pairwise,pre=probe",
        "presolved plus probing of a cryptic puzzle's letters (not independent of native)",
    ),
    "table": ("cell=direct,sum=table", "tuple support encoding, GAC per run"),
    "strong": ("cell=direct,sum=mdd", "MDD per run, GAC on sum + all-different by propagation"),
    "lazy": (
        "cell=direct,sum=lazy,alldiff=pairwise",
        "sums checked by the solver loop, cuts added on demand",
    ),
}

__all__ = [
    "CELL_KEYS",
    "CNF_DEFAULTS",
    "CNF_ENCODERS",
    "CNF_PRESETS",
    "DEFAULT_GUARDS",
    "DEFAULT_LETTERS",
    "DEFAULT_SETS",
    "DEFAULT_TIES",
    "OPTIONAL_DEFAULTS",
    "CNFEncoding",
    "Direct",
    "Log",
    "Order",
    "Pool",
    "encode_cnf",
    "key_text",
]
