"""Group commit (sodos_plugin/store/group.py): the writes of threads that come while one
commit runs share the next transaction, each answered only after that commit, each
failure its own caller's; and through the store, games added from many threads at once
are each rated once, in the order recorded, equal to a batch run over that order, while
reads see only what is committed."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from sodos_plugin import Host
from sodos_plugin.store import StoreConflict
from sodos_plugin.store.api import NotFound
from sodos_plugin.store.games import parse_game
from sodos_plugin.store.group import GroupCommit

HOST = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)


class Recorded:
    """A SQLite connection that records the statements that frame transactions."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        self.said: list[str] = []

    def execute(self, statement, params=()):
        if not statement.startswith(("INSERT", "SELECT")):
            self.said.append(statement)
        return self.db.execute(statement, params)

    def rows(self) -> list[int]:
        return [x for (x,) in self.db.execute("SELECT x FROM t ORDER BY rowid")]


def stored(error):
    return RuntimeError(f"stored: {error}")


def insert(db, x):
    def work():
        db.execute("INSERT INTO t VALUES (?)", (x,))
        return x

    return work


def run_grouped(writes: GroupCommit, works: list, *, parts=None) -> list:
    """Run ``works`` from threads while the first thread holds the lead (its work waits),
    so that all the others come while it runs and are committed as one group; returns
    each work's answer or error."""
    go = threading.Event()
    answers: list = [None] * (len(works) + 1)

    def first():
        go.wait(10)
        return "first"

    def call(k, work, part):
        try:
            answers[k] = writes.run(work, part)
        except Exception as error:  # each thread's own error
            answers[k] = error

    threads = [threading.Thread(target=call, args=(0, first, None))]
    threads[0].start()
    deadline = time.monotonic() + 10
    while not writes._leading and time.monotonic() < deadline:
        time.sleep(0.001)
    for k, work in enumerate(works, 1):
        part = None if parts is None else parts[k - 1]
        threads.append(threading.Thread(target=call, args=(k, work, part)))
        threads[-1].start()
        while len(writes._waiting) < k and time.monotonic() < deadline:  # in this order
            time.sleep(0.001)
    go.set()
    for thread in threads:
        thread.join(10)
    assert answers[0] == "first"
    return answers[1:]


def test_works_that_come_during_a_commit_share_the_next_transaction(tmp_path):
    db = Recorded(tmp_path / "g.db")
    writes = GroupCommit(db, (sqlite3.Error,), stored)
    answers = run_grouped(writes, [insert(db, x) for x in range(5)])
    assert answers == [0, 1, 2, 3, 4]
    assert db.rows() == [0, 1, 2, 3, 4]  # in the order they came
    # the first work's transaction, then one for the five that waited
    assert db.said.count("BEGIN IMMEDIATE") == 2
    assert db.said.count("COMMIT") == 2


def test_a_failing_work_is_rolled_back_alone(tmp_path):
    db = Recorded(tmp_path / "g.db")
    writes = GroupCommit(db, (sqlite3.Error,), stored)

    def refused():
        db.execute("INSERT INTO t VALUES (99)")
        raise ValueError("refused after writing")

    answers = run_grouped(writes, [insert(db, 1), refused, insert(db, 2)])
    assert answers[0] == 1 and answers[2] == 2
    assert isinstance(answers[1], ValueError)
    assert db.rows() == [1, 2]  # nothing of the refused work


def test_a_database_error_runs_the_others_again_and_is_said_as_the_stores(tmp_path):
    db = Recorded(tmp_path / "g.db")
    writes = GroupCommit(db, (sqlite3.Error,), stored)
    broken = insert(db, 1)  # a second 1: the UNIQUE constraint fails in the database
    answers = run_grouped(writes, [insert(db, 1), broken, insert(db, 3)])
    assert answers[0] == 1 and answers[2] == 3
    assert isinstance(answers[1], RuntimeError) and "UNIQUE" in str(answers[1])
    assert db.rows() == [1, 3]
    assert db.said.count("COMMIT") == 2  # the first work's, then the two run again


def test_a_commit_that_fails_answers_every_work_of_the_group_with_its_error(tmp_path):
    db = Recorded(tmp_path / "g.db")

    class NoCommit:
        def execute(self, statement, params=()):
            if statement == "COMMIT" and failing.is_set():
                db.execute("ROLLBACK")
                raise sqlite3.OperationalError("disk I/O error")
            return db.execute(statement, params)

    failing = threading.Event()
    writes = GroupCommit(NoCommit(), (sqlite3.Error,), stored)

    def first_then_fail():
        failing.set()
        return insert(db, 1)()

    answers = run_grouped(writes, [first_then_fail, insert(db, 2)])
    assert all(isinstance(a, RuntimeError) and "disk I/O" in str(a) for a in answers)
    assert db.rows() == []  # nothing answered, nothing written


def test_parts_are_done_together_and_alone_when_together_fails(tmp_path):
    db = Recorded(tmp_path / "g.db")
    calls: list[list] = []

    def together(parts):
        calls.append(parts)
        flat = [x for part in parts for x in part]
        if len(flat) != len(set(flat)):
            raise ValueError("a value twice")
        for x in flat:
            db.execute("INSERT INTO t VALUES (?)", (x,))
        return [[x * 10 for x in part] for part in parts]

    def work(part):
        def one():
            for x in part:
                if db.db.execute("SELECT 1 FROM t WHERE x = ?", (x,)).fetchone():
                    raise ValueError(f"{x} twice")
                db.execute("INSERT INTO t VALUES (?)", (x,))
            return [x for x in part]

        return one

    writes = GroupCommit(db, (sqlite3.Error,), stored, together)
    parts = [[1, 2], [3], [4, 5]]
    answers = run_grouped(writes, [work(p) for p in parts], parts=parts)
    assert answers == [[10, 20], [30], [40, 50]]  # together's answers
    assert calls == [parts]
    assert db.rows() == [1, 2, 3, 4, 5]
    # a part that conflicts: together raises, nothing of it stays, each work alone
    parts = [[6], [6], [7]]
    answers = run_grouped(writes, [work(p) for p in parts], parts=parts)
    assert answers[0] == [6] and answers[2] == [7]
    assert isinstance(answers[1], ValueError)
    assert db.rows() == [1, 2, 3, 4, 5, 6, 7]


def game(k: int, black: str, white: str) -> dict:
    hour, minute = divmod(k, 60)
    when = f"2024-01-01T{hour + 8:02d}:{minute:02d}"
    result = "B+R" if k % 3 else "W+0.5"
    return {"id": f"g{k}", "date": when, "black": black, "white": white, "result": result,
            "komi": 6.5}  # fmt: skip


@pytest.mark.parametrize("system,params", [("ogs", {}), ("glicko2", {"period": "day"})])
def test_games_added_from_many_threads_are_each_rated_once_as_a_batch_run(tmp_path, system, params):
    store = HOST.store(tmp_path / "threads.db", rating=system, **params)
    names = [f"P{k}" for k in range(12)]
    per = 40
    answers: dict[str, list] = {}
    errors: list = []

    def client(c: int) -> None:
        mine = []
        for k in range(c * per, (c + 1) * per):
            black, white = names[k % 12], names[(k * 7 + 1 + c) % 12]
            if black == white:
                white = names[(k + 5) % 12]
            try:
                if k % 10 == 5:  # a batch of two: the second this thread's last, changed
                    mine.extend(store.add_many([game(k, black, white), game(k - 1, "X", "Y")]))
                else:
                    mine.append(store.add(game(k, black, white)))
            except StoreConflict as error:
                errors.append((k, error))
        answers[c] = mine

    threads = [threading.Thread(target=client, args=(c,)) for c in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # g(k-1) is posted again with other content in each batch of two: a conflict for
    # that batch alone (nothing of it written), every other game rated once
    conflicted = {k for k, _ in errors}
    assert conflicted == {k for k in range(5, 6 * per, 10)}
    ids = [g.id for g in store.games().games]
    assert len(ids) == len(set(ids))
    assert set(ids) == {f"g{k}" for k in range(6 * per) if k not in conflicted}
    orders = {r.id: r.order for mine in answers.values() for r in mine if not r.already}
    assert sorted(orders, key=orders.get) == ids  # answered orders are the recorded order
    batch = HOST.ratings(store.games(), rating=system, **params).final()
    live = store.ratings()
    assert set(live) == set(batch)
    for name, state in live.items():
        assert state.rating == pytest.approx(batch[name].rating, abs=1e-9, rel=0)
        assert state.deviation == pytest.approx(batch[name].deviation, abs=1e-9, rel=0)
    store.close()


def test_reads_see_what_is_committed_never_a_write_held_open(tmp_path):
    store = HOST.store(tmp_path / "reads.db")
    store.add(game(0, "Ann", "Bob"))
    before = store.player("Ann")
    holding, go = threading.Event(), threading.Event()

    def held_open():  # a game written, its transaction not yet committed
        out = store._add(parse_game(game(1, "Ann", "Cid")))
        holding.set()
        go.wait(10)
        return [out]

    writer = threading.Thread(target=store._write, args=(held_open,))
    writer.start()
    assert holding.wait(10)
    try:
        assert store.player("Ann") == before  # not the rating of the open transaction
        with pytest.raises(NotFound):
            store.player("Cid")
        assert [g.id for g in store.games().games] == ["g0"]
        assert [p.name for p in store.leaderboard().players] == sorted(
            ["Ann", "Bob"], key=lambda n: -store.player(n).state.rating
        )
    finally:
        go.set()
        writer.join(10)
    assert store.player("Ann").games == 2  # committed: read at once
    assert store.player("Cid").games == 1
    store.close()
