"""What the generator does differently on large grids (from 1,000 white cells, about 40x40 and up):
whitening gates the level once at the end, and a layout is filled with escalating dead ends
and local restarts (a fill whose repairs run out is re-filled around its best grid's spots).
Both thresholds are lowered here so that 12x12 grids take the large-grid paths, and the
results are compared with the small-grid paths on the same seeds."""

from __future__ import annotations

import pytest
from _registries import require_backend

from kakurolab.generator import GenerationStats, core, generate
from kakurolab.logic.grading import grade
from kakurolab.uniqueness import count


def _made(
    monkeypatch, level: str, seed: int, *, gate_once: int = 10**9
) -> tuple[str, GenerationStats, int]:
    """The puzzle's grid, the stats and how many whitening runs it took, with whitening
    gating once from ``gate_once`` white cells."""
    monkeypatch.setattr(core, "GATE_ONCE_CELLS", gate_once)
    runs = 0
    original = core._Whitening.__init__

    def counting(self, *args, **kwargs):
        nonlocal runs
        runs += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(core._Whitening, "__init__", counting)
    made = generate(12, 12, level, seed=seed)
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
    """With two repair rounds per fill, 12x12 normal fills run out of repairs; filled the
    large grid's way (``large_cells=0``: escalating fills, local restarts that whiten a
    shape next to the stubborn spots and re-fill around them) they finish on fewer fresh
    fills, unique (counted by CP-SAT, another backend than the generator's check) and at
    their level."""
    fresh = generate(12, 12, "normal", seed=2, max_repairs=2, large_cells=None)
    large = generate(12, 12, "normal", seed=2, max_repairs=2, large_cells=0)
    assert fresh.stats.restarts == 0 and large.stats.restarts > 0
    assert 0 < large.stats.widened <= large.stats.restarts  # whitened next to the spots
    assert large.stats.fills < fresh.stats.fills
    result = count(large.puzzle, 2, backend=require_backend("cpsat"))
    assert result.complete and result.n_solutions == 1
    assert grade(large.puzzle).grade == "normal"
