"""A rating system's result is checked as it comes back (the one result check of
plugins/call.py), and its parameters against the bounds each declares (issue 33). Each
test names what the old code did."""

from __future__ import annotations

import json

import pytest
from service import FAULTS
from sodos_hookspecs import GameHistory, HistoryGame, Parameter

from sodos_plugin.cli import main
from sodos_plugin.errors import ConfigError, InputError, PluginError

GAMES = GameHistory(
    (
        HistoryGame("2024-01-01", "e", "a", "b", 1.0),
        HistoryGame("2024-01-02", "f", "b", "a", 0.5),
    )
)
PLUGIN = "sodos_fault_rating_types"


@pytest.fixture
def faults(monkeypatch, make_host):
    monkeypatch.syspath_prepend(str(FAULTS))
    return make_host({"cache": {"enabled": False}, "plugins": [PLUGIN]})


@pytest.mark.parametrize(
    ("system", "message"),
    [
        ("t-final-list", "final: expected a mapping"),
        ("t-step-tuples", "steps: expected RatingStep items"),
        ("t-step-player", "a step's player, period or date that is not text"),
        ("t-initial", "initial: expected a mapping name"),
        ("t-warnings", "warnings: expected a list of texts"),
    ],
)
def test_a_result_of_the_wrong_types_names_the_plugin(faults, system, message):
    # old: internal error TypeError/AttributeError, the plugin not named
    with pytest.raises(PluginError, match=message) as caught:
        run = faults.ratings(GAMES, rating=system)
        run.standings(), run.as_dict()
    assert caught.value.plugin == PLUGIN and system in caught.value.hook


@pytest.mark.parametrize(("system", "fault"), [("t-state-set", "set"), ("t-state-nan", "NaN")])
def test_a_state_that_is_not_json_ready_names_the_plugin(faults, tmp_path, capsys, system, fault):
    # old: a TypeError (a set) or "the state cannot be saved" naming no plugin
    with pytest.raises(PluginError, match="state: not JSON-ready") as caught:
        faults.ratings(GAMES, rating=system).saved_state()
    assert caught.value.plugin == PLUGIN
    league = tmp_path / "t.h9"
    league.write_text(
        "; EV[Cup]\n; DT[2024-03-02]\n;\n; Pl Name  Rk Co Club  MMS\n"
        "   1 Lee Ann    3D XX Club  1  2+/w0\n   2 Marsh Bob  1K XX Club  0  1-/b0\n",
        encoding="utf-8",
    )
    state = tmp_path / "state.json"
    args = ["ratings", str(league), "--rating", system, "--save-state", str(state), "-p", PLUGIN]
    assert main([*args, "--no-entry-points", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert f"plugin '{PLUGIN}' failed" in err and "not JSON-ready" in err and not state.exists()


def test_a_state_that_could_not_be_read_back_is_not_saved(faults):
    # a state is read back within the limits of a start: one beyond them is said when
    # saving, not by the next run
    with pytest.raises(InputError, match="the state cannot be saved: 'a': rating 20000"):
        faults.ratings(GAMES, rating="t-state-far").saved_state()


@pytest.mark.parametrize(
    ("system", "param", "value", "message"),
    [
        ("whr", "w2", 0.0, "w2: must be above 0"),  # old: ZeroDivisionError in builtin.whr
        ("glicko2", "volatility", -1.0, "volatility: must be above 0"),  # old: taken silently
        ("egf", "floor", 1e308, "floor: must be below 3300"),  # old: every rating 1e+308
        ("ogs", "tau", 0.0, "tau: must be above 0"),
        ("whr", "iterations", 0, "iterations: must be at least 1"),
        ("egf", "decimals", 99, "decimals: must be at most 15"),
    ],
)
def test_parameters_out_of_their_declared_bounds_are_refused(host, system, param, value, message):
    with pytest.raises(ConfigError, match=message) as caught:
        host.ratings(GAMES, rating=system, **{param: value})
    assert caught.value.where == f"parameters.{param}"


def test_bounds_hold_for_the_config_and_the_command_line(tmp_path, capsys):
    games = tmp_path / "t.h9"
    games.write_text(
        "; EV[Cup]\n; DT[2024-03-02]\n;\n; Pl Name  Rk Co Club  MMS\n"
        "   1 Lee Ann    3D XX Club  1  2+/w0\n   2 Marsh Bob  1K XX Club  0  1-/b0\n",
        encoding="utf-8",
    )
    code = main(["ratings", str(games), "--rating", "whr", "-o", "rating.whr.w2=0", "--no-cache"])
    err = capsys.readouterr().err
    assert code == 2 and "w2: must be above 0 (0 < w2 ≤ 1e+09), got 0.0" in err
    code = main(["ratings", str(games), "--rating", "whr", "--param", "w2=0.5", "--no-cache"])
    assert code == 0


def test_a_parameter_states_its_bounds():
    p = Parameter("w2", 1.0, "", minimum=0.0, minimum_excluded=True)
    assert p.out_of_range(0.0) and p.out_of_range(-1) and p.out_of_range(1e-300) is None
    assert p.bounds() == "0 < w2" and Parameter("x", 1, "").bounds() == ""
    assert Parameter("n", 1, "", minimum=1, maximum=9).bounds() == "1 ≤ n ≤ 9"
    assert Parameter("s", "a", "", minimum=1).out_of_range("zzz") is None  # a text: not a number
    assert json.dumps(p.bounds(), ensure_ascii=False)
