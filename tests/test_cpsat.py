"""The OR-Tools CP-SAT peer backend: public PE424 facts, published janko solutions, options."""

from __future__ import annotations

import pytest
from _puzzles import square
from _registries import require_backend

from kakurolab.backends import BACKENDS, Status, get_backend
from kakurolab.errors import KakuroError
from kakurolab.uniqueness import Verdict, count, prove_unique, solve


@pytest.fixture(autouse=True)
def _cpsat_runs_here() -> None:
    """CP-SAT is core under the conftest rule (its extra is in the test extra): missing, these
    tests fail instead of skipping."""
    require_backend("cpsat")

JANKO_SAMPLE = range(0, 105, 7)  # 15 puzzles, small to large


def test_pe424_puzzle_1_answer(pe424_puzzles) -> None:
    assert solve(pe424_puzzles[0], backend="cpsat").solution.answer == "8426039571"


def test_pe424_first_ten_sum(pe424_puzzles) -> None:
    answers = [solve(p, backend="cpsat").solution.answer for p in pe424_puzzles[:10]]
    assert sum(int(a) for a in answers) == 64414157580


@pytest.mark.parametrize("index", range(20))
def test_pe424_unique(pe424_puzzles, index: int) -> None:
    proof = prove_unique(pe424_puzzles[index], backend="cpsat")
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0].answer is not None


@pytest.mark.slow
@pytest.mark.parametrize("index", range(20, 200))
def test_pe424_unique_all(pe424_puzzles, index: int) -> None:
    assert prove_unique(pe424_puzzles[index], backend="cpsat").verdict is Verdict.UNIQUE


def _janko_matches(puzzle) -> None:
    proof = prove_unique(puzzle, backend="cpsat")
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0] == puzzle.meta["solution"]


@pytest.mark.parametrize("index", JANKO_SAMPLE)
def test_janko_published(janko_puzzles, index: int) -> None:
    _janko_matches(janko_puzzles[index])


@pytest.mark.slow
@pytest.mark.parametrize("index", [i for i in range(105) if i not in JANKO_SAMPLE])
def test_janko_published_all(janko_puzzles, index: int) -> None:
    _janko_matches(janko_puzzles[index])


def test_counts_every_grid_of_an_ambiguoussquare() -> None:
    # a+b = c+d = a+c = b+d = 10 forces b = c, d = a: one grid per a in 1-9 except 5
    result = count(square((10, 10), (10, 10)), None, backend="cpsat")
    assert result.complete and result.n_solutions == 8
    assert len(set(result.solutions)) == 8


def test_blocking_a_cryptic_grid_leaves_nothing(pe424_puzzles) -> None:
    result = count(pe424_puzzles[0], 5, backend="cpsat")
    assert result.complete and result.n_solutions == 1


def test_statistics_are_reported(pe424_puzzles) -> None:
    stats = solve(pe424_puzzles[3], backend="cpsat").stats
    assert {"conflicts", "branches", "wall_time"} <= set(stats)
    assert stats["solves"] == 1


def test_zero_time_limit_is_unknown(pe424_puzzles) -> None:
    result = solve(pe424_puzzles[0], backend="cpsat", max_time_in_seconds=0)
    assert result.status is Status.UNKNOWN and result.solution is None


@pytest.mark.parametrize("workers", [1, 2, "2"])
def test_num_workers(pe424_puzzles, workers) -> None:
    result = solve(pe424_puzzles[0], backend="cpsat", num_workers=workers)
    assert result.solution.answer == "8426039571"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"encoding": "direct"}, "does not take option 'encoding'"),
        ({"num_workers": "many"}, "must be an integer"),
        ({"num_workers": -1}, "should be in \\[0,"),
        ({"max_time_in_seconds": "soon"}, "must be a number"),
    ],
)
def test_bad_options_are_one_line_errors(options, message) -> None:
    with pytest.raises(KakuroError, match=message) as info:
        get_backend("cpsat", **options)
    assert "\n" not in str(info.value)


def test_capabilities() -> None:
    cls = BACKENDS["cpsat"]
    assert cls.extra == "peers"
    assert set(cls.accepted_options) == {"num_workers", "random_seed", "max_time_in_seconds"}
