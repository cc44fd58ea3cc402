"""A growing archive is not re-assembled: the cache keeps the SGF
history's assembly in parts, and a run whose first units are the ones saved resumes it.

Each test compares with what one pass over every unit gives: resuming may change how
long a run takes, never what it says."""

from __future__ import annotations

import json
import os
import sqlite3

from conftest import builtin_host
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import Result
from sodos_plugin.ratings.history import _in_game_order
from sodos_plugin.readers.sgf import history as sgf_history
from sodos_plugin.readers.sgf.history import (
    Assembly,
    Extra,
    HistoryOutcome,
    Marks,
    _packed,
    _unpacked,
)
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.results import ParsedResult

RECORD = "(;GM[1]FF[4]SZ[19]PB[{b}]PW[{w}]BR[{br}]WR[3d]DT[{dt}]RE[{re}]EV[{ev}];B[{move}])"


def write(folder, name, b, w, dt, ev="Cup", re="B+R", move="dd", br="2k"):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RECORD.format(b=b, w=w, dt=dt, ev=ev, re=re, move=move, br=br), "utf-8")
    return path


def host(tmp_path, enabled=True):
    config = {"cache": {"path": str(tmp_path / "cache.sqlite3"), "enabled": enabled}}
    return builtin_host(config)


def everything(history):
    return (
        list(history.games),
        dict(history.events),
        dict(history.players),
        list(history.files),
        list(history.warnings),
    )


def counting(monkeypatch):
    read = []
    original = sgf_history.ingest_unit

    def ingest_unit(unit, fallback, limits):
        read.append(os.path.basename(str(unit)))
        return original(unit, fallback, limits)

    monkeypatch.setattr(sgf_history, "ingest_unit", ingest_unit)
    return read


def archive(folder, start, count, day=lambda n: f"2024-03-{1 + n % 20:02}"):
    for n in range(start, start + count):
        write(
            folder, f"{n // 10:03}/g{n:04}.sgf", f"P{n % 7}", f"Q{n % 5}", day(n),
            ev=f"Club {n % 3}", re=("B+R", "W+2.5", "B+T")[n % 3], move="abcdefgh"[n % 8] * 2,
        )  # fmt: skip


# -- whole runs ------------------------------------------------------------------------


def test_new_files_after_the_saved_ones_are_the_only_ones_read(tmp_path, monkeypatch):
    games = tmp_path / "games"
    archive(games, 0, 40)
    host(tmp_path).history([games])
    archive(games, 40, 5)
    read = counting(monkeypatch)
    second = host(tmp_path).history([games])
    assert sorted(read) == [f"g{n:04}.sgf" for n in range(40, 45)]
    assert everything(second) == everything(host(tmp_path, enabled=False).history([games]))
    read.clear()
    third = host(tmp_path).history([games])  # nothing new: nothing read, nothing written
    assert read == []
    assert everything(third) == everything(second)


def test_new_games_that_start_an_event_earlier_regroup_it(tmp_path):
    games = tmp_path / "games"
    archive(games, 0, 30, day=lambda n: "2024-05-10")
    first = host(tmp_path).history([games])
    assert {g.event for g in first.games} == {f"Club {k} (2024-05-10)" for k in range(3)}
    archive(games, 30, 3, day=lambda n: "2024-05-06")  # 4 days before: the same events
    second = host(tmp_path).history([games])
    assert {g.event for g in second.games} == {f"Club {k} (2024-05-06)" for k in range(3)}
    assert everything(second) == everything(host(tmp_path, enabled=False).history([games]))


def test_a_changed_or_removed_file_resumes_before_it(tmp_path, monkeypatch):
    games = tmp_path / "games"
    archive(games, 0, 30)
    host(tmp_path).history([games])
    archive(games, 30, 5)
    host(tmp_path).history([games])  # two parts now
    (games / "001" / "g0012.sgf").unlink()
    write(games, "002/g0025.sgf", "P9", "Q9", "2024-03-09", re="W+R")
    os.utime(games / "002" / "g0025.sgf", ns=(1, 1))
    read = counting(monkeypatch)
    again = host(tmp_path).history([games])
    assert sorted(read) == ["g0025.sgf"]  # the others from the per-file cache
    assert everything(again) == everything(host(tmp_path, enabled=False).history([games]))


def test_names_spelled_apart_across_runs_are_merged_as_in_one_pass(tmp_path):
    games = tmp_path / "games"
    write(games, "a/1.sgf", "Lee Sedol", "Bob", "2024-01-02")
    host(tmp_path).history([games])
    write(games, "b/2.sgf", "LEE  SEDOL", "Bob", "2024-01-03", move="pp")
    write(games, "b/3.sgf", "Lee Sedol", "Bob", "2024-01-02")  # a duplicate of a/1.sgf
    resumed = host(tmp_path).history([games])
    assert everything(resumed) == everything(host(tmp_path, enabled=False).history([games]))
    assert {g.black for g in resumed.games} == {"Lee Sedol"}
    assert any("'LEE  SEDOL' is taken as 'Lee Sedol'" in w for w in resumed.warnings)
    assert [f.status for f in resumed.files if f.path.endswith("3.sgf")] == ["duplicate"]


def test_a_damaged_part_is_never_trusted(tmp_path, monkeypatch):
    games = tmp_path / "games"
    archive(games, 0, 12)
    first = host(tmp_path).history([games])
    db = sqlite3.connect(tmp_path / "cache.sqlite3")
    assert db.execute("SELECT count(*) FROM parts").fetchone() == (1,)
    db.execute("UPDATE parts SET value = replace(value, 'P1', 'Eve')")
    db.commit()
    db.close()
    read = counting(monkeypatch)
    again = host(tmp_path).history([games])
    assert read == []  # every unit from the per-file cache instead
    assert everything(again) == everything(first)


def test_a_part_that_is_not_an_assembly_is_never_trusted(tmp_path):
    games = tmp_path / "games"
    archive(games, 0, 12)
    first = host(tmp_path).history([games])
    db = sqlite3.connect(tmp_path / "cache.sqlite3")
    value = json.dumps({"files": [[], [], []], "rows": 10**12})  # a checksum that matches
    from sodos_plugin.readers.sgf.cache import _digest

    db.execute("UPDATE parts SET value = ?, digest = ?", (value, _digest(value)))
    db.commit()
    db.close()
    again = everything(host(tmp_path).history([games]))
    said = again[4].pop()  # one warning: the cache's
    assert "not what sodos saves (malformed assembly state" in said
    assert again == everything(first)


def _tamper_part(tmp_path, change) -> None:
    """Change the saved part's value and give it a checksum that matches."""
    from sodos_plugin.readers.sgf.cache import _digest

    db = sqlite3.connect(tmp_path / "cache.sqlite3")
    (value,) = db.execute("SELECT value FROM parts").fetchone()
    part = json.loads(value)
    change(part)
    value = json.dumps(part)
    db.execute("UPDATE parts SET value = ?, digest = ?", (value, _digest(value)))
    db.commit()
    db.close()


def _no_games(part):
    part["rows"], part["row_units"] = 0, []
    part["kept"] = {name: [] for name in part["kept"]}


def _a_number_as_a_name(part):
    part["spelling"][0][1] = 5


def test_a_part_of_the_right_checksum_and_wrong_content_is_read_again(tmp_path):
    # issue 33: a part with a valid checksum that kept no game of its ingested files gave
    # a ratings run of 0 players and no warning (--no-cache rates them); a number as a
    # name was made text ("5") and taken
    games = tmp_path / "games"
    archive(games, 0, 4)
    first = everything(host(tmp_path).history([games]))
    for change in (_no_games, _a_number_as_a_name):
        host(tmp_path).history([games])  # the part saved again, whole
        _tamper_part(tmp_path, change)
        again = everything(host(tmp_path).history([games]))
        said = again[4].pop()
        assert "not what sodos saves (malformed assembly state" in said
        assert again == first
        assert len(again[2]) == len(everything(host(tmp_path, enabled=False).history([games]))[2])


def test_a_rank_comes_from_the_first_game_that_gives_one(tmp_path):
    games = tmp_path / "games"
    write(games, "1.sgf", "Ann", "Bob", "2024-01-02", br="")
    write(games, "2.sgf", "Ann", "Cid", "2024-01-01", br="", move="pp")
    write(games, "3.sgf", "Ann", "Bob", "2024-01-03", br="3k", move="qq")
    write(games, "4.sgf", "Ann", "Bob", "2024-01-04", br="5k", move="cc")
    history = host(tmp_path, enabled=False).history([games])
    assert history.players["Ann"].rank == "3k"
    assert history.players["Ann"].source.endswith("3.sgf")
    assert list(history.players) == ["Ann", "Cid", "Bob"]  # by the date of their first game


# -- the assembly, resumed at any unit ---------------------------------------------------

NAMES = ["Ann", "ann", "Bob", "Cid", "Lee Sedol", "lee sedol", "Dan"]
RESULTS = {
    "B+R": ParsedResult(Result.BLACK_WINS),
    "W+R": ParsedResult(Result.WHITE_WINS),
    "0": ParsedResult(Result.JIGO),
    "B+F": ParsedResult(Result.BLACK_WINS, by_default=True),
    "?": ParsedResult(Result.UNKNOWN),
}

records = st.builds(
    lambda b, w, day, ev, re, move, rank: (b, w, day, ev, re, move, rank),
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(["2024-01-01", "2024-01-05", "2024-01-20", "2024-02", None]),
    st.sampled_from([None, "Cup", "League"]),
    st.sampled_from(list(RESULTS)),
    st.sampled_from(["a", "b"]),
    st.sampled_from([None, "", "3k", "1d"]),
)


def outcomes_of(files):
    out = []
    for n, file in enumerate(files):
        source = f"f{n:03}.sgf"
        if file is None:
            out.append(HistoryOutcome(FileOutcome(source, error="cannot read")))
            continue
        recs, extras = [], []
        for k, (b, w, day, ev, re, move, rank) in enumerate(file, 1):
            where = source if len(file) == 1 else f"{source}#{k}"
            recs.append(
                Record(where, b, w, rank, "2d", RESULTS[re], re, None, None, ev, day, 0, ())
            )
            extras.append(Extra(6.5, 19, move))
        out.append(HistoryOutcome(FileOutcome(source, tuple(recs)), tuple(extras)))
    return out


def finished(assembly):
    games, events, players, files, warnings = assembly.finish(7, ())
    ordered, _ = _in_game_order(games, identity_key)
    return list(ordered), events, players, files, warnings


@settings(max_examples=150, deadline=None)
@given(
    files=st.lists(st.none() | st.lists(records, min_size=1, max_size=3), max_size=14),
    cuts=st.lists(st.integers(0, 14), max_size=3),
)
def test_an_assembly_resumed_from_parts_is_the_one_pass_assembly(files, cuts):
    outcomes = outcomes_of(files)
    whole = Assembly()
    for outcome in outcomes:
        whole.add(outcome)
    sources = [outcome.outcome.source for outcome in outcomes]
    parts, assembly, since = [], Assembly(), Marks()
    for i, outcome in enumerate(outcomes):
        if i in cuts and i:  # save a part, and go on from what was saved (JSON both ways)
            parts.append(json.loads(json.dumps(assembly.state(sources, since))))
            assembly = Assembly.resume(parts, sources[:i], identity_key, 10**6)
            since = assembly.marks()
        assembly.add(outcome)
    assert finished(assembly) == finished(whole)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["2024-01-01", "2024-01-02"]),
            st.sampled_from(["E (2024-01-01)", "F (2024-01-01)"]),
            st.sampled_from([None, 0, 1]),  # None and 0 sort alike
            st.sampled_from(["Ann", "ann", "Bob"]),  # Ann and ann: one name, two spellings
            st.sampled_from(["Ann", "Bob"]),
            st.sampled_from([0.0, 1.0]),
        ),
        max_size=30,
    ),
    old=st.integers(0, 30),
)
def test_a_saved_game_order_extended_is_the_order_sorted_again(rows, old):
    from sodos_hookspecs import GameColumns

    old = min(old, len(rows))

    def columns(rs):
        return GameColumns(
            date=[r[0] for r in rs],
            event=[r[1] for r in rs],
            black=[r[3] for r in rs],
            white=[r[4] for r in rs],
            result=[r[5] for r in rs],
            round=[r[2] for r in rs],
            source=["same" if k % 3 else "other" for k in range(len(rs))],  # ties too
        )

    _, saved = _in_game_order(columns(rows[:old]), identity_key)
    extended, _ = _in_game_order(columns(rows), identity_key, saved if old else None)
    sorted_again, _ = _in_game_order(columns(rows), identity_key)
    assert list(extended.order) == list(sorted_again.order)


def test_a_saved_order_is_not_used_when_the_events_of_its_games_changed():
    from sodos_hookspecs import GameColumns

    def columns(events):
        n = len(events)
        return GameColumns(
            date=["2024-01-01"] * n, event=events, black=["A"] * n, white=["B"] * n,
            result=[1.0] * n, source=[f"s{k}" for k in range(n)],
        )  # fmt: skip

    _, saved = _in_game_order(columns(["Z", "A"]), identity_key)  # row 1 first
    regrouped, _ = _in_game_order(columns(["A", "Z", "M"]), identity_key, saved)
    assert list(regrouped.order) == [0, 2, 1]


@given(st.lists(st.sampled_from([1, 1.0, True, None, "", "x", 0, 0.0, False]), max_size=60))
def test_packed_columns_come_back_value_for_value_and_type_for_type(column):
    back = _unpacked(json.loads(json.dumps(_packed(column))), len(column))
    assert back == column
    assert [type(v) for v in back] == [type(v) for v in column]


def test_games_with_the_same_moves_are_one_game_only_when_everything_else_is_the_same():
    game = ("Cid", "Dan", "2024-01-05", "Cup", "W+R", "a", "3k")
    files = [
        [("Ann", "Bob", "2024-01-05", "Cup", "W+R", "a", "3k")],  # the same moves as...
        [game],
        [game],  # ... this one, a duplicate of the one before, not of the first
        [("Ann", "Bob", "2024-01-05", "Cup", "W+R", "a", "3k")],  # and of the first
    ]
    for resumed_at in (None, 1, 2, 3):
        outcomes = outcomes_of(files)
        sources = [o.outcome.source for o in outcomes]
        assembly = Assembly()
        for i, outcome in enumerate(outcomes):
            if i == resumed_at:
                part = json.loads(json.dumps(assembly.state(sources)))
                assembly = Assembly.resume([part], sources[:i], identity_key, 100)
            assembly.add(outcome)
        games, _, _, files_said, _ = assembly.finish()
        assert len(games) == 2
        assert [(f.status, f.reason) for f in files_said][2:] == [
            ("duplicate", "same game as f001.sgf"),
            ("duplicate", "same game as f000.sgf"),
        ]


def test_a_saved_order_that_is_not_one_is_never_used():
    from sodos_hookspecs import GameColumns

    games = GameColumns(
        date=["2024-01-02", "2024-01-01", "2024-01-03"], event=["E", "E", "E"],
        black=["A", "A", "A"], white=["B", "B", "B"], result=[1.0, 1.0, 1.0],
        source=["s0", "s1", "s2"],
    )  # fmt: skip
    _, saved = _in_game_order(GameColumns(**{k: v[:2] for k, v in games.columns.items()}), str)
    assert saved["order"] == [1, 0]
    for broken in (
        {**saved, "order": [0, 0]}, {**saved, "order": [0, 2]}, {**saved, "order": ["1", 0]},
        {**saved, "games": "2"}, {**saved, "games": 5}, {**saved, "events": "?"},
        {"order": [1, 0]}, None, [1, 0], {**saved, "order": None},
    ):  # fmt: skip
        ordered, _ = _in_game_order(games, str, broken)
        assert list(ordered.order) == [1, 0, 2]
    ordered, _ = _in_game_order(games, str, saved)
    assert list(ordered.order) == [1, 0, 2]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([None, "", "Cup", "League"]),
            st.sampled_from(["2024-01-01", "2024-01-05", "2024-01-08", "2024-01-20"]),
        ),
        max_size=25,
    )
)
def test_events_are_the_rule_written_literally(rows):
    from datetime import date

    files = [[("Ann", "Bob", day, ev, "B+R", str(i), None)] for i, (ev, day) in enumerate(rows)]
    assembly = Assembly()
    for outcome in outcomes_of(files):
        assembly.add(outcome)
    games, events, _, _, _ = assembly.finish(7, ())
    # the rule: an EV's games in date order (then file order); an event starts at a game
    # more than 7 days after the one before; a game without EV is an event of its own
    expected_of, expected = {}, {}
    for ev in dict.fromkeys(ev for ev, _ in rows if ev is not None):
        members = sorted((day, i) for i, (e, day) in enumerate(rows) if e == ev)
        previous = None
        for day, i in members:
            today = date.fromisoformat(day)
            if previous is None or (today - previous).days > 7:
                key = f"{ev} ({day})"
                expected[key] = (ev, day, f"f{i:03}.sgf")
            expected_of[i] = key
            previous = today
    for i, (ev, day) in enumerate(rows):
        if ev is None:
            expected_of[i] = f"f{i:03}.sgf"
            expected[f"f{i:03}.sgf"] = (f"f{i:03}.sgf", day, f"f{i:03}.sgf")
    assert [g.event for g in games] == [expected_of[i] for i in range(len(rows))]
    assert {k: (e.name, e.date, e.source) for k, e in events.items()} == expected
    assert list(events) == list(expected)
