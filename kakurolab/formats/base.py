"""The format interface: text to puzzles and back.  Nothing outside ``formats`` parses."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from ..model import Puzzle


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
