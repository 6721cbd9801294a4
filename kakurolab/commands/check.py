"""``kakuro check``: verify filled grids against every rule and list each one broken.

A cryptic solution may leave out its letters: they are read off the grid (shown letters and
clue sums) and then checked like any other.

``--strict`` also holds each puzzle to what a generator promises beyond the rules of Kakuro
(runs of 2-9 cells, one connected network of white cells): a puzzle that breaks them is
refused like an invalid one (one line, exit 2), and a puzzle without a solution is then
checked for its structure alone.

Exit 0 when every solution is correct, 1 when some rule is broken, 2 on bad input (an invalid
puzzle in a collection: every other puzzle is still checked).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from ..errors import KakuroError
from ..formats import embedded_solution, load_solutions
from ..model import LETTERS, Cell, Puzzle, Solution
from ..rulebook import solution_problems
from ._common import Batch, add_puzzle_args, emit_json

FORMS = (
    "SOLUTION forms: a bare grid (puzzlekit style with an 'R C' header, or kakuro solution rows "
    "of digits, '.' and '-', optionally after 'solution: ANSWER'), or a puzzle file whose puzzle "
    "with the same id carries a solution (kakuro 'solution:' section, puzzlekit JSON)."
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check",
        help="verify solutions and list every broken rule",
        description="Verify filled grids. Without SOLUTION, check the puzzles' embedded "
        "solutions. " + FORMS,
    )
    add_puzzle_args(parser, many=False)
    parser.add_argument("solution", nargs="?", metavar="SOLUTION", help="solution file")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="also refuse one-cell runs and white cells in separate areas (what the generator "
        "promises; published puzzles may have both); puzzles without a solution are then "
        "checked for structure alone",
    )
    parser.set_defaults(func=run)


def implied_letters(puzzle: Puzzle, values: Mapping[Cell, int]) -> dict[str, int]:
    """The letter digits a filled cryptic grid spells out, for solutions given without them.

    Shown letters read their cell's digit and letter clues read their run's sum; the first
    reading wins, so a contradiction surfaces as a broken rule in the checker.  When nine
    letters are known, the tenth takes the digit left over.
    """
    letters: dict[str, int] = {}
    for cell, letter in puzzle.shown_letters.items():
        if values.get(cell):
            letters.setdefault(letter, values[cell])
    for run in puzzle.runs:
        digits = [values.get(cell) for cell in run.cells]
        if run.clue is None or run.clue.letters is None or not all(digits):
            continue
        spelled = str(sum(d for d in digits if d))
        if len(spelled) == len(run.clue.letters):
            for letter, digit in zip(run.clue.letters, spelled, strict=True):
                letters.setdefault(letter, int(digit))
    missing = [ch for ch in LETTERS if ch not in letters]
    spare = set(range(10)) - set(letters.values())
    if len(missing) == 1 and len(spare) == 1:
        letters[missing[0]] = spare.pop()
    return letters


def run(args: argparse.Namespace) -> int:
    batch = Batch.load(args, strict=args.strict)
    puzzles = batch.puzzles
    solutions = _solutions(args, puzzles)
    broken = 0
    for puzzle in batch:
        if puzzle.id not in solutions:  # --strict without a solution: the structure passed
            if args.json:
                emit_json({"id": puzzle.id, "correct": None, "problems": [], "strict": True})
            else:
                print(f"{puzzle.id}: passes --strict (no solution to check)")
            continue
        broken += _check_one(args, puzzle, solutions[puzzle.id])
    code = batch.exit_code(1 if broken else 0)
    if not args.json and len(batch.entries) > 1:
        checked = len(solutions)
        parts = [f"{checked - broken} of {checked} solution(s) correct"] if checked else []
        if len(puzzles) > checked:
            parts.append(f"{len(puzzles) - checked} without a solution pass --strict")
        if batch.invalid:
            parts.append(f"{len(batch.invalid)} invalid")
        print(", ".join(parts))
    return code


def _solutions(args: argparse.Namespace, puzzles: list[Puzzle]) -> dict[str, Solution]:
    """The SOLUTION file's solutions, else each puzzle's embedded one (a puzzle without one
    is an error unless ``--strict`` checks its structure alone)."""
    if args.solution is not None:
        return load_solutions(args.solution, puzzles)
    solutions: dict[str, Solution] = {}
    for puzzle in puzzles:
        solution = embedded_solution(puzzle)
        if solution is not None:
            solutions[puzzle.id] = solution
        elif not args.strict:
            raise KakuroError(
                f"{args.puzzles[0]}: puzzle {puzzle.id} has no embedded solution "
                "(give a SOLUTION file)"
            )
    return solutions


def _check_one(args: argparse.Namespace, puzzle: Puzzle, solution: Solution) -> bool:
    """Check and print one solution; True when it breaks a rule."""
    if puzzle.is_cryptic and not solution.letters:
        solution = Solution(solution.values, implied_letters(puzzle, solution.values))
    problems = solution_problems(puzzle, solution)
    answer = f" (answer {solution.answer})" if solution.answer else ""
    if args.json:
        record = {"id": puzzle.id, "correct": not problems, "problems": problems}
        record |= {"answer": solution.answer} if puzzle.is_cryptic else {}
        emit_json(record | ({"strict": True} if args.strict else {}))
    elif problems:
        print(f"{puzzle.id}: {len(problems)} broken rule(s)")
        for problem in problems:
            print(f"  {problem}")
    else:
        print(f"{puzzle.id}: correct{answer}")
    return bool(problems)
