"""Pure, memoized propagation kernels of the native solver.

Every function here maps small integers (digit masks, sum masks) to small integers, so its
answers are cached in module-level dictionaries shared by every puzzle and session: published
puzzles reuse the same run states over and over, and a cache hit is one dictionary lookup.

Masks: a *cell mask* has bit ``d - 1`` for digit ``d`` (1-9); a *letter mask* has bit ``d`` for
digit ``d`` (0-9); a *sum mask* has bit ``t`` for the total ``t`` (0-45).
"""

from __future__ import annotations

from typing import Any

from ..combos import ALL_LETTER_DIGITS, MAX_SUM, mask_sum

ALL_SUMS = (1 << (MAX_SUM + 1)) - 1
"""Every total a run can have: the sums of a clueless run."""

RunRevision = tuple[int, ...]
"""What :func:`revise_run` answers: ``()`` when no assignment of the run exists, otherwise
``(feasible_sums, pos, new_mask, pos, new_mask, ...)`` listing the cells (by position in the
run) whose domain shrank; ``feasible_sums`` holds the totals some full assignment reaches.
One flat tuple of ints, so a cached answer is a single object the garbage collector soon
stops tracking."""

RunTable = dict[tuple[int, ...], RunRevision]
"""Cached revisions for one sum mask, keyed by the run's tuple of cell masks."""

TABLES: dict[int, RunTable] = {}
"""Every :class:`RunTable` by sum mask (read directly by the hot loop)."""
_stored = 0
_CACHE_LIMIT = 400_000
"""Cached run revisions kept at most (a few hundred bytes each), across all tables."""
_SMALL_LIMIT = 100_000
"""Entries kept at most in each of the small caches (goals, two-letter clue helpers)."""

# The subset DP below keeps whole layers of states as bitsets: bit ``u`` of a layer is set when
# the digit set ``u`` (a 9-bit mask) is reachable.  Adding digit bit ``b`` to every state
# without it is then one shift by ``2**b``, so a transition over a whole layer is a few
# big-integer operations instead of a Python loop over up to 126 states.
_STATES = range(1 << 9)
_BITS_OF = [tuple(b for b in range(9) if m >> b & 1) for m in _STATES]
_WITHOUT = [sum(1 << u for u in _STATES if not u >> b & 1) for b in range(9)]
_WITH = [sum(1 << u for u in _STATES if u >> b & 1) for b in range(9)]
_FORWARD = [tuple((_WITHOUT[b], 1 << b) for b in bits) for bits in _BITS_OF]
_BACKWARD = [tuple((_WITH[b], 1 << b) for b in bits) for bits in _BITS_OF]
_FIRST = [sum(1 << (1 << b) for b in bits) for bits in _BITS_OF]  # layer after one cell
_FINALS: dict[tuple[int, int], int] = {}
for _u in _STATES:
    _key = (_u.bit_count(), mask_sum(_u))
    _FINALS[_key] = _FINALS.get(_key, 0) | 1 << _u
_FINALS_OF_LENGTH: dict[int, tuple[tuple[int, int], ...]] = {}
for (_length, _total), _states in sorted(_FINALS.items()):
    _FINALS_OF_LENGTH[_length] = (*_FINALS_OF_LENGTH.get(_length, ()), (_total, _states))
_GOALS: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...], int]] = {}


def run_table(sums: int) -> RunTable:
    """The shared cache of :func:`revise_run` answers for one sum mask.

    Tables are split by sum mask so that the inner loop's key is the bare tuple of masks that
    ``operator.itemgetter`` builds; a run with a numeric clue holds its table for good.
    """
    table = TABLES.get(sums)
    if table is None:
        table = TABLES[sums] = {}
    return table


def revise_cached(table: RunTable, doms: tuple[int, ...], sums: int) -> RunRevision:
    """:func:`revise_run` stored in ``table`` (the caller has looked it up and missed).

    Memory stays bounded on endless batches: past the limit every table is emptied (not
    dropped, since sessions hold them).
    """
    global _stored
    _stored += 1
    if _stored > _CACHE_LIMIT:
        _stored = 0
        for old in TABLES.values():
            old.clear()
    n = len(doms)
    if n == 2:
        found = _revise_pair(doms[0], doms[1], sums)
    elif n == 3:
        found = _revise_triple(doms[0], doms[1], doms[2], sums)
    else:
        found = _revise_dp(doms, sums)
    table[doms] = found
    return found


def _bounded(cache: dict[Any, Any]) -> None:
    """Empty a small cache that has grown past its limit (long batches stay bounded)."""
    if len(cache) >= _SMALL_LIMIT:
        cache.clear()


def _goals(length: int, sums: int) -> tuple[int, tuple[tuple[int, int], ...], int]:
    """The final states of a run of ``length`` with an allowed total: their union, the
    ``(total, states)`` parts, and the one total's sum mask when there is just one."""
    parts = tuple(part for part in _FINALS_OF_LENGTH.get(length, ()) if sums >> part[0] & 1)
    union = 0
    for _, states in parts:
        union |= states
    _bounded(_GOALS)
    found = _GOALS[(length, sums)] = (union, parts, 1 << parts[0][0] if len(parts) == 1 else 0)
    return found


def revise_run(doms: tuple[int, ...], sums: int) -> RunRevision:
    """Exact consistency of one run: sum in ``sums`` and all digits different.

    A cell keeps a digit only when some full assignment of the run uses it there.  Two and
    three cells enumerate their digit pairs directly; longer runs use a subset dynamic
    programme.  A miss costs a few microseconds and a hit (:func:`run_table`) one dictionary
    lookup; :func:`revise_cached` is the same dispatch with the store.
    """
    n = len(doms)
    if n == 2:
        return _revise_pair(doms[0], doms[1], sums)
    if n == 3:
        return _revise_triple(doms[0], doms[1], doms[2], sums)
    return _revise_dp(doms, sums)


def _revise_dp(doms: tuple[int, ...], sums: int) -> RunRevision:
    """:func:`revise_run` by a subset dynamic programme over the cells in order (state: the
    set of digits used so far): the reachable states forwards, the final states with an
    allowed total, then back keeping the transitions into surviving states.  Any length."""
    n = len(doms)
    forward = _FORWARD
    layer = _FIRST[doms[0]]
    layers = [1, layer]
    for pos in range(1, n):
        nxt = 0
        for without, shift in forward[doms[pos]]:
            nxt |= (layer & without) << shift
        if not nxt:
            return ()
        layers.append(nxt)
        layer = nxt
    union, parts, feasible = _GOALS.get((n, sums)) or _goals(n, sums)
    alive = layer & union
    if not alive:
        return ()
    if not feasible:
        for total, states in parts:
            if alive & states:
                feasible |= 1 << total
    changes: list[int] = []
    backward = _BACKWARD
    for pos in range(n - 1, -1, -1):
        dom = doms[pos]
        before = layers[pos]
        keep = back = 0
        for with_, shift in backward[dom]:
            came = (alive & with_) >> shift & before
            if came:
                keep |= shift  # the shift is the digit's bit
                back |= came
        if keep != dom:
            changes += (keep, pos)
        alive = back
    changes.append(feasible)
    changes.reverse()
    return tuple(changes)


def _revise_pair(a: int, b: int, sums: int) -> RunRevision:
    """:func:`revise_run` for two cells: digit ``x + 1`` (bit ``x``) of the first cell
    reaches the totals of ``b`` without it shifted by ``x + 2``."""
    keep_a = keep_b = feasible = 0
    for x in _BITS_OF[a]:
        hits = ((b & ~(1 << x)) << (x + 2)) & sums
        if hits:
            keep_a |= 1 << x
            keep_b |= hits >> (x + 2)
            feasible |= hits
    if not feasible:
        return ()
    changes = [feasible]
    if keep_a != a:
        changes += (0, keep_a)
    if keep_b != b:
        changes += (1, keep_b)
    return tuple(changes)


def _revise_triple(a: int, b: int, c: int, sums: int) -> RunRevision:
    """:func:`revise_run` for three cells: every pair of distinct digits of the first two
    cells, with the third cell's remaining digits shifted onto their totals."""
    bits_of = _BITS_OF
    keep_a = keep_b = keep_c = feasible = 0
    for x in bits_of[a]:
        bx = 1 << x
        rest = c & ~bx
        for y in bits_of[b & ~bx]:
            shift = x + y + 3
            hits = ((rest & ~(1 << y)) << shift) & sums
            if hits:
                keep_a |= bx
                keep_b |= 1 << y
                keep_c |= hits >> shift
                feasible |= hits
    if not feasible:
        return ()
    changes = [feasible]
    for pos, old, new in ((0, a, keep_a), (1, b, keep_b), (2, c, keep_c)):
        if new != old:
            changes += (pos, new)
    return tuple(changes)


# Cryptic clues: a one-letter clue X reads the letter mask as a sum mask directly (bit d is
# the total d).  Two-letter clues go through the helpers below.

PAIR_SUMS: dict[int, int] = {}
"""Cache of :func:`pair_sums`, keyed by :func:`pair_key` (read directly by the hot loop)."""
PAIR_FILTER: dict[tuple[int, int], tuple[int, int]] = {}
"""Cache of :func:`pair_filter`, keyed by ``(pair_key(...), sums)``."""


_TENS = range(1, MAX_SUM // 10 + 1)  # a two-letter total is at most 45: tens digit 1-4


def pair_key(tens: int, units: int, same: bool) -> int:
    """One int for a two-letter clue's letter masks and shape."""
    return tens << 11 | units << 1 | same


def pair_sums(tens: int, units: int, same: bool) -> int:
    """The sum mask a two-letter clue allows given its letters' masks.

    ``same`` is a clue such as ``"AA"`` (the number 11*A).  The tens digit is non-zero, two
    different letters hold different digits, and no run sums past 45.
    """
    key = pair_key(tens, units, same)
    found = PAIR_SUMS.get(key)
    if found is None:
        found = 0
        for a in _TENS:
            if tens >> a & 1:
                if same:
                    found |= 1 << (11 * a)
                else:  # bit b of the units mask lands on the total 10a + b
                    found |= (units & ~(1 << a)) << (10 * a)
        found &= ALL_SUMS
        _bounded(PAIR_SUMS)
        PAIR_SUMS[key] = found
    return found


def pair_filter(tens: int, units: int, same: bool, sums: int) -> tuple[int, int]:
    """The letter masks of a two-letter clue kept by the run's feasible ``sums``: a digit
    stays when some partner digit makes a feasible total."""
    key = (pair_key(tens, units, same), sums)
    found = PAIR_FILTER.get(key)
    if found is None:
        new_tens = new_units = 0
        for a in _TENS:
            if tens >> a & 1:
                if same:
                    hits = sums >> (11 * a) & 1
                else:  # the units digits b with 10a + b feasible
                    hits = sums >> (10 * a) & units & ~(1 << a) & ALL_LETTER_DIGITS
                if hits:
                    new_tens |= 1 << a
                    new_units |= hits
        found = (new_tens, new_tens if same else new_units)
        _bounded(PAIR_FILTER)
        PAIR_FILTER[key] = found
    return found
