"""Each command's ``--help``: a description, help for every option, an ``examples:``
epilogue whose every line runs as written (tests/as_written.py), and pointers a user of
the installed package can follow (``sodos docs X``, never a path into docs/)."""

from __future__ import annotations

import argparse
import importlib
import re

import pytest
from as_written import environment, kind, prepare, run, serve
from conftest import ROOT

from sodos_plugin.cli import COMMANDS, build_parser, main
from sodos_plugin.cli.docs import PAGES

EXAMPLES = [
    (name, line) for name in COMMANDS for line in importlib.import_module(
        f"sodos_plugin.cli.{COMMANDS[name][0]}").EXAMPLES
]  # fmt: skip


def command_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser([name])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def help_text(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*args, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_a_description_examples_and_help_for_each_option(name):
    parser = command_parser(name)
    assert parser.description and parser.description.endswith(".")
    assert parser.epilog.startswith("examples:\n  sodos ")
    missing = [
        a.option_strings or a.metavar or a.dest
        for a in parser._actions
        if not isinstance(a, argparse._HelpAction) and not a.help
    ]
    assert not missing, f"sodos {name}: options without help: {missing}"


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_help_points_to_sodos_docs_never_to_a_file(capsys, name):
    text = help_text(capsys, *([name] if name else []))
    if name != "docs":  # which names docs accepts: config, config.md, docs/config.md
        assert "docs/" not in text and ".md" not in text, text
    for page in re.findall(r"sodos docs ([a-z]+)", text):
        assert page in PAGES, (name, page)


def test_the_pointers_in_help_print_their_page_or_section(capsys):
    pointers = set()
    for name in [None, *(n for n in COMMANDS if n != "docs")]:  # docs: its examples run
        text = " ".join(help_text(capsys, *([name] if name else [])).split())
        pointers |= set(re.findall(r"sodos docs ([a-z]+(?: §?\d[\d.]*)?)", text))
    assert {"config", "rules 7", "ratings"} <= pointers
    for pointer in sorted(pointers):
        assert main(["docs", *pointer.split()]) == 0, pointer
        assert capsys.readouterr().out.startswith("#"), pointer


def test_the_top_help_names_every_command_and_sodos_docs(capsys):
    text = help_text(capsys)
    for name, (_, summary) in COMMANDS.items():
        assert name in text and summary.split()[0] in text
    assert "sodos docs: the documentation pages" in " ".join(text.split())


@pytest.mark.parametrize(("name", "line"), EXAMPLES, ids=[line for _, line in EXAMPLES])
def test_every_example_runs_as_written(tmp_path, name, line):
    assert line.startswith("sodos ") or re.match(r"cat \S+ \| sodos ", line), line
    assert f"sodos {name}" in line or f"| sodos {name}" in line or name == "config", line
    prepare(line, tmp_path)
    env = environment(tmp_path)
    if kind(line) == "serve":
        pytest.importorskip("waitress", reason="sodos serve needs waitress (the test extra)")
        status, said = serve(line, tmp_path, env)
        assert status == 0 and "sodos serve: stopped" in said, said
        return
    done = run(line, tmp_path, env)
    assert done.returncode == 0, f"{line}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    assert (
        done.stdout
        or any(tmp_path.glob("*.json"))
        or any(tmp_path.glob("*.html"))
        or (any(tmp_path.glob("*.csv")))
    ), line  # an example prints something or writes the file it names


def test_explain_never_ignores_a_rating_option(capsys, tmp_path):
    """--rating, --initial, --param and --no-cache explain ratings: without --ratings
    they are refused, not dropped."""
    for option in (["--rating", "egf"], ["--initial", "files"], ["--param", "k=1"]):
        status = main(["explain", "Ann", str(tmp_path / "x.xml"), *option])
        assert status == 2
        assert "add --ratings" in capsys.readouterr().err, option


def test_serve_without_waitress_names_an_install_that_works(capsys, monkeypatch):
    """The package is not on PyPI: ``pip install 'sodos-plugin[serve]'`` fails there.
    The message says what the serve extra adds (waitress) and the extra from the folder."""
    import sodos_plugin.cli.serve as serve_command
    from sodos_plugin.config.settings import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert extra["optional-dependencies"]["serve"] == ["waitress>=3"]
    monkeypatch.setattr(serve_command, "waitress", None)
    assert main(["serve", "--no-entry-points"]) == 2
    err = capsys.readouterr().err
    assert "pip install waitress" in err and "pip install '.[serve]'" in err
    assert "sodos-plugin[serve]" not in err and len(err.splitlines()) == 1
