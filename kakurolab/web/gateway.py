"""The game engine's service as the web server uses it: errors mapped to HTTP statuses, JSON
out, and every call on one worker thread.

:class:`EngineGames` wraps :class:`kakurolab.game.GameService` and adds nothing to the game:
views are the engine's own ``GameView.to_json()`` (the engine is the one place that decides
what a player may see, the solution only once the game is over), moves are the engine's JSON.
Calls run on a single dedicated thread (:meth:`EngineGames.call`): the event loop never
waits on SQLite's commit, and moves reach the engine one at a time, in order.

A new game (:meth:`EngineGames.new_game`) is three steps: the engine decides what puzzle it
needs (:meth:`GameService.choice`, fast), the puzzle is made, and the engine seats the
creator.  A lookup (a bank variant, a kept calendar day) is made on a helper thread; a
generation, which may take seconds to minutes of CPU, goes to :class:`Makers`, a small pool
of worker *processes* (a thread would hold Python's lock against the event loop and could
not be stopped) with a bounded queue and a per-player limit: past them the answer is 503 or
429 with ``Retry-After``.  Stopping the server terminates the workers, so SIGTERM never
waits for a generation.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import multiprocessing.pool
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ..errors import KakuroError
from ..game import (
    AuthError,
    GameService,
    GameView,
    IllegalMoveError,
    LivePuzzleError,
    Move,
    MoveSyntaxError,
    NewGame,
    UnknownGameError,
)
from ..game.moves import PLAYER_KINDS
from ..game.service import Choice, Prepared, from_portable, make, make_portable
from .port import Busy, NotFound, Refused, TooMany, Unauthorized, WebError

T = TypeVar("T")

ERRORS: tuple[tuple[type[Exception], type[WebError]], ...] = (
    (AuthError, Unauthorized),
    (LivePuzzleError, Refused),
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


MAX_QUEUED = 32
"""Generations waiting or running at once; one more is answered 503."""

PER_PLAYER = 2
"""Generations one player may have waiting or running; one more is answered 429."""

SMALL_AREA = 12 * 12
"""Grids up to this many squares are generated in a lane of their own (seconds each), so a
queue of big ones (minutes each) never holds up a new 8x8 race."""

MAKE_TIMEOUT_S = 900.0
"""A generation not back by then (a worker lost, say) is answered 503, not waited on forever."""


class Makers:
    """Worker processes that make puzzles (see module doc), started on first use: ``workers``
    for big grids and one for grids up to :data:`SMALL_AREA` squares."""

    def __init__(
        self, workers: int = 1, *, max_queued: int = MAX_QUEUED, per_player: int = PER_PLAYER
    ) -> None:
        self.workers, self.max_queued, self.per_player = workers, max_queued, per_player
        self._pools: dict[bool, multiprocessing.pool.Pool] = {}
        self._waiting: set[asyncio.Future[Prepared]] = set()
        self._by_player: Counter[str] = Counter()
        self.closed = False

    @property
    def queued(self) -> int:
        return len(self._waiting)

    async def make(self, who: str, choice: Choice, chooser: Any, fresh: Any) -> Prepared:
        if self.closed:
            raise Busy("the server is stopping", retry_after=30)
        if self._by_player[who] >= self.per_player:
            raise TooMany(
                f"you have {self.per_player} new games in the making already; "
                "try again when one is ready", retry_after=10,
            )  # fmt: skip
        if len(self._waiting) >= self.max_queued:
            raise Busy("the server is making too many puzzles; try again soon", retry_after=30)
        small = _area(choice.size) <= SMALL_AREA
        pool = self._pools.get(small)
        if pool is None:
            context = multiprocessing.get_context("spawn")
            pool = context.Pool(1 if small else self.workers, initializer=_background)
            self._pools[small] = pool
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Prepared] = loop.create_future()

        def settle(value: Any, error: bool) -> None:
            if future.done():
                return
            if error:
                future.set_exception(value)
            else:
                future.set_result(from_portable(value))

        self._waiting.add(future)
        self._by_player[who] += 1
        try:
            pool.apply_async(
                make_portable, (choice, chooser, fresh),
                callback=lambda r: loop.call_soon_threadsafe(settle, r, False),
                error_callback=lambda e: loop.call_soon_threadsafe(settle, e, True),
            )  # fmt: skip
            return await asyncio.wait_for(future, MAKE_TIMEOUT_S)
        except TimeoutError:
            raise Busy("making the puzzle took too long; try again", retry_after=60) from None
        finally:
            self._waiting.discard(future)
            self._by_player[who] -= 1
            if self._by_player[who] <= 0:
                del self._by_player[who]

    def stop(self) -> None:
        """Kill the workers at once (a generation is no acknowledged move: nothing is lost)
        and answer every waiting request 503."""
        self.closed = True
        for future in list(self._waiting):
            future.get_loop().call_soon_threadsafe(_stopping, future)
        for pool in self._pools.values():
            pool.terminate()
        for pool in self._pools.values():
            pool.join()
        self._pools.clear()


WORKER_NICE = 19
"""The generating processes run at the lowest CPU priority: on a busy machine the kernel
then gives moves the CPU first (a generation is background work nobody waits on keystroke by
keystroke), and on a machine with an idle core they lose nothing."""


def _background() -> None:
    """In each worker process: the lowest CPU priority (where the OS has one)."""
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, WORKER_NICE)


def _area(size: str) -> int:
    rows, _, cols = size.partition("x")
    return int(rows) * int(cols) if rows.isdigit() and cols.isdigit() else 0


def _stopping(future: asyncio.Future[Prepared]) -> None:
    if not future.done():
        future.set_exception(Busy("the server is stopping", retry_after=30))


def default_workers() -> int:
    """One worker per core but one (left to the event loop and the engine), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


class EngineGames:
    """The engine's service for the web (see module doc)."""

    def __init__(self, service: GameService, *, makers: Makers | None = None) -> None:
        self.service = service
        self.makers = makers or Makers(default_workers())
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kakuro-engine")
        self._slow = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kakuro-new-game")

    @classmethod
    def open(cls, store: Path | str | None = None, *, makers: Makers | None = None) -> EngineGames:
        """The service over ``store`` (default: the engine's file in the user data dir)."""
        return cls(GameService(store), makers=makers)

    async def call(self, method: Callable[..., T], *args: Any) -> T:
        """Run one of this object's methods on the engine thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, functools.partial(method, *args))

    async def call_slow(self, method: Callable[..., T], *args: Any) -> T:
        """Run a call that may take seconds (a new game) beside the engine thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._slow, functools.partial(method, *args))

    async def new_game(self, token: str, new: NewGame) -> dict[str, Any]:
        """The creator's view of a new game (see module doc: lookups on a thread,
        generations in :class:`Makers`, bounded)."""
        choice = await self.call(self.choice, token, new)
        if isinstance(choice, dict):
            return choice  # the player's game of that calendar day
        service = self.service
        if choice.slow:
            made = await self.makers.make(token, choice, service.chooser, service.fresh)
        else:
            made = await self.call_slow(_mapped(make), choice, service.chooser, service.fresh)
        await self.call(self.keep, choice, made)
        return await self.call(self.create, token, new, made)

    async def calendar_ahead(self) -> int:
        """Make today's and tomorrow's calendar puzzles if they are not kept yet (in the
        background lane, as nobody's request); returns how many were made."""
        made_count = 0
        for choice in await self.call(_mapped(self.service.calendar_ahead)):
            service = self.service
            if choice.slow:
                made = await self.makers.make("", choice, service.chooser, service.fresh)
            else:
                made = await self.call_slow(_mapped(make), choice, service.chooser, service.fresh)
            await self.call(self.keep, choice, made)
            made_count += 1
        return made_count

    def stop(self) -> None:
        """Stop making puzzles now (the first step of shutting down)."""
        self.makers.stop()

    def close(self) -> None:
        self.makers.stop()
        self._slow.shutdown(wait=True)
        self._worker.shutdown(wait=True)
        self.service.close()

    @_mapped
    def register(self, name: str) -> dict[str, Any]:
        return self.service.register(name).to_json()

    @_mapped
    def choice(self, token: str, new: NewGame) -> Choice | dict[str, Any]:
        found = self.service.choice(token, new)
        return found.to_json() if isinstance(found, GameView) else found

    @_mapped
    def keep(self, choice: Choice, made: Prepared) -> None:
        self.service.keep(choice, made)

    @_mapped
    def create(self, token: str, new: NewGame, made: Prepared | None = None) -> dict[str, Any]:
        return self.service.create(token, new, made).to_json()

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
    def tick(self, game_id: str) -> bool:
        """Let the engine end the game if its clock ran out (True when this call ended it)."""
        return self.service.tick(game_id)

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
