"""The format interface: text to puzzles and back.  Nothing outside ``formats`` parses."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from ..errors import FormatError
from ..model import Puzzle


def load_json(text: str, source: str | None = None) -> Any:
    """Decode JSON, turning a syntax error into a FormatError located by line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"invalid JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno
        ) from None


class Format(ABC):
    name: ClassVar[str]
    doc: ClassVar[str] = ""
    suffixes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def sniff(cls, text: str) -> bool:
        """Whether the text looks like this format (cheap, used by detection)."""

    @classmethod
    @abstractmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        """Every puzzle in the text, with stable ids; raises FormatError with a location."""

    @classmethod
    @abstractmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        """Text that :meth:`parse` reads back to the same puzzles."""

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        """Why this format cannot express the puzzle, or None when it can."""
        return None
