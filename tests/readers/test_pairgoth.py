"""pairgoth ``.tour`` reader (docs/rules.md §13): real files written by pairgoth, and
small documents for each member it reads."""

from __future__ import annotations

import contextlib
import json

import pytest
from conftest import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin import InputError, Result
from sodos_plugin.cli import main
from sodos_plugin.readers import pairgoth, pairgoth_file

PAIRGOTH = ("tdformats", "pairgoth")
BOSP_XML = ("conformance", "opengotha", "xml",
            "api-webapp__src__test__resources__opengotha__bosp2024__bosp2024.xml")  # fmt: skip


def run(capsys, *args):
    capsys.readouterr()
    status = main([*args, "--no-entry-points"])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("round_", [None, "1", "5"])
def test_bosp2024_tour_standings_equal_its_opengotha_xml(capsys, round_):
    """The same event as pairgoth and OpenGotha saved it: place for place, value for value."""
    tour, xml = shared_path(*PAIRGOTH, "bosp2024.tour"), shared_path(*BOSP_XML)
    extra = ["--round", round_] if round_ else []
    found = []
    for path in (tour, xml):
        status, out, _ = run(capsys, "standings", str(path), "--criteria",
                             "MMS,SOSM,SOSOSM", "--format", "json", *extra)  # fmt: skip
        assert status == 0
        found.append(json.loads(out))
    assert found[0]["standings"] == found[1]["standings"]
    assert found[0]["tournament"] == found[1]["tournament"]
    assert len(found[0]["standings"]) == 71


def test_bosp2024_reads_byes_skips_ids_and_settings(host):
    read = host.read([shared_path(*PAIRGOTH, "bosp2024.tour")])
    t = read.tournament
    xml = host.read([shared_path(*BOSP_XML)]).tournament
    assert t.byes == xml.byes == {(1, 52), (2, 49)}  # the games against player 0
    assert sorted(map(repr, t.games)) == sorted(map(repr, xml.games))
    assert t.players[0].ids["egd"] == "14825052"  # "14825052\n" in the file
    assert t.settings["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    assert t.settings["mcmahon"] == {"bar": "1d", "floor": "20k"}
    assert t.info["KM"] == "6.5" and t.size == 19 and t.date == "2024-07-06"
    # skip: [3, 5] for Gursen Ilknur: absent in rounds 3 and 5
    gursen = next(i for i, p in enumerate(t.players) if p.name == "Gursen Ilknur")
    assert {(3, gursen), (5, gursen)} <= t.absences
    assert any("not used by sodos" in w and "players' final" in w for w in read.warnings)


def test_marseille_2018_layout_reads(host):
    read = host.read([shared_path(*PAIRGOTH, "20180907-marseille.tour")])
    t = read.tournament
    assert (t.name, t.rounds, len(t.players)) == ("Frioul 2018", 4, 58)
    assert len(t.games) == 99 and {g.handicap for g in t.games} == {0, 1, 2, 3}
    assert t.settings["handicap"] == {"reduction": 1}
    host.standings(t)


def test_stage_2021_reads_with_its_76_players_and_no_games(host):
    t = host.read([shared_path(*PAIRGOTH, "000003-stage-2021.tour")]).tournament
    assert len(t.players) == 76 and t.games == () and t.byes == frozenset()
    assert t.rounds == 10
    host.standings(t)


def doc(**members):
    base = {
        "type": "INDIVIDUAL", "name": "Cup", "shortName": "cup", "startDate": "2024-01-02",
        "endDate": "2024-01-03", "location": "Lyon", "country": "fr", "komi": 7.5,
        "gobanSize": 13, "rounds": 2,
        "pairing": {"type": "SWISS", "placement": ["NBW", "SOSWM1", "SCOREX", "NONE"],
                    "main": {"mmsValueAbsent": 1, "roundDownScore": False}},
        "players": [
            {"id": 1, "name": "Ann", "firstname": "Lee", "rank": -3, "rating": 1800,
             "country": "fr", "club": "69Ly", "ffg": "1234567", "mmsCorrection": 1},
            {"id": 7, "name": "Bob", "firstname": "Day", "rank": 0, "rating": 2100,
             "country": "DE", "club": "Ber", "skip": [2]},
            {"id": 9, "name": "Cid", "firstname": "Roe", "rank": 2, "rating": 2300,
             "country": "GB", "club": "Lon"},
        ],
        "games": [[{"id": 1, "w": 7, "b": 1, "h": 2, "r": "w"},
                   {"id": 2, "w": 0, "b": 9, "h": 0, "r": "b"}],
                  [{"id": 3, "w": 9, "b": 1, "h": 0, "r": "X"}]],
    }  # fmt: skip
    base.update(members)
    return base


def test_a_small_document_reads_every_member():
    t, notes = pairgoth_file.interpret(doc(), "cup.tour")
    assert [p.name for p in t.players] == ["Ann Lee", "Bob Day", "Cid Roe"]
    assert [(p.rank, p.rating, p.club, p.country) for p in t.players][0] == (-3, 1800, "69Ly", "FR")
    assert t.players[0].ids["ffg"] == "1234567" and t.players[0].smms_correction == 1
    assert t.games[0].black == 0 and t.games[0].white == 1 and t.games[0].handicap == 2
    assert t.games[0].result is Result.WHITE_WINS and len(t.games) == 1  # X: left out
    assert t.byes == {(1, 2)} and t.absences == {(2, 1)}
    assert t.settings["system"] == "swiss" and t.settings["criteria"] == ["NBW", "SOSW-1"]
    assert t.settings["scoring"] == {"absent_mms": "1", "round_down": False}
    assert t.info == {"DT": "2024-01-02,2024-01-03", "PC": "FR,Lyon", "KM": "7.5"}
    assert any("SCOREX" in n and "left out" in n for n in notes)
    assert any("1 cancelled game(s)" in n and "Ann Lee - Cid Roe" in n for n in notes)


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"type": "TEAM2"}, "team"),
        ({"rounds": "two"}, "rounds must be int"),
        ({"players": [{"id": 1, "name": "A", "firstname": "B", "rank": 12}]}, "rank 12"),
        ({"games": [[{"id": 1, "w": 5, "b": 1, "r": "b"}]]}, "player 5 is not in players"),
        ({"games": [[{"id": 1, "w": 7, "b": 1, "r": "z"}]]}, "result 'z'"),
        ({"games": [[{"id": 1, "w": 7, "b": 1, "r": "b", "h": 12}]]}, "handicap 12"),
        ({"games": [[], [], []]}, "games of 3 rounds"),
    ],
)
def test_what_pairgoth_would_not_write_is_refused_by_member(members, message):
    with pytest.raises(InputError, match=message):
        pairgoth_file.interpret(doc(**members), "cup.tour")


def test_tour_files_and_pairgoth_json_are_claimed_other_json_is_not(host, tmp_path):
    path = tmp_path / "x.tour"
    assert pairgoth.claims(path, b"")
    head = json.dumps(doc()).encode()
    assert pairgoth.claims(tmp_path / "stdin", head)
    assert not pairgoth.claims(tmp_path / "t.json", b'{"format": "sodos-tournament"}')
    (tmp_path / "cup.tour").write_text(json.dumps(doc()))
    assert host.read([tmp_path / "cup.tour"]).tournament.name == "Cup"


def test_a_file_above_max_bytes_is_refused_naming_the_option(tmp_path):
    path = tmp_path / "big.tour"
    path.write_text(json.dumps(doc()))
    with pytest.raises(InputError, match=r"\[plugin.builtin.pairgoth\] max_bytes"):
        pairgoth_file.read([path], {"max_bytes": 100})


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                               max_size=3),
    max_leaves=6,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_member_of_any_type_reads_or_is_refused_with_a_reason(data):
    """One member (of the tournament, a player, a game or the pairing) replaced by any
    JSON value: an InputError naming it, or a tournament; never another exception."""
    document = doc()
    where = data.draw(st.sampled_from(["top", "player", "game", "pairing", "main"]))
    target = {
        "top": document,
        "player": document["players"][1],
        "game": document["games"][0][0],
        "pairing": document["pairing"],
        "main": document["pairing"]["main"],
    }[where]
    key = data.draw(st.sampled_from(sorted(target) + ["skip", "egf", "mmBar", "h"]))
    target[key] = data.draw(JSON_VALUES)
    with contextlib.suppress(InputError):
        pairgoth_file.interpret(document, "f.tour")


def test_true_is_no_number():
    with pytest.raises(InputError, match="rounds must be int, got True"):
        pairgoth_file.interpret(doc(rounds=True), "cup.tour")


def test_two_games_or_a_bye_and_a_game_in_one_round_are_said():
    games = [[{"id": 1, "w": 7, "b": 1, "r": "w"}, {"id": 2, "w": 9, "b": 1, "r": "b"},
              {"id": 3, "w": 0, "b": 9, "r": "b"}]]  # fmt: skip
    t, notes = pairgoth_file.interpret(doc(games=games), "cup.tour")
    assert len(t.games) == 2 and t.byes == {(1, 2)}
    assert any("round 1: Ann Lee has 2 games" in n for n in notes)
    assert any("round 1: Cid Roe has the bye and a game" in n for n in notes)
