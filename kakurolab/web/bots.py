"""The computer opponents of a server: one asyncio task per Battle with a computer seat.

A task plays its computer exactly as a browser plays a person: through the engine's calls
with the computer's token (its view, the events it may see, ``act``), on the engine thread
like every other call (:meth:`EngineGames.call`).  The deduction itself
(:func:`kakurolab.game.computer.decide`) runs on a helper thread, then the task *sleeps* the
decision's think time (times :attr:`Bots.pace`: 1 on a real server, small in the tests), so
the event loop is never held: other games' moves and pushes go on meanwhile.  After its move
the task pushes the new view to the game's watchers (:meth:`Hub.publish`), as a socket's move
does.  While it is the person's turn the task waits for the service's commit notice
(:meth:`GameService.subscribe`), with a short poll as a net for moves made by another process
on the same store.

It stops when the game is over (finished, or ended by its countdown), when the server stops
(the tasks are cancelled), and after a refused move it looks again.  A restarted server
resumes every unfinished game with a computer seat (:meth:`Bots.resume`, at start-up): the
computer needs no memory of its own, since all it knows is in the view and the public log,
and its think time is drawn from a seed of the game's version, so it takes up where it was.
A computer move that was thinking when the server stopped is simply thought again.

Several server processes on one store each resume every computer game, so a task plays only
while it holds the game's *lease* (:meth:`GameService.lease_computer`, :data:`LEASE_S`
seconds, renewed as it plays and thinks); the others look again every :data:`POLL_S` and
take over when the holder stops (it gives the lease back) or dies (its lease runs out).
Without it every process played the computer, one move counting per turn, at the pace of
the fastest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from ..errors import KakuroError
from ..game.computer import STRENGTHS, Decision, decide
from ..game.service import Credentials
from .gateway import EngineGames
from .hub import Hub

log = logging.getLogger(__name__)

POLL_S = 1.0
"""How often a waiting computer looks at its game without a commit notice (another process's
move on a store that cannot push), and a process without the lease looks for it."""
LEASE_S = 30.0
"""How long a game's computer lease lasts unless renewed (renewed every third of it): how
long the computer pauses when the process playing it dies."""


class Bots:
    """The running computer players of one server (see module doc)."""

    def __init__(self, games: EngineGames, hub: Hub, *, pace: float = 1.0) -> None:
        self.games = games
        self.hub = hub
        self.pace = pace
        """Think times are multiplied by this (1: a person's pace; the tests use ~0.01)."""
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.moves: dict[str, list[Decision]] = {}
        """The decisions played per game, newest last (what the tests read)."""
        self._wake: dict[str, asyncio.Event] = {}
        self._unsubscribe: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.holder = f"bots-{uuid.uuid4().hex[:12]}"
        """This server's name on the computer leases it holds."""
        self._held: dict[str, float] = {}
        """Game -> when this server last took or renewed its lease (event-loop time)."""

    def _listen(self) -> None:
        if self._unsubscribe is None:
            self._loop = loop = asyncio.get_running_loop()

            def committed(game_id: str, version: int) -> None:  # on the engine thread
                if game_id in self._wake:
                    loop.call_soon_threadsafe(self._poke, game_id)

            self._unsubscribe = self.games.service.subscribe(committed)

    def _poke(self, game_id: str) -> None:
        event = self._wake.get(game_id)
        if event is not None:
            event.set()

    def start(self, game_id: str, cred: Credentials, strength: str) -> None:
        """Play the computer of ``strength`` in ``game_id`` (once: a second start is a no-op)."""
        running = self.tasks.get(game_id)
        if running is not None and not running.done():
            return
        self._listen()
        self._wake[game_id] = asyncio.Event()
        task = asyncio.get_running_loop().create_task(self._play(game_id, cred, strength))
        self.tasks[game_id] = task
        task.add_done_callback(lambda _: self._done(game_id))

    def _done(self, game_id: str) -> None:
        self.tasks.pop(game_id, None)
        self._wake.pop(game_id, None)
        self._held.pop(game_id, None)

    async def seat(self, game_id: str, strength: str) -> None:
        """Start the computer of a game just made with one (``NewGame.computer``)."""
        cred = await self.games.call(self.games.service.computer, strength)
        self.start(game_id, cred, strength)

    async def resume(self) -> int:
        """Start every unfinished game's computer (a server starting); how many."""
        found = await self.games.call(self.games.service.computer_games)
        for game_id, cred, strength in found:
            self.start(game_id, cred, strength)
        return len(found)

    async def _play(self, game_id: str, cred: Credentials, strength: str) -> None:
        try:
            await self._moves(game_id, cred, strength)
        finally:  # a server stopping gives the lease back: the next one plays at once
            with contextlib.suppress(Exception):
                await self.games.call(self.games.service.release_computer, game_id, self.holder)

    async def _hold(self, game_id: str) -> bool:
        """Take or renew the game's computer lease (see module doc): whether this server has
        it.  A lease renewed less than a third of :data:`LEASE_S` ago is not asked again."""
        now = asyncio.get_running_loop().time()
        if now - self._held.get(game_id, -LEASE_S) < LEASE_S / 3:
            return True
        held = bool(await self.games.call(self.games.service.lease_computer, game_id,
                                          self.holder, LEASE_S))  # fmt: skip
        if held:
            self._held[game_id] = now
        else:
            self._held.pop(game_id, None)
        return held

    async def _moves(self, game_id: str, cred: Credentials, strength: str) -> None:
        level = STRENGTHS[strength]
        games, token = self.games, cred.token
        while True:
            try:
                if not await self._hold(game_id):
                    await self._wait(game_id)  # another server plays it: look again
                    continue
                view, events = await games.call(_seen, games, game_id, token)
            except KakuroError as exc:
                log.warning("the computer of game %s stops: %s", game_id, exc)
                return
            if view["phase"] == "finished":
                return
            decision = await asyncio.to_thread(decide, view, events, level)
            if decision is None:  # the person's turn (or not started): wait for a move
                await self._wait(game_id)
                continue
            if not await self._think(game_id, decision.think_s):
                continue  # the lease was lost while thinking: another server plays now
            try:
                await games.call(games.act, game_id, token, decision.move)
            except KakuroError:
                continue  # the game moved on meanwhile (its clock ran out): look again
            self.moves.setdefault(game_id, []).append(decision)
            with contextlib.suppress(KakuroError):
                await self.hub.publish(game_id)

    async def _think(self, game_id: str, seconds: float) -> bool:
        """Sleep ``seconds`` times the pace, read again every tenth of a second (a pace set
        while a computer thinks applies at once), the lease renewed as it runs: whether it
        is still held at the end."""
        clock = asyncio.get_running_loop().time
        start = clock()
        while (left := start + seconds * self.pace - clock()) > 0:
            await asyncio.sleep(min(left, 0.1))
            if not await self._hold(game_id):
                return False
        return True

    async def _wait(self, game_id: str) -> None:
        event = self._wake.get(game_id)
        if event is None:
            await asyncio.sleep(POLL_S)
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(POLL_S):
                await event.wait()
        event.clear()

    async def close(self) -> None:
        """Stop every computer (the server is stopping; a thought not played is lost, and
        played again by the next server: see module doc)."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._unsubscribe is not None:
            with contextlib.suppress(ValueError):
                self._unsubscribe()
            self._unsubscribe = None


def _seen(games: EngineGames, game_id: str, token: str) -> tuple[dict[str, Any], list[Any]]:
    """On the engine thread: what the computer sees, its view and the game's visible log."""
    service = games.service
    view = service.view(game_id, token).to_json()
    events = [e.to_json() for e in service.events_since(game_id, token, 0)]
    return view, events
