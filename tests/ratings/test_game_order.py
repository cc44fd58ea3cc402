"""The order of one day's games (docs/rules.md §10.1): by time of day where the input
gives it, then by the server's game id compared as a number where it is one, whatever
the order of the rows or files — in a batch run, from a saved state, and game by game
(``Host.rate_game``)."""

from __future__ import annotations

import itertools

import pytest
from conftest import builtin_host
from hypothesis import given, settings
from hypothesis import strategies as st
from sodos_hookspecs import Coded, GameColumns, HistoryGame

from sodos_plugin import Host
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError
from sodos_plugin.ratings import history as history_module
from sodos_plugin.ratings.periods import game_order, id_order, saved_key, shown_game
from sodos_plugin.readers.dated import time_of_day

HEADER = "id,date,black,white,result\n"
#: Three games of one day between the same two players: who wins which decides the
#: ratings, so a wrong order gives other numbers.
GAMES = {
    "9": "Ann,Bob,B+R",
    "10": "Bob,Ann,B+3.5",
    "100": "Ann,Bob,W+R",
}


def make_host() -> Host:
    return builtin_host({"cache": {"enabled": False}})


def table(tmp_path, name: str, rows: list[str]) -> str:
    path = tmp_path / name
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return str(path)


def final(run) -> dict:
    return {name: tuple(state) for name, state in run.final().items()}


def test_id_order_compares_numbers_as_numbers():
    ids = ["g10", "g9", "10", "9", "a2b10", "a2b9", "100", "g09x"]
    assert sorted(ids, key=id_order) == ["9", "10", "100", "a2b9", "a2b10", "g9", "g09x", "g10"]
    assert id_order(None) == id_order("") == ""


def test_time_of_day_is_read_after_the_date():
    assert time_of_day("2024-01-01 05:30") == "05:30:00"
    assert time_of_day("2024-01-01T23:30:15+02:00") == "23:30:15"
    assert time_of_day("2024-01-01") is None
    assert time_of_day("2024-01-01 24:10") is None


@pytest.mark.parametrize("system", ["ogs", "glicko2", "egf"])
def test_numeric_ids_are_rated_in_order_whatever_the_rows_order(tmp_path, system):
    host = make_host()
    runs = []
    for k, order in enumerate(itertools.permutations(GAMES)):
        rows = [f"{gid},2024-01-01,{GAMES[gid]}" for gid in order]
        run = host.ratings(host.history([table(tmp_path, f"t{k}.csv", rows)]), rating=system)
        runs.append(final(run))
    assert all(r == runs[0] for r in runs)
    # the ratings of 9, 10, 100 in that order (one row each, in order, from one table)
    rows = [f"{gid},2024-01-01,{GAMES[gid]}" for gid in ("9", "10", "100")]
    expected = final(host.ratings(host.history([table(tmp_path, "o.csv", rows)]), rating=system))
    assert runs[0] == expected


def test_times_of_one_day_are_rated_in_order_whatever_the_files_order(tmp_path):
    host = make_host()
    # the late game in the file whose name sorts first
    late = table(tmp_path, "a.csv", ["1,2024-01-01 23:30,Bob,Ann,B+R"])
    early = table(tmp_path, "b.csv", ["2,2024-01-01 05:30,Ann,Bob,B+R"])
    both = host.history([late, early])
    assert [g.time for g in both.games] == ["05:30:00", "23:30:00"]
    again = host.history([early, late])
    assert list(again.games) == list(both.games)
    run = host.ratings(both, rating="ogs", details=True)
    assert [s.date for s in run.result.steps][:1] == ["2024-01-01"]
    assert run.result.steps[0].period.endswith("b.csv:2")  # the 05:30 game first
    # one table, rows in the other order: the same
    one = table(
        tmp_path, "c.csv", ["1,2024-01-01 23:30,Bob,Ann,B+R", "2,2024-01-01 05:30,Ann,Bob,B+R"]
    )
    assert final(host.ratings(host.history([one]), rating="ogs")) == final(run)


def sgf(tmp_path, name: str, when: str, black: str, white: str, result: str) -> str:
    path = tmp_path / name
    path.write_text(f"(;GM[1]FF[4]SZ[19]DT[{when}]PB[{black}]PW[{white}]RE[{result}];B[pd])")
    return str(path)


@pytest.mark.parametrize("system", ["ogs", "glicko2", "egf"])
def test_sgf_times_of_one_day_are_rated_in_order_whatever_the_files_names(tmp_path, system):
    """SGF ``DT`` with a time (as Fox writes it): the 05:30 game before the 23:30 one,
    though the 23:30 file's name sorts first, the same ratings as a games table with
    those times; without the times the files' order decides (the other ratings)."""
    host = make_host()
    late = sgf(tmp_path, "a.sgf", "2024-01-01 23:30:00", "Bob", "Ann", "B+R")
    early = sgf(tmp_path, "b.sgf", "2024-01-01 05:30:00", "Ann", "Bob", "B+R")
    history = host.history([late, early])
    assert [(g.black, g.time) for g in history.games] == [("Ann", "05:30:00"), ("Bob", "23:30:00")]
    rows = ["1,2024-01-01 23:30,Bob,Ann,B+R", "2,2024-01-01 05:30,Ann,Bob,B+R"]
    expected = final(host.ratings(host.history([table(tmp_path, "t.csv", rows)]), rating=system))
    assert final(host.ratings(history, rating=system)) == expected
    untimed = [
        sgf(tmp_path, "c.sgf", "2024-01-01", "Bob", "Ann", "B+R"),
        sgf(tmp_path, "d.sgf", "2024-01-01", "Ann", "Bob", "B+R"),
    ]
    assert [g.time for g in host.history(untimed).games] == [None, None]
    assert final(host.ratings(host.history(untimed), rating=system)) != expected


@pytest.mark.parametrize("system", ["ogs", "whr"])
def test_from_a_saved_state_9_then_10_and_0530_then_2330(tmp_path, system):
    host = make_host()
    # file names that sort the other way (the order before: event keys, here the rows)
    first = host.history([table(tmp_path, "b.csv", ["9,2024-01-01 05:30,Ann,Bob,B+R"])])
    second = host.history([table(tmp_path, "a.csv", ["10,2024-01-01 05:30,Bob,Ann,W+R"])])
    state = host.ratings(first, rating=system).saved_state()
    went_on = host.ratings(second, rating=system, state=state)
    together = host.history([tmp_path / "a.csv", tmp_path / "b.csv"])
    assert final(went_on) == final(host.ratings(together, rating=system))
    # 23:30 after 05:30 with the id that sorts first as text
    third = host.history([table(tmp_path, "0.csv", ["100,2024-01-01 23:30,Ann,Bob,B+R"])])
    host.ratings(third, rating=system, state=went_on.saved_state())
    # the other way round is refused, naming both games
    with pytest.raises(InputError, match=r"ends with the game 2024-01-01 05:30:00 '10'"):
        host.ratings(first, rating=system, state=went_on.saved_state())


def test_rate_game_goes_on_by_id_and_time():
    host = make_host()
    state = None
    for gid, time in (("g9", None), ("g10", None), ("g2", "06:00"), ("g1", "23:30")):
        game = HistoryGame("2024-01-01", gid, "Ann", "Bob", 1.0, time=time, id=gid)
        state = host.rate_game(state, game, rating="ogs")
    assert state.games == {"Ann": 4, "Bob": 4}
    with pytest.raises(InputError, match="'g1'; these games start with 2024-01-01 'g3'"):
        game = HistoryGame("2024-01-01", "g3", "Ann", "Bob", 1.0, id="g3")
        host.rate_game(state, game, rating="ogs")


def test_a_host_game_with_a_bad_time_is_refused():
    host = make_host()
    game = HistoryGame("2024-01-01", "e", "Ann", "Bob", 1.0, time="25:61")
    with pytest.raises(InputError, match="game time '25:61' is not HH:MM"):
        host.history(games=[game])


def test_keys_saved_before_times_and_ids_are_read():
    old = ["2024-01-01", "ev", 0, "ann", "bob", 1.0, 0, "s"]
    new = saved_key(old)
    assert new == ["2024-01-01", "", "", "ev", 0, "ann", "bob", 1.0, 0, "s", ""]
    assert shown_game(new) == "2024-01-01 'ev'"
    assert saved_key(["2024-01-01", "ev"], "event") == ["2024-01-01", "", "", "ev"]


@pytest.mark.parametrize("chunk", [1, 7, 1 << 16])
def test_columns_are_put_in_game_order_a_chunk_of_runs_at_a_time(monkeypatch, chunk) -> None:
    """Columns are sorted by date and time first, then a few runs of one date and time
    at a time by the whole key (memory of a chunk's keys, not of every game's): the
    order is game_order's, whatever the chunk."""
    monkeypatch.setattr(history_module, "SORT_CHUNK", chunk)
    days = ["2024-01-02", "2024-01-01", "2024-01-03"]
    games = [
        HistoryGame(
            days[i % 3],
            f"e{i % 4}",
            f"p{i % 5}",
            f"q{i % 7}",
            (i % 3) / 2,
            i % 2,
            None,
            19,
            (i % 3) or None,
            f"t.csv:{i}",
            [None, "10:00:00", "09:00:00"][i % 3 * (i % 2)],
            [None, f"g{i % 11}", f"{i % 13}"][i % 3],
        )  # fmt: skip
        for i in range(200)
    ]
    columns = GameColumns(*map(list, zip(*games)))
    ordered, saved = history_module._in_game_order(columns, identity_key)
    assert list(ordered) == sorted(games, key=game_order)
    assert saved["order"] == list(ordered.order)


games_of_one_day = st.lists(
    st.tuples(
        st.sampled_from(["2024-01-01", "2024-01-02"]),
        st.sampled_from(["E", "F"]),
        st.sampled_from(["Ann", "ann", "Bob", "cid"]),  # Ann and ann: one identity key
        st.sampled_from(["Ann", "Bob"]),
        st.sampled_from([0.0, 0.5, 1.0]),
        st.sampled_from([0, 2]),
        st.sampled_from([None, 0, 1, 10]),  # None and 0 sort alike
        st.sampled_from(["a.sgf", "b.sgf"]),  # rows with equal keys too
        st.sampled_from([None, "09:00:00", "10:00:00"]),
        st.sampled_from([None, "", "g9", "g10", "10"]),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(rows=games_of_one_day, coded=st.booleans(), chunk=st.sampled_from([1, 3, 1 << 16]))
def test_columns_sorted_at_once_are_the_rows_sorted_by_their_keys(rows, coded, chunk) -> None:
    """The columns are put in order by ranks of each part of the key, not a key per game:
    the order is that of sorting the rows by game_order, rows with equal keys in row
    order, names by identity key (coded columns too)."""
    names = ("date", "event", "black", "white", "result", "handicap", "round", "source")
    c = {name: [row[k] for row in rows] for k, name in enumerate(names)}
    c["time"], c["id"] = [row[8] for row in rows], [row[9] for row in rows]
    if coded:
        for name in ("black", "white", "date"):
            values = ["Ann", "ann", "Bob", "cid", "2024-01-01", "2024-01-02", "Ann"]
            c[name] = Coded([values.index(v) for v in c[name]], values)
    fields = [c[name] for name in (*names[:6], "round", "source", "time", "id")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_module, "SORT_CHUNK", chunk)
        order = history_module._sorted_rows(c, fields, identity_key)
    games = [HistoryGame(*(row[:6]), None, 19, row[6], row[7], row[8], row[9]) for row in rows]
    assert list(order) == sorted(range(len(rows)), key=lambda r: game_order(games[r]))


def test_a_column_whose_values_do_not_compare_is_sorted_key_by_key() -> None:
    """Events None and text, never compared (each game has its own id): the keys sort,
    and so do the columns."""
    ids = ["g3", "g1", "g2"]
    c = {
        "date": ["2024-01-01"] * 3, "event": [None, "E", None], "black": ["A"] * 3,
        "white": ["B"] * 3, "result": [1.0] * 3, "handicap": [0] * 3, "round": [None] * 3,
        "source": ["s"] * 3, "time": [None] * 3, "id": ids,
    }  # fmt: skip
    fields = [c[name] for name in c]
    order = history_module._sorted_rows(c, fields, identity_key)
    assert list(order) == [1, 2, 0]
