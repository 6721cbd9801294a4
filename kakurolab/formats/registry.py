"""The format registry (:data:`FORMATS`), detection from content, and writing."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import FormatError, KakuroError, UnknownNameError
from ..model import Puzzle
from .cpmodels import get_model
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


def dumps(puzzles: Sequence[Puzzle], format: str, *, model: str | None = None) -> str:
    """Write puzzles in a format, refusing clearly when it cannot express one of them.
    ``model`` names the CP model of the runs (:data:`.cpmodels.CP_MODELS`) in the formats
    that state constraints (``mzn``, ``xcsp3``); None: the format's own default."""
    fmt = get_format(format)
    if model is not None:
        get_model(model)  # an unknown name is one line naming the known ones
        if model not in fmt.models:
            takes = f"it writes {', '.join(fmt.models)}" if fmt.models else "it writes none"
            raise KakuroError(
                f"the {format} format cannot write the {model} model ({takes}; the formats "
                f"with a model choice: {', '.join(n for n, f in FORMATS.items() if f.models)})"
            )
    for puzzle in puzzles:
        reason = fmt.cannot_write(puzzle)
        if reason:
            raise KakuroError(f"puzzle {puzzle.id}: {reason}")
    return fmt.dump(puzzles) if model is None else fmt.dump_model(puzzles, model)
