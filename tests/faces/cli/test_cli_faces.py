"""The faces of issue 28, as a user meets them: every command takes its format from
``--output``'s extension, warnings are said once, an error is one line naming its file
once, ``convert --format``, global options after any command, stdin for every command that
reads files, and messages without Python reprs or a location given twice."""

from __future__ import annotations

import pytest

H9 = """\
; EV[Test cup]
; DT[2024-05-04]
; HA[h9]
; Pl Name Rk Co Club NBW
1 Ann B 3d FR Par 1 2+/w0
2 ANN B 2d FR Par 0 1-/b0
"""
WARNING = "players have one name by the identity rule"
GAMES = "date,black,white,result\n2024-05-04,Ann,Bob,B+R\n2024-05-05,Bob,Cid,W+R\n"


@pytest.fixture
def cup(tmp_path):
    (tmp_path / "cup.h9").write_text(H9, "utf-8")
    (tmp_path / "games.csv").write_text(GAMES, "utf-8")
    return tmp_path


def one_error(done, *fragments: str) -> str:
    assert done.status == 2, (done.out, done.err)
    lines = done.err.splitlines()
    assert len(lines) == 1, done.err
    assert lines[0].startswith("sodos: error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# -- the format from --output's extension ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "start"),
    [("r.html", "<!DOCTYPE html>"), ("r.htm", "<!DOCTYPE html>"), ("r.csv", "place,name,"),
     ("r.json", "{"), ("r.txt", "egf: "), ("r.out", "egf: ")],
)  # fmt: skip
def test_ratings_output_takes_its_format_from_the_extension(sodos, cup, name, start):
    done = sodos("ratings", "games.csv", "--output", name)
    assert done.status == 0, done.err
    assert (cup / name).read_text("utf-8").startswith(start)


def test_ratings_format_still_wins_over_the_extension(sodos, cup):
    assert sodos("ratings", "games.csv", "--output", "r.html", "--format", "CSV").status == 0
    assert (cup / "r.html").read_text("utf-8").startswith("place,name,")


def test_convert_takes_format_to_or_the_extension(sodos, cup):
    for args in (["--format", "json"], ["--to", "json"], ["--format", "JSON"], []):
        done = sodos("convert", "cup.h9", *args)
        assert done.status == 0, (args, done.err)
        assert done.out.startswith("{")
    assert sodos("convert", "cup.h9", "--output", "cup.json").status == 0
    assert (cup / "cup.json").read_text("utf-8").startswith("{")
    one_error(sodos("convert", "cup.h9", "--output", "cup.html"), "--output cup.html", "json")
    assert not (cup / "cup.html").exists()
    assert sodos("convert", "cup.h9", "--output", "cup.html", "--format", "json").status == 0


# -- warnings once ---------------------------------------------------------------------


def test_standings_warnings_are_on_stderr_only_when_redirected(sodos, cup):
    done = sodos("standings", "cup.h9")
    assert done.status == 0
    assert WARNING not in done.out
    assert done.err.count(WARNING) == 1
    assert sodos("standings", "cup.h9", "--output", "t.txt").status == 0
    assert WARNING not in (cup / "t.txt").read_text("utf-8")


def test_machine_formats_keep_their_warnings(sodos, cup):
    """A JSON or HTML document carries its warnings (what changes a result is said in
    machine output too); stderr says them once."""
    done = sodos("standings", "cup.h9", "--format", "json")
    assert WARNING in done.out and done.err.count(WARNING) == 1


def test_ratings_table_notes_and_warnings_are_on_stderr_only_when_redirected(sodos, cup):
    done = sodos("ratings", "cup.h9")
    assert done.status == 0, done.err
    messages = [line for line in done.err.splitlines() if line.startswith(("note:", "warning:"))]
    assert messages
    for line in messages:
        assert line not in done.out
        assert done.err.count(line) == 1


# -- errors: one line, the file named once, no reprs -----------------------------------


def test_a_rejected_ratings_file_is_one_line_naming_it_once(sodos, cup):
    (cup / "empty.csv").write_bytes(b"")
    line = one_error(sodos("ratings", "empty.csv"), "empty.csv: ")
    assert line.count("empty.csv") == 1


def test_a_rejected_file_among_others_is_listed_once(sodos, cup):
    (cup / "empty.csv").write_bytes(b"")
    done = sodos("ratings", "empty.csv", "games.csv")
    assert done.status == 2
    assert "rejected: empty.csv: no reader recognises this file" in done.err
    assert "empty.csv: empty.csv" not in done.err
    assert done.err.splitlines()[-1].endswith("(use --skip-bad to continue)")


def test_unsafe_xml_is_said_in_words(sodos, cup):
    (cup / "lol.xml").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY lol "lol">]>\n<Tournament>&lol;</Tournament>'
    )
    for command in ("standings", "ratings"):
        line = one_error(sodos(command, "lol.xml"), "lol.xml: refused unsafe XML", "'lol'")
        assert "EntitiesForbidden" not in line and "=None" not in line


def test_a_parse_error_gives_its_location_once(sodos, cup):
    (cup / "bad.xml").write_text("<Tournament>\n<a></b>\n")
    line = one_error(sodos("standings", "bad.xml"), "bad.xml:line 2:5: not well-formed XML")
    assert "column" not in line


# -- global options after every command; stdin for every reader -------------------------


@pytest.mark.parametrize("command", [["schema"], ["docs"], ["docs", "config"]])
def test_global_options_after_schema_and_docs(sodos, command):
    for options in (["-p", "no:builtin.h9"], ["--config", "sodos.toml"], ["--debug"]):
        done = sodos(*command, *options)
        assert done.status == 0, (options, done.err)
        assert done.out


def test_every_reading_command_takes_stdin(sodos, cup):
    table, h9 = GAMES.encode(), H9.encode()
    done = sodos("ratings", "-", stdin=table)
    assert done.status == 0, done.err
    assert "Ann" in done.out and "Cid" in done.out
    assert sodos("ratings", "-", "--rating", "glicko2", stdin=h9).status == 0
    done = sodos("check", "-", stdin=h9)
    assert done.status == 0, done.out
    assert "ok: system" in done.out
    assert "stdin" in sodos("config", "-", stdin=h9).out
    done = sodos("explain", "--ratings", "Bob", "-", stdin=table)
    assert done.status == 0, done.err
    assert "Bob" in done.out


def test_a_config_error_names_its_key_once(sodos, tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.sgf").write_text("(;GM[1]RO[1]PB[Ann]PW[Bob]RE[B+R])")
    (tmp_path / "s.toml").write_text('[plugin."builtin.sgf"]\nrounds = 0\n')
    line = one_error(sodos("standings", "games", "--config", "s.toml"), ":rounds: expected")
    assert line.count("rounds") == 1
    line = one_error(sodos("standings", "games", "--jobs", "0"), "--jobs: expected a positive")
    assert line.count("jobs") == 1


def test_convert_names_stdin_in_its_warnings(sodos):
    done = sodos("convert", "-", stdin=H9.encode())
    assert done.status == 0, done.err
    assert f"warning: stdin: 2 {WARNING}" in done.err
    assert "sodos-stdin-" not in done.err  # the temporary file is never shown


def test_a_lone_record_without_a_round_still_points_at_ratings(sodos, tmp_path):
    (tmp_path / "a.sgf").write_text("(;GM[1]PB[Ann]PW[Bob]RE[B+R])")
    one_error(sodos("standings", "a.sgf"), "a.sgf: no round", "'sodos ratings PATH' rates them")
