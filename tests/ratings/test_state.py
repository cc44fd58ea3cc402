"""Going on from where the last run ended (docs/ratings.md, "Going on from a saved
state"): rating history A, then B (after A's last period) from A's saved state — written
to the state file and read back — gives exactly what rating A + B in one run gives, for
GoR, Glicko-2 (each kind of period) and the OGS preset; WHR re-fits every game. And
what a run from a state refuses."""

from __future__ import annotations

import io
import json
from datetime import date, timedelta

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sodos_hookspecs import (
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    Parameter,
    RatingResult,
    RatingState,
    RatingSystem,
    hookimpl,
)

from sodos_plugin.cli import main
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.ratings.state import parse_state, read_state, write_state

START = date(2024, 1, 1)
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
RANKS = [None, "3d", "1k", "12k", "25k", "2p"]


def make_host(**config):
    config.setdefault("cache", {"enabled": False})
    return builtin_host(config)


HOST = make_host()


@st.composite
def games(draw, events_per_day: bool):
    """Games over a few weeks: each a day, two different players, a result, a handicap,
    a komi (or none); one tournament a day (GoR, Glicko-2 by event) or a game each."""
    n = draw(st.integers(2, 24))
    out = []
    for k in range(n):
        day = draw(st.integers(0, 70))
        black, white = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
        result = draw(st.sampled_from([1.0, 0.0, 0.5]))
        handicap = draw(st.sampled_from([0, 0, 0, 2, 4]))
        komi = draw(st.sampled_from([None, 0.5, 6.5, 7.5]))
        size = draw(st.sampled_from([19, 19, 19, 13, 9]))
        when = (START + timedelta(day)).isoformat()
        event = f"t{day:03d}" if events_per_day else f"g{k:03d}"
        out.append(HistoryGame(when, event, black, white, result, handicap, komi, size, 1, event))
    return sorted(out, key=lambda g: (g.date, g.event))


def history(items, classes=None) -> GameHistory:
    players = {n: HistoryPlayer(n, r) for n, r in zip(NAMES, RANKS) if r}
    events = {}
    for g in items:
        events.setdefault(
            g.event, HistoryEvent(g.event, g.event, g.date, (classes or {}).get(g.event, ""))
        )
    return GameHistory(tuple(items), events=events, players=players)


def saved_and_read(run):
    """A's state through the file: written, read back."""
    stream = io.StringIO()
    write_state(run.saved_state(), stream, provider=run.provider, version="test")
    return parse_state(json.loads(stream.getvalue()), "state.json")


def period_of(game: HistoryGame, period: str) -> int:
    d = date.fromisoformat(game.date)
    return {
        "day": d.toordinal(),
        "week": (d.toordinal() - 1) // 7,
        "month": d.year * 12 + d.month,
        "event": d.toordinal(),  # one tournament a day
        "game": d.toordinal(),
    }[period]


def split_and_compare(system: str, items, cut: int, period: str | None = None, **params):
    """A = the games of the periods before ``cut``, B the rest: one run over A + B and
    A then B from A's state agree exactly."""
    if period is not None:
        params["period"] = period
    kind = period or {"egf": "event", "ogs": "game"}.get(system, "event")
    first = [g for g in items if period_of(g, kind) < cut]
    then = [g for g in items if period_of(g, kind) >= cut]
    whole = HOST.ratings(history(items), rating=system, **params)
    if not first:
        return
    a = HOST.ratings(history(first), rating=system, **params)
    state = saved_and_read(a)
    if not then:
        assert state.players == whole.final()
        return
    b = HOST.ratings(history(then), rating=system, state=state, **params)
    assert b.final() == whole.final()
    assert b.starts() == whole.starts()
    assert b.totals() == whole.totals()
    tail = list(whole.result.steps)[len(list(a.result.steps)) :]
    assert list(b.result.steps) == tail
    assert b.as_dict()["players"] == whole.as_dict()["players"]


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games(events_per_day=True), st.integers(0, 80), st.booleans())
def test_gor_from_a_saved_state_is_one_run(items, cut, pre2021):
    cut = (START + timedelta(cut)).toordinal()
    split_and_compare("egf", items, cut, formula="pre2021" if pre2021 else "2021")


@SETTINGS
@given(games(events_per_day=True), st.integers(0, 80))
def test_gor_with_details_from_a_saved_state_is_one_run(items, cut):
    cut = (START + timedelta(cut)).toordinal()
    whole = HOST.ratings(history(items), details=True)
    first = [g for g in items if date.fromisoformat(g.date).toordinal() < cut]
    then = [g for g in items if date.fromisoformat(g.date).toordinal() >= cut]
    if not first or not then:
        return
    a = HOST.ratings(history(first), details=True)
    b = HOST.ratings(history(then), details=True, state=saved_and_read(a))
    assert b.final() == whole.final()
    assert list(b.result.steps) == list(whole.result.steps)[len(a.result.steps) :]


@SETTINGS
@given(
    games(events_per_day=True),
    st.integers(0, 80),
    st.sampled_from(["event", "day", "week", "month"]),
)
def test_glicko2_from_a_saved_state_is_one_run(items, cut, period):
    day = START + timedelta(cut)
    cut = period_of(HistoryGame(day.isoformat(), "", "", "", 1.0), period)
    split_and_compare("glicko2", items, cut, period)


@SETTINGS
@given(games(events_per_day=False), st.integers(0, 80), st.booleans())
def test_ogs_from_a_saved_state_is_one_run(items, cut, details):
    cut = (START + timedelta(cut)).toordinal()
    first = [g for g in items if date.fromisoformat(g.date).toordinal() < cut]
    then = [g for g in items if date.fromisoformat(g.date).toordinal() >= cut]
    whole = HOST.ratings(history(items), rating="ogs", details=details)
    if not first or not then:
        return
    a = HOST.ratings(history(first), rating="ogs", details=details)
    b = HOST.ratings(history(then), rating="ogs", details=details, state=saved_and_read(a))
    assert b.final() == whole.final()
    assert list(b.result.steps) == list(whole.result.steps)[len(a.result.steps) :]


@settings(max_examples=15, deadline=None)
@given(games(events_per_day=False), st.integers(1, 70))
def test_whr_from_a_saved_state_refits_every_game(items, cut):
    # WHR's state is its games: the run from it fits them with the new ones, as one run
    # over both does; it shows the new days (a run over everything shows the others)
    cut = (START + timedelta(cut)).toordinal()
    first = [g for g in items if date.fromisoformat(g.date).toordinal() < cut]
    then = [g for g in items if date.fromisoformat(g.date).toordinal() >= cut]
    if not first or not then:
        return
    whole = HOST.ratings(history(items), rating="whr")
    a = HOST.ratings(history(first), rating="whr")
    b = HOST.ratings(history(then), rating="whr", state=saved_and_read(a))
    assert b.final() == whole.final()
    new_days = {g.date for g in then}
    assert list(b.result.steps) == [s for s in whole.result.steps if s.date in new_days]


def test_one_game_at_a_time_is_one_run():
    items = [
        HistoryGame("2024-01-01", "g1", "Ann", "Bob", 1.0),
        HistoryGame("2024-01-01", "g2", "Bob", "Cid", 0.0, 2, 0.5),
        HistoryGame("2024-01-02", "g3", "Cid", "Ann", 0.5, 0, 6.5, 9),
    ]
    whole = HOST.ratings(GameHistory(tuple(items)), rating="ogs")
    state = None
    for game in items:
        state = HOST.rate_game(state, game, rating="ogs")
    assert dict(state.players) == whole.final()
    assert state.games == {"Ann": 2, "Bob": 2, "Cid": 2} and state.last_day == "2024-01-02"


def test_a_run_from_a_state_refuses_what_one_run_would_not_give():
    a = HOST.ratings(history([HistoryGame("2024-01-05", "t1", "Ann", "Bob", 1.0)]))
    state = saved_and_read(a)
    later = history([HistoryGame("2024-01-09", "t2", "Ann", "Cid", 0.0)])
    with pytest.raises(ConfigError, match="made with formula = '2021'"):
        HOST.ratings(later, state=state, formula="pre2021")
    with pytest.raises(ConfigError, match="is of 'egf', not 'ogs'"):
        HOST.ratings(later, rating="ogs", state=state)
    for day, event in (("2024-01-04", "t0"), ("2024-01-05", "t1"), ("2024-01-05", "a0")):
        earlier = history([HistoryGame(day, event, "Ann", "Cid", 0.0)])
        with pytest.raises(InputError, match="saved state ends with"):
            HOST.ratings(earlier, state=state)
    same_day_later = history([HistoryGame("2024-01-05", "t9", "Ann", "Cid", 0.0)])
    assert HOST.ratings(same_day_later, state=state).final()["Cid"]
    # ogs: games of the state's last day go on only after its last game
    o = saved_and_read(
        HOST.ratings(history([HistoryGame("2024-01-05", "g5", "Ann", "Bob", 1.0)]), rating="ogs")
    )
    with pytest.raises(InputError, match="game"):
        HOST.ratings(
            history([HistoryGame("2024-01-05", "g4", "Ann", "Bob", 1.0)]), rating="ogs", state=o
        )
    # a name spelt otherwise is the state's player (identity, docs/rules.md §8)
    run = HOST.ratings(history([HistoryGame("2024-02-01", "t3", "ann", "bob", 1.0)]), state=state)
    assert set(run.final()) == {"Ann", "Bob"}


def _flat(history, initial, params):
    return RatingResult(steps=(), final={"a": RatingState(1.0)})


def test_a_system_that_saves_no_state_says_so():
    module = type("m", (), {})()

    @hookimpl
    def sodos_rating_systems():
        return [RatingSystem("flat", "flat", _flat, (Parameter("k", 1.0, "k"),))]

    module.sodos_rating_systems = sodos_rating_systems
    host = make_host()
    host.register(module, "flat-plugin")
    run = host.ratings(history([HistoryGame("2024-01-05", "t1", "a", "b", 1.0)]), rating="flat")
    with pytest.raises(ConfigError, match="flat cannot save its state"):
        run.saved_state()
    state = saved_and_read(HOST.ratings(history([HistoryGame("2024-01-05", "t1", "a", "b", 1.0)])))
    with pytest.raises(ConfigError, match="cannot go on from a saved state"):
        host.ratings(
            history([HistoryGame("2024-02-05", "t2", "a", "b", 1.0)]), rating="flat", state=state
        )


def test_the_command_saves_and_goes_on(tmp_path, capsys):
    first, then = tmp_path / "a.h9", tmp_path / "b.h9"
    h9 = (
        "; EV[{name}]\n; DT[{day}]\n; CL[A]\n;\n; Pl Name  Rk Co Club  MMS\n"
        "   1 Lee Ann    3D XX Club  1  2+/w0\n   2 Marsh Bob  1K XX Club  0  1-/b0\n"
    )
    first.write_text(h9.format(name="Cup", day="2024-03-02"), encoding="utf-8")
    then.write_text(h9.format(name="Open", day="2024-04-06"), encoding="utf-8")
    state = tmp_path / "state.json"
    common = ["--no-entry-points", "--no-cache", "--format", "json"]
    assert main(["ratings", str(first), "--save-state", str(state), *common]) == 0
    capsys.readouterr()
    saved = read_state(state)
    assert (
        saved.system == "egf"
        and saved.last_day == "2024-03-02"
        and set(saved.players) == {"Lee Ann", "Marsh Bob"}
    )
    assert main(["ratings", str(then), "--state", str(state), *common]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main(["ratings", str(first), str(then), *common]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert resumed["players"] == whole["players"] and resumed["continued_from"] == "2024-03-02"
    state.write_text('{"format": "sodos-rating-state", "version": 1, "system": "egf"}')
    assert main(["ratings", str(then), "--state", str(state), *common]) == 2
    assert "last_day" in capsys.readouterr().err
    state.write_text(json.dumps({**json.loads(json.dumps(whole)), "format": "nope"}))
    assert main(["ratings", str(then), "--state", str(state), *common]) == 2
    assert "not a saved state" in capsys.readouterr().err
