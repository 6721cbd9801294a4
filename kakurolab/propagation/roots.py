"""States to start from: the root fixpoint of a puzzle (:func:`root_state`), with its
letters probed (:func:`probed_state`), and a region of a grid held at the grid
(:func:`held_at`).  The ``pre=root`` and ``pre=probe`` presolves and the generator read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model import LETTERS, Cell, Puzzle
from .propagator import Propagator
from .protocol import POP


@dataclass(frozen=True)
class RootState:
    """The domains left by propagation at the root, before any search.

    ``cells`` maps each white cell to its digit mask (bit ``d - 1`` for digit ``d``);
    ``letters`` (cryptic puzzles only) maps each letter to its mask over 0-9 (bit ``d``).
    Propagation only removes values that no solution uses, so every solution of the puzzle
    lies inside these domains: encoders may presolve with them (``pre=root``).
    """

    cells: dict[Cell, int]
    letters: dict[str, int]


def root_state(puzzle: Puzzle, *, cut_sums: bool = True) -> RootState | None:
    """Propagate the puzzle at the root; None when the clues contradict each other (or,
    with ``cut_sums``, when some band's clue totals do not balance: :mod:`.totals`)."""
    return probed_state(puzzle, budget=0, cut_sums=cut_sums)


PROBE_BUDGET = 16
"""Letter probes :func:`probed_state` makes at most: a deterministic count, not a clock, so a
formula built on the probed domains is the same on any machine (certificates re-encode it)."""


def probed_state(
    puzzle: Puzzle, *, budget: int = PROBE_BUDGET, cut_sums: bool = True
) -> RootState | None:
    """:func:`root_state`, then failed-literal probing of the letters: each digit still open
    to a letter (fewest digits first, then A-J, digits ascending) is tried and propagated; a
    digit that fails is removed and the removal propagated, until a pass changes nothing or
    ``budget`` probes are spent.  Still only values no solution uses are removed.  Every clue
    of a cryptic puzzle hangs on its letters, so deciding one often settles the rest: the
    open 10x10 member of ``data/hard/cryptic.txt`` is settled after four probes.  Numeric
    puzzles have no letters, and a budget of 0 probes nothing: the root state as it is."""
    propagator = Propagator(puzzle, cut_sums=cut_sums)
    state = propagator.root()
    if state is None:
        return None
    n = propagator.n_cells
    if propagator.cryptic and not _probe_letters(propagator, state, budget):
        return None
    return RootState(
        dict(zip(propagator.cells, state[:n], strict=True)),
        dict(zip(LETTERS, state[n:], strict=True)) if propagator.cryptic else {},
    )


def _probe_letters(propagator: Propagator, state: list[int], budget: int) -> bool:
    """:func:`probed_state`'s probes, narrowing ``state`` (a root fixpoint) in place; False
    when a letter is left no digit."""
    n = propagator.n_cells
    letters = range(n, n + len(LETTERS))
    left = budget
    changed = True
    while changed and left > 0:
        changed = False
        for slot in sorted(letters, key=lambda i: (POP[state[i]], i)):
            mask = state[slot]
            if not mask & (mask - 1):
                continue
            keep, bits = 0, mask
            while bits and left > 0:
                low = bits & -bits
                bits ^= low
                left -= 1
                if propagator.assign(state[:], slot, low):
                    keep |= low
            keep |= bits  # digits left untried when the budget ran out
            if keep != mask:
                if not propagator.assign(state, slot, keep):
                    return False
                changed = True
            if left <= 0:
                break
    return True


def root_domains(puzzle: Puzzle) -> dict[Cell, int] | None:
    """Each white cell's digit mask after propagation at the root (see :func:`root_state`);
    None when the clues contradict each other.

    A cell left with more than one digit sits in a region that is ambiguous or needs search,
    which lets the generator find many weak spots with one propagation instead of one spot
    per solver call.
    """
    found = root_state(puzzle)
    return None if found is None else found.cells


def held_at(root: Sequence[int], fill: Sequence[int], free: Iterable[int]) -> list[int]:
    """The state a region is searched from: its ``free`` slots as ``root`` left them, every
    other slot held at ``fill`` (a singleton mask per slot): the generator's region checks
    and local search's repairs both search one region of a grid this way."""
    state = list(fill)
    for i in free:
        state[i] = root[i]
    return state
