"""Human deduction: every step agrees with the published solutions, hints lead to them, and
the techniques are sound against brute force."""

from __future__ import annotations

import itertools
import json

import pytest

from kakurolab import combos
from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.logic import TECHNIQUES, Contradiction, State, deduce, next_hint, parse_state
from kakurolab.logic.techniques import cross_candidates
from kakurolab.model import Solution
from kakurolab.rulebook import solution_problems

# Small janko puzzles covering different hardest techniques; the whole set runs under -m slow.
FAST = ["91_6x6", "282_6x6", "1_10x12", "241_9x9", "502_10x10", "61_10x10", "942_16x16"]


def by_id(puzzles, puzzle_id):
    found = [p for p in puzzles if p.id == puzzle_id]
    assert found, f"janko dev set has no puzzle {puzzle_id}"
    return found[0]


def assert_steps_agree(puzzle, steps) -> None:
    """No step writes a wrong digit or removes the published digit of a cell."""
    published = puzzle.meta["solution"].values
    for i, step in enumerate(steps):
        for cell, digit in step.placements.items():
            assert published[cell] == digit, f"step {i} ({step.technique}) {step.text}"
        for cell, mask in step.eliminations.items():
            assert not mask & combos.bit(published[cell]), (
                f"step {i} ({step.technique}) {step.text}"
            )


def assert_deduction_agrees(puzzle) -> bool:
    result = deduce(puzzle)
    assert_steps_agree(puzzle, result.steps)
    published = puzzle.meta["solution"]
    for cell, mask in result.state.cands.items():
        assert mask & combos.bit(published.values[cell]), f"{cell} lost its published digit"
    if result.solved:
        mine = Solution(dict(result.state.placed))
        assert mine == published
        assert solution_problems(puzzle, mine) == []
    return result.solved


@pytest.mark.parametrize("puzzle_id", FAST)
def test_deduction_reaches_published_solution(janko_puzzles, puzzle_id):
    puzzle = by_id(janko_puzzles, puzzle_id)
    assert assert_deduction_agrees(puzzle), "deduction alone should finish these small puzzles"


@pytest.mark.slow
def test_deduction_whole_janko_set(janko_puzzles):
    solved = [assert_deduction_agrees(p) for p in janko_puzzles]
    assert sum(solved) / len(solved) >= 0.9


def hint_sequence(puzzle) -> int:
    """Apply hints one at a time from digit-only states; each must match the published grid."""
    published = puzzle.meta["solution"].values
    digits: dict = {}
    hints = 0
    while True:
        hint = next_hint(puzzle, State.from_digits(puzzle, digits))
        if hint.step is None:
            break
        assert hint.step.placements, "a hint must fix at least one cell"
        assert_steps_agree(puzzle, [*hint.premises, hint.step])
        for cell, digit in hint.step.placements.items():
            assert published[cell] == digit, hint.text()
            digits[cell] = digit
        hints += 1
    return len(digits)


@pytest.mark.parametrize("puzzle_id", FAST[:4])
def test_hints_in_sequence_reach_the_solution(janko_puzzles, puzzle_id):
    puzzle = by_id(janko_puzzles, puzzle_id)
    assert hint_sequence(puzzle) == len(puzzle.whites)


@pytest.mark.slow
def test_hints_in_sequence_whole_set(janko_puzzles):
    for puzzle in janko_puzzles:
        if deduce(puzzle).solved:
            assert hint_sequence(puzzle) == len(puzzle.whites), puzzle.id


def test_ladder_is_ordered_and_named():
    weights = [t.weight for t in TECHNIQUES]
    assert weights == sorted(weights)
    assert len({t.name for t in TECHNIQUES}) == len(TECHNIQUES)
    assert TECHNIQUES[-1].name == "bounded contradiction"
    assert [t.name for t in TECHNIQUES if t.assumes_unique] == ["swap rectangle"]


def test_explain_every_technique_is_sound_on_a_solved_grid(janko_puzzles):
    """Starting from the published grid with one cell erased, deduction refills it."""
    puzzle = by_id(janko_puzzles, "1_10x12")
    published = dict(puzzle.meta["solution"].values)
    erased = puzzle.whites[len(puzzle.whites) // 2]
    digits = {c: d for c, d in published.items() if c != erased}
    result = deduce(puzzle, State.from_digits(puzzle, digits))
    assert result.solved and result.state.placed[erased] == published[erased]


def test_cross_candidates_keep_the_published_digit(janko_puzzles):
    puzzle = by_id(janko_puzzles, "942_16x16")
    marks = cross_candidates(State.initial(puzzle))
    published = puzzle.meta["solution"].values
    assert all(marks[c] & combos.bit(published[c]) for c in puzzle.whites)
    assert any(combos.popcount(m) < 9 for m in marks.values())


# --- the --state format ----------------------------------------------------------------------


def state_text(puzzle, digits) -> str:
    """The --state text of ``digits``, written without any checking."""
    return "\n".join(Solution(digits).rows(puzzle))


def test_state_round_trip(janko_puzzles):
    puzzle = by_id(janko_puzzles, "91_6x6")
    published = puzzle.meta["solution"].values
    some = dict(list(published.items())[::3])
    text = state_text(puzzle, some)
    assert parse_state(puzzle, text) == some
    assert parse_state(puzzle, text.replace("\n", "/").replace(".", "0")) == some
    spaced = "\n".join(" ".join(row) for row in text.splitlines())
    assert parse_state(puzzle, spaced) == some


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda rows: rows[:-1], r"row\(s\)"),
        (lambda rows: [rows[0] + ".", *rows[1:]], "columns"),
        (lambda rows: ["?" + rows[0][1:], *rows[1:]], "unexpected character"),
        (lambda rows: ["." + rows[0][1:], *rows[1:]], "clue or block cell"),
    ],
)
def test_bad_state_text_is_one_line_error(janko_puzzles, mutate, message):
    puzzle = by_id(janko_puzzles, "91_6x6")
    rows = State.initial(puzzle).grid_rows()
    with pytest.raises(KakuroError, match=message):
        parse_state(puzzle, "\n".join(mutate(rows)))


def test_state_breaking_rules_is_a_contradiction(janko_puzzles):
    puzzle = by_id(janko_puzzles, "91_6x6")
    run = puzzle.runs[0]
    with pytest.raises(Contradiction, match="repeats"):
        State.from_digits(puzzle, {run.cells[0]: 5, run.cells[1]: 5})
    full = {c: d for c, d in zip(run.cells, range(1, 10), strict=False)}
    if sum(full.values()) != run.clue.value:
        with pytest.raises(Contradiction, match=r"sums to|cannot make up"):
            State.from_digits(puzzle, full)


def test_cryptic_puzzles_are_deduced(pe424_puzzles):
    """Cryptic puzzles are no longer refused: letters are deduced with the cells."""
    result = deduce(pe424_puzzles[0])
    assert result.solved and all(d is not None for d in result.letters().values())


# --- the commands ----------------------------------------------------------------------------


def test_hint_cli_names_a_correct_fix(janko_path, janko_puzzles, capsys):
    puzzle = by_id(janko_puzzles, "1_10x12")
    assert main(["hint", str(janko_path), "--select", puzzle.id, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fixes"]
    published = puzzle.meta["solution"].values
    for name, digit in out["fixes"].items():
        r, c = (int(x) for x in name[1:].split("c"))
        assert published[(r - 1, c - 1)] == digit
    assert main(["hint", str(janko_path), "--select", puzzle.id]) == 0
    text = capsys.readouterr().out
    assert "Fixes:" in text and name in text


def test_hint_cli_with_state_file(janko_path, janko_puzzles, tmp_path, capsys):
    puzzle = by_id(janko_puzzles, "91_6x6")
    published = puzzle.meta["solution"].values
    digits = dict(list(published.items())[: len(published) - 1])
    path = tmp_path / "state.txt"
    path.write_text(state_text(puzzle, digits) + "\n")
    assert main(["hint", str(janko_path), "--select", puzzle.id, "--state", f"@{path}"]) == 0
    (last,) = set(published) - set(digits)
    assert f"r{last[0] + 1}c{last[1] + 1} = {published[last]}" in capsys.readouterr().out


def locally_fine_wrong_digit(puzzle):
    """A single wrong digit that breaks no rule on its own (only the solution rules it out)."""
    published = puzzle.meta["solution"].values
    for cell in puzzle.whites:
        for digit in range(1, 10):
            if digit != published[cell]:
                try:
                    State.from_digits(puzzle, {cell: digit})
                except Contradiction:
                    continue
                return {cell: digit}
    raise AssertionError("no locally consistent wrong digit")


@pytest.mark.parametrize("kind", ["repeat", "wrong"])
def test_hint_cli_rejects_bad_state(janko_path, janko_puzzles, capsys, kind):
    puzzle = by_id(janko_puzzles, "91_6x6")
    if kind == "repeat":
        run = puzzle.runs[0]
        bad, expected = {run.cells[0]: 1, run.cells[1]: 1}, "breaks the rules"
    else:
        bad, expected = locally_fine_wrong_digit(puzzle), "cannot be completed"
    args = ["hint", str(janko_path), "--select", puzzle.id, f"--state={state_text(puzzle, bad)}"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err


def test_hint_cli_needs_one_puzzle(janko_path, capsys):
    assert main(["hint", str(janko_path)]) == 2
    assert "--select" in capsys.readouterr().err


def test_explain_cli_json(janko_path, janko_puzzles, capsys):
    puzzle = by_id(janko_puzzles, "282_6x6")
    assert main(["explain", str(janko_path), "--select", puzzle.id, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solved"] and out["written"] == len(puzzle.whites)
    assert out["state"] == [r.replace("0", ".") for r in puzzle.meta["solution"].rows(puzzle)]
    assert {s["technique"] for s in out["steps"]} <= {t.name for t in TECHNIQUES}


def test_explain_cli_reports_where_search_is_needed(janko_path, janko_puzzles, capsys):
    """With the ladder cut to the simplest rung, deduction stops and says so."""
    puzzle = by_id(janko_puzzles, "942_16x16")
    result = deduce(puzzle, techniques=TECHNIQUES[:2])
    assert not result.solved and "search" in result.summary()
    assert_steps_agree(puzzle, result.steps)


def test_explain_cli_up_to_stops_and_says_so(janko_path, capsys):
    args = ["explain", str(janko_path), "--select", "942_16x16", "--up-to", "unique partition"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "deduction stops" in out and "search" in out and "candidates of the open cells" in out
    assert "[cross-intersection]" not in out


@pytest.mark.bench
def test_bench_deduce_31x46(janko_puzzles, benchmark):
    """Deduction of the largest janko puzzle, start to finish."""
    puzzle = by_id(janko_puzzles, "960_31x46")
    result = benchmark.pedantic(deduce, args=(puzzle,), rounds=3, iterations=1)
    assert result.solved


def tiny_puzzle():
    """A 2x2 block of white cells: across 3 and 4, down 3 and 4 (no data files needed)."""
    from kakurolab.model import BLOCK, WHITE, Clue, ClueCell, Puzzle

    grid = (
        (BLOCK, ClueCell(down=Clue(3)), ClueCell(down=Clue(4))),
        (ClueCell(across=Clue(3)), WHITE, WHITE),
        (ClueCell(across=Clue(4)), WHITE, WHITE),
    )
    return Puzzle("tiny", grid)


def brute_solutions(puzzle):
    whites = puzzle.whites
    for digits in itertools.product(range(1, 10), repeat=len(whites)):
        candidate = Solution(dict(zip(whites, digits, strict=True)))
        if not solution_problems(puzzle, candidate):
            yield candidate


def test_tiny_puzzle_first_step_is_the_simplest_and_solves():
    puzzle = tiny_puzzle()
    (only,) = list(brute_solutions(puzzle))
    result = deduce(puzzle)
    assert result.steps[0].technique == "unique partition"
    assert result.solved and Solution(dict(result.state.placed)) == only
    order = {t.name: i for i, t in enumerate(TECHNIQUES)}
    assert all(order[s.technique] <= order["cross-intersection"] for s in result.steps)
