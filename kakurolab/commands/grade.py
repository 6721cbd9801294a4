"""``kakuro grade``: difficulty grades from the techniques deduction needs.

``--report FILE`` writes the data-set findings (:mod:`kakurolab.reports.grades`: grade counts,
solved share, Spearman rank correlations with size and with the published ordering) as
Markdown; when FILE already holds its markers, only the text between them is replaced, so
hand-written prose survives.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..errors import KakuroError
from ..fileio import read_text
from ..logic import Contradiction, Grade, deduce, grade
from ..reports import END, START, merged, report_markdown
from ._common import (
    Batch,
    add_puzzle_args,
    add_timeout_arg,
    emit_json,
    progress,
    report_unsat,
    timeout_fields,
)
from ._output import check_writable, renamed, write_text, written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("grade", help="difficulty grades from human deduction")
    add_puzzle_args(parser)
    parser.add_argument(
        "--report",
        metavar="FILE",
        help="write a Markdown report with grade counts and rank correlations to FILE "
        f"(between {START} and {END} when FILE has them)",
    )
    add_timeout_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    old_report = _old_report(Path(args.report)) if args.report else ""
    batch = Batch.load(args)
    grades: list[Grade] = []
    seconds = 0.0
    late = unsat = 0
    for puzzle in progress(batch, total=len(batch), desc="grade", enabled=not args.json):
        start = time.perf_counter()
        try:
            deduction = deduce(puzzle, timeout=args.timeout)
        except Contradiction as exc:  # no solution: nothing to grade
            report_unsat(puzzle.id, exc, args.json)
            unsat += 1
            continue
        seconds += time.perf_counter() - start
        if deduction.timed_out:  # no grade: a cut deduction would read as "needs search"
            late += 1
            if args.json:
                emit_json({"id": puzzle.id, **timeout_fields(deduction.timeout)})
            else:
                print(f"{puzzle.id}: unknown ({deduction.summary()})")
            continue
        result = grade(puzzle, deduction)
        grades.append(result)
        if args.json:
            emit_json(renamed(result.to_json(), {"ambiguity": "mean_ambiguity"}))
        else:
            print(
                f"{result.id}: {result.grade} (score {result.score:.1f}; hardest "
                f"{result.hardest or 'none'} x{result.hardest_uses}, {result.white_cells} cells, "
                f"ambiguity {result.ambiguity:.2f})"
            )
    if args.report:
        write_report(Path(args.report), grades, args.puzzles, seconds, old_report)
        if args.json:
            emit_json(written(args.report, "markdown", puzzles=len(grades)))
        else:
            print(f"report written to {args.report}")
    return batch.exit_code(1 if late or unsat else 0)


def _old_report(path: Path) -> str:
    """The report file's text before grading starts (empty for a new file), so a directory,
    a missing directory or a binary file is refused before minutes of grading."""
    check_writable(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        return ""  # a device or a FIFO: written in place, nothing to keep (fileio)
    return read_text(path, what="--report") if path.exists() else ""


def write_report(
    path: Path, grades: list[Grade], sources: list[str], seconds: float, old: str = ""
) -> None:
    """The report block written into ``old`` (the file's text): replaced between its markers,
    else appended."""
    if not grades:
        raise KakuroError("--report needs at least one puzzle")
    write_text(path, merged(old, report_markdown(grades, sources, seconds)))
