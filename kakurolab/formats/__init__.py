"""The format registry, detection from content, loading with validation, and solution files."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check import problem_message, structure_info, structure_problems
from ..errors import (
    FormatError,
    KakuroError,
    KakuroFileNotFoundError,
    PuzzleError,
    UnknownNameError,
)
from ..fileio import read_limited
from ..model import Puzzle, Solution
from .base import Format, load_json
from .kakuro import KakuroFormat, grid_lines, read_solution
from .minizinc import DznFormat, MznFormat
from .pe424 import Pe424Format
from .puzzlekit import PuzzlekitFormat, parse_solution
from .pycsp3 import Pycsp3Format
from .pzpr import PzprFormat, is_url
from .xcsp3 import Xcsp3Format

FORMATS: dict[str, type[Format]] = {
    "dzn": DznFormat,
    "kakuro": KakuroFormat,
    "mzn": MznFormat,
    "pe424": Pe424Format,
    "puzzlekit": PuzzlekitFormat,
    "pycsp3": Pycsp3Format,
    "pzpr": PzprFormat,
    "xcsp3": Xcsp3Format,
}


def get_format(name: str) -> type[Format]:
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownNameError("format", name, FORMATS) from None


def detect(text: str, source: str | None = None) -> type[Format]:
    """The format whose sniffer accepts the text (the sniffers accept disjoint shapes)."""
    if not text.strip():
        raise FormatError("the input is empty", source=source)
    for fmt in FORMATS.values():
        if fmt.sniff(text):
            return fmt
    if text.lstrip().startswith(("{", "[")):  # JSON formats sniff only well-formed JSON
        load_json(text, source)  # raises, located, when the JSON is malformed
    raise FormatError(
        f"cannot tell the format (name one of: {', '.join(FORMATS)})", source=source, line=1
    )


@dataclass(frozen=True)
class InvalidPuzzle:
    """A puzzle of a collection that breaks a rule of Kakuro, or whose own text does not parse,
    kept in its place so that its neighbours still run (see :class:`LoadReport`)."""

    id: str
    error: FormatError | PuzzleError
    puzzle: Puzzle | None = None
    """The parsed puzzle (None when its text did not parse)."""
    problems: tuple[str, ...] = ()

    @classmethod
    def breaking(cls, puzzle: Puzzle, problems: list[str], source: str | None) -> InvalidPuzzle:
        error = PuzzleError(problem_message(puzzle, problems, source))
        return cls(puzzle.id, error, puzzle, tuple(problems))

    @property
    def message(self) -> str:
        """One line: file, puzzle id, the first problem (and how many more) or the parse error."""
        return str(self.error)


Entry = Puzzle | InvalidPuzzle
"""A place in a collection: a puzzle, or an invalid one kept where it stands."""


@dataclass(frozen=True)
class LoadReport:
    """Every selected puzzle of a text in order, the valid ones and the invalid ones."""

    entries: tuple[Puzzle | InvalidPuzzle, ...]

    @property
    def puzzles(self) -> list[Puzzle]:
        return [e for e in self.entries if isinstance(e, Puzzle)]

    @property
    def invalid(self) -> list[InvalidPuzzle]:
        return [e for e in self.entries if isinstance(e, InvalidPuzzle)]

    def raise_first(self) -> None:
        """Raise the first invalid puzzle's error (:class:`PuzzleError`, or the
        :class:`FormatError` of a puzzle whose text did not parse), if any."""
        bad = self.invalid
        if bad:
            raise bad[0].error


def loads_report(
    text: str,
    *,
    format: str | None = None,
    source: str | None = None,
    select: str | int | Iterable[str | int] | None = None,
    check: bool = True,
    strict: bool = False,
    allow_short_runs: bool | None = None,
) -> LoadReport:
    """Parse the puzzles in a text, optionally only some ids, and validate each on its own.

    A text that does not parse as a whole fails (:class:`FormatError`); in a collection, a
    puzzle whose own text does not parse (a PE424 line, a JSON entry, a URL line), or that
    parses but breaks a rule, becomes an :class:`InvalidPuzzle` in its place.  ``strict`` adds the
    generator's promises (runs of 2-9 cells, one connected network) to the rules;
    ``allow_short_runs`` is ignored (one-cell runs are legal), kept for old callers.
    ``select`` is one id or range (a string is one item, never its characters) or a list of
    them (see :func:`selection`).
    """
    wanted = None if select is None else selection(select)
    fmt = get_format(format) if format else detect(text, source)
    found = fmt.parse_entries(text, source)
    errors = [entry for entry in found if isinstance(entry, FormatError)]
    if errors and len(errors) == len(found):
        raise errors[0]  # nothing parses: the text is not in this format, one error says so
    parsed = [
        entry if isinstance(entry, Puzzle) else InvalidPuzzle(entry.puzzle_id or "?", entry)
        for entry in found
    ]
    if wanted is not None:
        parsed = _select(parsed, wanted, source)
    if check:
        parsed = [_checked(entry, strict, source) for entry in parsed]
    return LoadReport(tuple(parsed))


def selection(select: object) -> list[str]:
    """The ``select`` argument as a list of items: one id or range (``"12"``, ``12``,
    ``"1-10"``) is one item, never the characters of a string; any other iterable gives its
    items (ids as text or whole numbers).  Anything else is a ``TypeError`` naming ``select``."""
    if isinstance(select, str | int) and not isinstance(select, bool):
        return [str(select)]
    if isinstance(select, Iterable) and not isinstance(select, bytes | Mapping):
        items = list(select)
        bad = [item for item in items if isinstance(item, bool) or not isinstance(item, str | int)]
        if not bad:
            return [str(item) for item in items]
        raise TypeError(f"select items must be ids (str or int), got {type(bad[0]).__name__}")
    raise TypeError(
        f"select must be an id, a range such as '1-10' or a list of them, "
        f"got {type(select).__name__}"
    )


def _checked(entry: Entry, strict: bool, source: str | None) -> Entry:
    """The puzzle, or an :class:`InvalidPuzzle` naming the rules it breaks."""
    if isinstance(entry, InvalidPuzzle):
        return entry
    problems = structure_problems(entry)
    if strict and not problems:
        problems = structure_info(entry).strict_problems()
    return InvalidPuzzle.breaking(entry, problems, source) if problems else entry


def loads(text: str, **options: Any) -> list[Puzzle]:
    """Parse and (by default) validate the puzzles in a text; the first invalid puzzle raises
    :class:`PuzzleError`.  Options as for :func:`loads_report`."""
    report = loads_report(text, **options)
    report.raise_first()
    return report.puzzles


def load(path: str | Path, **options: Any) -> list[Puzzle]:
    """Read puzzles from a file, or from a puzz.link URL given in its place; see :func:`loads`."""
    if isinstance(path, str) and is_url(path):
        return loads(path, source="URL", **options)
    path = Path(path)
    return loads(_read(path), source=str(path), **options)


def load_report(path: str | Path, **options: Any) -> LoadReport:
    """Read puzzles from a file (or a puzz.link URL), invalid ones kept in place; see
    :func:`loads_report`."""
    if isinstance(path, str) and is_url(path):
        return loads_report(path, source="URL", **options)
    path = Path(path)
    return loads_report(_read(path), source=str(path), **options)


_RANGE = re.compile(r"(\d+)-(\d+)")


def _select(puzzles: list[Entry], wanted: list[str], source: str | None) -> list[Entry]:
    """The puzzles a ``--select`` list names, in its order, each once.

    An item is an id, or a range ``A-B`` of numeric ids (PE424 line numbers); a range is
    intersected with the ids present, never expanded, so ``1-100000000`` costs nothing.  An
    id that is literally ``A-B`` wins over the range.
    """
    by_id = {p.id: p for p in puzzles}
    numeric = sorted((int(p.id), p.id) for p in puzzles if p.id.isdigit())
    chosen: dict[str, Entry] = {}
    where = source or "input"
    for item in wanted:
        match = _RANGE.fullmatch(item)
        if item in by_id:
            chosen.setdefault(item, by_id[item])
        elif match:
            lo, hi = int(match.group(1)), int(match.group(2))
            if lo > hi:
                raise KakuroError(f"selection {item}: the range is reversed (write {hi}-{lo})")
            inside = numeric[bisect_left(numeric, (lo, "")) : bisect_right(numeric, (hi, "~"))]
            if not inside:
                raise KakuroError(
                    f"{where}: no puzzle with an id in {item} "
                    f"({len(puzzles)} puzzles, ids {_id_range(puzzles)})"
                )
            for _, pid in inside:
                chosen.setdefault(pid, by_id[pid])
        else:
            raise KakuroError(
                f"{where}: no puzzle with id {item!r} "
                f"({len(puzzles)} puzzles, ids {_id_range(puzzles)})"
            )
    return list(chosen.values())


def _read(path: Path) -> str:
    """A puzzle file's text: a regular file (or ``-``, stdin) within the input limit only
    (:func:`kakurolab.fileio.read_input`)."""
    try:
        # a BOM from some editors is not content
        return read_limited(path).decode("utf-8-sig")
    except FileNotFoundError:
        raise KakuroFileNotFoundError(path) from None
    except IsADirectoryError:
        raise KakuroError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError:
        raise KakuroError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise KakuroError(f"{path}: cannot read: {exc.strerror}") from None


def dumps(puzzles: Sequence[Puzzle], format: str) -> str:
    """Write puzzles in a format, refusing clearly when it cannot express one of them."""
    fmt = get_format(format)
    for puzzle in puzzles:
        reason = fmt.cannot_write(puzzle)
        if reason:
            raise KakuroError(f"puzzle {puzzle.id}: {reason}")
    return fmt.dump(puzzles)


def embedded_solution(puzzle: Puzzle) -> Solution | None:
    """The solution a puzzle file carried along (puzzlekit JSON, kakuro ``solution:``)."""
    solution = puzzle.meta.get("solution")
    return solution if isinstance(solution, Solution) else None


def solutions_from_text(
    text: str, puzzles: Sequence[Puzzle], source: str | None = None
) -> dict[str, Solution]:
    """The solution for each puzzle in a SOLUTION text, keyed by puzzle id.

    Accepted forms: a bare solution grid (puzzlekit style with an ``R C`` header, or kakuro
    solution rows, optionally after ``solution: ANSWER``) for a single puzzle; or a puzzle file
    in any format whose puzzle with the same id (else the same grid, else its only puzzle)
    carries a solution.
    """
    lines = [
        (n, raw.rstrip())
        for n, raw in enumerate(text.splitlines(), start=1)
        if raw.strip() and not raw.strip().startswith(";")
    ]
    if not lines:
        raise FormatError("the solution file is empty", source=source)
    first = lines[0][1].split()
    bare_header = len(first) == 2 and all(part.isdigit() for part in first)
    bare_rows = lines[0][1].strip().startswith("solution:") or all(
        _SOLUTION_ROW.fullmatch(line.strip()) for _, line in lines
    )
    if bare_header or bare_rows:
        if len(puzzles) != 1:
            raise KakuroError(
                f"{source or 'solution'}: a bare solution grid fits one puzzle, "
                f"not {len(puzzles)} (select one puzzle by its id)"
            )
        puzzle = puzzles[0]
        if bare_header:
            return {puzzle.id: parse_solution(text, puzzle, source)}
        answer, line = "", lines[0][0]
        if lines[0][1].strip().startswith("solution:"):
            answer = lines[0][1].strip()[len("solution:") :].strip()
            lines = lines[1:]
        return {puzzle.id: read_solution(answer, lines, puzzle, line, source)}
    carriers = detect(text, source).parse(text, source)
    by_id = {p.id: p for p in carriers}
    found = {}
    for puzzle in puzzles:
        carrier = by_id.get(puzzle.id)
        if carrier is None:  # ids differ between formats: fall back to the one same grid
            same = [c for c in carriers if c.grid == puzzle.grid]
            carrier = same[0] if len(same) == 1 else None
        if carrier is None and len(carriers) == 1 and len(puzzles) == 1:
            carrier = carriers[0]
        if carrier is None:
            raise KakuroError(
                f"{source or 'solution'}: no puzzle with id {puzzle.id!r} or its grid"
            )
        if carrier.grid != puzzle.grid:
            raise KakuroError(
                f"{source or 'solution'}: puzzle {carrier.id} has a different grid "
                f"than puzzle {puzzle.id}"
            )
        solution = embedded_solution(carrier)
        if solution is None:
            raise KakuroError(f"{source or 'solution'}: puzzle {carrier.id} carries no solution")
        found[puzzle.id] = solution
    return found


def load_solutions(path: str | Path, puzzles: Sequence[Puzzle]) -> dict[str, Solution]:
    """Read a SOLUTION file; see :func:`solutions_from_text` for the forms."""
    return solutions_from_text(_read(Path(path)), puzzles, source=str(path))


_SOLUTION_ROW = re.compile(r"[\d.#-]+(\s+[\d.#-]+)*")


def _id_range(puzzles: Sequence[Entry]) -> str:
    if not puzzles:
        return "none"
    if len(puzzles) <= 3:
        return ", ".join(p.id for p in puzzles)
    return f"{puzzles[0].id} ... {puzzles[-1].id}"


__all__ = [
    "FORMATS",
    "Format",
    "InvalidPuzzle",
    "LoadReport",
    "detect",
    "dumps",
    "embedded_solution",
    "get_format",
    "grid_lines",
    "load",
    "load_report",
    "load_solutions",
    "loads",
    "loads_report",
    "solutions_from_text",
]
