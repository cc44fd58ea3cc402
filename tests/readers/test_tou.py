"""FFG ``.tou`` reader (docs/rules.md §13): OpenGotha's real files against the h9 it
wrote in the same session, and small files for each part of the format."""

from __future__ import annotations

import contextlib
import json

import pytest
from conftest import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin import InputError, Result
from sodos_plugin.cli import main
from sodos_plugin.readers import tou, tou_file

FFG = ("tdformats", "ffg")
PAIRS = ("TouTest", "Tournoi de Juvisy", "Veterans")


def convert(capsys, path) -> dict:
    capsys.readouterr()
    assert main(["convert", str(path), "--to", "json", "--no-entry-points"]) == 0
    return json.loads(capsys.readouterr().out)


def games_of(document: dict) -> list:
    """(round, black, white, result, handicap) of each game."""
    return [(g["round"], g["black"], g["white"], g["result"], g.get("handicap", 0))
            for g in document["games"]]  # fmt: skip


def without_colours(games: list) -> list:
    """(round, the two players, the winner or the result, handicap): a game as an h9
    without colours holds it (Veterans.h9 writes none: its earlier row is "black")."""
    winner = {"B+": 1, "W+": 2}
    return [(r, frozenset((b, w)), (r, b, w)[winner[res]] if res in winner else res, h)
            for r, b, w, res, h in games]  # fmt: skip


@pytest.mark.parametrize("stem", PAIRS)
def test_a_tou_and_the_h9_of_one_session_convert_to_the_same_facts(capsys, stem):
    tou_doc = convert(capsys, shared_path(*FFG, f"{stem}.tou"))
    h9_doc = convert(capsys, shared_path(*FFG, f"{stem}.h9"))
    keep = ("name", "rank", "club")
    assert [{k: p.get(k) for k in keep} for p in tou_doc["players"]] == [
        {k: p.get(k) for k in keep} for p in h9_doc["players"]
    ]
    assert tou_doc["rounds"] == h9_doc["rounds"]
    colours = [g.get("colours_known", True) for g in h9_doc["games"]]
    if all(colours):
        assert games_of(tou_doc) == games_of(h9_doc)
    else:  # Veterans.h9 has no colours; its .tou has: same games, the h9's without them
        assert stem == "Veterans" and not any(colours)
        assert without_colours(games_of(tou_doc)) == without_colours(games_of(h9_doc))
    assert tou_doc["byes"] == h9_doc["byes"] and tou_doc["absences"] == h9_doc["absences"]


def test_toutest_keeps_by_default_marks_unknown_results_and_licences(host):
    read = host.read([shared_path(*FFG, "TouTest.tou")])
    t = read.tournament
    # 4+!w0 / 1-!b0: won by default in round 2; 3?/w0 / 2?/b0: result unknown
    assert sorted((g.round, g.by_default, g.result.value) for g in t.games) == [
        (1, False, "B+"), (1, False, "W+"), (2, False, "?"), (2, True, "W+")]  # fmt: skip
    assert [p.ids.get("ffg", "") for p in t.players] == ["9643011", "", "7902000", ""]
    assert (t.name, t.date, t.rounds, t.size) == ("TouTest", "2021-07-04", 5, 19)
    assert t.info == {"PC": ",Toulouse", "DT": "2021-07-04", "KM": "7.5", "TM": "82"}
    assert t.settings == {}  # nothing the file does not say
    assert any("no placement criteria nor system" in w for w in read.warnings)


def test_juvisy_reads_handicaps_and_half_point_absences(host):
    t = host.read([shared_path(*FFG, "Tournoi de Juvisy.tou")]).tournament
    assert sorted({g.handicap for g in t.games}) == [0, 1, 2, 3, 4, 7, 8, 9]
    assert sorted(t.absences) == [(1, 13), (2, 1), (3, 1), (4, 1)]


# Row 2 has the bye in round 1; rows 1 and 3 play with a handicap in round 1 (3.49's
# form, no "/") and by default in round 2 (3.51's form); row 2 is absent in round 2 (½).
SMALL = """;name=Small
;date=31/12/2024
;komi=0.5
;Num Nom Prenom               Niv Licence Club
   1 Dupont Jean               1D 1234567 75Pa    3+w2    3+!b0
     Durand Marie              5K         69Ly   0+      0=
   3 Ng Ba                    12K         ALBQ    1-b2    1-!w0
"""


def test_a_small_file_in_both_layouts_reads_every_part():
    t, notes = tou_file.interpret(SMALL, "s.tou")
    assert [(p.name, p.rank, p.club) for p in t.players] == [
        ("Dupont Jean", 0, "75Pa"),
        ("Durand Marie", -5, "69Ly"),
        ("Ng Ba", -12, "ALBQ"),
    ]
    g1, g2 = t.games
    assert (g1.round, g1.black, g1.white, g1.handicap, g1.by_default) == (1, 2, 0, 2, False)
    assert g1.result is Result.WHITE_WINS
    assert (g2.round, g2.black, g2.white, g2.by_default, g2.result) == (
        2, 0, 2, True, Result.BLACK_WINS)  # fmt: skip
    assert t.byes == {(1, 1)} and t.absences == {(2, 1)}
    assert (t.date, t.info["KM"]) == ("2024-12-31", "0.5")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("   1 Dupont Jean               1D 1234567 75Pa    2+w0", "not another row"),
        ("   1 Dupont Jean               XX 1234567 75Pa    0-", "no rank"),
        ("   1 Dupont Jean               1D 1234567 75Pa    0- 2x", "not a round token"),
        ("   1 Dupont", "fixed columns"),
    ],
)
def test_what_a_tou_cannot_say_is_refused_naming_the_line(row, message):
    text = ";Num Nom Prenom               Niv Licence Club\n" + row + "\n"
    with pytest.raises(InputError, match=message) as error:
        tou_file.interpret(text, "x.tou")
    assert "line 2" in str(error.value)


def test_tou_files_and_the_column_line_are_claimed(tmp_path):
    assert tou.claims(tmp_path / "a.tou", b"")
    assert tou.claims(tmp_path / "stdin", SMALL.encode())
    assert not tou.claims(tmp_path / "a.h9", b"; EV[x]\n; Pl Name Rk Co Club\n")


def test_iso_8859_15_is_read(host, tmp_path):
    path = tmp_path / "e.tou"
    path.write_bytes(SMALL.replace("Durand Marie", "Durand Mélie").encode("iso-8859-15"))
    assert host.read([path]).tournament.players[1].name == "Durand Mélie"


def test_a_file_above_max_bytes_is_refused_naming_the_option(tmp_path):
    path = tmp_path / "big.tou"
    path.write_text(SMALL)
    with pytest.raises(InputError, match=r"\[plugin.builtin.tou\] max_bytes"):
        tou_file.read([path], {"max_bytes": 100})


def test_opengothas_unknown_club_reads_as_unknown_as_in_h9():
    text = SMALL.replace("ALBQ", "xxxx")
    t, _ = tou_file.interpret(text, "s.tou")
    assert t.players[2].club == ""


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_altered_file_reads_or_is_refused_with_a_reason(data):
    """Characters replaced, inserted or removed anywhere: an InputError naming the
    problem, or a tournament; never another exception."""
    text = SMALL
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        new = data.draw(st.sampled_from(["", " ", "\n", "?", "!", "/", "0", "9", "+", "x", "é"]))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + new + text[at + cut :]
    with contextlib.suppress(InputError):
        tou_file.interpret(text, "f.tou")


def pairgoth_row(num: str, name: str, rank: str, licence: str, club: str, results) -> str:
    """A row as pairgoth's FFG export writes it (``StandingsHandler.exportToFFGFormat``):
    num 4, name 24, rank 3, licence 7, club 4, each result padded to 7, joined by spaces."""
    tokens = " ".join(r.replace("0=", "0=   ").rjust(7) for r in results)
    return f"{num:>4} {name:<24} {rank:>3} {licence:>7} {club:<4} {tokens}"


def test_pairgoths_own_tou_layout_reads():
    text = "\n".join([
        ";name=cup", ";date=06/07/2024", ";vill=Istanbul", ";comm=4th Cup",
        ";prog=Pairgoth 0.20", ";time=45", ";ta=57", ";size=19", ";komi=6.5",
        "; Generated by Pairgoth 0.20", "; Canadian byo-yomi", ";",
        ";Num Nom Prenom               Niv Licence Club",
        pairgoth_row("1", "KOSE Dogac", "3D", "", "Ist", ["2+/b0", "0+"]),
        pairgoth_row("2", "OREN Ulas", "5D", "1234567", "Ist", ["1-/w0", "0="]),
    ]) + "\n"  # fmt: skip
    t, _ = tou_file.interpret(text, "p.tou")
    assert [(p.name, p.rank, p.club) for p in t.players] == [
        ("KOSE Dogac", 2, "Ist"),
        ("OREN Ulas", 4, "Ist"),
    ]
    assert [(g.round, g.black, g.white, g.result) for g in t.games] == [
        (1, 0, 1, Result.BLACK_WINS)
    ]
    assert t.byes == {(2, 0)} and t.absences == {(2, 1)} and t.name == "4th Cup"
