"""Every rule of the rulebook's scoring section, each with a worked example (docs/game.md)."""

from __future__ import annotations

import pytest

from kakurolab.game import scoring
from kakurolab.game.scoring import Mastery, Standing, base_score, mastery, ranked, speed_bonus


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ((8, 8), 500),  # the rulebook's three sheets, exactly
        ((12, 12), 1200),
        ((16, 22), 3000),
        # 10x10: area 81 on the first segment: 500 + 700 * (81 - 49) / 72 = 811.1 -> 810
        ((10, 10), 810),
        # 14x14: area 169 on the second: 1200 + 1800 * (169 - 121) / 194 = 1645.4 -> 1650
        ((14, 14), 1650),
        # 20x20: area 361 beyond the last point: 1200 + 1800 * 240 / 194 = 3426.8 -> 3430
        ((20, 20), 3430),
        # 4x4: area 9 below the first: 500 + 700 * (9 - 49) / 72 = 111.1 -> 110
        ((4, 4), 110),
    ],
)
def test_base_score_by_playing_area(size: tuple[int, int], expected: int) -> None:
    assert base_score(*size) == expected


def test_base_score_grows_with_the_area() -> None:
    values = [base_score(n, n) for n in range(4, 40)]
    assert values == sorted(values) and values[0] >= scoring.MIN_BASE


@pytest.mark.parametrize(
    ("elapsed", "target", "bonus"),
    [
        (235, 300, 20),  # 65 s under: two full half-minutes
        (240, 300, 20),  # exactly 60 s under: two
        (241, 300, 10),  # 59 s under: one
        (299, 300, 0),  # under, but not a full 30 s
        (300, 300, 0),  # on target
        (900, 300, 0),  # over: no negative bonus
        (0, 300, 100),
    ],
)
def test_speed_bonus_counts_full_half_minutes(elapsed: float, target: float, bonus: int) -> None:
    assert speed_bonus(elapsed, target) == bonus


def test_mastery_formula_flawless_example() -> None:
    # 8x8 in 235 s against 300 s, no shield spent, no illegal entry, 3 shields kept:
    # 500 base + 20 speed + 500 flawless + 3 x 100 = 1320
    got = mastery(nrows=8, ncols=8, elapsed_s=235, target_s=300, shields_used=0,
                  shields_left=3, illegal_entries=0)  # fmt: skip
    assert got == Mastery(500, 20, 500, 300) and got.total == 1320


def test_mastery_formula_a_shield_spent_loses_flawless() -> None:
    # one shield spent: no flawless bonus, 2 unused shields: 500 + 20 + 0 + 200 = 720
    got = mastery(nrows=8, ncols=8, elapsed_s=235, target_s=300, shields_used=1,
                  shields_left=2, illegal_entries=0)  # fmt: skip
    assert got.total == 720 and got.flawless == 0


def test_mastery_formula_an_illegal_entry_loses_flawless() -> None:
    # 12x12 in 1000 s against 1140 s (140 s under: 4 half-minutes), one wrong digit:
    # 1200 + 40 + 0 + 300 = 1540
    got = mastery(nrows=12, ncols=12, elapsed_s=1000, target_s=1140, shields_used=0,
                  shields_left=3, illegal_entries=1)  # fmt: skip
    assert got.to_json() == {"base": 1200, "speed": 40, "flawless": 0, "shields": 300,
                             "total": 1540}  # fmt: skip


def _line(pid: str, score: int, time_s: float | None, used: int, clue: int) -> Standing:
    return Standing(pid, pid, score, time_s, used, clue, time_s is not None)


def test_tie_breakers_in_the_rulebook_order() -> None:
    lines = [
        _line("slow", 900, 200.0, 0, 30),
        _line("fast", 900, 100.0, 2, 10),  # same score: faster wins
        _line("frugal", 900, 200.0, 0, 35),  # same score and time as slow: higher clue wins
        _line("spender", 900, 200.0, 1, 45),  # same score and time: more shields loses
        _line("top", 1000, 500.0, 3, 3),  # a higher score beats every tie-breaker
    ]
    order = [s.player_id for s in ranked(lines)]
    assert order == ["top", "fast", "frugal", "slow", "spender"]
    assert [s.rank for s in ranked(lines)] == [1, 2, 3, 4, 5]


def test_a_complete_tie_shares_the_rank() -> None:
    lines = [_line("a", 100, 50.0, 1, 9), _line("b", 100, 50.0, 1, 9), _line("c", 0, None, 0, 0)]
    assert [(s.player_id, s.rank) for s in ranked(lines)] == [("a", 1), ("b", 1), ("c", 3)]


def test_no_time_ranks_after_any_time() -> None:
    lines = [_line("unsolved", 0, None, 0, 0), _line("solved", 0, 999.0, 3, 0)]
    assert ranked(lines)[0].player_id == "solved"


def test_target_table_covers_the_campaign_week() -> None:
    from kakurolab.game.calendar import WEEK

    for day in WEEK:
        assert scoring.TARGET_TIMES[(day.size, day.difficulty)] % scoring.SPEED_STEP_S == 0


def test_target_table_matches_a_fresh_measurement_for_8x8_easy() -> None:
    """The table is measured (generator puzzles, graded), not typed in: re-measure one."""
    assert scoring.measure_target("8x8", "easy") == scoring.TARGET_TIMES[("8x8", "easy")]


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(scoring.TARGET_TIMES))
def test_every_target_matches_a_fresh_measurement(key: tuple[str, str]) -> None:
    assert scoring.measure_target(*key) == scoring.TARGET_TIMES[key]
