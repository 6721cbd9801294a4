"""The game's user errors: one line each, exit 2 on the command line, and the standard
exception each one means for library callers (an unknown game is a ``KeyError``, a refused
move a ``ValueError``, a wrong token a ``PermissionError``)."""

from __future__ import annotations

from ..errors import KakuroError


class GameError(KakuroError):
    """Base of every game error."""


class UnknownGameError(GameError, KeyError):
    """No game (or player) of that id; its text is the plain message, not ``KeyError``'s
    quoted one."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class AuthError(GameError, PermissionError):
    """A token that names no player, or a player who is not seated in the game."""


class IllegalMoveError(GameError, ValueError):
    """A move the rules refuse; the game is unchanged."""


class MoveSyntaxError(IllegalMoveError):
    """A move that does not even parse (unknown kind, bad cell, digit outside 1-9)."""


class NotYourTurnError(IllegalMoveError):
    """A Battle Matrix move out of turn."""


class GameOverError(IllegalMoveError):
    """A move after the game ended."""


class ReplayError(GameError):
    """A stored move log that does not replay to what was recorded (a damaged store)."""


class StoreError(GameError, OSError):
    """The game store failed (a full disk, a locked or damaged file); nothing was written."""


class PuzzleChoiceError(GameError, ValueError):
    """A puzzle a game cannot be played on (cryptic, not unique, no solution)."""


class LivePuzzleError(GameError, PermissionError):
    """A new game on a grid that is a live competitive puzzle: its solution would show while
    others still race on it (:mod:`kakurolab.game.fair`)."""
