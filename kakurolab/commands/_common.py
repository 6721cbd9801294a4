"""Arguments and output shared by the subcommands, and the one way every command walks a
collection that holds invalid puzzles.

A puzzle that parses but breaks a rule of Kakuro never stops its neighbours: :class:`Batch`
yields the valid puzzles in file order and, where an invalid one stands, prints its one-line
error on stderr (and, under ``--json``, a row ``{"id", "status": "invalid", "message"}``);
:meth:`Batch.exit_code` then turns the command's own code into 2.  A file that does not parse
at all still fails as a whole with one line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from ..errors import KakuroError, PuzzleError
from ..fileio import OutputError
from ..formats import FORMATS, InvalidPuzzle, LoadReport, load_report
from ..model import Puzzle, Solution

INVALID_EXIT = 2
"""The exit code of a run that met an invalid puzzle (bad input), after running the rest."""


MAX_SECONDS = 7 * 24 * 3600.0
"""The longest ``--timeout`` (a week, as an experiment's ``timeout``): longer is no limit."""


T = TypeVar("T")

def positive_float(flag: str, maximum: float = math.inf) -> Callable[[str], float]:
    """An argparse ``type`` for ``flag``: a finite number > 0 and <= ``maximum``.  Every
    ``--timeout``/``--scale`` uses it, so ``nan``, ``inf`` and ``1e308`` never reach a solver
    or a canvas.  It raises :class:`OptionError` (not a ``ValueError``, which argparse would
    turn into a usage message), so the CLI prints one line and exits 2."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise OptionError(f"{flag} must be a number, got {text[:40]!r}") from None
        if not (math.isfinite(value) and 0 < value <= maximum):
            most = "" if math.isinf(maximum) else f", at most {maximum:g}"
            raise OptionError(f"{flag} must be positive and finite{most}; got {text[:40]!r}")
        return value

    return parse


class OptionError(KakuroError):
    """A command-line option value out of range (one line, exit 2)."""


def add_timeout_arg(parser: argparse.ArgumentParser) -> None:
    """``--timeout S`` for the commands that deduce or prove (hint, explain, grade, certify):
    past it a puzzle's answer is ``unknown`` with a "timeout" message, and the exit code 1."""
    parser.add_argument(
        "--timeout",
        type=positive_float("--timeout", MAX_SECONDS),
        metavar="S",
        help="time limit per puzzle in seconds (above 0, at most a week)",
    )


def timeout_fields(timeout: float | None) -> dict[str, str]:
    """The JSON fields of an answer cut by ``--timeout`` (none when it was not)."""
    if timeout is None:
        return {}
    return {"status": "unknown", "message": f"timeout after {timeout:g} s"}


def report_unsat(puzzle_id: str, reason: object, as_json: bool) -> None:
    """The line of a puzzle that deduction from the blank grid proves has no solution: the
    verdict ``unsat`` (exit 1) that solve, unique and certify give the same input."""
    if as_json:
        emit_json({"id": puzzle_id, "status": "unsat", "message": f"no solution: {reason}"})
    else:
        print(f"{puzzle_id}: unsat (deduction proves there is no solution: {reason})")


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
        help="only these puzzles: ids, ranges of numeric ids and lists, e.g. 7, 1-10 or 1-3,7 "
        "(repeatable; PE424 ids are line numbers)",
    )
    parser.add_argument(
        "--allow-short-runs",
        action="store_true",
        help="no effect, kept for old scripts: one-cell runs with a clue are always accepted",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle and line")


@dataclass
class Batch:
    """The selected puzzles of every file, in order, invalid ones kept in their place."""

    args: argparse.Namespace
    entries: list[Puzzle | InvalidPuzzle]
    _reported: set[int] = field(default_factory=set, init=False, repr=False)

    @classmethod
    def load(cls, args: argparse.Namespace, *, strict: bool = False) -> Batch:
        """Read every file first, so a file that does not parse fails before any output."""
        entries: list[Puzzle | InvalidPuzzle] = []
        select = _split(args.select)
        for path in args.puzzles:
            report = load_report(path, format=args.format, select=select, strict=strict)
            entries.extend(report.entries)
        return cls(args, entries)

    @property
    def report(self) -> LoadReport:
        """Every file's entries as one load report (its valid and invalid puzzles)."""
        return LoadReport(tuple(self.entries))

    @property
    def puzzles(self) -> list[Puzzle]:
        return self.report.puzzles

    @property
    def invalid(self) -> list[InvalidPuzzle]:
        return self.report.invalid

    def __len__(self) -> int:
        """The number of valid puzzles (what a progress bar counts)."""
        return len(self.puzzles)

    def __iter__(self) -> Iterator[Puzzle]:
        """The valid puzzles; each invalid one is reported where it stands in the files."""
        for index, entry in enumerate(self.entries):
            if isinstance(entry, InvalidPuzzle):
                self._report(index, entry)
            else:
                yield entry

    def report_invalid(self) -> None:
        """Report every invalid puzzle not reported yet (commands that do not iterate)."""
        for index, entry in enumerate(self.entries):
            if isinstance(entry, InvalidPuzzle):
                self._report(index, entry)

    def _report(self, index: int, bad: InvalidPuzzle) -> None:
        if index in self._reported:
            return
        self._reported.add(index)
        if self.args.json:
            emit_json({"id": bad.id, "status": "invalid", "message": bad.message})
        print(f"kakuro: error: {bad.message}", file=sys.stderr, flush=True)

    def exit_code(self, code: int) -> int:
        """``code``, or 2 when some puzzle was invalid (reporting any not reported yet)."""
        self.report_invalid()
        return INVALID_EXIT if self.invalid else code


def load_all(args: argparse.Namespace) -> list[Puzzle]:
    """The selected puzzles for a command that works on one (hint, render, encode, decode).

    With several selected, every one is returned, invalid ones included, so that the command
    names the count and asks for ``--select``; with one, an invalid one raises its one line.
    """
    entries = Batch.load(args).entries
    if len(entries) == 1 and isinstance(entries[0], InvalidPuzzle):
        raise PuzzleError(entries[0].message)
    puzzles: list[Puzzle] = []
    for entry in entries:
        if isinstance(entry, Puzzle):
            puzzles.append(entry)
        elif entry.puzzle is None:  # its text did not even parse: nothing to count or show
            raise entry.error
        else:
            puzzles.append(entry.puzzle)
    return puzzles


def _split(select: list[str] | None) -> list[str] | None:
    """The ``--select`` items, commas split; ranges are checked and resolved by the loader
    against the ids present (``formats.loading``), never expanded here."""
    if select is None:
        return None
    parts = [part.strip() for item in select for part in item.split(",")]
    parts = [part for part in parts if part]
    if not parts:
        raise KakuroError("--select needs at least one id")
    return parts


def check_output_dir(path: str | Path) -> Path:
    """The directory a command writes its files into (``certify -o DIR``), checked before any
    work: an existing file or a file on the way is one line (exit 2), never the
    ``NotADirectoryError`` of the first ``mkdir``; a missing directory is made."""
    target = Path(path)
    blocker = next((p for p in (target, *target.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise OutputError(f"{path}: cannot write: {str(blocker)!r} is a file, not a directory")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OutputError(f"{path}: cannot write: {reason}") from None
    return target


def emit_json(obj: dict[str, Any]) -> None:
    print(json.dumps(obj), flush=True)


def solution_rows(puzzle: Puzzle, solution: Solution | None) -> list[str] | None:
    """Rows of digits, blocks and clue cells as ``-`` (the JSON ``solution`` field)."""
    return None if solution is None else [row.replace(".", "0") for row in solution.rows(puzzle)]


@contextmanager
def live_status(
    desc: str,
    read: Callable[[], str],
    *,
    enabled: bool | None = None,
    interval: float = 0.5,
    position: int = 0,
    file: IO[str] | None = None,
) -> Iterator[None]:
    """A status line for one long piece of work: the elapsed time and ``read()``, refreshed
    every ``interval`` seconds by a helper thread (a 60x60 generation takes minutes and says
    nothing otherwise).  ``enabled`` None shows it on a terminal only."""
    from tqdm import tqdm

    bar = tqdm(
        total=None,
        desc=desc,
        file=file or sys.stderr,
        leave=False,
        disable=None if enabled is None else not enabled,
        position=position,
        bar_format="{desc}: {elapsed}{postfix}",
    )
    if bar.disable:
        yield
        return
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(interval):
            bar.set_postfix_str(read())

    ticker = threading.Thread(target=tick, name="live-status", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()
        bar.close()


def progress(
    iterable: Iterable[T], *, total: int | None, desc: str, enabled: bool = True
) -> Iterable[T]:
    """A progress bar on stderr for multi-puzzle runs (silent for one puzzle or no terminal)."""
    if not enabled or (total is not None and total <= 1):
        return iterable
    from tqdm import tqdm

    return tqdm(
        iterable, total=total, desc=desc, file=sys.stderr, leave=False, disable=None, unit="puzzle"
    )
