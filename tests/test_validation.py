"""Structure checks and the solution rule checker, on small grids written for each rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kakurolab.errors import PuzzleError
from kakurolab.formats import embedded_solution, load, loads
from kakurolab.model import Solution
from kakurolab.rulebook import (
    clue_values,
    solution_problems,
    structure_info,
    structure_problems,
    validate,
    white_components,
)

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "samples"


def grid(text: str):
    (puzzle,) = loads(text, format="kakuro", check=False)
    return puzzle


TINY = "  #  5\\ 15\\   #\n\\3   .   .  9\\\n\\10  .   .   .\n  # \\16  .   .\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("  #  3\\  4\\\n  #   .   .\n\\4   .   .\n", "run at r2c2 across has no clue"),
        ("  .  .\n  .  .\n", "run at r1c1 across has no clue"),
        (
            "#" + " 3\\" * 10 + "\n\\45" + " ." * 10 + "\n\\10" + " ." * 10 + "\n",
            "run r2c1 across has 10 cells (at most 9)",
        ),
        ("  #  3\\  4\\\n\\40   .   .\n\\4   .   .\n", "clue 40 of run r2c1 across is impossible"),
        ("  #  3\\  4\\\n\\1   .   .\n\\6   .   .\n", "clue 1 of run r2c1 across is impossible"),
        ("  #  3\\  4\\ 5\\\n\\3   .   .   #\n\\4   .   .   #\n", "down clue at r1c4 has no run"),
    ],
)
def test_structure_problems(text: str, problem: str) -> None:
    puzzle = grid(text)
    problems = structure_problems(puzzle)
    assert any(problem in p for p in problems), problems
    with pytest.raises(PuzzleError, match=r"^f\.kakuro: puzzle 1: "):
        validate(puzzle, source="f.kakuro")


SHORT = "  #  4\\ 3\\\n\\4   .   .\n\\3   .   #\n"
APART = (
    "  #  3\\  4\\   #   #\n\\3   .   .   #   #\n\\4   .   .  3\\  4\\\n"
    "  #   #  \\3   .   .\n  #   #  \\4   .   .\n"
)


def test_one_cell_runs_are_valid_and_reported() -> None:
    puzzle = grid(SHORT)
    assert structure_problems(puzzle) == []
    assert structure_problems(puzzle, allow_short_runs=True) == []  # the old keyword: no-op
    info = structure_info(puzzle)
    assert info.short_runs == ("r3c1 across", "r1c3 down")
    assert info.component_sizes == (3,)
    (problem,) = info.strict_problems()
    assert "run r3c1 across and 1 more has 1 cell" in problem
    with pytest.raises(PuzzleError, match="1 cell"):
        validate(puzzle, strict=True)


def test_separate_white_areas_are_valid_and_reported() -> None:
    puzzle = grid(APART)
    assert structure_problems(puzzle) == []
    validate(puzzle)
    info = structure_info(puzzle)
    assert (info.components, info.component_sizes, info.short_runs) == (2, (4, 4), ())
    assert not info.connected
    assert "form 2 separate areas of 4, 4 cells" in info.strict_problems()[0]
    with pytest.raises(PuzzleError, match=r"^f\.kakuro: puzzle 1: the white cells form 2"):
        validate(puzzle, strict=True, source="f.kakuro")
    assert [len(part) for part in white_components(puzzle)] == [4, 4]


@pytest.mark.parametrize(
    "path",
    [DATA / "tiny.kakuro", SAMPLES / "standard.kakuro", SAMPLES / "cryptic.txt"],
)
def test_hand_made_puzzles_are_valid(path: Path) -> None:
    for puzzle in load(path, check=False):
        assert structure_problems(puzzle) == []


@pytest.mark.parametrize(
    ("letters", "values"),
    [("A", tuple(range(10))), ("AB", tuple(v for v in range(10, 100) if v % 11))],
)
def test_cryptic_clue_values(letters: str, values: tuple[int, ...]) -> None:
    run = grid(f"  #  3\\  4\\\n\\{letters}   .   .\n\\4   .   .\n").runs[0]
    assert clue_values(run) == values


def test_repeated_letter_clue_values() -> None:
    run = grid("  #  3\\  4\\\n\\AA   .   .\n\\4   .   .\n").runs[0]
    assert clue_values(run) == (11, 22, 33, 44, 55, 66, 77, 88, 99)


# ---------------------------------------------------------------- the rule checker


@pytest.fixture(scope="module")
def tiny():
    return grid(TINY)


GOOD = {(1, 1): 2, (1, 2): 1, (2, 1): 3, (2, 2): 5, (2, 3): 2, (3, 2): 9, (3, 3): 7}


def test_the_right_solution_passes(tiny) -> None:
    assert solution_problems(tiny, Solution(GOOD)) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({(1, 1): None}, ["r2c2 is empty"]),
        ({(1, 1): 0}, ["r2c2 is empty"]),
        (
            {(1, 1): 12},
            ["r2c2 holds 12, outside 1-9", "run r2c1 across sums to 13, not its clue 3"],
        ),
        ({(0, 0): 4}, ["r1c1 is not a white cell"]),
        (
            {(2, 3): 3, (3, 3): 6},
            ["run r3c1 across sums to 11, not its clue 10", "run r4c2 across sums to 15"],
        ),
        ({(2, 1): 5, (2, 3): 3}, ["run r3c1 across repeats 5"]),
    ],
)
def test_each_broken_rule_is_listed(tiny, change: dict, expected: list[str]) -> None:
    values = {**GOOD, **change}
    values = {cell: v for cell, v in values.items() if v is not None}
    problems = solution_problems(tiny, Solution(values))
    for fragment in expected:
        assert any(fragment in p for p in problems), (fragment, problems)


@pytest.fixture(scope="module")
def cryptic():
    return load(SAMPLES / "cryptic.kakuro")[0]


def test_cryptic_solution_passes_and_letter_rules_fail(cryptic) -> None:
    solution = embedded_solution(cryptic)
    assert solution_problems(cryptic, solution) == []
    # r2c3 shows I (= 8): write 9 there instead
    wrong = Solution({**solution.values, (1, 2): 9}, solution.letters)
    assert "r2c3 shows I=8 but holds 9" in solution_problems(cryptic, wrong)
    sums = [p for p in solution_problems(cryptic, wrong) if "sums to" in p]
    # a letter clue is named with its value once: "not its clue AB = 23", never "23 is 23"
    assert sums and all(re.search(r"not its clue [A-J]+ = \d+$", p) for p in sums), sums
    swapped = {**solution.letters, "A": solution.letters["B"]}
    problems = solution_problems(cryptic, Solution(solution.values, swapped))
    assert any("letters A and B are both" in p for p in problems)
    problems = solution_problems(cryptic, Solution(solution.values, {}))
    assert "letter A has no digit" in problems
