"""The walk over SGF folders and archives: settings kept with an archive, walk errors,
contradictions, one bad member, run options a folder cannot set, and one memory budget
per run.

Each case is an input of our own with the exact outcome asserted; the bounds are checked
in a child process with an address-space limit and a timeout (tests/child.py).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest
from child import clean, cli
from conftest import InlineWorkers, builtin_host
from records import folder, make_tgz, make_zip, rec, status

from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.readers.sgf import read
from sodos_plugin.readers.sgf import walk as walk_module
from sodos_plugin.util import workers as workers_module
from sodos_plugin.util.gcpause import worker_start

SETTINGS = (
    b'system = "mcmahon"\n[mcmahon]\nbar = "1d"\n'
    b'[plugin."builtin.sgf"]\nbyes = { "2" = ["Cid Fox"] }\n'
)


def event(tmp_path: Path) -> dict[str, bytes]:
    return {
        "r1a.sgf": rec("Ann Lee", "Bob Ray", ro="1", br="3d", wr="2k"),
        "r1b.sgf": rec("Cid Fox", "Dan Oak", ro="1", br="1k", wr="5k", re="W+R"),
        "r2a.sgf": rec("Bob Ray", "Dan Oak", ro="2", br="2k", wr="5k"),
    }


def standings(paths: list[Path]) -> list[tuple[str, str]]:
    host = builtin_host()
    read_result = host.read(paths, jobs=1)
    table = host.standings(read_result.tournament)
    return [(r.player.name, str(r.values["MMS"])) for r in table.rows()]


# -- an archive's own sodos.toml -------------------------------------------------------


@pytest.mark.parametrize("maker", [make_zip, make_tgz])
@pytest.mark.parametrize("inside", ["", "games/"])
def test_an_archive_keeps_its_folder_settings(host, tmp_path, maker, inside):
    files = {**event(tmp_path), "sodos.toml": SETTINGS}
    games = folder(tmp_path / "games", files)
    suffix = ".zip" if maker is make_zip else ".tar.gz"
    archive = maker(tmp_path / f"games{suffix}", {inside + k: v for k, v in files.items()})
    expected = standings([games])
    assert expected[0] != ("Cid Fox", "Fraction(1, 1)")  # the bye and the bar do matter
    from_archive = host.read([archive], jobs=1)
    assert from_archive.tournament.settings["mcmahon"] == {"bar": "1d"}
    assert standings([archive]) == expected
    reports = {f.path: (f.status, f.reason) for f in from_archive.files}
    assert reports[f"{archive}!{inside}sodos.toml"] == ("settings", "tournament settings")


@pytest.mark.parametrize("maker", [make_zip, make_tgz])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'[plugin."builtin.sgf"]\nmax_file_bytes = 99999999\n', "max_file_bytes: set limits"),
        (b'plugins = ["evil"]\n', "plugins: a records folder cannot set it"),
    ],
)
def test_an_archive_settings_file_has_a_folders_restrictions(tmp_path, maker, content, message):
    suffix = ".zip" if maker is make_zip else ".tar.gz"
    archive = maker(tmp_path / f"g{suffix}", {**event(tmp_path), "sodos.toml": content})
    with pytest.raises(ConfigError, match=message) as caught:
        read([archive], {"jobs": 1})
    assert f"g{suffix}!sodos.toml" in str(caught.value)


def test_a_nested_sodos_toml_in_an_archive_is_not_settings(tmp_path):
    archive = make_zip(
        tmp_path / "g.zip", {**event(tmp_path), "deep/sodos.toml": b'system = "swiss"\n'}
    )
    result = read([archive], {"jobs": 1})
    assert "system" not in result.tournament.settings
    assert status(result)["sodos.toml"] == ("excluded", "not an SGF record (.sgf)")


# -- unreadable is not absent -------------------------------------------------------------


def test_a_folder_that_cannot_be_read_is_rejected_naming_it(tmp_path, monkeypatch):
    games = folder(tmp_path / "games", event(tmp_path))
    (games / "round3").mkdir()
    (games / "round3" / "r3.sgf").write_bytes(rec("Ann Lee", "Dan Oak", ro="3"))
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("round3"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = read([games], {"jobs": 1})
    assert status(result)["round3"] == ("rejected", "cannot read folder: Permission denied")
    assert result.tournament.rounds == 2  # ...and the report makes the run stop:
    with pytest.raises(Exception, match="1 input file"):
        from sodos_plugin.cli._common import report_files

        report_files(result, io.StringIO(), skip_bad=False)


def _deep_folder(top: Path, depth: int) -> None:
    """Folders nested until the path is longer than the system allows, a record at the end."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d" * 200, dir_fd=fd)
            inner = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        record = os.open("deep.sgf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(record, rec("Eve Elm", "Fay Ash", ro="1"))
        os.close(record)
    finally:
        os.close(fd)


def test_a_path_too_long_is_a_rejection_and_the_run_stops(tmp_path):
    games = folder(tmp_path / "games", event(tmp_path))
    _deep_folder(games, 25)  # 25 x 201 characters: beyond PATH_MAX (4096)
    try:
        done = cli("standings", str(games), "--jobs", "1", cwd=tmp_path)
        err = clean(done)
        assert done.returncode == 2
        assert "rejected: " in err and "File name too long" in err, err
        assert "1 input file(s) rejected" in err
        done = cli("standings", str(games), "--skip-bad", "--format", "json", cwd=tmp_path)
        clean(done)
        assert done.returncode == 0
        assert len(json.loads(done.stdout)["standings"]) == 4
    finally:
        shutil.rmtree(games / ("d" * 200))


def _nested(top: Path, depth: int, name: str = "n") -> list[str]:
    """``depth`` folders each inside the one before, a record every 100 levels; the
    records' players (made through descriptors: os.makedirs itself recurses)."""
    players = []
    fd = os.open(top, os.O_RDONLY)
    try:
        for level in range(1, depth + 1):
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            if level % 100 == 0:
                black, white = f"Deep{level} Ann", f"Deep{level} Bob"
                record = os.open("g.sgf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
                os.write(record, rec(black, white, ro="1"))
                os.close(record)
                players += [black, white]
    finally:
        os.close(fd)
    return players


def _remove_nested(top: Path, name: str = "n") -> None:
    """Remove what :func:`_nested` made, deepest first, without recursion: pytest's own
    clean-up of old temporary folders (shutil.rmtree) recurses per level and fails on
    1 100 of them before Python 3.12, ending a later session in RecursionError."""
    levels = [top]
    while (levels[-1] / name).is_dir():
        levels.append(levels[-1] / name)
    for level in reversed(levels[1:]):
        for entry in level.iterdir():
            if not entry.is_dir():
                entry.unlink()
        level.rmdir()


@pytest.mark.slow
def test_1100_nested_folders_are_walked(tmp_path):
    """No recursion per level (os.walk before Python 3.12 raises RecursionError)."""
    games = tmp_path / "games"
    games.mkdir()
    try:
        players = _nested(games, 1100)
        done = cli("standings", str(games), "--format", "json", "--jobs", "1", cwd=tmp_path)
    finally:
        _remove_nested(games)
    clean(done)
    assert done.returncode == 0, done.stderr
    assert sorted(p["player"]["name"] for p in json.loads(done.stdout)["standings"]) == sorted(
        players
    )


def test_the_walk_is_os_walks_order(tmp_path):
    names = ["b", "a", "B", "a1", "z.sgf", "m", ".hidden", "é"]
    for first in names:
        for second in names[:4]:
            (tmp_path / first / second).mkdir(parents=True, exist_ok=True)
            (tmp_path / first / second / "x.sgf").write_bytes(b"")
        (tmp_path / f"{first}.txt").write_bytes(b"")
    (tmp_path / "b" / "link").symlink_to(tmp_path / "a")
    errors: list = []
    assert list(walk_module.walk(tmp_path, errors.append)) == list(os.walk(tmp_path))
    assert errors == []


def test_a_link_to_a_folder_is_reported_not_followed(tmp_path):
    games = folder(tmp_path / "games", event(tmp_path))
    other = folder(tmp_path / "other", {"x.sgf": rec("Eve Elm", "Fay Ash", ro="3")})
    (games / "more").symlink_to(other)
    result = read([games], {"jobs": 1})
    assert status(result)["more"] == ("excluded", "a link to a folder, not followed")
    assert result.tournament.rounds == 2


# -- contradictions -----------------------------------------------------------------------


def test_bar_below_floor_is_an_error_naming_both(make_host):
    with pytest.raises(ConfigError, match=r"mcmahon\.bar 5k \(host config\) is below"):
        make_host({"mcmahon": {"bar": "5k", "floor": "1d"}})


@pytest.mark.parametrize("criteria", [["MMS", "SOS", "MMS"], ["MMS", "sos", "SOS"]])
def test_a_criterion_listed_twice_is_an_error(make_host, criteria):
    with pytest.raises(ConfigError, match="is listed twice"):
        make_host({"criteria": criteria})


def test_a_criterion_listed_twice_on_the_command_line(sodos, tmp_path):
    games = folder(tmp_path / "games", event(tmp_path))
    done = sodos("standings", games, "--criteria", "MMS,SOS,MMS")
    assert done.status == 2 and "criteria: MMS is listed twice" in clean(done)


def test_two_folders_with_different_settings_are_an_error(tmp_path):
    one = folder(tmp_path / "one", {"a.sgf": rec("Ann", "Bob"), "sodos.toml": SETTINGS})
    two = folder(
        tmp_path / "two", {"b.sgf": rec("Cid", "Dan"), "sodos.toml": b'system = "swiss"\n'}
    )
    with pytest.raises(ConfigError, match="two records folders with different settings"):
        read([one, two], {"jobs": 1})
    (one / "sodos.toml").write_bytes(b'system = "swiss"\n')  # the same: one tournament
    result = read([one, two], {"jobs": 1})
    assert len(result.tournament.players) == 4
    assert result.tournament.settings["system"] == "swiss"


@pytest.mark.parametrize("key", ["plugins", "disable", "prefer", "strict", "roster"])
def test_a_folder_config_cannot_load_block_or_prefer_plugins(tmp_path, key):
    value = {
        "plugins": '["os"]',
        "disable": '["builtin.sos"]',
        "prefer": '{ SOS = "x" }',
        "strict": "false",
        "roster": '"/etc/passwd"',
    }[key]
    games = folder(
        tmp_path, {"a.sgf": rec("Ann", "Bob"), "sodos.toml": f"{key} = {value}\n".encode()}
    )
    with pytest.raises(ConfigError, match=f"{key}: a records folder cannot set it"):
        read([games], {"jobs": 1})


def test_two_players_with_the_bye_in_one_round_is_an_error(tmp_path):
    games = folder(tmp_path, {"a.sgf": rec("Ann", "Bob")})
    with pytest.raises(InputError, match=r"round 2: two players have the bye: 'Ann' .* 'Bob'"):
        read([games], {"jobs": 1, "byes": {"2": ["Ann", "Bob"]}})
    games = folder(
        tmp_path, {"b.sgf": rec("Ann", "BYE", ro="3"), "c.sgf": rec("BYE", "Bob", ro="3")}
    )
    with pytest.raises(InputError, match=r"round 3: two players have the bye: 'Ann' \(.*b\.sgf"):
        read([games], {"jobs": 1, "bye_name": "BYE"})


def test_a_duplicate_record_with_another_rank_is_warned(tmp_path):
    games = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", br="3k", wr="1d"),
            "b.sgf": rec("Ann", "Bob", br="2k", wr="1d"),
        },
    )
    result = read([games], {"jobs": 1})
    assert status(result)["b.sgf"][0] == "duplicate"
    assert (
        f"{games / 'b.sgf'}: the same game as {games / 'a.sgf'} but BR[2k] for 'Ann' "
        "where it has BR[3k]; the first file's rank is used" in result.warnings
    )
    assert not [w for w in result.warnings if "WR[" in w]  # 1d both times


def test_duplicate_and_other_event_games_inside_a_collection_are_reported(tmp_path):
    collection = rec("Ann", "Bob") + rec("Cid", "Dan", ev="Other") + rec("Eve", "Fay")
    games = folder(tmp_path, {"a.sgf": rec("Eve", "Fay"), "b.sgf": collection})
    result = read([games], {"jobs": 1, "event": "Cup"})
    reports = {Path(f.path).name: (f.status, f.reason) for f in result.files}
    assert reports["b.sgf"] == ("ingested", "")
    assert reports["b.sgf#2"] == ("excluded", "event 'Other', not 'Cup'")
    assert reports["b.sgf#3"] == ("duplicate", f"same game as {games / 'a.sgf'}")


def test_check_exits_1_and_lists_rejected_inputs(sodos, tmp_path):
    games = folder(tmp_path / "games", {**event(tmp_path), "bad.sgf": rec("X", "Y", re="B+Jigo")})
    done = sodos("check", games)
    out = done.out
    assert done.status == 1, out + done.err
    assert f"rejected: {games / 'bad.sgf'}: RE[B+Jigo]: says Black won and says jigo" in out
    assert "error: 1 input file(s) rejected" in out and "ok:" not in out


# -- one bad member --------------------------------------------------------------------


def _patched_zip(tmp_path: Path, patch) -> Path:
    """A zip of two records whose second member's headers are changed by ``patch``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.sgf", rec("Ann", "Bob"))
        archive.writestr("b.sgf", rec("Cid", "Dan"))
    data = bytearray(buffer.getvalue())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo("b.sgf")
    local = info.header_offset
    central = data.rfind(b"PK\x01\x02")  # the last central entry is b.sgf's
    patch(data, local, central)
    path = tmp_path / "g.zip"
    path.write_bytes(bytes(data))
    return path


def _flag_encrypted(data, local, central):
    data[local + 6] |= 1
    data[central + 8] |= 1


def _deflate64(data, local, central):
    data[local + 8 : local + 10] = (9).to_bytes(2, "little")
    data[central + 10 : central + 12] = (9).to_bytes(2, "little")


def _bad_crc(data, local, central):
    for at in (local + 14, central + 16):
        data[at] ^= 0xFF


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        (_flag_encrypted, "encrypted member: it needs a password, not read"),
        (_deflate64, "compression method 9 (deflate64) not supported, not read"),
        (_bad_crc, "cannot read member: Bad CRC-32 for file 'b.sgf'"),
    ],
)
def test_a_member_that_cannot_be_read_is_rejected_alone(sodos, tmp_path, patch, reason):
    archive = _patched_zip(tmp_path, patch)
    result = read([archive], {"jobs": 1})
    reports = {f.path.split("!")[1]: (f.status, f.reason) for f in result.files}
    assert reports == {"a.sgf": ("ingested", ""), "b.sgf": ("rejected", reason)}
    done = sodos("standings", archive, "--skip-bad", "--format", "json")
    assert done.status == 0 and f"rejected: {archive}!b.sgf: {reason}" in clean(done)
    done = sodos("standings", archive)
    assert done.status == 2 and "plugin 'builtin.sgf' failed" not in clean(done)


# -- run options a folder cannot set; workers capped -------------------------------------


@pytest.mark.parametrize("key", ["jobs", "skip_bad"])
def test_jobs_from_a_records_folder_is_refused(tmp_path, key):
    value = "64" if key == "jobs" else "true"
    content = f'[plugin."builtin.sgf"]\n{key} = {value}\n'
    games = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "sodos.toml": content.encode()})
    with pytest.raises(ConfigError, match=f"{key}: set limits and run options in your config"):
        read([games], {"jobs": None})


def test_workers_are_capped_at_the_cores(tmp_path, monkeypatch):
    monkeypatch.setattr(InlineWorkers, "asked", [])
    monkeypatch.setattr(InlineWorkers, "starts", [])
    monkeypatch.setattr(workers_module, "in_order", InlineWorkers.in_order)
    monkeypatch.setattr(walk_module, "PARALLEL_MIN_UNITS", 1)
    games = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": rec("Cid", "Dan")})
    result = read([games], {"jobs": 1000})
    assert InlineWorkers.asked[-1] == (os.cpu_count() or 1)  # processes: this one and workers
    assert InlineWorkers.starts[-1] is worker_start  # workers never collect
    assert len(result.tournament.games) == 2


# -- one budget for the run ------------------------------------------------------------


def _zeros_zip(path: Path, members: int, size: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(members):
            with archive.open(f"z{i}.sgf", "w") as member:
                for _ in range(size >> 20):
                    member.write(bytes(1 << 20))
    return path


def test_many_small_bombs_share_one_budget_in_bounded_memory(tmp_path):
    """Twenty archives of 45 MiB each (zeros: 45 KiB compressed), each under the limit of
    64 MiB of archive data: 900 MiB held at once before; now one budget for the run."""
    games = good = folder(tmp_path / "games", event(tmp_path))
    first = _zeros_zip(games / "bomb00.zip", 3, 15 << 20)
    for i in range(1, 20):
        shutil.copy(first, games / f"bomb{i:02d}.zip")
    (tmp_path / "sodos.toml").write_text('[plugin."builtin.sgf"]\nmax_archive_bytes = 67108864\n')
    done = cli("standings", str(good), "--skip-bad", "--format", "json", cwd=tmp_path)
    err = clean(done)
    assert done.returncode == 0, err
    refused = [line for line in err.splitlines() if "max_archive_bytes" in line]
    assert len(refused) == 19  # the first fits the budget; every other one is refused whole
    assert all(line.startswith("rejected: ") and "bomb" in line for line in refused)
    assert len(json.loads(done.stdout)["standings"]) == 4


def test_a_zip_directory_is_checked_before_it_is_read(tmp_path, monkeypatch):
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        for i in range(50):
            handle.writestr(f"{i}.sgf", rec(f"P{i}", f"Q{i}"))

    def never(*args, **kwargs):
        raise AssertionError("the directory was read")

    monkeypatch.setattr(zipfile, "ZipFile", never)  # the walk imports zipfile when it reads one
    result = read([archive], {"jobs": 1, "max_archive_members": 20})
    (report,) = result.files
    assert report.status == "rejected"
    assert report.reason == (
        "cannot read archive: more than 20 members in this run's archives: its "
        "directory lists 50 (max_archive_members); not read"
    )


def test_a_zip64_end_record_claiming_a_billion_members_is_refused_unread(tmp_path):
    import struct

    record = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 10**9, 10**9, 10**12, 0)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, 0, 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    path = tmp_path / "liar.zip"
    path.write_bytes(record + locator + end)
    done = cli("standings", str(path), cwd=tmp_path)
    err = clean(done)
    assert done.returncode == 2
    assert "its directory lists 1000000000 (max_archive_members)" in err, err
