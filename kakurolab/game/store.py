"""The game store: players, games, their move logs, results and the calendar.

One class, :class:`Store`, holds every SQL statement of the engine; two databases run them:

* :class:`SqliteStore`, the embedded default: one file (standard-library ``sqlite3``), WAL
  journal, ``synchronous=NORMAL``: a move is acknowledged only after the transaction that
  appends it has committed to the write-ahead log, so a process killed at any point loses
  nothing it acknowledged (``tests/test_game_store.py`` SIGKILLs a player mid-game).  In WAL
  mode ``NORMAL`` skips only the fsync per commit, which guards against an operating-system
  crash or power loss; ``FULL`` cost ~7 ms per move and capped one server at ~140 moves/s
  (issue 17's load test), ``NORMAL`` ~1 ms.  ``BEGIN IMMEDIATE`` locks the whole file.
* :class:`~kakurolab.game.pgstore.PostgresStore` (``postgresql://...``, the ``postgres``
  extra): a connection pool per process, a row lock per game, ``NOTIFY`` at commit.

:func:`kakurolab.game.stores.open_store` picks one by the location.

The statements are shared: both speak ``INSERT ... ON CONFLICT``; what differs (the
placeholder, the float type, the row lock, how a transaction begins, the notice of a new
move) is the :class:`Dialect`, in one place.

The ``meta`` table keeps the server's random secret (:meth:`Store.secret`), from which
calendar and competitive puzzles are generated; ``kept_puzzles`` the calendar days already
made.  Other rows never hold a secret in the clear: tokens (one per device of a player,
``devices``) and sign-in codes (``signin_codes``) are stored as SHA-256 hashes, and a game's
solution only as a salted digest (to check the one recomputed on load) until the game is over,
when it is written out.

Where it lives: ``location`` if given, else the ``KAKURO_STORE`` environment variable, else
``$XDG_DATA_HOME/kakurolab/games.sqlite`` (``~/.local/share/kakurolab/games.sqlite``); a
location starting ``postgresql://`` (or ``postgres://``) is a PostgreSQL database.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import GameError

ENV = "KAKURO_STORE"
SCHEMA_VERSION = 1
URL_SCHEMES = ("postgresql://", "postgres://")
CHANNEL = "kakuro"
"""The ``NOTIFY`` channel of new moves (PostgreSQL): payload ``ORIGIN GAME VERSION``."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    player_id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS local_players (
    name TEXT PRIMARY KEY, player_id TEXT NOT NULL, token TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS devices (
    device_id TEXT PRIMARY KEY, player_id TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL, created REAL NOT NULL, revoked REAL);
CREATE INDEX IF NOT EXISTS devices_by_player ON devices (player_id);
INSERT INTO devices SELECT 'd-' || substr(token_hash, 1, 10), player_id, token_hash,
    'first device', created, NULL FROM players
    WHERE token_hash NOT IN (SELECT token_hash FROM devices);
CREATE TABLE IF NOT EXISTS signin_codes (
    code_id TEXT PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, player_id TEXT NOT NULL,
    created REAL NOT NULL, expires REAL NOT NULL, used REAL, device_id TEXT);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY, mode TEXT NOT NULL, spec TEXT NOT NULL, puzzle TEXT NOT NULL,
    solution_digest TEXT NOT NULL, created REAL NOT NULL, phase TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0, ended REAL, solution TEXT, standings TEXT);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, player_id TEXT,
    move TEXT NOT NULL, outcome TEXT NOT NULL, chain TEXT NOT NULL,
    PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL, player_id TEXT NOT NULL, PRIMARY KEY (game_id, player_id));
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT NOT NULL, player_id TEXT NOT NULL, rank INTEGER NOT NULL,
    score INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (game_id, player_id));
CREATE TABLE IF NOT EXISTS kept_puzzles (key TEXT PRIMARY KEY, puzzle TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS live_puzzles (
    key TEXT NOT NULL, fingerprint TEXT NOT NULL, cells INTEGER NOT NULL, until REAL,
    PRIMARY KEY (key, fingerprint));
CREATE INDEX IF NOT EXISTS live_by_fingerprint ON live_puzzles (fingerprint);
CREATE INDEX IF NOT EXISTS live_by_cells ON live_puzzles (cells);
CREATE TABLE IF NOT EXISTS calendar (
    player_id TEXT NOT NULL, date TEXT NOT NULL, game_id TEXT NOT NULL,
    solved_on TEXT, score INTEGER, time_s REAL, PRIMARY KEY (player_id, date));
CREATE TABLE IF NOT EXISTS ratings (
    pool TEXT NOT NULL, player_id TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL, losses INTEGER NOT NULL,
    draws INTEGER NOT NULL, PRIMARY KEY (pool, player_id));
CREATE TABLE IF NOT EXISTS rating_changes (
    game_id TEXT NOT NULL, player_id TEXT NOT NULL, pool TEXT NOT NULL, at REAL NOT NULL,
    mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu REAL NOT NULL,
    sigma REAL NOT NULL, PRIMARY KEY (game_id, player_id));
CREATE TABLE IF NOT EXISTS computers (player_id TEXT PRIMARY KEY, strength TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS computer_leases (
    game_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL);
"""


@dataclass(frozen=True)
class Dialect:
    """Everything the two databases say differently (the statements are written once, in
    SQLite's spelling with ``?`` placeholders, and translated here)."""

    placeholder: str = "?"
    real: str = "REAL"
    """The float column type: PostgreSQL's ``REAL`` is 4 bytes, too coarse for a clock."""
    lock_row: str = ""
    """Appended to the game's ``SELECT`` at the start of a move's transaction."""
    begin: str = "BEGIN IMMEDIATE"
    notify: str | None = None
    """The statement that tells other processes of a new move (run in its transaction)."""

    def sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def schema(self) -> str:
        return SCHEMA.replace(" REAL", " " + self.real)


SQLITE = Dialect()
POSTGRES = Dialect(placeholder="%s", real="DOUBLE PRECISION", lock_row=" FOR UPDATE",
                   begin="BEGIN", notify="SELECT pg_notify('kakuro', %s)")  # fmt: skip


def default_path() -> Path:
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kakurolab" / "games.sqlite"


def is_url(location: str | Path | None) -> bool:
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def first_device_id(token: str) -> str:
    """The id of the device a player's first token makes (the schema's migration of old
    players names theirs the same way)."""
    return "d-" + token_hash(token)[:10]


def chain(previous: str, row: dict[str, Any]) -> str:
    """The log's hash chain: each row's hash covers the one before, so a lost, reordered or
    edited row is found on replay."""
    text = json.dumps(row, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((previous + text).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LogRow:
    seq: int
    at: float
    player_id: str | None
    move: dict[str, Any]
    outcome: dict[str, Any]
    chain: str


Listener = Callable[[str, int], None]
"""Told ``(game_id, version)`` when another process commits a move."""


class Store:
    """The game database; every write method runs inside :meth:`transaction`, whose
    connection (``db``) the write methods take.  A database is a subclass that says how to
    connect (:meth:`transaction`, :meth:`_reading`), which errors it raises (``errors``)
    and its :class:`Dialect`."""

    dialect: Dialect = SQLITE
    errors: tuple[type[Exception], ...] = ()
    """The database's own exceptions (the service reports them as a StoreError)."""
    where: str = ""
    """The store's name in messages (a path, or a URL without its password)."""

    # --- what a database provides -----------------------------------------------------------

    def close(self) -> None:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[Any]:
        """All or nothing; yields the connection the write methods take."""
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Any]:
        """A connection to read on: the open transaction's on this thread, else any."""
        raise NotImplementedError

    def listen(self, callback: Listener) -> Callable[[], None] | None:
        """Hear other processes' commits as they happen; returns the function that stops
        listening, or None when this database cannot push (then a server polls)."""
        return None

    # --- the shared plumbing ----------------------------------------------------------------

    def _run(self, db: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return db.execute(self.dialect.sql(sql), params)

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._reading() as db:
            return [tuple(row) for row in self._run(db, sql, params).fetchall()]

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        with self._reading() as db:
            row = self._run(db, sql, params).fetchone()
        return None if row is None else tuple(row)

    def _dicts(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._reading() as db:
            cursor = self._run(db, sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _create(self, db: Any) -> None:
        """Inside a transaction: the tables, and the schema's version."""
        for statement in self.dialect.schema().split(";"):
            if statement.strip():
                db.execute(statement)
        self._run(db, "INSERT INTO meta VALUES ('schema', ?) ON CONFLICT DO NOTHING",
                  (str(SCHEMA_VERSION),))  # fmt: skip

    # --- players and their devices (kakurolab.game.accounts) --------------------------------

    def add_player(
        self, player_id: str, name: str, token: str, at: float, *, device_id: str | None = None,
        label: str = "first device",
    ) -> None:
        """A new player and its first device (the token's): every token is a device's, and
        a player may have several (:mod:`kakurolab.game.accounts`)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO players VALUES (?, ?, ?, ?)",
                      (player_id, name, token_hash(token), at))  # fmt: skip
            self.add_device(db, device_id or first_device_id(token), player_id, token, label, at)

    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """(player_id, name) of a token of a device not revoked."""
        row = self._one(
            "SELECT p.player_id, p.name FROM devices d JOIN players p ON p.player_id = "
            "d.player_id WHERE d.token_hash = ? AND d.revoked IS NULL",
            (token_hash(token),),
        )
        return None if row is None else (row[0], row[1])

    def device_by_token(self, token: str) -> str | None:
        """The id of the (live) device a token belongs to."""
        row = self._one(
            "SELECT device_id FROM devices WHERE token_hash = ? AND revoked IS NULL",
            (token_hash(token),),
        )
        return None if row is None else str(row[0])

    def add_device(
        self, db: Any, device_id: str, player_id: str, token: str, label: str, at: float,
        *, if_new: bool = False,
    ) -> None:
        """Inside a transaction: another token of ``player_id`` (only its hash is kept);
        ``if_new``: nothing when the device is there already (a computer, added again by
        every server that starts)."""
        conflict = " ON CONFLICT DO NOTHING" if if_new else ""
        self._run(db, "INSERT INTO devices VALUES (?, ?, ?, ?, ?, NULL)" + conflict,
                  (device_id, player_id, token_hash(token), label, at))  # fmt: skip

    def live_token_hashes(self, hashes: Sequence[str]) -> set[str]:
        """Which of these token hashes are a device's not revoked (500 to a query)."""
        live: set[str] = set()
        for start in range(0, len(hashes), 500):
            chunk = tuple(hashes[start : start + 500])
            marks = ",".join("?" * len(chunk))
            live.update(str(row[0]) for row in self._all(
                f"SELECT token_hash FROM devices WHERE revoked IS NULL AND token_hash IN "
                f"({marks})", chunk))  # fmt: skip
        return live

    def devices_of(self, player_id: str) -> list[dict[str, Any]]:
        """The player's devices, revoked ones too (``revoked`` says when), oldest first."""
        return self._dicts(
            "SELECT device_id, label, created, revoked FROM devices WHERE player_id = ? "
            "ORDER BY created, device_id",
            (player_id,),
        )

    def live_devices(self, db: Any, player_id: str) -> list[str]:
        """Inside a transaction: the ids of the player's live devices, held until commit
        (two devices revoking each other at once: the second finds one left)."""
        rows = self._run(
            db, "SELECT device_id FROM devices WHERE player_id = ? AND revoked IS NULL "
            "ORDER BY device_id" + self.dialect.lock_row, (player_id,),
        ).fetchall()  # fmt: skip
        return [str(row[0]) for row in rows]

    def revoke_device(self, db: Any, device_id: str, at: float) -> str:
        """Inside a transaction, after :meth:`live_devices`: revoke a live device; the
        revoked token's hash (to close its open connections)."""
        row = self._run(db, "SELECT token_hash FROM devices WHERE device_id = ?",
                        (device_id,)).fetchone()  # fmt: skip
        self._run(db, "UPDATE devices SET revoked = ? WHERE device_id = ?", (at, device_id))
        return str(row[0])

    def add_code(
        self, code_id: str, code_hash: str, player_id: str, at: float, expires: float
    ) -> None:
        """A sign-in code of ``player_id`` (its hash), good until ``expires``."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO signin_codes VALUES (?, ?, ?, ?, ?, NULL, NULL)",
                      (code_id, code_hash, player_id, at, expires))  # fmt: skip

    def code_row(self, db: Any, code_hash: str) -> dict[str, Any] | None:
        """Inside a transaction, first: the code's row, held until commit (two devices
        redeeming one code at once: the second finds it used)."""
        cursor = self._run(
            db, "SELECT code_id, player_id, expires, used FROM signin_codes WHERE code_hash = ?"
            + self.dialect.lock_row, (code_hash,),
        )  # fmt: skip
        row = cursor.fetchone()
        if row is None:
            return None
        names = [d[0] for d in cursor.description]
        return dict(zip(names, tuple(row), strict=True))

    def use_code(self, db: Any, code_id: str, at: float, device_id: str) -> None:
        self._run(db, "UPDATE signin_codes SET used = ?, device_id = ? WHERE code_id = ?",
                  (at, device_id, code_id))  # fmt: skip

    def codes_of(self, player_id: str, now: float) -> list[dict[str, Any]]:
        """The player's codes not used and not expired at ``now``, oldest first."""
        return self._dicts(
            "SELECT code_id, created, expires FROM signin_codes WHERE player_id = ? AND "
            "used IS NULL AND expires > ? ORDER BY created, code_id",
            (player_id, now),
        )

    def drop_code(self, player_id: str, code_id: str) -> bool:
        """Revoke an unused code of the player: True when there was one."""
        with self.transaction() as db:
            found = self._run(
                db, "SELECT 1 FROM signin_codes WHERE code_id = ? AND player_id = ? AND "
                "used IS NULL" + self.dialect.lock_row, (code_id, player_id),
            ).fetchone()  # fmt: skip
            if found is not None:
                self._run(db, "DELETE FROM signin_codes WHERE code_id = ?", (code_id,))
        return found is not None

    def player_name(self, player_id: str) -> str | None:
        found = self._one("SELECT name FROM players WHERE player_id = ?", (player_id,))
        return None if found is None else str(found[0])

    def local_token(self, name: str) -> str | None:
        row = self._one("SELECT token FROM local_players WHERE name = ?", (name,))
        return None if row is None else str(row[0])

    def remember_local(self, name: str, player_id: str, token: str) -> None:
        with self.transaction() as db:
            self._run(db, "INSERT INTO local_players VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                      (name, player_id, token))  # fmt: skip

    def relink_local(self, name: str, player_id: str, token: str) -> None:
        """The terminal's player ``name`` is now this token's (a redeemed sign-in code)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO local_players VALUES (?, ?, ?) ON CONFLICT (name) DO "
                      "UPDATE SET player_id = excluded.player_id, token = excluded.token",
                      (name, player_id, token))  # fmt: skip

    # --- games ------------------------------------------------------------------------------

    def add_game(
        self, game_id: str, mode: str, spec: dict[str, Any], puzzle: str, digest: str, at: float
    ) -> None:
        with self.transaction() as db:
            self._run(
                db,
                "INSERT INTO games (game_id, mode, spec, puzzle, solution_digest, created, phase)"
                " VALUES (?, ?, ?, ?, ?, ?, 'waiting')",
                (game_id, mode, json.dumps(spec), puzzle, digest, at),
            )

    def game_row(self, game_id: str) -> dict[str, Any] | None:
        rows = self._dicts("SELECT * FROM games WHERE game_id = ?", (game_id,))
        return rows[0] if rows else None

    def log(self, game_id: str, after: int = 0) -> list[LogRow]:
        rows = self._all(
            "SELECT seq, at, player_id, move, outcome, chain FROM moves WHERE game_id = ? "
            "AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [LogRow(s, a, p, json.loads(m), json.loads(o), c) for s, a, p, m, o, c in rows]

    def version(self, game_id: str) -> int:
        row = self._one("SELECT version FROM games WHERE game_id = ?", (game_id,))
        return 0 if row is None else int(row[0])

    def lock(self, db: Any, game_id: str) -> int:
        """Inside a transaction, first: hold the game's row until commit (PostgreSQL's
        ``FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` already holds the whole file), so the
        game read next is the newest and no other process appends meanwhile; returns the
        game's version (0 for no such game)."""
        row = self._run(db, "SELECT version FROM games WHERE game_id = ?" + self.dialect.lock_row,
                        (game_id,)).fetchone()  # fmt: skip
        return 0 if row is None else int(row[0])

    def append(self, db: Any, game_id: str, row: LogRow, phase: str) -> None:
        """Inside a transaction: one log row, and the game's version and phase with it (and,
        where the database can, a notice to other processes, sent at commit)."""
        self._run(
            db, "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, row.seq, row.at, row.player_id, json.dumps(row.move),
             json.dumps(row.outcome), row.chain),
        )  # fmt: skip
        self._run(
            db, "UPDATE games SET version = ?, phase = ? WHERE game_id = ?",
            (row.seq, phase, game_id),
        )  # fmt: skip
        if row.move.get("kind") == "join" and row.player_id is not None:
            self._run(db, "INSERT INTO seats VALUES (?, ?) ON CONFLICT DO NOTHING",
                      (game_id, row.player_id))  # fmt: skip
        if self.dialect.notify is not None:
            db.execute(self.dialect.notify, (f"{self.origin} {game_id} {row.seq}",))

    origin: str = ""
    """This store object's name in its notices (its own are not news to it)."""

    def finish(
        self,
        db: Any,
        game_id: str,
        ended: float,
        solution: list[str],
        standings: list[dict[str, Any]],
    ) -> None:
        """Inside a transaction: the game is over; its solution and results may be kept."""
        self._run(
            db, "UPDATE games SET ended = ?, solution = ?, standings = ? WHERE game_id = ?",
            (ended, json.dumps(solution), json.dumps(standings), game_id),
        )  # fmt: skip
        for line in standings:
            self._run(
                db,
                "INSERT INTO results VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) "
                "DO UPDATE SET rank = excluded.rank, score = excluded.score, line = excluded.line",
                (game_id, line["player_id"], line["rank"], line["score"], json.dumps(line)),
            )

    def results_of(self, player_id: str) -> dict[str, dict[str, Any]]:
        """The player's final standing line of every finished game, by game id."""
        rows = self._all("SELECT game_id, line FROM results WHERE player_id = ?", (player_id,))
        return {str(game_id): json.loads(line) for game_id, line in rows}

    def games_of(self, player_id: str) -> list[dict[str, Any]]:
        return self._dicts(
            "SELECT g.game_id, g.mode, g.phase, g.version, g.created, g.spec FROM games g "
            "JOIN seats s ON s.game_id = g.game_id WHERE s.player_id = ? ORDER BY g.created",
            (player_id,),
        )

    def games_in_phase(self, modes: tuple[str, ...], phase: str, limit: int) -> list[str]:
        """The ids of the newest ``limit`` games of ``modes`` in ``phase`` (the watch list)."""
        marks = ",".join("?" * len(modes))
        rows = self._all(
            f"SELECT game_id FROM games WHERE phase = ? AND mode IN ({marks}) "
            "ORDER BY created DESC LIMIT ?",
            (phase, *modes, limit),
        )
        return [str(row[0]) for row in rows]

    # --- the server's secret and its puzzles ------------------------------------------------

    def secret(self) -> str:
        """This store's random secret, made on first use: the seed of competitive and
        calendar puzzles, so only this server knows them before they are played."""
        row = self._one("SELECT value FROM meta WHERE key = 'secret'")
        if row is not None:
            return str(row[0])
        with self.transaction() as db:
            self._run(db, "INSERT INTO meta VALUES ('secret', ?) ON CONFLICT DO NOTHING",
                      (secrets.token_hex(32),))  # fmt: skip
        found = self._one("SELECT value FROM meta WHERE key = 'secret'")
        assert found is not None  # written just now, by this call or another one
        return str(found[0])

    def cached_puzzle(self, key: str) -> str | None:
        row = self._one("SELECT puzzle FROM kept_puzzles WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def keep_puzzle(self, key: str, puzzle: str) -> None:
        """Keep a made puzzle under ``key`` (the first one kept stays: every player of a
        calendar day gets the same grid)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO kept_puzzles VALUES (?, ?) ON CONFLICT DO NOTHING",
                      (key, puzzle))  # fmt: skip

    # --- live competitive puzzles (the copy rule, kakurolab.game.fair) ----------------------

    def add_live(self, db: Any, key: str, marks: dict[str, int],
                 until: float | None = None) -> None:  # fmt: skip
        """Inside a transaction: the puzzle of ``key`` (a game id or a calendar day's key),
        whose pieces have these fingerprints (-> white cells), is live until ``until`` (a
        clock reading), or until :meth:`drop_live` when None."""
        self._run(db, "DELETE FROM live_puzzles WHERE key = ?", (key,))
        db.cursor().executemany(
            self.dialect.sql("INSERT INTO live_puzzles VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"),
            [(key, mark, cells, until) for mark, cells in marks.items()],
        )

    def live_cells(self, cells: int, now: float) -> bool:
        """Whether any puzzle live at ``now`` has ``cells`` white cells."""
        row = self._one(
            "SELECT 1 FROM live_puzzles WHERE cells = ? AND (until IS NULL OR until > ?)",
            (cells, now),
        )
        return row is not None

    def drop_live(self, db: Any, key: str) -> None:
        self._run(db, "DELETE FROM live_puzzles WHERE key = ?", (key,))

    def live_key(self, fingerprint: str, now: float) -> str | None:
        """The key of a live puzzle with this fingerprint at ``now``, or None."""
        row = self._one(
            "SELECT key FROM live_puzzles WHERE fingerprint = ? AND (until IS NULL OR until > ?)",
            (fingerprint, now),
        )
        return None if row is None else str(row[0])

    def unlisted_live(self, modes: tuple[str, ...]) -> list[tuple[str, str]]:
        """(key, puzzle text) of unfinished games of ``modes`` and kept puzzles that have no
        live row yet (a store made before the copy rule): the service adds them on open."""
        marks = ",".join("?" * len(modes))
        games = self._all(
            f"SELECT game_id, puzzle FROM games WHERE phase != 'finished' AND mode IN ({marks}) "
            "AND game_id NOT IN (SELECT key FROM live_puzzles)",
            modes,
        )
        kept = self._all(
            "SELECT key, puzzle FROM kept_puzzles WHERE key NOT IN (SELECT key FROM live_puzzles)"
        )
        return [(str(k), str(p)) for k, p in [*games, *kept]]

    # --- calendar ---------------------------------------------------------------------------

    def calendar_game(self, player_id: str, date: str) -> str | None:
        row = self._one(
            "SELECT game_id FROM calendar WHERE player_id = ? AND date = ?", (player_id, date)
        )
        return None if row is None else str(row[0])

    def add_calendar(self, db: Any, player_id: str, date: str, game_id: str) -> None:
        self._run(db, "INSERT INTO calendar (player_id, date, game_id) VALUES (?, ?, ?)",
                  (player_id, date, game_id))  # fmt: skip

    def calendar_done(
        self, db: Any, game_id: str, solved_on: str, score: int, time_s: float
    ) -> None:
        self._run(
            db, "UPDATE calendar SET solved_on = ?, score = ?, time_s = ? WHERE game_id = ?",
            (solved_on, score, time_s, game_id),
        )  # fmt: skip

    def calendar_rows(self, player_id: str) -> list[tuple[str, str, str | None, int | None]]:
        return [
            (str(d), str(g), s, sc)
            for d, g, s, sc in self._all(
                "SELECT date, game_id, solved_on, score FROM calendar WHERE player_id = ? "
                "ORDER BY date",
                (player_id,),
            )
        ]

    # --- Battle ratings (kakurolab.game.rating) and computer players --------------------------

    def rating_recorded(self, db: Any, game_id: str) -> bool:
        """Inside a transaction: whether the game's rating change is written already."""
        row = self._run(db, "SELECT 1 FROM rating_changes WHERE game_id = ?",
                        (game_id,)).fetchone()  # fmt: skip
        return row is not None

    def ratings_for_update(self, db: Any, pool: str, player_ids: list[str]) -> dict[str, Any]:
        """Inside a transaction: the players' ratings in ``pool`` (new players at the
        start), each row locked until commit, in player order (no two games deadlock)."""
        from .rating import MU, SIGMA, Rating

        found = {}
        for player_id in sorted(set(player_ids)):
            self._run(db, "INSERT INTO ratings VALUES (?, ?, ?, ?, 0, 0, 0, 0) "
                      "ON CONFLICT DO NOTHING", (pool, player_id, MU, SIGMA))  # fmt: skip
            mu, sigma, games, wins, losses, draws = self._run(
                db, "SELECT mu, sigma, games, wins, losses, draws FROM ratings WHERE pool = ? "
                "AND player_id = ?" + self.dialect.lock_row, (pool, player_id),
            ).fetchone()  # fmt: skip
            found[player_id] = Rating(player_id, float(mu), float(sigma), int(games),
                                      int(wins), int(losses), int(draws))  # fmt: skip
        return found

    def save_rating(self, db: Any, pool: str, game_id: str, old: Any, new: Any,
                    at: float) -> None:  # fmt: skip
        """Inside a transaction: a player's rating after a game, and the change, kept."""
        self._run(
            db, "UPDATE ratings SET mu = ?, sigma = ?, games = ?, wins = ?, losses = ?, "
            "draws = ? WHERE pool = ? AND player_id = ?",
            (new.mu, new.sigma, new.games, new.wins, new.losses, new.draws, pool, new.player_id),
        )  # fmt: skip
        self._run(
            db, "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, new.player_id, pool, at, old.mu, old.sigma, new.mu, new.sigma),
        )  # fmt: skip

    def ratings_table(self, pool: str, limit: int = 100) -> list[dict[str, Any]]:
        """A pool's ratings with names, best conservative rating (``mu - 3 sigma``) first."""
        return self._dicts(
            "SELECT r.player_id, p.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws "
            "FROM ratings r JOIN players p ON p.player_id = r.player_id WHERE r.pool = ? "
            "AND r.games > 0 ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ?",
            (pool, limit),
        )

    def ratings_of(self, player_id: str) -> list[dict[str, Any]]:
        """The player's rating in every pool it has played in."""
        return self._dicts(
            "SELECT pool, player_id, mu, sigma, games, wins, losses, draws FROM ratings "
            "WHERE player_id = ? AND games > 0 ORDER BY pool", (player_id,))  # fmt: skip

    def rating_changes_of(self, game_id: str) -> list[dict[str, Any]]:
        return self._dicts("SELECT * FROM rating_changes WHERE game_id = ? ORDER BY player_id",
                           (game_id,))  # fmt: skip

    def add_computer(self, player_id: str, name: str, token: str, strength: str,
                     at: float) -> None:  # fmt: skip
        """A computer player (its token derived from the secret, so no row holds it)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO players VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                      (player_id, name, token_hash(token), at))  # fmt: skip
            self._run(db, "INSERT INTO computers VALUES (?, ?) ON CONFLICT DO NOTHING",
                      (player_id, strength))  # fmt: skip
            # every token is a device's (kakurolab.game.accounts): the computer's one device
            self.add_device(db, first_device_id(token), player_id, token, "computer", at,
                            if_new=True)  # fmt: skip

    def computers_among(self, db: Any, player_ids: list[str]) -> dict[str, str]:
        """Inside a transaction: which of these players are computers (-> strength)."""
        marks = ",".join("?" * len(player_ids))
        rows = self._run(db, f"SELECT player_id, strength FROM computers WHERE player_id "
                         f"IN ({marks})", tuple(player_ids)).fetchall()  # fmt: skip
        return {str(p): str(s) for p, s in rows}

    def computer_games(self) -> list[tuple[str, str, str]]:
        """(game id, computer player id, strength) of every unfinished game with a
        computer seat: what a server resumes when it starts."""
        return [
            (str(g), str(p), str(s))
            for g, p, s in self._all(
                "SELECT g.game_id, c.player_id, c.strength FROM games g JOIN seats s ON "
                "s.game_id = g.game_id JOIN computers c ON c.player_id = s.player_id "
                "WHERE g.phase != 'finished' ORDER BY g.created"
            )
        ]

    def lease_computer(self, game_id: str, holder: str, now: float, until: float) -> bool:
        """Hold (or renew) the right to play a game's computer until ``until``: True when
        ``holder`` has it, False while another holder's lease runs.  Every server process
        resumes every computer game, and the lease makes one of them play each."""
        with self.transaction() as db:
            self._run(
                db,
                "INSERT INTO computer_leases VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE "
                "SET holder = excluded.holder, expires = excluded.expires "
                "WHERE computer_leases.holder = excluded.holder OR computer_leases.expires < ?",
                (game_id, holder, until, now),
            )
            row = self._run(db, "SELECT holder FROM computer_leases WHERE game_id = ?",
                            (game_id,)).fetchone()  # fmt: skip
        return row is not None and row[0] == holder

    def release_computer(self, game_id: str, holder: str) -> None:
        """Give up ``holder``'s lease of a game's computer (a server stopping, a game over)."""
        with self.transaction() as db:
            self._run(db, "DELETE FROM computer_leases WHERE game_id = ? AND holder = ?",
                      (game_id, holder))  # fmt: skip

    # --- standings (kakurolab.game.standings): finished results only, never a board -----------

    def meta_value(self, key: str) -> str | None:
        found = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if found is None else str(found[0])

    def meta_once(self, key: str, value: str) -> str:
        """The ``meta`` value of ``key``, written as ``value`` first if it has none (the
        first writer wins, so every process reads the same)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO meta VALUES (?, ?) ON CONFLICT DO NOTHING", (key, value))
        found = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return value if found is None else str(found[0])

    def first_activity(self) -> tuple[str | None, str | None, float | None]:
        """The earliest calendar date played, calendar key kept and player made (or None)."""
        played = self._one("SELECT MIN(date) FROM calendar")
        kept = self._one("SELECT MIN(key) FROM kept_puzzles WHERE key LIKE ?", ("calendar:%",))
        made = self._one("SELECT MIN(created) FROM players")
        return (
            None if played is None or played[0] is None else str(played[0]),
            None if kept is None or kept[0] is None else str(kept[0]),
            None if made is None or made[0] is None else float(made[0]),
        )

    def day_results(self, date: str) -> list[tuple[str, str, dict[str, Any]]]:
        """(player_id, solved_on, final standing line) of every calendar game of ``date``
        solved: a game still running has no result row, so it is not here."""
        rows = self._all(
            "SELECT c.player_id, c.solved_on, r.line FROM calendar c JOIN results r "
            "ON r.game_id = c.game_id AND r.player_id = c.player_id "
            "WHERE c.date = ? AND c.solved_on IS NOT NULL",
            (date,),
        )
        return [(str(p), str(s), json.loads(line)) for p, s, line in rows]

    def mode_results(
        self, mode: str, start: float, end: float
    ) -> list[tuple[str, str, float, dict[str, Any]]]:
        """(game_id, player_id, ended, final standing line) of every game of ``mode`` that
        ended in [start, end)."""
        rows = self._all(
            "SELECT r.game_id, r.player_id, g.ended, r.line FROM results r JOIN games g "
            "ON g.game_id = r.game_id WHERE g.mode = ? AND g.ended >= ? AND g.ended < ?",
            (mode, start, end),
        )
        return [(str(g), str(p), float(e), json.loads(line)) for g, p, e, line in rows]

    def kept_keys(self, first: str, last: str) -> list[str]:
        """The keys of kept puzzles from ``first`` to ``last`` (text order, both included)."""
        rows = self._all(
            "SELECT key FROM kept_puzzles WHERE key >= ? AND key <= ? ORDER BY key", (first, last)
        )
        return [str(k) for (k,) in rows]

    def day_solvers(self, first: str, last: str) -> dict[str, int]:
        """Per calendar date from ``first`` to ``last``: the players who solved it that day."""
        rows = self._all(
            "SELECT date, COUNT(*) FROM calendar WHERE date >= ? AND date <= ? "
            "AND solved_on = date GROUP BY date",
            (first, last),
        )
        return {str(d): int(n) for d, n in rows}


class SqliteStore(Store):
    """The embedded default: one SQLite file, one connection (see module doc)."""

    dialect = SQLITE
    errors = (sqlite3.Error,)

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.where = str(self.path)
        self.origin = secrets.token_hex(4)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA busy_timeout=10000")
            with self.transaction() as db:
                self._create(db)
        except (OSError, sqlite3.Error) as exc:
            raise GameError(f"{self.path}: cannot open the game store: {exc}") from None

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``: one writer at a time, all or nothing."""
        self.db.execute(self.dialect.begin)
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        yield self.db

