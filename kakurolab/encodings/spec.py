"""Encoding specs: ``kind=value`` parts joined by commas, e.g. ``cell=direct,sum=combo``.

A spec names an encoding by its parts, so every combination of cell, sum and all-different
encodings is reachable without a class per combination.  A value may carry one argument after
a colon (``sum=pb:bdd``).  :class:`Spec` is the canonical, hashable form: defaults filled in,
parts in sorted order, so two spellings of one encoding compare (and cache) equal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..errors import KakuroError


@dataclass(frozen=True)
class Spec:
    """A canonical encoding spec: sorted ``(kind, value)`` pairs.

    Examples:
        >>> from kakurolab.encodings import Spec, parse_spec
        >>> spec = Spec.of({"cell": "order", "sum": "mdd"})
        >>> spec["cell"], parse_spec("strong")["sum"]
        ('order', 'mdd')
    """

    parts: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, parts: Mapping[str, str]) -> Spec:
        return cls(tuple(sorted(parts.items())))

    def __getitem__(self, kind: str) -> str:
        return dict(self.parts)[kind]

    def get(self, kind: str, default: str | None = None) -> str | None:
        return dict(self.parts).get(kind, default)

    def __contains__(self, kind: object) -> bool:
        return any(k == kind for k, _ in self.parts)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.parts)

    def name(self, kind: str) -> str:
        """The value of a part without its argument (``pb`` for ``sum=pb:bdd``)."""
        return self[kind].split(":", 1)[0]

    def arg(self, kind: str) -> str | None:
        """The argument of a part after the colon, if any (``bdd`` for ``sum=pb:bdd``)."""
        _, sep, arg = self[kind].partition(":")
        return arg if sep else None

    @property
    def family(self) -> str:
        """``smt`` for SMT encodings, ``cnf`` otherwise: decides which encoder builds it."""
        return "smt" if "smt" in self else "cnf"

    def replace(self, **parts: str) -> Spec:
        merged = dict(self.parts)
        merged.update(parts)
        return Spec.of(merged)

    def __str__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.parts)


def split_spec(text: str) -> dict[str, str]:
    """Parse ``kind=value,...`` into a dict, rejecting malformed or repeated parts."""
    parts: dict[str, str] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        kind, sep, value = item.partition("=")
        kind, value = kind.strip(), value.strip()
        if not sep or not kind or not value:
            raise KakuroError(
                f"bad encoding part {item!r} in {text!r}: expected kind=value "
                "(e.g. cell=direct,sum=combo) or a preset name"
            )
        if kind in parts:
            raise KakuroError(f"encoding part {kind!r} given twice in {text!r}")
        parts[kind] = value
    if not parts:
        raise KakuroError("empty encoding spec")
    return parts
