"""Which store a location means: a ``postgresql://`` URL is a PostgreSQL database
(:mod:`.pgstore`, imported only then: psycopg is an optional extra), anything else a SQLite
file (:mod:`.store`)."""

from __future__ import annotations

import os
from pathlib import Path

from .store import ENV, SqliteStore, Store, is_url


def open_store(location: str | Path | None = None) -> Store:
    """The store at ``location``, else at ``$KAKURO_STORE``, else the user's SQLite file."""
    if location is None:
        location = os.environ.get(ENV) or None
    if is_url(location):
        from .pgstore import PostgresStore

        return PostgresStore(str(location))
    return SqliteStore(location)
