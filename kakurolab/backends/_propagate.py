"""Pure, memoized propagation kernels of the native solver.

Every function here maps small integers (digit masks, sum masks) to small integers, so its
answers are cached in module-level dictionaries shared by every puzzle and session: published
puzzles reuse the same run states over and over, and a cache hit is one dictionary lookup.

Masks: a *cell mask* has bit ``d - 1`` for digit ``d`` (1-9); a *letter mask* has bit ``d`` for
digit ``d`` (0-9); a *sum mask* has bit ``t`` for the total ``t`` (0-45).
"""

from __future__ import annotations

from ..combos import MAX_SUM, mask_sum

ALL_SUMS = (1 << (MAX_SUM + 1)) - 1
"""Every total a run can have: the sums of a clueless run."""

FAIL = None
"""What :func:`revise_run` answers when no assignment of the run exists."""

RunRevision = tuple[tuple[tuple[int, int], ...], int] | None
"""``(changes, feasible_sums)``: ``changes`` lists ``(position, new_mask)`` for the cells whose
domain shrank; ``feasible_sums`` holds the totals some full assignment reaches."""

_SUM_OF = [mask_sum(m) for m in range(512)]
_RUN_CACHE: dict[tuple[tuple[int, ...], int], RunRevision] = {}
_CACHE_LIMIT = 2_000_000


def run_cache() -> dict[tuple[tuple[int, ...], int], RunRevision]:
    """The shared cache of :func:`revise_run` (handed to the solver's inner loop)."""
    if len(_RUN_CACHE) > _CACHE_LIMIT:  # bounded memory on very long batches
        _RUN_CACHE.clear()
    return _RUN_CACHE


def revise_run(doms: tuple[int, ...], sums: int) -> RunRevision:
    """Exact consistency of one run: sum in ``sums`` and all digits different.

    A cell keeps a digit only when some full assignment of the run uses it there.  A subset
    dynamic programme over the cells in order (state: the set of digits used so far) finds the
    reachable states forwards, the states that still reach an admissible final set backwards,
    and keeps the transitions between the two.  At most 2^9 states, so a miss costs little
    and a hit (:func:`run_cache`) costs nothing.
    """
    sum_of = _SUM_OF
    layers: list[set[int]] = [{0}]
    for dom in doms:
        nxt: set[int] = set()
        for used in layers[-1]:
            free = dom & ~used
            while free:
                low = free & -free
                nxt.add(used | low)
                free ^= low
        if not nxt:
            return FAIL
        layers.append(nxt)
    alive = {used for used in layers[-1] if sums >> sum_of[used] & 1}
    if not alive:
        return FAIL
    feasible = 0
    for used in alive:
        feasible |= 1 << sum_of[used]
    changes = []
    for pos in range(len(doms) - 1, -1, -1):
        dom = doms[pos]
        keep = 0
        before: set[int] = set()
        for used in layers[pos]:
            free = dom & ~used
            while free:
                low = free & -free
                if used | low in alive:
                    before.add(used)
                    keep |= low
                free ^= low
        if keep != dom:
            changes.append((pos, keep))
        alive = before
    changes.reverse()
    return tuple(changes), feasible


# Cryptic clues: a one-letter clue X reads the letter mask as a sum mask directly (bit d is
# the total d).  Two-letter clues go through the helpers below.

_PAIR_SUMS: dict[tuple[int, int, bool], int] = {}
_PAIR_FILTER: dict[tuple[int, int, bool, int], tuple[int, int]] = {}


def pair_sums(tens: int, units: int, same: bool) -> int:
    """The sum mask a two-letter clue allows given its letters' masks.

    ``same`` is a clue such as ``"AA"`` (the number 11*A).  The tens digit is non-zero, two
    different letters hold different digits, and no run sums past 45.
    """
    key = (tens, units, same)
    found = _PAIR_SUMS.get(key)
    if found is None:
        found = 0
        for a in range(1, MAX_SUM // 10 + 1):
            if not tens >> a & 1:
                continue
            if same:
                found |= 1 << (11 * a) if 11 * a <= MAX_SUM else 0
                continue
            for b in range(10):
                if b != a and units >> b & 1 and 10 * a + b <= MAX_SUM:
                    found |= 1 << (10 * a + b)
        _PAIR_SUMS[key] = found
    return found


def pair_filter(tens: int, units: int, same: bool, sums: int) -> tuple[int, int]:
    """The letter masks of a two-letter clue kept by the run's feasible ``sums``: a digit
    stays when some partner digit makes a feasible total."""
    key = (tens, units, same, sums)
    found = _PAIR_FILTER.get(key)
    if found is None:
        new_tens = new_units = 0
        for a in range(1, MAX_SUM // 10 + 1):
            if not tens >> a & 1:
                continue
            if same:
                if 11 * a <= MAX_SUM and sums >> (11 * a) & 1:
                    new_tens |= 1 << a
                continue
            for b in range(10):
                if b != a and units >> b & 1 and sums >> (10 * a + b) & 1:
                    new_tens |= 1 << a
                    new_units |= 1 << b
        found = (new_tens, new_tens if same else new_units)
        _PAIR_FILTER[key] = found
    return found
