"""``sodos config`` and ``--trace-config``: which config files were
read — the working directory's sodos.toml or pyproject.toml, a records folder's
sodos.toml, --config — and where each setting came from."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from sodos_plugin.config.settings import SCHEMA, Settings
from sodos_plugin.config.trace import value_of


def sodos(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SODOS_")}
    return subprocess.run(
        [sys.executable, "-m", "sodos_plugin.cli", *map(str, args), "--no-entry-points"],
        cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120,
    )  # fmt: skip


def setting(out: str, key: str) -> str:
    (line,) = [line for line in out.splitlines() if line.split()[:1] == [key]]
    return " ".join(line.split()[2:])


def test_every_config_key_has_a_shown_value():
    for key in SCHEMA:
        value_of(Settings(), key)  # an AttributeError names a key sodos config cannot show


@pytest.mark.slow
def test_files_and_origins(tmp_path):
    records = tmp_path / "records"
    shutil.copytree(ROOT / "sample_sgf", records)
    (tmp_path / "sodos.toml").write_text('criteria = ["MMS", "SOSM"]\n[mcmahon]\nfloor = "20k"\n')
    out = sodos("config", records, "-o", "scoring.absent_mms=0", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout
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
    given = sodos("config", "--config", other, cwd=tmp_path).stdout
    assert f"  {other}: read (--config)" in given
    assert setting(given, "system") == f'"swiss" ({other})'
    none = sodos("config", cwd=tmp_path).stdout
    assert f"  {tmp_path / 'sodos.toml'}: absent" in none
    assert f"  {tmp_path / 'pyproject.toml'}: has no [tool.sodos] table" in none
    (tmp_path / "pyproject.toml").write_text('[tool.sodos]\nsystem = "swiss"\n')
    assert setting(sodos("config", cwd=tmp_path).stdout, "system") == (
        f'"swiss" ({tmp_path / "pyproject.toml"})'
    )


def test_trace_config_goes_to_stderr_with_the_run(tmp_path):
    done = sodos("--trace-config", "standings", ROOT / "sample_sgf", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Nowak Piotr" in done.stdout and "config:" not in done.stdout
    lines = done.stderr.splitlines()
    assert f"config:   {ROOT / 'sample_sgf' / 'sodos.toml'}: read (the records folder's own " \
        "settings)" in lines  # fmt: skip
    assert any(line.startswith("config:   mcmahon.bar") and '"3d"' in line for line in lines)


def test_serve_keys_show_their_value_and_origin(tmp_path):
    (tmp_path / "sodos.toml").write_text("[serve]\nport = 9001\n")
    out = sodos("config", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert setting(out.stdout, "serve.port") == f"9001 ({tmp_path / 'sodos.toml'})"
    assert setting(out.stdout, "serve.host") == '"127.0.0.1" (default)'
