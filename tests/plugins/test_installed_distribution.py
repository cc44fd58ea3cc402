"""A real third-party distribution (tests/example_plugin, replacing SODOS), pip-installed
into a temporary folder and used by ``sodos`` as a child process: everything it changes
is visible."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
from child import sodos_process
from conftest import builtin_host, shared_path

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")


def sodos(*args, cwd: Path, folder: Path) -> subprocess.CompletedProcess:
    """``sodos ARGS`` as a child that finds the distribution installed in ``folder``."""
    return sodos_process(*args, cwd=cwd, env={"PYTHONPATH": str(folder)}, entry_points=True)


def builtin_sodos(path: Path) -> dict[str, float]:
    host = builtin_host()
    s = host.standings(host.read([path]).tournament, criteria=["MMS", "SODOS"])
    return {row.player.name: float(row.values["SODOS"]) for row in s.rows()}


@pytest.mark.slow
def test_a_replaced_criterion_is_said_on_stderr_and_in_every_machine_format(
    example_plugin_dir, tmp_path
):
    juvisy = shared_path(*JUVISY)
    common = ["standings", juvisy, "--criteria", "MMS,SODOS"]
    done = sodos(*common, "--format", "json", cwd=tmp_path, folder=example_plugin_dir)
    assert done.returncode == 0, done.stderr
    line = "plugins: SODOS from sodos-example-plugin 1.0.0 (replaces the built-in)"
    assert line in done.stderr.splitlines()
    data = json.loads(done.stdout)
    assert data["providers"]["SODOS"]["distribution"] == "sodos-example-plugin"
    assert data["providers"]["SODOS"]["replaces"] == "builtin.sodos"
    assert data["providers"]["MMS"]["builtin"] is True
    theirs = {r["player"]["name"]: r["values"]["SODOS"] for r in data["standings"]}
    assert theirs != builtin_sodos(juvisy)  # it does change results ...
    table = sodos(*common, cwd=tmp_path, folder=example_plugin_dir)
    assert line in table.stderr.splitlines()  # ... and says so for people too
    rows = list(csv.reader(io.StringIO(sodos(*common, "--format", "csv", cwd=tmp_path,
                                             folder=example_plugin_dir).stdout)))  # fmt: skip
    assert rows[0][-1] == "SODOS (sodos-example-plugin 1.0.0)"
    page = sodos(*common, "--format", "html", cwd=tmp_path, folder=example_plugin_dir).stdout
    assert "Computed by plugins: SODOS from sodos-example-plugin 1.0.0" in page
    # blocking it brings the built-in back, and nothing is said
    blocked = sodos("-p", "no:example", *common, "--format", "json", cwd=tmp_path,
                    folder=example_plugin_dir)  # fmt: skip
    assert "plugins:" not in blocked.stderr
    ours = {
        r["player"]["name"]: r["values"]["SODOS"] for r in json.loads(blocked.stdout)["standings"]
    }
    assert ours == builtin_sodos(juvisy)


@pytest.mark.slow  # installs the example distribution (the fixture: ~9 s)
def test_version_and_plugins_list_the_distribution(example_plugin_dir, tmp_path):
    version = sodos("--version", cwd=tmp_path, folder=example_plugin_dir).stdout
    assert "  plugin example: sodos-example-plugin 1.0.0 (sodos_example_plugin)" in version
    listing = sodos("plugins", cwd=tmp_path, folder=example_plugin_dir).stdout
    assert listing.startswith(
        "example: entry point sodos_example_plugin (distribution sodos-example-plugin 1.0.0)\n"
        "    criterion SODOS — sum of defeated opponents' wins (example plugin)\n"
        "        replaces built-in SODOS\n"
        "        also stands for built-in SODOSW, SODOSM, SODOMS (family name)\n"
    ), listing
