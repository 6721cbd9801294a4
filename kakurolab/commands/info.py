"""``kakuro info``: size, runs, clues and ambiguity of each puzzle."""

from __future__ import annotations

import argparse

from .. import combos
from ..check import clue_values
from ..model import Puzzle
from ._common import add_puzzle_args, emit_json, iter_puzzles


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("info", help="describe puzzles (size, runs, clue ambiguity)")
    add_puzzle_args(parser)
    parser.set_defaults(func=run)


def describe(puzzle: Puzzle) -> dict[str, object]:
    ambiguity = [
        sum(combos.count(len(run), total) for total in clue_values(run)) for run in puzzle.runs
    ]
    return {
        "id": puzzle.id,
        "rows": puzzle.nrows,
        "cols": puzzle.ncols,
        "kind": "cryptic" if puzzle.is_cryptic else "standard",
        "white_cells": len(puzzle.whites),
        "runs": len(puzzle.runs),
        "longest_run": max(len(run) for run in puzzle.runs),
        "mean_ambiguity": round(sum(ambiguity) / len(ambiguity), 3),
        "valid": True,
    }


def run(args: argparse.Namespace) -> int:
    count = 0
    for puzzle in iter_puzzles(args):
        info = describe(puzzle)
        count += 1
        if args.json:
            emit_json(info)
        else:
            print(
                f"{info['id']}: {info['rows']}x{info['cols']} {info['kind']}, "
                f"{info['white_cells']} white cells, {info['runs']} runs "
                f"(longest {info['longest_run']}), mean clue ambiguity {info['mean_ambiguity']}"
            )
    if not args.json:
        print(f"{count} puzzle(s), all valid")
    return 0
