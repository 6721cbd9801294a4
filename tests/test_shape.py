"""Layout statistics (kakurolab.shape): definitions checked by hand and by invariance."""

from __future__ import annotations

import networkx as nx
import pytest

from kakurolab.generator.clues import build_puzzle
from kakurolab.generator.layout import Layout
from kakurolab.generator.transforms import all_transforms, transform_puzzle
from kakurolab.shape import layout_stats, pattern_stats

# 5x5 grid, interior rows/cols 1-4:
#   . W W .        a half-turn symmetric pattern: (r, c) <-> (5 - r, 5 - c)
#   W W W W
#   W W W W
#   . W W .
SYMMETRIC = frozenset(
    [(1, 2), (1, 3), (4, 2), (4, 3)] + [(r, c) for r in (2, 3) for c in range(1, 5)]
)


def _puzzle(whites: frozenset[tuple[int, int]], n: int = 5):
    layout = Layout(n, n, whites)
    values = {}
    # any digits distinct along runs will do for shape statistics: a Latin-like pattern
    for r, c in sorted(whites):
        values[(r, c)] = (r + 2 * c) % 9 + 1
    return build_puzzle(layout, values)


def test_hand_counted_pattern() -> None:
    stats = pattern_stats(5, 5, SYMMETRIC)
    assert stats.white_share == pytest.approx(12 / 16)
    assert stats.symmetric
    # runs: across 2,4,4,2; down 2,4,4,2 -> 4 of 8 have two cells
    assert stats.run_lengths == (0, 4, 0, 4, 0, 0, 0, 0, 0)
    assert stats.two_cell_share == pytest.approx(0.5)
    assert stats.largest_black == 1  # four corners, none touching


def test_one_cell_off_breaks_symmetry() -> None:
    assert not pattern_stats(5, 5, SYMMETRIC - {(1, 2)}).symmetric


def test_largest_black_against_networkx(janko_puzzles) -> None:
    for puzzle in janko_puzzles[:30]:
        interior = {(r, c) for r in range(1, puzzle.nrows) for c in range(1, puzzle.ncols)}
        black = interior - set(puzzle.whites)
        graph = nx.grid_2d_graph(puzzle.nrows, puzzle.ncols).subgraph(black)
        expected = max((len(p) for p in nx.connected_components(graph)), default=0)
        assert layout_stats(puzzle).largest_black == expected


def test_puzzle_and_pattern_agree(janko_puzzles) -> None:
    """Runs taken from the puzzle and runs re-derived from the white cells give one answer."""
    for puzzle in janko_puzzles[:30]:
        whites = frozenset(puzzle.whites)
        assert layout_stats(puzzle) == pattern_stats(puzzle.nrows, puzzle.ncols, whites)


@pytest.mark.parametrize("transform", list(all_transforms())[:8], ids=lambda t: t.name)
def test_statistics_are_invariant_under_the_symmetries(janko_puzzles, transform) -> None:
    for puzzle in janko_puzzles[:10]:
        assert layout_stats(transform_puzzle(puzzle, transform)) == layout_stats(puzzle)


def test_janko_dev_looks_published(janko_puzzles) -> None:
    """The reference the generator is compared with (issue 15's table, dev set)."""
    stats = [layout_stats(p) for p in janko_puzzles]
    shares = sorted(s.white_share for s in stats)
    assert 0.65 <= shares[len(shares) // 2] <= 0.8
    assert sum(s.symmetric for s in stats) >= 0.85 * len(stats)


def test_built_puzzle_stats() -> None:
    puzzle = _puzzle(SYMMETRIC)
    assert layout_stats(puzzle) == pattern_stats(5, 5, SYMMETRIC)
