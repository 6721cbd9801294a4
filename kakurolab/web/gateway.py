"""The game engine's service as the web server uses it: errors mapped to HTTP statuses, JSON
out, and every call on one worker thread.

:class:`EngineGames` wraps :class:`kakurolab.game.GameService` and adds nothing to the game:
views are the engine's own ``GameView.to_json()`` (the engine is the one place that decides
what a player may see, the solution only once the game is over), moves are the engine's JSON.
Calls run on a single dedicated thread (:meth:`EngineGames.call`): the event loop never
waits on SQLite's commit, and moves reach the engine one at a time, in order.  Creating a
game runs on threads of its own (:meth:`EngineGames.call_slow`): the engine chooses the
puzzle outside its lock, so a generator taking seconds holds up nobody's moves.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ..errors import KakuroError
from ..game import (
    AuthError,
    GameService,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    NewGame,
    UnknownGameError,
)
from ..game.moves import PLAYER_KINDS
from .port import NotFound, Refused, Unauthorized, WebError

T = TypeVar("T")

ERRORS: tuple[tuple[type[Exception], type[WebError]], ...] = (
    (AuthError, Unauthorized),
    (UnknownGameError, NotFound),
    (MoveSyntaxError, WebError),
    (IllegalMoveError, Refused),
    (KakuroError, WebError),
)
"""Engine error -> web refusal (first match wins: the order goes from specific to general)."""


def web_error(exc: KakuroError) -> WebError:
    if isinstance(exc, WebError):
        return exc
    for engine, web in ERRORS:
        if isinstance(exc, engine):
            return web(str(exc))
    return WebError(str(exc))


def _mapped(method: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return method(*args, **kwargs)
        except KakuroError as exc:
            raise web_error(exc) from None

    return wrapper


class EngineGames:
    """The engine's service for the web (see module doc)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kakuro-engine")
        self._slow = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kakuro-new-game")

    @classmethod
    def open(cls, store: Path | str | None = None) -> EngineGames:
        """The service over ``store`` (default: the engine's file in the user data dir)."""
        return cls(GameService(store))

    async def call(self, method: Callable[..., T], *args: Any) -> T:
        """Run one of this object's methods on the engine thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, functools.partial(method, *args))

    async def call_slow(self, method: Callable[..., T], *args: Any) -> T:
        """Run a call that may take seconds (a new game) beside the engine thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._slow, functools.partial(method, *args))

    def close(self) -> None:
        self._slow.shutdown(wait=True)
        self._worker.shutdown(wait=True)
        self.service.close()

    @_mapped
    def register(self, name: str) -> dict[str, Any]:
        return self.service.register(name).to_json()

    @_mapped
    def create(self, token: str, new: NewGame) -> dict[str, Any]:
        return self.service.create(token, new).to_json()

    @_mapped
    def join(self, game_id: str, token: str) -> dict[str, Any]:
        return self.service.join(game_id, token).to_json()

    @_mapped
    def view(self, game_id: str, token: str) -> dict[str, Any]:
        return self.service.view(game_id, token).to_json()

    @_mapped
    def act(self, game_id: str, token: str, move: Move) -> dict[str, Any]:
        """The move's public outcome and the mover's view after it."""
        return self.service.act(game_id, token, move).to_json()

    @_mapped
    def version(self, game_id: str) -> int:
        return self.service.version(game_id)

    @_mapped
    def calendar(self, token: str) -> dict[str, Any]:
        return self.service.campaign(token)

    @_mapped
    def stats(self, token: str) -> dict[str, Any]:
        return self.service.stats(token).to_json()

    @_mapped
    def player_moves(self, game_id: str) -> int:
        """Player moves in the game's stored log (what the load test checks acks against)."""
        kinds = {k.value for k in PLAYER_KINDS}
        return sum(1 for row in self.service.store.log(game_id) if row.move["kind"] in kinds)
