"""Deduction II: the rungs past per-run reasoning (run subsets, region sums, swap rectangles,
bounded contradiction) and cryptic letter reasoning.

Checked against published solutions (janko beyond-runs and dev sets), against the native
solver (PE424 answers, every solution of small random puzzles) and by brute force.
"""

from __future__ import annotations

import json
import random

import pytest

from kakurolab import combos, datasets, uniqueness
from kakurolab.cli import main
from kakurolab.formats import dumps, load, loads
from kakurolab.logic import (
    BY_NAME,
    PURE,
    SOUND,
    TECHNIQUES,
    Contradiction,
    Engine,
    State,
    deduce,
    explain_puzzle,
    grade,
    next_hint,
)
from kakurolab.logic.region_sums import region_sum, regions_of
from kakurolab.logic.swaps import Rectangle, rectangles_of, swap_rectangle
from kakurolab.model import BLOCK, WHITE, Clue, ClueCell, Puzzle, Solution
from kakurolab.propagation import root_state

ACROSS_RUNS = ("region sum", "run-group sum", "swap rectangle", "bounded contradiction")
LAST_RESORT = ("swap rectangle", "bounded contradiction")


@pytest.fixture(scope="module")
def beyond():
    return load(datasets.JANKO_BEYOND_RUNS)


@pytest.fixture(scope="module")
def pe424_answers(pe424_puzzles):
    """Native's answer per PE424 puzzle (an independent solver)."""
    return {p.id: uniqueness.solve(p, backend="native").solutions[0].answer for p in pe424_puzzles}


def assert_agrees(puzzle, steps, values) -> None:
    """No step writes a wrong digit or removes the solution's digit from a cell."""
    for i, step in enumerate(steps):
        for cell, digit in step.placements.items():
            assert values[cell] == digit, f"{puzzle.id} step {i}: {step.text}"
        for cell, mask in step.eliminations.items():
            assert not mask & combos.bit(values[cell]), f"{puzzle.id} step {i}: {step.text}"


# --- published puzzles ------------------------------------------------------------------------


def test_beyond_runs_puzzles_are_deduced_to_the_published_grid(beyond):
    """All 8 stop under per-run reasoning alone and are finished by the new rungs; none
    needs a last-resort rung (uniqueness or contradiction): arithmetic suffices."""
    assert len(beyond) == 8
    per_run = TECHNIQUES[: TECHNIQUES.index(BY_NAME["run permutations"]) + 1]
    last_resort = 0
    for puzzle in beyond:
        published = puzzle.meta["solution"]
        assert not deduce(puzzle, techniques=per_run).solved, puzzle.id
        result = deduce(puzzle)
        assert result.solved, puzzle.id
        assert Solution(dict(result.state.placed)) == published, puzzle.id
        assert_agrees(puzzle, result.steps, published.values)
        used = result.technique_counts()
        assert any(used.get(name) for name in ACROSS_RUNS), puzzle.id
        last_resort += any(used.get(name) for name in LAST_RESORT)
    assert last_resort == 0
    assert all(deduce(p, techniques=PURE).solved for p in beyond)


def test_every_janko_dev_puzzle_is_deduced_to_the_published_grid(janko_puzzles):
    for puzzle in janko_puzzles:
        result = deduce(puzzle)
        assert result.solved, puzzle.id
        assert Solution(dict(result.state.placed)) == puzzle.meta["solution"], puzzle.id
        assert not result.assumed_unique, puzzle.id


def test_pe424_deduction_beats_root_propagation_and_matches_native(pe424_puzzles, pe424_answers):
    """Every PE424 puzzle that native's root propagation decides is deduced, and every deduced
    answer (letters A-J) is native's; none needs the uniqueness or contradiction rung."""
    solved = 0
    for puzzle in pe424_puzzles:
        root = root_state(puzzle)
        assert root is not None
        by_root = all(m & (m - 1) == 0 for m in root.cells.values())
        result = deduce(puzzle)
        assert result.solved or not by_root, puzzle.id
        assert not any(result.technique_counts().get(name) for name in LAST_RESORT), puzzle.id
        if result.solved:
            solved += 1
            answer = "".join(str(d) for d in result.letters().values())
            assert answer == pe424_answers[puzzle.id], puzzle.id
            native = uniqueness.solve(puzzle, backend="native").solutions[0]
            assert dict(result.state.placed) == dict(native.values), puzzle.id
    assert solved == len(pe424_puzzles) == 200


# --- hints ------------------------------------------------------------------------------------


def hint_sequence(puzzle, values) -> int:
    """Apply hints one at a time from digit-only states; each must agree with ``values``."""
    digits: dict = {}
    while True:
        hint = next_hint(puzzle, State.from_digits(puzzle, digits))
        if hint.step is None:
            break
        assert hint.step.placements
        assert_agrees(puzzle, [*hint.premises, hint.step], values)
        digits.update(hint.step.placements)
    return len(digits)


def test_hints_in_sequence_beyond_runs_and_cryptic(beyond, pe424_puzzles):
    puzzle = next(p for p in beyond if p.id == "329_12x12")
    assert hint_sequence(puzzle, puzzle.meta["solution"].values) == len(puzzle.whites)
    for cryptic in pe424_puzzles[:3]:
        values = uniqueness.solve(cryptic, backend="native").solutions[0].values
        assert hint_sequence(cryptic, values) == len(cryptic.whites)


@pytest.mark.slow
def test_hints_in_sequence_every_deduced_puzzle(beyond, janko_puzzles, pe424_puzzles):
    for puzzle in [*beyond, *janko_puzzles]:
        assert hint_sequence(puzzle, puzzle.meta["solution"].values) == len(puzzle.whites)
    for puzzle in pe424_puzzles:
        if deduce(puzzle).solved:
            values = uniqueness.solve(puzzle, backend="native").solutions[0].values
            assert hint_sequence(puzzle, values) == len(puzzle.whites), puzzle.id


# --- small random puzzles: every solution survives every sound step ---------------------------


def random_puzzle(rng: random.Random, rows: int, cols: int, name: str) -> Puzzle:
    """A random shape (no one-cell runs) filled with a random valid grid; clues from the fill,
    so the puzzle has at least that solution (often more)."""
    whites = {(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if rng.random() < 0.8}
    changed = True
    while changed:
        changed = False
        for r, c in sorted(whites):
            across = (r, c - 1) in whites or (r, c + 1) in whites
            down = (r - 1, c) in whites or (r + 1, c) in whites
            if not (across and down):
                whites.discard((r, c))
                changed = True
    fill: dict = {}

    def peers(cell):
        r, c = cell
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            rr, cc = r + dr, c + dc
            while (rr, cc) in whites:
                yield (rr, cc)
                rr, cc = rr + dr, cc + dc

    order = sorted(whites)

    def place(i):
        if i == len(order):
            return True
        digits = list(range(1, 10))
        rng.shuffle(digits)
        taken = {fill.get(p) for p in peers(order[i])}
        for d in digits:
            if d not in taken:
                fill[order[i]] = d
                if place(i + 1):
                    return True
        fill.pop(order[i], None)
        return False

    assert place(0)

    def run_sum(r, c, dr, dc):
        total, rr, cc = 0, r + dr, c + dc
        while (rr, cc) in whites:
            total += fill[(rr, cc)]
            rr, cc = rr + dr, cc + dc
        return total or None

    grid = []
    for r in range(rows + 1):
        row = []
        for c in range(cols + 1):
            if (r, c) in whites:
                row.append(WHITE)
                continue
            down, across = run_sum(r, c, 1, 0), run_sum(r, c, 0, 1)
            row.append(
                ClueCell(down=Clue(down) if down else None, across=Clue(across) if across else None)
                if down or across
                else BLOCK
            )
        grid.append(tuple(row))
    return Puzzle(name, tuple(grid))


def random_cases(count: int, seed: int):
    rng = random.Random(seed)
    for i in range(count):
        puzzle = random_puzzle(rng, rng.randint(3, 6), rng.randint(3, 6), f"rnd{seed}-{i}")
        if not puzzle.whites:
            continue
        solutions = list(uniqueness.solutions(puzzle, limit=200, backend="native"))
        if len(solutions) < 200:
            yield puzzle, solutions


@pytest.mark.parametrize("seed", range(3))
def test_sound_rungs_keep_every_solution_of_random_puzzles(seed):
    """Without the uniqueness rung, no step may remove a digit that any solution uses; with
    it, a unique puzzle still ends on its solution."""
    checked = 0
    for puzzle, solutions in random_cases(30, seed):
        engine = Engine(State.initial(puzzle), SOUND)
        engine.run()
        for sol in solutions:
            assert_agrees(puzzle, engine.steps, sol.values)
        if len(solutions) == 1:
            full = deduce(puzzle)
            assert_agrees(puzzle, full.steps, solutions[0].values)
            assert full.solved and Solution(dict(full.state.placed)) == solutions[0]
        checked += 1
    assert checked >= 10


def test_hints_on_puzzles_with_several_solutions_never_pick_one():
    """A uniqueness argument would choose between solutions: on a puzzle with several, the
    hint writes only digits every solution shares (here: none, deduction is stuck)."""
    checked = 0
    for puzzle, solutions in random_cases(30, 2):
        if len(solutions) < 2:
            continue
        engine = Engine(State.initial(puzzle), TECHNIQUES)
        try:
            engine.run(until=lambda step: bool(step.placements))
        except Contradiction:
            continue
        if not engine.assumed_unique:
            continue
        hint = next_hint(puzzle)
        if hint.step is not None:
            for cell, digit in hint.step.placements.items():
                assert all(sol.values[cell] == digit for sol in solutions), hint.text()
        checked += 1
    assert checked >= 1


def test_random_puzzles_exercise_the_new_rungs():
    """The fuzz above is only worth something if the new rungs fire on those puzzles."""
    used: set[str] = set()
    for seed in range(3):
        for puzzle, _ in random_cases(25, seed):
            used.update(deduce(puzzle, techniques=SOUND).technique_counts())
    assert {"run subsets", "region sum", "bounded contradiction"} <= used


def test_region_sums_are_sound_on_every_area_of_a_stuck_state(beyond):
    """Every region-sum finding at the state where per-run reasoning stops keeps the
    published digit (not only the one the engine picked)."""
    puzzle = next(p for p in beyond if p.id == "301_14x14")
    values = puzzle.meta["solution"].values
    per_run = TECHNIQUES[: TECHNIQUES.index(BY_NAME["run permutations"]) + 1]
    state = deduce(puzzle, techniques=per_run).state
    fired = 0
    for region in regions_of(puzzle):
        finding = region_sum(state, region)
        if finding is not None:
            fired += 1
            for cell, mask in finding.eliminations.items():
                assert not mask & combos.bit(values[cell]), finding.reason
    assert fired


# --- the uniqueness rung ----------------------------------------------------------------------


def test_swap_rectangle_removes_the_pattern_digits_from_the_fourth_corner():
    """Three corners {1, 2} and a fourth {1, 2, 3}: 1 or 2 there would make the rectangle
    1/2 2/1 exchangeable, so a unique puzzle has 3 there."""
    puzzle = loads("4 4\n- 7, 6, 8,\n,6 0 0 0\n,7 0 0 0\n,8 0 0 0\n")[0]
    (rect,) = [r for r in rectangles_of(puzzle) if r.corners == ((1, 1), (1, 2), (2, 1), (2, 2))]
    assert isinstance(rect, Rectangle)
    state = State.initial(puzzle)
    a, b, c, d = rect.corners
    for cell in (a, b, c):
        state.cands[cell] = combos.mask_of([1, 2])
    state.cands[d] = combos.mask_of([1, 2, 3])
    finding = swap_rectangle(state, rect)
    assert finding is not None and "uniqueness" in finding.reason
    assert dict(finding.eliminations) == {d: combos.mask_of([1, 2])}


def test_swap_rectangle_exchange_really_gives_a_second_solution():
    """The argument's premise, checked: a 2x2 square with a 1/2 2/1 filling has two
    solutions, and deduction names the four cells instead of guessing."""
    from _puzzles import square

    puzzle = square((3, 3), (3, 3))
    solutions = list(uniqueness.solutions(puzzle, backend="native"))
    assert len(solutions) == 2
    result = explain_puzzle(puzzle)
    assert not result.solved
    assert result.ambiguous is not None
    assert set(result.ambiguous) == set(puzzle.whites)
    assert "more than one solution" in result.summary()
    assert "r2c2" in result.summary()


def test_swap_rectangles_on_published_puzzles_keep_the_solution(janko_puzzles):
    """With the ladder cut so that per-run reasoning stalls early, swap rectangles fire on
    unique published puzzles, and never against the published grid."""
    basic = ("naked single", "unique partition", "cross-intersection", "excluded digits")
    ladder = [BY_NAME[name] for name in basic] + [BY_NAME["swap rectangle"]]
    ids = {"332_12x12", "382_12x12", "852_10x10", "862_10x10", "902_12x12", "532_10x12"}
    fired = 0
    for puzzle in janko_puzzles:
        if puzzle.id in ids:
            result = deduce(puzzle, techniques=ladder)
            assert_agrees(puzzle, result.steps, puzzle.meta["solution"].values)
            fired += result.technique_counts().get("swap rectangle", 0)
    assert fired >= 5


def test_grade_counts_last_resort_steps(beyond):
    puzzle = next(p for p in beyond if p.id == "226_14x24")
    result = deduce(puzzle)
    g = grade(puzzle, result)
    used = result.technique_counts()
    assert g.contradiction_steps == used.get("bounded contradiction", 0)
    assert g.uniqueness_steps == used.get("swap rectangle", 0)
    assert BY_NAME[g.hardest].weight >= BY_NAME["region sum"].weight
    assert g.grade == "expert"  # rungs across runs and beyond are the expert level's alone


# --- the commands -----------------------------------------------------------------------------


def test_explain_cli_up_to_cuts_the_new_rungs(capsys):
    path = str(datasets.JANKO_BEYOND_RUNS)
    assert main(["explain", path, "--select", "134_12x16", "--up-to", "run permutations"]) == 0
    out = capsys.readouterr().out
    assert "deduction stops" in out and "[region sum]" not in out
    assert main(["explain", path, "--select", "134_12x16", "--up-to", "region sum"]) == 0
    out = capsys.readouterr().out
    assert "[region sum]" in out and "solved by deduction alone" in out


def test_explain_cli_counts_cryptic_solved(pe424_path, capsys):
    assert main(["explain", str(pe424_path), "--select", "1,2,3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "solved by deduction alone: 3 of 3 puzzles" in out
    assert "letters A-J =" in out


def test_explain_cli_json_multiple_solutions(tmp_path, capsys):
    from _puzzles import square

    path = tmp_path / "two.kakuro"
    path.write_text(dumps([square((3, 3), (3, 3))], "kakuro"))
    assert main(["explain", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not out["solved"] and sorted(out["ambiguous"]) == ["r2c2", "r2c3", "r3c2", "r3c3"]


def test_hint_and_render_accept_cryptic(pe424_path, tmp_path, capsys):
    assert main(["hint", str(pe424_path), "--select", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fixes"]
    svg = tmp_path / "c.svg"
    args = ["render", str(pe424_path), "--select", "1", "--candidates", "-o", str(svg)]
    assert main(args) == 0
    assert svg.read_text().count("<text") > 20


@pytest.mark.bench
def test_bench_explain_janko_dev(janko_puzzles, benchmark):
    """Explain (deduce) over the whole janko dev set, the generator's per-candidate cost."""

    def run():
        return sum(deduce(p).solved for p in janko_puzzles)

    assert benchmark.pedantic(run, rounds=1, iterations=1) == len(janko_puzzles)
