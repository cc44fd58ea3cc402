"""One person, two spellings, in SGF records (docs/rules.md §8)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from records import folder, rec, status

from sodos_plugin.errors import InputError
from sodos_plugin.readers.sgf import read


def test_spellings_of_one_name_are_merged_and_said(tmp_path: Path) -> None:
    nfd = unicodedata.normalize("NFD", "Müller Jörg")
    root = folder(
        tmp_path,
        {
            "r1.sgf": rec("Müller Jörg", "Weber Anna", ro="1"),
            "r2.sgf": rec("Weber\u00a0Anna ", nfd, ro="2"),  # NBSP, trailing space; NFD
            "r3.sgf": rec("MÜLLER  JÖRG", "weber\u200b anna", ro="3", re="W+R"),
        },
    )
    result = read([root], {"jobs": 1})
    assert [p.name for p in result.tournament.players] == ["Müller Jörg", "Weber Anna"]
    assert len(result.tournament.games) == 3
    merged = sorted(w for w in result.warnings if "are one player" in w)
    assert merged == sorted(
        f"{a!r} ({root / fa}) and {b!r} ({root / fb}) are one player: the same name but "
        f"for Unicode form, case or spaces (docs/rules.md §8); merged as {a!r}"
        for a, fa, b, fb in [
            ("Müller Jörg", "r1.sgf", nfd, "r2.sgf"),
            ("Weber Anna", "r1.sgf", "Weber\u00a0Anna", "r2.sgf"),
            ("Müller Jörg", "r1.sgf", "MÜLLER  JÖRG", "r3.sgf"),
            ("Weber Anna", "r1.sgf", "weber\u200b anna", "r3.sgf"),
        ]
    )


def test_a_merged_player_in_two_games_of_a_round_is_the_usual_error(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {"a.sgf": rec("Ann Lee", "Bob Ray"), "b.sgf": rec("ANN LEE", "Cid Fox")},
    )
    with pytest.raises(InputError, match="round 1: 'Ann Lee' is in two games"):
        read([root], {"jobs": 1})


def test_pb_and_pw_spelling_one_name_reject_the_file(tmp_path: Path) -> None:
    root = folder(
        tmp_path, {"a.sgf": rec("Ann Lee", "Bob Ray"), "b.sgf": rec("Cid Fox", "cid  fox")}
    )
    result = read([root], {"jobs": 1})
    assert status(result)["b.sgf"] == (
        "rejected",
        "PB 'Cid Fox' and PW 'cid  fox' are the same player (docs/rules.md §8)",
    )


def test_aliases_byes_and_bye_name_match_by_identity(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "r1a.sgf": rec("ANN99", "Bob Ray", ro="1"),
            "r1b.sgf": rec("Cid Fox", "bye ", ro="1"),
            "r2.sgf": rec("Ann Lee", "Cid Fox", ro="2"),
        },
    )
    options = {"jobs": 1, "aliases": {"ann99": "Ann Lee"}, "bye_name": "BYE"}
    options["byes"] = {"2": ["BOB RAY"]}
    t = read([root], options).tournament
    names = [p.name for p in t.players]
    assert sorted(names) == ["Ann Lee", "Bob Ray", "Cid Fox"]
    assert t.byes == {(1, names.index("Cid Fox")), (2, names.index("Bob Ray"))}


def test_close_names_that_never_meet_are_warned_with_their_files(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "r1a.sgf": rec("Schmidt Jonas", "Weber Anna", ro="1"),
            "r1b.sgf": rec("Klein Paul", "Weber Anne", ro="1"),  # Anna/Anne meet in round 1
            "r2a.sgf": rec("Weber Anna", "Schmidt Jonaz", ro="2"),
            "r2b.sgf": rec("Weber Anne", "Klein Paul", ro="2"),
        },
    )
    result = read([root], {"jobs": 1})
    assert len(result.tournament.players) == 5  # warned, not merged
    close = [w for w in result.warnings if w.startswith("close names")]
    assert close == [
        f"close names 'Schmidt Jonas' (round 1, {root / 'r1a.sgf'}) and 'Schmidt Jonaz' "
        f"(round 2, {root / 'r2a.sgf'}) never play in one round: one player spelt two ways? "
        "If so, join them with aliases (docs/rules.md §8)"
    ]
    merged = read([root], {"jobs": 1, "aliases": {"Schmidt Jonaz": "Schmidt Jonas"}})
    assert not [w for w in merged.warnings if w.startswith("close names")]
    assert len(merged.tournament.players) == 4
