"""Who computed a rating and from what (docs/rules.md §10.1, docs/ratings.md): a
system from a third-party plugin is named on stderr and in every output, as criteria
are; names of ``--initial`` that play in no game are warned in every face; the
configured aliases join players for ratings as for standings; ``standings --rating`` and
``ratings`` start from the same ratings and say which."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import on_path, shared_path
from sodos_hookspecs import GameHistory, HistoryGame

from sodos_plugin.cli import main
from sodos_plugin.ratings.run import rate, resolve_parameters

H9 = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.h9")
XML = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")


@pytest.fixture
def succeed(sodos):
    """``succeed(*args, status=0)``: ``sodos ARGS`` (the ``sodos`` fixture, plugins from
    entry points too), which must end with ``status``; its (out, err)."""

    def run(*args: str, status: int = 0) -> tuple[str, str]:
        done = sodos(*args, entry_points=True)
        assert done.status == status, done.err
        return done.out, done.err

    return run


@pytest.mark.slow
def test_a_system_from_a_plugin_is_named_everywhere(succeed, docs_example_dir, monkeypatch):
    on_path(monkeypatch, docs_example_dir)  # sodos-example-plus: its Elo, an entry point
    base = ["ratings", str(H9), "--rating", "elo", "--no-cache"]
    by = "elo from sodos-example-plus"
    out, err = succeed(*base)
    assert f"plugins: rating system {by}" in err
    assert f"computed by {by}" in out
    out, err = succeed(*base, "--format", "csv")
    assert next(csv.reader(io.StringIO(out)))[2].startswith(f"rating ({by}")
    out, _ = succeed(*base, "--format", "csv", "--history")
    assert next(csv.reader(io.StringIO(out)))[5].startswith(f"after ({by}")
    out, _ = succeed(*base, "--format", "json")
    provided = json.loads(out)["provided_by"]
    assert provided["distribution"] == "sodos-example-plus" and not provided["builtin"]
    out, _ = succeed(*base, "--format", "html")
    assert f"computed by {by}" in out
    explain = ["explain", "Minieri", str(H9), "--ratings", "--rating", "elo", "--no-cache"]
    out, err = succeed(*explain)
    assert f"computed by {by}" in out and f"plugins: rating system {by}" in err
    out, _ = succeed(*explain, "--format", "json")
    assert json.loads(out)["provided_by"]["distribution"] == "sodos-example-plus"
    out, err = succeed("standings", str(H9), "--rating", "elo")
    assert f"Rating change (elo, {by}" in out and f"plugins: rating system {by}" in err
    _, err = succeed(*base, "--save-state", "s.json", status=2)
    assert "elo cannot save its state" in err


def test_built_in_systems_are_not_announced(succeed):
    out, err = succeed("ratings", str(H9), "--no-cache", "--no-entry-points")
    assert "plugins:" not in err and "computed by" not in out


def test_initial_names_that_play_in_no_game_are_warned_in_every_face(succeed, tmp_path):
    start = tmp_path / "start.csv"
    start.write_text("name,rating\nNobody Here,2000\nMinieri Davide,2400\n", encoding="utf-8")
    said = "initial ratings: 1 name(s) play in no game: 'Nobody Here'"
    common = ["--initial", str(start), "--no-entry-points"]
    for fmt in ("table", "json"):
        _, err = succeed("ratings", str(H9), "--no-cache", "--format", fmt, *common)
        assert said in err
        explain = ["explain", "Minieri", str(H9), "--ratings", "--no-cache", "--format", fmt]
        _, err = succeed(*explain, *common)
        assert said in err
        _, err = succeed("standings", str(H9), "--rating", "egf", "--format", fmt, *common)
        assert said in err


def write_records(folder):
    folder.mkdir()
    records = [
        ("2024-01-01", "ann_old", "Bob", "B+R"),
        ("2024-01-02", "Bob", "Ann Lee", "W+R"),
        ("2024-01-03", "Ann Lee", "ANN_OLD", "B+R"),  # the alias against its player
    ]
    for k, (day, black, white, result) in enumerate(records):
        (folder / f"g{k}.sgf").write_text(
            f"(;GM[1]FF[4]SZ[19]DT[{day}]PB[{black}]PW[{white}]RE[{result}]KM[6.5])",
            encoding="utf-8",
        )


def test_aliases_join_players_for_ratings(make_host, tmp_path):
    folder = tmp_path / "games"
    write_records(folder)
    config = {
        "cache": {"enabled": False},
        "plugin": {"builtin.sgf": {"aliases": {"Ann_Old": "ann lee"}}},
    }
    host = make_host(config)
    run = host.ratings(host.history([folder]), rating="ogs")
    assert set(run.final()) == {"Ann Lee", "Bob"}
    assert run.totals()[0] == {"Ann Lee": 2, "Bob": 2}
    excluded = [f for f in run.history.files if f.status == "excluded"]
    assert len(excluded) == 1
    assert excluded[0].reason.endswith(
        """both players are 'Ann Lee' by the aliases ([plugin."builtin.sgf"] aliases)"""
    )
    plain = make_host({"cache": {"enabled": False}})
    assert set(plain.ratings(plain.history([folder]), rating="ogs").final()) == {
        "Ann Lee",
        "ann_old",
        "Bob",
    }


@pytest.mark.parametrize(("system", "start"), [("egf", "rating"), ("glicko2", "rank")])
def test_standings_and_ratings_start_from_the_same_ratings(succeed, system, start):
    common = ["--rating", system, "--format", "json", "--no-entry-points"]
    out, err = succeed("ratings", str(XML), "--no-cache", *common)
    ratings = json.loads(out)
    out, err_standings = succeed("standings", str(XML), *common)
    standings = json.loads(out)["ratings"]
    assert ratings["players"] == standings["players"]
    assert all(start in p["initial"] for p in ratings["players"])
    assert ratings["notes"] == standings["notes"] and len(ratings["notes"]) == 1
    assert f"note: {ratings['notes'][0]}" in err and f"note: {ratings['notes'][0]}" in err_standings
    ranks = json.loads(succeed("ratings", str(XML), "--no-cache", *common, "--initial", "ranks")[0])
    assert all(p["initial"].startswith("rank") for p in ranks["players"]) and not ranks["notes"]


def test_the_help_says_which_start_is_the_default(capsys):
    for command in ("ratings", "standings"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "default: the files' ratings for egf, else ranks" in out
        assert "from ranks by the system's mapping" not in out


def test_a_host_game_history_keeps_every_player_of_a_saved_state(make_host):
    host = make_host({"cache": {"enabled": False}})
    first = host.ratings(GameHistory((HistoryGame("2024-01-01", "e", "a", "b", 1.0),)))
    then = host.ratings(
        GameHistory((HistoryGame("2024-02-01", "f", "a", "c", 1.0),)), state=first.saved_state()
    )
    assert set(then.final()) == {"a", "b", "c"} and then.totals()[0] == {"a": 2, "b": 1, "c": 1}


def test_the_host_says_its_plugin_faults_and_its_start_with_the_run(make_host, tmp_path):
    """``rate`` computes; the host sets what the faces show beside the run: the plugin
    faults after the run's own warnings (each once), the note of the start it chose, who
    provides the system."""
    folder = tmp_path / "games"
    write_records(folder)
    config = {"cache": {"enabled": False}, "disable": ["builtin.nope"]}
    host = make_host(config)
    history = host.history([folder])
    initial = tmp_path / "initial.csv"
    initial.write_text("name,rating\nNobody,1500\n", encoding="utf-8")
    run = host.ratings(history, rating="ogs", initial=initial)
    fault = "blocked plugin 'builtin.nope': no plugin has that name"
    assert any("play in no game: 'Nobody'" in w for w in run.warnings[:-1])
    assert [w for w in run.warnings if w.startswith(fault)] == run.warnings[-1:]
    assert run.notes == [] and run.provided["provided_as"] == "ogs"
    history = host.history([XML])  # its players carry GoR: egf's default start is theirs
    chosen = host.ratings(history, rating="egf")
    assert chosen.notes[0].startswith("egf starts from the ratings the files carry")
    system, plugin = host.rating_system("egf")
    bare = rate(system, plugin, history, resolve_parameters(system, {}, {}), initial="files")
    assert bare.final() == chosen.final()
    assert bare.notes == [] and bare.provided == {} and not any(fault in w for w in bare.warnings)
