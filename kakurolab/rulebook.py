"""Structure checks for puzzles and the rule checker for solutions.

Every answer from every backend passes :func:`solution_problems` before anyone sees it, so a
wrong answer shows up as an error instead of a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from . import combos
from .errors import PuzzleError
from .model import LETTERS, Cell, ClueCell, Direction, Puzzle, Run, Solution, White


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
    first, second = clue.letters[0], clue.letters[1]
    return tuple(
        10 * a + b for a in range(1, 10) for b in range(10) if (a == b) == (first == second)
    )


def structure_problems(puzzle: Puzzle, *, allow_short_runs: bool | None = None) -> list[str]:
    """Every rule of Kakuro the puzzle breaks, as readable sentences (empty when valid).

    The rules: every run has a clue, every clue has a run, runs have at most 9 cells and a
    clue some run of distinct digits 1-9 can reach.  Nothing more: one-cell runs and white
    areas that do not touch are legal (janko.at publishes both); they are *information*
    (:func:`structure_info`), enforced only by ``kakuro check --strict``.
    ``allow_short_runs`` is accepted for compatibility and ignored.

    Examples:
        >>> kl.structure_problems(puzzle)  # none: every run has a clue it can reach
        []
    """
    if puzzle.nrows == 0 or puzzle.ncols == 0:
        return ["the grid is empty"]
    if not puzzle.whites:
        return ["the grid has no white cells"]
    problems = [problem for run in puzzle.runs if (problem := _run_problem(run))]
    for r, c in puzzle.cells():
        square = puzzle.grid[r][c]
        if isinstance(square, ClueCell):
            problems += _clue_without_run(puzzle, r, c, square)
    return problems


def _run_problem(run: Run) -> str | None:
    """The rule a run breaks: no clue, more than nine cells, or a clue it cannot reach."""
    if run.clue is None:
        return f"run at {_cell(run.cells[0])} {run.direction.value} has no clue"
    if len(run) > combos.MAX_RUN:
        return f"run {run.name} has {len(run)} cells (at most 9)"
    if not any(combos.count(len(run), total) for total in clue_values(run)):
        lo, hi = combos.sum_range(len(run))
        return (
            f"clue {run.clue} of run {run.name} is impossible for {len(run)} cells "
            f"(sums {lo}-{hi})"
        )
    return None


def _clue_without_run(puzzle: Puzzle, r: int, c: int, square: ClueCell) -> list[str]:
    """The clues of the clue cell at (r, c) with no white cell after them."""
    problems = []
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
    return problems


@dataclass(frozen=True)
class StructureInfo:
    """What a generator promises beyond the rules: runs of 2-9 cells, one connected network.

    Published puzzles may break both and stay valid, so these are facts to report
    (``kakuro info``), and to enforce only on request (``kakuro check --strict``).
    """

    short_runs: tuple[str, ...]
    """Names of the runs of one cell, in reading order."""
    component_sizes: tuple[int, ...]
    """White cells of each connected area, in reading order of each area's first cell."""

    @property
    def components(self) -> int:
        return len(self.component_sizes)

    @property
    def connected(self) -> bool:
        return self.components == 1

    def strict_problems(self) -> list[str]:
        """The generator's promises this puzzle breaks, as sentences (empty when it keeps all)."""
        problems = []
        if self.short_runs:
            more = f" and {len(self.short_runs) - 1} more" if len(self.short_runs) > 1 else ""
            problems.append(
                f"run {self.short_runs[0]}{more} has 1 cell (strict: runs of 2-9 cells)"
            )
        if self.components > 1:
            sizes = ", ".join(map(str, self.component_sizes))
            problems.append(
                f"the white cells form {self.components} separate areas of {sizes} cells "
                "(strict: one connected network)"
            )
        return problems


def structure_info(puzzle: Puzzle) -> StructureInfo:
    """Short runs and connected areas of a puzzle (see :class:`StructureInfo`).

    Examples:
        >>> kl.structure_info(puzzle)
        StructureInfo(short_runs=(), component_sizes=(12,))
    """
    return StructureInfo(
        short_runs=tuple(run.name for run in puzzle.runs if len(run) == 1),
        component_sizes=tuple(len(part) for part in white_components(puzzle)),
    )


def white_components(puzzle: Puzzle) -> list[tuple[Cell, ...]]:
    """The white cells of each connected area, each in reading order, areas ordered by their
    first cell.  Areas share no run, so each is a puzzle of its own (see ``uniqueness``).

    A union-find over the runs, not networkx: every count and proof calls this, and importing
    networkx (0.14 s) was most of the first solve of a fresh process."""
    parent = {cell: cell for cell in puzzle.whites}

    def find(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for run in puzzle.runs:
        root = find(run.cells[0])
        for cell in run.cells[1:]:
            other = find(cell)
            if other != root:
                parent[other] = root
    parts: dict[Cell, list[Cell]] = {}
    for cell in puzzle.whites:  # reading order, so each part is sorted already
        parts.setdefault(find(cell), []).append(cell)
    return sorted(tuple(part) for part in parts.values())


def problem_message(puzzle: Puzzle, problems: list[str], source: str | None = None) -> str:
    """The one line that names a puzzle's first problem (and how many more there are)."""
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    where = f"{source}: " if source else ""
    return f"{where}puzzle {puzzle.id}: {problems[0]}{more}"


def validate(
    puzzle: Puzzle,
    *,
    allow_short_runs: bool | None = None,
    strict: bool = False,
    source: str | None = None,
) -> None:
    """Raise :class:`PuzzleError` with a one-line message when the puzzle breaks a rule of
    Kakuro (or, with ``strict``, a generator's promise).  ``allow_short_runs`` is ignored.

    Examples:
        >>> kl.validate(puzzle)  # silent when the puzzle is well formed
    """
    problems = structure_problems(puzzle)
    if strict and not problems:
        problems = structure_info(puzzle).strict_problems()
    if problems:
        raise PuzzleError(problem_message(puzzle, problems, source))


def solution_problems(puzzle: Puzzle, solution: Solution) -> list[str]:
    """Every rule a filled grid breaks; empty when the solution is correct.

    Examples:
        >>> good = kl.solve(puzzle).solution
        >>> kl.solution_problems(puzzle, good)
        []
        >>> kl.solution_problems(puzzle, kl.Solution({**good.values, (2, 1): 9}))[0]
        'run r3c1 across repeats 9'
    """
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
        problems += _filled_run_problems(run, values, letters)
    return problems


def _filled_run_problems(
    run: Run, values: Mapping[Cell, int], letters: dict[str, int]
) -> list[str]:
    """A run's repeated digits and, once it is full, a sum other than its clue's."""
    problems = []
    digits = [values.get(cell) for cell in run.cells]
    filled = [d for d in digits if d]
    repeated = sorted({d for d in filled if filled.count(d) > 1})
    if repeated:
        problems.append(f"run {run.name} repeats {', '.join(map(str, repeated))}")
    if run.clue is None or len(filled) != len(digits):
        return problems
    if run.clue.letters is not None:
        if any(ch not in letters for ch in run.clue.letters):
            return problems  # reported as a missing letter above
        if len(run.clue.letters) == 2 and letters[run.clue.letters[0]] == 0:
            problems.append(f"clue {run.clue} of run {run.name} starts with a zero")
    target = run.clue.evaluate(letters)
    if sum(filled) != target:
        clue = f"{run.clue} = {target}" if run.clue.letters else str(target)
        problems.append(f"run {run.name} sums to {sum(filled)}, not its clue {clue}")
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
