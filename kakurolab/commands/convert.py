"""``kakuro convert``: rewrite puzzles in another format, refusing what it cannot express."""

from __future__ import annotations

import argparse
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..errors import KakuroError
from ..formats import FORMATS, dumps, loads
from ..model import Puzzle
from ._common import Batch, add_puzzle_args, emit_json
from ._output import written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "convert",
        help="rewrite puzzles in another format",
        description="Rewrite puzzles in another format. Under --json: with -o, one record of "
        "the file written (output, format, bytes, ids); without, one object per puzzle with its "
        "text.",
    )
    add_puzzle_args(parser, many=False)
    parser.add_argument(
        "--to", required=True, choices=sorted(FORMATS), metavar="FORMAT", help="output format"
    )
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    parser.set_defaults(func=run)


def convert(puzzles: Sequence[Puzzle], to: str) -> str:
    """The text in format ``to``, read back once to prove the writer kept every grid."""
    text = dumps(puzzles, to)
    again = loads(text, format=to, check=False)
    if len(again) != len(puzzles) or any(
        a.grid != b.grid for a, b in zip(again, puzzles, strict=True)
    ):
        raise KakuroError(f"the {to} writer lost part of a grid (a bug; please report it)")
    return text


def run(args: argparse.Namespace) -> int:
    batch = Batch.load(args)
    puzzles = batch.puzzles  # an invalid puzzle is reported and left out; the rest are written
    text = convert(puzzles, args.to) if puzzles else ""
    if args.output and puzzles:
        _write(Path(args.output), text)
        if args.json:
            batch.report_invalid()
            emit_json(written(args.output, args.to, ids=[p.id for p in puzzles]))
    if args.json and not args.output:
        for puzzle in batch:
            emit_json({"id": puzzle.id, "format": args.to, "text": dumps([puzzle], args.to)})
    elif not args.output:
        batch.report_invalid()
        print(text, end="")
    return batch.exit_code(0)


def _write(path: Path, text: str) -> None:
    """Write through a temporary file so a failure never leaves half a file behind."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        os.fchmod(fd, _new_file_mode(path))  # mkstemp's 0600 is for secrets, not puzzles
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise KakuroError(f"{path}: cannot write: {exc.strerror}") from None


def _new_file_mode(path: Path) -> int:
    """The mode of the file being replaced, else what ``open`` gives a new file (0644 under
    umask 022)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
