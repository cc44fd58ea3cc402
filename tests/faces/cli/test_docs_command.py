"""``sodos docs``: the documentation pages from the installed package (here the
editable install, which reads the repository's docs/; .ci/run checks the wheel's)."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess

import pytest
from conftest import ROOT

from sodos_plugin.cli.docs import PAGES, folder

DOCS = ROOT / "docs"


def test_the_pages_are_every_page_of_docs():
    assert set(PAGES) == {path.stem for path in DOCS.glob("*.md")}


def test_the_listing_names_every_page_and_the_folder(sodos):
    status, out, _ = sodos("docs")
    assert status == 0
    listed = [line.split()[0] for line in out.splitlines()[1:-1]]
    assert listed == list(PAGES)
    assert out.splitlines()[-1].endswith(str(DOCS))


@pytest.mark.parametrize("page", list(PAGES))
def test_a_page_is_printed_as_the_file_is(sodos, page):
    status, out, _ = sodos("docs", page)
    assert status == 0
    assert out == (DOCS / f"{page}.md").read_text("utf-8")


@pytest.mark.parametrize("name", ["Config", "config.md", "docs/config.md", " CONFIG.MD "])
def test_a_page_is_found_as_people_write_it(sodos, name):
    assert sodos("docs", name).out == (DOCS / "config.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("wanted", "first", "not_after"),
    [
        ("7", "## §7 OpenGotha compatibility", "## §8"),
        ("§7", "## §7 OpenGotha compatibility", "## §8"),
        ("1", "## §1 Scores", "## §2"),  # not §10 or §11
        ("10.2", "### §10.2 EGF GoR since 2021", "### §10.3"),
        ("10", "## §10 Ratings", "## §11"),
    ],
)
def test_a_rules_section_by_its_number(sodos, wanted, first, not_after):
    status, out, _ = sodos("docs", "rules", wanted)
    assert status == 0
    assert out.startswith(first)
    assert not_after not in out
    assert out in (DOCS / "rules.md").read_text("utf-8")
    if wanted == "10":
        assert "### §10.7" in out  # a section holds its subsections


def test_a_section_by_the_words_of_its_heading(sodos):
    status, out, _ = sodos("docs", "hosts", "json TOURNAMENT format")
    assert status == 0 and out.startswith("### The JSON tournament format\n")
    assert "### `sodos serve`" not in out
    # whole words ("serve" is not "a server" in the title), the shortest heading first
    assert sodos("docs", "hosts", "serve").out.startswith("### `sodos serve`\n")
    assert sodos("docs", "hosts", "any language").out.startswith("## Hosts in any")


def test_a_comment_in_a_code_block_is_not_a_heading(sodos):
    assert "# 1. The manager" in (DOCS / "hosts.md").read_text("utf-8")
    status, _, err = sodos("docs", "hosts", "The manager, created")
    assert status == 2 and "no section" in err


def test_an_unknown_page_or_section_is_one_error_line(sodos):
    status, out, err = sodos("docs", "confg")
    assert (status, out) == (2, "")
    assert "did you mean config?" in err and len(err.splitlines()) == 1
    status, _, err = sodos("docs", "rules", "99")
    assert status == 2 and "§7 OpenGotha compatibility" in err


def test_path_names_the_folder_or_the_page(sodos):
    assert sodos("docs", "--path").out == f"{DOCS}\n"
    assert sodos("docs", "--path", "hosts").out == f"{DOCS / 'hosts.md'}\n"


def test_an_installed_package_reads_its_own_pages_first(tmp_path):
    """A wheel's layout: sodos_plugin/docs/*.md inside the package; an editable install's:
    docs/ beside the package; neither: an error that says so."""
    package = tmp_path / "site" / "sodos_plugin"
    package.mkdir(parents=True)
    beside = tmp_path / "site" / "docs"
    shutil.copytree(DOCS, beside, ignore=shutil.ignore_patterns("example_plugin", "java"))
    assert folder(package) == beside
    shutil.copytree(beside, package / "docs")
    assert folder(package) == package / "docs"
    (package / "docs" / "rules.md").unlink()  # incomplete: not the pages
    assert folder(package) == beside
    shutil.rmtree(beside)
    with pytest.raises(Exception, match="documentation pages are not installed"):
        folder(package)


def test_the_wheel_ships_the_pages_and_the_files_they_show():
    """pyproject.toml maps docs/ to sodos_plugin.docs with the pages and example files."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"sodos_plugin.docs" = "docs"' in text
    data = re.search(r'^"sodos_plugin.docs" = \[(.*)\]$', text, re.M).group(1)
    shipped = re.findall(r'"([^"]+)"', data)
    tracked = subprocess.run(
        ["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if tracked.returncode != 0:
        pytest.skip("not a git checkout: which files are the project's is not known")
    for line in tracked.stdout.splitlines():  # every file of docs/ but the top's modules
        name = line.removeprefix("docs/")
        if name.count("/") == 0 and name.endswith(".py"):
            continue  # host_example.py: a module of the package, shipped as one
        same_level = [p for p in shipped if p.count("/") == name.count("/")]
        assert any(fnmatch.fnmatch(name, p) for p in same_level), name
    assert not any(p.endswith("/*") for p in shipped)  # a folder's __pycache__ would go too
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert '"$work/wheelvenv/bin/sodos" docs config >/dev/null' in ci
