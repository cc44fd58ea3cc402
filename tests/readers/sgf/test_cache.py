"""The ingest cache uses only its own file, keys files by what they are, and trusts no
value it reads back (docs/ratings.md, "The cache").

The runs with a cache path that is not the cache's own file, or a value that blows up,
are the command in a child process with a memory limit and a timeout (tests/child.py): a
cache path that blocks (a FIFO) fails the test instead of taking the suite down. The
runs on the cache's own file are the command in this process (the ``sodos`` fixture).
As root, no test touches a device outside its temporary folder: the character device is
made there with ``mknod`` (a copy of the null device's numbers), or the check runs on a
faked file status."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
from pathlib import Path

import pytest
from child import clean, cli
from conftest import builtin_host

from sodos_plugin.readers.sgf import cache as sgf_cache

RECORD = "(;GM[1]FF[4]SZ[19]KM[{km}]PB[{b}]PW[{w}]BR[3k]WR[{wr}]DT[{dt}]RE[{re}];B[pd];W[dd])"


def write(folder: Path, name: str, b="Ann", w="Bob", wr="3k", dt="2024-03-02", re="B+R", km=6.5):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(RECORD.format(b=b, w=w, wr=wr, dt=dt, re=re, km=km), "utf-8")
    return path


def games(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    write(folder, "g1.sgf")
    write(folder, "g2.sgf", b="Cid", w="Ann", dt="2024-03-03")
    write(folder, "g3.sgf", b="Bob", w="Cid", wr="1d", dt="2024-03-04", re="W+2.5", km=0.5)
    return folder


def ratings(cwd: Path, target: str, cache: Path | str | None, sodos=None) -> tuple[dict, list[str]]:
    """The JSON ratings of ``target`` and the warning lines, with ``cache`` (None: off):
    in a child, or given the ``sodos`` fixture, in this process (a cache path that is
    the cache's own file or none: nothing that can block)."""
    option = ["--no-cache"] if cache is None else ["-o", f"cache.path={json.dumps(str(cache))}"]
    args = ("ratings", target, "--format", "json", *option)
    if sodos is None:
        done = cli(*args, cwd=cwd)
        status, out = done.returncode, done.stdout
    else:
        done = sodos(*args, cwd=cwd)
        status, out = done.status, done.out
    stderr = clean(done)
    assert status == 0, stderr
    return json.loads(out), [line for line in stderr.splitlines() if "cache" in line]


def api_ratings(folder: Path, cache: Path | None) -> tuple[dict, list[str]]:
    """The same in this process (the value checks: many runs, nothing that can block)."""
    config = {"cache": {"enabled": cache is not None, "path": str(cache or "")}}
    host = builtin_host(config)
    history = host.history([folder])
    run = host.ratings(history, rating="egf").as_dict()
    return run, [w for w in history.warnings if "cache" in w]


def finals(run: dict) -> dict:
    return {p["name"]: p["final"]["rating"] for p in run["players"]}


def said(run: dict) -> dict:
    """The run's output but its warnings."""
    return {k: v for k, v in run.items() if k != "warnings"}


def snapshot(path: Path):
    """What must not change of a file that is not the cache's: kind, inode, bytes."""
    st = os.lstat(path)
    content = path.read_bytes() if stat.S_ISREG(st.st_mode) else None
    return stat.S_IFMT(st.st_mode), st.st_ino, st.st_size, content


# -- a path that is not the cache's own file ---------------------------------------------


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_device(path: Path) -> None:
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("mknod is not permitted here (the faked status test covers devices)")


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def make_sqlite(*statements: str):
    def make(path: Path) -> None:
        db = sqlite3.connect(path)
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.close()

    return make


STRANGERS = {
    "a FIFO": make_fifo,
    "a character device": make_device,
    "a socket": make_socket,
    "a directory": lambda p: p.mkdir(),
    "an empty file": lambda p: p.write_bytes(b""),
    "not an SQLite database": lambda p: p.write_text("my notes\n" * 50),
    "another program's SQLite database": make_sqlite(
        "PRAGMA application_id = 1198155333", "CREATE TABLE photos (id INTEGER)"
    ),
    "an SQLite database that is not a sodos cache": make_sqlite("CREATE TABLE notes (t TEXT)"),
    "not a sodos cache (empty database)": make_sqlite("PRAGMA user_version = 7"),
    "not a sodos cache (our tables and another)": make_sqlite(
        "CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
        "CREATE TABLE entries (path TEXT, size INTEGER, mtime INTEGER, context TEXT,"
        " value TEXT, digest TEXT)",
        "CREATE TABLE parts (name TEXT, context TEXT, start INTEGER, count INTEGER,"
        " units TEXT, value TEXT, digest TEXT)",
        "CREATE TABLE invoices (n INTEGER)",
        "INSERT INTO meta VALUES ('format', '1')",
    ),
}


@pytest.mark.parametrize("kind", list(STRANGERS))
def test_a_path_that_is_not_the_caches_own_file_is_left_alone(tmp_path, kind):
    folder = games(tmp_path)
    stranger = tmp_path / "stranger"
    STRANGERS[kind](stranger)
    before = snapshot(stranger)
    run, warnings = ratings(tmp_path, str(folder), stranger)
    assert snapshot(stranger) == before  # not deleted, replaced, written or re-journalled
    assert sorted(os.listdir(tmp_path)) == ["games", "stranger"]  # no -wal, -shm, temporary
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"warning: cache {stranger}: ")
    assert warnings[0].endswith("; running without the cache")
    assert finals(run) == finals(ratings(tmp_path, str(folder), None)[0])


@pytest.mark.slow
def test_the_refusal_names_what_is_there(tmp_path):
    folder = games(tmp_path)
    for kind in ("a FIFO", "a directory", "another program's SQLite database"):
        path = tmp_path / kind.replace(" ", "_")
        STRANGERS[kind](path)
        assert kind in ratings(tmp_path, str(folder), path)[1][0]


@pytest.mark.parametrize(
    "mode, kind",
    [
        (stat.S_IFCHR, "a character device"),
        (stat.S_IFBLK, "a block device"),
        (stat.S_IFIFO, "a FIFO"),
        (stat.S_IFSOCK, "a socket"),
        (stat.S_IFDIR, "a directory"),
    ],
)
def test_a_faked_device_status_is_refused_before_the_file_is_opened(
    tmp_path, monkeypatch, mode, kind
):
    """The kind decides before anything opens the path (the null device is never touched:
    its status is faked on a plain file)."""
    path = tmp_path / "c"
    path.write_bytes(b"")
    st = os.stat(path)
    fake = os.stat_result((mode | 0o666, *tuple(st)[1:]))
    opened = []
    monkeypatch.setattr(sgf_cache.os, "open", lambda *a, **k: opened.append(a) or 1 / 0)
    with pytest.raises(sgf_cache.Refused, match=kind):
        sgf_cache._own(str(path), fake)
    assert opened == []


def test_a_symlink_to_a_fifo_is_refused_by_where_it_leads(tmp_path):
    folder = games(tmp_path)
    make_fifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    warnings = ratings(tmp_path, str(folder), tmp_path / "link")[1]
    assert warnings == [
        f"warning: cache {tmp_path / 'link'} ({tmp_path / 'fifo'}): a FIFO, not a cache file;"
        " running without the cache"
    ]
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
    assert (tmp_path / "link").is_symlink()


def make_loop(tmp_path: Path) -> Path:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    return tmp_path / "loop" / "cache.sqlite3"


def make_under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "plain").write_text("x")
    return tmp_path / "plain" / "sub" / "cache.sqlite3"


@pytest.mark.slow
@pytest.mark.parametrize(
    "where, why",
    [
        (make_loop, "Too many levels of symbolic links"),
        (make_under_a_file, "Not a directory"),
        (lambda tmp_path: tmp_path / ("x" * 300), "File name too long"),
        (lambda tmp_path: tmp_path / ("d" * 300) / "cache.sqlite3", "File name too long"),
    ],
)
def test_a_path_that_cannot_be_used_is_one_warning_and_the_run_goes_on(tmp_path, where, why):
    folder = games(tmp_path)
    path = where(tmp_path)
    run, warnings = ratings(tmp_path, str(folder), path)
    assert len(warnings) == 1 and warnings[0].startswith(f"warning: cache {path}"), warnings
    assert f"cannot be used ({why}); running without the cache" in warnings[0]
    assert finals(run) == finals(ratings(tmp_path, str(folder), None)[0])


# -- the cache's own file ------------------------------------------------------------------


def test_the_cache_is_made_whole_and_marked_as_its_own(sodos, tmp_path):
    folder = games(tmp_path)
    path = tmp_path / "deep" / "er" / "cache.sqlite3"
    assert ratings(tmp_path, str(folder), path, sodos)[1] == []
    assert path.read_bytes()[68:72] == sgf_cache.APPLICATION_ID.to_bytes(4, "big")
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (sgf_cache.FORMAT,)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("SELECT count(*) FROM entries").fetchone() == (3,)
    db.close()
    assert not [n for n in os.listdir(path.parent) if n.endswith(".new")]


@pytest.mark.slow
def test_its_own_damaged_file_is_rebuilt(sodos, tmp_path):
    folder = games(tmp_path)
    path = tmp_path / "cache.sqlite3"
    first = ratings(tmp_path, str(folder), path, sodos)[0]
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\x5a" * (len(data) - 100))  # its header, then garbage
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    again, warnings = ratings(tmp_path, str(folder), path, sodos)
    assert finals(again) == finals(first)
    assert len(warnings) == 1 and "damaged" in warnings[0] and "rebuilt" in warnings[0]
    assert ratings(tmp_path, str(folder), path, sodos)[1] == []  # the rebuilt file is used


def test_a_cache_of_the_older_format_is_its_own_and_rebuilt(sodos, tmp_path):
    folder = games(tmp_path)
    path = tmp_path / "cache.sqlite3"
    make_sqlite(
        "CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
        "CREATE TABLE entries (path TEXT NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT"
        " NULL, context TEXT NOT NULL, value TEXT NOT NULL, digest TEXT NOT NULL,"
        " PRIMARY KEY (path, context))",
        "CREATE TABLE parts (name TEXT NOT NULL, context TEXT NOT NULL, start INTEGER NOT"
        " NULL, count INTEGER NOT NULL, units TEXT NOT NULL, value TEXT NOT NULL, digest TEXT"
        " NOT NULL, PRIMARY KEY (name, context, start))",
        "INSERT INTO meta VALUES ('format', '1')",
    )(path)
    warnings = ratings(tmp_path, str(folder), path, sodos)[1]
    assert len(warnings) == 1 and "an older format; rebuilt" in warnings[0]
    assert path.read_bytes()[68:72] == sgf_cache.APPLICATION_ID.to_bytes(4, "big")


# -- keys: what a file is ------------------------------------------------------------------


def test_the_same_relative_path_in_another_folder_is_another_file(sodos, tmp_path):
    """relA/games/g1.sgf (Ann-Bob) and relB/games/g1.sgf (Cid-Dan): same size, same time."""
    a = write(tmp_path / "relA" / "games", "g1.sgf", b="Ann", w="Bob")
    b = write(tmp_path / "relB" / "games", "g1.sgf", b="Cid", w="Dan")
    for path in (a, b):
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    assert a.stat().st_size == b.stat().st_size
    path = tmp_path / "cache.sqlite3"
    assert set(finals(ratings(tmp_path / "relA", "games", path, sodos)[0])) == {"Ann", "Bob"}
    assert set(finals(ratings(tmp_path / "relB", "games", path, sodos)[0])) == {"Cid", "Dan"}


def test_the_same_file_named_another_way_keeps_its_entry_and_its_name(sodos, tmp_path):
    write(tmp_path / "relA" / "games", "g1.sgf")
    path = tmp_path / "cache.sqlite3"
    first = ratings(tmp_path, "relA/games", path, sodos)[0]
    db = sqlite3.connect(path)
    assert db.execute("SELECT path FROM entries").fetchall() == [
        (str((tmp_path / "relA" / "games" / "g1.sgf").resolve()),)
    ]
    db.execute("DELETE FROM parts")  # the entry, not the assembly, serves the next run
    db.commit()
    db.close()
    second = ratings(tmp_path / "relA", "games", path, sodos)[0]
    assert finals(second) == finals(first)
    assert json.dumps(second).count("relA") == 0  # sources as this run gives them


def rewrite_keeping_size_and_mtime(path: Path, text: str) -> None:
    st = path.stat()
    assert len(text.encode()) == st.st_size
    path.write_text(text, "utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_file_rewritten_with_its_size_and_time_restored_is_read_again(sodos, tmp_path):
    """``utime`` restores the modification time, never the status-change time."""
    folder = tmp_path / "games"
    g1 = write(folder, "g1.sgf", b="Ann", w="Bob")
    path = tmp_path / "cache.sqlite3"
    assert set(finals(ratings(tmp_path, "games", path, sodos)[0])) == {"Ann", "Bob"}
    rewrite_keeping_size_and_mtime(g1, g1.read_text().replace("Ann", "Eve"))
    assert set(finals(ratings(tmp_path, "games", path, sodos)[0])) == {"Eve", "Bob"}


def test_a_file_replaced_by_another_with_the_same_size_and_times_is_read_again(sodos, tmp_path):
    folder = tmp_path / "games"
    g1 = write(folder, "g1.sgf", b="Ann", w="Bob")
    path = tmp_path / "cache.sqlite3"
    ratings(tmp_path, "games", path, sodos)
    other = write(tmp_path, "other.sgf", b="Eve", w="Bob")
    st = g1.stat()
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, g1)  # a new inode at the same path
    assert set(finals(ratings(tmp_path, "games", path, sodos)[0])) == {"Eve", "Bob"}


# -- values read back under a valid checksum ---------------------------------------------


def tamper(path: Path, table: str, change) -> None:
    """Every value of ``table`` changed by ``change(decoded)``, its checksum made valid."""
    db = sqlite3.connect(path)
    rows = db.execute(f"SELECT rowid, value FROM {table}").fetchall()
    assert rows
    for rowid, value in rows:
        new = json.dumps(change(json.loads(value)))
        db.execute(
            f"UPDATE {table} SET value = ?, digest = ? WHERE rowid = ?",
            (new, sgf_cache._digest(new), rowid),
        )
    if table == "entries":
        db.execute("DELETE FROM parts")  # the entries serve the next run
    db.commit()
    db.close()


def in_each_record(field: int, value):
    def change(decoded):
        for record in decoded[2]:
            record[field] = value
        return decoded

    return change


def in_each_extra(field: int, value):
    def change(decoded):
        for extra in decoded[3]:
            extra[field] = value
        return decoded

    return change


def in_each_result(field: int, value):
    def change(decoded):
        for record in decoded[2]:
            record[5][field] = value
        return decoded

    return change


ENTRY_DAMAGE = {
    "notes not a list": in_each_record(12, 7),
    "a name that is a number": in_each_record(1, 12),
    "a handicap as text": in_each_record(11, "9"),
    "a handicap out of range": in_each_record(11, 10**6),
    "an infinite komi": in_each_extra(0, float("inf")),
    "a komi as text": in_each_extra(0, "6.5"),
    "a size as text": in_each_extra(1, "19"),
    "an unknown result": in_each_result(0, "X"),
    "a margin that is no number": in_each_result(3, "lots"),
    "a round that is a float": in_each_record(7, 2.5),
    "a record that is a number": lambda decoded: [*decoded[:2], [5], decoded[3]],
    "a value that is no list": lambda decoded: {"a": 1},
}


@pytest.mark.parametrize("damage", list(ENTRY_DAMAGE))
def test_a_crafted_entry_under_a_valid_checksum_is_read_again(tmp_path, damage):
    folder = games(tmp_path)
    path = tmp_path / "cache.sqlite3"
    truth = finals(api_ratings(folder, None)[0])
    api_ratings(folder, path)
    tamper(path, "entries", ENTRY_DAMAGE[damage])
    run, warnings = api_ratings(folder, path)
    assert finals(run) == truth
    assert len(warnings) == 1 and "not what sodos saves" in warnings[0], warnings
    assert api_ratings(folder, path)[1] == []  # rewritten: the next run is clean


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["an infinite komi", "a handicap as text"])
def test_a_crafted_entry_is_read_again_by_the_command(tmp_path, damage):
    """The same through the command, in a child process (infinite ratings, a failure
    blamed on builtin.egf, an AttributeError on every later run, before the check)."""
    folder = games(tmp_path)
    path = tmp_path / "cache.sqlite3"
    truth = finals(ratings(tmp_path, str(folder), None)[0])
    ratings(tmp_path, str(folder), path)
    tamper(path, "entries", ENTRY_DAMAGE[damage])
    run, warnings = ratings(tmp_path, str(folder), path)
    assert finals(run) == truth
    assert len(warnings) == 1 and "not what sodos saves" in warnings[0], warnings
    assert ratings(tmp_path, str(folder), path)[1] == []


def in_each_column(name: str, value):
    def change(state):
        state["kept"][name] = [value] * state["rows"]
        return state

    return change


PART_DAMAGE = {
    "an infinite score": in_each_column("score", float("inf")),
    "a score of 1e308": in_each_column("score", 1e308),
    "a score as text": in_each_column("score", "1.0"),
    "a komi as text": in_each_column("komi", "x"),
    "a handicap as a float": in_each_column("handicap", 2.0),
    "a date that is no date": in_each_column("date", "soon"),
    "a name that is null": in_each_column("black", None),
    "a rank that is a number": in_each_column("white_rank", 3),
    "a part that is a list": lambda state: [state],
}


@pytest.mark.parametrize("damage", list(PART_DAMAGE))
def test_a_crafted_part_under_a_valid_checksum_is_assembled_again(tmp_path, damage):
    folder = games(tmp_path)
    path = tmp_path / "cache.sqlite3"
    truth = api_ratings(folder, None)[0]
    api_ratings(folder, path)
    tamper(path, "parts", PART_DAMAGE[damage])
    run, warnings = api_ratings(folder, path)
    assert said(run) == said(truth)
    assert len(warnings) == 1 and "not what sodos saves" in warnings[0], warnings


def test_a_file_name_that_is_not_utf8_is_cached(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    name = os.fsdecode(b"g\xff.sgf")
    write(folder, name)
    path = tmp_path / "cache.sqlite3"
    first, warnings = api_ratings(folder, path)
    assert warnings == []
    db = sqlite3.connect(path)
    assert db.execute("SELECT path FROM entries").fetchall() == [(f"{folder}/g\\xff.sgf",)]
    db.close()
    assert api_ratings(folder, path) == (first, [])


@pytest.mark.parametrize(
    "path",
    ["a.sgf", "/a.sgf", "x//b.sgf", "./c.sgf", "../d.sgf", "//g.sgf", "é/f.sgf", "\udcff/h.sgf"],
)
def test_a_files_key_path_is_its_folder_resolved_and_its_name(path):
    """The cache's path of a file (its key) is its folder's real path joined with its
    name, as os.path gives them, however the walk spelled it."""

    class Keys:
        _dirs: dict = {}

    folder, name = os.path.split(path)
    expected = os.path.join(os.path.realpath(folder or os.curdir), name)
    expected = os.fsencode(expected).decode("utf-8", "backslashreplace")
    assert sgf_cache.Cache._resolved(Keys(), path) == expected
