"""The game's vocabulary: modes, move kinds, shield kinds and the :class:`Move` record.

A move has one JSON shape (what the web sends, what the log stores) and one word form (what
``kakuro play move`` reads); both parse through the same per-kind field table, so a move is
checked the same way wherever it comes from.  Parsing refuses anything malformed with a
:class:`~kakurolab.game.errors.MoveSyntaxError`; whether a well-formed move is *allowed* is
the engine's question.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..model import Cell, Direction
from .errors import MoveSyntaxError


class Mode(StrEnum):
    PRACTICE = "practice"
    CAMPAIGN = "campaign"
    ARENA = "arena"
    BATTLE = "battle"


class MoveKind(StrEnum):
    JOIN = "join"
    START = "start"
    PLACE = "place"
    ERASE = "erase"
    MARK = "mark"
    SHIELD = "shield"
    SUBMIT = "submit"
    EXPIRE = "expire"
    PAUSE = "pause"
    RESUME = "resume"


PLAYER_KINDS = frozenset(
    {MoveKind.START, MoveKind.PLACE, MoveKind.ERASE, MoveKind.MARK, MoveKind.SHIELD,
     MoveKind.SUBMIT, MoveKind.PAUSE, MoveKind.RESUME}
)  # fmt: skip
"""Kinds a player may send; ``join`` and ``expire`` are written by the service itself."""


class ShieldKind(StrEnum):
    CANDIDATES = "candidates"
    """The digit sets a chosen clue still allows given the player's entries."""
    HINT = "hint"
    """The next deduction in words and the cell(s) it fixes."""
    CLEAR = "clear"
    """Remove every entry that differs from the solution (so none breaks a rule)."""
    UNLOCK = "unlock"
    """Permanent placement: make one placed digit changeable again."""


class Phase(StrEnum):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"


class EndReason(StrEnum):
    COMPLETED = "completed"
    TIME = "time"
    SUBMISSION = "submission"


_CELL = re.compile(r"r([0-9]{1,3})c([0-9]{1,3})")
MAX_TEXT = 40
"""The longest field text a move may carry (a hostile message gets a short error)."""


def parse_cell(text: object) -> Cell:
    """``r3c4`` (1-based, as puzzles are spoken about) to the 0-based cell ``(2, 3)``."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a cell is written like r3c4, got {_short(text)}")
    match = _CELL.fullmatch(text.strip().lower())
    if not match or int(match.group(1)) < 1 or int(match.group(2)) < 1:
        raise MoveSyntaxError(f"a cell is written like r3c4, got {_short(text)}")
    return int(match.group(1)) - 1, int(match.group(2)) - 1


def cell_text(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def parse_digit(value: object) -> int:
    """A digit 1-9 (an int, or its one-character text)."""
    if isinstance(value, str) and re.fullmatch(r"[1-9]", value.strip()):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 9:
        return value
    raise MoveSyntaxError(f"a digit is 1-9, got {_short(value)}")


RunRef = tuple[Cell, Direction]
"""A clue entry: a cell (its clue cell, or any of its white cells) and a direction."""


def parse_run(value: object) -> RunRef:
    """``r1c3 down``: the run a clue cell heads, or the run through a white cell."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise MoveSyntaxError(f"a clue entry is written like 'r1c3 down', got {_short(value)}")
    parts = value.replace(",", " ").split()
    directions = {d.value: d for d in Direction}
    if len(parts) != 2 or parts[1].lower() not in directions:
        raise MoveSyntaxError(f"a clue entry is written like 'r1c3 down', got {_short(value)}")
    return parse_cell(parts[0]), directions[parts[1].lower()]


def run_text(run: RunRef) -> str:
    return f"{cell_text(run[0])} {run[1].value}"


def _enum(
    kind: type[StrEnum], value: object, what: str, shown: Sequence[StrEnum] | None = None
) -> Any:
    if isinstance(value, str):
        try:
            return kind(value.strip().lower())
        except ValueError:
            pass
    known = ", ".join(m.value for m in (shown or list(kind)))
    raise MoveSyntaxError(f"unknown {what} {_short(value)}; known: {known}")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


@dataclass(frozen=True)
class Move:
    """One move; which fields it needs depends on its kind (:data:`FIELDS`)."""

    kind: MoveKind
    cell: Cell | None = None
    digit: int | None = None
    shield: ShieldKind | None = None
    run: RunRef | None = None
    name: str | None = None
    """``join`` only: the player's display name."""

    def to_json(self) -> dict[str, object]:
        record: dict[str, object] = {"kind": self.kind.value}
        if self.cell is not None:
            record["cell"] = cell_text(self.cell)
        if self.digit is not None:
            record["digit"] = self.digit
        if self.shield is not None:
            record["shield"] = self.shield.value
        if self.run is not None:
            record["run"] = run_text(self.run)
        if self.name is not None:
            record["name"] = self.name
        return record

    def text(self) -> str:
        """The move in words (``place r3c4 7``), for logs and messages."""
        record = self.to_json()
        return " ".join(str(v) for v in record.values())

    @classmethod
    def from_json(cls, data: object) -> Move:
        """A move from its JSON object; unknown keys, missing or extra fields are refused."""
        if isinstance(data, Move):
            return data
        if not isinstance(data, Mapping):
            raise MoveSyntaxError(f"a move is a JSON object, got {type(data).__name__}")
        kind = _enum(MoveKind, data.get("kind"), "move kind")
        allowed = {"kind", *FIELDS[kind]}
        shield = None
        if kind is MoveKind.SHIELD:
            shield = _enum(ShieldKind, data.get("shield"), "shield")
            allowed = {"kind", "shield", *SHIELD_FIELDS[shield]}
        extra = sorted(str(k)[:MAX_TEXT] for k in data if k not in allowed)
        if extra:
            more = f" (and {len(extra) - 3} more)" if len(extra) > 3 else ""
            raise MoveSyntaxError(f"a {kind.value} move takes no {', '.join(extra[:3])}{more}")
        missing = sorted(k for k in allowed if k not in data)
        if missing:
            raise MoveSyntaxError(f"a {kind.value} move needs {', '.join(missing)}")
        values = {key: PARSERS[key](data[key]) for key in allowed - {"kind", "shield"}}
        return cls(kind, shield=shield, **values)

    @classmethod
    def parse(cls, words: Sequence[str]) -> Move:
        """A move in words: ``r3c4 7`` (place), ``erase r3c4``, ``mark r3c4 7``,
        ``shield hint``, ``shield candidates r1c3 down``, ``shield clear``,
        ``shield unlock r3c4``, ``submit``, ``start``, ``pause``, ``resume``.  Words may come
        one per argument or several in one (``kakuro play move GAME 'r3c4 7'``, as the help
        writes them)."""
        words = [piece for word in words for piece in word.split()]
        if not words:
            raise MoveSyntaxError("no move given")
        if _CELL.fullmatch(words[0].lower()):
            words = ["place", *words]
        kind = _enum(MoveKind, words[0], "move kind", _WORD_KINDS)
        rest = words[1:]
        record: dict[str, object] = {"kind": kind.value}
        fields: Sequence[str] = FIELDS[kind]
        if kind is MoveKind.SHIELD:
            if not rest:
                raise MoveSyntaxError("a shield move needs a shield kind")
            shield = _enum(ShieldKind, rest[0], "shield")
            record["shield"] = shield.value
            fields, rest = SHIELD_FIELDS[shield], rest[1:]
        if "run" in fields:  # the run is two words
            rest = [" ".join(rest)] if rest else []
        if len(rest) != len(fields):
            want = " ".join(f.upper() for f in fields) or "nothing more"
            raise MoveSyntaxError(f"{' '.join(words[:2])}: expected {want}")
        record.update(zip(fields, rest, strict=True))
        return cls.from_json(record)


_WORD_KINDS = [k for k in MoveKind if k in PLAYER_KINDS]

FIELDS: dict[MoveKind, tuple[str, ...]] = {
    MoveKind.JOIN: ("name",),
    MoveKind.START: (),
    MoveKind.PLACE: ("cell", "digit"),
    MoveKind.ERASE: ("cell",),
    MoveKind.MARK: ("cell", "digit"),
    MoveKind.SHIELD: (),
    MoveKind.SUBMIT: (),
    MoveKind.EXPIRE: (),
    MoveKind.PAUSE: (),
    MoveKind.RESUME: (),
}
"""The fields each move kind carries besides ``kind`` (a shield's come from its kind)."""

SHIELD_FIELDS: dict[ShieldKind, tuple[str, ...]] = {
    ShieldKind.CANDIDATES: ("run",),
    ShieldKind.HINT: (),
    ShieldKind.CLEAR: (),
    ShieldKind.UNLOCK: ("cell",),
}


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise MoveSyntaxError(f"a player name is 1-{MAX_TEXT} characters, got {_short(value)}")
    return value.strip()


PARSERS: dict[str, Callable[[object], Any]] = {
    "cell": parse_cell,
    "digit": parse_digit,
    "run": parse_run,
    "name": _name,
}
