"""A saved state is data from disk, checked as input (issue 33): its numbers against the
limits of a start, its texts, its names by the identity rule, its size against
``limits.max_state_bytes``, and each system's own part by the check the system declares.
Each test names what the old code did."""

from __future__ import annotations

import json

import pytest
from conftest import builtin_host
from sodos_hookspecs import GameHistory, HistoryGame

from sodos_plugin.cli import main
from sodos_plugin.errors import InputError, LimitError
from sodos_plugin.ratings.state import read_state, write_state

HOST = builtin_host({"cache": {"enabled": False}})
FIRST = GameHistory(
    (
        HistoryGame("2024-01-01", "e", "Ann", "Bob", 1.0),
        HistoryGame("2024-01-02", "f", "Bob", "Cid", 0.5),
    )
)
LATER = GameHistory((HistoryGame("2024-02-01", "g", "Ann", "Cid", 0.0),))


def saved(tmp_path, system: str, change, **params) -> str:
    """The state of a run over FIRST, changed by ``change(document)``, as a file."""
    run = HOST.ratings(FIRST, rating=system, **params)
    path = tmp_path / f"{system}.json"
    with path.open("w", encoding="utf-8") as stream:
        write_state(run.saved_state(), stream, provider=run.provider, version="0")
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, ensure_ascii=True), encoding="utf-8")
    return str(path)


def player(key, value):
    def change(document):
        document["players"]["Ann"][key] = value

    return change


@pytest.mark.parametrize(
    ("system", "key", "value", "message"),
    [
        ("egf", "rating", 1e308, "rating 1e\\+308 is outside the limit of starting ratings"),
        ("glicko2", "deviation", -5.0, "deviation -5 is outside"),
        ("glicko2", "volatility", -0.06, "volatility -0.06 is not positive"),
        ("ogs", "volatility", 0.0, "volatility 0 is not positive"),
    ],
)
def test_a_states_numbers_are_held_to_the_limits_of_a_start(tmp_path, system, key, value, message):
    # old: only finiteness; 1e308 printed as a final rating, a negative deviation or
    # volatility taken silently
    path = saved(tmp_path, system, player(key, value))
    with pytest.raises(InputError, match=message) as caught:
        HOST.ratings(LATER, rating=system, state=path)
    assert caught.value.where == "players.Ann" and path in str(caught.value)


def own(key, value):
    def change(document):
        document["system_state"][key] = value

    return change


def whr_game(k, value):
    def change(document):
        document["system_state"]["games"][0][k] = value

    return change


@pytest.mark.parametrize(
    ("system", "change", "where", "message"),
    [
        # old: OverflowError blamed on builtin.whr
        ("whr", whr_game(3, 1e300), "system_state.games[0]", "score 1e\\+300 is not 0, 0.5 or 1"),
        ("whr", whr_game(4, 1e300), "system_state.games[0]", "shift 1e\\+300 is not within"),
        ("whr", whr_game(0, -3), "system_state.games[0]", "day -3 is not a day's number"),
        # old: internal error
        ("whr", own("names", [1, 2, 3]), "system_state.names", "expected players' names"),
        ("whr", whr_game(1, 7), "system_state.games[0]", "are not two of the 3 names"),
        # old: carried on silently
        ("glicko2", own("periods", {"Ann": "x"}), "system_state.periods.Ann", "not a day"),
        ("glicko2", own("periods", {"Ann": 10**12}), "system_state.periods.Ann", "not a day"),
        ("glicko2", own("period", "fortnight"), "system_state.period", "expected one of"),
        ("glicko2", own("last", "soon"), "system_state.last", "is not where a day period"),
        ("egf", own("last_event", ["soon", 3]), "system_state.last_event", "expected \\[first"),
        ("egf", own("extra", 1), "system_state.extra", "not a key of GoR's state"),
    ],
)
def test_each_systems_part_of_a_state_is_checked_by_the_system(
    tmp_path, system, change, where, message
):
    params = {"period": "day"} if system == "glicko2" else {}
    path = saved(tmp_path, system, change, **params)
    with pytest.raises(InputError, match=message) as caught:
        HOST.ratings(LATER, rating=system, state=path, **params)
    assert caught.value.where == where and f"saved state of {system}" in str(caught.value)


def test_a_valid_state_of_each_system_is_gone_on_from(tmp_path):
    for system, params in (("egf", {}), ("glicko2", {"period": "day"}), ("ogs", {}), ("whr", {})):
        path = saved(tmp_path, system, lambda document: None, **params)
        one = HOST.ratings(GameHistory((*FIRST.games, *LATER.games)), rating=system, **params)
        later = HOST.ratings(LATER, rating=system, state=path, **params)
        assert later.final() == one.final()


def test_a_lone_surrogate_in_a_name_is_refused_when_read(tmp_path, capsys):
    # old: read, then --save-state died with UnicodeEncodeError
    def change(document):
        document["players"]["Ann\ud800"] = document["players"].pop("Ann")

    path = saved(tmp_path, "ogs", change)
    with pytest.raises(InputError, match="lone surrogate") as caught:
        read_state(path)
    assert caught.value.where == "players"
    games = tmp_path / "later.h9"
    games.write_text(
        "; EV[Cup]\n; DT[2024-03-02]\n;\n; Pl Name  Rk Co Club  MMS\n"
        "   1 Lee Ann    3D XX Club  1  2+/w0\n   2 Marsh Bob  1K XX Club  0  1-/b0\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    args = ["ratings", str(games), "--rating", "ogs", "--state", path, "--save-state", str(out)]
    assert main([*args, "--no-cache", "--no-entry-points"]) == 2
    err = capsys.readouterr().err
    assert "lone surrogate" in err and "UnicodeEncodeError" not in err and not out.exists()


def test_a_surrogate_pair_is_one_character_and_read(tmp_path):
    def change(document):
        document["players"]["Ann \U0001f600"] = document["players"].pop("Ann")

    path = saved(tmp_path, "ogs", change)
    assert "Ann \U0001f600" in read_state(path).players


def test_names_of_one_player_by_the_identity_rule_are_refused(tmp_path):
    # old: Ann, ANN and full-width ａｎｎ taken as three players without a word
    def change(document):
        entry = document["players"]["Ann"]
        document["players"]["ANN"] = dict(entry)
        document["players"]["\uff41\uff4e\uff4e"] = dict(entry)

    path = saved(tmp_path, "ogs", change)
    with pytest.raises(InputError, match="one player by the identity rule") as caught:
        read_state(path)
    assert "'ANN' and 'Ann'" in str(caught.value)


def test_a_state_over_the_limit_names_the_config_key(make_host, tmp_path):
    # old: 1 GiB, not memory-safe (a state just under it ended in MemoryError); the limit
    # is now a config key, and its default keeps reading under 1 GiB
    path = saved(tmp_path, "whr", lambda document: None)
    small = make_host({"limits": {"max_state_bytes": 100}})
    with pytest.raises(LimitError, match="limits.max_state_bytes") as caught:
        small.ratings(LATER, rating="whr", state=path)
    assert path in str(caught.value)
    assert HOST.settings.limits.max_state_bytes * 14 < 1 << 30  # the measured worst: 13.3 per byte
