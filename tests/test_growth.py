"""Growth exponents (issue 26): the slope of log time against log white cells, with its
confidence interval, in the report's table and its plot."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from _tools import write_config

from kakurolab.errors import KakuroError
from kakurolab.experiments.growth import fit_line, growth, growth_table, t_quantile
from kakurolab.experiments.plan import load_experiment
from kakurolab.experiments.report import build_report, load_results
from kakurolab.experiments.runs import Row

# Two-sided 95% quantiles of Student's t, from any statistics table.
T_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 8: 2.306, 10: 2.228, 20: 2.086,
           30: 2.042, 60: 2.000, 120: 1.980}


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_t_quantiles_match_the_table(df: int) -> None:
    assert t_quantile(df) == pytest.approx(T_TABLE[df], abs=0.005)


def _rows(config: str, exponent: float, *, noise: float, seed: int, set_: str = "g") -> list[Row]:
    """Runs whose time is 1e-5 * whites**exponent, times a log-normal factor."""
    rng = random.Random(seed)
    rows: list[Row] = []
    for whites in (20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000):
        for rep in range(3):
            t = 1e-5 * whites**exponent * math.exp(rng.gauss(0, noise))
            rows.append({"key": f"{set_}/{whites}|{config}|{rep}", "hash": f"h{whites}",
                         "task": "solve", "config": config, "instance": f"{set_}/{whites}",
                         "set": set_, "repetition": rep, "white_cells": whites, "status": "sat",
                         "verified": True, "time_s": t, "timeout_s": 1e9})
    return rows


def test_an_exact_power_law_gives_its_exponent() -> None:
    xs = [math.log(w) for w in (10, 100, 1000, 5000)]
    fit = fit_line(xs, [1.7 * x - 3 for x in xs])
    assert fit is not None
    assert fit.slope == pytest.approx(1.7) and fit.intercept == pytest.approx(-3)
    assert fit.ci_low == pytest.approx(1.7) == pytest.approx(fit.ci_high) and fit.r2 == 1.0


def test_too_few_points_give_no_slope() -> None:
    assert fit_line([1.0, 2.0], [1.0, 2.0]) is None
    assert fit_line([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]) is None  # one size


def test_the_interval_covers_the_true_exponent_about_95_times_in_100() -> None:
    """Over 200 noisy samples of a known law, the 95% interval holds the truth in 90-99%."""
    covered = 0
    for seed in range(200):
        (found,) = growth(_rows("c", 1.4, noise=0.5, seed=seed))
        covered += found.fit.ci_low <= 1.4 <= found.fit.ci_high
    assert 180 <= covered <= 198


def test_families_and_unsolved_runs() -> None:
    """Each family is fitted apart; unsolved runs are counted, not fitted."""
    rows = _rows("a", 1.0, noise=0.1, seed=1, set_="small") + _rows(
        "a", 2.0, noise=0.1, seed=2, set_="big"
    )
    rows[-1] = {**rows[-1], "status": "unknown", "time_s": None}
    table = growth_table(rows, {"linear": ["small"], "square": ["big"]})
    by_family = {line["family"]: line for line in table}
    assert by_family["linear"]["exponent"] == pytest.approx(1.0, abs=0.1)
    assert by_family["square"]["exponent"] == pytest.approx(2.0, abs=0.1)
    assert by_family["square"]["unsolved"] == 1 and by_family["linear"]["unsolved"] == 0
    assert by_family["square"]["solved"] == len(rows) // 2 - 1
    (both,) = growth_table(rows)  # no families: one fit over everything
    assert both["family"] == "all" and 1.0 < both["exponent"] < 2.0


def test_the_report_has_the_growth_table_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots are the 'plots' extra")
    out = tmp_path / "res"
    out.mkdir()
    rows = _rows("fast", 1.1, noise=0.2, seed=3) + _rows("slow", 1.9, noise=0.2, seed=4)
    (out / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = {"experiment": {"name": "g", "report": {"growth": {"gen": ["g"]}}}}
    (out / "environment.json").write_text(json.dumps(env))
    text = build_report(load_results(out))
    assert "## Growth with size" in text and "![growth](growth.png)" in text
    lines = [line for line in (out / "growth.csv").read_text().splitlines()[1:]]
    assert [line.split(",")[1] for line in lines] == ["fast", "slow"]  # slowest growth first
    assert (out / "growth.png").stat().st_size > 10_000


def test_a_bad_growth_table_is_refused(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        'name = "x"\n[[puzzles]]\nfile = "data/pe424_sample.txt"\n'
        '[[configs]]\nbackend = "native"\n[report]\ngrowth = { loose = "loose" }\n',
    )
    with pytest.raises(KakuroError, match="growth"):
        load_experiment(path)
