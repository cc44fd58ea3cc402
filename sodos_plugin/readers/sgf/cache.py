"""The ingest cache: what SGF ingest extracted, kept in one SQLite file (stdlib sqlite3).

Contract: :class:`Cache` maps a unit (a record file, or a member of an archive) to its
:class:`~sodos_plugin.readers.sgf.history.HistoryOutcome`, keyed by the path, its size
and its modification time (nanoseconds), and by everything else that decides what
ingest extracts (the sodos version, the cache format, the fallback encoding and the
limits). A file whose size or time changed is read again; a second run over an archive
with 1 % new files reads only those.

It also keeps, per set of paths given, the history's assembly of the units seen before
(:class:`~sodos_plugin.readers.sgf.history.Assembly`) in parts (:meth:`Cache.parts`,
:meth:`Cache.put_part`), each part with the keys of the units it covers: when those
units come first, unchanged and in the same order (an archive that grows by date or
number), a run reads and assembles only the units after them.

Safe:

* **concurrent runs** — WAL journal, a busy timeout, and one short write transaction at
  the end of a run; a run that cannot write in time says so and goes on without it;
* **damage** — a file SQLite cannot open, read or write (``DatabaseError``, for the
  damage SQLite meets; a whole-file check on every run would cost more than reading
  the units it saves), a wrong schema, or a value whose checksum does not match
  is never trusted: the cache is deleted and rebuilt (said on stderr through
  :attr:`warnings`), or the one entry is read again, or the parts stop before the
  damaged one;
* **strangers** — values are JSON, never pickles: a cache file cannot run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import sqlite3
from array import array
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from sodos_plugin import __version__
from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf.history import Extra, HistoryOutcome
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.results import ParsedResult

FORMAT = 2  # bumped when what ingest extracts changes: older entries are read again
FEW_KEYS = 5000
BUSY_TIMEOUT_MS = 5000
_RESULTS = {r.value: r for r in Result}
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS entries (path TEXT NOT NULL, size INTEGER NOT NULL, "
    "mtime INTEGER NOT NULL, context TEXT NOT NULL, value TEXT NOT NULL, "
    "digest TEXT NOT NULL, PRIMARY KEY (path, context))",
    "CREATE TABLE IF NOT EXISTS parts (name TEXT NOT NULL, context TEXT NOT NULL, "
    "start INTEGER NOT NULL, count INTEGER NOT NULL, units TEXT NOT NULL, "
    "value TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (name, context, start))",
)


def default_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sodos" / "history.sqlite3"


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def encode(result) -> str:
    """A HistoryOutcome as JSON text."""
    outcome = result.outcome
    records = []
    for r in outcome.records:
        p = r.result
        margin = None if p.margin is None else str(p.margin)
        records.append(
            [
                r.source, r.black, r.white, r.black_rank, r.white_rank,
                [p.result.value, p.by_default, p.how, margin, p.note],
                r.result_text, r.round, r.round_text, r.event, r.date, r.handicap, list(r.notes),
            ]
        )  # fmt: skip
    extras = [list(e) for e in result.extras]
    return json.dumps([outcome.source, outcome.error, outcome.fast, records, extras])


def decode(text: str):
    """The inverse of :func:`encode`; any malformed value raises ValueError."""
    try:
        source, error, fast, raw_records, raw_extras = json.loads(text)
        records = []
        for (
            src, black, white, br, wr, (res, by_default, how, margin, note),
            result_text, rnd, round_text, event, date, handicap, notes,
        ) in raw_records:  # fmt: skip
            parsed = ParsedResult(
                _RESULTS[res],
                bool(by_default),
                how,
                None if margin is None else Fraction(margin),
                note,
            )
            records.append(
                Record(
                    src,
                    black,
                    white,
                    br,
                    wr,
                    parsed,
                    result_text,
                    rnd,
                    round_text,
                    event,
                    date,
                    int(handicap),
                    tuple(notes),
                )  # fmt: skip
            )
        extras = tuple(Extra(k, int(s), str(f)) for k, s, f in raw_extras)
    except (TypeError, KeyError, ValueError, ZeroDivisionError) as problem:
        raise ValueError(f"malformed cache value: {problem}") from None
    if len(extras) != len(records):
        raise ValueError("malformed cache value: extras and records differ in number")
    return HistoryOutcome(FileOutcome(source, tuple(records), error, bool(fast)), extras)


class Cache:
    """One cache file. ``context`` is everything besides the file that decides ingest."""

    def __init__(self, path: Path | str, context: str):
        self.path = Path(path)
        self.context = f"{__version__}/{FORMAT}/{context}"
        self.warnings: list[str] = []
        self.hits = 0
        self.misses = 0
        self.db: sqlite3.Connection | None = None
        self._stats: dict[str, tuple[int, int]] = {}
        self._archives: dict[str, tuple[int, int] | None] = {}
        try:
            self.db = self._open()
        except (sqlite3.Error, OSError) as error:
            self._rebuild(f"unreadable ({error})")

    # -- opening, checking, rebuilding ---------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA journal_mode = WAL")
            # a cache: a power cut may lose the last run's writes, never the file
            db.execute("PRAGMA synchronous = NORMAL")
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (str(FORMAT),))
            (fmt,) = db.execute("SELECT v FROM meta WHERE k = 'format'").fetchone()
            if fmt != str(FORMAT):
                raise sqlite3.DatabaseError(f"format {fmt!r}, expected {FORMAT}")
            columns = [r[1] for r in db.execute("PRAGMA table_info(entries)")]
            if columns != ["path", "size", "mtime", "context", "value", "digest"]:
                raise sqlite3.DatabaseError("unexpected schema")
        except BaseException:
            db.close()
            raise
        return db

    def _rebuild(self, why: str) -> None:
        self.warnings.append(f"cache {self.path}: {why}; rebuilt (every file is read again)")
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError, IsADirectoryError, PermissionError):
                os.unlink(f"{self.path}{suffix}")
        try:
            self.db = self._open()
        except (sqlite3.Error, OSError) as error:
            self.warnings.append(f"cache {self.path}: cannot be used ({error}); running without it")
            self.db = None

    # -- keys ------------------------------------------------------------------------------

    def keys_for(self, units: Sequence) -> list[tuple[str, int, int] | None]:
        """(path, size, mtime_ns) of each unit: of the file, or of its archive for a member
        (one ``stat`` per file: the floor of a second run); None when it cannot be read."""
        stat, out = os.stat, []
        append = out.append
        for unit in units:
            if isinstance(unit, str):
                try:
                    st = stat(unit)
                except OSError:
                    append(None)
                    continue
                append((unit, st.st_size, st.st_mtime_ns))
            else:
                append(self._member_key(unit))
        return out

    def _member_key(self, unit) -> tuple[str, int, int] | None:
        archive, sep, _ = unit.source.partition("!")
        if not sep:
            return None
        if archive not in self._archives:
            try:
                st = os.stat(archive)
                self._archives[archive] = (st.st_size, st.st_mtime_ns)
            except OSError:
                self._archives[archive] = None
        stat = self._archives[archive]
        return None if stat is None else (unit.source, *stat)

    # -- reading and writing ---------------------------------------------------------------

    def get_many(self, keys: Sequence[tuple[str, int, int]]) -> dict:
        found: dict = {}
        if self.db is None or not keys:
            return found
        wanted = {k[0]: k for k in keys}
        try:
            if len(keys) > FEW_KEYS:  # one pass over the table
                rows = self.db.execute(
                    "SELECT path, size, mtime, value, digest FROM entries WHERE context = ?",
                    (self.context,),
                )
            else:  # a few (the new files of a resumed run): by the primary key
                paths = list(wanted)
                rows = itertools.chain.from_iterable(
                    self.db.execute(
                        "SELECT path, size, mtime, value, digest FROM entries WHERE context = ?"
                        f" AND path IN ({','.join('?' * len(chunk))})",
                        (self.context, *chunk),
                    )
                    for chunk in (paths[i : i + 500] for i in range(0, len(paths), 500))
                )
            for path, size, mtime, value, digest in rows:
                key = wanted.get(path)
                if key is None or key[1] != size or key[2] != mtime:
                    continue
                if _digest(value) != digest:
                    continue  # a damaged value: read the file again
                try:
                    found[key] = decode(value)
                except ValueError:
                    continue
        except sqlite3.DatabaseError as error:
            self._rebuild(f"damaged ({error})")
            return {}
        self.hits += len(found)
        self.misses += len(keys) - len(found)
        return found

    def put_many(self, items: Iterable[tuple[tuple[str, int, int], Any]]) -> None:
        if self.db is None:
            return
        rows = []
        for (path, size, mtime), result in items:
            value = encode(result)
            rows.append((path, size, mtime, self.context, value, _digest(value)))
        if rows:
            self._write(
                lambda db: db.executemany(
                    "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?)", rows
                )
            )

    def _write(self, change) -> None:
        """``change(db)`` in one short write transaction; a cache locked beyond the
        timeout is not updated (said), a damaged one rebuilt."""
        assert self.db is not None
        try:
            self.db.execute("BEGIN IMMEDIATE")
            change(self.db)
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:  # locked by another run beyond the timeout
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            self.warnings.append(f"cache {self.path}: not updated ({error})")
        except sqlite3.DatabaseError as error:
            self._rebuild(f"damaged while writing ({error})")

    # -- an assembly of units in parts, resumed by a later run ---------------------------

    @staticmethod
    def _units_digest(keys: Sequence[tuple[str, int, int]]) -> str:
        """The units' paths, sizes and times, in order (a part covers exactly these)."""
        paths, sizes, times = zip(*keys) if keys else ((), (), ())
        digest = hashlib.blake2b(digest_size=16)
        digest.update(json.dumps(paths).encode("utf-8", "surrogatepass"))
        try:  # the numbers as 64-bit integers: a third of the time of their JSON
            digest.update(array("q", sizes).tobytes() + array("q", times).tobytes())
        except OverflowError:
            digest.update(json.dumps([sizes, times]).encode())
        return digest.hexdigest()

    def parts(self, name: str, keys: Sequence[tuple[str, int, int] | None]):
        """``(count, states)``: the parts saved under ``name`` by :meth:`put_part` that
        cover exactly ``keys[:count]`` (same paths, sizes and times, same order), in
        order; ``(0, [])`` when none does. A damaged part is never trusted: the parts
        stop before it."""
        count, states = 0, []
        if self.db is None:
            return count, states
        try:
            rows = self.db.execute(
                "SELECT start, count, units, value, digest FROM parts "
                "WHERE name = ? AND context = ? ORDER BY start",
                (name, self.context),
            ).fetchall()
        except sqlite3.DatabaseError as error:
            self._rebuild(f"damaged ({error})")
            return count, states
        for start, size, units, value, digest in rows:
            end = start + size
            if start != count or not size > 0 or end > len(keys) or None in keys[start:end]:
                break
            if self._units_digest(keys[start:end]) != units or _digest(value) != digest:
                break
            try:
                states.append(json.loads(value))
            except ValueError:
                break
            count = end
        return count, states

    def put_part(self, name: str, keys: Sequence[tuple[str, int, int]], start: int, state) -> None:
        """Save ``state``, what the units ``keys[start:]`` added to the parts before
        ``start`` (the parts from ``start`` on are replaced)."""
        if self.db is None or start >= len(keys):
            return
        value = json.dumps(state, separators=(",", ":"))
        units = self._units_digest(keys[start:])
        row = (name, self.context, start, len(keys) - start, units, value, _digest(value))

        def replace(db: sqlite3.Connection) -> None:
            db.execute(
                "DELETE FROM parts WHERE name = ? AND context = ? AND start >= ?",
                (name, self.context, start),
            )
            db.execute("INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, ?)", row)

        self._write(replace)

    def close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
