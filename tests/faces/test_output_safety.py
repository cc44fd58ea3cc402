"""Output a stranger cannot abuse.

* Bounded: no column padded to a pathological name; message lines are bounded.
* Escaped: control characters from names, results, file and member names are escaped in
  every terminal, CSV and error output; a name cannot forge a ``rejected:`` line.
* CSV formulas: cells a spreadsheet would run as a formula are neutralised (not numbers),
  and ``escape_formulas = false`` turns it off.
* Atomic ``--output``: it is replaced atomically; a failed write leaves the old file.
* Encodings, full disk, closed stdout: an encoding that cannot show a character gets
  ``?`` and a warning; a full disk and a closed standard output are reported as such.

The command runs in this process (the ``sodos`` fixture); where the process's own
streams, file-size limit or encoding are the point, as a child with the suite's memory
limit and a timeout, its output checked as bytes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import signal
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest
from child import sodos_process
from records import record

from sodos_plugin import OutputError, PluginError
from sodos_plugin.cli._streams import MAX_MESSAGE_WIDTH, say
from sodos_plugin.writers.csv_writer import text_cell

TIMEOUT = 60
CONTROL_BYTES = [bytes([c]) for c in range(0x20) if c != 0x0A] + [b"\x7f"]
C1_AND_FORMAT = ["\x85", "\x9b", "\u202e", "\u2066", "\u2028", "\u200b"]


def run(*args: str, cwd: Path, env: dict | None = None, **popen) -> subprocess.CompletedProcess:
    """``sodos ARGS`` as a child under the suite's memory limit, output as bytes: for the
    tests where the process's own streams, limits or encoding are the point."""
    popen.setdefault("stdout", subprocess.PIPE)
    return sodos_process(
        *args, cwd=cwd, env=env, memory_limit=True, text=False, timeout=TIMEOUT,
        stderr=subprocess.PIPE, **popen,
    )  # fmt: skip


def no_raw_controls(data: bytes | str) -> None:
    """Only newlines: no ESC, CR, BEL... and no C1 control, bidi override, separator."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    for byte in CONTROL_BYTES:
        assert byte not in data, (byte, data[:400])
    text = data.decode("utf-8")
    for char in C1_AND_FORMAT:
        assert char not in text, (char, text[:400])


# -- hostile inputs -----------------------------------------------------------------------

EVE = "Eve\x1b]0;pwned\x07"  # an OSC sequence that would retitle the terminal
BOB = "Bob\u202e\x9b31m"  # right-to-left override, then a C1 CSI (red)
FORGED_FILE = "bad\x1b[2J\nrejected: forged.sgf"  # clears the screen, then a false line


def hostile_folder(root: Path) -> Path:
    folder = root / "games"
    folder.mkdir()
    # "]" inside an SGF value is written "\]"
    (folder / "r1.sgf").write_bytes(record(EVE.replace("]", "\\]"), BOB))
    (folder / FORGED_FILE).write_bytes(b"not a record")
    with zipfile.ZipFile(folder / "more.zip", "w") as archive:
        archive.writestr("m\x1b[1m\r.sgf", b"(;GM[1]RE[B+R]")  # no players: rejected
    return folder


EXPECTED_REJECTED = {
    "rejected: {folder}/bad\\x1b[2J\\nrejected: forged.sgf: not SGF: no game found (no '(;')",
    "rejected: {folder}/more.zip!m\\x1b[1m\\r.sgf: ",  # the reason follows
}


@pytest.mark.parametrize("fmt", ["table", "csv", "html", "json", "h9"])
def test_control_characters_never_reach_any_output_raw(sodos, tmp_path, fmt):
    folder = hostile_folder(tmp_path)
    done = sodos("standings", str(folder), "--skip-bad", "--format", fmt)
    no_raw_controls(done.out)
    no_raw_controls(done.err)
    lines = done.err.splitlines()
    if fmt == "h9":  # Eve's OSC sequence holds a ';', an h9 comment mark: refused, escaped
        assert done.status == 2 and done.out == ""
        assert lines[-1].startswith("sodos: error: ") and lines[-1].endswith(
            "(a comment mark): player 'Eve\\x1b]0;pwned\\x07' (the row would not read back "
            "as written)"
        )
        return
    assert done.status == 0, done.err
    # every stderr line is one the tool wrote: the forged name stays inside its line
    assert all(line.startswith(("rejected: ", "warning: ", "excluded: ")) for line in lines)
    rejected = [line for line in lines if line.startswith("rejected: ")]
    assert len(rejected) == 2
    assert rejected[0] == (
        f"rejected: {folder}/bad\\x1b[2J\\nrejected: forged.sgf: not SGF: no game found (no '(;')"
    )
    assert rejected[1].startswith(f"rejected: {folder}/more.zip!m\\x1b[1m\\r.sgf: ")
    out = done.out
    if fmt == "json":  # exact data for programs, as JSON escapes
        names = {row["player"]["name"] for row in json.loads(out)["standings"]}
        assert names == {EVE, BOB}
        assert "Eve\\u001b]0;pwned\\u0007" in out and "Bob\\u202e\\u009b31m" in out
    else:  # shown escaped
        assert "Eve\\x1b]0;pwned\\x07" in out and "Bob\\u202e\\x9b31m" in out


def opengotha(players: list[tuple[str, str, str, str]], games: str, general: str = "") -> str:
    """An OpenGotha file: players (name, rank, country, club), game elements, and the
    attributes of GeneralParameterSet; criteria MMS."""
    listed = "".join(
        f'<Player name="{n}" firstName="" rank="{r}" participating="1" country="{co}" club="{cl}"/>'
        for n, r, co, cl in players
    )
    return (
        f'<?xml version="1.0"?><Tournament><Players>{listed}</Players><Games>{games}</Games>'
        f'<TournamentParameterSet><GeneralParameterSet numberOfRounds="1" {general}/>'
        '<PlacementParameterSet><PlacementCriteria><PlacementCriterion name="MMS" number="1"/>'
        "</PlacementCriteria></PlacementParameterSet></TournamentParameterSet></Tournament>"
    )


def game(black: str, white: str, result: str = "RESULT_BLACKWINS") -> str:
    return (
        f'<Game blackPlayer="{black}" whitePlayer="{white}" result="{result}" roundNumber="1" '
        'handicap="0"/>'
    )


def test_a_name_with_a_line_break_cannot_forge_a_line(sodos, tmp_path):
    """XML keeps a character reference &#10; in an attribute: a real newline in a name."""
    path = tmp_path / "t.xml"
    path.write_text(
        opengotha(
            [("Ann&#10;rejected: forged.sgf: x&#13;x", "1K", "FR", "C"), ("Zed", "1K", "FR", "C")],
            game("ANNREJECTED:FORGED.SGF:XX", "ZED"),
        )
    )
    for fmt in ("table", "csv", "h9", "html"):
        done = sodos("standings", str(path), "--format", fmt)
        assert done.status == 0, done.err
        out = done.out
        no_raw_controls(done.out)
        assert not any(line.startswith("rejected:") for line in out.splitlines())
        if fmt == "h9":  # h9 rows are words: any whitespace is one space there
            assert "Ann rejected: forged.sgf: x x" in out
        else:
            assert "Ann\\nrejected: forged.sgf: x\\rx" in out, out
    done = sodos("explain", "Zed", str(path))
    assert done.status == 0, done.err
    no_raw_controls(done.out)
    assert "Ann\\nrejected: forged.sgf: x\\rx" in done.out


def test_the_error_line_of_the_command_is_escaped(sodos):
    name = "x\x1b[2J\nrejected: y.h9"
    done = sodos("standings", name)
    assert done.status == 2
    assert done.err.startswith("sodos: error: x\\x1b[2J\\nrejected: y.h9: ")
    assert done.err.lower().endswith("no such file or directory\n")
    assert done.err.count("\n") == 1


def test_say_escapes_and_bounds_one_line():
    stream = io.StringIO()
    say("warning: \x1b[31mred\r\n" + "x" * 10_000, stream)
    text = stream.getvalue()
    assert text.count("\n") == 1 and text.startswith("warning: \\x1b[31mred\\r\\n")
    assert len(text) == MAX_MESSAGE_WIDTH + 1 and text.endswith("x…" + "x" * 1000 + "\n")


# -- bounded output -----------------------------------------------------------------------


def test_a_pathological_name_pads_no_column(sodos, tmp_path):
    long_name = "N" * 200_000
    lines = ["; EV[Pad]", "; Pl Name Rk Co Club NBW"]
    for i in range(50):
        won = i % 2 == 0
        token = f"{(i ^ 1) + 1}{'+' if won else '-'}/{'w' if won else 'b'}0"
        name = long_name if i == 0 else f"P{i}"
        lines.append(f"{i + 1} {name} 1k FR Par {int(won)} {token}")
    path = tmp_path / "pad.h9"
    path.write_text("\n".join(lines) + "\n")
    for fmt in ("h9", "csv", "html", "json"):
        done = sodos("standings", str(path), "--format", fmt)
        assert done.status == 0, done.err
        # the long name at most twice (HTML: its cell and its opponent's tooltip), every
        # other row short: linear in the input, not 50 rows x 200 000
        assert len(done.out) < 2 * 200_000 + 50 * 2_000, (fmt, len(done.out))


def test_a_huge_token_in_a_rejection_is_cut_in_the_message(sodos, tmp_path):
    path = tmp_path / "token.h9"
    path.write_text("; Pl Name Rk Co Club NBW\n1 A 1k FR Par 1 " + "x" * 100_000 + "\n")
    done = sodos("standings", str(path))
    assert done.status == 2
    (line,) = done.err.splitlines()
    assert line.startswith(f"sodos: error: {path}:line 2: 'xxx") and "x…x" in line
    assert line.endswith("' is neither a value (3, 2½, 2.5) nor a round token (opp+/w2, 0=, 0-)")
    assert len(line) == MAX_MESSAGE_WIDTH


# -- CSV formulas -------------------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+2", "-3+4", "@SUM(A1)", "\tx", "\rx"]


@pytest.mark.parametrize("text", FORMULAS)
def test_text_cells_that_start_a_formula_are_neutralised(text):
    shown = text.replace("\t", "\\t").replace("\r", "\\r")
    assert text_cell(text) == ("'" + shown if text[0] in "=+-@" else shown)
    assert text_cell(text, escape_formulas=False) == shown
    assert text_cell("Lee Changho") == "Lee Changho"


def formula_xml(path: Path) -> None:
    """Names, a country and clubs that are formulas; a 25k player's MMS is negative
    (McMahon zero at 20k), a number that keeps its minus sign."""
    players = [
        ("=1+1", "25K", "+A", "@B"),
        ("-2", "25K", "C", "=cmd|' /C calc'!A0"),
        ("Plain", "1D", "P", "P"),
    ]
    general = 'genMMZero="20K" genMMFloor="30K" genMMBar="9D"'
    path.write_text(opengotha(players, game("=1+1", "-2", "RESULT_WHITEWINS"), general))


def csv_rows(data: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(data)))
    return {row[2]: row for row in rows[1:]}


def test_csv_output_neutralises_formulas_but_not_numbers(sodos, tmp_path):
    path = tmp_path / "f.xml"
    formula_xml(path)
    done = sodos("standings", str(path), "--format", "csv")
    assert done.status == 0, done.err
    rows = csv_rows(done.out)
    assert set(rows) == {"'=1+1", "'-2", "Plain"}
    assert rows["'=1+1"][4:7] == ["'+A", "'@B", "-5"]  # country, club, MMS -5: a number
    assert rows["'-2"][4:7] == ["C", "'=cmd|' /C calc'!A0", "-4"]
    done = sodos(
        "standings",
        str(path),
        "--format",
        "csv",
        "-o",
        "plugin.builtin.csv_writer.escape_formulas=false",
    )
    assert done.status == 0, done.err
    assert set(csv_rows(done.out)) == {"=1+1", "-2", "Plain"}
    done = sodos(
        "standings", str(path), "--format", "csv", "-o", "plugin.builtin.csv_writer.x=1",
    )  # fmt: skip
    assert done.status == 2
    assert "[plugin.builtin.csv_writer]: unknown key 'x' (known: escape_formulas)" in done.err


# -- atomic --output ----------------------------------------------------------------------


def small_h9(path: Path, rank: str = "1k") -> Path:
    path.write_text(
        f"; Pl Name Rk Co Club NBW\n1 Ann 2k FR Par 1 2+/w0\n2 Bob {rank} FR Par 0 1-/b0\n"
    )
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_output_replaces_the_file_keeping_its_mode_and_a_link(sodos, tmp_path):
    source = small_h9(tmp_path / "t.h9")
    out = tmp_path / "real.json"
    out.write_text("old")
    out.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(out)
    done = sodos("standings", str(source), "--format", "json", "--output", str(link))
    assert done.status == 0, done.err
    assert link.is_symlink() and json.loads(out.read_text())["standings"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_failing_writer_leaves_the_old_file(make_host, tmp_path):
    from sodos_plugin.engine.model import Player, Tournament

    out = tmp_path / "out.h9"
    out.write_text("old results\n")
    host = make_host({"system": "swiss"})
    t = Tournament("t", 0, (Player("Ann", rank=None), Player("Bob", rank=1)), ())
    standings = host.standings(t)
    from sodos_plugin.cli._common import output

    with pytest.raises(Exception, match="h9 needs every player's rank"), output(out) as stream:
        host.write(standings, "h9", stream)
    assert out.read_text() == "old results\n"
    assert leftovers(tmp_path) == []


def _file_size_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


def test_a_write_that_fails_midway_leaves_the_old_file(tmp_path):
    lines = ["; Pl Name Rk Co Club NBW"]
    for i in range(400):  # about 400 KB of JSON: past the 20 KB file size limit
        lines.append(f"{i + 1} P{i} 1k FR Par 1 {(i ^ 1) + 1}{'+-'[i % 2]}/{'wb'[i % 2]}0")
    source = tmp_path / "big.h9"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.json"
    out.write_text("old")
    done = run(
        "standings", str(source), "--format", "json", "--output", str(out), cwd=tmp_path,
        preexec_fn=_file_size_limit,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == f"sodos: error: {out}: cannot write: File too large\n".encode()
    assert out.read_text() == "old"
    assert leftovers(tmp_path) == []


# -- encodings, full disk, closed stdout ----------------------------------------------------


def test_a_terminal_that_cannot_show_a_character_gets_a_replacement(tmp_path):
    source = small_h9(tmp_path / "t.h9")
    source.write_text(source.read_text().replace("Ann", "Anné李"))
    done = run("standings", str(source), cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert b"Ann??" in done.stdout and b"t ? standings after round 1" in done.stdout  # em dash
    assert done.stderr == (
        b"warning: 3 character(s) cannot be shown in the output's encoding (ascii) and were "
        b"replaced by '?'; --output FILE writes UTF-8 (or set PYTHONIOENCODING=utf-8)\n"
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_a_full_disk_on_standard_output_is_reported_as_such(tmp_path, fmt):
    source = small_h9(tmp_path / "t.h9")
    with open("/dev/full", "wb") as full:
        done = run("standings", str(source), "--format", fmt, cwd=tmp_path, stdout=full)
    assert done.returncode == 2
    assert done.stderr == b"sodos: error: cannot write standard output: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_the_output_file_is_reported_as_such(sodos, tmp_path):
    source = small_h9(tmp_path / "t.h9")
    done = sodos("standings", str(source), "--output", "/dev/full")
    assert done.status == 2
    assert done.err == "sodos: error: /dev/full: cannot write: No space left on device\n"


def test_a_closed_standard_output_is_reported_as_such(tmp_path):
    source = small_h9(tmp_path / "t.h9")
    done = run("standings", str(source), cwd=tmp_path, stdout=None, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == b"sodos: error: cannot write standard output: it is closed\n"


class FailingStream(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_host_write_blames_the_stream_not_the_writer(host, tmp_path):
    source = small_h9(tmp_path / "t.h9")
    source.write_text(source.read_text().replace("Ann", "Anné"))
    standings = host.standings(host.read([source]).tournament)
    with pytest.raises(OutputError, match="^cannot write the output: No space left on device$"):
        host.write(standings, "csv", FailingStream())
    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    with pytest.raises(OutputError, match=r"its encoding \(ascii\) cannot show 'é'") as caught:
        host.write(standings, "csv", ascii_stream)
    assert not isinstance(caught.value, PluginError)
