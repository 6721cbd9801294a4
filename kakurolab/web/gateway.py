"""The game engine's service as the web server uses it: errors mapped to HTTP statuses, JSON
out, and every call on one worker thread.

:class:`EngineGames` wraps :class:`kakurolab.game.GameService` and adds nothing to the game:
views are the engine's own ``GameView.to_json()`` (the engine is the one place that decides
what a player may see, the solution only once the game is over), moves are the engine's JSON.
Calls run on a single dedicated thread (:meth:`EngineGames.call`): the event loop never
waits on the store's commit, and moves reach the engine one at a time, in order.

A new game (:meth:`EngineGames.new_game`) is three steps: the engine decides what puzzle it
needs (:meth:`GameService.choice`, fast), the puzzle is made, and the engine seats the
creator.  A lookup (a bank variant, a kept calendar day) is made on a helper thread; a
generation, which may take seconds to minutes of CPU, and a pasted puzzle's uniqueness proof
and grading go to :class:`Makers`: lanes of worker *processes* (:mod:`.workers`; a thread
would hold Python's lock against the event loop and could not be stopped), each with its own
cap, and per-token, per-address and rate limits (:class:`~.limits.Limits`): past them the
answer is 503 or 429 with ``Retry-After``.  Stopping the server kills the workers, so
SIGTERM never waits for a generation or a paste.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections import Counter, OrderedDict
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
from .limits import Buckets, Limits
from .port import Busy, NotFound, Refused, TooMany, Unauthorized, WebError
from .workers import Lane

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


KEPT_REPLAYS = 32
"""Finished games' replays kept in memory (:meth:`EngineGames.replay`)."""

SMALL_AREA = 12 * 12
"""Grids up to this many squares are generated in a lane of their own (seconds each), so a
queue of big ones (minutes each) never holds up a new 8x8 race."""


class Makers:
    """The lanes of worker processes that make puzzles (see module doc): ``races`` (one
    process, grids up to :data:`SMALL_AREA` squares), ``big`` (``workers`` processes) and
    ``pastes`` (one process: a pasted puzzle's proof and grading), each with its own cap,
    and the per-token and per-address counts of :class:`Limits`."""

    def __init__(self, workers: int = 1, *, limits: Limits | None = None) -> None:
        self.workers = workers
        self.limits = limits = limits or Limits()
        self.lanes = {
            "races": Lane("making", 1, limits.races, limits.make_time_s),
            "big": Lane("making", workers, limits.big, limits.make_time_s),
            "pastes": Lane("checking", 1, limits.pastes, limits.paste_time_s),
        }
        self.rate = Buckets(limits.generate)
        self._by_player: Counter[tuple[str, bool]] = Counter()
        self._by_address: Counter[str] = Counter()
        self.closed = False

    @property
    def queued(self) -> int:
        return sum(lane.queued for lane in self.lanes.values())

    async def make(
        self, who: str, choice: Choice, chooser: Any, fresh: Any, *, address: str = ""
    ) -> Prepared:
        """The puzzle of ``choice`` made in its lane for the player of token ``who`` at
        ``address`` (both empty: the server's own work, not counted), or a refusal: 429
        over a per-player or per-address count or rate, 503 when the lane is full."""
        if self.closed:
            raise Busy("the server is stopping", retry_after=30)
        pasted = _pasted(choice)
        limits = self.limits
        mine = (who, pasted)
        most = limits.pastes_per_player if pasted else limits.per_player
        if who and self._by_player[mine] >= most:
            what = "pasted puzzles being checked" if pasted else "new games in the making"
            raise TooMany(f"you have {most} {what} already; try again when one is ready",
                          retry_after=10)  # fmt: skip
        if address and self._by_address[address] >= limits.per_address:
            raise TooMany(f"your address has {limits.per_address} new games in the making "
                          "already; try again when one is ready", retry_after=10)  # fmt: skip
        lane = self.lanes["pastes" if pasted else "races" if _area(choice.size) <= SMALL_AREA
                          else "big"]  # fmt: skip
        if lane.queued >= lane.capacity:
            raise Busy(f"the server is {lane.name} too many puzzles; try again soon",
                       retry_after=30)  # fmt: skip
        if address:
            self.rate.take(address, "new games")
        self._by_player[mine] += 1
        self._by_address[address] += 1
        try:
            return from_portable(await lane.run(make_portable, choice, chooser, fresh))
        finally:
            _less(self._by_player, mine)
            _less(self._by_address, address)

    def stop(self) -> None:
        """Kill the workers at once (a generation is no acknowledged move: nothing is lost)
        and answer every waiting request 503."""
        self.closed = True
        for lane in self.lanes.values():
            lane.stop()


def _less(counts: Counter[Any], key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def _pasted(choice: Choice) -> bool:
    """A pasted puzzle (its proof and grading run in the ``pastes`` lane)."""
    return choice.puzzle is not None and choice.source == "file"


def _area(size: str) -> int:
    rows, _, cols = size.partition("x")
    return int(rows) * int(cols) if rows.isdigit() and cols.isdigit() else 0


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
        self._replays: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._replays_lock = threading.Lock()

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

    async def new_game(self, token: str, new: NewGame, address: str = "") -> dict[str, Any]:
        """The creator's view of a new game (see module doc: lookups on a thread,
        generations and pasted puzzles in :class:`Makers`, bounded per token and per
        client ``address``)."""
        choice = await self.call(self.choice, token, new)
        if isinstance(choice, dict):
            return choice  # the player's game of that calendar day
        service = self.service
        if choice.slow or _pasted(choice):
            made = await self.makers.make(token, choice, service.chooser, service.fresh,
                                          address=address)  # fmt: skip
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

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        """Hear other processes' moves at their commit (``callback(game_id, version)``, on a
        thread of the store's); the function that stops, or None when the store cannot
        push (SQLite: the hub polls)."""
        return self.service.store.listen(callback)

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
    def candidates(self, game_id: str, token: str) -> dict[str, Any]:
        """The whole-grid candidates view, where the mode's rules allow it (the engine's)."""
        return self.service.candidates(game_id, token).to_json()

    @_mapped
    def replay(self, game_id: str) -> dict[str, Any]:
        """A finished game's replay (frames of its move log), when the engine allows it.
        Kept for the newest :data:`KEPT_REPLAYS` games: a finished game never changes, and a
        shared link is opened by many."""
        with self._replays_lock:
            kept = self._replays.get(game_id)
            if kept is not None:
                self._replays.move_to_end(game_id)
                return kept
        made = self.service.replay(game_id).to_json()
        with self._replays_lock:
            self._replays[game_id] = made
            while len(self._replays) > KEPT_REPLAYS:
                self._replays.popitem(last=False)
        return made

    @_mapped
    def spectate(self, game_id: str) -> dict[str, Any]:
        """A running Arena or Battle as a spectator sees it (the engine's spectator view)."""
        return self.service.spectate(game_id).to_json()

    @_mapped
    def live(self) -> list[dict[str, Any]]:
        """The running games anyone may watch, newest first."""
        return self.service.live_games()

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
