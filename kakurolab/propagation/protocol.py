"""What the three searches over a :class:`~.propagator.Propagator` share.

Each search (depth-first in :mod:`.depth_first`, conflict-driven in :mod:`.learning`, local
in :mod:`.local`) yields :data:`Found` answers, each grid once, or ``None`` when its caller's
clock or budget says stop, and reads the clock every :data:`CHECK_EVERY` steps.  The types
live here, below the propagator, so that the depth-first search can be written against the
:class:`Fixpoint` it needs (:class:`Propagator.search` hands itself to it) without an import
cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

POP = [m.bit_count() for m in range(1 << 10)]
"""Set bits of each 10-bit mask (the size of a domain)."""

Key = tuple[int, ...]
"""What identifies a solution: its cell digits in cell order (a grid, never a letter
assignment: a letter shown nowhere is not part of the grid)."""

Found = tuple[Key, tuple[int, ...]]
"""A solution the search reached: the grid key and the letter digits (A..J; empty when
standard)."""

CHECK_EVERY = 256
"""Search nodes between two calls of the caller's ``out_of_time`` (a node costs tens of
microseconds, a clock read does not need to happen at each)."""


class Clock:
    """Asks ``out_of_time`` every :data:`CHECK_EVERY`-th call (a clock read costs more than a
    step's bookkeeping): local search's clock."""

    def __init__(self, out_of_time: Callable[[], bool] | None) -> None:
        self.out_of_time = out_of_time
        self.countdown = CHECK_EVERY

    def now(self) -> bool:
        return self.out_of_time is not None and self.out_of_time()

    def __call__(self) -> bool:
        self.countdown -= 1
        if self.countdown:
            return False
        self.countdown = CHECK_EVERY
        return self.now()


class Counters(Protocol):
    """A search's counters (shared with its caller, read while it runs): ``work`` is the
    unit its node budget and the native portfolio's slices count."""

    @property
    def work(self) -> int: ...


class Fixpoint(Protocol):
    """What the depth-first search needs of a propagator: the state, the branching order,
    and the fixpoint after a narrowed slot."""

    @property
    def initial(self) -> list[int]: ...
    @property
    def order(self) -> list[int]: ...
    @property
    def letter_slots(self) -> tuple[int, ...]: ...
    @property
    def cryptic(self) -> bool: ...
    @property
    def run_cells(self) -> list[tuple[int, ...]]: ...

    def propagate(
        self, state: list[int], runs: Iterable[int], letters: Iterable[int] = ()
    ) -> bool: ...
    def narrowed(self, state: list[int], var: int) -> bool: ...
    def cuts_refute(self, state: list[int]) -> bool: ...
    def key(self, state: list[int]) -> Key: ...
    def letter_digits(self, state: list[int]) -> tuple[int, ...] | None: ...


def spent_or(
    counters: Counters, node_limit: int, out_of_time: Callable[[], bool] | None
) -> Callable[[], bool]:
    """A clock hook that also stops a search once ``node_limit`` units of work are spent
    (for a search that looks at its budget only when it looks at the clock)."""
    return lambda: counters.work >= node_limit or (out_of_time is not None and out_of_time())


def budgeted(
    walk: Iterator[Found | None], counters: Counters, node_limit: int
) -> Iterator[Found | None]:
    """``walk``, answering ``None`` for good once ``node_limit`` units of work are spent."""
    for found in walk:
        yield found
        while counters.work >= node_limit:
            yield None
