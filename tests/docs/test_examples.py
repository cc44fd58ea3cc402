"""The docs say what the code does: examples run exactly as printed, tables cannot drift.

* ``docs/hosts.md`` shows ``docs/host_example.py`` verbatim and its exact output;
* ``docs/plugins.md`` shows the example package's files verbatim; the installed package
  (pip-installed into a temporary folder by the test) works through its entry point;
* ``docs/config.md``'s key table is exactly the one :func:`config_table` makes from
  :data:`sodos_plugin.config.settings.SCHEMA`;
* ``docs/criteria.md`` covers every built-in criterion, and its worked examples are the
  values the engine computes.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import io
import re
import subprocess
import sys
from fractions import Fraction

import msgspec
import pytest
from builders import B, J, W, seed, tournament
from conftest import ROOT, on_path

from sodos_plugin import Host
from sodos_plugin.config import settings
from sodos_plugin.engine.numbers import format_value
from sodos_plugin.engine.ranks import format_rank

DOCS = ROOT / "docs"
EXAMPLE = DOCS / "example_plugin"


def blocks(markdown: str, language: str) -> list[str]:
    """The fenced code blocks of one language, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, re.S | re.M)


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


# -- hosts.md ---------------------------------------------------------------------------


def test_host_example_is_printed_verbatim_and_runs_as_shown(tmp_path):
    text = read("hosts.md")
    script = (DOCS / "host_example.py").read_text(encoding="utf-8")
    assert script in blocks(text, "python"), "docs/hosts.md must show docs/host_example.py"
    # run exactly as the docs say, from a directory without any sodos.toml
    assert "python docs/host_example.py" in text
    done = subprocess.run(
        [sys.executable, str(DOCS / "host_example.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout in blocks(text, "text"), "docs/hosts.md must show the exact output"


# -- plugins.md -------------------------------------------------------------------------


def test_plugins_md_shows_the_example_package_verbatim():
    text = read("plugins.md")
    assert (EXAMPLE / "pyproject.toml").read_text("utf-8") in blocks(text, "toml")
    assert (EXAMPLE / "sodos_example_plus.py").read_text("utf-8") in blocks(text, "python")
    assert (EXAMPLE / "sample.pairs").read_text("utf-8") in blocks(text, "text")
    assert "pip install ./docs/example_plugin" in text


def load_example_module():
    spec = importlib.util.spec_from_file_location(
        "sodos_example_plus_docs", EXAMPLE / "sodos_example_plus.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_plugin_module_at_run_time(host):
    """The same module, registered as an object: criterion, reader and writer work."""
    host.register(load_example_module(), name="example-plus-runtime")
    read_result = host.read([EXAMPLE / "sample.pairs"])
    t = read_result.tournament
    assert [p.name for p in t.players] == ["Ann", "Bob", "Cid"]
    standings = host.standings(t, system="swiss", criteria=["NBW", "SOS", "BWG"])
    # Ann won with Black in round 1; Cid won with Black (handicap 3) in round 2.
    values = {p.name: standings.value("BWG", i) for i, p in enumerate(t.players)}
    assert values == {"Ann": 1, "Bob": 0, "Cid": 1}
    out = io.StringIO()
    host.write(standings, "markdown", out)
    assert out.getvalue().splitlines()[:3] == [
        "| Pl | Name | Rank | NBW | SOS | BWG |",
        "|---|---|---|---|---|---|",
        "| 1 | Cid | 2k | 2 | 1 | 1 |",
    ]


def test_example_plugin_by_default_win_does_not_count(host):
    module = load_example_module()
    host.register(module, name="example-plus-runtime")
    t = tournament(["X", "Y"], 2, [(1, "X", "Y", B, 0, True), (2, "X", "Y", B)])
    standings = host.standings(t, system="swiss", criteria=["BWG"])
    assert standings.value("BWG", 0) == 1  # round 2 only


def test_example_plugin_game_without_colours_does_not_count(host):
    """An unknown colour is not Black (an h9 token ``12+``: docs/plugins.md, seat.colour)."""
    host.register(load_example_module(), name="example-plus-runtime")
    t = tournament(["X", "Y"], 2, [(1, "X", "Y", B), (2, "X", "Y", B)])
    games = (t.games[0], msgspec.structs.replace(t.games[1], colours_known=False))
    standings = host.standings(dataclasses.replace(t, games=games), system="swiss",
                               criteria=["BWG"])  # fmt: skip
    assert standings.value("BWG", 0) == 1  # round 1 only


def test_example_reader_errors_name_the_line(host, tmp_path):
    from sodos_plugin import InputError

    host.register(load_example_module(), name="example-plus-runtime")
    bad = tmp_path / "bad.pairs"
    bad.write_text("sodos-pairs\nrounds 1\nplayer | Ann | 3x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.pairs:line 3: not a Go rank"):
        host.read([bad])


def test_example_plugin_installed_through_its_entry_point(docs_example_dir, monkeypatch):
    on_path(monkeypatch, docs_example_dir)  # pip-installed, in a temporary folder only
    dist = importlib.metadata.distribution("sodos-example-plus")
    host = Host(config_file=False)
    info = host.registry.plugins["example-plus"]
    assert (info.origin, info.distribution, info.version) == (
        "entry point",
        "sodos-example-plus",
        dist.version,
    )
    assert (info.criteria, info.readers, info.writers) == (["BWG"], ["pairs"], ["markdown"])
    t = host.read([EXAMPLE / "sample.pairs"]).tournament
    standings = host.standings(t, system="swiss", criteria=["NBW", "BWG"])
    assert [standings.value("BWG", i) for i in range(3)] == [1, 0, 1]


# -- config.md --------------------------------------------------------------------------


def default_text(key: str, spec: settings.Key) -> str:
    value = spec.default
    if value is None:
        return "—"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if spec.convert is settings._as_rank:
        return f'`"{format_rank(value)}"`'
    if isinstance(value, Fraction):
        return f"`{format_value(value, half='.5')}`"
    if isinstance(value, tuple):
        return "`[]`"
    if isinstance(value, str):
        return f'`"{value}"`'
    return f"`{value}`"


def config_table() -> str:
    """The key table of docs/config.md, made from SCHEMA."""
    lines = ["| key | default | meaning |", "|---|---|---|"]
    for key, spec in settings.SCHEMA.items():
        meaning = spec.help.replace("|", "\\|")
        lines.append(f"| `{key}` | {default_text(key, spec)} | {meaning} |")
    return "\n".join(lines) + "\n"


def test_config_md_lists_every_key_from_the_schema():
    text = read("config.md")
    start, end = "<!-- keys: made from SCHEMA -->\n", "<!-- keys end -->"
    assert start in text and end in text
    table = text.split(start, 1)[1].split(end, 1)[0]
    assert table == config_table(), "regenerate docs/config.md's table:\n" + config_table()


def test_config_md_examples_are_valid_config():
    for block in blocks(read("config.md"), "toml"):
        data = settings.tomllib.loads(block)
        settings.resolve([("docs/config.md", data)])


# -- criteria.md ------------------------------------------------------------------------


def test_criteria_md_covers_every_builtin_criterion(host):
    text = read("criteria.md")
    headings = " ".join(re.findall(r"^## (.*)$", text, re.M))
    registry = host.registry
    missing = [
        name
        for name, owner in registry.criterion_owner.items()
        if registry.plugins[owner].builtin and not re.search(rf"\b{re.escape(name)}\b", headings)
    ]
    assert not missing, f"add a section for {missing} to docs/criteria.md"


def mcmahon_example():
    return tournament(
        [("Ann", "2d"), ("Bob", "1d"), ("Cid", "1k"), ("Dan", "2k")],
        2,
        [(1, "Cid", "Ann", W, 2), (1, "Dan", "Bob", B, 3), (2, "Ann", "Bob", J)],
        byes=[(2, "Cid")],
        absences=[(2, "Dan")],
    )


@pytest.mark.parametrize(
    ("marker", "build", "system"),
    [("seed", seed, "swiss"), ("mcmahon", mcmahon_example, "mcmahon")],
)
def test_criteria_md_worked_examples(host, marker, build, system):
    text = read("criteria.md")
    table = text.split(f"<!-- example: {marker} -->\n", 1)[1].split("\n\n", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()]
    header, body = rows[0], rows[2:]
    criteria = header[1:]
    t = build()
    standings = host.standings(t, system=system, criteria=criteria)
    names = [p.name for p in t.players]
    assert [row[0] for row in body] == names
    for row in body:
        index = names.index(row[0])
        for name, shown in zip(criteria, row[1:]):
            assert shown == format_value(standings.value(name, index)), (row[0], name)
