"""The depth-first search over a propagator: the first of the three searches.

2-way branching on the slot with the fewest values left, a copied state per decision, every
grid reached once.  It is :meth:`Propagator.search <.propagator.Propagator.search>` (which
hands itself in), the native backend's search for published and cryptic puzzles, and the
generator's region checks and probes.  It needs of a propagator only the :class:`Fixpoint` of
:mod:`.protocol`.

Branching is 2-way (``x = v`` first, then ``x != v``) on the slot with the fewest values left
(letters before cells on ties), lowest value first: deterministic, and every grid is reached
exactly once.  ``prefer`` (a mask per slot) tries those values first: the generator's probes
prefer the fill, so the first solution they reach differs from it as little as the search can
tell.  A node budget, unlike a clock, stops at the same point on any machine, which is what
the generator's reproducible checks need.

``order`` (default: every slot, letters first) lists the slots to branch on, in tie-break
order; the others must be decided in ``start``.  ``revise`` (default: every run) names the
runs to revise before the first node, for a ``start`` that is a fixpoint but for a few
narrowed cells.  The generator searches a region of a large grid many times, every other
cell held at its fill: neither scanning the held cells for a branch nor revising their runs
again changes what the search does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .protocol import CHECK_EVERY, POP, Fixpoint, Found


@dataclass
class SearchStats:
    """Counters of one depth-first search, shared with its caller (read them while it
    runs)."""

    nodes: int = 0
    fails: int = 0
    max_depth: int = 0

    @property
    def work(self) -> int:
        """The nodes: what a node budget counts."""
        return self.nodes


def search(
    propagator: Fixpoint,
    start: list[int] | None = None,
    *,
    node_limit: int | None = None,
    stats: SearchStats | None = None,
    out_of_time: Callable[[], bool] | None = None,
    prefer: Sequence[int] | None = None,
    order: Sequence[int] | None = None,
    revise: Iterable[int] | None = None,
) -> Iterator[Found | None]:
    """Depth-first search from ``start`` (default: the initial state): yields each
    solution inside it once, or ``None`` when ``out_of_time()`` says so (resuming goes
    on) or the node budget is spent (``None`` from then on).  The module docstring says
    how it branches and what ``prefer``, ``order`` and ``revise`` do."""
    stats = SearchStats() if stats is None else stats
    pop, assign = POP, propagator.narrowed
    order = propagator.order if order is None else order
    state = (propagator.initial if start is None else start)[:]
    letters = propagator.letter_slots if propagator.cryptic else ()
    runs = range(len(propagator.run_cells)) if revise is None else revise
    if not propagator.propagate(state, runs, letters):
        return
    if propagator.cuts_refute(state):
        return
    stack: list[tuple[list[int], int, int]] = []  # pending "x != v" branches
    current: list[int] | None = state
    countdown = CHECK_EVERY
    limit = -1 if node_limit is None else node_limit
    while True:
        if current is not None:
            while stats.nodes == limit:
                yield None  # the node budget is spent: UNKNOWN from now on
            stats.nodes += 1
            countdown -= 1
            if not countdown:
                countdown = CHECK_EVERY
                if out_of_time is not None and out_of_time():
                    yield None
            var, best = -1, 11
            for i in order:
                size = pop[current[i]]
                if 1 < size < best:
                    var, best = i, size
                    if size == 2:
                        break
            if var < 0:
                digits = propagator.letter_digits(current)
                if digits is not None:
                    yield propagator.key(current), digits
                else:
                    stats.fails += 1
            else:
                mask = current[var]
                low = mask & -mask
                if prefer is not None and mask & prefer[var]:
                    low = mask & prefer[var]
                    low &= -low
                stack.append((current, var, low))
                if len(stack) > stats.max_depth:
                    stats.max_depth = len(stack)
                child = current[:]
                child[var] = low
                if assign(child, var):
                    current = child
                    continue
                stats.fails += 1
        # Backtrack: take the most recent pending "x != v" branch that propagates.
        while True:
            if not stack:
                return
            current, var, low = stack.pop()
            current[var] &= ~low
            if assign(current, var):
                break
            stats.fails += 1
