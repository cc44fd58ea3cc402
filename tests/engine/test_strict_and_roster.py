"""``--strict`` (every warning an error) and the roster (docs/rules.md §8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TESTS
from records import folder, rec

from sodos_plugin import Host, InputError, StrictError
from sodos_plugin.errors import ConfigError

SAMPLE = ROOT / "sample_sgf"


def sodos(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("SODOS_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sodos_plugin.cli", *args, "--no-entry-points"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def merged_folder(tmp_path: Path) -> Path:
    return folder(
        tmp_path / "games",
        {
            "r1.sgf": rec("Ann Lee", "Bob Ray", ro="1"),
            "r2.sgf": rec("Bob Ray", "ANN LEE", ro="2"),
        },
    )


MERGED = "'Ann Lee' ({0}) and 'ANN LEE' ({1}) are one player"


def test_a_warning_is_printed_and_the_run_goes_on(tmp_path):
    games = merged_folder(tmp_path)
    done = sodos("standings", str(games), "--format", "csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.stderr
    assert done.stdout.count("\n") == 3  # header and two players


@pytest.mark.parametrize("how", ["option", "option-first", "config"])
def test_strict_turns_every_warning_into_an_error(tmp_path, how):
    games = merged_folder(tmp_path)
    if how == "config":
        (tmp_path / "sodos.toml").write_text("strict = true\n")
        args = ["standings", str(games)]
    elif how == "option":
        args = ["standings", str(games), "--strict"]
    else:
        args = ["standings", "--strict", str(games)]
    done = sodos(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""  # no standings
    lines = done.stderr.splitlines()
    assert lines[-1] == "sodos: error: 1 warning(s), errors under --strict"
    assert lines[0].startswith("error: " + MERGED.format(games / "r1.sgf", games / "r2.sgf"))


def test_strict_lists_the_standings_warnings_too(tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Ann Lee", "Bob Ray")})
    # SODOS with MMS: advice warns (docs/rules.md); NR is no rank: a reader warning
    done = sodos("standings", str(games), "--criteria", "MMS,SODOS", "--strict", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    host = Host({"strict": True, "criteria": ["MMS", "SODOS"]}, config_file=False)
    read = Host(config_file=False, entry_points=False).read([games], jobs=1)
    with pytest.raises(StrictError) as caught:
        host.standings(read.tournament)
    assert caught.value.warnings and all(w in done.stderr for w in caught.value.warnings)


def test_check_lists_warnings_as_errors_under_strict_and_exits_1(tmp_path):
    games = merged_folder(tmp_path)
    done = sodos("check", str(games), cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "warning: " + MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.stdout
    done = sodos("check", "--strict", str(games), cwd=tmp_path)
    assert done.returncode == 1
    assert "error: " + MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.stdout
    assert "ok:" not in done.stdout


def test_host_read_under_strict_raises_with_every_warning(tmp_path):
    games = merged_folder(tmp_path)
    with pytest.raises(StrictError) as caught:
        Host(config_file=False, entry_points=False, strict=True).read([games], jobs=1)
    assert len(caught.value.warnings) == 1 and "are one player" in caught.value.warnings[0]


# -- roster ------------------------------------------------------------------------------


def roster_csv(path: Path, names: list[str]) -> Path:
    lines = ["Name,Rank,Club,Country"] + [f"{n},3k,Go Club,DE" for n in names]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_name_not_in_the_roster_is_an_error_with_the_closest_match(tmp_path):
    games = folder(
        tmp_path / "games",
        {"r1.sgf": rec("Schmidt Jonaz", "Weber Anna"), "r2.sgf": rec("Nobody Else", "X Y", ro="2")},
    )
    roster = roster_csv(tmp_path / "players.csv", ["Schmidt Jonas", "weber  ANNA", "Klein Paul"])
    done = sodos("standings", str(games), "--roster", str(roster), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        f"3 player name(s) not in the roster {roster}: 'Schmidt Jonaz' (closest: "
        "'Schmidt Jonas'), 'Nobody Else' (no close name in the roster), "
        "'X Y' (no close name in the roster)"
    ), done.stderr
    assert done.stdout == ""


def test_a_roster_with_every_name_passes(tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Schmidt Jonas", "Weber Anna")})
    roster_csv(tmp_path / "players.csv", ["SCHMIDT JONAS", "Weber\u00a0Anna", "Klein Paul"])
    (tmp_path / "sodos.toml").write_text('roster = "players.csv"\n')  # beside the config
    done = sodos("standings", str(games), "--format", "csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Schmidt Jonas" in done.stdout


def test_surname_and_first_name_columns_and_semicolons(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("Name;First name;Rank\nSchmidt;Jonas;3k\nWeber;Anna;1d\n", encoding="utf-8")
    games = folder(tmp_path / "games", {"r1.sgf": rec("Schmidt Jonas", "Weber Anna")})
    host = Host(config_file=False, entry_points=False, roster=path)
    assert host.roster.names == ["Schmidt Jonas", "Weber Anna"]
    assert len(host.read([games], jobs=1).tournament.players) == 2


def test_any_tournament_file_is_a_roster():
    xml = TESTS / "data" / "sample_tournament.xml"
    host = Host(config_file=False, entry_points=False, roster=xml)
    result = host.read([SAMPLE], jobs=1, skip_bad=True)
    assert len(result.tournament.players) == len(host.roster.names)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Rank,Club\n3k,x\n", "the header row needs a 'name' column"),
        ("", "empty file"),
        ("Name\n", "no player names"),
        (b"Name\n\xff\n", "not UTF-8"),
    ],
)
def test_a_bad_roster_is_a_config_error(tmp_path, content, message):
    path = tmp_path / "players.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    host = Host(config_file=False, entry_points=False, roster=path)
    with pytest.raises(ConfigError, match=message):
        _ = host.roster
    done = sodos("check", "--roster", str(path), cwd=tmp_path)
    assert done.returncode == 1 and message in done.stdout


def test_a_missing_roster_fails_check(tmp_path):
    done = sodos("check", "--roster", "nowhere.csv", cwd=tmp_path)
    assert done.returncode == 1 and "nowhere.csv: roster: cannot read: No such file" in done.stdout


def test_the_roster_check_is_one_error_for_the_api(tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Ann Lee", "Bob Ray")})
    roster = roster_csv(tmp_path / "players.csv", ["Ann Lee"])
    with pytest.raises(InputError, match=r"'Bob Ray' \(no close name"):
        Host(config_file=False, entry_points=False, roster=roster).read([games], jobs=1)
