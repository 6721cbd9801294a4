"""Digit-set tables: the rulebook's unique partitions and a brute force over every clue."""

from __future__ import annotations

from itertools import combinations

import pytest

from kakurolab import combos

RULEBOOK = [  # (length, total, the one digit set): the published table of unique sums
    (2, 3, {1, 2}),
    (2, 4, {1, 3}),
    (2, 16, {7, 9}),
    (2, 17, {8, 9}),
    (3, 6, {1, 2, 3}),
    (3, 7, {1, 2, 4}),
    (3, 23, {6, 8, 9}),
    (3, 24, {7, 8, 9}),
    (4, 10, {1, 2, 3, 4}),
    (4, 30, {6, 7, 8, 9}),
    (5, 15, {1, 2, 3, 4, 5}),
    (5, 35, {5, 6, 7, 8, 9}),
    (9, 45, set(range(1, 10))),
]


def brute(length: int, total: int) -> set[frozenset[int]]:
    return {frozenset(c) for c in combinations(range(1, 10), length) if sum(c) == total}


@pytest.mark.parametrize(("length", "total", "digits"), RULEBOOK)
def test_rulebook_unique_partitions(length: int, total: int, digits: set[int]) -> None:
    assert combos.count(length, total) == 1
    assert set(combos.digits_of(combos.combos(length, total)[0])) == digits
    assert combos.unique_partitions()[(length, total)] == tuple(sorted(digits))


@pytest.mark.parametrize("length", range(1, 10))
def test_tables_agree_with_brute_force(length: int) -> None:
    for total in range(0, 50):
        expected = brute(length, total)
        got = {frozenset(combos.digits_of(m)) for m in combos.combos(length, total)}
        assert got == expected, (length, total)
        assert combos.count(length, total) == len(expected)
        union = set().union(*expected) if expected else set()
        inter = set.intersection(*map(set, expected)) if expected else set()
        assert set(combos.digits_of(combos.union(length, total))) == union
        assert set(combos.digits_of(combos.intersection(length, total))) == inter


@pytest.mark.parametrize("length", range(1, 10))
def test_sum_range_and_feasible_sums(length: int) -> None:
    lo, hi = combos.sum_range(length)
    assert (lo, hi) == (sum(range(1, length + 1)), sum(range(10 - length, 10)))
    assert combos.feasible_sums(length) == tuple(range(lo, hi + 1))


def test_unique_partitions_are_exactly_the_single_set_clues() -> None:
    table = combos.unique_partitions()
    expected = {
        (n, t): tuple(sorted(next(iter(brute(n, t)))))
        for n in range(1, 10)
        for t in range(46)
        if len(brute(n, t)) == 1
    }
    assert table == expected


@pytest.mark.parametrize("digits", [(), (1,), (2, 5, 9), tuple(range(1, 10))])
def test_mask_round_trip(digits: tuple[int, ...]) -> None:
    mask = combos.mask_of(digits)
    assert combos.digits_of(mask) == digits
    assert mask == sum(combos.bit(d) for d in digits)
    assert combos.mask_sum(mask) == sum(digits)
