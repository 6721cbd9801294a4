"""Loading puzzles: parse, select ids, validate each on its own, and keep an invalid puzzle
in its place (:class:`LoadReport`) so that its neighbours still run."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FormatError, KakuroError, KakuroFileNotFoundError, PuzzleError
from ..fileio import read_limited
from ..model import Puzzle
from ..rulebook import problem_message, structure_info, structure_problems
from .pzpr import is_url
from .registry import detect, get_format


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
    return loads(read_text(path), source=str(path), **options)


def load_report(path: str | Path, **options: Any) -> LoadReport:
    """Read puzzles from a file (or a puzz.link URL), invalid ones kept in place; see
    :func:`loads_report`."""
    if isinstance(path, str) and is_url(path):
        return loads_report(path, source="URL", **options)
    path = Path(path)
    return loads_report(read_text(path), source=str(path), **options)


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


def read_text(path: Path) -> str:
    """A puzzle or solution file's text; a missing, unreadable or non-UTF-8 file is one
    clear error.  Only a regular file (or ``-``, stdin) within the input limit is read
    (:func:`kakurolab.fileio.read_limited`)."""
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


def _id_range(puzzles: Sequence[Entry]) -> str:
    if not puzzles:
        return "none"
    if len(puzzles) <= 3:
        return ", ".join(p.id for p in puzzles)
    return f"{puzzles[0].id} ... {puzzles[-1].id}"
