"""Small puzzles the tests build by hand, shared so each is written once."""

from __future__ import annotations

from kakurolab.formats import loads
from kakurolab.model import Puzzle


def square(down: tuple[int, int], across: tuple[int, int]) -> Puzzle:
    """A 2x2 white square with the given column (down) and row (across) sums."""
    return loads(f"3 3\n- {down[0]}, {down[1]},\n,{across[0]} 0 0\n,{across[1]} 0 0\n")[0]
