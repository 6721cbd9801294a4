"""Digit-set tables: which sets of distinct digits 1-9 a run of given length can sum to.

Sets are 9-bit masks, bit ``d - 1`` standing for digit ``d``.  All 511 non-empty subsets are
enumerated once at import, so every lookup afterwards is a dictionary hit; encoders, the native
solver, the generator and the deduction engine all read these tables.
"""

from __future__ import annotations

from functools import cache

DIGITS = range(1, 10)
ALL_DIGITS = 0x1FF
ALL_LETTER_DIGITS = 0x3FF
"""A letter of a cryptic clue takes 0-9: its masks use bit ``d`` for digit ``d`` (not ``d - 1``)."""
MAX_RUN = 9
MAX_SUM = 45


def bit(digit: int) -> int:
    """The mask of one digit."""
    return 1 << (digit - 1)


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits in a mask, ascending."""
    return _DIGITS_OF[mask]


def mask_of(digits: object) -> int:
    """The mask of an iterable of digits."""
    mask = 0
    for d in digits:  # type: ignore[attr-defined]
        mask |= 1 << (d - 1)
    return mask


def mask_sum(mask: int) -> int:
    return _SUM_OF[mask]


def popcount(mask: int) -> int:
    return mask.bit_count()


_DIGITS_OF: list[tuple[int, ...]] = [
    tuple(d for d in DIGITS if m >> (d - 1) & 1) for m in range(ALL_DIGITS + 1)
]
_SUM_OF: list[int] = [sum(ds) for ds in _DIGITS_OF]

_TABLE: dict[tuple[int, int], tuple[int, ...]] = {}
for _m in range(1, ALL_DIGITS + 1):
    _TABLE.setdefault((_m.bit_count(), _SUM_OF[_m]), ())
    _TABLE[(_m.bit_count(), _SUM_OF[_m])] += (_m,)


def sum_range(length: int) -> tuple[int, int]:
    """The smallest and largest sums of ``length`` distinct digits."""
    return length * (length + 1) // 2, length * (19 - length) // 2


def combos(length: int, total: int) -> tuple[int, ...]:
    """The admissible digit sets (masks, ascending) of ``length`` distinct digits summing to
    ``total``; empty when none exists."""
    return _TABLE.get((length, total), ())


def count(length: int, total: int) -> int:
    """How many digit sets a clue admits: its combination ambiguity."""
    return len(combos(length, total))


def feasible_sums(length: int) -> tuple[int, ...]:
    """Every total that some set of ``length`` distinct digits reaches."""
    return tuple(t for t in range(MAX_SUM + 1) if (length, t) in _TABLE)


@cache
def union(length: int, total: int) -> int:
    """Digits that occur in at least one admissible set."""
    mask = 0
    for m in combos(length, total):
        mask |= m
    return mask


@cache
def intersection(length: int, total: int) -> int:
    """Digits that occur in every admissible set (0 when there is none)."""
    sets = combos(length, total)
    if not sets:
        return 0
    mask = ALL_DIGITS
    for m in sets:
        mask &= m
    return mask


def unique_partitions() -> dict[tuple[int, int], tuple[int, ...]]:
    """Every (length, total) with exactly one digit set, mapped to that set's digits."""
    return {key: digits_of(sets[0]) for key, sets in sorted(_TABLE.items()) if len(sets) == 1}


def format_mask(mask: int) -> str:
    return "{" + ", ".join(map(str, digits_of(mask))) + "}"
