"""A store made from a batch run (``sodos_plugin.store.load.from_run``), loaded in bulk:
each game's content is the JSON text ``json.dumps`` makes of its members, the indexes
are those of a store made game by game (dropped for the load, made again after it), its
ratings are the run's, and the page cache of the load is given back."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st
from sodos_hookspecs import HistoryGame

from sodos_plugin import Host
from sodos_plugin.store.load import _contents, from_run

HOST = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
TABLE = """id,date,black,white,result,komi,handicap
10,2024-01-01 05:30,Ann,'Bo "b"',B+R,6.5,0
9,2024-01-01,'Bo "b"',Cid,W+R,,2
11,2024-01-02 23:00,Cid,Åsa\u00e9,B+3.5,0.5,0
12,2024-01-03,Dan,Ann,W+R,-3.25,3
"""


def dumps(members: dict) -> str:
    return json.dumps(members, sort_keys=True, separators=(",", ":"))


GAME = st.fixed_dictionaries(
    {
        "id": st.text(), "date": st.text(), "black": st.text(), "white": st.text(),
        "result": st.sampled_from(["B+", "W+", "0"]), "handicap": st.integers(0, 9),
        "komi": st.one_of(st.none(), st.floats(), st.integers(-10, 10)),
        "size": st.integers(1, 26),
    }
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(GAME, max_size=6))
def test_loaded_games_contents_are_the_json_of_their_members(games):
    columns = [[g[k] for g in games] for k in ("id", "date", "black", "white", "result",
                                                "handicap", "komi", "size")]  # fmt: skip
    expected = [dumps({**g, "black_id": None, "white_id": None}) for g in games]
    assert _contents(*columns) == expected


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
