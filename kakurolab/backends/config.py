"""Backend configurations as text: ``NAME[:key=value,...]`` -> a checked backend instance.

The CLI (``--backend``/``--option``), the benchmark (``--config``) and
``get_backend("pysat:encoding=fast,solver=g4")`` all read configurations through
:class:`Config`, so they accept and refuse the same things.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionValueError, UnknownNameError
from .registry import BACKENDS
from .session import Backend


def coerce(value: str) -> Any:
    """CLI option text to a Python value: integers, floats and true/false; text otherwise.

    Examples:
        >>> from kakurolab.backends import coerce
        >>> coerce("8"), coerce("0.5"), coerce("true"), coerce("glucose4")
        (8, 0.5, True, 'glucose4')
    """
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def check_options(name: str, options: Mapping[str, Any]) -> None:
    """Reject options the backend does not declare (``Backend.accepted_options``), before
    anything runs.

    Examples:
        >>> from kakurolab.backends import check_options
        >>> check_options("native", {"search": "dfs"})  # silent: native takes it
        >>> check_options("native", {"nosuch": 1})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        kakurolab.errors.UnknownOptionError: backend 'native' does not take option 'nosuch'; ...
    """
    cls = BACKENDS.get(name)
    if cls is None:
        raise UnknownNameError("backend", name, BACKENDS)
    cls.check_options(options)


@dataclass(frozen=True)
class Config:
    """A backend name with options; ``label`` names it in tables (the spec as written).

    Examples:
        >>> from kakurolab.backends import Config
        >>> config = Config.parse("pysat:encoding=fast,solver=g4")
        >>> config.name, config.options
        ('pysat', {'encoding': 'fast', 'solver': 'g4'})
        >>> kl.solve(puzzle, backend=config.backend()).status.value
        'sat'
    """

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            opts = ",".join(f"{k}={v}" for k, v in self.options.items())
            object.__setattr__(self, "label", f"{self.name}:{opts}" if opts else self.name)

    @classmethod
    def parse(cls, spec: str) -> Config:
        """``NAME[:key=value,...]``.

        A comma-separated piece whose key the backend does not accept continues the previous
        value, so an encoding spec with its own commas needs no quoting:
        ``pysat:encoding=cell=direct,sum=mdd,solver=cadical195``; quotes keep commas in a
        value whatever its keys: ``z3:encoding='smt=bv,logic=QF_FD'``.
        """
        name, _, rest = spec.strip().partition(":")
        name = name.strip()
        if not name:
            raise OptionValueError(
                f"configuration {spec!r} names no backend (NAME[:key=value,...])"
            )
        backend = BACKENDS.get(name)
        options: dict[str, Any] = {}
        last: str | None = None
        for piece in _split_commas(spec, rest):
            key, eq, value = piece.partition("=")
            takes = backend is None or backend.accepts_option(key.strip())
            if last is not None and (not eq or not takes):
                options[last] = f"{options[last]},{piece}"
                continue
            if not eq or not key.strip():
                raise OptionValueError(f"configuration {spec!r}: expected key=value, got {piece!r}")
            last = key.strip()
            options[last] = value.strip()
        return cls(name, {k: coerce(v) for k, v in options.items()}, spec.strip())

    def backend(self) -> Backend:
        """The configured backend, its options checked (one-line error when not taken)."""
        check_options(self.name, self.options)
        return BACKENDS[self.name](**self.options)


def _split_commas(spec: str, text: str) -> list[str]:
    """Comma-separated pieces; quoted parts keep their commas (and lose their quotes)."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace, lexer.whitespace_split, lexer.commenters = ",", True, ""
    try:
        return [piece.strip() for piece in lexer if piece.strip()]
    except ValueError as exc:
        raise OptionValueError(f"configuration {spec!r}: {exc}") from None
