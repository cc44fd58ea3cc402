"""Rating systems as plugins, the host API and ``sodos ratings`` (docs/rules.md §10)."""

from __future__ import annotations

import csv
import io
import json
import types
from decimal import Decimal

import pytest
from conftest import builtin_host, shared_path
from sodos_hookspecs import (
    GameHistory,
    HistoryGame,
    InitialRating,
    Parameter,
    RatingResult,
    RatingState,
    RatingSystem,
    hookimpl,
)

from sodos_plugin.engine.model import Game, Player, Result, Tournament
from sodos_plugin.errors import ConfigError, InputError


def make_host(**config):
    config.setdefault("cache", {"enabled": False})
    return builtin_host(config)


def history(*games):
    return GameHistory(tuple(HistoryGame(*g) for g in games))


def test_builtins_register_as_plugins():
    host = make_host()
    names = {p.name for p in host.registry.items("rating_systems")}
    assert names >= {"egf", "glicko2", "ogs", "whr"}
    assert host.registry.lookup("rating_systems", "EGF").plugin == "builtin.egf"
    info = host.registry.plugins["builtin.glicko2"]
    assert info.provides["rating_systems"] == ["glicko2", "ogs"]


def test_blocking_a_builtin_removes_its_systems():
    host = make_host(disable=["builtin.whr"])
    assert host.registry.lookup("rating_systems", "whr") is None
    with pytest.raises(ConfigError, match="unknown rating system 'whr'"):
        host.rating_system("whr")


def _flat(history, initial, params):
    return RatingResult(steps=(), final={n: RatingState(params["level"]) for n in ("a",)})


def plugin_module(name="EGF"):
    module = types.ModuleType("my_ratings")

    @hookimpl
    def sodos_rating_systems():
        return [RatingSystem(name, "flat", _flat, (Parameter("level", 1.0, "the level"),))]

    module.sodos_rating_systems = sodos_rating_systems
    return module


def test_a_third_party_system_replaces_a_builtin_by_case_insensitive_name():
    host = make_host()
    host.register(plugin_module("EGF"), "my-ratings")
    system, owner = host.rating_system("egf")
    assert owner == "my-ratings" and system.description == "flat"
    assert host.registry.plugins["my-ratings"].replaces["rating_systems"] == ["egf"]
    run = host.ratings(history(("2024-01-01", "e", "a", "b", 1.0)), rating="egf", level=7)
    assert run.result.final["a"].rating == 7.0 and run.provider == "my-ratings"


def test_two_third_party_systems_of_one_name_need_prefer():
    host = make_host()
    host.register(plugin_module("elo"), "one")
    host.register(plugin_module("elo"), "two")
    with pytest.raises(ConfigError, match="prefer"):
        host.rating_system("elo")
    chosen = make_host(prefer={"elo": "two"})
    chosen.register(plugin_module("elo"), "one")
    chosen.register(plugin_module("elo"), "two")
    assert chosen.rating_system("elo")[1] == "two"


def test_parameters_come_from_config_section_then_host_and_are_checked():
    host = make_host(rating={"egf": {"formula": "pre2021"}})
    h = history(("2024-01-01", "e", "a", "b", 1.0))
    assert host.ratings(h).parameters["formula"] == "pre2021"
    assert host.ratings(h, formula="2021").parameters["formula"] == "2021"
    with pytest.raises(ConfigError, match="no parameter 'tau'"):
        host.ratings(h, tau=0.3)
    with pytest.raises(ConfigError, match="expected one of 2021, pre2021"):
        host.ratings(h, formula="1996")
    with pytest.raises(ConfigError, match="finite number"):
        host.ratings(h, floor="low")


def test_gor_tournament_rates_every_game_from_the_starting_ratings():
    host = make_host()
    h = history(
        ("2024-01-01", "t", "a", "b", 1.0, 0, None, 19, 1),
        ("2024-01-01", "t", "a", "c", 0.0, 0, None, 19, 2),
    )
    initial = {n: InitialRating(RatingState(r)) for n, r in (("a", 2000), ("b", 2000), ("c", 2100))}
    run = host.ratings(h, initial=initial, decimals=-1, details=True)
    (step,) = run.steps_of("a")
    from sodos_plugin.ratings.systems import egf

    expected = 2000 + egf.game_contribution(2000, 2000, 1, 0, 0)["change"]
    expected += egf.game_contribution(2000, 2100, 0, 0, 0)["change"]
    assert step.after.rating == pytest.approx(expected, abs=1e-9)
    assert sum(v for _, v in step.parts) == pytest.approx(step.after.rating - 2000, abs=1e-9)


def test_gor_floor_and_stored_decimals_are_parts_of_the_change():
    host = make_host()
    initial = {"a": InitialRating(RatingState(-890.0)), "b": InitialRating(RatingState(0.0))}
    run = host.ratings(history(("2024-01-01", "t", "a", "b", 0.0)), initial=initial, details=True)
    (step,) = run.steps_of("a")
    assert step.after.rating == -900.0
    assert [label for label, _ in step.parts][-1] == "floor -900"
    assert sum(v for _, v in step.parts) == pytest.approx(step.after.rating - (-890.0))


def test_gor_class_weight_scales_the_whole_change():
    from sodos_hookspecs import HistoryEvent

    games = (HistoryGame("2024-01-01", "t", "a", "b", 1.0),)
    initial = {n: InitialRating(RatingState(2000.0)) for n in "ab"}
    host = make_host()
    full = host.ratings(GameHistory(games), initial=initial, decimals=-1)
    events = {"t": HistoryEvent("t", "t", "2024-01-01", "C")}
    half = host.ratings(GameHistory(games, events=events), initial=initial, decimals=-1)
    change = full.result.final["a"].rating - 2000
    assert half.result.final["a"].rating - 2000 == pytest.approx(change / 2)


def test_gor_seeds_from_ranks_and_rates_19x19_only():
    host = make_host()
    from sodos_hookspecs import HistoryPlayer

    h = GameHistory(
        (
            HistoryGame("2024-01-01", "t", "a", "b", 1.0),
            HistoryGame("2024-01-02", "u", "a", "b", 1.0, size=9),
        ),
        players={"a": HistoryPlayer("a", "3d"), "b": HistoryPlayer("b", "2p")},
    )
    run = host.ratings(h)
    assert run.result.initial == {"a": "rank 3d", "b": "rank 2p"}
    assert [s.before.rating for s in run.result.steps] == [2300.0, 2730.0]
    assert any("not on 19x19" in w for w in run.warnings)


def test_history_from_host_tournaments_needs_a_date():
    host = make_host()
    t = Tournament(
        "Cup",
        1,
        (Player("a", rank=0), Player("b", rank=-1)),
        (Game(1, 0, 1, Result.WHITE_WINS),),
        date="2024-05-04",
        source="cup",
    )
    h = host.history(tournaments=[t])
    assert [(g.date, g.black, g.white, g.result) for g in h.games] == [
        ("2024-05-04", "a", "b", 0.0)
    ]
    assert h.players["a"].rank == "1d"
    with pytest.raises(InputError, match="no date"):
        host.history(tournaments=[Tournament("x", 0, (), ())])


def test_players_of_one_file_sharing_a_name_are_not_merged_but_reported():
    # OpenGotha writes names it cannot encode as '?': ten rows called '? ?' are ten people,
    # whom a history (names only) cannot tell apart, so their games are excluded, said.
    host = make_host()
    t = Tournament(
        "Cup",
        1,
        (Player("? ?", rank=0), Player("? ?", rank=-5), Player("Ann", rank=0), Player("Bob")),
        (Game(1, 0, 2, Result.WHITE_WINS), Game(1, 1, 3, Result.BLACK_WINS)),
        date="2024-05-04",
        source="cup.h9",
    )
    h = host.history(tournaments=[t])
    assert h.games == ()
    assert "? ?" not in h.players
    excluded = [f for f in h.files if f.status == "excluded"]
    assert [f.path for f in excluded] == [
        "cup.h9: round 1: ? ? vs Ann",
        "cup.h9: round 1: ? ? vs Bob",
    ]
    assert all("'? ?' names 2 players of this file" in f.reason for f in excluded)


def test_initial_ratings_csv(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("name,rating,deviation\nAlice,2100.5,80\nbob,1500\n", "utf-8")
    host = make_host()
    h = history(("2024-01-01", "t", "Alice", "Bob", 1.0))
    run = host.ratings(h, rating="glicko2", initial=str(path), details=True)
    assert run.result.initial["Alice"] == "r.csv:2"
    assert run.result.initial["Bob"] == "r.csv:3"  # matched by identity (case)
    first = {s.player: s.before for s in run.result.steps}
    assert first["Alice"].rating == 2100.5 and first["Alice"].deviation == 80
    bad = tmp_path / "bad.csv"
    bad.write_text("a,1\nA,2\n", "utf-8")
    with pytest.raises(InputError, match="line 2"):
        host.ratings(h, initial=str(bad))


def test_cli_json_is_the_host_api_as_dict(sodos):
    folder = shared_path("sgf", "tournament")
    done = sodos("ratings", str(folder), "--format", "json", "--no-cache")
    assert done.status == 0, done.err
    host = make_host()
    run = host.ratings(host.history([folder]))
    assert json.loads(done.out) == json.loads(json.dumps(run.as_dict()))


def test_cli_ratings_over_h9_files_in_date_order(sodos):
    folder = shared_path("conformance", "go")
    files = sorted(str(p) for p in folder.glob("*h9*"))
    done = sodos("ratings", *files, "--format", "csv", "--history")
    assert done.status == 0, done.err
    rows = done.out.splitlines()[1:]
    dates = [row.split(",")[0] for row in rows]
    assert dates == sorted(dates) and dates[0] == "2019-10-26" and dates[-1] == "2025-05-18"


def test_csv_and_json_print_the_same_change_the_difference_of_the_printed_ratings(sodos):
    # 2088.462 -> 2100.365 is +11.903, not the binary subtraction's 11.902999999999793
    folder = shared_path("conformance", "go")
    files = [str(folder / "opengotha_Tournoi_de_Juvisy.h9")]
    csv_done = sodos("ratings", *files, "--format", "csv", "--history", "--no-cache")
    json_done = sodos("ratings", *files, "--format", "json", "--no-cache")
    assert csv_done.status == json_done.status == 0, csv_done.err + json_done.err
    rows = list(csv.DictReader(io.StringIO(csv_done.out)))
    periods = json.loads(json_done.out)["periods"]
    assert len(rows) == len(periods) > 10
    for row, period in zip(rows, periods):
        assert float(row["change"]) == period["change"]
        printed = Decimal(row["after"]) - Decimal(row["before"])
        assert Decimal(row["change"]) == printed, row


def test_cli_unknown_system_fails_fast(sodos):
    done = sodos("ratings", "nowhere", "--system", "glicko")
    assert done.status == 2 and "did you mean glicko2" in done.err


def test_the_same_tournament_in_two_formats_is_rated_once():
    folder = shared_path("conformance", "go")
    host = make_host()
    h = host.history(
        [folder / "opengotha_Tournoi_de_Juvisy.h9", folder / "opengotha_Tournoi_de_Juvisy.xml"]
    )
    statuses = {f.path.rsplit("/", 1)[-1]: f.status for f in h.files if ": round" not in f.path}
    assert statuses == {
        "opengotha_Tournoi_de_Juvisy.h9": "ingested",
        "opengotha_Tournoi_de_Juvisy.xml": "duplicate",
    }


def test_a_change_is_the_difference_of_the_printed_ratings():
    import numpy

    from sodos_plugin.ratings.run import change

    assert 2100.365 - 2088.462 != 11.903  # what the binary subtraction printed before
    assert change(2088.462, 2100.365) == 11.903
    assert change(numpy.float64(1500.0), numpy.float64(1520.25)) == 20.25
    assert change(1500, 1520) == 20 and isinstance(change(1500, 1520), int)
