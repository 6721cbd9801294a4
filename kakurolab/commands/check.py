"""``kakuro check``: verify filled grids against every rule and list each one broken.

Exit 0 when every solution is correct, 1 when some rule is broken, 2 on bad input.
"""

from __future__ import annotations

import argparse

from ..check import solution_problems
from ..errors import KakuroError
from ..formats import embedded_solution, load_solutions
from ..model import Solution
from ._common import add_puzzle_args, emit_json, load_all

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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    puzzles = load_all(args)
    if args.solution is not None:
        solutions = load_solutions(args.solution, puzzles)
    else:
        solutions = {}
        for puzzle in puzzles:
            solution = embedded_solution(puzzle)
            if solution is None:
                raise KakuroError(
                    f"{args.puzzles[0]}: puzzle {puzzle.id} has no embedded solution "
                    "(give a SOLUTION file)"
                )
            solutions[puzzle.id] = solution
    broken = 0
    for puzzle in puzzles:
        solution: Solution = solutions[puzzle.id]
        problems = solution_problems(puzzle, solution)
        broken += bool(problems)
        if args.json:
            emit_json({"id": puzzle.id, "correct": not problems, "problems": problems})
        elif problems:
            print(f"{puzzle.id}: {len(problems)} broken rule(s)")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{puzzle.id}: correct")
    if not args.json and len(puzzles) > 1:
        print(f"{len(puzzles) - broken} of {len(puzzles)} solution(s) correct")
    return 1 if broken else 0
