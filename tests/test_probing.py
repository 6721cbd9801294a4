"""Letter probing (``propagation.probed_state``, the ``pre=probe`` presolve): it removes
only digits no solution uses, narrows at least as far as root propagation, and leaves
numeric puzzles (no letters) as root propagation does."""

from __future__ import annotations

from pathlib import Path

import pytest

from kakurolab import datasets
from kakurolab.formats import load
from kakurolab.propagation import RootState, probed_state, root_state
from kakurolab.uniqueness import prove_unique

CRYPTIC = Path(__file__).resolve().parents[1] / "data" / "hard" / "cryptic.txt"


def _inside(narrow: RootState, wide: RootState) -> bool:
    return all(narrow.cells[c] & ~m == 0 for c, m in wide.cells.items()) and all(
        narrow.letters[ch] & ~m == 0 for ch, m in wide.letters.items()
    )


@pytest.mark.parametrize("index", range(6))
def test_probing_keeps_the_solution_and_narrows_root(index):
    """Each cryptic member's unique grid (by CP-SAT, which shares nothing with the
    propagator) lies inside the probed domains, which lie inside the root domains."""
    puzzle = load(CRYPTIC)[index]
    root, probed = root_state(puzzle), probed_state(puzzle)
    assert root is not None and probed is not None
    assert _inside(probed, root)
    proof = prove_unique(puzzle, backend="cpsat")
    solution = proof.solutions[0]
    assert all(probed.cells[c] >> (d - 1) & 1 for c, d in solution.values.items())
    assert all(probed.letters[ch] >> d & 1 for ch, d in solution.letters.items())


def _open(masks) -> int:
    return sum(1 for m in masks if m & (m - 1))


def test_probing_narrows_where_root_propagation_stops():
    """Where root propagation leaves letters open, probing decides all of them on some
    member (generator 3.2's 10x10 and 16x16), and never leaves more open than the root."""
    decided = 0
    for puzzle in load(CRYPTIC):
        root, probed = root_state(puzzle), probed_state(puzzle)
        assert root is not None and probed is not None
        assert _open(probed.letters.values()) <= _open(root.letters.values())
        if _open(root.letters.values()) and not _open(
            [*probed.letters.values(), *probed.cells.values()]
        ):
            decided += 1
    assert decided


def test_no_budget_or_no_letters_is_root_propagation():
    """A budget of 0 probes, or a numeric puzzle, gives the root state itself."""
    cryptic = load(CRYPTIC)[0]
    assert probed_state(cryptic, budget=0) == root_state(cryptic)
    for puzzle in load(datasets.JANKO_DEV)[:5]:
        assert probed_state(puzzle) == root_state(puzzle)
