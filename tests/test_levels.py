"""The four levels mean one thing everywhere: the generator's label is the grader's verdict,
on the shipped bank and on fresh puzzles, levels rise in human terms at every size, and the
Calendar week climbs strictly from Monday to Sunday."""

from __future__ import annotations

import datetime as dt
import itertools
from functools import cache

import pytest

from kakurolab import bank
from kakurolab.cli import main
from kakurolab.formats import dumps
from kakurolab.game import calendar as cal
from kakurolab.game.puzzles import choose
from kakurolab.generator import DIFFICULTIES, generate, parse_size
from kakurolab.logic import BY_NAME
from kakurolab.logic.grading import GRADES, grade
from kakurolab.logic.levels import LEVEL_NAMES, LEVELS, NEEDS_SEARCH, level_of

WEIGHTS = sorted({t.weight for t in BY_NAME.values()} | {0})
MEANS = [1.0, 1.2, 1.4, 1.41, 1.7, 2.0, 2.01, 2.3, 2.6, 2.61, 3.0, 4.5]


def test_one_vocabulary():
    assert tuple(DIFFICULTIES) == LEVEL_NAMES == bank.DIFFICULTIES
    assert tuple(name for name, _ in GRADES) == (*LEVEL_NAMES, NEEDS_SEARCH)
    assert {day.difficulty for day in cal.WEEK} <= set(LEVEL_NAMES)
    assert [DIFFICULTIES[name].level for name in LEVEL_NAMES] == list(LEVELS)


@pytest.mark.parametrize("weight", WEIGHTS)
@pytest.mark.parametrize("mean", MEANS)
def test_a_level_met_is_the_verdict(weight, mean):
    met = [level.name for level in LEVELS if level.admits(weight, mean)]
    assert len(met) <= 1  # bands are disjoint
    if met:
        assert level_of(weight, mean) == met[0]


def test_verdicts_never_fall_as_weight_or_ambiguity_rise():
    rank = {name: i for i, name in enumerate(LEVEL_NAMES)}
    for mean in MEANS:
        verdicts = [rank[level_of(w, mean)] for w in WEIGHTS]
        assert verdicts == sorted(verdicts), mean
    for weight in WEIGHTS:
        verdicts = [rank[level_of(weight, m)] for m in MEANS]
        assert verdicts == sorted(verdicts), weight
    assert level_of(8, 1.2) == "normal"  # exact run consistency is never easy
    assert level_of(3, 3.0) == "normal"  # an expert band cannot make singles hard
    assert level_of(10, 1.0) == "expert"  # reasoning across runs is expert's alone


# --- the shipped bank ---------------------------------------------------------------------------


BANK_SIZES = [
    size if size in ("6x6", "8x8", "10x10") else pytest.param(size, marks=pytest.mark.slow)
    for size in bank.SIZES
]
"""The whole bank takes about 10 s to deduce: the default suite deduces the small sizes."""


@cache
def figures(size: str) -> tuple[bank.CellFigures, ...]:
    return tuple(bank.cell_figures(size, level) for level in bank.DIFFICULTIES)


@pytest.mark.parametrize("size", BANK_SIZES)
def test_every_bank_base_grades_at_its_cell(size):
    cells = figures(size)
    assert [set(cell.grades) for cell in cells] == [{level} for level in bank.DIFFICULTIES]
    records = [r for r in bank.manifest()["bases"] if r["size"] == size]
    assert sum(len(cell.grades) for cell in cells) == len(records)
    assert all(r["grade"] == r["difficulty"] for r in records)


@pytest.mark.parametrize("size", BANK_SIZES)
def test_levels_rise_in_human_terms(size):
    """Mean solving steps, steps of run sets and above, and mean clue ambiguity strictly
    rise from easy to expert; the mean hardest technique never falls and expert's is above
    easy's."""
    cells = figures(size)
    for field in ("steps", "hard_steps", "ambiguity"):
        means = [getattr(cell, field) for cell in cells]
        assert all(a < b for a, b in itertools.pairwise(means)), (field, means)
    hardest = [cell.hardest_weight for cell in cells]
    assert hardest == sorted(hardest) and hardest[0] < hardest[-1], hardest


# --- fresh puzzles --------------------------------------------------------------------------------

FRESH = [
    (size, level, seed)
    for size in ("6x6", "8x8", "10x10")
    for level in LEVEL_NAMES
    for seed in (100, 101)
] + [
    pytest.param(size, level, 100, marks=pytest.mark.slow)
    for size in ("12x12", "16x22", "20x20")
    for level in LEVEL_NAMES
]


@pytest.mark.parametrize(("size", "level", "seed"), FRESH)
def test_a_generated_puzzle_grades_at_its_level(size, level, seed, tmp_path, capsys):
    """Seeds the bank does not use; ``kakuro grade`` on the written file says the level."""
    nrows, ncols = parse_size(size)
    made = generate(nrows, ncols, level, seed=seed)
    path = tmp_path / "made.kakuro"
    path.write_text(dumps([made.puzzle], "kakuro"))
    assert main(["grade", str(path)]) == 0
    assert f": {level} (score" in capsys.readouterr().out


# --- the Calendar ---------------------------------------------------------------------------------


def test_calendar_pools_lie_one_above_the_other():
    scores = {b.id: b.score for day in cal.WEEK for b in bank.bases(day.size, day.difficulty)}
    pools = cal.pools()
    assert len(pools) == len(cal.WEEK) and all(len(p) == cal.POOL for p in pools)
    for low, high in itertools.pairwise(pools):
        assert max(scores[i] for i in low) < min(scores[i] for i in high)


@pytest.mark.parametrize("monday", [dt.date(2026, 11, 30), dt.date(2027, 3, 1)])
def test_calendar_week_rises_strictly_in_grade(monday):
    rank = {name: i for i, name in enumerate(LEVEL_NAMES)}
    graded = []
    for i, day in enumerate(cal.WEEK):
        date = monday + dt.timedelta(days=i)
        chosen = choose(day.size, day.difficulty, cal.seed_of(date))
        assert chosen.puzzle.shape == parse_size(day.size)
        assert choose(day.size, day.difficulty, cal.seed_of(date)) == chosen
        graded.append(grade(chosen.puzzle))
    assert [g.grade for g in graded] == [day.difficulty for day in cal.WEEK]
    assert [rank[g.grade] for g in graded] == sorted(rank[g.grade] for g in graded)
    scores = [g.score for g in graded]
    assert all(a < b for a, b in itertools.pairwise(scores)), scores


def test_calendar_score_bands_rise_and_hold_their_pools():
    """Bands a fresh calendar maker can aim at: disjoint, rising, each holding its pool."""
    bands = [cal.score_band(i) for i in range(len(cal.WEEK))]
    assert bands[0][0] == float("-inf") and bands[-1][1] == float("inf")
    for (_, high), (low, _) in itertools.pairwise(bands):
        assert high == low
    assert all(low < high for low, high in bands)
    monday = dt.date(2026, 11, 30)
    for i, day in enumerate(cal.WEEK):
        date = monday + dt.timedelta(days=i)
        pool = set(cal.pools()[i])
        scores = [b.score for b in bank.bases(day.size, day.difficulty) if b.id in pool]
        assert all(cal.fits(date, s) for s in scores)
        assert not cal.fits(date + dt.timedelta(days=1 if i < 6 else -1), scores[0])


def test_the_services_fresh_calendar_week_rises_strictly_in_grade():
    """The service makes calendar days fresh from a secret seed (not from the bank), drawing
    seeds until the grade falls in the day's band: the week still rises strictly.  The maker
    here hands out bank variants by seed (a fast stand-in for the generator whose grades vary
    from seed to seed, as fresh puzzles' do)."""
    import hashlib

    from kakurolab.game import Mode, Options
    from kakurolab.game.prepare import Choice, make

    def fresh(size: str, difficulty: str, seed: str | int):
        number = int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:8], "big")
        drawn = bank.pick(size, difficulty, seed=number)
        return drawn.puzzle, drawn.solution

    monday = dt.date(2026, 11, 30)
    scores = []
    for i, day in enumerate(cal.WEEK):
        date = monday + dt.timedelta(days=i)
        choice = Choice(Mode.CAMPAIGN, day.size, day.difficulty, f"secret-{i}", date.isoformat(),
                        "secret", Options())  # fmt: skip
        made = make(choice, fresh, fresh)
        score = grade(made.puzzle).score
        assert cal.fits(date, score), (date, score, cal.score_band(date.weekday()))
        scores.append(score)
    assert all(a < b for a, b in itertools.pairwise(scores)), scores
