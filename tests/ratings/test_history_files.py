"""A rating history accounts for every file by its path: a records folder's own
sodos.toml is excluded (tournament settings are not used for ratings), named as given."""

from __future__ import annotations

from conftest import ROOT

from sodos_plugin import Host


def test_a_folders_settings_file_is_excluded_by_its_path():
    host = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
    history = host.history([ROOT / "sample_sgf"])
    settings = [f for f in history.files if f.path.endswith("sodos.toml")]
    assert [(f.path, f.status) for f in settings] == [
        (str(ROOT / "sample_sgf" / "sodos.toml"), "excluded")
    ]
    assert "tournament settings" in settings[0].reason
