"""The ambiguity knob, its twins and the phase-transition scan (issue 47 §1).

The knob runs a planted fill through the generator's uniqueness repairs and keeps the
share ``knob`` of them (``generator.tighten``): its ends must be the loose fill (many
solutions) and a unique grid, by two independent backends; a twin keeps the clue totals
balanced and is a well-formed puzzle; the same arguments give the same puzzle; and the scan
driver runs a tiny grid end to end and writes its tables.
"""

from __future__ import annotations

import csv
import json
import math

import pytest

from kakurolab import transition
from kakurolab.generator import tighten
from kakurolab.model import Direction
from kakurolab.rulebook import solution_problems, structure_problems, white_components
from kakurolab.uniqueness import count, prove_unique, solve


@pytest.fixture(scope="module")
def trail():
    return tighten.tightening(8, 0)


def test_knob_one_is_unique_by_two_backends(trail):
    puzzle = trail.puzzle(1.0)
    for backend in ("native", "cpsat"):
        assert str(prove_unique(puzzle, backend=backend).verdict) == "unique", backend
    # the unique grid is the planted fill
    assert count(puzzle, 2, backend="native").solutions[0].values == trail.solution(1.0).values


def test_knob_zero_is_the_loose_fill_with_many_solutions(trail):
    puzzle = trail.puzzle(0.0)
    assert trail.steps > 0
    assert not solution_problems(puzzle, trail.solution(0.0))  # planted: the fill solves it
    assert len(count(puzzle, 3, backend="native").solutions) == 3
    assert str(prove_unique(puzzle, backend="cpsat").verdict) == "multiple"


def test_every_knob_is_a_planted_fill_of_a_well_formed_puzzle(trail):
    for knob in (0.0, 0.3, 0.7, 1.0):
        puzzle = trail.puzzle(knob)
        assert not structure_problems(puzzle)
        assert not solution_problems(puzzle, trail.solution(knob))
        assert puzzle.meta["step"] == round(knob * trail.steps)
    with pytest.raises(Exception, match="outside"):
        trail.step(1.5)


def test_same_arguments_give_the_same_puzzle(trail):
    again = tighten.tightening(8, 0)
    assert again.steps == trail.steps
    assert again.puzzle(0.5).grid == trail.puzzle(0.5).grid
    assert tighten.twin(again.puzzle(0.5), 3).grid == tighten.twin(trail.puzzle(0.5), 3).grid
    other = tighten.tightening(8, 1)
    assert other.puzzle(0.0).grid != trail.puzzle(0.0).grid


def _totals(puzzle):
    sums = {Direction.ACROSS: 0, Direction.DOWN: 0}
    for run in puzzle.runs:
        assert run.clue is not None and run.clue.value is not None
        sums[run.direction] += run.clue.value
    return sums


def test_twins_balance_their_sums_and_raise_one_across_and_one_down_clue(trail):
    for knob in (0.0, 1.0):
        member = trail.puzzle(knob)
        twin = tighten.twin(member, 0)
        assert not structure_problems(twin)
        assert len(white_components(twin)) == len(white_components(member))
        raised = [
            (a.direction, a, b)
            for a, b in zip(member.runs, twin.runs, strict=True)
            if a.clue != b.clue
        ]
        assert sorted(d.name for d, _, _ in raised) == ["ACROSS", "DOWN"]
        for _, old, new in raised:
            assert new.clue.value == old.clue.value + 1
        (_, across, _), (_, down, _) = raised
        assert not set(across.cells) & set(down.cells)
        before, after = _totals(member), _totals(twin)
        assert before[Direction.ACROSS] == before[Direction.DOWN]
        assert after[Direction.ACROSS] == after[Direction.DOWN] == before[Direction.ACROSS] + 1


def test_a_twin_of_the_unique_end_can_have_no_solution_by_two_backends(trail):
    # the planted fill cannot solve a twin; whether another grid does is what the scan
    # measures: both backends agree on each seed's, and some seed's has none (8x8 seed 0 of
    # the first trail, seed 0, 1 or 2 of the default one)
    unsat = []
    for seed in range(3):
        made = trail if seed == 0 else tighten.tightening(8, seed)
        twin = tighten.twin(made.puzzle(1.0), 0)
        verdicts = {str(solve(twin, backend=b).status) for b in ("native", "cpsat")}
        assert len(verdicts) == 1 and verdicts <= {"sat", "unsat"}, seed
        unsat += [seed] if verdicts == {"unsat"} else []
    assert unsat


def test_wilson_and_bootstrap_intervals_hold_their_estimate():
    p, lo, hi = transition.wilson(3, 20)
    assert lo < p == 0.15 < hi and lo >= 0 and hi <= 1
    assert transition.wilson(0, 0) == (None, None, None)
    median, lo, hi = transition.bootstrap_median([1.0, 2.0, 3.0, 4.0, 100.0])
    assert lo <= median == 3.0 <= hi
    assert math.isclose(transition.percentile([0, 10], 0.9), 9.0)


def test_a_peak_cut_off_by_the_timeout_is_censored_and_its_growth_a_lower_bound():
    def cost(size, knob, median, unsolved):
        return {"size": size, "knob": knob, "kind": "member", "config": "c", "task": "solve",
                "runs": 4, "unsolved": unsolved, "median_s": median, "median_lo": median,
                "median_hi": median, "p90_s": median}

    costs = [cost(12, 0.0, 0.1, 0), cost(12, 0.5, 0.2, 1), cost(12, 1.0, 0.1, 0),
             cost(20, 0.0, 1.0, 1), cost(20, 0.5, 3.0, 1), cost(20, 1.0, 0.5, 0),
             cost(30, 0.0, 20.0, 2), cost(30, 0.5, 9.0, 1), cost(30, 1.0, 1.0, 0)]
    peaks = transition.peak_rows(costs)
    assert [(p["size"], p["peak_knob"], p["censored"]) for p in peaks] == [
        (12, 0.5, False), (20, 0.5, False), (30, 0.0, True)]
    points = [{"size": s, "knob": k, "white_cells": s * s // 2}
              for s in (12, 20, 30) for k in (0.0, 0.5, 1.0)]
    (growth,) = transition.growth_rows(peaks, points)
    assert growth["sizes"] == 3 and growth["censored_sizes"] == 1 and growth["exponent"] > 0


def test_the_scan_runs_a_tiny_grid_end_to_end(tmp_path):
    # one light configuration, two twin backends: 8 runs in killable children
    scan = transition.Scan(
        (6,), knobs=(0.0, 1.0), seeds=1, timeout=5.0, out=tmp_path,
        configs=("native",), twin_configs=("native", "pysat-fast"),
    )
    report = transition.run_scan(scan, progress=False, plots=False)
    assert report.exists()
    with open(tmp_path / "points.csv") as fh:
        points = list(csv.DictReader(fh))
    assert [(p["size"], p["knob"]) for p in points] == [("6", "0.0"), ("6", "1.0")]
    assert float(points[1]["p_unique"]) == 1.0  # knob 1: unique, measured
    with open(tmp_path / "costs.csv") as fh:
        costs = list(csv.DictReader(fh))
    configs = {(c["config"], c["task"]) for c in costs if c["kind"] == "member"}
    assert configs == {("native", t) for t in transition.TASKS}
    assert all(int(c["runs"]) == 1 for c in costs)
    with open(tmp_path / "peaks.csv") as fh:
        peaks = list(csv.DictReader(fh))
    assert {(p["kind"], p["config"]) for p in peaks} == {
        ("member", "native"), ("twin", "native"), ("twin", "pysat-fast")
    }
    assert all(p["peak_knob"] in ("0.0", "1.0") and p["interior"] == "False" for p in peaks)
    runs = (tmp_path / "runs.jsonl").read_text().splitlines()
    assert len(runs) == 2 * (len(transition.TASKS) + 2)
    assert float(points[1]["p_twin_unsat"]) in (0.0, 1.0)  # decided by both twin backends
    transition.run_scan(scan, progress=False, plots=False)  # resumes: nothing left to run
    assert len((tmp_path / "runs.jsonl").read_text().splitlines()) == len(runs)
    # a scan of one knob over the kept members (a longer timeout at the loose end, say)
    # runs that knob's member and twin only
    loose = transition.Scan((6,), knobs=(0.0,), seeds=1, timeout=5.0, out=tmp_path,
                            configs=("native",), twin_configs=("native",))  # fmt: skip
    made = transition.make_members(loose, 6, 0)
    assert len(made) == 4  # kept: both knobs, member and twin
    assert sorted(s.instance for s in transition.specs_for(loose, made)) == sorted(
        [made[0].id] * len(transition.TASKS) + [made[1].id])


def test_the_first_trail_is_kept_and_a_scan_never_mixes_two(tmp_path, capsys):
    # spread 0 at the generator's budget is the trail the committed 12x12 and 20x20
    # members were made with (one spot per check): still from loose to unique
    first = tighten.tightening(8, 0, spread=0, repair_factor=1)
    assert str(prove_unique(first.puzzle(1.0), backend="native").verdict) == "unique"
    assert str(prove_unique(first.puzzle(0.0), backend="native").verdict) == "multiple"
    # a directory made with one trail refuses members of the other, and says how to go on
    (tmp_path / "made.jsonl").write_text('{"size": 12, "seed": 0, "steps": 37}\n')
    scan = transition.Scan((6,), knobs=(0.0,), seeds=1, out=tmp_path)
    with pytest.raises(Exception, match=r"another trail \(spread 0, repair factor 1\)"):
        transition.run_scan(scan, progress=False, plots=False)
    assert not (tmp_path / "runs.jsonl").exists()
    argv = ["scan", "--sizes", "6", "--seeds", "1", "--out", str(tmp_path)]
    assert transition.main(argv) == 2
    assert "spread 0" in capsys.readouterr().err


def test_trails_times_the_making_of_each_size_and_seed(capsys):
    assert transition.main(["trails", "--sizes", "6", "--seeds", "0,1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(m["size"], m["seed"]) for m in lines] == [(6, 0), (6, 1)]
    for made in lines:
        assert made["steps"] == tighten.tightening(6, made["seed"]).steps
        assert made["checks"] >= 1 and made["seconds"] >= 0 and made["cpu_s"] >= 0
        assert (made["spread"], made["repair_factor"]) == (tighten.SPREAD, tighten.REPAIR_FACTOR)


def test_bad_arguments_give_one_line_and_exit_2(capsys, tmp_path):
    assert transition.main(["scan", "--knobs", "0,2", "--out", str(tmp_path)]) == 2
    assert transition.main(["report", "--out", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("python -m kakurolab.transition") for line in err)
