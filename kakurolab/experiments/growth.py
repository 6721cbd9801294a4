"""How a configuration's cost grows with the puzzle: the slope of log time against log white
cells (time ~ whites^b), with its confidence interval.

One exponent says more than a table of sizes: b near 1 is linear growth, b near 2 quadratic.
The fit is ordinary least squares on (ln whites, ln seconds) over the solved runs, grouped by
configuration and by family (``[report] growth = {family = [set, ...]}``; one family "all"
by default); the interval is the usual t interval of an OLS slope.  Unsolved runs have no time
and are left out, but counted: a configuration that times out on the largest puzzles grows
faster than its slope says.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .results import by_config, run_time, solved
from .runs import Row

MIN_TIME = 1e-4
"""A floor for log times: runs faster than this are fitted at it."""
MIN_POINTS = 3
"""Fewer solved runs (or fewer than two sizes) give no slope."""
CONFIDENCE = 0.95

Groups = Mapping[str, Sequence[str]]
"""Family name -> the puzzle sets (``set`` of a row) that form it."""

_T_SMALL = {1: 12.7062, 2: 4.3027}
"""Two-sided 95% t quantiles where the expansion below is poor."""


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided ``confidence`` quantile of Student's t with ``df`` degrees of freedom.

    The Cornish-Fisher expansion about the normal quantile (Abramowitz and Stegun 26.7.5) is
    within 0.01 of the exact value from 3 degrees of freedom up, without SciPy."""
    if confidence == CONFIDENCE and df in _T_SMALL:
        return _T_SMALL[df]
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    g = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(gk / df ** (k + 1) for k, gk in enumerate(g))


@dataclass(frozen=True)
class Fit:
    """A least-squares line ``y = intercept + slope * x`` with the slope's interval."""

    slope: float
    intercept: float
    ci_low: float
    ci_high: float
    r2: float
    n: int


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> Fit | None:
    """OLS fit with a t interval for the slope; None for fewer than three points or one x."""
    n = len(xs)
    if n < MIN_POINTS or len(set(xs)) < 2:
        return None
    slope, intercept = statistics.linear_regression(xs, ys)
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    total = sum((y - my) ** 2 for y in ys)
    half = t_quantile(n - 2) * math.sqrt(residual / (n - 2) / sxx)
    r2 = 1.0 - residual / total if total > 0 else 1.0
    return Fit(slope, intercept, slope - half, slope + half, r2, n)


@dataclass(frozen=True)
class Growth:
    """One configuration's growth on one family of puzzles."""

    configuration: str
    family: str
    fit: Fit
    unsolved: int
    min_whites: int
    max_whites: int

    def seconds_at(self, whites: float) -> float:
        """The fitted time at ``whites`` white cells."""
        return math.exp(self.fit.intercept + self.fit.slope * math.log(whites))

    def label(self) -> str:
        f = self.fit
        return f"b={f.slope:.2f} [{f.ci_low:.2f}, {f.ci_high:.2f}]"


def families_of(rows: Sequence[Row], groups: Groups | None) -> dict[str, list[Row]]:
    """Rows by family: ``groups`` maps a family to its puzzle sets; without it, one family
    "all".  Rows of sets no family names are left out."""
    if not groups:
        return {"all": list(rows)}
    family_of = {s: family for family, sets in groups.items() for s in sets}
    found: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        family = family_of.get(row.get("set", ""))
        if family is not None:
            found[family].append(row)
    return {family: found[family] for family in groups if found.get(family)}


def growth(rows: Sequence[Row], groups: Groups | None = None) -> list[Growth]:
    """Every (family, configuration) with enough solved runs to fit, family by family."""
    found = []
    for family, members in families_of(rows, groups).items():
        for config, group in by_config(list(members)).items():
            done = [r for r in group if solved(r) and r.get("white_cells")]
            fit = fit_line(
                [math.log(r["white_cells"]) for r in done],
                [math.log(max(run_time(r), MIN_TIME)) for r in done],
            )
            if fit is None:
                continue
            whites = [r["white_cells"] for r in done]
            found.append(
                Growth(config, family, fit, len(group) - len(done), min(whites), max(whites))
            )
    return found


def growth_table(rows: Sequence[Row], groups: Groups | None = None) -> list[dict[str, Any]]:
    """The report's table: one line per family and configuration, slowest growth first."""
    lines = sorted(growth(rows, groups), key=lambda g: (g.family, g.fit.slope))
    return [
        {
            "family": g.family,
            "configuration": g.configuration,
            "exponent": round(g.fit.slope, 3),
            "ci95_low": round(g.fit.ci_low, 3),
            "ci95_high": round(g.fit.ci_high, 3),
            "r2": round(g.fit.r2, 3),
            "solved": g.fit.n,
            "unsolved": g.unsolved,
            "whites": f"{g.min_whites}-{g.max_whites}",
        }
        for g in lines
    ]
