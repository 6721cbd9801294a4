"""The PostgreSQL store: ``kakuro play serve --store postgresql://USER@HOST/DB``.

The same tables and statements as SQLite (:class:`~kakurolab.game.store.Store`), through
psycopg 3 with a connection pool per process (``psycopg[binary]`` and ``psycopg_pool``, the
``postgres`` extra; without it the store fails with one line naming the extra).  Where SQLite
locks the whole file per write, a move's transaction here takes its game's row (``SELECT ...
FOR UPDATE``): moves of different games commit in parallel, one game's moves one at a time,
and each starts from the newest log (read committed: every statement sees what committed
before it).  Commits keep the database's ``synchronous_commit`` (``on`` by default: an
acknowledged move is on disk; ``options=-csynchronous_commit%3Doff`` in the URL trades that
for speed, docs/web.md).

Each appended move runs ``pg_notify('kakuro', 'ORIGIN GAME VERSION')``, delivered to every
listener (``LISTEN kakuro``) at commit: :meth:`PostgresStore.listen` keeps one connection
listening on a thread of its own, so a server hears another process's move at once instead of
polling.
"""

from __future__ import annotations

import atexit
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import one_line, require
from .errors import GameError
from .store import CHANNEL, POSTGRES, Listener, Store

POOL_SIZE = 4
"""Connections per process at most: the engine runs one call at a time (the service's lock),
so more would wait anyway; the others serve reads beside it and the listener has its own."""

CONNECT_TIMEOUT_S = 10


_OPEN: set[Any] = set()
"""Pools not closed yet: held here until :meth:`PostgresStore.close` or the exit, never
left to the garbage collector (which may run on a pool's own worker thread, where the
pool's ``__del__`` cannot stop it)."""


@atexit.register
def _close_all() -> None:
    for pool in list(_OPEN):
        pool.close()
    _OPEN.clear()


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)


class PostgresStore(Store):
    """The game store in a PostgreSQL database (see module doc)."""

    dialect = POSTGRES

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        feature = "a PostgreSQL game store"
        psycopg: Any = require("psycopg", extra="postgres", feature=feature)
        pool: Any = require("psycopg_pool", extra="postgres", feature=feature)
        self.psycopg = psycopg
        self.errors = (psycopg.Error,)
        self.url = url
        self.where = redacted(url)
        self.origin = secrets.token_hex(4)
        self._local = threading.local()
        try:  # one plain connection first: its error says what is wrong, a pool's would not
            first = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
            with first as db, db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(4242)")  # servers starting at once
                self._create(db)
            self.pool = pool.ConnectionPool(
                url, min_size=1, max_size=pool_size, kwargs={"autocommit": True},
                timeout=CONNECT_TIMEOUT_S, name="kakuro", open=True,
            )  # fmt: skip
            _OPEN.add(self.pool)
        except psycopg.Error as exc:
            raise GameError(f"{self.where}: cannot open the game store: {one_line(exc)}") from None

    def close(self) -> None:
        _OPEN.discard(self.pool)
        self.pool.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """``BEGIN`` ... ``COMMIT`` on a pooled connection, which this thread's reads use
        until the end (a move reads its game's log after taking the row lock).  In
        psycopg's pipeline mode: statements whose answer nobody reads (a move's INSERT,
        UPDATE and NOTIFY) go out with the COMMIT in one round trip, not one each (a round
        trip costs a switch to the database's process: on a busy machine, a wait for a
        CPU); an error among them is raised at the commit, and nothing is kept."""
        with self.pool.connection() as db, db.pipeline(), db.transaction():
            self._local.db = db
            try:
                yield db
            finally:
                self._local.db = None

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        current = getattr(self._local, "db", None)
        if current is not None:
            yield current
            return
        with self.pool.connection() as db:
            yield db

    def listen(self, callback: Listener) -> Callable[[], None]:
        """``LISTEN kakuro`` on a connection of its own, on a daemon thread: ``callback`` hears
        each other store's committed move (this one's own are skipped: its server pushes
        them itself), from the moment this returns.  A lost connection is opened again;
        what was said meanwhile is missed (a server's slow poll catches it up)."""
        stop, ready = threading.Event(), threading.Event()
        psycopg = self.psycopg

        def run() -> None:
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True,
                                         connect_timeout=CONNECT_TIMEOUT_S) as db:  # fmt: skip
                        db.execute(f"LISTEN {CHANNEL}")
                        ready.set()
                        while not stop.is_set():
                            for note in db.notifies(timeout=0.5):
                                origin, game_id, version = note.payload.split(" ")
                                if origin != self.origin:
                                    _tell(callback, game_id, int(version))
                except (psycopg.Error, ValueError):
                    stop.wait(0.5)

        thread = threading.Thread(target=run, name="kakuro-listen", daemon=True)
        thread.start()
        ready.wait(CONNECT_TIMEOUT_S)  # from here on no commit goes unheard

        def halt() -> None:
            stop.set()
            thread.join(2)

        return halt


def _tell(callback: Listener, game_id: str, version: int) -> None:
    try:
        callback(game_id, version)
    except Exception:  # a listener's failure never stops the listening
        return
