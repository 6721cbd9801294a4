"""Live pushes: which sockets watch which game, and a fresh view to each after a change.

Each connection has its own outbox: replies (acks, errors) keep their order, while a pushed
view replaces any older pushed view still waiting, so a slow browser gets the newest state
instead of a backlog; a browser that lets :data:`MAX_OUTBOX` replies pile up is dropped.
Views are computed per token by the engine: a player only ever receives their own view, and
a spectator's socket (token :data:`SPECTATOR`) the engine's spectator view.  A
short poll of the engine's version counter also catches changes made outside this server
(``kakuro play move`` from a terminal, another process on the same store).  On a store that
can push (PostgreSQL's ``LISTEN``, :meth:`~kakurolab.game.store.Store.listen`) another
process's move is heard at its commit instead, and the poll slows to :data:`SAFETY_POLL_S`,
a net for notices missed while the listening connection was down.

Time runs on the server: a watched game with a countdown (a sprint, an Arena time limit) has
a timer here that, when the clock runs out, asks the engine to settle it
(:meth:`GameService.tick`: the engine decides the end and the scores) and pushes ``{"type":
"over", "reason": "time", "view"}`` to every socket of the game, whether or not anyone moves.

A socket whose device is revoked is told and closed (code 4403): at once by the server that
revoked it (``web/accounts.py``), and by every other server on the same store within
:data:`REVOKED_CHECK_S`, when its poll finds the token revoked
(:meth:`GameService.revoked_among`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import KakuroError

if TYPE_CHECKING:
    from .gateway import EngineGames

log = logging.getLogger(__name__)

MAX_OUTBOX = 256
"""Replies waiting for one socket before it is given up as stuck."""

SAFETY_POLL_S = 5.0
"""The version poll's period while the store pushes other processes' moves."""

TIMER_SLACK_S = 0.05
"""The timer fires this long after the view's ``remaining_s`` (the engine's clock decides)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]

REVOKED_CHECK_S = 2.0
"""How often a server asks the store whether the tokens of its open sockets are still live
(a device revoked through another process)."""

SIGNED_OUT = "this device was signed out (revoked from another device)"
"""What a revoked device's socket is told before it is closed."""

SPECTATOR = ""
"""The token of a spectator's subscription: no player's (a token has 16 characters or more),
so the engine answers it with its spectator view, and a move with it acts for nobody."""


@dataclass(eq=False)
class Subscriber:
    """One open socket of one player in one game."""

    game_id: str
    token: str
    send: Send
    outbox: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    on_stuck: Callable[[], None] | None = None
    """Called once when the outbox overflows (the session closes the socket)."""
    version: int = -1
    """The newest game version this socket has been given a view of."""
    kick: Callable[[str], None] | None = None
    """Closes the socket with this reason (its token was revoked: web/accounts.py)."""

    def offer(self, message: dict[str, Any]) -> None:
        """Queue a message; a pushed view (``type == "view"``) supersedes waiting ones, and
        is dropped when the socket already has that version (the poller can see a move's
        new version before the move's own publish records it: the mover, answered by its
        ack, would otherwise get the same view again and redraw its board)."""
        view = message.get("view")
        version = view.get("version") if isinstance(view, dict) else None
        if message.get("type") == "view" and isinstance(version, int) and version <= self.version:
            return
        if isinstance(version, int):
            self.version = max(self.version, version)
        if message.get("type") == "view":
            waiting = [m for m in self.outbox if m.get("type") != "view"]
            self.outbox.clear()
            self.outbox.extend(waiting)
        if self.closed:
            return
        if len(self.outbox) >= MAX_OUTBOX:
            self.closed = True
            self.outbox.clear()
            self.wake.set()
            if self.on_stuck is not None:
                self.on_stuck()
            return
        self.outbox.append(message)
        self.wake.set()

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox and not self.closed:
                await self.send(self.outbox.popleft())


@dataclass
class SocketCounts:
    """Open sockets per client address, per token and per game, against the caps of
    :class:`~.limits.Limits`: one client must not make every move's pushes cost the
    engine (and everyone waiting on it) in proportion to sockets it opened for nothing."""

    per_address: int
    per_token: int
    per_game: int
    by_address: Counter[str] = field(default_factory=Counter)
    by_token: Counter[str] = field(default_factory=Counter)
    by_game: Counter[str] = field(default_factory=Counter)

    def open(self, address: str) -> str | None:
        """Count a new socket of ``address``; the refusal's reason when over the cap."""
        if self.by_address[address] >= self.per_address:
            return f"too many sockets from your address (at most {self.per_address})"
        self.by_address[address] += 1
        return None

    def close(self, address: str) -> None:
        _less(self.by_address, address)

    def seat(self, token: str, game_id: str) -> str | None:
        """Count a socket's ``hello``; the refusal's reason when over a cap."""
        if self.by_token[token] >= self.per_token:
            return f"too many sockets for one player (at most {self.per_token})"
        if self.by_game[game_id] >= self.per_game:
            return f"too many sockets on this game (at most {self.per_game})"
        self.by_token[token] += 1
        self.by_game[game_id] += 1
        return None

    def unseat(self, token: str, game_id: str) -> None:
        _less(self.by_token, token)
        _less(self.by_game, game_id)


def _less(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


class Hub:
    def __init__(self, games: EngineGames, *, poll_s: float = 0.5) -> None:
        self.games = games
        self.poll_s = poll_s
        self.watchers: dict[str, set[Subscriber]] = {}
        self.seen: dict[str, int] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self._poller: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._stop_listening: Callable[[], None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self.listening = False
        """Whether other processes' moves are heard at commit (then the poll is slow)."""
        self._pushing: set[str] = set()
        self._again: set[str] = set()

    def arm(self, game_id: str, view: dict[str, Any]) -> None:
        """Set the game's end-of-time timer from a view's clock (once per game)."""
        remaining = view.get("remaining_s")
        if view.get("phase") != "active" or remaining is None or game_id in self.timers:
            return
        if game_id not in self.watchers:
            return
        loop = asyncio.get_running_loop()
        self.timers[game_id] = loop.call_later(
            float(remaining) + TIMER_SLACK_S, self._spawn, self._time_up(game_id)
        )

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _time_up(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        subs = list(self.watchers.get(game_id, ()))
        try:  # one engine call: the poller never sees the new version before ``seen`` does
            views = await self.games.call(_settled, self.games, game_id, [s.token for s in subs])
        except KakuroError:
            return
        except Exception:  # the timer must not take the server down
            log.exception("settling the clock of game %s failed", game_id)
            return
        for sub, view in zip(subs, views[1:], strict=True):
            if isinstance(view, str):
                continue
            if view.get("phase") == "finished":
                sub.offer({"type": "over", "reason": view.get("end_reason"), "view": view})
            else:  # the clock moved (the engine's decides): wait for the new end
                sub.offer({"type": "view", "view": view})
                self.arm(game_id, view)
        if isinstance(views[0], int):
            self.seen[game_id] = views[0]

    def subscribe(self, sub: Subscriber, *, version: int) -> None:
        """Watch a game whose view at ``version`` the subscriber already has."""
        self.watchers.setdefault(sub.game_id, set()).add(sub)
        self.seen.setdefault(sub.game_id, version)
        loop = asyncio.get_running_loop()
        if self._listener is None:  # the store's listener, started once, off the event loop
            self._listener = loop.create_task(self._listen(loop))
        if self._poller is None or self._poller.done():
            self._poller = loop.create_task(self._poll())

    async def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start hearing other processes' moves (when the store can push), then check every
        watched game once: a move made before the listener was up is pushed now, not at the
        next slow poll."""

        def heard(game_id: str, version: int) -> None:  # on the store's listening thread
            loop.call_soon_threadsafe(self.heard, game_id, version)

        try:
            self._stop_listening = await asyncio.to_thread(self.games.listen, heard)
        except Exception:  # no push, then: the poll keeps its pace
            log.exception("listening to the store failed")
            return
        self.listening = self._stop_listening is not None
        if self.listening:
            await self._poll_once()

    def heard(self, game_id: str, version: int) -> None:
        """Another process committed ``version`` of ``game_id``: push it to this server's
        watchers (one publish at a time per game; news arriving meanwhile runs one more)."""
        if game_id not in self.watchers or version <= self.seen.get(game_id, -1):
            return
        if game_id in self._pushing:
            self._again.add(game_id)
            return
        self._pushing.add(game_id)
        self._spawn(self._push(game_id))

    async def _push(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                await self.publish(game_id)
                if game_id not in self._again:
                    return
        except KakuroError:
            return
        except Exception:  # a push must not take the server down
            log.exception("pushing game %s failed", game_id)
        finally:
            self._pushing.discard(game_id)

    def unsubscribe(self, sub: Subscriber) -> None:
        sub.closed = True
        sub.wake.set()
        subs = self.watchers.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.watchers[sub.game_id]
                self.seen.pop(sub.game_id, None)
                timer = self.timers.pop(sub.game_id, None)
                if timer is not None:
                    timer.cancel()

    async def publish(self, game_id: str, *, skip: Subscriber | None = None) -> None:
        """Offer every watcher of ``game_id`` (but ``skip``, already answered) its new view."""
        subs = [s for s in self.watchers.get(game_id, ()) if s is not skip]
        if not subs and game_id not in self.watchers:
            return
        views = await self.games.call(_views, self.games, game_id, [s.token for s in subs])
        for sub, view in zip(subs, views[1:], strict=True):
            if isinstance(view, str):
                sub.offer({"type": "error", "id": None, "error": view})
            else:
                sub.offer({"type": "view", "view": view})
                self.arm(game_id, view)
        if isinstance(views[0], int):
            self.seen[game_id] = views[0]

    def sign_out(self, revoked: Callable[[str], bool], reason: str = SIGNED_OUT) -> int:
        """Tell every open socket whose token is ``revoked`` and close it (code 4403); how
        many there were.  Spectators have no token to revoke."""
        closing = [sub for subs in list(self.watchers.values()) for sub in subs
                   if sub.token != SPECTATOR and revoked(sub.token)]  # fmt: skip
        for sub in closing:
            self.unsubscribe(sub)
            if sub.kick is not None:
                sub.kick(reason)
        return len(closing)

    async def _drop_revoked(self) -> None:
        """Close the sockets whose device another process revoked (see module doc)."""
        tokens = {sub.token for subs in self.watchers.values() for sub in subs}
        tokens.discard(SPECTATOR)
        if not tokens:
            return
        try:
            revoked = await self.games.call(self.games.service.revoked_among, tokens)
        except Exception:  # the poller must outlive a store's hiccup
            log.exception("checking the open sockets' tokens failed")
            return
        if revoked:
            self.sign_out(revoked.__contains__)

    async def _poll(self) -> None:
        clock = asyncio.get_running_loop().time
        last = checked = clock()
        while self.watchers:
            await asyncio.sleep(self.poll_s)
            if clock() - checked >= REVOKED_CHECK_S:
                checked = clock()
                await self._drop_revoked()
            if self.listening and clock() - last < SAFETY_POLL_S:
                continue  # the store pushes: the poll is only a net
            last = clock()
            await self._poll_once()

    async def _poll_once(self) -> None:
        for game_id in list(self.watchers):
            try:
                now = await self.games.call(self.games.version, game_id)
                if now != self.seen.get(game_id):
                    await self.publish(game_id)
            except KakuroError:
                continue
            except Exception:  # the poller must outlive any one game's trouble
                log.exception("polling game %s failed", game_id)

    async def close(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(BaseException):
                await self._listener  # a listener starting now is stopped below
        if self._stop_listening is not None:
            await asyncio.to_thread(self._stop_listening)
            self._stop_listening = None
            self.listening = False
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller


def _settled(games: EngineGames, game_id: str, tokens: list[str]) -> list[Any]:
    """On the engine thread: the game's clock settled, then :func:`_views`.  Ticking and
    reading in two calls let the poller see the tick's new version in between and push the
    finished view a second time, as a plain ``view`` after the ``over``."""
    games.tick(game_id)
    return _views(games, game_id, tokens)


def _views(games: EngineGames, game_id: str, tokens: list[str]) -> list[Any]:
    """On the engine thread: the version, then each token's view (or its error text).  A
    view is computed once per player however many sockets the player has open (the same
    object goes to each: the engine's view depends on the player and the version only), and
    once for all the game's spectators."""
    out: list[Any] = []
    try:
        out.append(games.version(game_id))
    except KakuroError as exc:
        out.append(str(exc))
    seen: dict[str, Any] = {}
    for token in tokens:
        if token not in seen:
            try:
                seen[token] = (games.spectate(game_id) if token == SPECTATOR
                               else games.view(game_id, token))  # fmt: skip
            except KakuroError as exc:
                seen[token] = str(exc)
        out.append(seen[token])
    return out
