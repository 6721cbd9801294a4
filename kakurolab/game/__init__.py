"""Kakuro Master, the game: play state, Logic Shields, the four modes and the scoring.

    from kakurolab.game import GameService, Mode, NewGame
    service = GameService(path)                  # SQLite file or postgresql:// URL
    me = service.register("alice")
    view = service.create(me.token, NewGame(Mode.PRACTICE, size="8x8", difficulty="easy"))
    service.act(view.game_id, me.token, {"kind": "place", "cell": "r2c3", "digit": 7})

Layers inside: ``moves`` (vocabulary), ``rules`` (per-mode records), ``state`` and ``engine``
(the rules applied to a move log), ``shields``, ``scoring`` (the Mastery Formula, Battle
points, target times, tie-breakers), ``fair`` (the copy rule, the human floor),
``calendar``, ``puzzles`` (the one puzzle chooser),
``views`` (what a player may see), ``rating`` (the Battle rating, OpenSkill), ``computer``
(the Battle's computer opponent), ``store`` (SQLite; ``pgstore``: PostgreSQL; ``stores``
picks one) and ``service`` (the facade).
docs/game.md is the player-facing description.
"""

from .errors import (
    AuthError,
    GameError,
    GameOverError,
    IllegalMoveError,
    LivePuzzleError,
    MoveSyntaxError,
    NotYourTurnError,
    ReplayError,
    StoreError,
    UnknownGameError,
)
from .moves import EndReason, Mode, Move, MoveKind, Phase, ShieldKind
from .rules import RULES, GameSpec, Options
from .service import ActResult, Credentials, GameService, NewGame
from .state import Outcome
from .views import Event, GameView, board_text

__all__ = [
    "RULES",
    "ActResult",
    "AuthError",
    "Credentials",
    "EndReason",
    "Event",
    "GameError",
    "GameOverError",
    "GameService",
    "GameSpec",
    "GameView",
    "IllegalMoveError",
    "LivePuzzleError",
    "Mode",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "NewGame",
    "NotYourTurnError",
    "Options",
    "Outcome",
    "Phase",
    "ReplayError",
    "ShieldKind",
    "StoreError",
    "UnknownGameError",
    "board_text",
]
