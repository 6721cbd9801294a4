"""Arguments and output shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from ..formats import FORMATS, load
from ..model import Puzzle, Solution


def add_puzzle_args(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """PUZZLES positional(s) plus --format, --select, --allow-short-runs and --json."""
    if many:
        parser.add_argument("puzzles", nargs="+", metavar="PUZZLES", help="puzzle file(s)")
    else:
        parser.add_argument("puzzles", nargs=1, metavar="PUZZLE", help="puzzle file")
    parser.add_argument("--format", choices=sorted(FORMATS), help="input format (default: detect)")
    parser.add_argument(
        "--select",
        action="append",
        metavar="ID",
        help="only the puzzle with this id (repeatable; PE424 ids are line numbers)",
    )
    parser.add_argument(
        "--allow-short-runs", action="store_true", help="accept runs of a single cell"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle and line")


def iter_puzzles(args: argparse.Namespace) -> Iterator[Puzzle]:
    for path in args.puzzles:
        yield from load(
            path,
            format=args.format,
            select=_split(args.select),
            allow_short_runs=args.allow_short_runs,
        )


def load_all(args: argparse.Namespace) -> list[Puzzle]:
    return list(iter_puzzles(args))


def _split(select: list[str] | None) -> list[str] | None:
    if select is None:
        return None
    return [part for item in select for part in item.split(",") if part]


def emit_json(obj: dict[str, Any]) -> None:
    print(json.dumps(obj), flush=True)


def solution_rows(puzzle: Puzzle, solution: Solution | None) -> list[str] | None:
    """Rows of digits, blocks and clue cells as ``-`` (the JSON ``solution`` field)."""
    return None if solution is None else [row.replace(".", "0") for row in solution.rows(puzzle)]


def progress(iterable, *, total: int | None, desc: str, enabled: bool = True):  # type: ignore[no-untyped-def]
    """A progress bar on stderr for multi-puzzle runs (silent for one puzzle or no terminal)."""
    if not enabled or (total is not None and total <= 1):
        return iterable
    from tqdm import tqdm

    return tqdm(
        iterable, total=total, desc=desc, file=sys.stderr, leave=False, disable=None, unit="puzzle"
    )
