"""``--strict`` (every warning an error) and the roster (docs/rules.md §8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, TESTS
from records import folder, rec

from sodos_plugin import Host, InputError, StrictError
from sodos_plugin.errors import ConfigError

SAMPLE = ROOT / "sample_sgf"


def merged_folder(tmp_path: Path) -> Path:
    return folder(
        tmp_path / "games",
        {
            "r1.sgf": rec("Ann Lee", "Bob Ray", ro="1"),
            "r2.sgf": rec("Bob Ray", "ANN LEE", ro="2"),
        },
    )


MERGED = "'Ann Lee' ({0}) and 'ANN LEE' ({1}) are one player"


def test_a_warning_is_printed_and_the_run_goes_on(sodos, tmp_path):
    games = merged_folder(tmp_path)
    done = sodos("standings", str(games), "--format", "csv")
    assert done.status == 0, done.err
    assert MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.err
    assert done.out.count("\n") == 3  # header and two players


@pytest.mark.parametrize("how", ["option", "option-first", "config"])
def test_strict_turns_every_warning_into_an_error(sodos, tmp_path, how):
    games = merged_folder(tmp_path)
    if how == "config":
        (tmp_path / "sodos.toml").write_text("strict = true\n")
        args = ["standings", str(games)]
    elif how == "option":
        args = ["standings", str(games), "--strict"]
    else:
        args = ["standings", "--strict", str(games)]
    done = sodos(*args)
    assert done.status == 2
    assert done.out == ""  # no standings
    lines = done.err.splitlines()
    assert lines[-1] == "sodos: error: 1 warning(s), errors under --strict"
    assert lines[0].startswith("error: " + MERGED.format(games / "r1.sgf", games / "r2.sgf"))


def test_strict_lists_the_standings_warnings_too(sodos, host, tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Ann Lee", "Bob Ray")})
    # SODOS with MMS: advice warns (docs/rules.md); NR is no rank: a reader warning
    done = sodos("standings", str(games), "--criteria", "MMS,SODOS", "--strict")
    assert done.status == 2, done.err
    strict = Host({"strict": True, "criteria": ["MMS", "SODOS"]}, config_file=False)
    read = host.read([games], jobs=1)
    with pytest.raises(StrictError) as caught:
        strict.standings(read.tournament)
    assert caught.value.warnings and all(w in done.err for w in caught.value.warnings)


def test_check_lists_warnings_as_errors_under_strict_and_exits_1(sodos, tmp_path):
    games = merged_folder(tmp_path)
    done = sodos("check", str(games))
    assert done.status == 0, done.out
    assert "warning: " + MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.out
    done = sodos("check", "--strict", str(games))
    assert done.status == 1
    assert "error: " + MERGED.format(games / "r1.sgf", games / "r2.sgf") in done.out
    assert "ok:" not in done.out


def test_host_read_under_strict_raises_with_every_warning(make_host, tmp_path):
    games = merged_folder(tmp_path)
    with pytest.raises(StrictError) as caught:
        make_host(strict=True).read([games], jobs=1)
    assert len(caught.value.warnings) == 1 and "are one player" in caught.value.warnings[0]


# -- roster ------------------------------------------------------------------------------


def roster_csv(path: Path, names: list[str]) -> Path:
    lines = ["Name,Rank,Club,Country"] + [f"{n},3k,Go Club,DE" for n in names]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_name_not_in_the_roster_is_an_error_with_the_closest_match(sodos, tmp_path):
    games = folder(
        tmp_path / "games",
        {"r1.sgf": rec("Schmidt Jonaz", "Weber Anna"), "r2.sgf": rec("Nobody Else", "X Y", ro="2")},
    )
    roster = roster_csv(tmp_path / "players.csv", ["Schmidt Jonas", "weber  ANNA", "Klein Paul"])
    done = sodos("standings", str(games), "--roster", str(roster))
    assert done.status == 2
    assert done.err.strip().endswith(
        f"3 player name(s) not in the roster {roster}: 'Schmidt Jonaz' (closest: "
        "'Schmidt Jonas'), 'Nobody Else' (no close name in the roster), "
        "'X Y' (no close name in the roster)"
    ), done.err
    assert done.out == ""


def test_a_roster_with_every_name_passes(sodos, tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Schmidt Jonas", "Weber Anna")})
    roster_csv(tmp_path / "players.csv", ["SCHMIDT JONAS", "Weber\u00a0Anna", "Klein Paul"])
    (tmp_path / "sodos.toml").write_text('roster = "players.csv"\n')  # beside the config
    done = sodos("standings", str(games), "--format", "csv")
    assert done.status == 0, done.err
    assert "Schmidt Jonas" in done.out


def test_surname_and_first_name_columns_and_semicolons(make_host, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("Name;First name;Rank\nSchmidt;Jonas;3k\nWeber;Anna;1d\n", encoding="utf-8")
    games = folder(tmp_path / "games", {"r1.sgf": rec("Schmidt Jonas", "Weber Anna")})
    host = make_host(roster=path)
    assert host.roster.names == ["Schmidt Jonas", "Weber Anna"]
    assert len(host.read([games], jobs=1).tournament.players) == 2


def test_any_tournament_file_is_a_roster(make_host):
    xml = TESTS / "data" / "sample_tournament.xml"
    host = make_host(roster=xml)
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
def test_a_bad_roster_is_a_config_error(sodos, make_host, tmp_path, content, message):
    path = tmp_path / "players.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    host = make_host(roster=path)
    with pytest.raises(ConfigError, match=message):
        _ = host.roster
    done = sodos("check", "--roster", str(path))
    assert done.status == 1 and message in done.out


def test_a_missing_roster_fails_check(sodos):
    done = sodos("check", "--roster", "nowhere.csv")
    assert done.status == 1 and "nowhere.csv: roster: cannot read: No such file" in done.out


def test_the_roster_check_is_one_error_for_the_api(make_host, tmp_path):
    games = folder(tmp_path / "games", {"r1.sgf": rec("Ann Lee", "Bob Ray")})
    roster = roster_csv(tmp_path / "players.csv", ["Ann Lee"])
    with pytest.raises(InputError, match=r"'Bob Ray' \(no close name"):
        make_host(roster=roster).read([games], jobs=1)
