"""The store's database: one schema with a version, and the upgrades between versions.

Contract: :func:`connect` opens the SQLite file at a path as a sodos store, creating it
when the path is absent or an empty file, upgrading an older schema in one transaction,
and refusing — without writing a byte — a file that is not a sodos store (any other
file, another SQLite database) or one of a newer schema. The meta table holds the
format, the rating system and its parameters; :func:`check_system` refuses a store
opened with another system or other parameters, by name.

Durability (docs/ratings.md): WAL, ``synchronous = FULL`` by default — a game whose
answer was sent survives a crash of the process and a power loss; ``NORMAL`` survives
the crash of the process but may lose the last games acknowledged before a power loss
(the database stays whole either way).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.store import backend

FORMAT = "sodos-rating-store"
#: The schema's version; :data:`UPGRADES` brings each older one up to it.
VERSION = 5
SQLITE_MAGIC = b"SQLite format 3\x00"
SYNCHRONOUS = ("full", "normal", "extra")
#: How long a writer waits for another process's transaction (milliseconds).
BUSY_TIMEOUT_MS = 10_000

#: The schema of version 1.
SCHEMA_1 = (
    "CREATE TABLE sodos_schema (version INTEGER NOT NULL)",
    "CREATE TABLE sodos_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL,
        volatility REAL,
        start TEXT NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        last_game TEXT
    )""",
    """CREATE TABLE games (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        content TEXT NOT NULL,
        date TEXT NOT NULL,
        time TEXT,
        black INTEGER NOT NULL REFERENCES players(id),
        white INTEGER NOT NULL REFERENCES players(id),
        result REAL NOT NULL,
        handicap INTEGER NOT NULL,
        komi REAL,
        size INTEGER NOT NULL,
        void INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE history (
        player INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        rating_before REAL NOT NULL,
        deviation_before REAL,
        volatility_before REAL,
        rating REAL NOT NULL,
        deviation REAL,
        volatility REAL,
        PRIMARY KEY (player, seq)
    ) WITHOUT ROWID""",
    "CREATE INDEX history_by_game ON history(seq)",
)

#: version → the statements that bring it to the next one.
UPGRADES: dict[int, tuple[str, ...]] = {
    1: ("CREATE INDEX players_by_rating ON players(rating DESC, name)",),
    # calendar periods: each player's period and its start; each game's period and its
    # players' starts (what the other sees), to compute a player's open period again
    2: (
        "ALTER TABLE players ADD COLUMN period INTEGER",
        "ALTER TABLE players ADD COLUMN start_rating REAL",
        "ALTER TABLE players ADD COLUMN start_deviation REAL",
        "ALTER TABLE players ADD COLUMN start_volatility REAL",
        "ALTER TABLE games ADD COLUMN period INTEGER",
        "ALTER TABLE games ADD COLUMN black_start_rating REAL",
        "ALTER TABLE games ADD COLUMN black_start_deviation REAL",
        "ALTER TABLE games ADD COLUMN black_start_volatility REAL",
        "ALTER TABLE games ADD COLUMN white_start_rating REAL",
        "ALTER TABLE games ADD COLUMN white_start_deviation REAL",
        "ALTER TABLE games ADD COLUMN white_start_volatility REAL",
        "CREATE INDEX games_by_black ON games(black, period)",
        "CREATE INDEX games_by_white ON games(white, period)",
        "CREATE INDEX games_by_period ON games(period)",
    ),
    # GoR: each game's tournament (a batch posted at once), and the tournaments
    3: (
        "ALTER TABLE games ADD COLUMN event TEXT",
        """CREATE TABLE events (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            date TEXT NOT NULL,
            class TEXT NOT NULL DEFAULT ''
        )""",
    ),
    # WHR: every player's rating on each day he played (natural units), its variance
    4: (
        """CREATE TABLE player_days (
            player INTEGER NOT NULL,
            day INTEGER NOT NULL,
            r REAL NOT NULL,
            variance REAL NOT NULL,
            PRIMARY KEY (player, day)
        ) WITHOUT ROWID""",
    ),
}


def _refuse(path: Path, why: str) -> InputError:
    return InputError(f"not a sodos store ({why}): left as it is", source=str(path))


def _read_meta(path: Path) -> dict[str, str] | None:
    """The meta table of the file at ``path``, read without writing (None: no file, or
    an empty one); refuses a file that is not a sodos store."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InputError(f"cannot read the store: {error.strerror}", source=str(path)) from None
    if not head:
        return None
    if head != SQLITE_MAGIC:
        raise _refuse(path, "not an SQLite database")
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with sqlite3.connect(uri, uri=True) as probe:
            rows = probe.execute("SELECT key, value FROM sodos_meta").fetchall()
    except sqlite3.DatabaseError as error:
        raise _refuse(path, f"an SQLite database without the store's tables: {error}") from None
    meta = dict(rows)
    if meta.get("format") != FORMAT:
        raise _refuse(path, f"its format is {meta.get('format')!r}")
    return meta


def connect_postgres(url: str, system: str, parameters: Mapping[str, Any]):
    """The store in the PostgreSQL database at ``url`` (its tables created when the
    database has none of the store's), upgraded, checked as :func:`connect` checks."""
    try:
        db = backend.Postgres(url)
    except ImportError:
        raise ConfigError(
            "a PostgreSQL store needs psycopg 3: pip install 'sodos-plugin[postgres]'",
            where="store",
        ) from None
    except backend.errors() as error:
        raise InputError(f"the store cannot be opened: {error}", source=url) from None
    shown = url.split("@")[-1]  # never the password
    db.execute("BEGIN IMMEDIATE" if _pg_has_meta(db) else "BEGIN")
    try:
        if not _pg_has_meta(db):
            for statement in SCHEMA_1:
                db.execute(backend.pg_ddl(statement))
            db.execute("INSERT INTO sodos_schema VALUES (1)")
            db.executemany(
                "INSERT INTO sodos_meta VALUES (?, ?)", _meta(system, parameters).items()
            )
            _apply_upgrades(db, 1, backend.pg_ddl)
        else:
            meta = dict(db.execute("SELECT key, value FROM sodos_meta").fetchall())
            if meta.get("format") != FORMAT:
                raise InputError(f"not a sodos store (format {meta.get('format')!r})", source=shown)
            check_system(Path(shown), meta, system, parameters)
            (version,) = db.execute("SELECT version FROM sodos_schema").fetchone()
            if version > VERSION:
                raise InputError(
                    f"the store's schema is version {version}; this sodos reads up to {VERSION}",
                    source=shown,
                )
            _apply_upgrades(db, version, backend.pg_ddl)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        db.close()
        raise
    return db


def _pg_has_meta(db) -> bool:
    return db.execute("SELECT to_regclass('sodos_meta')").fetchone()[0] is not None


def _meta(system: str, parameters: Mapping[str, Any]) -> dict[str, str]:
    from sodos_plugin import __version__

    return {
        "format": FORMAT,
        "system": system,
        "parameters": json.dumps(dict(parameters), sort_keys=True),
        "created_by": __version__,
    }


def connect(
    path: Path | str,
    system: str,
    parameters: Mapping[str, Any],
    synchronous: str = "full",
    busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
) -> sqlite3.Connection:
    """The store at ``path`` (created when absent), upgraded to :data:`VERSION`, checked
    to rate with ``system`` and ``parameters``."""
    path = Path(path)
    if synchronous not in SYNCHRONOUS:
        raise ConfigError(
            f"synchronous must be one of {', '.join(SYNCHRONOUS)}, got {synchronous!r}",
            where="store.synchronous",
        )
    meta = _read_meta(path)
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        # SQLite's own page cache (2 MB) is kept: a larger one costs each commit time in
        # proportion to the pages it holds (SQLite walks it as a transaction ends), so
        # the cost of a game grew with the players; the pages of players a game meets
        # are read from the system's file cache (benchmarks/README.md, the live store)
        db.execute("PRAGMA foreign_keys = ON")
        if meta is None:
            _create(db, system, parameters)
        else:
            check_system(path, meta, system, parameters)
            _upgrade(db, path)
    except sqlite3.Error as error:
        raise InputError(f"the store cannot be opened: {error}", source=str(path)) from None
    return db


def reader(path: Path | str, busy_timeout: float = BUSY_TIMEOUT_MS / 1000) -> sqlite3.Connection:
    """A second connection to the store at ``path`` (opened by :func:`connect`), for
    reading: in WAL mode it reads what is committed, never what a transaction of the
    writing connection holds open (a game whose commit may still fail)."""
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as error:
        raise InputError(f"the store cannot be opened: {error}", source=str(path)) from None
    return db


def _create(db: sqlite3.Connection, system: str, parameters: Mapping[str, Any]) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sodos_meta'").fetchone():
            db.execute("ROLLBACK")  # another process created it first
            return
        for statement in SCHEMA_1:
            db.execute(statement)
        db.execute("INSERT INTO sodos_schema VALUES (1)")
        db.executemany("INSERT INTO sodos_meta VALUES (?, ?)", _meta(system, parameters).items())
        _apply_upgrades(db, 1)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _apply_upgrades(db, version: int, dialect=lambda statement: statement) -> None:
    while version < VERSION:
        for statement in UPGRADES[version]:
            db.execute(dialect(statement))
        version += 1
        db.execute("UPDATE sodos_schema SET version = ?", (version,))


def _upgrade(db: sqlite3.Connection, path: Path) -> None:
    (version,) = db.execute("SELECT version FROM sodos_schema").fetchone()
    if version == VERSION:
        return
    if version > VERSION:
        raise InputError(
            f"the store's schema is version {version}; this sodos reads up to {VERSION}",
            source=str(path),
        )
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("SELECT version FROM sodos_schema").fetchone()
        _apply_upgrades(db, version)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def check_system(
    path: Path, meta: Mapping[str, str], system: str, parameters: Mapping[str, Any]
) -> None:
    """Refuse a store made with another system or other parameters (by name)."""
    if meta.get("system", "").lower() != system.lower():
        raise ConfigError(
            f"the store at {path} rates with {meta.get('system')!r}, not {system!r}",
            where="store.rating",
        )
    saved = json.loads(meta.get("parameters", "{}"))
    for key, value in sorted(dict(parameters).items()):
        if saved.get(key) != value:
            raise ConfigError(
                f"the store at {path} was made with {key} = {saved.get(key)!r}, not "
                f"{value!r}: its ratings are of those parameters (make another store)",
                where=f"store.parameters.{key}",
            )
    extra = sorted(set(saved) - set(parameters))
    if extra:
        raise ConfigError(
            f"the store at {path} has parameters this sodos does not know: {', '.join(extra)}",
            where="store.parameters",
        )
