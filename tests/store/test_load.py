"""A store made from a batch run (``sodos_plugin.store.load.from_run``), loaded in bulk:
a loaded game keeps no content and is made from its row when read (posted again with
the same facts, it is the same game; with others, a conflict), the indexes are those of
a store made game by game (dropped for the load, made again after it), its ratings are
the run's, and the page cache of the load is given back."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sodos_hookspecs import HistoryGame

from sodos_plugin import Host
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.store.api import StoreConflict
from sodos_plugin.store.games import LOADED
from sodos_plugin.store.load import from_run

HOST = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
TABLE = """id,date,black,white,result,komi,handicap
10,2024-01-01 05:30,Ann,'Bo "b"',B+R,6.5,0
9,2024-01-01,'Bo "b"',Cid,W+R,,2
11,2024-01-02 23:00,Cid,Åsa\u00e9,B+3.5,0.5,0
12,2024-01-03,Dan,Ann,W+R,-3.25,3
"""


def dumps(members: dict) -> str:
    return json.dumps(members, sort_keys=True, separators=(",", ":"))


@settings(max_examples=100, deadline=None)
@given(
    # a live game's names are at most 200 characters (schemas/live.py), and the conflict
    # below posts black + white as one name
    names=st.lists(
        st.text(min_size=1, max_size=100).filter(str.strip), min_size=2, max_size=2, unique=True
    ),
    win=st.sampled_from(["B+R", "W+3.5", "B+T", "W+", "B+0.5"]),
    komi=st.one_of(st.none(), st.floats(-50, 50)),
    handicap=st.integers(0, 9),
    size=st.integers(2, 25),
    time=st.one_of(st.none(), st.sampled_from(["05:30", "23:59:59"])),
    rank=st.one_of(st.none(), st.sampled_from(["3k", "2d"])),
)
def test_a_loaded_game_posted_again_is_the_same_game_and_another_is_a_conflict(
    tmp_path_factory, names, win, komi, handicap, size, time, rank
):
    black, white = names
    if identity_key(black) == identity_key(white):
        return
    score = 1.0 if win.startswith("B") else 0.0
    game = HistoryGame("2024-01-01", "e", black, white, score, handicap, komi, size,
                       time=None if time is None else f"{time}:00"[:8], id="g1")  # fmt: skip
    run = HOST.ratings(HOST.history(games=[game]), rating="ogs")
    posted = dict(id="g1", date="2024-01-01" + (f"T{time}" if time else ""), black=black,
                  white=white, result=win, handicap=handicap, komi=komi, size=size,
                  black_rank=rank)  # fmt: skip
    with HOST.store(tmp_path_factory.mktemp("s") / "s.db") as store:
        from_run(store, run)
        assert store.add(posted).already  # any RE text of the same score, any rank
        for other in ({"result": "W+R" if score else "B+R"}, {"handicap": (handicap + 1) % 10},
                      {"date": "2024-01-02"}, {"white": black + white}):  # fmt: skip
            with pytest.raises(StoreConflict) as found:
                store.add({**posted, **other})
            kept = json.loads(str(found.value).split("other content: ", 1)[1])
            assert kept["black"] == black and kept["result"] == ("B+" if score else "W+")
        assert store.correct("g1", "W+R" if score else "B+R") == 1  # from the row's content
        assert store.ratings()[black].rating != run.final()[black].rating


def test_a_store_from_a_run_has_the_run_s_ratings_and_a_fresh_store_s_indexes(tmp_path):
    table = tmp_path / "games.csv"
    table.write_text(TABLE, encoding="utf-8")
    run = HOST.ratings(HOST.history([table]), rating="ogs")
    made, fresh = tmp_path / "made.db", tmp_path / "fresh.db"
    with HOST.store(made) as store:
        assert from_run(store, run) == 4
        assert store.db.execute("PRAGMA cache_size").fetchone() == (-2000,)  # given back
        assert store.ratings() == run.final()
        seq, kept = store.db.execute("SELECT seq, content FROM games WHERE id = '11'").fetchone()
        assert kept == LOADED  # none kept: made from the row when read
        content = store._content(seq, kept)
        assert json.loads(content)["white"] == "Åsa\u00e9" and content.isascii()
    HOST.store(fresh).close()

    def schema_of(path):
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            return sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))

    assert schema_of(made) == schema_of(fresh)
    with sqlite3.connect(made) as db:  # the index a leaderboard reads is there and used
        plan = db.execute(
            "EXPLAIN QUERY PLAN SELECT name FROM players ORDER BY rating DESC, name LIMIT 3"
        ).fetchall()
    assert "players_by_rating" in str(plan)


def test_a_loaded_game_id_given_again_is_told_apart_as_a_posted_one_is(tmp_path):
    games = [
        HistoryGame("2024-01-01", "e", "Ann", "Bo", 1.0, id="g1"),
        HistoryGame("2024-01-02", "e", "Bo", "Cid", 0.0, id="g1"),
        HistoryGame("2024-01-03", "e", "Cid", "Ann", 1.0, id="g1#2"),
        HistoryGame("2024-01-04", "e", "Ann", "Cid", 0.0, source="t.csv:5"),
    ]
    run = HOST.ratings(HOST.history(games=games), rating="ogs")
    with HOST.store(tmp_path / "s.db") as store:
        assert from_run(store, run) == 4
        ids = [i for (i,) in store.db.execute("SELECT id FROM games ORDER BY seq")]
        assert store.ratings() == run.final()
    assert ids == ["g1", "g1#2", "g1#2#2", "t.csv:5"]
