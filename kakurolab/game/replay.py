"""Replays of finished games: the move log applied again, move by move, into *frames* (the
cells each move changed on its player's board), for a page to step through or play at speed.

The engine does the replaying (a client only lays the frames' cells over the empty grid), and
:func:`withheld` decides when a game may be replayed at all.  A replay is shared by a link
(no token), so it is shown only once nobody can still score on what it shows: never while the
game runs (a racer's digits are the solution another racer looks for), and a calendar day's
game not while the day is in the archive (its digits are the day's solution).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..combos import digits_of
from ..model import Cell
from . import calendar
from .engine import Game
from .moves import Move, MoveKind, Phase, cell_text
from .views import puzzle_json


class LoggedMove(Protocol):
    """One stored log row, as the store gives it (``LogRow``)."""

    @property
    def seq(self) -> int: ...
    @property
    def at(self) -> float: ...
    @property
    def player_id(self) -> str | None: ...
    @property
    def move(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Frame:
    """One logged move: who, when (seconds from the start), in words, and the cells it
    changed on the mover's board, each with its digit (or None) and pencil marks after it."""

    seq: int
    t: float
    player_id: str | None
    kind: MoveKind
    text: str
    cells: tuple[tuple[str, int | None, tuple[int, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "t": round(self.t, 3), "player_id": self.player_id,
            "kind": self.kind.value, "text": self.text,
            "cells": [{"cell": c, "digit": d, "marks": list(m)} for c, d, m in self.cells],
        }  # fmt: skip


@dataclass(frozen=True)
class Replay:
    game_id: str
    mode: str
    spec: dict[str, Any]
    puzzle: dict[str, Any]
    players: list[dict[str, str]]
    shared_board: bool
    frames: list[Frame]
    duration_s: float

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id, "mode": self.mode, "spec": self.spec, "puzzle": self.puzzle,
            "players": self.players, "shared_board": self.shared_board,
            "duration_s": round(self.duration_s, 3),
            "frames": [frame.to_json() for frame in self.frames],
        }  # fmt: skip


def withheld(game: Game, now: float) -> str | None:
    """Why ``game`` may not be replayed yet, or None when it may."""
    if game.phase is not Phase.FINISHED:
        return f"game {game.game_id} is not over: its replay is shown when it ends"
    date = game.spec.date
    if game.rules.dated and date is not None:
        day = calendar.parse_date(date)
        if now < calendar.live_until(day):
            last = (day + dt.timedelta(days=calendar.ARCHIVE_DAYS)).isoformat()
            return (f"the calendar puzzle of {date} is played until {last}: "
                    "its replays are shown then")  # fmt: skip
    return None


def replay(fresh: Game, log: Iterable[LoggedMove]) -> Replay:
    """Apply ``log`` to ``fresh`` (the game as created, before any move) and record, move by
    move, what changed on the mover's board (a Battle's board is everyone's)."""
    frames = []
    for row in log:
        move = Move.from_json(row.move)
        actor = row.player_id
        entries, marks = _boards(fresh, actor)
        outcome = fresh.apply(actor, move, row.at)
        now_entries, now_marks = _boards(fresh, actor)
        # the cells whose digit or marks differ (item views compare as sets, in C)
        touched = {cell for cell, _ in entries.items() ^ now_entries.items()}
        touched |= {cell for cell, _ in marks.items() ^ now_marks.items()}
        changed = tuple(
            (cell_text(cell), now_entries.get(cell), digits_of(now_marks.get(cell, 0)))
            for cell in sorted(touched)
        )
        start = fresh.started_at
        t = 0.0 if start is None else max(0.0, row.at - start)
        who = fresh.players[actor].name if actor in fresh.players else ""
        frames.append(Frame(row.seq, t, actor, move.kind, _words(who, move, outcome.to_json()),
                            changed))  # fmt: skip
    end = fresh.ended_at if fresh.ended_at is not None else fresh.last_at
    start = fresh.started_at or end
    return Replay(
        game_id=fresh.game_id, mode=fresh.spec.mode.value, spec=fresh.spec.to_json(),
        puzzle=puzzle_json(fresh.puzzle),
        players=[{"player_id": p.player_id, "name": p.name} for p in fresh.players.values()],
        shared_board=fresh.rules.shared_board, frames=frames,
        duration_s=max(0.0, end - start),
    )  # fmt: skip


def _boards(game: Game, actor: str | None) -> tuple[dict[Cell, int], dict[Cell, int]]:
    """Copies of the mover's digits and pencil-mark masks (none before a player is seated)."""
    player = game.players.get(actor) if actor is not None else None
    if player is None:
        return {}, {}
    return dict(player.board.entries), dict(player.marks)


def _words(who: str, move: Move, outcome: dict[str, Any]) -> str:
    """The move as the replay's caption says it: "Ada: 7 at r3c4 (+7)"."""
    cell = cell_text(move.cell) if move.cell is not None else ""
    said = {
        MoveKind.PLACE: f"{move.digit} at {cell}",
        MoveKind.ERASE: f"erase {cell}",
        MoveKind.MARK: f"pencil {move.digit} at {cell}",
        MoveKind.SHIELD: f"Logic Shield {move.shield.value if move.shield else ''}",
    }.get(move.kind, move.kind.value)
    notes = []
    if outcome.get("points"):
        notes.append(f"{outcome['points']:+d}")
    if outcome.get("correct") is False:
        notes.append("wrong")
    shield = outcome.get("shield")
    if isinstance(shield, dict) and shield.get("text"):
        notes.append(str(shield["text"]))
    if outcome.get("submission"):
        notes.append(str(outcome["submission"]))
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"{who}: {said}{tail}" if who else f"{said}{tail}"
