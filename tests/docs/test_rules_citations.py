"""The rules travel with the package: every citation of a rule in
code, docs and ``explain`` output names the project's own page, docs/rules.md, by a
section that exists — never a file outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

from sodos_plugin import Host

RULES = ROOT / "docs" / "rules.md"
TEXT_FILES = ("*.py", "*.md", "*.toml", "run")
SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__"}
OUTSIDE = re.compile(r"REFERENCE(?:-opengotha)?\.md|\.\./shared/REFERENCE|/work/shared")
CITATION = re.compile(r"rules\.md\)?\s+§(\d+)")


def project_files() -> list[Path]:
    found = []
    for pattern in TEXT_FILES:
        for path in ROOT.rglob(pattern):
            parts = set(path.relative_to(ROOT).parts)
            if parts & SKIP_DIRS or any(p.endswith(".egg-info") for p in parts):
                continue
            found.append(path)
    return found


def sections() -> set[int]:
    return {int(n) for n in re.findall(r"^## §(\d+) ", RULES.read_text("utf-8"), re.M)}


def test_rules_page_has_its_thirteen_sections():
    assert sections() == set(range(1, 14))


def test_no_citation_of_a_file_outside_the_repository():
    this = Path(__file__).resolve()
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in project_files()
        if path.resolve() != this
        for n, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, offenders


def test_every_rules_citation_names_an_existing_section():
    known = sections()
    cited = {
        (str(path.relative_to(ROOT)), int(n))
        for path in project_files()
        for n in CITATION.findall(path.read_text("utf-8", errors="replace"))
    }
    assert cited, "no citation found: the pattern is wrong"
    assert {c for c in cited if c[1] not in known} == set()


def test_every_builtin_criterion_cites_the_rules_page(host: Host):
    for name, criterion in host.registry.criteria.items():
        assert CITATION.search(criterion.source), (name, criterion.source)


def test_explain_prints_the_rules_page_as_the_source(sodos):
    sample = ROOT / "sample_sgf"
    done = sodos("explain", "Nowak", sample)
    rules = [line for line in done.out.splitlines() if line.strip().startswith("rule:")]
    assert rules, done.out + done.err
    assert all("docs/rules.md §" in line for line in rules), rules
