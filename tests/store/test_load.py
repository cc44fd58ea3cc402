"""A store made from a batch run (``sodos_plugin.store.load.from_run``), loaded in bulk:
each game's content is the JSON text ``json.dumps`` makes of its members, the indexes
are those of a store made game by game (dropped for the load, made again after it), its
ratings are the run's, and the page cache of the load is given back."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin import Host
from sodos_plugin.store.load import _content, from_run

HOST = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
TABLE = """id,date,black,white,result,komi,handicap
10,2024-01-01 05:30,Ann,'Bo "b"',B+R,6.5,0
9,2024-01-01,'Bo "b"',Cid,W+R,,2
11,2024-01-02 23:00,Cid,Åsa\u00e9,B+3.5,0.5,0
12,2024-01-03,Dan,Ann,W+R,-3.25,3
"""


def dumps(members: dict) -> str:
    return json.dumps(members, sort_keys=True, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(
    texts=st.lists(st.text(), min_size=4, max_size=4),
    handicap=st.integers(0, 9),
    komi=st.one_of(st.none(), st.floats(), st.integers(-10, 10)),
    size=st.integers(1, 26),
    result=st.sampled_from(["B+", "W+", "0"]),
)
def test_a_loaded_game_s_content_is_the_json_of_its_members(texts, handicap, komi, size, result):
    gid, when, black, white = texts
    members = dict(
        id=gid, date=when, black=black, white=white, result=result, handicap=handicap,
        komi=komi, size=size, black_id=None, white_id=None,
    )  # fmt: skip
    assert _content(gid, when, black, white, result, handicap, komi, size) == dumps(members)


def test_a_store_from_a_run_has_the_run_s_ratings_and_a_fresh_store_s_indexes(tmp_path):
    table = tmp_path / "games.csv"
    table.write_text(TABLE, encoding="utf-8")
    run = HOST.ratings(HOST.history([table]), rating="ogs")
    made, fresh = tmp_path / "made.db", tmp_path / "fresh.db"
    with HOST.store(made) as store:
        assert from_run(store, run) == 4
        assert store.db.execute("PRAGMA cache_size").fetchone() == (-2000,)  # given back
        assert store.ratings() == run.final()
        (content,) = store.db.execute("SELECT content FROM games WHERE id = '11'").fetchone()
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
