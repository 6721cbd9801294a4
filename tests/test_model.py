"""The puzzle model: clues, runs, cryptic markers and solutions."""

from __future__ import annotations

from pathlib import Path

import pytest

from kakurolab.formats import load
from kakurolab.model import LETTERS, Clue, Direction, Solution

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "samples"


@pytest.fixture(scope="module")
def tiny():
    return load(DATA / "tiny.kakuro", select=["tiny-a"])[0]


@pytest.fixture(scope="module")
def cryptic():
    return load(SAMPLES / "cryptic.kakuro")[0]


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"value": 0}, "0"),
        ({"value": 17}, "17"),
        ({"letters": "A"}, "A"),
        ({"letters": "JC"}, "JC"),
    ],
)
def test_clue_text(kwargs: dict, text: str) -> None:
    clue = Clue(**kwargs)
    assert str(clue) == text
    assert clue.is_cryptic == ("letters" in kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"value": 3, "letters": "A"}, {"letters": "K"}, {"letters": "ABC"}, {"value": -1}],
)
def test_bad_clues_are_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        Clue(**kwargs)


@pytest.mark.parametrize(("letters", "value"), [("A", 3), ("B", 7), ("AB", 37), ("BA", 73)])
def test_clue_evaluate(letters: str, value: int) -> None:
    assert Clue(letters=letters).evaluate({"A": 3, "B": 7}) == value
    assert Clue(value=value).evaluate({}) == value


def test_runs_of_the_tiny_puzzle(tiny) -> None:
    # grid:  #  5\  15\  #  /  \3 . . 9\  /  \10 . . .  /  #  \16 . .
    runs = {(run.direction, run.cells): run.clue.value for run in tiny.runs}
    assert runs == {
        (Direction.ACROSS, ((1, 1), (1, 2))): 3,
        (Direction.ACROSS, ((2, 1), (2, 2), (2, 3))): 10,
        (Direction.ACROSS, ((3, 2), (3, 3))): 16,
        (Direction.DOWN, ((1, 1), (2, 1))): 5,
        (Direction.DOWN, ((1, 2), (2, 2), (3, 2))): 15,
        (Direction.DOWN, ((2, 3), (3, 3))): 9,
    }
    assert tiny.whites == ((1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3))
    for cell in tiny.whites:
        across, down = tiny.runs_of[cell]
        assert across.direction is Direction.ACROSS and down.direction is Direction.DOWN
        assert cell in across.cells and cell in down.cells
    assert not tiny.is_cryptic and dict(tiny.shown_letters) == {}
    assert tiny.shape == (4, 4)


def test_cryptic_markers(cryptic) -> None:
    assert cryptic.is_cryptic
    assert set(cryptic.shown_letters.values()) <= set(LETTERS)
    assert cryptic.shown_letters[(1, 2)] == "I"
    assert cryptic.meta["solution"].answer == "2561079384"


def test_solution_helpers(tiny) -> None:
    solution = tiny.meta["solution"]
    assert solution.rows(tiny) == ["----", "-21-", "-352", "--97"]
    assert solution.answer is None
    other = Solution({**solution.values, (1, 1): 4, (3, 3): 1})
    assert solution.differences(other) == [(1, 1), (3, 3)]
    assert other != solution and Solution(dict(solution.values)) == solution
    assert hash(Solution(dict(solution.values))) == hash(solution)
    assert tiny.with_id("x").id == "x" and tiny.with_id("x").grid == tiny.grid
