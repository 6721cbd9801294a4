"""The format interface: text to puzzles and back.  Nothing outside ``formats`` parses.

Every parser reads numbers through :func:`parse_int` and JSON through :func:`load_json`, and
checks a grid's size with :func:`check_size` as soon as it is known, so the input limits
(docs/formats.md, "Limits") live here once.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ..errors import FormatError
from ..model import Puzzle

MAX_DIGITS = 18
"""Digits a number in a puzzle file may have (any format, any JSON number): every real
number fits, and a 5,000-digit one is refused before Python's own 4,300-digit limit fires."""

MAX_SIDE = 200
"""Rows or columns a grid may have.  The largest real puzzles are 101x31 (data/) and 31x46
(janko.at); a 1000x1000 grid took 9-17 s for ``info`` and 2.7 GB for ``solve``."""

MAX_CELLS = 20_000
"""Cells (rows x columns) a grid may have, so 200x200 is refused as well: ``info`` on a grid
this size takes about two seconds.  The research families reach 140x140 (19,600 cells, some
12,000 of them white: scaling past 10,000 white cells, issue 26)."""

MAX_JSON_CHARS = 16_000_000
"""Characters a JSON input may have.  JSON is decoded whole before a grid's size is known
(a 1000x1000 pycsp3 grid is 20 MB and took 15 s and 380 MB to refuse); the largest real
collection is 0.1 MB, and a pycsp3 grid at the size limit about 0.3 MB."""

DIGITS = re.compile(r"[0-9]+")
"""ASCII digits only: ``str.isdigit`` accepts ``'²'``, which ``int`` rejects."""


class NumberTooLong(ValueError):
    """A number beyond :data:`MAX_DIGITS` digits; parsers turn it into a located FormatError."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"number too long ({digits} digits, at most {MAX_DIGITS})")


def is_number(text: str) -> bool:
    """Whether the text is a non-negative integer in ASCII digits."""
    return DIGITS.fullmatch(text) is not None


def parse_int(text: str) -> int:
    """A non-negative integer of ASCII digits; raises ValueError (NumberTooLong when long)."""
    if not is_number(text):
        raise ValueError(f"{short(text)!r} is not a number")
    if len(text) > MAX_DIGITS:
        raise NumberTooLong(len(text))
    return int(text)


def check_size(
    nrows: int,
    ncols: int,
    *,
    source: str | None = None,
    puzzle_id: str | None = None,
    line: int | None = None,
) -> None:
    """Refuse a grid beyond the documented limits before anything is built for it.

    Parsers call this as soon as they know a size (a header, or the rows read so far), so a
    huge grid costs no more than its first lines.
    """
    if nrows > MAX_SIDE or ncols > MAX_SIDE or nrows * ncols > MAX_CELLS:
        raise FormatError(
            f"grid too large: {nrows}x{ncols} (at most {MAX_SIDE} rows, {MAX_SIDE} columns "
            f"and {MAX_CELLS:,} cells)",
            source=source,
            puzzle_id=puzzle_id,
            line=line,
        )


def load_json(text: str, source: str | None = None) -> Any:
    """Decode JSON, turning a syntax error into a FormatError located by line and column;
    too long numbers, too deep nesting and too long texts are refused in one line as well."""
    if len(text) > MAX_JSON_CHARS:
        raise FormatError(
            f"JSON too large: {len(text):,} characters (at most {MAX_JSON_CHARS:,})", source=source
        )
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"invalid JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno
        ) from None
    except NumberTooLong as exc:
        raise FormatError(f"invalid JSON: {exc}", source=source) from None
    except RecursionError:
        raise FormatError("invalid JSON: nesting too deep", source=source) from None


def sniff_json(text: str) -> Any:
    """The decoded JSON for a sniffer, or None when the text is not JSON we would read."""
    if len(text) > MAX_JSON_CHARS:
        return None  # detection then reports the size (load_json)
    try:
        return json.loads(text, parse_int=_json_int)
    except (ValueError, RecursionError):  # JSONDecodeError and NumberTooLong are ValueErrors
        return None


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise NumberTooLong(digits)
    return int(text)


def short(text: str, limit: int = 40) -> str:
    """The text cut to ``limit`` characters for a message (a token may be megabytes long)."""
    return text if len(text) <= limit else text[:limit] + "..."


class Format(ABC):
    name: ClassVar[str]
    doc: ClassVar[str] = ""
    suffixes: ClassVar[tuple[str, ...]] = ()
    models: ClassVar[tuple[str, ...]] = ()
    """The CP models (:data:`.cpmodels.CP_MODELS`) the writer can state the runs in; empty:
    the format holds no constraints, or one fixed way (``dzn`` is data for the ``sum`` model)."""

    @classmethod
    @abstractmethod
    def sniff(cls, text: str) -> bool:
        """Whether the text looks like this format (cheap, used by detection)."""

    @classmethod
    @abstractmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        """Every puzzle in the text, with stable ids; raises FormatError with a location."""

    @classmethod
    def parse_entries(cls, text: str, source: str | None = None) -> list[Puzzle | FormatError]:
        """Like :meth:`parse`, but in a collection whose puzzles are written apart (a line, a
        JSON entry) a puzzle whose own text is broken becomes its located FormatError in
        its place, so its neighbours still load.  Errors of the whole text still raise."""
        return list(cls.parse(text, source))

    @classmethod
    @abstractmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        """Text that :meth:`parse` reads back to the same puzzles."""

    @classmethod
    def dump_model(cls, puzzles: Sequence[Puzzle], model: str) -> str:
        """:meth:`dump` with the runs in the named CP model (one of :attr:`models`)."""
        raise NotImplementedError(f"the {cls.name} format writes no CP model")

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        """Why this format cannot express the puzzle, or None when it can."""
        return None


def line_entries(text: str, parse_line: Callable[[str, int], Puzzle]) -> list[Puzzle | FormatError]:
    """One entry per non-blank line (formats that write a puzzle a line): the puzzle, or the
    line's located error with the line number as its puzzle id."""
    entries: list[Puzzle | FormatError] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append(parse_line(line, number))
        except FormatError as exc:
            entries.append(exc.located(puzzle_id=str(number), line=number))
    return entries


def all_parsed(entries: list[Puzzle | FormatError]) -> list[Puzzle]:
    """The puzzles of :meth:`Format.parse_entries`, or the first error raised (``parse``)."""
    for entry in entries:
        if isinstance(entry, FormatError):
            raise entry
    return [entry for entry in entries if isinstance(entry, Puzzle)]
