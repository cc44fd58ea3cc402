"""The ingest cache: what SGF ingest extracted, kept in one SQLite file (stdlib sqlite3).

Contract: :class:`Cache` maps a unit (a record file, or a member of an archive) to its
:class:`~sodos_plugin.readers.sgf.history.HistoryOutcome`, keyed by the file's resolved
absolute path, its size, its modification and status-change times (nanoseconds) and
its inode (:class:`Key`), and by everything else that decides what ingest extracts
(the sodos version, the cache format, the fallback encoding and the limits). A file
whose size, times or inode changed is read again; the same relative path from another
folder is another file; a second run over an archive with 1 % new files reads only
those. What a key cannot see (docs/ratings.md, "The cache"): a file rewritten in place
with the same size within the same nanosecond of both times.

It also keeps, per set of paths given, the history's assembly of the units seen before
(:class:`~sodos_plugin.readers.sgf.history.Assembly`) in parts (:meth:`Cache.parts`,
:meth:`Cache.put_part`), each part with the keys of the units it covers: when those
units come first, unchanged and in the same order (an archive that grows by date or
number), a run reads and assembles only the units after them.

Safe:

* **only its own file** — the cache is a regular file that sodos created: an SQLite
  database whose header carries :data:`APPLICATION_ID` (written when sodos creates it,
  in a temporary file linked into place whole). Anything else at ``cache.path`` — a
  device, FIFO, socket, directory, an empty or text file, another program's database,
  a database without these tables — is never opened for writing, altered or deleted:
  one warning names the path and why, and the run goes on without the cache. A path
  that cannot be used at all (under a regular file, a symlink loop, a name too long,
  no permission) is the same: one warning, no cache;
* **concurrent runs** — WAL journal, a busy timeout, and one short write transaction at
  the end of a run; a run that cannot write in time says so and goes on without it;
* **damage** — in its own file, damage SQLite meets (``DatabaseError``), a wrong schema
  or an older format means the file is deleted and rebuilt (said on stderr through
  :attr:`Cache.warnings`); a value whose checksum does not match, or that does not
  decode to values of the right types and ranges (:func:`decode`: finite numbers,
  handicaps 0..9, known results ...), is never trusted: the entry is read again (one
  warning for the run), or the parts stop before the damaged one;
* **strangers** — values are JSON, never pickles: a cache file cannot run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import os
import sqlite3
import stat
from array import array
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from sodos_plugin import __version__
from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf.history import Extra, HistoryOutcome
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.results import ParsedResult

#: The cache format (SQLite's ``user_version``): another one is rebuilt. Bumped also
#: when what ingest extracts changes: older entries are read again.
FORMAT = 4
#: SQLite's ``application_id`` of a sodos cache ("SoDo"): the mark of the cache's own file.
APPLICATION_ID = 0x536F446F
FEW_KEYS = 5000
BUSY_TIMEOUT_MS = 5000
_SQLITE_HEADER = b"SQLite format 3\x00"
_RESULTS = {r.value: r for r in Result}
_TABLES = {
    "entries": ["path", "size", "mtime", "ctime", "inode", "context", "value", "digest"],
    "parts": ["name", "context", "start", "count", "units", "value", "digest"],
}
_SCHEMA = (
    "CREATE TABLE entries (path TEXT NOT NULL, size INTEGER NOT NULL, "
    "mtime INTEGER NOT NULL, ctime INTEGER NOT NULL, inode INTEGER NOT NULL, "
    "context TEXT NOT NULL, value TEXT NOT NULL, digest TEXT NOT NULL, "
    "PRIMARY KEY (path, context))",
    "CREATE TABLE parts (name TEXT NOT NULL, context TEXT NOT NULL, "
    "start INTEGER NOT NULL, count INTEGER NOT NULL, units TEXT NOT NULL, "
    "value TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (name, context, start))",
)
#: The tables of format 1 (sodos before :data:`APPLICATION_ID`): that file is ours too.
_FORMAT_1 = {
    "meta": ["k", "v"],
    "entries": ["path", "size", "mtime", "context", "value", "digest"],
    "parts": ["name", "context", "start", "count", "units", "value", "digest"],
}
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)
#: Errors of the file system, of SQLite and of values that cannot be stored (a path
#: with bytes that are not UTF-8): the cache is left, the run goes on.
_TROUBLE = (sqlite3.Error, OSError, UnicodeError, ValueError, OverflowError)


class Key(NamedTuple):
    """What identifies a unit's bytes: its resolved absolute ``path`` (an archive's, with
    ``!member``), the file's (or archive's) size, ``mtime`` and ``ctime`` in nanoseconds
    and inode; ``source``: the unit as given (its records' sources start with it)."""

    path: str
    size: int
    mtime: int
    ctime: int
    inode: int
    source: str


class Refused(Exception):
    """``cache.path`` is not a file this cache may use (the message says why)."""


def default_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sodos" / "history.sqlite3"


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


# -- values ------------------------------------------------------------------------------


def encode(result, source: str) -> str:
    """A HistoryOutcome of the unit ``source`` as JSON text (records' sources saved as
    what follows ``source``: the value does not depend on how the path was given)."""
    outcome = result.outcome
    records = []
    for r in outcome.records:
        if not r.source.startswith(source):
            raise ValueError(f"a record's source {r.source!r} is not of {source!r}")
        p = r.result
        margin = None if p.margin is None else str(p.margin)
        records.append(
            [
                r.source[len(source) :], r.black, r.white, r.black_rank, r.white_rank,
                [p.result.value, p.by_default, p.how, margin, p.note],
                r.result_text, r.round, r.round_text, r.event, r.date, r.handicap, list(r.notes),
            ]
        )  # fmt: skip
    extras = [list(e) for e in result.extras]
    return json.dumps([outcome.error, outcome.fast, records, extras], allow_nan=False)


def _no_constant(name: str):
    raise ValueError(f"{name} is no value of a cache entry")


def _text(value: Any) -> bool:
    return type(value) is str


def _maybe_text(value: Any) -> bool:
    return value is None or type(value) is str


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _komi(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and abs(value) < 1000


def _checked(checks: Iterable[tuple[bool, str]]) -> None:
    for good, what in checks:
        if not good:
            raise ValueError(what)


def decode(text: str, source: str):
    """The inverse of :func:`encode`; a value of a wrong type or out of range raises
    ValueError (every field checked: text is text, numbers finite and in their ranges,
    results known, as ingest makes them)."""
    try:
        error, fast, raw_records, raw_extras = json.loads(text, parse_constant=_no_constant)
        _checked([(_maybe_text(error), "error"), (type(fast) is bool, "fast")])
        records = []
        for (
            suffix, black, white, br, wr, (res, by_default, how, margin, note),
            result_text, rnd, round_text, event, date, handicap, notes,
        ) in raw_records:  # fmt: skip
            _checked(
                [
                    (_text(suffix) and _text(black) and _text(white), "source or names"),
                    (bool(black) and bool(white), "an empty name"),
                    (_maybe_text(br) and _maybe_text(wr), "ranks"),
                    (type(res) is str and res in _RESULTS, "result"),
                    (type(by_default) is bool, "by_default"),
                    (_maybe_text(how) and _maybe_text(note), "result how or note"),
                    (margin is None or (_text(margin) and len(margin) <= 40), "margin"),
                    (_maybe_text(result_text) and _maybe_text(round_text), "texts"),
                    (rnd is None or _whole(rnd, -999_999, 999_999), "round"),
                    (_maybe_text(event) and _maybe_text(date), "event or date"),
                    (_whole(handicap, 0, 9), "handicap"),
                    (type(notes) is list and all(map(_text, notes)), "notes"),
                ]
            )
            parsed = ParsedResult(
                _RESULTS[res],
                by_default,
                how,
                None if margin is None else Fraction(margin),
                note,
            )
            records.append(
                Record(
                    source + suffix,
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
                    handicap,
                    tuple(notes),
                )  # fmt: skip
            )
        extras = []
        for komi, size, fingerprint in raw_extras:
            _checked(
                [
                    (komi is None or _komi(komi), "komi"),
                    (_whole(size, 0, 999), "size"),
                    (_text(fingerprint), "fingerprint"),
                ]
            )
            extras.append(Extra(None if komi is None else float(komi), size, fingerprint))
    except (TypeError, KeyError, ValueError, ZeroDivisionError, RecursionError) as problem:
        raise ValueError(f"malformed cache value: {problem}") from None
    if len(extras) != len(records):
        raise ValueError("malformed cache value: extras and records differ in number")
    return HistoryOutcome(FileOutcome(source, tuple(records), error, fast), tuple(extras))


# -- the file: ours, or refused ------------------------------------------------------------


def _uri(path: str, mode: str) -> str:
    return f"file:{quote(os.fsencode(path))}?mode={mode}"


def _tables(db: sqlite3.Connection) -> dict[str, list[str]]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: [r[1] for r in db.execute(f'PRAGMA table_info("{name}")')] for name in names}


def _format_1(path: str) -> bool:
    """True when ``path`` is a cache of format 1 (read-only, immutable: not altered)."""
    try:
        db = sqlite3.connect(_uri(path, "ro") + "&immutable=1", uri=True)
    except sqlite3.Error:
        return False
    try:
        if _tables(db) != _FORMAT_1:
            return False
        return db.execute("SELECT v FROM meta WHERE k = 'format'").fetchall() == [("1",)]
    except sqlite3.Error:
        return False
    finally:
        db.close()


def inspect(path: str) -> os.stat_result | None:
    """The status of the cache's own file at ``path`` (resolved), None when there is none
    yet; :class:`Refused` (why) when something else is there or the path cannot be used."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise Refused(f"cannot be used ({error.strerror or error})") from None
    return _own(path, st)


def _own(path: str, st: os.stat_result) -> os.stat_result:
    """``st`` when the regular file at ``path`` is a sodos cache, else :class:`Refused`."""
    for test, kind in _KINDS:
        if test(st.st_mode):
            raise Refused(f"{kind}, not a cache file")
    if not stat.S_ISREG(st.st_mode):
        raise Refused("not a regular file")
    try:  # never blocks (O_NONBLOCK: a FIFO put in its place meanwhile)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise Refused(f"cannot be read ({error.strerror or error})") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise Refused("replaced while it was checked")
        header = os.read(fd, 100)
    finally:
        os.close(fd)
    if not header:
        raise Refused("an empty file, not a sodos cache")
    if not header.startswith(_SQLITE_HEADER) or len(header) < 100:
        raise Refused("not an SQLite database, not a sodos cache")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id == APPLICATION_ID:
        return now
    if application_id == 0 and _format_1(path):
        return now
    if application_id:
        raise Refused(f"another program's SQLite database (application_id {application_id:#x})")
    raise Refused("an SQLite database that is not a sodos cache")


def _create(path: str) -> None:
    """A new cache at ``path``: made whole in a temporary file beside it, then linked
    into place (never over a file: another run that made one first wins)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.new")
    _remove_regular(temporary)  # left by a run that was killed
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    try:
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {FORMAT}")
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute("PRAGMA journal_mode = WAL")
        finally:
            db.close()
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another run made it first: that one is used (and checked)
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.rename(temporary, path)
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            _remove_regular(temporary + suffix)


def _remove_regular(path: str, inode: tuple[int, int] | None = None) -> None:
    """Delete ``path`` when it is a regular file (and, with ``inode``, that very file)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        return
    if inode is not None and (st.st_dev, st.st_ino) != inode:
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


class Cache:
    """One cache file. ``context`` is everything besides the file that decides ingest.

    Never raises: a cache that cannot be used leaves one line in :attr:`warnings` and
    acts as an empty cache that keeps nothing."""

    def __init__(self, path: Path | str, context: str):
        self.path = Path(path)
        self.context = f"{__version__}/{FORMAT}/{context}"
        self.warnings: list[str] = []
        self.hits = 0
        self.misses = 0
        self.db: sqlite3.Connection | None = None
        self._file = ""  # the resolved path of the open file
        self._inode: tuple[int, int] | None = None  # its device and inode
        self._rebuilt = False
        self._said_malformed = False
        self._said_locked = False
        self._dirs: dict[str, str] = {}
        self._archives: dict[str, tuple[str, int, int, int, int] | None] = {}
        try:
            self._file = os.path.realpath(os.fspath(self.path))
            try:
                self.db = self._open()
            except sqlite3.DatabaseError as error:  # its own file (inode known), damaged
                if isinstance(error, sqlite3.OperationalError) or self._inode is None:
                    raise
                self.db = self._made_anew(f"damaged ({_why(error)})", self._inode)
        except Refused as why:
            self._leave(str(why))
        except _TROUBLE as error:
            self._leave(f"cannot be used ({_why(error)})")

    # -- opening, checking, rebuilding ---------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """A connection to the cache's own file (made when there is none): Refused when the
        file is not one; an older format or a wrong schema of its own is rebuilt."""
        st = inspect(self._file)
        if st is None:
            _create(self._file)
            st = inspect(self._file)
            if st is None:
                raise Refused("vanished as it was made")
        self._inode = (st.st_dev, st.st_ino)
        db = sqlite3.connect(
            _uri(self._file, "rw"), uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
        )
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            (application_id,) = db.execute("PRAGMA application_id").fetchone()
            (version,) = db.execute("PRAGMA user_version").fetchone()
            stale = application_id != APPLICATION_ID or version != FORMAT
            if not stale and _tables(db) != _TABLES:
                raise sqlite3.DatabaseError("unexpected schema")
        except BaseException:
            db.close()
            raise
        if stale:  # format 1, or another format of ours: made anew
            db.close()
            return self._made_anew("an older format", (st.st_dev, st.st_ino))
        # a cache: a power cut may lose the last run's writes, never the file
        db.execute("PRAGMA synchronous = NORMAL")
        return db

    def _made_anew(self, why: str, inode: tuple[int, int] | None) -> sqlite3.Connection:
        if self._rebuilt:
            raise Refused(f"{why}, again after it was rebuilt")
        self._rebuilt = True
        self.warnings.append(f"cache {self.path}: {why}; rebuilt (every file is read again)")
        for suffix in ("-wal", "-shm", "-journal", ""):
            _remove_regular(self._file + suffix, inode if not suffix else None)
        return self._open()

    def _leave(self, why: str) -> None:
        """Go on without the cache (said once)."""
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
        where = str(self.path)
        if self._file and self._file != os.path.abspath(self.path):
            where += f" ({self._file})"
        self.warnings.append(f"cache {where}: {why}; running without the cache")

    def _trouble(self, error: BaseException, doing: str) -> None:
        """An error while using the open cache: damage SQLite finds in its own file is
        rebuilt; anything else (a disk error, no space, a lock) leaves the cache."""
        if self.db is None:
            return
        damaged = isinstance(error, sqlite3.DatabaseError) and not isinstance(
            error, sqlite3.OperationalError
        )
        if damaged and not self._rebuilt:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
            try:
                self.db = self._made_anew(f"damaged ({_why(error)})", self._inode)
                return
            except Refused as why:
                self._leave(str(why))
            except _TROUBLE as again:
                self._leave(f"cannot be used ({_why(again)})")
            return
        self._leave(f"{doing} failed ({_why(error)})")

    # -- keys ------------------------------------------------------------------------------

    def _resolved(self, path: str) -> str:
        """``path`` absolute, its folders' symbolic links resolved (once per folder), as
        text SQLite stores (bytes that are not UTF-8 as ``\\xff``: the inode tells
        apart the one name that could look the same)."""
        # (the folder is the text before the last separator, as the walk built it: a
        # string operation, not os.path.split's; the same folder resolves the same)
        cut = path.rfind(os.sep)
        folder, name = (path[:cut] or os.sep, path[cut + 1 :]) if cut >= 0 else ("", path)
        real = self._dirs.get(folder)
        if real is None:
            real = self._dirs[folder] = os.path.realpath(folder or os.curdir)
        whole = real + name if real.endswith(os.sep) else real + os.sep + name
        if whole.isascii():
            return whole
        try:
            whole.encode("utf-8")
        except UnicodeEncodeError:
            whole = os.fsencode(whole).decode("utf-8", "backslashreplace")
        return whole

    def keys_for(self, units: Sequence) -> list[Key | None]:
        """The :class:`Key` of each unit: of the file, or of its archive for a member (one
        ``stat`` per file: the floor of a second run); None when it cannot be read, and
        for every unit when the cache is not used."""
        if self.db is None:
            return [None] * len(units)
        try:
            return self._keys(units)
        except _TROUBLE as error:
            self._trouble(error, "reading the files' status")
            return [None] * len(units)

    def _keys(self, units: Sequence) -> list[Key | None]:
        out: list[Key | None] = []
        append, stat_of, resolved = out.append, os.stat, self._resolved
        for unit in units:
            if isinstance(unit, str):
                try:
                    st = stat_of(unit)
                except OSError:
                    append(None)
                    continue
                append(
                    Key(resolved(unit), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, unit)
                )
            else:
                append(self._member_key(unit))
        return out

    def _member_key(self, unit) -> Key | None:
        archive, sep, member = unit.source.partition("!")
        if not sep:
            return None
        if archive not in self._archives:
            try:
                st = os.stat(archive)
                self._archives[archive] = (
                    self._resolved(archive), st.st_size, st.st_mtime_ns, st.st_ctime_ns,
                    st.st_ino,
                )  # fmt: skip
            except OSError:
                self._archives[archive] = None
        known = self._archives[archive]
        if known is None:
            return None
        path, size, mtime, ctime, inode = known
        return Key(f"{path}!{member}", size, mtime, ctime, inode, unit.source)

    # -- reading and writing ---------------------------------------------------------------

    def get_many(self, keys: Sequence[Key]) -> dict:
        found: dict = {}
        if self.db is None or not keys:
            return found
        wanted: dict[str, list[Key]] = {}
        for key in keys:
            wanted.setdefault(key.path, []).append(key)
        select = "SELECT path, size, mtime, ctime, inode, value, digest FROM entries"
        try:
            if len(wanted) > FEW_KEYS:  # one pass over the table
                rows = self.db.execute(f"{select} WHERE context = ?", (self.context,))
            else:  # a few (the new files of a resumed run): by the primary key
                paths = list(wanted)
                rows = itertools.chain.from_iterable(
                    self.db.execute(
                        f"{select} WHERE context = ? AND path IN ({','.join('?' * len(chunk))})",
                        (self.context, *chunk),
                    )
                    for chunk in (paths[i : i + 500] for i in range(0, len(paths), 500))
                )
            for path, size, mtime, ctime, inode, value, digest in rows:
                for key in wanted.get(path, ()):
                    if (key.size, key.mtime, key.ctime, key.inode) != (size, mtime, ctime, inode):
                        continue
                    if type(value) is not str or _digest(value) != digest:
                        continue  # a damaged value: read the file again
                    try:
                        found[key] = decode(value, key.source)
                    except ValueError as problem:
                        self.malformed(str(problem))
        except _TROUBLE as error:
            self._trouble(error, "reading")
            return {}
        self.hits += len(found)
        self.misses += len(keys) - len(found)
        return found

    def put_many(self, items: Iterable[tuple[Key, Any]]) -> None:
        if self.db is None:
            return
        rows = []
        for key, result in items:
            try:
                value = encode(result, key.source)
            except (ValueError, TypeError):
                continue  # not kept: read again next time
            rows.append(
                (key.path, key.size, key.mtime, key.ctime, key.inode, self.context, value)
                + (_digest(value),)
            )
        if rows:
            self._write(
                lambda db: db.executemany(
                    "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows
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
        except sqlite3.OperationalError as error:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            text = str(error)
            if "locked" not in text and "busy" not in text:  # read-only, disk full, I/O
                self._trouble(error, "writing")
            elif not self._said_locked:  # locked by another run beyond the timeout
                self._said_locked = True
                self.warnings.append(f"cache {self.path}: not updated ({error})")
        except _TROUBLE as error:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            self._trouble(error, "writing")

    # -- an assembly of units in parts, resumed by a later run ---------------------------

    @staticmethod
    def _units_digest(keys: Sequence[Key]) -> str:
        """The units' keys, in order, with their sources as given (a part covers exactly
        these files, named as this run names them)."""
        columns = tuple(zip(*keys)) if keys else ((),) * len(Key._fields)
        paths, sizes, mtimes, ctimes, inodes, sources = columns
        digest = hashlib.blake2b(digest_size=16)
        digest.update(json.dumps([paths, sources]).encode("utf-8", "surrogatepass"))
        try:  # the numbers as 64-bit integers: a third of the time of their JSON
            for numbers in (sizes, mtimes, ctimes, inodes):
                digest.update(array("q", numbers).tobytes())
        except OverflowError:
            digest.update(json.dumps([sizes, mtimes, ctimes, inodes]).encode())
        return digest.hexdigest()

    def parts(self, name: str, keys: Sequence[Key | None]):
        """``(count, states)``: the parts saved under ``name`` by :meth:`put_part` that
        cover exactly ``keys[:count]`` (same files, unchanged, named the same, in the
        same order), in order; ``(0, [])`` when none does. A damaged part is never
        trusted: the parts stop before it (the assembly checks what a part holds)."""
        count, states = 0, []
        if self.db is None:
            return count, states
        try:
            rows = self.db.execute(
                "SELECT start, count, units, value, digest FROM parts "
                "WHERE name = ? AND context = ? ORDER BY start",
                (name, self.context),
            ).fetchall()
            for start, size, units, value, digest in rows:
                if type(start) is not int or type(size) is not int or type(value) is not str:
                    break
                end = start + size
                if start != count or not size > 0 or end > len(keys) or None in keys[start:end]:
                    break
                if self._units_digest(keys[start:end]) != units or _digest(value) != digest:
                    break
                try:
                    state = json.loads(value, parse_constant=_no_constant)
                except (ValueError, RecursionError) as problem:
                    self.malformed(f"malformed saved assembly: {problem}")
                    break
                if type(state) is not dict:
                    self.malformed("malformed saved assembly: not an object")
                    break
                states.append(state)
                count = end
        except _TROUBLE as error:
            self._trouble(error, "reading")
            return 0, []
        return count, states

    def malformed(self, what: str) -> None:
        """A saved value (an entry, or a part of an assembly) under a matching checksum
        that is not what sodos saves (``what``): not used, and said once per run."""
        if not self._said_malformed:
            self._said_malformed = True
            self.warnings.append(
                f"cache {self.path}: a saved value is not what sodos saves ({what}); "
                "not used (what it held is read again)"
            )

    def put_part(self, name: str, keys: Sequence[Key], start: int, state) -> None:
        """Save ``state``, what the units ``keys[start:]`` added to the parts before
        ``start`` (the parts from ``start`` on are replaced)."""
        if self.db is None or start >= len(keys):
            return
        try:
            value = json.dumps(state, separators=(",", ":"), allow_nan=False)
            units = self._units_digest(keys[start:])
            row = (name, self.context, start, len(keys) - start, units, value, _digest(value))
        except _TROUBLE:
            return  # not kept: assembled again next time

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


def _why(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
