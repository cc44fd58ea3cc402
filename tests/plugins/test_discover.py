"""Entry-point discovery without importlib.metadata gives importlib.metadata's answer:
for this environment and for crafted dist-info and egg-info folders."""

from __future__ import annotations

import importlib.metadata
import sys
import zipfile
from pathlib import Path

import pytest

from sodos_plugin.plugins import discover


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
