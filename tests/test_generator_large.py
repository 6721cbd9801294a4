"""What the generator does differently on large grids (from 1,000 white cells, about 40x40 and up):
whitening gates the level once at the end, and a layout is filled with escalating dead ends
and local restarts (a fill whose repairs run out is re-filled around its best grid's spots).
Both thresholds are lowered here so that 12x12 grids take the large-grid paths, and the
results are compared with the small-grid paths on the same seeds."""

from __future__ import annotations

import pytest
from _registries import require_backend

from kakurolab.generator import (
    DIFFICULTIES,
    GenerationLimits,
    GenerationSpec,
    GenerationStats,
    density,
    generate,
    generate_spec,
    lookahead,
    repair,
    spot_checks,
)
from kakurolab.logic.grading import grade
from kakurolab.uniqueness import count

RADIUS = GenerationLimits().lookahead_radius


def _made(
    monkeypatch, level: str, seed: int, *, gate_once: int = 10**9
) -> tuple[str, GenerationStats, int]:
    """The puzzle's grid, the stats and how many whitening runs it took, with whitening
    gating once from ``gate_once`` white cells."""
    runs = 0
    original = density.Whitening.__init__

    def counting(self, *args, **kwargs):
        nonlocal runs
        runs += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(density.Whitening, "__init__", counting)
    spec = GenerationSpec(12, 12, DIFFICULTIES[level], seed=seed)
    made = generate_spec(spec, GenerationLimits(gate_once_cells=gate_once, dense_area=0))
    assert grade(made.puzzle).grade == level  # the gates held on the large-grid path too
    return str(made.puzzle.grid), made.stats, runs


@pytest.mark.parametrize(
    ("level", "seed", "whitening_runs"),
    [
        ("normal", 0, 1),  # the gate passes the last grid: one run
        ("easy", 0, 2),  # the gate refuses the first kept step: bisection, replay, gated run
    ],
)
def test_gating_once_gives_the_per_step_puzzle(monkeypatch, level, seed, whitening_runs):
    per_step, _, one = _made(monkeypatch, level, seed)
    once, stats, runs = _made(monkeypatch, level, seed, gate_once=0)
    assert one == 1 and runs == whitening_runs
    assert once == per_step and stats.whitened > 0


def test_gating_once_out_of_order_still_passes_the_gates(monkeypatch):
    """12x12 hard seed 0: of its four kept steps the gate passes the first, refuses the
    second and passes the rest, so the last grid passes and is kept: another puzzle than
    per-step gating's, at the level all the same (``_made`` grades it)."""
    per_step, _, _ = _made(monkeypatch, "hard", 0)
    once, _, runs = _made(monkeypatch, "hard", 0, gate_once=0)
    assert runs == 1 and once != per_step


def test_a_fill_whose_repairs_run_out_restarts_locally():
    """With four repair rounds per fill, 12x12 normal fills run out of repairs; filled the
    large grid's way (``large_cells=0``: escalating fills, local restarts that whiten a
    shape next to the stubborn spots and re-fill around them) they finish on fewer fresh
    fills, unique (counted by CP-SAT, another backend than the generator's check) and at
    their level.  (Two rounds made the same point in 38 s of the suite; four, in one.)
    ``dense_area=0`` keeps generator 3.5's layouts: 3.6's denser small layouts take this seed
    100 s down the same path, which is the large grid's and not theirs."""
    fresh = generate(12, 12, "normal", seed=2, max_repairs=4, large_cells=None, dense_area=0)
    large = generate(12, 12, "normal", seed=2, max_repairs=4, large_cells=0, dense_area=0)
    assert fresh.stats.restarts == 0 and large.stats.restarts > 0
    assert 0 < large.stats.widened <= large.stats.restarts  # whitened next to the spots
    assert large.stats.fills < fresh.stats.fills
    result = count(large.puzzle, 2, backend=require_backend("cpsat"))
    assert result.complete and result.n_solutions == 1
    assert grade(large.puzzle).grade == "normal"


@pytest.mark.parametrize(("level", "seed"), [("normal", 1), ("hard", 3), ("expert", 5)])
def test_the_large_grid_checks_and_repairs_give_unique_puzzles_at_their_level(
    monkeypatch, level, seed
):
    """Generator 3.5's large-grid ways (whitening checks told where a grid changed, local
    hot-region re-fills, look-aheads from the fill), taken at 12x12 with ``large_cells=0``:
    they ran, and the puzzle is unique (counted by CP-SAT) and at its level."""
    calls = {"near": 0, "local": 0, "lookahead": 0}
    near_check = spot_checks.NearCheck.check
    hot_region = repair.hot_region
    look_init = lookahead.Lookahead.__init__

    def counting_near(self, *args, **kwargs):
        calls["near"] += 1
        return near_check(self, *args, **kwargs)

    def counting_hot(*args, local=False):
        calls["local"] += local
        return hot_region(*args, local=local)

    def counting_lookahead(self, *args, near=None, **kwargs):
        calls["lookahead"] += near is not None
        look_init(self, *args, near=near, **kwargs)

    monkeypatch.setattr(spot_checks.NearCheck, "check", counting_near)
    monkeypatch.setattr(repair, "hot_region", counting_hot)
    monkeypatch.setattr(lookahead.Lookahead, "__init__", counting_lookahead)
    made = generate(12, 12, level, seed=seed, large_cells=0, dense_area=0)
    assert calls["near"] and calls["lookahead"]
    result = count(made.puzzle, 2, backend=require_backend("cpsat"))
    assert result.complete and result.n_solutions == 1
    assert grade(made.puzzle).grade == level


def test_a_lookahead_near_a_spot_holds_the_cells_outside_its_ball():
    """``Lookahead(near=spot)``: cells beyond ``lookahead_radius`` run steps of the
    changed cell keep their own digit; the changed cell may take its new one; and the
    domains are those of the same state on the whole grid's propagator."""
    from kakurolab.generator.layout import Layout, within
    from kakurolab.generator.region_search import LayoutPropagators

    made = generate(12, 12, "normal", seed=5)
    layout = Layout.of(made.puzzle)
    values = dict(made.solution.values)
    opened = 0
    for cell in sorted(values)[::7]:
        look = lookahead.Lookahead(layout, values, LayoutPropagators(), near=[cell])
        mates = {m for i in layout.runs_of[cell] for m in layout.runs[i][1]}
        free = [d for d in range(1, 10) if all(values[m] != d for m in mates)]
        if not free:
            continue
        changed = {**values, cell: free[0]}
        domains = look.domains(cell, changed)
        assert domains is not None and domains[cell] >> (free[0] - 1) & 1
        ball = within(layout, [cell], RADIUS)
        assert all(domains[c] == 1 << (changed[c] - 1) for c in domains if c not in ball)
        assert domains == _whole_grid_domains(layout, values, cell, changed)
        opened += any(domains[c] & (domains[c] - 1) for c in ball)
    assert opened


def _whole_grid_domains(layout, values, cell, changed):
    """The look-ahead's state on the whole grid's propagator: every cell at its fill but
    the ball around ``cell``, propagated; restricted to the ball's runs' cells."""
    from kakurolab.generator.layout import within
    from kakurolab.generator.region_search import LayoutPropagators

    prop = LayoutPropagators().of(layout, changed)
    ball = within(layout, [cell], RADIUS)
    state = [1 << (changed[c] - 1) for c in prop.cells]
    slots = [prop.slot_of[c] for c in ball]
    for i in slots:
        state[i] = prop.initial[i]
    assert prop.propagate(state, {run for i in slots for run in prop.cell_runs[i]})
    near = within(layout, [cell], RADIUS + 1)
    return {c: state[prop.slot_of[c]] for c in near}
