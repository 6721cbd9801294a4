"""What each mode allows: one :class:`ModeRules` record per mode, read by the engine.

The engine never asks "is this the Arena?"; it asks the record (turn-based? a shared board?
submission needed? which shields?), so a mode is one entry of :data:`RULES`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from .errors import GameError
from .moves import Mode, ShieldKind

BOX_SHIELDS = 20
"""Logic Shield tokens in the box: the players' starting shields together may not exceed it."""
START_SHIELDS = 3


@dataclass(frozen=True)
class ModeRules:
    """Every fact about a mode, in one record: the engine, the service, the web protocol and
    the page (through :meth:`facts`, sent in every view) read these, never the mode's name."""

    mode: Mode
    min_players: int
    max_players: int
    turn_based: bool
    """Battle Matrix: players alternate placements on one board; pencil marks are public."""
    shared_board: bool
    needs_submit: bool
    """Arena: the game ends on the first verified submission, not when a grid fills."""
    shields: frozenset[ShieldKind]
    scoring: str
    """``mastery`` (the Mastery Formula for solvers) or ``battle`` (Battle Matrix points)."""
    permanent_allowed: bool = True
    pausable: bool = False
    """Solo play: the player may stop the clock (the board is hidden meanwhile); a race or
    a duel cannot stop for one player."""
    competitive: bool = False
    """A race or a duel: players against each other on a fresh puzzle of the server's secret
    (no rule-break help on the page)."""
    secret_puzzle: bool = False
    """The puzzle is made from the server's secret (competitive modes and the calendar): it
    is never copied into another game while live, never restarted, and a finish under the
    human floor is flagged (:mod:`kakurolab.game.fair`)."""
    dated: bool = False
    """The puzzle is a calendar date's, the same for everyone (one game per player and date)."""
    permanent_default: bool = False
    """Permanent placement unless the player says otherwise (the rulebook's competitive rule)."""
    chooses_puzzle: bool = False
    """The player may choose the puzzle: a seed, or a pasted puzzle (practice)."""
    aids: bool = False
    """Live rule-break highlighting and the candidate fill (practice only)."""
    candidates_view: bool = False
    """The whole-grid candidates view (:func:`kakurolab.game.views.candidates`): free in
    practice; the rulebook's competitive and calendar play has a Logic Shield that reveals
    one clue's digit sets instead (2.4, Phase 2), so there it is not shown at all."""
    title: str = ""
    """The mode's name on the page's new-game form."""
    doc: str = ""

    @property
    def running_points(self) -> bool:
        """Points are scored move by move (the Battle Matrix), not once at the end."""
        return self.scoring == "battle"

    @property
    def watchable(self) -> bool:
        """Whether others may watch a game live (:func:`kakurolab.game.views.spectator_view`):
        races and duels are shows; a solo game is its player's own."""
        return self.competitive

    @property
    def restartable(self) -> bool:
        """Whether a finished game may be played again as a new game on the same puzzle."""
        return not self.secret_puzzle

    def facts(self) -> dict[str, Any]:
        """The mode's facts as the page reads them (flags, not mode names); made once per
        mode (every view carries them), so callers must not change the dict."""
        return _facts(self)

    def _facts(self) -> dict[str, Any]:
        return {
            "competitive": self.competitive,
            "secret_puzzle": self.secret_puzzle,
            "dated": self.dated,
            "restart": self.restartable,
            "watchable": self.watchable,
            "pausable": self.pausable,
            "turn_based": self.turn_based,
            "shared_board": self.shared_board,
            "public_marks": self.turn_based,
            "needs_submit": self.needs_submit,
            "permanent_allowed": self.permanent_allowed,
            "permanent_default": self.permanent_default,
            "chooses_puzzle": self.chooses_puzzle,
            "aids": self.aids,
            "candidates_view": self.candidates_view,
            "min_players": self.min_players,
            "seats": self.max_players,
            "shields": sorted(s.value for s in self.shields),
            "scoring": self.scoring,
            "running_points": self.running_points,
            "title": self.title,
            "doc": self.doc,
        }


@cache
def _facts(rules: ModeRules) -> dict[str, Any]:
    return rules._facts()


ALL_SHIELDS = frozenset(ShieldKind)

RULES: dict[Mode, ModeRules] = {
    Mode.PRACTICE: ModeRules(
        Mode.PRACTICE, 1, 1, False, False, False, ALL_SHIELDS, "mastery", pausable=True,
        chooses_puzzle=True, aids=True, candidates_view=True, title="Practice",
        doc="solo, any puzzle file, size or difficulty; ends when the grid is solved",
    ),
    Mode.CAMPAIGN: ModeRules(
        Mode.CAMPAIGN, 1, 1, False, False, False, ALL_SHIELDS, "mastery", pausable=True,
        secret_puzzle=True, dated=True, title="Master Calendar (today)",
        doc="solo, the calendar's puzzle of a date (the same for everyone); streaks kept",
    ),
    Mode.ARENA: ModeRules(
        Mode.ARENA, 2, 4, False, False, True, ALL_SHIELDS, "mastery",
        competitive=True, secret_puzzle=True, permanent_default=True,
        title="Speed Solving Arena (2–4)",
        doc="2-4 racers on identical private grids; the first verified submission wins",
    ),
    Mode.BATTLE: ModeRules(
        Mode.BATTLE, 2, 2, True, True, False,
        frozenset({ShieldKind.CANDIDATES, ShieldKind.HINT}), "battle",
        permanent_allowed=False, competitive=True, secret_puzzle=True,
        title="Battle Matrix (2)",
        doc="2 players alternate placements on one board: +digit, +100 per clue entry "
        "completed, -150 for a digit that differs from the solution (not placed)",
    ),
}  # fmt: skip


@dataclass(frozen=True)
class Options:
    """Per-game choices: permanent placement, a sprint countdown, starting shields."""

    permanent: bool = False
    time_limit_s: float | None = None
    shields: int = START_SHIELDS

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        return cls(**data)

    def check(self, rules: ModeRules) -> None:
        if self.permanent and not rules.permanent_allowed:
            raise GameError(
                f"{rules.mode.value}: every placed digit is verified at once, so permanent "
                "placement does not apply"
            )
        if self.time_limit_s is not None and not 0 < self.time_limit_s <= 7 * 24 * 3600:
            raise GameError(f"a time limit is 0-604800 s, got {self.time_limit_s}")
        if self.shields < 0 or self.shields * rules.max_players > BOX_SHIELDS:
            most = BOX_SHIELDS // rules.max_players
            raise GameError(
                f"{rules.mode.value}: each player may start with 0-{most} shields "
                f"(the box holds {BOX_SHIELDS}), got {self.shields}"
            )


@dataclass(frozen=True)
class GameSpec:
    """What a game is played on and how; stored with the game, never the solution."""

    mode: Mode
    size: str
    difficulty: str | None
    seed: str | None
    date: str | None = None
    source: str = "generator"
    target_s: int = 0
    options: Options = field(default_factory=Options)

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        record["mode"] = self.mode.value
        return record

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSpec:
        data = dict(data)
        data["mode"] = Mode(data["mode"])
        data["options"] = Options.from_json(data["options"])
        return cls(**data)
