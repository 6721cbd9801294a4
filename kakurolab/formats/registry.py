"""The format registry (:data:`FORMATS`), detection from content, and writing."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import FormatError, KakuroError, UnknownNameError
from ..model import Puzzle
from .format import Format, load_json
from .kakuro import KakuroFormat
from .minizinc import DznFormat, MznFormat
from .pe424 import Pe424Format
from .puzzlekit import PuzzlekitFormat
from .pycsp3 import Pycsp3Format
from .pzpr import PzprFormat
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


def dumps(puzzles: Sequence[Puzzle], format: str) -> str:
    """Write puzzles in a format, refusing clearly when it cannot express one of them."""
    fmt = get_format(format)
    for puzzle in puzzles:
        reason = fmt.cannot_write(puzzle)
        if reason:
            raise KakuroError(f"puzzle {puzzle.id}: {reason}")
    return fmt.dump(puzzles)
