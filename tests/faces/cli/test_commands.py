"""The ``sodos`` command, run as a person runs it (in this process, through ``main``;
in a child where a terminal is the point).

Every command and every output format, and the error cases: each error is one line
on stderr with exit status 2 and no traceback (``--debug`` shows it).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from child import sodos_process
from conftest import ROOT, Done, builtin_host, on_path, shared_path

from sodos_plugin import Host
from sodos_plugin.engine.numbers import format_value

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
WAGC = ("conformance", "go", "h9_wagc2025_opengotha.txt")


def one_line_error(done: Done, *fragments: str) -> str:
    assert done.status == 2, (done.out, done.err)
    lines = done.err.splitlines()
    assert len(lines) == 1, done.err
    assert lines[0].startswith("sodos: error: ")
    assert "Traceback" not in done.err
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


@pytest.fixture
def juvisy() -> Path:
    path = shared_path(*JUVISY)
    if not builtin_host().registry.readers:
        pytest.skip("no reader installed yet")
    return path


def api_standings(path: Path, **options):
    host = builtin_host()
    return host.standings(host.read([path]).tournament, **options)


WRITERS = sorted(builtin_host().registry.writers)


@pytest.mark.parametrize("fmt", WRITERS)
def test_standings_every_format(sodos, juvisy, fmt):
    done = sodos("standings", juvisy, "--format", fmt)
    assert done.status == 0, done.err
    assert done.out.strip()
    expected = api_standings(juvisy)
    names = [row.player.name for row in expected.rows()]
    if fmt == "json":
        assert json.loads(done.out) == json.loads(json.dumps(expected.as_dict()))
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(done.out)))
        assert [r["name"] for r in rows] == names
        for row, want in zip(rows, expected.rows()):
            for c in expected.criteria:
                assert Fraction(row[c]) == want.values[c]
    elif fmt == "html":
        assert done.out.startswith("<!DOCTYPE html>")
        assert all(name.replace("&", "&amp;") in done.out for name in names)
    else:
        for name in names:
            assert name in done.out


def test_table_aligns_and_shares_places(sodos):
    path = shared_path(*WAGC)
    done = sodos("standings", path)
    assert done.status == 0, done.err
    expected = api_standings(path)
    lines = done.out.splitlines()
    # places are shared, so a Num column numbers the lines that round cells refer to
    header = next(i for i, line in enumerate(lines) if line.split()[:3] == ["Num", "Pl", "Name"])
    body = lines[header + 1 : header + 1 + len(expected.tournament.players)]
    # the last column is numeric and right-aligned: every row ends where the header ends
    assert {len(line) for line in body} == {len(lines[header])}
    last = expected.criteria[-1]
    for number, (line, row) in enumerate(zip(body, expected.rows()), start=1):
        assert line.split()[:2] == [str(number), f"{row.place}{'=' if row.tied else ''}"]
        assert line.endswith(format_value(row.values[last]))
    assert any(row.tied for row in expected.rows())  # shared places are really exercised


def test_standings_options(sodos, juvisy, tmp_path):
    out = tmp_path / "out.json"
    config = tmp_path / "mine.toml"
    config.write_text('criteria = ["MMS", "SOS"]\n[mcmahon]\nbar = "2d"\n', encoding="utf-8")
    done = sodos(
        "standings", juvisy, "--config", config, "-o", "scoring.absent_mms=0", "--round", "2",
        "--criteria", "mms,SOSM-1,SODOS", "--format", "json", "--output", out,
        )  # fmt: skip
    assert done.status == 0, done.err
    assert done.out == ""
    data = json.loads(out.read_text("utf-8"))
    assert data["criteria"] == ["MMS", "SOSM-1", "SODOS"]
    assert data["tournament"]["rounds"] == 2
    host = Host(config_file=config, overrides=["scoring.absent_mms=0"], entry_points=False)
    expected = host.standings(
        host.read([juvisy]).tournament, round=2, criteria=["MMS", "SOSM-1", "SODOS"]
    )
    assert data == json.loads(json.dumps(expected.as_dict()))
    swiss = sodos(
        "standings", juvisy, "--system", "swiss", "--format", "json", )  # fmt: skip
    assert json.loads(swiss.out)["tournament"]["system"] == "swiss"


def test_explain(sodos, juvisy):
    expected = api_standings(juvisy, criteria=["MMS", "SOSM", "SOSM-1", "SODOSM"])
    first = expected.rows()[0]
    done = sodos(
        "explain", first.player.name.lower(), juvisy, "--criteria", "MMS,SOSM,SOSM-1,SODOSM",
        )  # fmt: skip
    assert done.status == 0, done.err
    assert done.out.startswith(first.player.name)
    for name in expected.criteria:
        assert f"{name} = {format_value(first.values[name])} " in done.out
    assert done.out.count("sum: ") == 3 and "total: " in done.out


PLUGIN = """
from sodos_hookspecs import Breakdown, Criterion, hookimpl

def compute(ctx):
    return Breakdown(denominator=1, totals=[0] * ctx.size)

@hookimpl
def sodos_criteria():
    return [Criterion("CUSS", "always 0 (test)", compute), Criterion("ZERO", "0 (test)", compute)]
"""


def test_plugins_shows_origin_replacement_and_blocked(sodos, monkeypatch, tmp_path):
    (tmp_path / "my_cli_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (tmp_path / "sodos.toml").write_text(
        'plugins = ["my_cli_plugin"]\ndisable = ["builtin.sodoms"]\n', encoding="utf-8"
    )
    on_path(monkeypatch, tmp_path)  # the config names the module
    done = sodos("plugins")
    assert done.status == 0, done.err
    text = done.out
    assert text.startswith(
        f"my_cli_plugin: module my_cli_plugin (named in {tmp_path / 'sodos.toml'})\n"
        "    criterion CUSS — always 0 (test)\n"
        "        replaces built-in CUSS\n"
        "        also stands for built-in CUSSW, CUSSM (family name)\n"
        "    criterion ZERO — 0 (test)\n"
    ), text
    assert "replaced: CUSSW by my_cli_plugin, CUSSM by my_cli_plugin, CUSS by my_cli_plugin" in text
    assert "blocked: builtin.sodoms" in text
    assert "builtin.html" not in text  # built-ins are folded behind --all
    every = sodos("plugins", "--all").out
    assert "builtin.sodoms [blocked]: built-in" in every
    assert "builtin.html: built-in\n    writer html — " in every
    assert "    criterion CUSSM — cumulative sum of scores (MMS form)\n" in every
    assert "        replaced by my_cli_plugin\n" in every
    data = json.loads(sodos("plugins", "--format", "json").out)
    by_name = {p["name"]: p for p in data}
    assert by_name["my_cli_plugin"]["origin"] == "config"
    assert by_name["my_cli_plugin"]["criteria"] == ["CUSS", "ZERO"]
    assert by_name["my_cli_plugin"]["replaces"] == ["CUSS", "CUSSW", "CUSSM"]
    assert by_name["builtin.cuss"]["replaced_by"] == {
        "CUSSW": "my_cli_plugin",
        "CUSSM": "my_cli_plugin",
        "CUSS": "my_cli_plugin",
    }
    assert by_name["builtin.sodoms"]["status"] == "blocked"
    for plugin in data:  # entry points name their distribution
        if plugin["origin"] == "entry point":
            assert plugin["distribution"] and plugin["version"]
            assert f"distribution {plugin['distribution']} {plugin['version']}" in (plugin["where"])


def test_check(sodos, tmp_path):
    ok = sodos("check")
    assert ok.status == 0 and "ok: system mcmahon; criteria MMS, SOSM, SOSOSM" in ok.out
    advice = sodos("check", "--criteria", "MMS,SODOS")
    assert advice.status == 0 and "warning: SODOS in a McMahon" in advice.out
    strict = sodos("check", "--criteria", "MMS,SODOS", "--strict")
    assert strict.status == 1
    swiss = sodos("check", "--system", "swiss", "--criteria", "NBW,SODOS")
    assert "controversial" in swiss.out
    unknown = sodos("check", "--criteria", "MMS,SOSS")
    assert unknown.status == 1
    assert "error: unknown criterion 'SOSS' (did you mean" in unknown.out
    twice = sodos("check", "--criteria", "SOS,sos")
    assert twice.status == 1 and "listed twice" in twice.out
    bad = tmp_path / "bad.toml"
    bad.write_text('sytem = "swiss"\n', encoding="utf-8")
    key = sodos("check", "--config", bad)
    assert key.status == 1 and "unknown config key 'sytem'" in key.out
    missing = sodos("check", "--config", tmp_path / "nope.toml")
    one_line_error(missing, "nope.toml", "cannot read config")


def test_check_with_file_uses_its_start_scores(sodos, juvisy):
    done = sodos("check", juvisy)
    assert done.status == 0, done.out + done.err
    assert "ok: system mcmahon" in done.out


@pytest.mark.slow
def test_errors_are_one_line_exit_2(sodos, juvisy, tmp_path):
    one_line_error(sodos("standings", juvisy, "--fromat", "json"), "did you mean --format?")
    one_line_error(sodos("standings", juvisy, "--round", "x"), "--round")
    one_line_error(sodos("stand", juvisy), "invalid choice")
    one_line_error(
        sodos("standings", juvisy, "--criteria", "MMS,SODOSS"),
        "unknown criterion 'SODOSS'",
        "did you mean SODOS",
    )
    one_line_error(sodos("standings", juvisy, "--format", "htm"), "did you mean html?")
    one_line_error(sodos("standings", tmp_path / "missing.xml"), "missing.xml")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01 not a tournament")
    one_line_error(sodos("standings", junk), "junk.bin", "no reader recognises")
    one_line_error(sodos("standings", juvisy, "--round", "99"), "round 99")
    one_line_error(sodos("explain", "Nobody Here", juvisy), "no player called 'Nobody Here'")
    unwritable = tmp_path / "no" / "such" / "dir.json"
    one_line_error(sodos("standings", juvisy, "--output", unwritable), "dir.json")
    bad = tmp_path / "bad.toml"
    bad.write_text("system = [", encoding="utf-8")
    one_line_error(sodos("standings", juvisy, "--config", bad), "not valid TOML")


def test_debug_shows_the_traceback(sodos, tmp_path):
    done = sodos("--debug", "standings", tmp_path / "missing.xml")
    assert done.status == 2
    assert "Traceback" in done.err and "missing.xml" in done.err.splitlines()[-1]


def test_sgf_folder_as_the_readme_shows(sodos, host):
    folder = ROOT / "sample_sgf"
    if not folder.is_dir():
        pytest.skip("sample_sgf/ not in this checkout")
    if not any(reader.claims(folder, b"") for reader, _ in host.registry.readers):
        pytest.skip("no reader claims an SGF folder yet")
    done = sodos("standings", folder, "--format", "json")
    assert done.status == 0, done.err
    expected = host.standings(host.read([folder]).tournament)
    assert json.loads(done.out) == json.loads(json.dumps(expected.as_dict()))
    first = expected.order[0]
    name = expected.tournament.players[first].name
    explained = sodos("explain", name, folder)
    assert explained.status == 0, explained.err
    assert explained.out.startswith(name)


def test_check_reports_a_criterion_two_plugins_provide(sodos, monkeypatch, tmp_path):
    for name in ("plug_one", "plug_two"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (tmp_path / "sodos.toml").write_text('plugins = ["plug_one", "plug_two"]\n', encoding="utf-8")
    on_path(monkeypatch, tmp_path)  # the config names the module
    done = sodos("check")
    assert done.status == 1, done.out + done.err
    assert "provided by plugins" in done.out and "[prefer]" in done.out
    with (tmp_path / "sodos.toml").open("a", encoding="utf-8") as config:
        config.write('[prefer]\nCUSS = "plug_two"\nZERO = "plug_one"\n')
    chosen = sodos("check", "--criteria", "ZERO,CUSS")
    assert chosen.status == 0, chosen.out + chosen.err
    plugins = json.loads(sodos("plugins", "--format", "json").out)
    owners = {p["name"]: p for p in plugins}
    # [prefer] on the bare name chooses for its forms too
    assert owners["builtin.cuss"]["replaced_by"] == {
        "CUSSW": "plug_two",
        "CUSSM": "plug_two",
        "CUSS": "plug_two",
    }


def test_records_without_rounds_get_a_hint_towards_ratings(sodos, tmp_path):
    for n, (b, w) in enumerate([("Ann", "Bob"), ("Cid", "Dan")]):
        (tmp_path / f"g{n}.sgf").write_text(f"(;GM[1]SZ[19]PB[{b}]PW[{w}]RE[B+R];B[aa])")
    done = sodos("standings", str(tmp_path))
    assert done.status == 2
    assert "hint: 2 record(s) without a round" in done.err
    assert "'sodos ratings PATH' rates them" in done.err


def test_a_folder_without_records_is_an_error_not_an_empty_table(sodos, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = sodos("standings", str(empty))
    assert (done.status, done.out) == (2, "")
    assert done.err == f"sodos: error: {empty}: no SGF game record\n"
    files = tmp_path / "files"
    files.mkdir()
    (files / "cup.xml").write_text("<Tournament/>")
    (files / "cup.h9").write_text("; EV[cup]\n")
    done = sodos("standings", str(files))
    assert (done.status, done.out) == (2, "")
    assert f"{files}: no SGF game record (2 other file(s): cup.h9, cup.xml)" in done.err
    assert "give a tournament file (h9, OpenGotha XML, JSON) itself as the path" in done.err


def test_table_warnings_reach_stderr_unless_the_table_is_on_the_terminal(sodos, tmp_path):
    """On the terminal the table ends with the warnings (and stderr is quiet); redirected,
    they are on stderr only, once (issue 28: they were in both). The terminal is a child's."""
    (tmp_path / "a.sgf").write_text("(;GM[1]SZ[19]RO[1]PB[Ann]PW[Bob]RE[B+R])")
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[19]RO[1]PB[Cid]PW[Dan]RE[?])")
    warning = "RE[?]: result unknown"
    redirected = sodos("standings", str(tmp_path), "--system", "swiss")
    assert redirected.status == 0, redirected.err
    assert (warning in redirected.out, redirected.err.count(warning)) == (False, 1)
    import pty

    main_fd, child_fd = pty.openpty()
    done = sodos_process(
        "standings", tmp_path, "--system", "swiss", cwd=tmp_path, script=True,
        stdout=child_fd, stderr=subprocess.PIPE,
    )  # fmt: skip
    os.close(child_fd)
    shown = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    assert done.returncode == 0, done.stderr
    assert warning in shown.decode("utf-8") and warning not in done.stderr
