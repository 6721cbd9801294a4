"""Propagation: exact per-run consistency to a fixpoint, solver-neutral.

The face of the package.  One kernel (:mod:`.kernel`: the memoized revision of a run) and one
:class:`Propagator` (:mod:`.propagator`: the fixpoint over a flat state of masks), with three
searches of one shape in one registry (:mod:`.searches`: depth-first in :mod:`.depth_first`,
conflict-driven with learned clauses in :mod:`.learning`, local in :mod:`.local`).  The native
backend searches with them, the ``pre=root`` presolve reads the root fixpoint
(:func:`root_state`, :mod:`.roots`), the generator's region check propagates with it, and
nothing here knows about solvers or encodings.
"""

from __future__ import annotations

from . import learning, local
from .depth_first import SearchStats
from .propagator import Propagator
from .protocol import CHECK_EVERY, POP, Counters, Found, Key
from .roots import PROBE_BUDGET, RootState, held_at, probed_state, root_domains, root_state
from .searches import SEARCHES, Search, SearchKind

__all__ = [
    "CHECK_EVERY",
    "POP",
    "PROBE_BUDGET",
    "SEARCHES",
    "Counters",
    "Found",
    "Key",
    "Propagator",
    "RootState",
    "Search",
    "SearchKind",
    "SearchStats",
    "held_at",
    "learning",
    "local",
    "probed_state",
    "root_domains",
    "root_state",
]
