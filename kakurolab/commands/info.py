"""``kakuro info``: size, runs, clues, ambiguity and structure of each puzzle.

The layout statistics (``kakurolab.shape``: white share of the interior, share of two-cell
runs, largest black area, half-turn symmetry, run-length mix) compare a puzzle's look with
published ones.  One-cell runs and separate white areas are legal (published puzzles have
them), so info reports them as facts (``short_runs``, ``components``, ``component_sizes``);
``kakuro check --strict`` is the command that refuses them.
"""

from __future__ import annotations

import argparse

from .. import combos
from ..model import Puzzle
from ..rulebook import clue_values, structure_info
from ..shape import layout_stats
from ._common import Batch, add_puzzle_args, emit_json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "info", help="describe puzzles (size, runs, clue ambiguity, short runs, white areas)"
    )
    add_puzzle_args(parser)
    parser.set_defaults(func=run)


def describe(puzzle: Puzzle) -> dict[str, object]:
    ambiguity = [
        sum(combos.count(len(run), total) for total in clue_values(run)) for run in puzzle.runs
    ]
    structure = structure_info(puzzle)
    return {
        "id": puzzle.id,
        "rows": puzzle.nrows,
        "cols": puzzle.ncols,
        "kind": "cryptic" if puzzle.is_cryptic else "standard",
        "white_cells": len(puzzle.whites),
        "runs": len(puzzle.runs),
        "longest_run": max(len(run) for run in puzzle.runs),
        "short_runs": len(structure.short_runs),
        "components": structure.components,
        "component_sizes": list(structure.component_sizes),
        "strict": not structure.strict_problems(),
        "mean_ambiguity": round(sum(ambiguity) / len(ambiguity), 3),
        "valid": True,
        **layout_stats(puzzle).to_json(),
    }


def _structure_text(info: dict[str, object]) -> str:
    """``""`` for a generator-grade puzzle, else what it does beyond (short runs, areas)."""
    notes = []
    if info["short_runs"]:
        notes.append(f"{info['short_runs']} one-cell run(s)")
    if info["components"] != 1:
        sizes = "+".join(map(str, info["component_sizes"]))  # type: ignore[call-overload]
        notes.append(f"{info['components']} separate white areas ({sizes} cells)")
    return "; " + ", ".join(notes) if notes else ""


def _layout_text(info: dict[str, object]) -> str:
    """The layout statistics (``kakurolab.shape``) in one clause."""
    mix = ",".join(map(str, info["run_lengths"]))  # type: ignore[call-overload]
    return (
        f"; layout: white share {info['white_share']}, 2-cell runs {info['two_cell_share']}, "
        f"largest black area {info['largest_black']}, "
        f"{'half-turn symmetric' if info['symmetric'] else 'asymmetric'}, run lengths 1-9 {mix}"
    )


def run(args: argparse.Namespace) -> int:
    batch = Batch.load(args)
    count = 0
    for puzzle in batch:
        info = describe(puzzle)
        count += 1
        if args.json:
            emit_json(info)
        else:
            print(
                f"{info['id']}: {info['rows']}x{info['cols']} {info['kind']}, "
                f"{info['white_cells']} white cells, {info['runs']} runs "
                f"(longest {info['longest_run']}), mean clue ambiguity {info['mean_ambiguity']}"
                + _structure_text(info)
                + _layout_text(info)
            )
    code = batch.exit_code(0)
    if not args.json:
        bad = len(batch.invalid)
        total = count + bad
        print(f"{total} puzzle(s), " + (f"{count} valid, {bad} invalid" if bad else "all valid"))
    return code
