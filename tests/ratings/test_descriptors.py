"""What a rating system declares is all the core knows of it (issue 28): its decimals,
its scale, its unit and what it saves come from its descriptor, the default system from
config; a third-party system runs through ``sodos ratings`` with no core change."""

from __future__ import annotations

import json
import subprocess

import pytest
from conftest import ROOT, TESTS
from sodos_hookspecs import RatingSystem

from sodos_plugin.cli import main
from sodos_plugin.errors import ConfigError

THIRD_PARTY = TESTS / "third_party"
LEAGUE = {
    "format": "sodos-tournament",
    "version": 1,
    "name": "Club league",
    "date": "2026-03-14",
    "rounds": 1,
    "players": [
        {"name": "Ann Lee", "id": "p1", "rank": "2d", "rating": 2100},
        {"name": "Bob Marsh", "id": "p2", "rank": "1d"},
    ],
    "games": [{"round": 1, "black": "p2", "white": "p1", "result": "B+", "komi": 6.5}],
}


@pytest.fixture
def league(tmp_path):
    path = tmp_path / "league.json"
    path.write_text(json.dumps(LEAGUE), encoding="utf-8")
    return path


def run(capsys, *args):
    code = main([*args, "--no-entry-points", "--no-cache", "-p", "sodos_tp_tenths"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_third_party_system_declares_its_decimals_and_scale(
    league, tmp_path, capsys, monkeypatch
):
    monkeypatch.syspath_prepend(str(THIRD_PARTY))
    code, out, err = run(capsys, "ratings", str(league), "--rating", "tenths")
    assert code == 0, err
    rows = [line.split() for line in out.splitlines()]
    # the files' scale: Ann starts from the file's 2100 (GoR), Bob from the default 1000
    assert any(r[:4] == ["2", "Bob", "Marsh", "1010.2"] for r in rows), out
    assert any(r[:4] == ["1", "Ann", "Lee", "2089.8"] for r in rows), out  # one decimal
    assert "tenths starts from the ratings the files carry" in err
    state = tmp_path / "state.json"
    code, out, err = run(
        capsys, "ratings", str(league), "--rating", "tenths", "--save-state", str(state)
    )
    assert code == 0, err
    assert json.loads(state.read_text())["system_state"] == {"games": 1}


def test_a_third_party_systems_state_is_checked_by_its_own_check(
    league, tmp_path, capsys, monkeypatch
):
    monkeypatch.syspath_prepend(str(THIRD_PARTY))
    state = tmp_path / "state.json"
    assert (
        run(capsys, "ratings", str(league), "--rating", "tenths", "--save-state", str(state))[0]
        == 0
    )
    document = json.loads(state.read_text())
    document["last_day"] = "2026-01-01"
    document["system_state"] = {"games": "many"}
    state.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run(
        capsys, "ratings", str(league), "--rating", "tenths", "--state", str(state)
    )
    assert code == 2
    assert "saved state of tenths: games: expected a count of games, got 'many'" in err
    assert str(state) in err and "system_state.games" in err


def test_the_default_system_comes_from_config(host, make_host, league, capsys):
    glicko2 = make_host({"ratings": {"default": "glicko2"}})
    assert glicko2.ratings(glicko2.history([league])).system.name == "glicko2"
    assert host.rating_system()[0].name == "egf"
    code = main(["ratings", str(league), "--no-cache", "-o", "ratings.default=ogs"])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("ogs"), err
    with pytest.raises(ConfigError, match="ratings.default"):
        make_host({"ratings": {"default": ""}})


def test_the_built_ins_declare_what_the_core_used_to_know(host):
    egf, _ = host.rating_system("egf")
    assert (egf.decimals, egf.file_scale, egf.unit) == (3, True, "event")
    for name, unit in (("glicko2", "period"), ("ogs", "game"), ("whr", "period")):
        system, _ = host.rating_system(name)
        assert (system.decimals, system.file_scale, system.unit) == (2, False, unit)
        assert system.saves and system.check_state is not None


def test_a_descriptor_with_a_unit_or_decimals_out_of_the_list_is_refused():
    with pytest.raises(ValueError, match="unit"):
        RatingSystem("x", "x", lambda *a: None, unit="tournament")
    with pytest.raises(ValueError, match="decimals"):
        RatingSystem("x", "x", lambda *a: None, decimals=-1)


def test_the_core_names_no_built_in_rating_system():
    found = subprocess.run(
        ["git", "grep", "-n", '"egf"', "sodos_plugin/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode not in (0, 1):
        pytest.skip("not a git checkout")
    places = {line.split(":")[0] for line in found.stdout.splitlines()}
    # the GoR plugin, its config default, the list of the built-in systems' modules
    # (the module egf.py), and the unrelated "egf" convention of byes (docs/rules.md §4:
    # the virtual-opponent convention, not a rating system)
    plugins = {
        "sodos_plugin/ratings/systems/egf.py",
        "sodos_plugin/ratings/systems/__init__.py",
        "sodos_plugin/config/settings.py",
    }
    conventions = {
        "sodos_plugin/engine/conventions/base.py",
        "sodos_plugin/schemas/tournament.py",
        "sodos_plugin/schemas/tournament.schema.json",
        "sodos_plugin/readers/opengotha_file.py",
        "sodos_plugin/readers/pairgoth_file.py",  # pairgoth's id key "egf": an EGD PIN
    }
    assert places <= plugins | conventions


def test_a_third_party_reader_gives_history_games(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(THIRD_PARTY))
    ladder = tmp_path / "club.ladder"
    ladder.write_text(
        "2024-05-04 Ann Bob B\n2024-05-11 Bob Cid W\n\n2024-05-18 Cid Ann B\n", encoding="utf-8"
    )
    args = ["ratings", str(ladder), "--format", "json", "--no-entry-points", "--no-cache"]
    assert main([*args, "-p", "sodos_tp_ladder"]) == 0
    out, err = capsys.readouterr()
    run = json.loads(out)
    assert run["games"] == 3 and run["events"] == 3  # three days: not one tournament
    assert {p["name"]: p["games"] for p in run["players"]} == {"Ann": 2, "Bob": 2, "Cid": 2}
    assert {p["initial"] for p in run["players"]} == {"rank 5k"}
    assert run["files"] == [{"path": str(ladder), "status": "ingested", "reason": ""}]
    assert "ladder: 3 game(s)" in run["warnings"]


def test_a_readers_history_of_the_wrong_type_names_the_plugin(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(THIRD_PARTY))
    import sodos_tp_ladder

    monkeypatch.setattr(sodos_tp_ladder, "history", lambda paths, section, run: [])
    ladder = tmp_path / "club.ladder"
    ladder.write_text("2024-05-04 Ann Bob B\n", encoding="utf-8")
    args = ["ratings", str(ladder), "--no-entry-points", "--no-cache", "-p", "sodos_tp_ladder"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "plugin 'sodos_tp_ladder' failed in history (ladder)" in err
    assert "did not return a GameHistory" in err


def test_the_core_routes_no_built_in_reader_by_name():
    found = subprocess.run(
        ["git", "grep", "-n", "builtin.sgf\\|builtin.games_table", "sodos_plugin/ratings"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode not in (0, 1):
        pytest.skip("not a git checkout")
    assert found.stdout == ""


def test_readers_declare_how_they_recognise_stdin(make_host, monkeypatch):
    monkeypatch.syspath_prepend(str(THIRD_PARTY))
    host = make_host({"plugins": ["sodos_tp_ladder"]})
    assert host.stdin_suffix(b"2024-05-04 Ann Bob B\n") == ".ladder"  # the plugin's own
    heads = {
        b"\xef\xbb\xbf (;GM[1]PB[a])": ".sgf",
        b"\xff\xfe(\x00;\x00": ".sgf",
        b"PK\x03\x04": ".zip",
        b"\x1f\x8b\x08": ".tar.gz",
        b'<?xml version="1.0"?>': ".xml",
        b' {"format": "sodos-tournament"}': ".json",
        b"; EV[Cup]\n": ".h9",
        b"date,black,white\n": ".csv",  # a games table (its first line a header)
    }
    for head, suffix in heads.items():
        assert host.stdin_suffix(head) == suffix, head
