"""The three searches (propagation.SEARCHES) have one shape: the same call, the same answers
(each grid once, checked by the rule checker), and a node budget counted in their own work
after which they answer ``None`` for good."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from kakurolab.formats import load
from kakurolab.model import Puzzle
from kakurolab.propagation import SEARCHES, Propagator
from kakurolab.rulebook import solution_problems

HARD = Path(__file__).resolve().parents[1] / "data" / "hard"


def _loose() -> Puzzle:
    return next(p for p in load(HARD / "loose.txt") if p.id == "loose-10x10-s1")


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_every_search_takes_the_same_call_and_yields_right_grids(name: str) -> None:
    kind = SEARCHES[name]
    puzzle = _loose()
    propagator = Propagator(puzzle)
    assert kind.applies(propagator)
    counters = kind.counters()
    walk = kind.run(propagator, None, node_limit=None, stats=counters, out_of_time=None)
    grids = [found for found in islice(walk, 400) if found is not None][:3]
    assert len(grids) == 3 and len(set(grids)) == 3
    for found in grids:
        assert solution_problems(puzzle, propagator.solution(found)) == []
    assert counters.work > 0


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_spent_node_budget_answers_none_for_good(name: str) -> None:
    kind = SEARCHES[name]
    propagator = Propagator(_loose())
    counters = kind.counters()
    limit = 50
    walk = kind.run(propagator, node_limit=limit, stats=counters)
    answers = list(islice(walk, 2000))
    assert answers[-20:] == [None] * 20
    spent = counters.work
    assert spent >= limit
    # Once spent, asking again does no more work.
    assert list(islice(walk, 100)) == [None] * 100
    assert counters.work == spent


@pytest.mark.parametrize("index", [0, 1, 2])
def test_complete_searches_agree_on_every_grid_of_a_small_puzzle(index: int) -> None:
    puzzle = load(Path(__file__).resolve().parents[1] / "data" / "janko_kakuro_dev.json")[index]
    propagator = Propagator(puzzle)
    found = {}
    for name, kind in SEARCHES.items():
        if kind.complete and kind.applies(propagator):
            found[name] = {f for f in kind.run(propagator) if f is not None}
    assert len(found) == 2 and len(found["dfs"]) == 1, found
    assert found["learning"] == found["dfs"]
