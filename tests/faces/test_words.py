"""One word, one meaning (issue 28): ``system`` is the pairing system, ``rating`` the
rating system, in the Python API, the CLI and HTTP; the old spellings keep working and say
so. The core's errors name fields (``round``, ``rating``); each face spells them its way
(the CLI ``--round``, HTTP ``round``), through one table each."""

from __future__ import annotations

import json
import warnings

import pytest
from conftest import ROOT
from sodos_hookspecs import HistoryGame

from sodos_plugin.cli._options import FIELDS as CLI_FIELDS
from sodos_plugin.errors import ConfigError
from sodos_plugin.plugins.registry import KINDS
from sodos_plugin.serve.jobs import FIELDS as HTTP_FIELDS
from sodos_plugin.serve.jobs import Worker
from sodos_plugin.serve.routes import ROUTES

LEAGUE = (ROOT / "docs" / "json" / "league.json").read_bytes()
GAMES = [
    HistoryGame("2024-05-04", "e1", "Ann", "Bob", 1.0),
    HistoryGame("2024-05-05", "e2", "Bob", "Cid", 0.0),
]


def finals(run) -> dict:
    return {name: state.rating for name, state in run.final().items()}


def test_host_ratings_takes_rating_and_the_old_system_with_a_warning(host):
    history = host.history(games=GAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new spelling warns about nothing
        new = host.ratings(history, rating="glicko2")
    with pytest.warns(DeprecationWarning, match="use rating=") as caught:
        old = host.ratings(history, system="glicko2")
    assert caught[0].filename == __file__  # the caller's line is blamed
    assert new.system.name == old.system.name == "glicko2"
    assert finals(new) == finals(old)


def test_rate_game_takes_rating_and_the_old_system_with_a_warning(host):
    new = host.rate_game(None, GAMES[0], rating="glicko2")
    with pytest.warns(DeprecationWarning) as caught:
        old = host.rate_game(None, GAMES[0], system="glicko2")
    assert caught[0].filename == __file__
    assert new.players == old.players


def test_the_registry_names_fields_not_flags():
    assert [k.where for k in KINDS if k.where] == ["criteria", "format", "rating"]
    assert not any(k.where.startswith("-") for k in KINDS)


def test_core_errors_name_the_field(host):
    with pytest.raises(ConfigError) as caught:
        host.ratings(host.history(games=GAMES), rating="nope")
    assert caught.value.where == "rating"
    tournament = host.read([ROOT / "docs" / "json" / "league.json"]).tournament
    with pytest.raises(ConfigError) as caught:
        host.standings(tournament, round=99)
    assert caught.value.where == "round"


def test_every_core_field_has_a_cli_spelling():
    assert {k.where for k in KINDS if k.where} <= set(CLI_FIELDS)
    assert all(option.startswith("--") for option, _ in CLI_FIELDS.values())
    assert not any(field.startswith("-") for field in HTTP_FIELDS.values())


def test_the_cli_spells_a_field_it_was_given(sodos, tmp_path):
    (tmp_path / "league.json").write_bytes(LEAGUE)
    done = sodos("standings", "league.json", "--round", "9")
    assert done.err == "sodos: error: --round: round 9 outside 0..3\n"
    done = sodos("ratings", "league.json", "--rating", "nope")
    assert done.err.startswith("sodos: error: --rating: unknown rating system 'nope'")
    # a criteria list from the config is not --criteria
    done = sodos("standings", "league.json", "-o", 'criteria=["NOPE"]')
    assert done.err.startswith("sodos: error: unknown criterion")


def test_ratings_system_is_the_old_spelling_with_a_note(sodos, tmp_path):
    (tmp_path / "league.json").write_bytes(LEAGUE)
    new = sodos("ratings", "league.json", "--rating", "glicko2")
    old = sodos("ratings", "league.json", "--system", "glicko2")
    assert (new.status, old.status) == (0, 0)
    assert new.out == old.out
    assert "note: --system is the old spelling of --rating" in old.err
    assert "old spelling" not in new.err
    done = sodos("ratings", "league.json", "--rating", "egf", "--system", "glicko2")
    assert done.status == 2 and "give one" in done.err


def test_http_system_on_ratings_is_the_old_spelling_with_a_note(host):
    worker = Worker(host, ROUTES.computed())
    status, new = worker.run("ratings", {"rating": "glicko2"}, LEAGUE)
    assert status == 200, new
    status, old = worker.run("ratings", {"system": "glicko2"}, LEAGUE)
    assert status == 200, old
    new_doc, old_doc = json.loads(new), json.loads(old)
    assert new_doc["players"] == old_doc["players"]
    assert any("old spelling of ?rating=" in note for note in old_doc["notes"])
    assert not any("old spelling" in note for note in new_doc["notes"])


def test_http_names_the_field_the_client_sent(host):
    status, answer = Worker(host, ROUTES.computed()).run("ratings", {"rating": "nope"}, LEAGUE)
    assert status == 400
    assert json.loads(answer)["field"] == "rating"  # was "system": a parameter not sent
    status, answer = Worker(host, ROUTES.computed()).run("ratings", {"system": "nope"}, LEAGUE)
    assert (status, json.loads(answer)["field"]) == (400, "system")  # the old spelling
    status, answer = Worker(host, ROUTES.computed()).run("standings", {"round": 99}, LEAGUE)
    assert (status, json.loads(answer)["field"]) == (400, "round")
