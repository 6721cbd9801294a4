"""Errors that the CLI reports as one line and exit code 2, never as a traceback.

Each error also subclasses the standard exception it means (a malformed file is a
``ValueError``, an unknown name a ``KeyError``, a missing file a ``FileNotFoundError``), so
library callers can catch it the way they catch Python's own.
"""

from __future__ import annotations

import errno
import os
from typing import Any


class KakuroError(Exception):
    """Base of every error a user can cause: its message is one self-contained line.

    Examples:
        >>> try:
        ...     kl.load("no-such-file.txt")
        ... except kl.KakuroError as error:
        ...     print(error)
        no-such-file.txt: no such file
    """

    exit_code = 2


class KakuroFileNotFoundError(KakuroError, FileNotFoundError):
    """An input file that does not exist: ``errno``, ``strerror`` and ``filename`` as Python's
    own ``FileNotFoundError`` sets them, with the one-line message as its text."""

    def __init__(self, path: object) -> None:
        super().__init__(errno.ENOENT, os.strerror(errno.ENOENT), str(path))

    def __str__(self) -> str:
        return f"{self.filename}: no such file"

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return type(self), (self.filename,)


class FormatError(KakuroError, ValueError):
    """Malformed input text, located by file, puzzle id, line and column.

    Examples:
        >>> try:
        ...     kl.loads("6,X,Z", format="pe424")
        ... except kl.FormatError as error:
        ...     print(type(error).__name__)
        FormatError
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        puzzle_id: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.source, self.puzzle_id, self.line, self.column = source, puzzle_id, line, column
        self.detail = message
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.puzzle_id is not None:
            where.append(f"puzzle {self.puzzle_id}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return (", ".join(where) + ": " if where else "") + self.detail

    def located(self, **where: object) -> FormatError:
        """A copy with missing location fields filled in (callers know the file name)."""
        fields: dict[str, Any] = {
            k: getattr(self, k) for k in ("source", "puzzle_id", "line", "column")
        }
        for key, value in where.items():
            if fields.get(key) is None:
                fields[key] = value
        return FormatError(self.detail, **fields)


class PuzzleError(KakuroError, ValueError):
    """A puzzle that parses but breaks Kakuro's structural rules.

    Examples:
        >>> try:
        ...     kl.loads("id: x\\n  #  .\\n", format="kakuro")
        ... except kl.PuzzleError as error:
        ...     print(error)
        puzzle x: run at r1c2 across has no clue (and 1 more)
    """


class UnknownNameError(KakuroError, KeyError):
    """An unknown registry name (format, backend, encoding part, solver).

    A ``KeyError`` for callers, but its text is the plain message: ``KeyError.__str__`` would
    wrap it in quotes.

    Examples:
        >>> try:
        ...     kl.solve(puzzle, backend="nosuch")
        ... except kl.UnknownNameError as error:
        ...     print(error)
        unknown backend 'nosuch'; known: auto, cpsat, cvc5, dimacs, lcg, minizinc, native, pysat, z3
    """

    def __init__(self, kind: str, name: str, known: object, hint: str = "") -> None:
        self.kind, self.name = kind, name
        self.known = sorted(map(str, known))  # type: ignore[call-overload]
        self.hint = hint
        super().__init__(f"unknown {kind} {name!r}{hint}; known: {', '.join(self.known)}")

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> tuple[type, tuple[str, str, list[str], str]]:
        return type(self), (self.kind, self.name, self.known, self.hint)


class OptionError(KakuroError):
    """A backend option or configuration that cannot be used; caught as the standard exception
    its subclass means, as Python's own keyword arguments are."""


class UnknownOptionError(OptionError, TypeError):
    """An option the backend does not take: a ``TypeError``, as an unexpected keyword argument
    is in Python."""


class OptionValueError(OptionError, ValueError):
    """An option value the backend cannot use (out of range, malformed, wrong kind of value)."""


class MissingExtraError(KakuroError):
    """An optional dependency is not installed: name the extra that brings it."""

    def __init__(self, feature: str, extra: str, module: str) -> None:
        super().__init__(
            f"{feature} needs the optional dependency {module!r}: pip install 'kakurolab[{extra}]'"
        )


def require(module: str, *, extra: str, feature: str) -> object:
    """Import an optional module or raise MissingExtraError naming the pip extra."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(feature, extra, module) from exc


def one_line(exc: BaseException) -> str:
    """``exc``'s message folded onto one line: a library's error (a database's, a schema
    checker's) may span several, and an error here is reported as one line."""
    return " ".join(str(exc).split())
