"""What each command imports: ``--version``, ``--help``, ``docs``, ``plugins`` and an h9 run import
only what they use (start-up time), and the light reader modules still reach their
implementation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import TESTS

H9 = TESTS / "data" / "egd" / "wagc2015.txt"

PROBE = """
import json, sys
before = set(sys.modules)
from sodos_plugin.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as done:
    status = done.code
sys.stdout.flush()
print(json.dumps([status, sorted(set(sys.modules) - before)]), file=sys.stderr)
"""

NEVER = ("multiprocessing", "concurrent", "tarfile", "zipfile", "importlib.metadata", "numpy")


def imported(*args: str, cwd: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=cwd
    )
    status, modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert done.returncode == 0 and status == 0, done.stderr
    return set(modules)


def heavy(modules: set[str], names) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


#: the command modules: the CLI imports only the one it runs (sodos_plugin.util.lazy)
COMMAND_MODULES = tuple(f"sodos_plugin.cli.{name}" for name in ("standings", "explain", "plugins",
                        "check", "config", "ratings", "schema", "convert", "serve"))  # fmt: skip
#: the ratings machinery: loaded when a command rates
RATINGS = (
    "sodos_plugin.ratings.history",
    "sodos_plugin.ratings.run",
    "sodos_plugin.ratings.report",
)


def test_version_imports_no_reader_no_parser_no_metadata_library(tmp_path):
    modules = imported("--version", cwd=tmp_path)
    names = (*NEVER, "argparse", "traceback", "typing", "sodos_plugin.readers", "sodos_plugin.host")
    assert not heavy(modules, (*names, *COMMAND_MODULES))


def test_help_imports_no_host_reader_plugin_or_command(tmp_path):
    modules = imported("--help", cwd=tmp_path)
    names = (*NEVER, "json", "sodos_plugin.readers", "sodos_plugin.host", "pluggy")
    assert not heavy(modules, (*names, *COMMAND_MODULES))


def test_a_command_imports_its_own_module_only(tmp_path):
    modules = imported("standings", "--help", cwd=tmp_path)
    assert heavy(modules, COMMAND_MODULES) == ["sodos_plugin.cli.standings"]


def test_docs_imports_no_host_reader_or_plugin(tmp_path):
    """``sodos docs`` is as light as ``--help``: it reads a page and prints it."""
    for args in [("docs",), ("docs", "config"), ("docs", "rules", "7"), ("docs", "--help")]:
        modules = imported(*args, cwd=tmp_path)
        assert "sodos_plugin.cli.docs" in modules or args[-1] == "--help"
        names = (*NEVER, "json", "sodos_plugin.readers", "sodos_plugin.host", "pluggy")
        light = (
            "sodos_plugin.plugins.manager",
            "sodos_plugin.plugins.registry",
            "sodos_plugin.config",
        )
        assert not heavy(modules, (*names, *light)), args


def test_plugins_and_h9_standings_import_no_archive_or_process_machinery(tmp_path):
    for args in [("plugins",), ("standings", str(H9), "--format", "json")]:
        modules = imported(*args, cwd=tmp_path)
        assert "sodos_plugin.readers.sgf" in modules  # the plugins were registered
        assert not heavy(modules, [n for n in NEVER if n != "numpy"]), args
        assert not heavy(modules, (*RATINGS, "tempfile", "traceback")), args


#: What the SGF and OpenGotha XML readers import to read: their plugin modules (the
#: package ``sodos_plugin.readers.sgf``, ``opengotha_xml``) are light, so that a run
#: on another format imports none of this.
READER_WORK = (
    "sodos_plugin.readers.sgf.reader",
    "sodos_plugin.readers.sgf.walk",
    "sodos_plugin.readers.sgf.ingest",
    "sodos_plugin.readers.sgf.assemble",
    "sodos_plugin.readers.sgf.scan",
    "sodos_plugin.readers.opengotha_file",
    "sodos_plugin.readers.opengotha_keys",
    "sodos_plugin.readers.safe_xml",
    "sgfmill",
    "defusedxml",
    "xml",
)


def test_plugins_and_h9_standings_import_no_sgf_or_xml_reader_implementation(tmp_path):
    for args in [("plugins",), ("plugins", "--all"), ("standings", str(H9), "--format", "json")]:
        modules = imported(*args, cwd=tmp_path)
        assert {"sodos_plugin.readers.sgf", "sodos_plugin.readers.opengotha_xml"} <= modules
        assert not heavy(modules, READER_WORK), args


def test_light_reader_modules_read_through_their_implementation(tmp_path):
    from sodos_plugin.readers import opengotha_xml
    from sodos_plugin.readers.sgf import read

    assert not hasattr(opengotha_xml, "read_path")  # the implementation is its own module
    path = tmp_path / "t.xml"
    path.write_text(
        "<Tournament><TournamentParameterSet><GeneralParameterSet/></Tournament"
        "ParameterSet></Tournament>"
    )  # no players
    assert opengotha_xml.read([path], {}).tournament.players == ()
    record = tmp_path / "r1.sgf"
    record.write_text("(;GM[1]FF[4]SZ[19]PB[Anna Kovacs]PW[Jonas Novak]RE[B+R]RO[1])")
    result = read([record], {})
    assert sorted(p.name for p in result.tournament.players) == ["Anna Kovacs", "Jonas Novak"]
