"""Entry-point discovery without importlib.metadata gives importlib.metadata's answer, and
the usual commands import only what they use (issue 13 item 1: start-up)."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import TESTS

from sodos_plugin.plugins import discover

H9 = TESTS / "data" / "egd" / "wagc2015.txt"


def described(eps) -> list[tuple]:
    return [(e.name, e.value, e.group, e.dist.metadata["Name"], e.dist.version) for e in eps]


def both(group: str) -> tuple[list[tuple], list[tuple]]:
    theirs = described(importlib.metadata.entry_points(group=group))
    return theirs, described(discover.entry_points(group))


@pytest.mark.parametrize("group", ["console_scripts", "pytest11", "sodos", "no-such-group"])
def test_this_environment_gives_the_same_entry_points(group):
    theirs, ours = both(group)
    assert ours == theirs


def dist_info(root: Path, folder: str, metadata: str, entry_points: str | None) -> None:
    path = root / folder
    path.mkdir(parents=True)
    (path / ("PKG-INFO" if folder.endswith(".egg-info") else "METADATA")).write_text(metadata)
    if entry_points is not None:
        (path / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def crafted(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    dist_info(
        first,
        "sodos_alpha-1.0.dist-info",
        "Metadata-Version: 2.1\nName: Sodos.Alpha\nVersion: 1.0\nSummary: x\n\nName: body\n",
        "# comment\n[console_scripts]\nalpha = alpha:main\n\n[sodos]\n  a1 =alpha.plugin \n"
        "a2= alpha.other:attr.inner [extra]\n; not a comment = value\n",
    )
    dist_info(
        first, "sodos_beta-2.0.egg-info", "Name: sodos-beta\nVersion: 2.0\n", "[sodos]\nb=b\n"
    )
    dist_info(first, "no_entry_points-1.dist-info", "Name: no-entry-points\nVersion: 1\n", None)
    # the same name again later on the path: the first one wins, as in importlib.metadata
    dist_info(
        second, "Sodos_Alpha-9.9.dist-info", "Name: sodos-alpha\nVersion: 9.9\n", "[sodos]\nz=z\n"
    )
    dist_info(second, "gamma-3.dist-info", "Name: gamma\n", "[sodos]\ng = gamma\n")
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second)])
    return tmp_path


def test_crafted_folders_give_the_same_entry_points_in_the_same_order(crafted):
    for group in ("sodos", "console_scripts"):
        theirs, ours = both(group)
        assert ours == theirs
    names = [row[0] for row in both("sodos")[1]]
    assert names == ["a1", "a2", "; not a comment", "b", "g"]
    ep = discover.entry_points("sodos")[0]
    assert ep.dist.metadata["name"] == "Sodos.Alpha" and ep.dist.metadata["Nope"] is None


def test_a_line_without_equals_is_an_error_as_in_importlib_metadata(crafted):
    (crafted / "first" / "gamma-3.dist-info").mkdir()
    (crafted / "first" / "gamma-3.dist-info" / "entry_points.txt").write_text("[other]\nbroken\n")
    with pytest.raises((ValueError, TypeError)):  # TypeError in Python 3.11
        list(importlib.metadata.entry_points(group="sodos"))
    with pytest.raises(ValueError):
        discover.entry_points("sodos")


def test_a_zip_on_the_path_is_left_to_importlib_metadata(crafted, monkeypatch):
    archive = crafted / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.dist-info/METADATA", "Name: zipped\nVersion: 1\n")
        z.writestr("zipped-1.dist-info/entry_points.txt", "[sodos]\nzipped = zipped\n")
    monkeypatch.setattr(sys, "path", [*sys.path, str(archive)])
    theirs, ours = both("sodos")
    assert ours == theirs and "zipped" in [row[0] for row in ours]


def test_load_imports_the_module_and_follows_the_attributes(tmp_path, monkeypatch):
    (tmp_path / "sodos_disc_mod.py").write_text("class A:\n    class B:\n        value = 42\n")
    dist_info(
        tmp_path,
        "disc-1.dist-info",
        "Name: disc\nVersion: 1\n",
        "[sodos]\nx = sodos_disc_mod:A.B\n",
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    (ep,) = [e for e in discover.entry_points("sodos") if e.name == "x"]
    assert ep.load().value == 42
    broken = discover.EntryPoint("y", "not a value!", "sodos", None)
    with pytest.raises(ValueError, match="malformed"):
        broken.load()


# -- what each command imports ------------------------------------------------------------

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


def test_version_imports_no_reader_no_parser_no_metadata_library(tmp_path):
    modules = imported("--version", cwd=tmp_path)
    assert not heavy(modules, (*NEVER, "argparse", "sodos_plugin.readers", "sodos_plugin.host"))


def test_help_imports_no_host_reader_or_plugin(tmp_path):
    modules = imported("--help", cwd=tmp_path)
    names = (*NEVER, "json", "sodos_plugin.readers", "sodos_plugin.host", "pluggy")
    assert not heavy(modules, names)


def test_plugins_and_h9_standings_import_no_archive_or_process_machinery(tmp_path):
    for args in [("plugins",), ("standings", str(H9), "--format", "json")]:
        modules = imported(*args, cwd=tmp_path)
        assert "sodos_plugin.readers.sgf" in modules  # the plugins were registered
        assert not heavy(modules, [n for n in NEVER if n != "numpy"]), args


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


def test_light_reader_modules_still_read_and_reach_the_implementation(tmp_path):
    from sodos_plugin.readers import opengotha_file, opengotha_xml

    assert opengotha_xml.read_path is opengotha_file.read_path
    assert opengotha_xml.MAX_BYTES == 64 << 20
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = opengotha_xml.no_such_name
    record = tmp_path / "r1.sgf"
    record.write_text("(;GM[1]FF[4]SZ[19]PB[Anna Kovacs]PW[Jonas Novak]RE[B+R]RO[1])")
    from sodos_plugin.readers.sgf import read

    result = read([record], {})
    assert sorted(p.name for p in result.tournament.players) == ["Anna Kovacs", "Jonas Novak"]
