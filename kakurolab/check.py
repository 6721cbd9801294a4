"""Structure checks for puzzles and the rule checker for solutions.

Every answer from every backend passes :func:`solution_problems` before anyone sees it, so a
wrong answer shows up as an error instead of a result.
"""

from __future__ import annotations

import networkx as nx

from . import combos
from .errors import PuzzleError
from .model import LETTERS, ClueCell, Direction, Puzzle, Run, Solution, White


def clue_values(run: Run) -> tuple[int, ...]:
    """The sums a run's clue can stand for, before anything is known about letters."""
    clue = run.clue
    if clue is None:
        return ()
    if clue.value is not None:
        return (clue.value,)
    assert clue.letters is not None
    if len(clue.letters) == 1:
        return tuple(range(10))
    first, second = clue.letters
    return tuple(
        10 * a + b for a in range(1, 10) for b in range(10) if (a == b) == (first == second)
    )


def structure_problems(puzzle: Puzzle, *, allow_short_runs: bool = False) -> list[str]:
    """Everything structurally wrong with a puzzle, as readable sentences (empty when valid)."""
    problems: list[str] = []
    if puzzle.nrows == 0 or puzzle.ncols == 0:
        return ["the grid is empty"]
    if not puzzle.whites:
        return ["the grid has no white cells"]
    min_len = 1 if allow_short_runs else 2
    for run in puzzle.runs:
        if run.clue is None:
            problems.append(f"run at {_cell(run.cells[0])} {run.direction.value} has no clue")
            continue
        if len(run) > combos.MAX_RUN:
            problems.append(f"run {run.name} has {len(run)} cells (at most 9)")
            continue
        if len(run) < min_len:
            problems.append(f"run {run.name} has 1 cell (allowed only with allow_short_runs)")
            continue
        if not any(combos.count(len(run), total) for total in clue_values(run)):
            lo, hi = combos.sum_range(len(run))
            problems.append(
                f"clue {run.clue} of run {run.name} is impossible for {len(run)} cells "
                f"(sums {lo}-{hi})"
            )
    for r, c in puzzle.cells():
        square = puzzle.grid[r][c]
        if not isinstance(square, ClueCell):
            continue
        for direction in Direction:
            if square.clue(direction) is None:
                continue
            dr, dc = direction.step
            nr, nc = r + dr, c + dc
            if not (nr < puzzle.nrows and nc < puzzle.ncols) or not isinstance(
                puzzle.grid[nr][nc], White
            ):
                problems.append(
                    f"{direction.value} clue at {_cell((r, c))} has no run to its "
                    f"{'right' if direction is Direction.ACROSS else 'bottom'}"
                )
    if not problems and not _connected(puzzle):
        problems.append("the white cells do not form one connected network")
    return problems


def _connected(puzzle: Puzzle) -> bool:
    """Connectivity of the run-intersection graph (runs are nodes, shared cells edges)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(puzzle.runs)))
    index = {run: i for i, run in enumerate(puzzle.runs)}
    for runs in puzzle.runs_of.values():
        if len(runs) == 2:
            graph.add_edge(index[runs[0]], index[runs[1]])
    return nx.is_connected(graph)


def validate(puzzle: Puzzle, *, allow_short_runs: bool = False, source: str | None = None) -> None:
    """Raise :class:`PuzzleError` with a one-line message when the puzzle is malformed."""
    problems = structure_problems(puzzle, allow_short_runs=allow_short_runs)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        where = f"{source}: " if source else ""
        raise PuzzleError(f"{where}puzzle {puzzle.id}: {problems[0]}{more}")


def solution_problems(puzzle: Puzzle, solution: Solution) -> list[str]:
    """Every rule a filled grid breaks; empty when the solution is correct."""
    problems: list[str] = []
    values = solution.values
    for cell in puzzle.whites:
        digit = values.get(cell)
        if digit is None or digit == 0:
            problems.append(f"{_cell(cell)} is empty")
        elif not 1 <= digit <= 9:
            problems.append(f"{_cell(cell)} holds {digit}, outside 1-9")
    extra = set(values) - set(puzzle.whites)
    problems.extend(f"{_cell(cell)} is not a white cell" for cell in sorted(extra))

    letters = dict(solution.letters)
    if puzzle.is_cryptic:
        problems.extend(_letter_problems(letters))
        for cell, letter in puzzle.shown_letters.items():
            if letter in letters and values.get(cell) != letters[letter]:
                problems.append(
                    f"{_cell(cell)} shows {letter}={letters[letter]} but holds {values.get(cell)}"
                )
    for run in puzzle.runs:
        digits = [values.get(cell) for cell in run.cells]
        filled = [d for d in digits if d]
        repeated = sorted({d for d in filled if filled.count(d) > 1})
        if repeated:
            problems.append(f"run {run.name} repeats {', '.join(map(str, repeated))}")
        if run.clue is None or len(filled) != len(digits):
            continue
        if run.clue.letters is not None:
            if any(ch not in letters for ch in run.clue.letters):
                continue  # reported as a missing letter above
            if len(run.clue.letters) == 2 and letters[run.clue.letters[0]] == 0:
                problems.append(f"clue {run.clue} of run {run.name} starts with a zero")
        target = run.clue.evaluate(letters)
        if sum(filled) != target:
            problems.append(f"run {run.name} sums to {sum(filled)}, clue {run.clue} is {target}")
    return problems


def _letter_problems(letters: dict[str, int]) -> list[str]:
    problems = [f"letter {ch} has no digit" for ch in LETTERS if ch not in letters]
    for ch, digit in letters.items():
        if ch not in LETTERS or not 0 <= digit <= 9:
            problems.append(f"letter {ch}={digit} is not a letter A-J with a digit 0-9")
    seen: dict[int, str] = {}
    for ch in sorted(letters):
        digit = letters[ch]
        if digit in seen:
            problems.append(f"letters {seen[digit]} and {ch} are both {digit}")
        seen.setdefault(digit, ch)
    return problems


def _cell(cell: tuple[int, int]) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"
