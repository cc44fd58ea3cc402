"""After the README's test command the environment is as the user left it: no installed
plugin replaces a built-in, and a conformance file gives the built-in values with entry
points on. Run last (the collection hook in tests/conftest.py); ``.ci/run`` runs it
again after the suite."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import shared_path

from sodos_plugin import Host

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
EXAMPLES = {"sodos-example-plugin", "sodos-example-plus"}


def test_pip_list_holds_no_example_plugin():
    done = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    installed = {p["name"].lower() for p in json.loads(done.stdout)}
    assert "sodos-plugin" in installed
    assert not installed & EXAMPLES


def test_no_installed_plugin_replaces_a_builtin():
    host = Host(config_file=False)  # entry points on, as a user's run
    replacing = {
        name: info.replaces for name, info in host.registry.plugins.items() if info.replaces
    }
    assert replacing == {}
    assert all(host.registry.plugins[p].builtin for p in host.registry.criterion_owner.values())


def test_a_conformance_file_gives_the_builtin_values(host):
    path = shared_path(*JUVISY)
    criteria = ["MMS", "SOSM", "SOSOSM", "SODOS", "SODOSM", "CUSS"]
    user = Host(config_file=False)
    a = user.standings(user.read([path]).tournament, criteria=criteria)
    b = host.standings(host.read([path]).tournament, criteria=criteria)
    assert [(r.player.name, r.values) for r in a.rows()] == [
        (r.player.name, r.values) for r in b.rows()
    ]
    assert all(p["builtin"] for p in a.providers.values())
