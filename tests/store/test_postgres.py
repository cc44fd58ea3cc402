"""The store on PostgreSQL (the ``postgres`` extra, psycopg 3), against a real server
started here from Debian's packages (``apt-get install postgresql``): ``initdb`` and
``pg_ctl`` run as the ``postgres`` user (``runuser``) in a temporary folder, on a free
loopback port. The same checks as on SQLite: one game at a time and in batches equal a
batch run, after voids and corrections; two connections posting the same games apply
each once; another system is refused by name. Skipped, with the reason, when the server
or psycopg is absent."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_store import HOST, RESULTS, assert_batch_equal, chunks, game, games

from sodos_plugin.errors import ConfigError

psycopg = pytest.importorskip("psycopg", reason="the postgres extra (psycopg 3) is not installed")


def _bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


@pytest.fixture(scope="module")
def server():
    folder = _bin()
    if folder is None:
        pytest.skip("no PostgreSQL server (Debian: apt-get install postgresql)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("initdb does not run as root, and runuser is absent")
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    home = tempfile.mkdtemp(prefix="sodos-pg-")
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
    data = os.path.join(home, "data")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = dict(capture_output=True, text=True, timeout=120, cwd=home)
    done = subprocess.run([*as_user, f"{folder}/initdb", "-D", data, "-A", "trust", "-U",
                           "sodos"], **run)  # fmt: skip
    if done.returncode:
        pytest.skip(f"initdb failed: {done.stderr[-300:]}")
    options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1"
    done = subprocess.run([*as_user, f"{folder}/pg_ctl", "-D", data, "-o", options, "-l",
                           os.path.join(home, "log"), "-w", "start"], **run)  # fmt: skip
    if done.returncode:
        pytest.skip(f"the PostgreSQL server did not start: {done.stderr[-300:]}")
    try:
        yield f"postgresql://sodos@127.0.0.1:{port}"
    finally:
        subprocess.run([*as_user, f"{folder}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       **run)  # fmt: skip
        shutil.rmtree(home, ignore_errors=True)


_numbers = itertools.count()


def database(server: str) -> str:
    """A new, empty database on the server: its URL."""
    name = f"store{next(_numbers)}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


@pytest.mark.parametrize(
    "system,params",
    [("ogs", {}), ("glicko2", {"period": "day"}), ("egf", {})],
)
@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    history=games(),
    sizes=st.lists(st.integers(1, 6), max_size=8),
    changes=st.lists(st.tuples(st.integers(0, 24), st.sampled_from([None, *RESULTS])), max_size=2),
)
def test_postgres_store_equals_a_batch_run(server, system, params, history, sizes, changes):
    one = HOST.store(database(server), rating=system, **params)
    many = HOST.store(database(server), rating=system, **params)
    for g in history:
        one.add(g)
    for batch in chunks(history, sizes):
        many.add_many(batch)
    assert_batch_equal(one, system, params)
    assert_batch_equal(many, system, params)
    if system != "egf":
        assert one.ratings() == many.ratings()
    for index, result in changes:
        if index < len(history):
            gid = history[index]["id"]
            one.void(gid) if result is None else one.correct(gid, result)
            assert_batch_equal(one, system, params)
    one.close()
    many.close()


def test_two_connections_apply_each_game_once(server):
    url = database(server)
    HOST.store(url).close()
    names = [f"P{k}" for k in range(6)]
    posted = [game(k, names[k % 6], names[(k + 1 + k // 6) % 6] if (k + 1 + k // 6) % 6 != k % 6
                   else names[(k + 2) % 6], RESULTS[k % 5]) for k in range(60)]  # fmt: skip
    failures: list = []

    def post() -> None:
        store = HOST.store(url)
        try:
            for g in posted:
                store.add(g)
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    store = HOST.store(url)
    ids = [g.id for g in store.games().games]
    assert sorted(ids) == sorted(g["id"] for g in posted)  # each game once
    assert_batch_equal(store, "ogs", {})


def test_another_system_is_refused_by_name(server):
    url = database(server)
    HOST.store(url).close()
    with pytest.raises(ConfigError, match="rates with 'ogs', not 'glicko2'"):
        HOST.store(url, rating="glicko2", period="game")


def test_sodos_store_and_export_with_a_postgres_url(server, tmp_path, capsys):
    from sodos_plugin.cli import main

    table = tmp_path / "games.csv"
    table.write_text(
        "id,date,black,white,result,black rank\n1,2024-01-01,Ann,Bob,B+R,3d\n"
        "2,2024-01-02,Bob,Cid,W+R,\n",
        encoding="utf-8",
    )
    url = database(server)
    assert main(["store", url, str(table), "--format", "csv", "--no-cache"]) == 0
    made = capsys.readouterr().out
    assert main(["store", url, "--format", "csv", "--no-cache"]) == 0
    assert capsys.readouterr().out == made
    assert main(["ratings", str(table), "--rating", "ogs", "--format", "csv", "--no-cache"]) == 0
    assert capsys.readouterr().out == made
