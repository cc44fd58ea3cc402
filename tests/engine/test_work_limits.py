"""``limits.max_players`` and ``limits.max_player_rounds``: the work one standings may
cost is bounded by the config, whatever reads the tournament, with an error naming the
key; the memory of the refused input stays far below what computing it would take."""

from __future__ import annotations

import dataclasses
import json

import pytest
from child import clean, cli

from sodos_plugin import Host
from sodos_plugin.errors import InputError, LimitError
from sodos_plugin.readers import json_tournament


def tournament(players: int, rounds: int) -> dict:
    return {
        "format": "sodos-tournament",
        "version": 1,
        "rounds": rounds,
        "players": [{"name": f"p{i}", "rank": "1k"} for i in range(players)],
        "games": [{"round": 1, "black": 0, "white": 1, "result": "B+"}],
    }


def parsed(players: int, rounds: int):
    body = json.dumps(tournament(players, rounds)).encode()
    return json_tournament.parse(body, "t.json", {})[0]


def test_player_rounds_past_the_limit_is_an_error_naming_the_key():
    host = Host({"limits": {"max_player_rounds": 39}}, config_file=False)
    with pytest.raises(LimitError) as error:
        host.standings(parsed(4, 10), round=10)
    assert error.value.limit == "limits.max_player_rounds"
    assert "4 players x 10 rounds = 40 player-rounds" in str(error.value)
    assert "limits.max_player_rounds" in str(error.value)
    # at the limit: computed; the round asked for counts, not the rounds scheduled
    assert Host({"limits": {"max_player_rounds": 40}}, config_file=False).standings(
        parsed(4, 10), round=10
    )
    assert host.standings(parsed(4, 10), round=9).round == 9


def test_players_past_the_limit_is_an_error_naming_the_key():
    with pytest.raises(LimitError, match=r"limits\.max_players"):
        Host({"limits": {"max_players": 3}}, config_file=False).standings(parsed(4, 1))
    assert Host({"limits": {"max_players": 4}}, config_file=False).standings(parsed(4, 1))


@pytest.mark.parametrize("limit", ["max_players", "max_player_rounds"])
def test_a_tournament_past_a_limit_is_refused_naming_its_file(limit):
    """The refusal named the key but not the file (issue 33)."""
    with pytest.raises(LimitError) as error:
        Host({"limits": {limit: 3}}, config_file=False).standings(parsed(4, 1))
    assert error.value.source == "t.json"
    assert str(error.value).startswith("t.json: 4 players")


def test_a_tournament_cannot_raise_the_limit_itself():
    document = tournament(4, 10)
    document["settings"] = {"limits": {"max_player_rounds": 10**6}}
    with pytest.raises(InputError, match="settings.limits: unknown field"):
        json_tournament.parse(json.dumps(document).encode(), "t.json", {})
    # a reader that carries the key anyway: the host's bound (here the default) is checked
    carried = dataclasses.replace(parsed(40_000, 51), settings={"limits.max_player_rounds": 10**7})
    with pytest.raises(LimitError, match="2040000 player-rounds"):
        Host({}, config_file=False).standings(carried, round=51)


def test_a_small_file_declaring_many_rounds_is_refused_in_bounded_memory(tmp_path):
    """50 000 players over 64 rounds: 3.2 million player-rounds, ~450 MB to compute, from
    a 1.3 MB file. Refused by the default limit under a 1 GiB address space."""
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(tournament(50_000, 64)), encoding="utf-8")
    done = cli("standings", str(path), "--round", "64", "--format", "json", cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-500:]
    clean(done)
    assert "3200000 player-rounds" in done.stderr
    assert "(config limits.max_player_rounds)" in done.stderr
    assert done.stdout == ""


def test_the_limit_is_a_checked_config_key():
    with pytest.raises(Exception, match="limits.max_player_rounds"):
        Host({"limits": {"max_player_rounds": 0}}, config_file=False)
