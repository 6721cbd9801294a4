"""``kakuro unique``: does each puzzle have exactly one solution?  Two witnesses when not."""

from __future__ import annotations

import argparse

from ..model import Cell
from ..uniqueness import Verdict, prove_unique
from ._solving import (
    Tally,
    add_solver_args,
    emit,
    exit_help,
    grid_lines,
    make_backend,
    puzzles_with_progress,
    record,
    status_name,
)

SHOWN_CELLS = 12


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "unique", help="prove puzzles unique, or show where two solutions differ",
        epilog=exit_help(
            "every puzzle is unique", "some puzzle is multiple, unsat, timed out or failed"
        ),
    )
    add_solver_args(parser)
    parser.add_argument("--show", action="store_true", help="print the solution grid(s)")
    parser.set_defaults(func=run)


def cell_names(cells: list[Cell]) -> list[str]:
    return [f"r{r + 1}c{c + 1}" for r, c in cells]


def run(args: argparse.Namespace) -> int:
    backend = make_backend(args)
    batch, puzzles = puzzles_with_progress(args, "unique")
    tally = Tally(backend, batch)
    for puzzle in puzzles:
        proof = prove_unique(puzzle, backend=backend, timeout=args.timeout)
        verdict = proof.verdict.value
        tally.add(verdict)
        names = cell_names(proof.differences)
        first = proof.solutions[0] if proof.solutions else None
        extra: dict[str, object] = {"verdict": verdict, "n_solutions": len(proof.solutions)}
        if proof.verdict is Verdict.MULTIPLE:
            extra |= {
                "differences": names,
                "letter_differences": proof.letter_differences,
                "solutions": [s.rows(puzzle) for s in proof.solutions[:2]],
            }
        obj = record(puzzle, status_name(proof.result), proof.result, first, **extra)
        head = f"{puzzle.id}: {verdict} ({proof.result.time:.3f} s)"
        if names:
            shown = " ".join(names[:SHOWN_CELLS]) + (" ..." if len(names) > SHOWN_CELLS else "")
            head += f": solutions differ at {shown} ({len(names)} cells)"
        elif proof.letter_differences:
            answers = " vs ".join(str(solution.answer) for solution in proof.solutions[:2])
            head += f": same grid, letters {''.join(proof.letter_differences)} differ ({answers})"
        if proof.result.message and proof.verdict in (Verdict.ERROR, Verdict.UNKNOWN):
            head += f": {proof.result.message}"  # the reason, as solve prints it
        lines = [head]
        if args.show:
            for solution in proof.solutions[:2]:
                lines.extend(grid_lines(puzzle, solution))
                lines.append("")
        emit(args, obj, lines)
    return tally.finish(args, tally.only("unique"))
