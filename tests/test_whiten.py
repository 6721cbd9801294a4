"""Whitening a finished puzzle towards a white share (``generate(white_goal=)``, issue 27):
on by default (``WHITE_GOAL``), off with ``white_goal=None`` / ``--white-goal off``."""

from __future__ import annotations

import random

import pytest
from _registries import require_backend

from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.formats import load
from kakurolab.generator import WHITE_GOAL, generate, speed
from kakurolab.generator.draw import published_layout
from kakurolab.generator.encrypt import generate_cryptic
from kakurolab.generator.layout import Layout, problems, runs_fit
from kakurolab.generator.steering import get_difficulty
from kakurolab.generator.whiten import whiten
from kakurolab.logic import deduce
from kakurolab.logic.grading import grade
from kakurolab.shape import interior_whites, layout_stats
from kakurolab.uniqueness import Verdict, prove_unique

GOAL = WHITE_GOAL


@pytest.mark.parametrize(
    ("size", "level", "seed"),
    [
        ((16, 22), "normal", 0),
        ((16, 22), "hard", 2),
        ((12, 12), "easy", 0),
        ((12, 12), "expert", 2),
    ],
    ids=str,
)
def test_white_goal_whitens_and_keeps_every_gate(size, level, seed):
    require_backend("cpsat")
    # dense_area=0: whitening the layout as drawn (12x12 easy is drawn denser by default
    # and whitened by digits alone since generator 3.6, a layout this test cannot compare)
    plain = generate(*size, level, seed=seed, white_goal=None, dense_area=0)
    dense = generate(*size, level, seed=seed, dense_area=0)  # the default goal
    assert dense.stats.whitened > 0  # these seeds exercise the step
    before, after = interior_whites(plain.puzzle), interior_whites(dense.puzzle)
    assert (
        before < after
        and dense.stats.whitened
        <= len(after - before)
        <= 4 * dense.stats.whitened  # shapes of 1-4 cells
    )
    look, old_look = layout_stats(dense.puzzle), layout_stats(plain.puzzle)
    assert look.white_share > old_look.white_share
    assert look.symmetric and look.largest_black <= max(9, old_look.largest_black)
    assert look.two_cell_share <= max(0.45, old_look.two_cell_share)
    assert look.run_lengths[0] == 0  # no one-cell runs
    difficulty = get_difficulty(level)  # every clue within the level's cap
    for run in dense.puzzle.runs:
        assert difficulty.allows(sum(1 << (dense.solution.values[c] - 1) for c in run.cells))
    deduction = deduce(dense.puzzle)
    assert deduction.solved and dict(deduction.state.placed) == dict(dense.solution.values)
    assert grade(dense.puzzle, deduction).grade == level
    for backend in ("native", "cpsat"):
        proof = prove_unique(dense.puzzle, backend=backend)
        assert proof.verdict is Verdict.UNIQUE
        assert proof.solutions[0].values == dense.solution.values
    # the default is not recorded; off is, so the meta alone makes the puzzle again
    assert "white_goal" not in dense.puzzle.meta and plain.puzzle.meta["white_goal"] == "off"


def test_a_goal_already_met_changes_nothing():
    plain = generate(12, 12, "normal", seed=0, white_goal=None)
    met = generate(12, 12, "normal", seed=0, white_goal=0.5)
    assert met.stats.whitened == 0
    assert met.puzzle.grid == plain.puzzle.grid and met.solution == plain.solution


def test_whitened_cells_never_repeat_a_digit_in_a_run():
    """With a gate that accepts everything, every candidate with a digit choice is taken:
    the grown grids must still have distinct digits in every run and a valid layout."""
    rng = random.Random(3)
    layout = published_layout(14, 14, rng, max_run=9)
    values: dict[tuple[int, int], int] = {}
    for _, cells in layout.runs:  # any digits with no repeat across runs: a Latin-like fill
        for cell in cells:
            values.setdefault(cell, (cell[0] + 2 * cell[1]) % 9 + 1)
    seen: list[Layout] = []

    def keeps(grown: Layout, trial: dict[tuple[int, int], int]) -> bool:
        seen.append(grown)
        for _, cells in grown.runs:
            digits = [trial[c] for c in cells]
            assert len(set(digits)) == len(digits)
        assert not problems(grown, max_run=9)
        return True

    grown, digits, kept = whiten(layout, values, rng, 1.0, keeps, max_run=9)
    assert kept == len(seen) and kept > 0
    assert len(grown.whites) > len(layout.whites) and grown.whites <= set(digits)


@pytest.mark.parametrize("goal", ["0", "1.5", "nan", "dense"])
def test_a_goal_outside_the_unit_interval_is_a_one_line_error(goal, capsys):
    if goal != "dense":
        with pytest.raises(KakuroError, match="white share goal"):
            generate(8, 8, "normal", white_goal=float(goal))
    assert main(["generate", "--size", "8x8", "--white-goal", goal]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kakuro: error:") and err.count("\n") == 1


def test_cli_whitens_by_default_and_off_turns_it_off(tmp_path):
    plain, dense, named = tmp_path / "plain.txt", tmp_path / "dense.txt", tmp_path / "named.txt"
    args = ["generate", "--size", "12x12", "--difficulty", "hard", "--seed", "0"]
    assert main([*args, "--white-goal", "off", "-o", str(plain)]) == 0
    assert main([*args, "-o", str(dense)]) == 0
    assert main([*args, "--white-goal", "0.75", "-o", str(named)]) == 0
    (a,), (b,), (c,) = load(plain), load(dense), load(named)
    shares = [layout_stats(p).white_share for p in (a, b, c)]
    assert shares[0] < GOAL <= shares[1] and shares[2] >= 0.75, shares  # a step may overshoot
    assert c.meta["white_goal"] == "0.75" and "white_goal" not in b.meta


def test_the_look_table_takes_cases_and_a_white_goal(capsys):
    args = ["--look", "--cases", "12x12:hard", "--seeds", "2"]
    tables = []
    for extra in (["--white-goal", "off"], []):
        assert speed.main([*args, *extra]) == 0
        tables.append(capsys.readouterr().out)
    assert all("12x12 hard (2 seeds)" in table for table in tables)

    def least(table: str) -> float:
        row = next(line for line in table.splitlines() if "(least)" in line)
        return float(row.strip().strip("|").split("|")[-1])

    assert least(tables[1]) > least(tables[0])


def test_cryptic_puzzles_can_be_whitened_too():
    require_backend("cpsat")
    plain = generate_cryptic(10, seed=1, white_goal=None)
    dense = generate_cryptic(10, seed=1)
    assert layout_stats(dense.puzzle).white_share > layout_stats(plain.puzzle).white_share
    assert dense.puzzle.is_cryptic and deduce(dense.puzzle).solved
    for backend in ("native", "cpsat"):
        proof = prove_unique(dense.puzzle, backend=backend)
        assert proof.verdict is Verdict.UNIQUE
        assert proof.solutions[0] == dense.solution


def test_runs_fit_agrees_with_the_runs_of_the_grown_layout():
    """The whitening's quick refusal measures the same runs ``problems`` would: for random
    layouts and random added cells, it accepts exactly when every run through them fits."""
    rng = random.Random(5)
    for trial in range(200):
        layout = published_layout(12, 12, rng, max_run=7)
        blacks = [(r, c) for r in range(1, 12) for c in range(1, 12) if (r, c) not in layout.whites]
        shape = frozenset(rng.sample(blacks, rng.randint(1, 3)))
        grown = Layout(12, 12, layout.whites | shape)
        through = [cells for _, cells in grown.runs if set(cells) & shape]
        expected = all(2 <= len(cells) <= 7 for cells in through)
        assert runs_fit(grown.whites, shape, 7) is expected, (trial, sorted(shape))


def test_the_runs_walked_through_new_cells_are_the_grown_layouts():
    """Digit choices walk the runs through the whitened cells on the grid
    (``whiten._lines_through``): each cell's across and down run of the grown layout, in
    the order of ``Layout.runs``, one-cell lines included."""
    from kakurolab.generator.whiten import _lines_through

    rng = random.Random(8)
    for _ in range(40):
        layout = published_layout(12, 12, rng, max_run=7)
        blacks = [(r, c) for r in range(1, 12) for c in range(1, 12) if (r, c) not in layout.whites]
        shape = sorted(rng.sample(blacks, rng.randint(1, 3)))
        grown = Layout(12, 12, layout.whites | frozenset(shape))
        lines = _lines_through(grown.whites, shape)
        for cell in shape:
            across = _across(grown)
            expected = [(0 if i < across else 1, grown.runs[i][1]) for i in grown.runs_of[cell]]
            assert list(lines[cell]) == expected
        runs = sorted({run for cell in shape for run in lines[cell]})
        indexes = sorted({i for cell in shape for i in grown.runs_of[cell]})
        assert [cells for _, cells in runs] == [grown.runs[i][1] for i in indexes]


def _across(layout: Layout) -> int:
    """How many of the layout's runs are across runs (they come first)."""
    return sum(1 for direction, _ in layout.runs if direction.name == "ACROSS")


def test_small_grids_are_drawn_denser_and_whitened_by_digits_alone(monkeypatch):
    """Generator 3.6: a grid of 100 to 200 interior cells (12x12: 121) below ``expert`` is
    drawn ``dense_extra`` whiter and whitened without mends (most of the time 3.5 spent at
    12x12), and still reaches the published share; ``dense_area=0`` draws and mends as 3.5
    did."""
    from kakurolab.generator import density

    calls = 0
    original = density.Whitening.mend

    def counting(self, *args):
        nonlocal calls
        calls += 1
        return original(self, *args)

    monkeypatch.setattr(density.Whitening, "mend", counting)
    made = generate(12, 12, "normal", seed=14)
    assert calls == 0 and layout_stats(made.puzzle).white_share >= 0.70
    before = generate(12, 12, "normal", seed=14, dense_area=0)
    assert calls > 0 and before.puzzle.grid != made.puzzle.grid
