"""``sodos config`` and ``--trace-config``: which config files were
read — the working directory's sodos.toml or pyproject.toml, a records folder's
sodos.toml, --config — and where each setting came from."""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT

from sodos_plugin.config.settings import SCHEMA, Settings
from sodos_plugin.config.trace import value_of


def setting(out: str, key: str) -> str:
    (line,) = [line for line in out.splitlines() if line.split()[:1] == [key]]
    return " ".join(line.split()[2:])


def test_every_config_key_has_a_shown_value():
    for key in SCHEMA:
        value_of(Settings(), key)  # an AttributeError names a key sodos config cannot show


@pytest.mark.slow
def test_files_and_origins(sodos, tmp_path):
    records = tmp_path / "records"
    shutil.copytree(ROOT / "sample_sgf", records)
    (tmp_path / "sodos.toml").write_text('criteria = ["MMS", "SOSM"]\n[mcmahon]\nfloor = "20k"\n')
    out = sodos("config", records, "-o", "scoring.absent_mms=0")
    assert out.status == 0, out.err
    text = out.out
    assert f"  {tmp_path / 'sodos.toml'}: read (found in the directory)" in text
    assert f"  {records / 'sodos.toml'}: read (the records folder's own settings)" in text
    assert setting(text, "mcmahon.bar") == f'"3d" ({records / "sodos.toml"})'
    assert setting(text, "mcmahon.floor") == f'"20k" ({tmp_path / "sodos.toml"})'
    assert setting(text, "criteria") == f'["MMS", "SOSM"] ({tmp_path / "sodos.toml"})'
    assert setting(text, "scoring.absent_mms") == "0 (-o scoring.absent_mms=0)"
    assert setting(text, "scoring.bye") == "1 (default)"
    # --config instead; a pyproject.toml without [tool.sodos] is said to be skipped
    (tmp_path / "sodos.toml").unlink()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    other = tmp_path / "other.toml"
    other.write_text('system = "swiss"\n')
    given = sodos("config", "--config", other).out
    assert f"  {other}: read (--config)" in given
    assert setting(given, "system") == f'"swiss" ({other})'
    none = sodos("config").out
    assert f"  {tmp_path / 'sodos.toml'}: absent" in none
    assert f"  {tmp_path / 'pyproject.toml'}: has no [tool.sodos] table" in none
    (tmp_path / "pyproject.toml").write_text('[tool.sodos]\nsystem = "swiss"\n')
    assert setting(sodos("config").out, "system") == (f'"swiss" ({tmp_path / "pyproject.toml"})')


def test_trace_config_goes_to_stderr_with_the_run(sodos):
    done = sodos("--trace-config", "standings", ROOT / "sample_sgf")
    assert done.status == 0, done.err
    assert "Nowak Piotr" in done.out and "config:" not in done.out
    lines = done.err.splitlines()
    assert f"config:   {ROOT / 'sample_sgf' / 'sodos.toml'}: read (the records folder's own " \
        "settings)" in lines  # fmt: skip
    assert any(line.startswith("config:   mcmahon.bar") and '"3d"' in line for line in lines)


def test_serve_keys_show_their_value_and_origin(sodos, tmp_path):
    (tmp_path / "sodos.toml").write_text("[serve]\nport = 9001\n")
    out = sodos("config")
    assert out.status == 0, out.err
    assert setting(out.out, "serve.port") == f"9001 ({tmp_path / 'sodos.toml'})"
    assert setting(out.out, "serve.host") == '"127.0.0.1" (default)'
