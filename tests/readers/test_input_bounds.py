"""Bounded on any input: regular files only, linear h9 headers, h9 handicaps 0..9, 10 000+ rows.

Inputs are made here. Whatever could block or blow up runs in a child process with an
address-space limit and a timeout (``child.cli``), so a regression fails the
test instead of hanging the suite.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from child import clean, cli, limit_memory, players
from records import good_folder, record

from sodos_plugin import Host, InputError
from sodos_plugin.readers import h9
from sodos_plugin.util.inputfiles import FileRefused, NotRegular, TooLarge, read_head, read_regular

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
needs_dev_zero = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")

SMALL_H9 = """; EV[Bounds Cup]
; Pl Name Rk Co Club NBW
   1 Alice 3d FR Par 1 2+/w0
   2 Bob   2d FR Par 0 1-/b0
"""


def run_python(code: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """``code`` in a child with the memory limit; a hang fails the test."""
    try:
        return subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=limit_memory,
        )
    except subprocess.TimeoutExpired:  # pragma: no cover - the bug these tests guard
        pytest.fail(f"blocked or ran away: {code}")


def unix_socket(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    return server


# -- only regular files are read ----------------------------------------------------------


def special_files(tmp_path: Path, suffix: str) -> dict[str, tuple[Path, str]]:
    """A named pipe, /dev/zero and a socket behind a name ending in ``suffix``."""
    made: dict[str, tuple[Path, str]] = {}
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / f"pipe{suffix}")
        made["pipe"] = (tmp_path / f"pipe{suffix}", "not a regular file (a named pipe)")
    if Path("/dev/zero").exists():
        (tmp_path / f"zero{suffix}").symlink_to("/dev/zero")
        made["zero"] = (tmp_path / f"zero{suffix}", "not a regular file (a character device)")
    if hasattr(socket, "AF_UNIX") and len(str(tmp_path)) < 90:
        unix_socket(tmp_path / f"sock{suffix}")  # closed: the socket file stays
        made["socket"] = (tmp_path / f"sock{suffix}", "not a regular file (a socket)")
    return made


@pytest.mark.parametrize("suffix", [".h9", ".xml", ".sgf", ".zip", ".tgz", ""])
def test_a_pipe_device_or_socket_given_as_input_is_rejected_without_blocking(tmp_path, suffix):
    made = special_files(tmp_path, suffix)
    assert made, "no special file can be made here"
    for path, reason in made.values():
        start = time.monotonic()
        done = cli("standings", str(path), cwd=tmp_path, timeout=20)
        err = clean(done)
        assert done.returncode == 2
        assert err == f"sodos: error: {path}: {reason}\n"
        assert time.monotonic() - start < 20


def test_each_reader_refuses_a_special_file_itself(tmp_path):
    """The readers' own reads (not only Host.read's head) go through the one helper."""
    made = special_files(tmp_path, ".h9")
    for path, reason in made.values():
        code = (
            "from pathlib import Path\n"
            "from sodos_plugin.errors import InputError\n"
            "from sodos_plugin.readers import h9, opengotha_file, opengotha_xml\n"
            "from sodos_plugin.readers.sgf.ingest import ingest_file\n"
            "from sodos_plugin.config.settings import load_file\n"
            "from sodos_plugin.errors import ConfigError\n"
            "from sodos_plugin.ratings.initial import read_initial\n"
            f"p = Path({str(path)!r})\n"
            "for read in (h9.read_path, opengotha_file.read_path, load_file, read_initial):\n"
            "    try:\n"
            "        read(p)\n"
            "    except (InputError, ConfigError) as e:\n"
            "        print(e.message)\n"
            "print(ingest_file(str(p)).error)\n"
        )
        done = run_python(code)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            reason,
            reason,
            f"cannot read config: {reason}",
            reason,
            reason,
        ]


@needs_fifo
def test_pipes_inside_a_records_folder_are_rejected_each_with_the_reason(tmp_path):
    folder = good_folder(tmp_path / "games")
    os.mkfifo(folder / "pipe.sgf")
    os.mkfifo(folder / "pipe.zip")
    os.mkfifo(folder / "pipe.tar.gz")
    done = cli("standings", str(folder), "--skip-bad", "--format", "json", cwd=tmp_path, timeout=20)
    err = clean(done)
    assert done.returncode == 0
    assert f"rejected: {folder / 'pipe.sgf'}: not a regular file (a named pipe)\n" in err
    for name in ("pipe.zip", "pipe.tar.gz"):
        line = f"rejected: {folder / name}: cannot read archive: not a regular file (a named pipe)"
        assert line + "\n" in err
    assert sorted(players(done)) == ["Alice", "Bob", "Carol", "Dave"]


@needs_fifo
def test_a_pipe_as_a_folder_or_given_config_is_refused(tmp_path):
    folder = good_folder(tmp_path / "games")
    os.mkfifo(folder / "sodos.toml")
    done = cli("standings", str(folder), cwd=tmp_path, timeout=20)
    err = clean(done)
    assert done.returncode == 2
    assert err == (
        f"sodos: error: {folder / 'sodos.toml'}: "
        "cannot read config: not a regular file (a named pipe)\n"
    )
    os.mkfifo(tmp_path / "config.toml")
    done = cli("standings", str(tmp_path / "x.h9"), "--config", "config.toml", cwd=tmp_path)
    assert clean(done).endswith("cannot read config: not a regular file (a named pipe)\n")
    done = cli("check", "--config", "config.toml", cwd=tmp_path, timeout=20)
    assert done.returncode == 1
    reason = "cannot read config: not a regular file (a named pipe)"
    assert done.stdout == f"error: config.toml: {reason}\n"


def test_read_regular_bounds_and_reasons(tmp_path):
    path = tmp_path / "f.h9"
    path.write_bytes(b"x" * 1000)
    assert read_regular(path, 1000) == b"x" * 1000
    with pytest.raises(TooLarge, match=r"^file is 1000 bytes, above the limit of 999 \(opt\)$"):
        read_regular(path, 999, "opt")
    with pytest.raises(NotRegular, match=r"^not a regular file \(a directory\)$"):
        read_regular(tmp_path, 10)
    with pytest.raises(FileRefused, match="^cannot read: No such file or directory$"):
        read_regular(tmp_path / "missing", 10)
    assert read_head(path, 4) == b"xxxx"
    big = tmp_path / "sparse.h9"
    with big.open("wb") as handle:  # a terabyte that costs nothing: refused from its size
        handle.truncate(1 << 40)
    with pytest.raises(TooLarge, match=f"^file is {1 << 40} bytes"):
        read_regular(big, 1 << 20)


@needs_dev_zero
def test_dev_zero_is_refused_before_a_byte_is_read():
    with pytest.raises(NotRegular, match=r"a character device"):
        read_regular("/dev/zero", 1 << 30)


def test_the_sgf_record_limit_names_its_option(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "big.sgf").write_bytes(record("A", "B", C="x" * 2000))
    host = Host({"plugin": {"builtin.sgf": {"max_file_bytes": 1000}}}, config_file=False)
    result = host.read([folder], skip_bad=True)
    (report,) = result.files
    assert report.status == "rejected"
    assert report.reason.startswith("file is ") and report.reason.endswith(
        "bytes, above the limit of 1000 (max_file_bytes)"
    )


def test_a_zip_given_by_a_link_to_a_regular_file_is_still_read(host, tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    archive = tmp_path / "real.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("r1.sgf", record("Alice", "Bob"))
    (folder / "link.zip").symlink_to(archive)
    result = host.read([folder])
    assert [p.name for p in result.tournament.players] == ["Alice", "Bob"]


# -- the h9 header line is split in linear time and memory --------------------------------


def test_h9_column_words_split_by_names():
    assert h9.split_columns("MMS  SOSSOSOS SODOSSOS") == ["MMS", "SOS", "SOSOS", "SODOS", "SOS"]
    assert h9.split_columns("SOSOSX") == ["?SOSOSX"]
    assert h9.split_columns("SOS" * 60) == ["SOS"] * 60
    assert h9.split_columns("SOS" * 67) == ["?" + "SOS" * 67]  # 201 letters: no run of names


def test_h9_header_properties_in_one_pass():
    assert h9.properties("; EV[Cup] DT[2024-01-01,2024-01-02] ev[x] HA[h1]") == [
        ("EV", "Cup"),
        ("DT", "2024-01-01,2024-01-02"),
        ("HA", "h1"),
    ]
    assert h9.properties("; EV[a[b] KM[6.5") == [("EV", "a[b")]
    assert h9.properties("; XEV[x]") == [("EV", "x")]
    assert h9.properties("EV[EV[EV[") == []


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # one 8 MB word of names: the old split copied a list per position (quadratic memory)
        (
            b"; Pl Name Rk Co Club NBW " + b"SOS" * 2_700_000,
            "ignored column(s) " + "SOS" * 13 + "… (not a criterion)",
        ),
        # 8 MB of unclosed properties: a regex rescanned the line from each "EV[" (quadratic)
        (b"; " + b"EV[" * 2_700_000 + b"\n; Pl Name Rk Co Club NBW", None),
    ],
)
def test_h9_header_of_megabytes_is_read_in_bounded_time_and_memory(tmp_path, header, expected):
    rows = b"\n   1 Alice 3d FR Par 1 9 2+/w0\n   2 Bob 2d FR Par 0 9 1-/b0\n"
    if expected is None:
        rows = rows.replace(b" 9 ", b" ")
    path = tmp_path / "header.h9"
    path.write_bytes(header + rows)
    start = time.monotonic()
    done = cli("standings", str(path), "--format", "json", cwd=tmp_path, timeout=60)
    err = clean(done)
    assert done.returncode == 0, err
    assert players(done) == ["Alice", "Bob"]
    if expected is not None:
        assert err == f"warning: {path}: {expected}\n"
    assert time.monotonic() - start < 60


def test_h9_header_with_too_many_columns_is_refused(tmp_path):
    path = tmp_path / "wide.h9"
    path.write_bytes(b"; Pl Name Rk Co Club " + b"NBW " * 101 + b"\n 1 A 1d 1\n")
    with pytest.raises(InputError, match="more than 100 value columns") as caught:
        h9.read_path(path)
    assert caught.value.where == "line 1"


# -- h9 handicaps 0..9, 10 000+ rows ------------------------------------------------------


@pytest.mark.parametrize("handicap", ["10", "12", "99"])
def test_h9_handicap_outside_0_to_9_is_refused(host, tmp_path, handicap):
    path = tmp_path / "hc.h9"
    path.write_text(SMALL_H9.replace("/w0", f"/w{handicap}").replace("/b0", f"/b{handicap}"))
    with pytest.raises(InputError) as caught:
        host.read([path])
    assert str(caught.value) == f"{path}:line 3, round 1: handicap {handicap} outside 0..9"


def test_h9_handicap_9_is_read(host, tmp_path):
    path = tmp_path / "hc.h9"
    path.write_text(SMALL_H9.replace("/w0", "/w9").replace("/b0", "/b9"))
    (game,) = host.read([path]).tournament.games
    assert game.handicap == 9


def swiss_rows(n: int) -> str:
    """``n`` players, row i plays row i^1 in round 1 (the even row wins with White)."""
    lines = ["; EV[Big]", "; Pl Name Rk Co Club NBW"]
    for i in range(n):
        opponent = (i ^ 1) + 1
        won = i % 2 == 0
        token = f"{opponent}{'+' if won else '-'}/{'w' if won else 'b'}0"
        lines.append(f"{i + 1} P{i} 1k FR Par {int(won)} {token}")
    return "\n".join(lines) + "\n"


def test_h9_with_five_and_six_digit_opponent_numbers_is_read(tmp_path):
    path = tmp_path / "big.h9"
    path.write_text(swiss_rows(10_002))
    t = h9.read_path(path)[0]
    assert len(t.players) == 10_002
    last = t.games[-1]
    assert (last.black, last.white, last.handicap) == (10_001, 10_000, 0)
    assert t.players[last.white].name == "P10000"
    assert h9.parse_round("100001-/b0") == h9.RoundToken(100_001, "-", False, "b", 0)
    assert h9.parse_round("12345678+") is None  # 8 digits: no row number


def test_h9_place_of_thousands_of_digits_is_an_input_error(tmp_path):
    path = tmp_path / "place.h9"
    path.write_text(SMALL_H9.replace("   1 Alice", "9" * 5000 + " Alice"))
    with pytest.raises(InputError, match="has more than 9 digits"):
        h9.read_path(path)


def test_a_path_longer_than_the_system_allows_is_named(make_host, tmp_path, capsys):
    """A 300-byte file name ended as ``sodos: error: cannot write: File name too long``,
    naming no file (``Path.exists`` raised the bare OSError): every command names it."""
    from sodos_plugin.cli import main

    long = tmp_path / ("a" * 300 + ".xml")
    host = make_host({"cache": {"enabled": False}})
    for read in (host.read, host.history):
        with pytest.raises(InputError, match="cannot read: File name too long") as error:
            read([long])
        assert error.value.source == str(long)
    for argv in (["standings", str(long)], ["ratings", str(long), "--no-cache"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "File name too long" in err and "aaaa" in err and "cannot write" not in err
