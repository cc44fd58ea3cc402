"""Ratings bounded for strangers: a system's non-finite number is its plugin's fault,
starting values beyond the limits are refused naming the line or player, every built-in
system stays finite within them, and a long name does not widen the table."""

from __future__ import annotations

import io
import json

import pytest
from conftest import ROOT, builtin_host
from hypothesis import given, settings
from hypothesis import strategies as st
from service import FAULTS
from sodos_hookspecs import GameHistory, HistoryGame, InitialRating, RatingState

from sodos_plugin import Host
from sodos_plugin.cli import main
from sodos_plugin.errors import InputError, PluginError
from sodos_plugin.ratings.initial import MAX_DEVIATION, MAX_RATING
from sodos_plugin.ratings.report import write
from sodos_plugin.serve import routes

HOST = builtin_host({"cache": {"enabled": False}})
GAMES = GameHistory(
    (
        HistoryGame("2024-01-01", "e", "a", "b", 1.0),
        HistoryGame("2024-01-02", "f", "b", "a", 0.5, 4, 0.5),
        HistoryGame("2024-01-03", "g", "a", "b", 0.0, 2, None, 9),
    )
)


@pytest.fixture
def faults(monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))
    return Host(
        {"cache": {"enabled": False}, "plugins": ["sodos_fault_ratings"]},
        config_file=False,
        entry_points=False,
    )


@pytest.mark.parametrize("system", ["f-inf", "f-nan-step", "f-nan-rd"])
def test_a_non_finite_number_is_the_plugins_fault(faults, system):
    with pytest.raises(PluginError, match=r"plugin 'sodos_fault_ratings' failed in rate"):
        faults.ratings(GAMES, rating=system)


def test_no_infinity_reaches_the_json(faults, tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))
    h9 = tmp_path / "t.h9"
    h9.write_text(
        "; EV[Cup]\n; DT[2024-03-02]\n;\n; Pl Name  Rk Co Club  MMS\n"
        "   1 Lee Ann    3D XX Club  1  2+/w0\n   2 Marsh Bob  1K XX Club  0  1-/b0\n",
        encoding="utf-8",
    )
    args = [
        "ratings",
        str(h9),
        "--rating",
        "f-inf",
        "--format",
        "json",
        "-p",
        "sodos_fault_ratings",
    ]
    assert main([*args, "--no-entry-points", "--no-cache"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "plugin 'sodos_fault_ratings' failed" in err and "final rating" in err
    body = (ROOT / "docs" / "json" / "league.json").read_bytes()
    status, answer = routes.run(faults, ("ratings", {"rating": "f-inf"}, body))
    assert status == 500 and b"Infinity" not in answer and b"sodos_fault_ratings" in answer


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("x,-1e308", "line 2: rating -1e+308 is outside the limit of starting ratings"),
        ("x,1e308", "line 2: rating 1e+308 is outside"),
        ("x,10001", "line 2: rating 10001 is outside the limit of starting ratings, -10000..10000"),
        ("x,1500,-5", "line 2: deviation -5 is outside"),
        ("x,1500,1e9", "line 2: deviation 1e+09 is outside"),
        ("x,nan", "line 2: rating nan is not a finite number"),
        ("x,inf,30", "line 2: rating inf is not a finite number"),
    ],
)
def test_starting_values_beyond_the_limits_name_the_line(tmp_path, row, message):
    path = tmp_path / "start.csv"
    path.write_text(f"name,rating,deviation\n{row}\n", encoding="utf-8")
    with pytest.raises(InputError, match=message.replace("+", r"\+").replace(".", r"\.")):
        HOST.ratings(GAMES, initial=str(path))


def test_starting_values_of_a_host_name_the_player():
    for state in (RatingState(1e308), RatingState(1500.0, -1.0), RatingState(1.0, 30.0, 0.0)):
        with pytest.raises(InputError, match="initial rating of 'a'"):
            HOST.ratings(GAMES, initial={"a": InitialRating(state)})
    limits = {"a": InitialRating(RatingState(MAX_RATING, MAX_DEVIATION))}
    assert HOST.ratings(GAMES, initial=limits, rating="glicko2").result.final["a"]


values = st.floats(-MAX_RATING, MAX_RATING)
deviations = st.one_of(st.none(), st.floats(0.0, MAX_DEVIATION))
volatilities = st.one_of(st.none(), st.floats(1e-300, MAX_DEVIATION))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["egf", "glicko2", "ogs", "whr"]),
    st.lists(st.tuples(values, deviations, volatilities), min_size=2, max_size=2),
    st.booleans(),
)
def test_every_built_in_system_stays_finite_within_the_limits(system, starts, details):
    initial = {n: InitialRating(RatingState(*s)) for n, s in zip("ab", starts)}
    run = HOST.ratings(GAMES, rating=system, initial=initial, details=details)
    assert json.loads(json.dumps(run.as_dict(), allow_nan=False))["players"]


def test_a_long_name_does_not_widen_the_table():
    long = "N" * 100_000
    games = GameHistory(
        (
            HistoryGame("2024-01-01", "e", long, "b", 1.0),
            HistoryGame("2024-01-02", "f", "b", long, 1.0),
        )
    )
    run = HOST.ratings(games, rating="ogs")
    for history in (False, True):
        stream = io.StringIO()
        write(run, "table", stream, history=history)
        text = stream.getvalue()
        assert len(text) < 4000 and max(map(len, text.splitlines())) < 400
        assert "names longer than their column are cut with … (names at 40" in text
    stream = io.StringIO()
    write(run, "json", stream)
    assert any(p["name"] == long for p in json.loads(stream.getvalue())["players"])
