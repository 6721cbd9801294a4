"""The format registry, detection from content, and loading with validation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..check import validate
from ..errors import FormatError, KakuroError, UnknownNameError
from ..model import Puzzle
from .base import Format
from .pe424 import Pe424Format
from .puzzlekit import PuzzlekitFormat

FORMATS: dict[str, type[Format]] = {
    "pe424": Pe424Format,
    "puzzlekit": PuzzlekitFormat,
}


def get_format(name: str) -> type[Format]:
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownNameError("format", name, FORMATS) from None


def detect(text: str, source: str | None = None) -> type[Format]:
    """The format whose sniffer accepts the text (registry order decides ties)."""
    for fmt in FORMATS.values():
        if fmt.sniff(text):
            return fmt
    raise FormatError(
        f"cannot tell the format (use --format {{{','.join(FORMATS)}}})", source=source, line=1
    )


def loads(
    text: str,
    *,
    format: str | None = None,
    source: str | None = None,
    select: Iterable[str] | None = None,
    check: bool = True,
    allow_short_runs: bool = False,
) -> list[Puzzle]:
    """Parse (and by default validate) the puzzles in a text, optionally only some ids."""
    fmt = get_format(format) if format else detect(text, source)
    puzzles = fmt.parse(text, source)
    if select is not None:
        wanted = [str(s) for s in select]
        by_id = {p.id: p for p in puzzles}
        missing = [s for s in wanted if s not in by_id]
        if missing:
            raise KakuroError(
                f"{source or 'input'}: no puzzle with id {missing[0]!r} "
                f"({len(puzzles)} puzzles, ids {_id_range(puzzles)})"
            )
        puzzles = [by_id[s] for s in wanted]
    if check:
        for puzzle in puzzles:
            validate(puzzle, allow_short_runs=allow_short_runs, source=source)
    return puzzles


def load(path: str | Path, **options: object) -> list[Puzzle]:
    """Read puzzles from a file; see :func:`loads` for the options."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KakuroError(f"{path}: cannot read: {exc}") from None
    return loads(text, source=str(path), **options)  # type: ignore[arg-type]


def dumps(puzzles: Sequence[Puzzle], format: str) -> str:
    """Write puzzles in a format, refusing clearly when it cannot express one of them."""
    fmt = get_format(format)
    for puzzle in puzzles:
        reason = fmt.cannot_write(puzzle)
        if reason:
            raise KakuroError(f"puzzle {puzzle.id}: {reason}")
    return fmt.dump(puzzles)


def _id_range(puzzles: Sequence[Puzzle]) -> str:
    if not puzzles:
        return "none"
    if len(puzzles) <= 3:
        return ", ".join(p.id for p in puzzles)
    return f"{puzzles[0].id} ... {puzzles[-1].id}"


__all__ = ["FORMATS", "Format", "detect", "dumps", "get_format", "load", "loads"]
