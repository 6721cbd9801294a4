"""What a player may see of a game: :func:`player_view`, :func:`events_for` and the board
drawn as text for the terminal.

This is the one place that decides visibility: the solution only once the game is over (and
of a calendar day only to its solver while the day is live, :func:`withheld`); an
Arena rival only as a share of filled cells; a Battle board, its turn and every player's
pencil marks in public.  A spectator (:func:`spectator_view`) sees less than any seated
player.  The web and the CLI both print what these functions return.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..combos import ALL_DIGITS, bit, combos, digits_of
from ..model import Block, Cell, ClueCell, Puzzle
from . import calendar, fair, scoring
from .engine import Game
from .errors import IllegalMoveError
from .moves import EndReason, MoveKind, Phase, cell_text
from .state import Board, Player


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The grid for a client to draw: ``#`` block, ``.`` white, ``D\\A`` clue cell (a side
    left empty when it has no clue), and every run with its clue and cells."""
    rows = []
    for row in puzzle.grid:
        tokens = []
        for square in row:
            if isinstance(square, Block):
                tokens.append("#")
            elif isinstance(square, ClueCell):
                down = "" if square.down is None else str(square.down)
                across = "" if square.across is None else str(square.across)
                tokens.append(f"{down}\\{across}")
            else:
                tokens.append(".")
        rows.append(tokens)
    runs = [
        {
            "name": run.name,
            "direction": run.direction.value,
            "clue": run.clue.value if run.clue else None,
            "cells": [cell_text(c) for c in run.cells],
        }
        for run in puzzle.runs
    ]
    return {"id": puzzle.id, "rows": puzzle.nrows, "cols": puzzle.ncols, "grid": rows, "runs": runs}


def conflicts(puzzle: Puzzle, board: Board) -> list[Cell]:
    """Cells whose entries visibly break a rule: a repeat in a run, a full run with the wrong
    sum, or a run whose entries already exceed its clue.  Public knowledge (it needs no
    solution), so every view may carry it."""
    bad: set[Cell] = set()
    entries = board.entries
    for run in puzzle.runs:
        written = [(c, entries[c]) for c in run.cells if c in entries]
        clue = run.clue.value if run.clue else None
        digits = [d for _, d in written]
        for cell, digit in written:
            if digits.count(digit) > 1:
                bad.add(cell)
        total = sum(digits)
        full = len(written) == len(run.cells)
        if clue is not None and written and (total > clue or (full and total != clue)):
            bad.update(c for c, _ in written)
    return sorted(bad)


def _marks(player: Player) -> dict[str, list[int]]:
    return {cell_text(c): list(digits_of(m)) for c, m in sorted(player.marks.items())}


@dataclass(frozen=True)
class PlayerSummary:
    """A seat as others see it (``marks`` only in turn-based play, ``progress`` always)."""

    player_id: str
    name: str
    progress: float
    shields_left: int
    shields_used: int
    points: int | None = None
    wrong_submissions: int = 0
    marks: dict[str, list[int]] | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "player_id": self.player_id,
            "name": self.name,
            "progress": round(self.progress, 4),
            "shields_left": self.shields_left,
            "shields_used": self.shields_used,
            "wrong_submissions": self.wrong_submissions,
        }
        if self.points is not None:
            record["points"] = self.points
        if self.marks is not None:
            record["marks"] = self.marks
        return record


@dataclass(frozen=True)
class GameView:
    """Everything one player may see of a game at one version."""

    game_id: str
    mode: str
    phase: str
    version: int
    you: str
    host: str | None
    spec: dict[str, Any]
    puzzle: dict[str, Any]
    players: list[PlayerSummary]
    board: dict[str, int]
    marks: dict[str, list[int]]
    locked: list[str]
    conflicts: list[str]
    shields_left: int
    shields_used: int
    turn: str | None
    started_at: float | None
    elapsed_s: float
    remaining_s: float | None
    end_reason: str | None = None
    paused: bool = False
    rules: dict[str, Any] = field(default_factory=dict)
    """The mode's facts (:meth:`ModeRules.facts`): the page reads these flags, not the mode."""
    standings: list[dict[str, Any]] = field(default_factory=list)
    solution: list[str] | None = None
    solution_withheld: str | None = None
    """Why a finished game's ``solution`` is not shown (a calendar day still being played)."""
    illegal_entries: int | None = None
    reasons: list[dict[str, str]] = field(default_factory=list)
    """Once over: why each bonus was given or not, per player (``player_id``, ``text``)."""
    ties: list[str] = field(default_factory=list)
    """Once over: which tie-breaker separated neighbours on equal points."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "mode": self.mode,
            "phase": self.phase,
            "version": self.version,
            "you": self.you,
            "host": self.host,
            "spec": self.spec,
            "puzzle": self.puzzle,
            "players": [p.to_json() for p in self.players],
            "board": self.board,
            "marks": self.marks,
            "locked": self.locked,
            "conflicts": self.conflicts,
            "shields_left": self.shields_left,
            "shields_used": self.shields_used,
            "turn": self.turn,
            "started_at": self.started_at,
            "elapsed_s": round(self.elapsed_s, 3),
            "remaining_s": None if self.remaining_s is None else round(self.remaining_s, 3),
            "end_reason": self.end_reason,
            "paused": self.paused,
            "rules": self.rules,
            "standings": self.standings,
            "solution": self.solution,
            "solution_withheld": self.solution_withheld,
            "illegal_entries": self.illegal_entries,
            "reasons": self.reasons,
            "ties": self.ties,
        }


def player_view(game: Game, viewer: str, now: float) -> GameView:
    """The game as ``viewer`` (a seated player) sees it at ``now``."""
    me = game.players[viewer]
    public = game.rules.turn_based
    over = game.phase is Phase.FINISHED
    players = [
        PlayerSummary(
            p.player_id,
            p.name,
            game.progress(p),
            p.shields_left,
            p.shields_used,
            p.points if game.rules.running_points else None,
            p.wrong_submissions,
            _marks(p) if public or p.player_id == viewer else None,
        )
        for p in game.players.values()
    ]
    deadline = game.deadline
    remaining = None if deadline is None else max(0.0, deadline - game.clock_at(now))
    solution = None
    hidden = withheld(game, me, now) if over else None
    if over and hidden is None:
        values: Mapping[Cell, int] = game.solution_for_end()
        solution = [
            "".join(
                str(values[(r, c)]) if (r, c) in values else "-" for c in range(game.puzzle.ncols)
            )
            for r in range(game.puzzle.nrows)
        ]
    return GameView(
        game_id=game.game_id,
        mode=game.spec.mode.value,
        phase=game.phase.value,
        version=game.seq,
        you=viewer,
        host=game.host,
        spec=game.spec.to_json(),
        puzzle=puzzle_json(game.puzzle),
        players=players,
        board={cell_text(c): d for c, d in sorted(me.board.entries.items())},
        marks=_marks(me),
        locked=[cell_text(c) for c in sorted(me.board.locked)],
        conflicts=[cell_text(c) for c in conflicts(game.puzzle, me.board)],
        shields_left=me.shields_left,
        shields_used=me.shields_used,
        turn=game.current,
        started_at=game.started_at,
        elapsed_s=game.elapsed(now),
        remaining_s=remaining,
        end_reason=game.end_reason.value if game.end_reason else None,
        paused=game.paused,
        rules=game.rules.facts(),
        standings=[s.to_json() for s in game.standings()] if over else [],
        solution=solution,
        solution_withheld=hidden,
        illegal_entries=me.illegal if over or public else None,
        reasons=score_reasons(game) if over else [],
        ties=scoring.tie_notes(game.standings(), game.rules.scoring) if over else [],
    )


@dataclass(frozen=True)
class SpectatorView:
    """A running (or finished) Arena or Battle as someone who is not seated may watch it.

    While the game runs it carries, by construction, no more than every seated player's own
    view already shows of the others (docs/game.md "Watching"): the puzzle, the clock, the
    turn, each player's progress, shields and (Battle) points, and a Battle's shared board,
    whose digits are right ones both players see.  Never a pencil mark, a shield's answer,
    an Arena racer's digits or a rejected Battle digit: a racer who watches their own race,
    or a rival's, learns nothing their own view does not say.  Once the game is over it adds
    what the end screen shows everyone: the standings, their reasons and the solution."""

    game_id: str
    mode: str
    phase: str
    version: int
    spec: dict[str, Any]
    puzzle: dict[str, Any]
    players: list[PlayerSummary]
    board: dict[str, int]
    turn: str | None
    started_at: float | None
    elapsed_s: float
    remaining_s: float | None
    end_reason: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    standings: list[dict[str, Any]] = field(default_factory=list)
    solution: list[str] | None = None
    reasons: list[dict[str, str]] = field(default_factory=list)
    ties: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id, "mode": self.mode, "phase": self.phase,
            "version": self.version, "spectator": True, "you": None, "spec": self.spec,
            "puzzle": self.puzzle, "players": [p.to_json() for p in self.players],
            "board": self.board, "turn": self.turn, "started_at": self.started_at,
            "elapsed_s": round(self.elapsed_s, 3),
            "remaining_s": None if self.remaining_s is None else round(self.remaining_s, 3),
            "end_reason": self.end_reason, "rules": self.rules, "standings": self.standings,
            "solution": self.solution, "reasons": self.reasons, "ties": self.ties,
        }  # fmt: skip


def spectator_view(game: Game, now: float) -> SpectatorView:
    """The game as a spectator sees it at ``now`` (see :class:`SpectatorView`); a game whose
    mode is not watchable (``ModeRules.watchable``: solo play) is refused."""
    rules = game.rules
    if not rules.watchable:
        raise IllegalMoveError(
            f"game {game.game_id} is a {rules.mode.value} game, its player's own: only "
            "Arena and Battle games can be watched"
        )
    over = game.phase is Phase.FINISHED
    players = [
        PlayerSummary(p.player_id, p.name, game.progress(p), p.shields_left, p.shields_used,
                      p.points if rules.running_points else None, p.wrong_submissions)
        for p in game.players.values()
    ]  # fmt: skip
    shared = game.shared.entries if game.shared is not None else {}
    deadline = game.deadline
    remaining = None if deadline is None else max(0.0, deadline - game.clock_at(now))
    solution = None
    if over and not rules.dated:  # a watchable game's competition ends with it
        values = game.solution_for_end()
        solution = [
            "".join(str(values.get((r, c), "-")) for c in range(game.puzzle.ncols))
            for r in range(game.puzzle.nrows)
        ]
    return SpectatorView(
        game_id=game.game_id,
        mode=game.spec.mode.value,
        phase=game.phase.value,
        version=game.seq,
        spec=game.spec.to_json(),
        puzzle=puzzle_json(game.puzzle),
        players=players,
        board={cell_text(c): d for c, d in sorted(shared.items())},
        turn=game.current,
        started_at=game.started_at,
        elapsed_s=game.elapsed(now),
        remaining_s=remaining,
        end_reason=game.end_reason.value if game.end_reason else None,
        rules=rules.facts(),
        standings=[s.to_json() for s in game.standings()] if over else [],
        solution=solution,
        reasons=score_reasons(game) if over else [],
        ties=scoring.tie_notes(game.standings(), rules.scoring) if over else [],
    )


@dataclass(frozen=True)
class Candidates:
    """The whole-grid candidates view of one player at one version: per empty cell, the
    digits its entries still allow (``cells``: cell text -> digits)."""

    version: int
    cells: dict[str, list[int]]

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "cells": self.cells}


def candidates(game: Game, viewer: str) -> Candidates:
    """Every empty cell's candidates from the clues and ``viewer``'s own entries, never the
    solution: the digits of the sum table's sets of each of its two entries that hold every
    digit written there, less those digits (one pass, as a player pencils them in; no
    deduction beyond it).  An entry whose digits repeat, or that no set can complete, leaves
    its empty cells no candidate: the view shows the dead end as it is.  Only where the
    mode's record allows it (``ModeRules.candidates_view``)."""
    rules = game.rules
    if not rules.candidates_view:
        raise IllegalMoveError(
            f"{rules.mode.value}: no candidates view in this mode (the rulebook's Logic Shield "
            "reveals one clue's digit sets instead)"
        )
    if game.paused:
        raise IllegalMoveError("the game is paused")
    entries = game.players[viewer].board.entries
    allowed = {cell: ALL_DIGITS for cell in game.puzzle.whites if cell not in entries}
    for run in game.puzzle.runs:
        written = [entries[c] for c in run.cells if c in entries]
        used = 0
        for digit in written:
            used |= bit(digit)
        union = 0
        if run.clue is None or run.clue.value is None:
            union = ALL_DIGITS
        elif len(set(written)) == len(written):
            for mask in combos(len(run.cells), run.clue.value):
                if mask & used == used:
                    union |= mask
        for cell in run.cells:
            if cell in allowed:
                allowed[cell] &= union & ~used
    cells = {cell_text(cell): list(digits_of(mask)) for cell, mask in sorted(allowed.items())}
    return Candidates(game.seq, cells)


def withheld(game: Game, viewer: Player, now: float) -> str | None:
    """Why the finished game's solution is not shown to ``viewer``, or None to show it.

    A calendar day's puzzle is everyone's for as long as the day can be played: a player who
    did not solve it (a game given up, a countdown run out) would otherwise see the answer
    others still race for (the copy rule, :mod:`kakurolab.game.fair`).  Its solver knows it."""
    date = game.spec.date
    if not game.rules.dated or date is None or viewer.solved:
        return None
    day = calendar.parse_date(date)
    if now >= calendar.live_until(day):
        return None
    last = (day + dt.timedelta(days=calendar.ARCHIVE_DAYS)).isoformat()
    return f"the calendar puzzle of {date} is played until {last}: its solution is shown then"


def score_reasons(game: Game) -> list[dict[str, str]]:
    """The end screen's reasons for every Mastery Formula line (a Battle has none: its
    points are the moves' own outcomes)."""
    if game.rules.running_points:
        return []
    floor_s = fair.human_floor_s(len(game.puzzle.whites))
    timed_out = game.end_reason is EndReason.TIME
    out = []
    for line in game.standings():
        illegal = game.players[line.player_id].illegal
        for text in scoring.mastery_reasons(line, target_s=game.spec.target_s, illegal=illegal,
                                            timed_out=timed_out, floor_s=floor_s):  # fmt: skip
            out.append({"player_id": line.player_id, "text": text})
    return out


PUBLIC_KINDS = frozenset({MoveKind.JOIN, MoveKind.START, MoveKind.EXPIRE, MoveKind.SUBMIT})
"""Moves everyone sees in full (a submission's verdict is announced; its grid is not)."""


@dataclass(frozen=True)
class Event:
    """One log entry as a player may see it: ``move`` and ``outcome`` only when visible."""

    seq: int
    at: float
    kind: MoveKind
    player_id: str | None
    move: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "seq": self.seq, "at": self.at, "kind": self.kind.value, "player_id": self.player_id,
        }  # fmt: skip
        if self.move is not None:
            record["move"] = self.move
            record["outcome"] = self.outcome
        return record


def event_for(
    viewer: str, mode_public: bool, seq: int, at: float, actor: str | None,
    move: dict[str, Any], outcome: dict[str, Any],
) -> Event:  # fmt: skip
    """One log entry as ``viewer`` may see it: in full when it is theirs, the mode is
    turn-based, or the kind is public; otherwise only who did what kind of move."""
    kind = MoveKind(move["kind"])
    if actor == viewer or mode_public or kind in PUBLIC_KINDS:
        return Event(seq, at, kind, actor, move, outcome)
    return Event(seq, at, kind, actor)


# --- the board as text -------------------------------------------------------------------------

WIDTH = 5


def board_text(view: GameView) -> list[str]:
    """The player's board for the terminal: clue cells ``DD\\AA``, digits (``*`` marks a
    permanent one), pencil marks in brackets, ``!`` after a digit that breaks a rule."""
    grid = view.puzzle["grid"]
    board, marks = view.board, view.marks
    locked, bad = set(view.locked), set(view.conflicts)
    header = " " * 4 + "".join(f"c{c + 1}".center(WIDTH) for c in range(view.puzzle["cols"]))
    lines = [header]
    for r, row in enumerate(grid):
        cells = []
        for c, token in enumerate(row):
            name = f"r{r + 1}c{c + 1}"
            cells.append(_cell_text(token, name, board, marks, locked, bad))
        lines.append(f"r{r + 1:<3}" + "".join(cells))
    return lines


def _cell_text(
    token: str, name: str, board: dict[str, int], marks: dict[str, list[int]],
    locked: set[str], bad: set[str],
) -> str:  # fmt: skip
    if token == "#":
        return "#" * (WIDTH - 1) + " "
    if "\\" in token:
        down, across = token.split("\\")
        return f"{down:>2}\\{across:<2}"[:WIDTH]
    if name in board:
        flag = "*" if name in locked else "!" if name in bad else " "
        return f"  {board[name]}{flag} "
    if name in marks:
        digits = "".join(map(str, marks[name]))
        inside = digits if len(digits) <= 3 else digits[:2] + "+"
        return f"({inside})".center(WIDTH)
    return "  .  "
