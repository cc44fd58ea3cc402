"""A rating history accounts for every file by its path: a records folder's own
sodos.toml is excluded (tournament settings are not used for ratings), named as given."""

from __future__ import annotations

import json

from conftest import ROOT


def test_a_folders_settings_file_is_excluded_by_its_path(make_host):
    host = make_host({"cache": {"enabled": False}})
    history = host.history([ROOT / "sample_sgf"])
    settings = [f for f in history.files if f.path.endswith("sodos.toml")]
    assert [(f.path, f.status) for f in settings] == [
        (str(ROOT / "sample_sgf" / "sodos.toml"), "excluded")
    ]
    assert "tournament settings" in settings[0].reason


def test_a_games_own_komi_is_rated_without_the_events_km(make_host, tmp_path):
    """A JSON game's ``komi`` reaches the history and the rating system (it was dropped
    unless ``info.KM`` was set: "1 game(s) without komi"); a game without one takes the
    event's KM."""
    document = {
        "format": "sodos-tournament",
        "version": 2,
        "name": "Komi",
        "date": "2026-03-14",
        "rounds": 1,
        "players": [{"name": "Ann", "rank": "2d"}, {"name": "Bob", "rank": "1d"},
                    {"name": "Cid", "rank": "1k"}, {"name": "Dan", "rank": "2k"}],
        "games": [{"round": 1, "black": "Bob", "white": "Ann", "result": "B+", "komi": 0.5},
                  {"round": 1, "black": "Dan", "white": "Cid", "result": "W+"}],
    }  # fmt: skip
    path = tmp_path / "komi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    host = make_host({"cache": {"enabled": False}})
    history = host.history([path])
    assert sorted((g.black, g.komi) for g in history.games) == [("Bob", 0.5), ("Dan", None)]
    report = host.ratings(history, rating="glicko2", handicap="effective")
    assert "1 game(s) without komi" in " ".join(report.warnings)  # Dan's: none known
    document["info"] = {"KM": "6.5"}
    path.write_text(json.dumps(document), encoding="utf-8")
    history = host.history([path])
    assert sorted((g.black, g.komi) for g in history.games) == [("Bob", 0.5), ("Dan", 6.5)]
    report = host.ratings(history, rating="glicko2", handicap="effective")
    assert "without komi" not in " ".join(report.warnings)
