"""The ``sodos`` command, driven as a subprocess the way a person runs it.

Every command and every output format, and the error cases: each error is one line
on stderr with exit status 2 and no traceback (``--debug`` shows it).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT, shared_path

from sodos_plugin import Host
from sodos_plugin.engine.numbers import format_value

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
WAGC = ("conformance", "go", "h9_wagc2025_opengotha.txt")


def command() -> list[str]:
    script = Path(sys.executable).with_name("sodos")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sodos_plugin.cli"]


def sodos(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "SODOS_DEBUG"}
    environment.update(env or {})
    return subprocess.run(
        [*command(), *map(str, args)],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def one_line_error(done: subprocess.CompletedProcess, *fragments: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("sodos: error: ")
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


@pytest.fixture
def juvisy() -> Path:
    path = shared_path(*JUVISY)
    if not Host(config_file=False, entry_points=False).registry.readers:
        pytest.skip("no reader installed yet")
    return path


def api_standings(path: Path, **options):
    host = Host(config_file=False, entry_points=False)
    return host.standings(host.read([path]).tournament, **options)


WRITERS = sorted(Host(config_file=False, entry_points=False).registry.writers)


@pytest.mark.parametrize("fmt", WRITERS)
def test_standings_every_format(juvisy, tmp_path, fmt):
    done = sodos("standings", juvisy, "--format", fmt, "--no-entry-points", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    expected = api_standings(juvisy)
    names = [row.player.name for row in expected.rows()]
    if fmt == "json":
        assert json.loads(done.stdout) == json.loads(json.dumps(expected.as_dict()))
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(done.stdout)))
        assert [r["name"] for r in rows] == names
        for row, want in zip(rows, expected.rows()):
            for c in expected.criteria:
                assert Fraction(row[c]) == want.values[c]
    elif fmt == "html":
        assert done.stdout.startswith("<!DOCTYPE html>")
        assert all(name.replace("&", "&amp;") in done.stdout for name in names)
    else:
        for name in names:
            assert name in done.stdout


def test_table_aligns_and_shares_places(tmp_path):
    path = shared_path(*WAGC)
    done = sodos("standings", path, "--no-entry-points", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    expected = api_standings(path)
    lines = done.stdout.splitlines()
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


def test_standings_options(juvisy, tmp_path):
    out = tmp_path / "out.json"
    config = tmp_path / "mine.toml"
    config.write_text('criteria = ["MMS", "SOS"]\n[mcmahon]\nbar = "2d"\n', encoding="utf-8")
    done = sodos(
        "standings", juvisy, "--config", config, "-o", "scoring.absent_mms=0", "--round", "2",
        "--criteria", "mms,SOSM-1,SODOS", "--format", "json", "--output", out,
        "--no-entry-points", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    data = json.loads(out.read_text("utf-8"))
    assert data["criteria"] == ["MMS", "SOSM-1", "SODOS"]
    assert data["tournament"]["rounds"] == 2
    host = Host(config_file=config, overrides=["scoring.absent_mms=0"], entry_points=False)
    expected = host.standings(
        host.read([juvisy]).tournament, round=2, criteria=["MMS", "SOSM-1", "SODOS"]
    )
    assert data == json.loads(json.dumps(expected.as_dict()))
    swiss = sodos(
        "standings", juvisy, "--system", "swiss", "--format", "json", "--no-entry-points",
        cwd=tmp_path,
    )  # fmt: skip
    assert json.loads(swiss.stdout)["tournament"]["system"] == "swiss"


def test_explain(juvisy, tmp_path):
    expected = api_standings(juvisy, criteria=["MMS", "SOSM", "SOSM-1", "SODOSM"])
    first = expected.rows()[0]
    done = sodos(
        "explain", first.player.name.lower(), juvisy, "--criteria", "MMS,SOSM,SOSM-1,SODOSM",
        "--no-entry-points", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(first.player.name)
    for name in expected.criteria:
        assert f"{name} = {format_value(first.values[name])} " in done.stdout
    assert done.stdout.count("sum: ") == 3 and "total: " in done.stdout


PLUGIN = """
from sodos_hookspecs import Breakdown, Criterion, hookimpl

def compute(ctx):
    return Breakdown(denominator=1, totals=[0] * ctx.size)

@hookimpl
def sodos_criteria():
    return [Criterion("CUSS", "always 0 (test)", compute), Criterion("ZERO", "0 (test)", compute)]
"""


def test_plugins_shows_origin_replacement_and_blocked(tmp_path):
    (tmp_path / "my_cli_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (tmp_path / "sodos.toml").write_text(
        'plugins = ["my_cli_plugin"]\ndisable = ["builtin.sodoms"]\n', encoding="utf-8"
    )
    env = {"PYTHONPATH": str(tmp_path)}
    done = sodos("plugins", "--no-entry-points", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    text = done.stdout
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
    every = sodos("plugins", "--no-entry-points", "--all", cwd=tmp_path, env=env).stdout
    assert "builtin.sodoms [blocked]: built-in" in every
    assert "builtin.html: built-in\n    writer html — " in every
    assert "    criterion CUSSM — cumulative sum of scores (MMS form)\n" in every
    assert "        replaced by my_cli_plugin\n" in every
    data = json.loads(sodos("plugins", "--format", "json", cwd=tmp_path, env=env).stdout)
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


def test_check(tmp_path):
    ok = sodos("check", "--no-entry-points", cwd=tmp_path)
    assert ok.returncode == 0 and "ok: system mcmahon; criteria MMS, SOSM, SOSOSM" in ok.stdout
    advice = sodos("check", "--criteria", "MMS,SODOS", "--no-entry-points", cwd=tmp_path)
    assert advice.returncode == 0 and "warning: SODOS in a McMahon" in advice.stdout
    strict = sodos(
        "check", "--criteria", "MMS,SODOS", "--strict", "--no-entry-points", cwd=tmp_path
    )
    assert strict.returncode == 1
    swiss = sodos("check", "--system", "swiss", "--criteria", "NBW,SODOS", cwd=tmp_path)
    assert "controversial" in swiss.stdout
    unknown = sodos("check", "--criteria", "MMS,SOSS", "--no-entry-points", cwd=tmp_path)
    assert unknown.returncode == 1
    assert "error: unknown criterion 'SOSS' (did you mean" in unknown.stdout
    twice = sodos("check", "--criteria", "SOS,sos", "--no-entry-points", cwd=tmp_path)
    assert twice.returncode == 1 and "listed twice" in twice.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('sytem = "swiss"\n', encoding="utf-8")
    key = sodos("check", "--config", bad, "--no-entry-points", cwd=tmp_path)
    assert key.returncode == 1 and "unknown config key 'sytem'" in key.stdout
    missing = sodos("check", "--config", tmp_path / "nope.toml", cwd=tmp_path)
    one_line_error(missing, "nope.toml", "cannot read config")


def test_check_with_file_uses_its_start_scores(juvisy, tmp_path):
    done = sodos("check", juvisy, "--no-entry-points", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok: system mcmahon" in done.stdout


@pytest.mark.slow
def test_errors_are_one_line_exit_2(juvisy, tmp_path):
    one_line_error(
        sodos("standings", juvisy, "--fromat", "json", cwd=tmp_path), "did you mean --format?"
    )
    one_line_error(sodos("standings", juvisy, "--round", "x", cwd=tmp_path), "--round")
    one_line_error(sodos("stand", juvisy, cwd=tmp_path), "invalid choice")
    one_line_error(
        sodos("standings", juvisy, "--criteria", "MMS,SODOSS", cwd=tmp_path),
        "unknown criterion 'SODOSS'",
        "did you mean SODOS",
    )
    one_line_error(
        sodos("standings", juvisy, "--format", "htm", cwd=tmp_path), "did you mean html?"
    )
    one_line_error(sodos("standings", tmp_path / "missing.xml", cwd=tmp_path), "missing.xml")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01 not a tournament")
    one_line_error(sodos("standings", junk, cwd=tmp_path), "junk.bin", "no reader recognises")
    one_line_error(sodos("standings", juvisy, "--round", "99", cwd=tmp_path), "round 99")
    one_line_error(
        sodos("explain", "Nobody Here", juvisy, cwd=tmp_path), "no player called 'Nobody Here'"
    )
    unwritable = tmp_path / "no" / "such" / "dir.json"
    one_line_error(sodos("standings", juvisy, "--output", unwritable, cwd=tmp_path), "dir.json")
    bad = tmp_path / "bad.toml"
    bad.write_text("system = [", encoding="utf-8")
    one_line_error(sodos("standings", juvisy, "--config", bad, cwd=tmp_path), "not valid TOML")


def test_debug_shows_the_traceback(tmp_path):
    done = sodos("--debug", "standings", tmp_path / "missing.xml", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" in done.stderr and "missing.xml" in done.stderr.splitlines()[-1]


def test_sgf_folder_as_the_readme_shows(tmp_path):
    folder = ROOT / "sample_sgf"
    if not folder.is_dir():
        pytest.skip("sample_sgf/ not in this checkout")
    host = Host(config_file=False, entry_points=False)
    if not any(reader.claims(folder, b"") for reader, _ in host.registry.readers):
        pytest.skip("no reader claims an SGF folder yet")
    done = sodos("standings", folder, "--format", "json", "--no-entry-points", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    expected = host.standings(host.read([folder]).tournament)
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.as_dict()))
    first = expected.order[0]
    name = expected.tournament.players[first].name
    explained = sodos("explain", name, folder, "--no-entry-points", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.startswith(name)


def test_check_reports_a_criterion_two_plugins_provide(tmp_path):
    for name in ("plug_one", "plug_two"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (tmp_path / "sodos.toml").write_text('plugins = ["plug_one", "plug_two"]\n', encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path)}
    done = sodos("check", "--no-entry-points", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "provided by plugins" in done.stdout and "[prefer]" in done.stdout
    with (tmp_path / "sodos.toml").open("a", encoding="utf-8") as config:
        config.write('[prefer]\nCUSS = "plug_two"\nZERO = "plug_one"\n')
    chosen = sodos("check", "--criteria", "ZERO,CUSS", "--no-entry-points", cwd=tmp_path, env=env)
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    plugins = json.loads(sodos("plugins", "--format", "json", cwd=tmp_path, env=env).stdout)
    owners = {p["name"]: p for p in plugins}
    # [prefer] on the bare name chooses for its forms too
    assert owners["builtin.cuss"]["replaced_by"] == {
        "CUSSW": "plug_two",
        "CUSSM": "plug_two",
        "CUSS": "plug_two",
    }


def test_records_without_rounds_get_a_hint_towards_ratings(tmp_path):
    for n, (b, w) in enumerate([("Ann", "Bob"), ("Cid", "Dan")]):
        (tmp_path / f"g{n}.sgf").write_text(f"(;GM[1]SZ[19]PB[{b}]PW[{w}]RE[B+R];B[aa])")
    done = sodos("standings", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert "hint: 2 record(s) without a round" in done.stderr
    assert "'sodos ratings PATH' rates them" in done.stderr


def test_a_folder_without_records_is_an_error_not_an_empty_table(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = sodos("standings", str(empty), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"sodos: error: {empty}: no SGF game record\n"
    files = tmp_path / "files"
    files.mkdir()
    (files / "cup.xml").write_text("<Tournament/>")
    (files / "cup.h9").write_text("; EV[cup]\n")
    done = sodos("standings", str(files), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert f"{files}: no SGF game record (2 other file(s): cup.h9, cup.xml)" in done.stderr
    assert "give a tournament file (h9, OpenGotha XML, JSON) itself as the path" in done.stderr


def test_table_warnings_reach_stderr_unless_the_table_is_on_the_terminal(tmp_path):
    """On the terminal the table ends with the warnings (and stderr is quiet); redirected,
    they are on stderr only, once (issue 28: they were in both)."""
    (tmp_path / "a.sgf").write_text("(;GM[1]SZ[19]RO[1]PB[Ann]PW[Bob]RE[B+R])")
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[19]RO[1]PB[Cid]PW[Dan]RE[?])")
    warning = "RE[?]: result unknown"
    redirected = sodos("standings", str(tmp_path), "--system", "swiss", cwd=tmp_path)
    assert redirected.returncode == 0, redirected.stderr
    assert (warning in redirected.stdout, redirected.stderr.count(warning)) == (False, 1)
    import pty

    main_fd, child_fd = pty.openpty()
    done = subprocess.run(
        [*command(), "standings", str(tmp_path), "--system", "swiss"],
        stdout=child_fd,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        timeout=120,
        text=True,
    )
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
