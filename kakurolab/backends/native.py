"""The native backend: constraint propagation and search in plain Python.

It is the baseline every encoding is compared against, so it is built to be fast rather than
general.  The whole search state is one flat list of masks (cells first, then the ten letters
of a cryptic puzzle), copied once per decision.  Propagation is the solver-neutral
:class:`kakurolab.propagation.Propagator` (exact run revisions to a fixpoint, letters of
cryptic puzzles included), which a session holds, and so are its three searches
(:data:`kakurolab.propagation.SEARCHES`: depth-first, learning, local, one shape): a session
runs one of them, or the three in turns, under its deadline and node budget and skips grids
it was told to block, so published puzzles solve almost without search.

Search is depth-first with 2-way branching (``x = v`` first, then ``x != v``) on the variable
with the fewest values left (letters before cells on ties), lowest value first: deterministic,
and it enumerates every grid exactly once, which is why :meth:`NativeSession.block` only has
to remember grids the search has not reached yet.

Large numeric puzzles (``search="auto"``, the backend's default: at least
:data:`LEARNING_CELLS` white cells) use the conflict-driven search of
:mod:`kakurolab.propagation.learning` instead: on a loose 1,931-cell grid an early guess
dooms a distant corner that propagation reaches a hundred decisions later, and chronological
backtracking never recovers, while learned clauses jump straight back (issue 12: seconds
instead of a timeout).  Measured, the depth-first search stays the faster one on the
published puzzles (janko, PE424: solved at the root or with a few nodes, where a copied state
beats a trail), so smaller numeric puzzles run both in turns (:meth:`NativeSession._portfolio`:
depth-first search first, so published puzzles never reach the learning search; a loose
258-cell grid that took depth-first search 32,597 nodes takes the portfolio 1,169), and
cryptic ones (whose letters only the depth-first search handles) keep depth-first search.
With a node budget the portfolio is not used (a budget counts one search's nodes).  A session
built directly defaults to ``dfs``: the generator's region checks budget it in depth-first
nodes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from ..errors import OptionValueError
from ..model import Puzzle, Solution
from ..propagation import (
    SEARCHES,
    Counters,
    Found,
    Key,
    Propagator,
    RootState,
    SearchKind,
    SearchStats,
    learning,
    local,
    root_domains,
    root_state,
)
from .session import Backend, NumberOption, Session, Status

LEARNING_CELLS = 400
"""Numeric puzzles with at least this many white cells use the learning search (``auto``)."""

FIRST_SLICE = 1024
"""Depth-first nodes of the portfolio's first slice (``auto`` on smaller numeric puzzles);
the learning search then gets a quarter as many decisions (each costs about five nodes),
and every round doubles both."""

LOCAL_SHARE = 4
"""The local search's slice, in quarters of the round's budget counted in its moves and
repair decisions (a move costs a few depth-first nodes).  A whole budget against the learning
search's quarter splits a loose grid's time about evenly: a learning decision over the whole
grid costs four to five times a unit of local work (1.1 against 0.23 ms on a 1,095-cell loose
grid).  At 2 the learning search had about 70% of the time, and the grids local search finds
came later.  CPU seconds to prove seven loose grids of 600-1,100 cells not unique (``python
-m kakurolab.hard build loose``: seed 1 at 40x40, seeds 2-4 at 30x30 and 40x40): 51.6 s at
2, 34.4 s at 4, 29.0 s at 6; the 1,931-cell stress grid, whose grid the learning search
finds: 3.9-4.5 s at 2, 4.3 s at 4, 5.4 s at 6 (measured before local search's mends,
which took the seven grids to 17.6 s and the stress grid to 1.5 s at 4)."""

SEARCH_OPTIONS = ("auto", "dfs", "learning")
"""The ``search`` option (``auto``, or one complete search of :data:`SEARCHES` by name):
``learning`` applies to numeric puzzles only (cryptic ones keep the depth-first search, which
handles the letters); local search, which proves nothing, runs only in ``auto``'s turns."""


class NativeBackend(Backend):
    name = "native"
    doc = "exact per-run propagation + MRV depth-first search in pure Python (the baseline)"
    extra = None
    accepted_options: ClassVar[dict[str, str]] = {
        "node_limit": "search nodes per session before UNKNOWN (a machine-independent timeout)",
        "search": "auto (learning for large numeric puzzles, dfs and learning in turns for"
        " smaller ones), dfs or learning",
    }
    numeric_options: ClassVar[dict[str, NumberOption]] = {"node_limit": NumberOption()}

    def __init__(
        self, *, node_limit: int | None = None, search: str = "auto", **options: Any
    ) -> None:
        super().__init__(**options)  # refuses any option but node_limit and search
        if node_limit is not None and node_limit < 0:
            raise OptionValueError(f"native node_limit must be >= 0, got {node_limit}")
        if search not in SEARCH_OPTIONS:
            known = ", ".join(SEARCH_OPTIONS)
            raise OptionValueError(f"native search must be one of {known}, got {search!r}")
        self.options = {"node_limit": node_limit, "search": search}
        self.node_limit = node_limit
        self.search = search

    def _open(self, puzzle: Puzzle) -> Session:
        return NativeSession(puzzle, node_limit=self.node_limit, search=self.search)


class NativeSession(Session):
    """One puzzle, solved by a resumable search.

    ``next`` resumes a generator that yields each grid once (or ``None`` when the deadline
    passes, so the next call continues where the search stopped).  ``node_limit`` caps the
    nodes the whole session may expand: unlike a deadline it stops at the same point on any
    machine, so callers that need reproducible answers (the generator) budget with it.  Once
    spent, every later ``next`` answers ``UNKNOWN``.
    """

    def __init__(self, puzzle: Puzzle, node_limit: int | None = None, search: str = "dfs") -> None:
        start = time.perf_counter()
        self.propagator = propagator = Propagator(puzzle)
        self.blocked: set[Key] = set()
        self.deadline: float | None = None
        self.node_limit = node_limit
        self.solutions = 0
        numeric = not propagator.cryptic
        self.uses_learning = numeric and (
            search == "learning"
            or (search == "auto" and propagator.n_cells >= LEARNING_CELLS)
        )
        self.portfolio = numeric and search == "auto"
        self.dfs_stats = SearchStats()
        self.learning = (
            learning.LearningStats() if self.uses_learning or self.portfolio else None
        )
        self.local = (
            local.LocalStats() if self.portfolio and local.applies(propagator) else None
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
            if found[0] in self.blocked:
                continue
            self.solutions += 1
            return Status.SAT, self.propagator.solution(found)
        self.done = True
        return Status.UNSAT, None

    def block(self, solution: Solution) -> None:
        """Exclude a grid from later answers.

        The search never reaches a grid twice, so a grid already returned needs nothing; a grid
        not reached yet is remembered and skipped when the search gets there.
        """
        values, cells = solution.values, self.propagator.cells
        if all(cell in values for cell in cells):  # else no grid of this puzzle
            self.blocked.add(tuple(values[cell] for cell in cells))

    def close(self) -> None:
        """End the search; a later ``next`` answers ``UNKNOWN`` (nothing was proved)."""
        self.walk.close()  # type: ignore[attr-defined]  # a generator, typed as an Iterator
        self.closed = True

    def stats(self) -> dict[str, Any]:
        propagations = self.propagator.propagations
        dfs = self.dfs_stats
        if self.learning is not None:
            counts = self.learning
            return {
                "nodes": dfs.nodes + counts.decisions,
                "propagations": propagations + counts.revisions,
                "fails": dfs.fails + counts.conflicts,
                "max_depth": max(dfs.max_depth, counts.max_level),
                "solutions": self.solutions,
                "learned": counts.learned,
                "restarts": counts.restarts,
            }
        return {
            "nodes": dfs.nodes,
            "propagations": propagations,
            "fails": dfs.fails,
            "max_depth": dfs.max_depth,
            "solutions": self.solutions,
        }

    # -- search ----------------------------------------------------------------------------

    def _search(self) -> Iterator[Found | None]:
        """The portfolio (:meth:`_portfolio`) without a node budget on numeric puzzles, else
        the one search the budget counts: learning for large numeric puzzles, depth-first
        otherwise, from the initial state under this session's deadline."""
        if self.portfolio and self.node_limit is None:
            return self._portfolio()
        counters: Counters = self.dfs_stats
        kind = SEARCHES["dfs"]
        if self.uses_learning and self.learning is not None:
            kind, counters = SEARCHES["learning"], self.learning
        return kind.run(
            self.propagator,
            node_limit=self.node_limit,
            stats=counters,
            out_of_time=self._out_of_time,
        )

    def _turns(self) -> list[_Turn]:
        """The portfolio's searches, in turn order, with their slices in quarters of a round.

        Depth-first search first on smaller puzzles (it settles published ones in a few
        nodes, so they never reach the others); learning search (each decision costs about
        five depth-first nodes, so a quarter as many); local search last (:mod:`.local`:
        finds grids of loose puzzles where both complete searches flounder, proves nothing).
        """
        if self.learning is None:
            raise ValueError("the portfolio needs the learning counters")
        plan: list[tuple[str, Counters | None, int]] = [
            ("dfs", None if self.uses_learning else self.dfs_stats, 4),
            ("learning", self.learning, 1),
            ("local", self.local, LOCAL_SHARE),
        ]
        startup = {"local": local.start_seconds(self.propagator)} if self.local else {}
        return [
            _Turn(
                SEARCHES[name],
                self.propagator,
                counters,
                share,
                self._out_of_time,
                startup=startup.get(name, 0.0),
            )
            for name, counters, share in plan
            if counters is not None
        ]

    def _portfolio(self) -> Iterator[Found | None]:
        """The searches of :meth:`_turns` in turns, slices doubling (:data:`FIRST_SLICE`).

        No search wins everywhere: depth-first search settles published puzzles in a few
        nodes and some small unsat ones in 7,000 nodes where learning needs 25 s, while on a
        loose 258-cell grid it spent 32,597 nodes (1.4 s) before its first grid and learning
        145 decisions (0.04 s); on a loose 1,095-cell grid learning found no grid in 120 s
        and local search can find one in seconds.  In turns, each puzzle costs at most a
        few times its best search.  The searches are resumable generators; a grid another
        already gave is skipped, and the first complete search to run out has seen every
        grid, so that ends all of them.
        """
        turns = self._turns()
        returned: set[Key] = set()
        budget = FIRST_SLICE
        while True:
            for turn in list(turns):
                if not turn.started and turn.startup and self._too_late(turn.startup):
                    continue  # its first step would run past the deadline unchecked
                turn.started = True
                turn.end = turn.spent() + budget * turn.share // 4
                for found in turn.walk:
                    if found is None:
                        if not self._out_of_time():
                            break  # this slice is spent: the next search's turn
                        yield None  # the caller's deadline: resumed by the next call
                        continue
                    if found[0] not in returned:
                        returned.add(found[0])
                        yield found
                else:
                    if turn.complete:
                        return  # a complete search ran out: every grid has been given
                    turns.remove(turn)  # local search does not suit this puzzle
            budget *= 2

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def _too_late(self, seconds: float) -> bool:
        """Whether ``seconds`` from now is past the deadline."""
        return self.deadline is not None and time.perf_counter() + seconds > self.deadline


class _Turn:
    """One search of the portfolio: its walk (built with a stop test that ends its slice at
    the session's deadline or when its work reaches ``end``), its counters, and its slice in
    quarters of the round's budget."""

    def __init__(
        self,
        kind: SearchKind,
        propagator: Propagator,
        counters: Counters,
        share: int,
        out_of_time: Callable[[], bool],
        *,
        startup: float = 0.0,
    ) -> None:
        self.counters, self.share, self.complete = counters, share, kind.complete
        self.startup = startup
        """Seconds its first step may take without looking at the clock (local search's
        flow start): a turn not yet started does not start when that would pass the
        deadline (an 8,780-cell grid's flow took 0.9 s, so a 1 s timeout ended at 1.3 s)."""
        self.started = False
        self.end = 0
        self.out_of_time = out_of_time
        self.walk = kind.run(propagator, stats=counters, out_of_time=self._over)

    def spent(self) -> int:
        return self.counters.work

    def _over(self) -> bool:
        return self.out_of_time() or self.spent() >= self.end


__all__ = ["NativeBackend", "NativeSession", "RootState", "root_domains", "root_state"]
