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

The face of three modules: :mod:`.encoding` (the :class:`CNFEncoding`), :mod:`.assemble`
(:func:`encode_cnf` and the presolve) and :mod:`.registry` (the parts, defaults, presets).
"""

from __future__ import annotations

from .assemble import PRESOLVES, REDUNDANT, encode_cnf, redundant_part, run_domain
from .cells import Direct, Log, Order
from .encoding import CELL_KEYS, CNFEncoding, key_text
from .pool import Pool
from .registry import (
    ALL_CELLS,
    CNF_DEFAULTS,
    CNF_ENCODERS,
    CNF_PRESETS,
    DEFAULT_GUARDS,
    DEFAULT_LETTERS,
    DEFAULT_SETS,
    DEFAULT_TIES,
    OPTIONAL_DEFAULTS,
)

__all__ = [
    "ALL_CELLS",
    "CELL_KEYS",
    "CNF_DEFAULTS",
    "CNF_ENCODERS",
    "CNF_PRESETS",
    "DEFAULT_GUARDS",
    "DEFAULT_LETTERS",
    "DEFAULT_SETS",
    "DEFAULT_TIES",
    "OPTIONAL_DEFAULTS",
    "PRESOLVES",
    "REDUNDANT",
    "CNFEncoding",
    "Direct",
    "Log",
    "Order",
    "Pool",
    "encode_cnf",
    "key_text",
    "redundant_part",
    "run_domain",
]
