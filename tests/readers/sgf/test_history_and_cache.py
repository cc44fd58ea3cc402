"""Game histories from SGF archives, and the ingest cache (docs/rules.md §10)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from conftest import InlineWorkers, builtin_host

from sodos_plugin.readers.sgf import history as sgf_history
from sodos_plugin.readers.sgf import ingest
from sodos_plugin.util import workers as workers_module
from sodos_plugin.util.gcpause import worker_start

RECORD = "(;GM[1]FF[4]SZ[{size}]PB[{b}]PW[{w}]BR[{br}]WR[3d]DT[{dt}]RE[{re}]{ev};B[pd];W[{move}])"


def write(
    folder, name, b="Ann", w="Bob", dt="2024-03-02", re="B+R", ev="", size=19, move="dd", br="2k"
):
    path = folder / name
    ev_text = f"EV[{ev}]" if ev else ""
    path.write_text(
        RECORD.format(b=b, w=w, dt=dt, re=re, ev=ev_text, size=size, move=move, br=br), "utf-8"
    )
    return path


def host(tmp_path, **extra):
    config = {"cache": {"path": str(tmp_path / "cache.sqlite3")}, **extra}
    return builtin_host(config)


def statuses(history):
    return {f.path.rsplit("/", 1)[-1]: (f.status, f.reason) for f in history.files}


def test_archive_mixed_events_dates_duplicates_and_reasons(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf", dt="2024-03-02", ev="Cup")
    write(games, "a2.sgf", dt="2024-03-02", ev="Cup")  # the same game again
    write(games, "b.sgf", b="Bob", w="Cid", dt="2024-03-03", ev="Cup", move="pp")
    write(games, "c.sgf", dt="2024-05-01", ev="Cup", move="qq")  # the same EV, months later
    write(games, "d.sgf", dt="2024-04-01", move="cc")  # no EV: its own event
    write(games, "nodate.sgf", dt="", re="W+3.5")
    write(games, "partial.sgf", dt="2024-04", move="ab")
    write(games, "unknown.sgf", re="?", move="ac")
    write(games, "forfeit.sgf", re="W+F", move="ad")
    write(games, "self.sgf", b="Ann", w="ann", move="ae")  # one player by identity
    write(games, "void.sgf", re="Void", move="af")
    h = host(tmp_path).history([games])
    s = statuses(h)
    kinds = {f.path.rsplit("/", 1)[-1]: f.kind for f in h.files}
    assert s["a.sgf"][0] == "ingested" and s["a2.sgf"][0] == "duplicate"
    assert "same game as" in s["a2.sgf"][1]
    # valid records of games that cannot be rated: excluded, by a stable key, never rejected
    assert s["nodate.sgf"] == ("excluded", "no DT: the game's date is unknown (not rated)")
    assert "not a full date" in s["partial.sgf"][1]
    assert s["unknown.sgf"][0] == "excluded" and "not rated" in s["unknown.sgf"][1]
    assert s["forfeit.sgf"][0] == "excluded" and "by default" in s["forfeit.sgf"][1]
    assert "self-play" in s["self.sgf"][1]
    assert {name: kinds[name] for name in kinds if s[name][0] == "excluded"} == {
        "nodate.sgf": "undated",
        "partial.sgf": "undated",
        "unknown.sgf": "unfinished",
        "forfeit.sgf": "forfeit",
        "self.sgf": "self-play",
        "void.sgf": "void",
    }
    assert not any(f.status == "rejected" for f in h.files)
    assert [g.date for g in h.games] == sorted(g.date for g in h.games)
    events = {g.source.rsplit("/", 1)[-1]: g.event for g in h.games}
    assert events["a.sgf"] == events["b.sgf"] == "Cup (2024-03-02)"
    assert events["c.sgf"] == "Cup (2024-05-01)"  # more than event_gap_days later
    assert events["d.sgf"].endswith("d.sgf")
    assert h.players["Ann"].rank == "2k"


def test_a_second_run_reads_only_new_and_changed_files(tmp_path, monkeypatch):
    games = tmp_path / "games"
    games.mkdir()
    for n in range(20):
        write(games, f"g{n:02}.sgf", b=f"P{n}", w=f"Q{n}", move="dd")
    first = host(tmp_path).history([games])
    read = []
    original = sgf_history.ingest_unit

    def counting(unit, fallback, limits):
        read.append(unit)
        return original(unit, fallback, limits)

    monkeypatch.setattr(sgf_history, "ingest_unit", counting)
    write(games, "new.sgf", b="New", w="Q1")
    write(games, "g03.sgf", b="P3", w="Q3", re="W+R")  # changed: size/mtime differ
    import os

    os.utime(games / "g03.sgf", ns=(1, 1))
    second = host(tmp_path).history([games])
    assert sorted(str(u).rsplit("/", 1)[-1] for u in read) == ["g03.sgf", "new.sgf"]
    assert len(second.games) == len(first.games) + 1
    changed = [g for g in second.games if g.source.endswith("g03.sgf")]
    assert changed[0].result == 0.0


def test_a_damaged_cache_is_rebuilt_never_trusted(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf")
    h1 = host(tmp_path).history([games])
    cache = tmp_path / "cache.sqlite3"
    header = cache.read_bytes()[:100]  # its own file (the mark in the header), damaged
    cache.write_bytes(header + b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"cache.sqlite3{suffix}").unlink(missing_ok=True)
    h2 = host(tmp_path).history([games])
    assert h2.games == h1.games
    assert any("rebuilt" in w for w in h2.warnings)
    h3 = host(tmp_path).history([games])
    assert not any("cache" in w for w in h3.warnings)


def test_a_tampered_value_is_read_again(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf", b="Ann", w="Bob")
    host(tmp_path).history([games])
    db = sqlite3.connect(tmp_path / "cache.sqlite3")
    db.execute("UPDATE entries SET value = replace(value, 'Ann', 'Eve')")
    db.execute("DELETE FROM parts")  # the saved assembly would serve the file otherwise
    db.commit()
    db.close()
    h = host(tmp_path).history([games])
    assert {g.black for g in h.games} == {"Ann"}


def test_no_cache_when_disabled(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf")
    host(tmp_path, cache={"enabled": False, "path": str(tmp_path / "c")}).history([games])
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("cache", [True, False])
def test_a_host_keeps_no_string_of_a_history_it_read(tmp_path, cache):
    """The strings the ingest shares while reading (names, dates, ranks) are let go with
    the run: a host that lives on (a server's backend) does not grow with each archive."""
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf", b="Zebedee Unseen", w="Quentin Unseen")
    config = {"enabled": cache, "path": str(tmp_path / "c.sqlite3")}
    history = host(tmp_path, cache=config).history([games])
    assert {"Zebedee Unseen", "Quentin Unseen"} <= set(history.players)
    assert not ingest.SHARED and not ingest._ROUNDS


@pytest.mark.slow
def test_concurrent_runs_share_one_cache(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for n in range(200):
        write(games, f"g{n:03}.sgf", b=f"P{n}", w=f"Q{n}")
    code = (
        "import sys, json; from sodos_plugin import Host; "
        f"h = Host({{'cache': {{'path': {str(tmp_path / 'cache.sqlite3')!r}}}}}, "
        "config_file=False, entry_points=False).history([sys.argv[1]]); "
        "print(json.dumps([len(h.games), list(h.warnings)]))"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(games)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    import json

    for out in outs:
        count, warnings = json.loads(out)
        assert count == 200
        assert not any("rebuilt" in w for w in warnings)


@pytest.mark.parametrize("text", ["2024-03-02", "2002-10-23,24", "2024-03-02 12:00"])
def test_dates_take_the_first_day(text):
    assert sgf_history.game_date(text) == text[:10]


@pytest.mark.parametrize("text", ["2024-03", "2024", "02/03/2024", "2024-02-30", "", None])
def test_partial_or_impossible_dates_are_no_date(text):
    assert sgf_history.game_date(text) is None


def test_history_workers_are_capped_at_the_cores(tmp_path, monkeypatch):
    import os

    monkeypatch.setattr(InlineWorkers, "asked", [])
    monkeypatch.setattr(InlineWorkers, "starts", [])
    monkeypatch.setattr(workers_module, "in_order", InlineWorkers.in_order)
    monkeypatch.setattr(sgf_history, "PARALLEL_MIN_UNITS", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    games = tmp_path / "games"
    games.mkdir()
    write(games, "a.sgf")
    write(games, "b.sgf", b="Cid", w="Dan")
    history = host(tmp_path, cache={"enabled": False}).history([games], jobs=1000)
    assert InlineWorkers.asked[-1] == 2  # processes: this one and a worker
    assert InlineWorkers.starts[-1] is worker_start  # workers never collect
    assert len(history.games) == 2
