"""The native backend: constraint propagation and depth-first search in plain Python.

It is the baseline every encoding is compared against, so it is built to be fast rather than
general.  The whole search state is one flat list of masks (cells first, then the ten letters
of a cryptic puzzle), copied once per decision.  Propagation is the solver-neutral
:class:`kakurolab.propagation.Propagator` (exact run revisions to a fixpoint, letters of
cryptic puzzles included), which a session *is*: the search below only decides, copies and
backtracks, so published puzzles solve almost without search.

Search is depth-first with 2-way branching (``x = v`` first, then ``x != v``) on the variable
with the fewest values left (letters before cells on ties), lowest value first: deterministic,
and it enumerates every grid exactly once, which is why :meth:`NativeSession.block` only has
to remember grids the search has not reached yet.

Large numeric puzzles (``search="auto"``, the backend's default: at least
:data:`LEARNING_CELLS` white cells) use the conflict-driven search of :mod:`._learning`
instead: on a loose 1,931-cell grid an early guess dooms a distant corner that propagation
reaches a hundred decisions later, and chronological backtracking never recovers, while
learned clauses jump straight back (issue 12: seconds instead of a timeout).  Measured, the
depth-first search stays the faster one on the published puzzles (janko, PE424: solved at
the root or with a few nodes, where a copied state beats a trail), so small puzzles and
cryptic ones (whose letters only the depth-first search handles) keep it.  A session built
directly defaults to ``dfs``: the generator's region checks budget it in depth-first nodes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, ClassVar

from ..errors import KakuroError, OptionValueError
from ..model import Puzzle, Solution
from ..propagation import CHECK_EVERY, Propagator, RootState, SearchStats, root_domains, root_state
from ..propagation import Key as _Key
from ._learning import LearningSearch, LearningStats
from .base import Backend, NumberOption, Session, Status

LEARNING_CELLS = 400
"""Numeric puzzles with at least this many white cells use the learning search (``auto``)."""

SEARCHES = ("auto", "dfs", "learning")
"""The ``search`` option: ``learning`` applies to numeric puzzles only (cryptic ones keep the
depth-first search, which handles the letters)."""


class NativeBackend(Backend):
    name = "native"
    doc = "exact per-run propagation + MRV depth-first search in pure Python (the baseline)"
    extra = None
    accepted_options: ClassVar[dict[str, str]] = {
        "node_limit": "search nodes per session before UNKNOWN (a machine-independent timeout)",
        "search": "auto (learning for large numeric puzzles), dfs or learning",
    }
    numeric_options: ClassVar[dict[str, NumberOption]] = {"node_limit": NumberOption()}

    def __init__(
        self, *, node_limit: int | None = None, search: str = "auto", **options: Any
    ) -> None:
        super().__init__(**options)  # refuses any option but node_limit and search
        if node_limit is not None and node_limit < 0:
            raise OptionValueError(f"native node_limit must be >= 0, got {node_limit}")
        if search not in SEARCHES:
            known = ", ".join(SEARCHES)
            raise OptionValueError(f"native search must be one of {known}, got {search!r}")
        self.options = {"node_limit": node_limit, "search": search}
        self.node_limit = node_limit
        self.search = search

    def _open(self, puzzle: Puzzle) -> Session:
        return NativeSession(puzzle, node_limit=self.node_limit, search=self.search)


class NativeSession(Propagator, Session):
    """One puzzle, solved by a resumable search.

    ``next`` resumes a generator that yields each grid once (or ``None`` when the deadline
    passes, so the next call continues where the search stopped).  ``node_limit`` caps the
    nodes the whole session may expand: unlike a deadline it stops at the same point on any
    machine, so callers that need reproducible answers (the generator) budget with it.  Once
    spent, every later ``next`` answers ``UNKNOWN``.
    """

    def __init__(self, puzzle: Puzzle, node_limit: int | None = None, search: str = "dfs") -> None:
        start = time.perf_counter()
        Propagator.__init__(self, puzzle)
        self.blocked: set[_Key] = set()
        self.deadline: float | None = None
        self.node_limit = node_limit
        self.nodes = self.propagations = self.solutions = 0
        self.dfs_stats = SearchStats()
        self.learning: LearningStats | None = None
        self.uses_learning = not self.cryptic and (
            search == "learning" or (search == "auto" and self.n_cells >= LEARNING_CELLS)
        )
        self.walk = self._search()
        """The running search: a generator resumed by each ``next``."""
        self.done = self.closed = False
        self.encode_time = time.perf_counter() - start

    # -- the session interface -------------------------------------------------------------

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        """The next grid not blocked, ``UNSAT`` once none is left, ``UNKNOWN`` on timeout."""
        if self.done:
            return Status.UNSAT, None
        if self.closed:
            return Status.UNKNOWN, None
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        for found in self.walk:
            if found is None:
                return Status.UNKNOWN, None
            key, letters = found
            if key in self.blocked:
                continue
            self.solutions += 1
            return Status.SAT, self._solution(key, letters)
        self.done = True
        return Status.UNSAT, None

    def block(self, solution: Solution) -> None:
        """Exclude a grid from later answers.

        The search never reaches a grid twice, so a grid already returned needs nothing; a grid
        not reached yet is remembered and skipped when the search gets there.
        """
        values = solution.values
        if all(cell in values for cell in self.cells):  # else no grid of this puzzle
            self.blocked.add(tuple(values[cell] for cell in self.cells))

    def close(self) -> None:
        """End the search; a later ``next`` answers ``UNKNOWN`` (nothing was proved)."""
        self.walk.close()  # type: ignore[attr-defined]  # a generator, typed as an Iterator
        self.closed = True

    def stats(self) -> dict[str, Any]:
        if self.learning is not None:
            learning = self.learning
            return {
                "nodes": learning.decisions,
                "propagations": self.propagations + learning.revisions,
                "fails": learning.conflicts,
                "max_depth": learning.max_level,
                "solutions": self.solutions,
                "learned": learning.learned,
                "restarts": learning.restarts,
            }
        dfs = self.dfs_stats
        return {
            "nodes": dfs.nodes,
            "propagations": self.propagations,
            "fails": dfs.fails,
            "max_depth": dfs.max_depth,
            "solutions": self.solutions,
        }

    # -- search ----------------------------------------------------------------------------

    def _search(self) -> Iterator[tuple[_Key, tuple[int, ...]] | None]:
        """The learning search for large numeric puzzles, else depth-first search."""
        return self._learning() if self.uses_learning else self._dfs()

    def _learning(self) -> Iterator[tuple[_Key, tuple[int, ...]] | None]:
        """Root propagation, then :class:`LearningSearch`: yields each grid once, or ``None``
        when the deadline has passed or the node budget is spent (nodes are decisions)."""
        state = self.initial[:]
        if not self._propagate(state, range(len(self.run_cells)), ()):
            return
        tables = [table for table in self.tables if table is not None]
        if len(tables) != len(self.tables):  # a letter clue: only the depth-first search
            raise KakuroError("the learning search takes numeric puzzles only")
        search = LearningSearch(
            state, self.run_cells, self.cell_runs, self.run_get, tables, self.fixed
        )
        self.learning = search.stats
        stats = search.stats
        countdown = CHECK_EVERY
        limit = -1 if self.node_limit is None else self.node_limit

        def stop() -> bool:
            nonlocal countdown
            self.nodes = stats.decisions
            if self.nodes == limit:
                return True
            countdown -= 1
            if not countdown:
                countdown = CHECK_EVERY
                return self.deadline is not None and time.perf_counter() > self.deadline
            return False

        for found in search.solutions(stop):
            yield None if found is None else (self._key(found), ())

    def _dfs(self) -> Iterator[tuple[_Key, tuple[int, ...]] | None]:
        """The propagator's depth-first search from the initial state, under this session's
        node budget and deadline."""
        return self.search(
            self.initial,
            node_limit=self.node_limit,
            stats=self.dfs_stats,
            out_of_time=self._out_of_time,
        )

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


__all__ = ["NativeBackend", "NativeSession", "RootState", "root_domains", "root_state"]
