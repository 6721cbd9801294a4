"""What the web layer needs from the game engine, and the refusals it can report.

:mod:`kakurolab.web.app` talks only to a :class:`Games` object; :mod:`kakurolab.web.engine`
implements it over the engine's token-based service.  The views it returns are plain JSON
objects built field by field for one player (never a copy of the engine's state), so the
solution cannot travel to a browser by accident before the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import KakuroError
from .protocol import Move, NewGame

View = dict[str, Any]
"""A player's view of a game as JSON (see docs/web.md for its fields)."""


class WebError(KakuroError):
    """A refusal the server reports as ``{"error": message}`` with an HTTP status."""

    status = 400


class Unauthorized(WebError):
    """A missing, malformed or wrong token: nobody acts or reads as someone else."""

    status = 403


class NotFound(WebError, LookupError):
    status = 404


class Refused(WebError):
    """The engine refused a well-formed move (not your turn, not a white cell, game over)."""

    status = 409


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's place in a game: the secret token proves it on every later call."""

    game_id: str
    token: str
    player: str
    mode: str
    code: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "token": self.token,
            "player": self.player,
            "mode": self.mode,
            "code": self.code,
        }


class Games(Protocol):
    """The engine as the web server uses it; every method may raise a :class:`WebError`."""

    def create(self, spec: NewGame) -> Seat: ...

    def join(self, code: str, name: str) -> Seat: ...

    def view(self, game_id: str, token: str) -> View: ...

    def act(self, game_id: str, token: str, move: Move) -> dict[str, Any]:
        """Play a move; the engine's answer (a shield's output, a message) as JSON."""
        ...

    def event(self, game_id: str) -> int:
        """A counter that grows with every change of the game (pushes compare it)."""
        ...

    def calendar(self, name: str) -> dict[str, Any]: ...
