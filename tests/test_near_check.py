"""A check told where a grid differs from a unique one (``near``: generator 3.5 whitens large
grids this way, issue 27) refutes from a state below the root, and so answers "unique"
exactly when the whole check does.

``held_near`` holds every cell outside the zone at its fill digit: its fixpoint lies below
the root fixpoint, so what it leaves open the root leaves open too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from kakurolab.generator import generate
from kakurolab.generator.fill import refill
from kakurolab.generator.job import GenerationStats
from kakurolab.generator.layout import Layout, within
from kakurolab.generator.region_search import LayoutPropagators, held_near
from kakurolab.generator.spot_checks import NEAR_STEPS, NearCheck, RegionCheck
from kakurolab.generator.steering import get_difficulty
from kakurolab.model import Cell

Trial = tuple[Layout, dict[Cell, int], dict[Cell, int]]


def _trials(seed: int) -> Iterator[Trial]:
    """A generated (unique, deduction-solved) grid and re-fills of small regions of it:
    some stay unique, most do not."""
    made = generate(12, 12, "normal", seed=seed)
    layout = Layout.of(made.puzzle)
    reference = dict(made.solution.values)
    level = get_difficulty("normal")
    rng = random.Random(seed)
    cells = sorted(reference)
    for _ in range(30):
        region = within(layout, [rng.choice(cells)], rng.choice((0, 1)))
        trial = refill(
            layout, reference, region, rng, allows=level.allows, node_limit=2_000
        )
        if trial is not None:
            yield layout, reference, trial


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_near_check_finds_unique_exactly_when_the_whole_check_does(seed: int) -> None:
    check = RegionCheck(None, None, logic_only=True)
    verdicts = []
    for layout, reference, trial in _trials(seed):
        whole = check.check(layout, trial, GenerationStats())
        near = NearCheck(check, reference).check(layout, trial, GenerationStats())
        assert (near.search is None) == (whole.search is None)
        if near.search is None:
            assert near.spots  # something to repair
            assert all(cell in trial for spot in near.spots for cell in spot)
        verdicts.append(whole.search is not None)
    assert any(verdicts) and not all(verdicts)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_held_state_lies_below_the_root_and_keeps_the_fill(seed: int) -> None:
    refuted = 0
    for layout, reference, trial in _trials(seed):
        prop = LayoutPropagators().of(layout, trial)
        root = prop.root()
        assert root is not None
        changed = [c for c in trial if reference[c] != trial[c]]
        held = held_near(prop, trial, within(layout, changed, NEAR_STEPS))
        for cell, i in prop.slot_of.items():
            assert held[i] & ~root[i] == 0  # below the root
            assert held[i] >> (trial[cell] - 1) & 1  # the fill survives
        refuted += any(mask & (mask - 1) for mask in held)
    assert refuted  # the held state alone refutes some trials


def test_a_grid_the_held_state_does_not_refute_goes_to_the_whole_check() -> None:
    """Told that nothing differs (the reference is the trial itself), the held state is the
    fill and refutes nothing: an ambiguous trial must still be found ambiguous."""
    check = RegionCheck(None, None, logic_only=True)
    ambiguous = 0
    for layout, _, trial in _trials(4):
        whole = check.check(layout, trial, GenerationStats())
        near = NearCheck(check, trial).check(layout, trial, GenerationStats())
        assert (near.search is None) == (whole.search is None)
        ambiguous += whole.search is None
    assert ambiguous
