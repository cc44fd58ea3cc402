"""The store's databases: SQLite (the standard library, one file) and PostgreSQL
(psycopg 3, the ``postgres`` extra), behind the one interface the store speaks.

Contract: the store writes its SQL once, in SQLite's dialect (``?`` parameters, ``BEGIN
IMMEDIATE``, ``REAL``); :class:`Postgres` speaks it to PostgreSQL: ``?`` as ``%s``,
``BEGIN IMMEDIATE`` as a transaction that first locks the store's meta table (writers
take turns, as with SQLite), an insert of a player or a game answers its new id
(``RETURNING``), and the schema's types as PostgreSQL's (:func:`pg_ddl`).
:func:`errors` is the tuple of database errors the store says as its own.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from typing import Any

from sodos_plugin.util.lazy import LazyModule

psycopg = LazyModule("psycopg", globals(), "psycopg")  # the postgres extra, when used

URL_PREFIXES = ("postgresql://", "postgres://")
_RETURNING = {"INSERT INTO players (key": "id", "INSERT INTO games (id,": "seq"}


def is_url(path: Any) -> bool:
    return isinstance(path, str) and path.startswith(URL_PREFIXES)


@functools.lru_cache(maxsize=1)
def errors() -> tuple[type[BaseException], ...]:
    """SQLite's errors, and psycopg's when it is installed."""
    try:
        return (sqlite3.Error, psycopg.Error)
    except ImportError:  # the extra is not installed: no PostgreSQL store was opened
        return (sqlite3.Error,)


def errors_of(path: Any) -> tuple[type[BaseException], ...]:
    """The errors of the database at ``path``: SQLite's for a file (psycopg is not
    imported for it: that import cost the first write of a service a tenth of a second),
    :func:`errors` for a URL."""
    return errors() if is_url(path) else (sqlite3.Error,)


def pg_ddl(statement: str) -> str:
    """A statement of the schema in PostgreSQL's types."""
    out = statement.replace("id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY")
    out = out.replace("seq INTEGER PRIMARY KEY", "seq BIGSERIAL PRIMARY KEY")
    out = re.sub(r"\bREAL\b", "DOUBLE PRECISION", out)
    return out.replace(") WITHOUT ROWID", ")")


class _Answer:
    """What the store reads of a cursor: rows, and the id an insert made."""

    def __init__(self, cursor, lastrowid: int | None = None):
        self.cursor = cursor
        self.lastrowid = lastrowid

    def fetchone(self):
        return self.cursor.fetchone() if self.cursor.description else None

    def fetchall(self):
        return self.cursor.fetchall() if self.cursor.description else []

    def __iter__(self):
        return iter(self.fetchall())


class Postgres:
    """A psycopg 3 connection that takes the store's SQL."""

    def __init__(self, url: str):
        self.url = url
        self.conn = psycopg.connect(url, autocommit=True)

    @staticmethod
    def _sql(statement: str) -> str:
        return statement.replace("%", "%%").replace("?", "%s")

    def execute(self, statement: str, params: Any = ()) -> _Answer:
        if statement == "BEGIN IMMEDIATE":  # writers take turns, as SQLite's do
            self.conn.execute("BEGIN")
            self.conn.execute("LOCK TABLE sodos_meta IN SHARE ROW EXCLUSIVE MODE")
            return _Answer(None)
        key = next((k for k in _RETURNING if statement.startswith(k)), None)
        if key is not None:
            returning = f"{self._sql(statement)} RETURNING {_RETURNING[key]}"
            cursor = self.conn.execute(returning, params)
            return _Answer(cursor, cursor.fetchone()[0])
        return _Answer(self.conn.execute(self._sql(statement), params))

    def executemany(self, statement: str, rows) -> None:
        rows = list(rows)
        if not rows:
            return
        with self.conn.cursor() as cursor:
            cursor.executemany(self._sql(statement), rows)
        if statement.startswith("INSERT INTO games (seq"):  # ids given: the sequence follows
            self.conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'seq'), "
                "(SELECT MAX(seq) FROM games))"
            )

    def close(self) -> None:
        self.conn.close()
