"""The three searches over a :class:`Propagator`, in one registry with one shape.

Every search is a :class:`Search`: ``search(propagator, start=None, *, node_limit=None,
stats=None, out_of_time=None)`` yielding each grid inside ``start`` once as a :data:`Found`,
or ``None`` when ``out_of_time()`` says so (resuming goes on) or ``node_limit`` units of its
counters' ``work`` are spent (``None`` from then on).  :data:`SEARCHES` names them with what
differs: their counters, whether running out proves that no other grid exists, and which
puzzles they take.  The native backend runs them (alone or in turns) from this table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from . import depth_first, learning, local
from .propagator import Propagator
from .protocol import Counters, Found


class Search(Protocol):
    """The shape every search has (``stats`` is the search's own :class:`Counters`)."""

    def __call__(
        self,
        propagator: Propagator,
        start: list[int] | None = None,
        *,
        node_limit: int | None = None,
        stats: Any = None,
        out_of_time: Callable[[], bool] | None = None,
    ) -> Iterator[Found | None]: ...


def _any(propagator: Propagator) -> bool:
    return True


def _numeric(propagator: Propagator) -> bool:
    return not propagator.cryptic


@dataclass(frozen=True)
class SearchKind:
    """One search: its function, a fresh set of its counters, whether it is complete (when
    it runs out, every grid has been yielded), and which puzzles it takes."""

    name: str
    run: Search
    counters: Callable[[], Counters]
    complete: bool
    applies: Callable[[Propagator], bool]
    doc: str


SEARCHES: dict[str, SearchKind] = {
    kind.name: kind
    for kind in (
        SearchKind(
            "dfs",
            depth_first.search,
            depth_first.SearchStats,
            True,
            _any,
            "depth-first, 2-way branching on the fewest values, a copied state per node",
        ),
        SearchKind(
            "learning",
            learning.search,
            learning.LearningStats,
            True,
            _numeric,
            "conflict-driven: learned clauses over digit removals, backjumps, restarts",
        ),
        SearchKind(
            "local",
            local.search,
            local.LocalStats,
            False,
            local.applies,
            "incomplete: a max-flow start and sum-keeping moves; finds grids, proves nothing",
        ),
    )
}
"""The searches by name: depth-first, learning, local."""
