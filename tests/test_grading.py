"""Grades: the rank correlation is right, grades follow the techniques, the report is built."""

from __future__ import annotations

import json
import math
import random

import pytest

from kakurolab.cli import main
from kakurolab.commands.grade import END, START
from kakurolab.logic import BY_NAME, TECHNIQUES, deduce
from kakurolab.logic.grading import GRADES, grade, ranks, spearman
from kakurolab.logic.levels import LEVELS, level_of


def by_id(puzzles, puzzle_id):
    found = [p for p in puzzles if p.id == puzzle_id]
    assert found, puzzle_id
    return found[0]


def test_ranks_share_ties():
    assert ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]


@pytest.mark.parametrize("seed", range(10))
def test_spearman_matches_textbook_formula_without_ties(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 40)
    xs = rng.sample(range(1000), n)
    ys = rng.sample(range(1000), n)
    rx, ry = ranks(xs), ranks(ys)
    d2 = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    assert spearman(xs, ys) == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)))


def test_spearman_extremes():
    xs = [1.0, 2.5, 3.0, 9.0]
    assert spearman(xs, [x * x for x in xs]) == pytest.approx(1.0)
    assert spearman(xs, [-x for x in xs]) == pytest.approx(-1.0)
    assert math.isnan(spearman(xs, [1, 1, 1, 1]))


@pytest.mark.parametrize("puzzle_id", ["91_6x6", "1_10x12", "502_10x10", "942_16x16"])
def test_grade_follows_the_hardest_technique(janko_puzzles, puzzle_id):
    puzzle = by_id(janko_puzzles, puzzle_id)
    result = deduce(puzzle)
    g = grade(puzzle, result)
    assert g.grade in {name for name, _ in GRADES}
    assert g.hardest == result.hardest()
    assert g.effort == sum(BY_NAME[s.technique].weight for s in result.steps)
    weight = BY_NAME[g.hardest].weight
    assert g.grade == level_of(weight, g.ambiguity)
    # a level whose both requirements the puzzle meets is its grade
    met = [level.name for level in LEVELS if level.admits(weight, g.ambiguity)]
    assert met in ([], [g.grade])


def test_needs_search_when_the_ladder_is_cut(janko_puzzles):
    puzzle = by_id(janko_puzzles, "942_16x16")
    stuck = deduce(puzzle, techniques=TECHNIQUES[:3])
    full = deduce(puzzle)
    assert not stuck.solved
    assert grade(puzzle, stuck).grade == "needs-search"
    assert grade(puzzle, stuck).score > grade(puzzle, full).score


def test_grade_cli_report_keeps_prose(janko_path, tmp_path, capsys):
    report = tmp_path / "logic.md"
    report.write_text(f"# Title\n\nprose before\n\n{START}\nold\n{END}\n\nprose after\n")
    ids = "91_6x6,282_6x6,1_10x12"
    assert main(["grade", str(janko_path), "--select", ids, "--report", str(report)]) == 0
    text = report.read_text()
    assert "prose before" in text and "prose after" in text and "old" not in text
    assert text.count(START) == 1 and text.count(END) == 1
    assert "Solved by deduction alone: 3 of 3" in text
    for puzzle_id in ids.split(","):
        assert f"| {puzzle_id} |" in text
    capsys.readouterr()
    assert main(["grade", str(janko_path), "--select", ids, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["id"] for g in lines] == ids.split(",")


@pytest.mark.slow
def test_grade_correlates_with_size(janko_puzzles):
    grades = [grade(p) for p in janko_puzzles]
    cells = [g.white_cells for g in grades]
    assert spearman([g.effort for g in grades], cells) > 0.5
    assert spearman([g.score for g in grades], cells) > 0
