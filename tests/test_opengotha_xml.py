"""OpenGotha XML reader: real files, every result kind, the file's own settings, safety."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import shared_path

from sodos_plugin import Host, InputError, Result
from sodos_plugin.cli import main
from sodos_plugin.readers import opengotha_xml

GO = ("conformance", "go")

PLAYER = (
    '<Player name="{name}" firstName="{first}" rank="{rank}" rating="1500" club="Cl" '
    'country="FR" participating="{part}" smmsCorrection="{corr}" registeringStatus="FIN"/>'
)


def xml_file(
    tmp_path: Path,
    games: str,
    *,
    extra: str = "",
    general: str = "",
    criteria=("MMS", "SOSM", "SOSOSM"),
    players=None,
    absent_nbw: int = 0,
) -> Path:
    players = players or [
        ("Alpha", "Ann", "2D", "111", 0),
        ("Beta", "Bob", "1K", "111", 1),
        ("Gamma", "Guy", "5K", "101", 0),
    ]
    body = "\n".join(
        PLAYER.format(name=n, first=f, rank=r, part=p, corr=c) for n, f, r, p, c in players
    )
    crits = "\n".join(
        f'<PlacementCriterion name="{c}" number="{i}"/>' for i, c in enumerate(criteria, 1)
    )
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<Tournament>
<Players>
{body}
</Players>
<Games>
{games}
</Games>
{extra}
<TournamentParameterSet>
<GeneralParameterSet name="T" numberOfRounds="3" genMMBar="3D" genMMFloor="20K" genMMZero="30K"
 genNBW2ValueBye="2" genMMS2ValueBye="2" genNBW2ValueAbsent="{absent_nbw}" genMMS2ValueAbsent="1"
 genRoundDownNBWMMS="true" {general}/>
<HandicapParameterSet hdCorrection="2"/>
<PlacementParameterSet><PlacementCriteria>
{crits}
<PlacementCriterion name="NULL" number="9"/>
</PlacementCriteria></PlacementParameterSet>
</TournamentParameterSet>
</Tournament>
"""
    path = tmp_path / "t.xml"
    path.write_text(text, encoding="utf-8")
    return path


def game(r, black, white, result, handicap=0, table=1):
    return (
        f'<Game roundNumber="{r}" tableNumber="{table}" blackPlayer="{black}" '
        f'whitePlayer="{white}" result="{result}" handicap="{handicap}" knownColor="true"/>'
    )


def test_juvisy_players_games_and_settings():
    t = opengotha_xml.read_path(shared_path(*GO, "opengotha_Tournoi_de_Juvisy.xml"))
    assert (t.name, t.rounds, len(t.players), len(t.games)) == ("Tournoi de Juvisy", 4, 19, 36)
    assert dict(t.settings) == {
        "system": "mcmahon",
        "criteria": ["MMS", "SOSM", "SOSOSM"],
        "mcmahon": {"bar": "4d", "floor": "20k", "zero": "30k"},
        "scoring": {
            "bye": "1",
            "bye_mms": "1",
            "absent_nbw": "0",
            "absent_mms": "1/2",
            "round_down": True,
        },
        "unplayed": {"virtual_opponent": "egf"},
        "handicap": {"reduction": 1},
    }
    daguenet = t.player_index("Daguenet Mathieu")
    vargas = t.player_index("Vargas Olga")
    assert t.absences == {(2, daguenet), (3, daguenet), (4, daguenet), (1, vargas)}
    nemo = t.players[t.player_index("Nemo André")]  # key NEMOANDRÉ in the games
    assert (nemo.rank, nemo.club, nemo.country, nemo.rating) == (-2, "78Ve", "FR", 1853)
    rebelo = t.player_index("Rebelo Manuela")
    r4 = next(g for g in t.games if g.round == 4 and rebelo in (g.black, g.white))
    assert (r4.black, r4.handicap, r4.result) == (rebelo, 9, Result.WHITE_WINS)


def test_chinois_both_win_unknown_and_unpaired_rounds():
    t = opengotha_xml.read_path(shared_path(*GO, "opengotha_TournoiChinois.xml"))
    results = sorted(g.result.value for g in t.games)
    assert results.count("++") == 1 and results.count("?") == 1
    assert t.rounds == 5 and not t.absences and not t.byes  # rounds 2-5: not assigned
    assert t.players[t.player_index("高 传德")].rank == 0


def test_forfeits_byes_corrections_and_doubled_values(tmp_path):
    games = "\n".join(
        [
            game(1, "ALPHAANN", "BETABOB", "RESULT_WHITEWINS_BYDEF"),
            game(2, "BETABOB", "ALPHAANN", "RESULT_EQUAL", 1),
            game(3, "GAMMAGUY", "ALPHAANN", "RESULT_BOTHLOSE_BYDEF"),
        ]
    )
    extra = '<ByePlayers><ByePlayer roundNumber="1" player="GAMMAGUY"/></ByePlayers>'
    path = xml_file(
        tmp_path,
        games,
        extra=extra,
        general='genCountNotPlayedGamesAsHalfPoint="true"',
        absent_nbw=1,
    )
    t = opengotha_xml.read_path(path)
    assert [(g.result, g.by_default) for g in t.games] == [
        (Result.WHITE_WINS, True),
        (Result.JIGO, False),
        (Result.BOTH_LOSE, True),
    ]
    gamma = t.player_index("Gamma Guy")
    assert t.byes == {(1, gamma)}
    assert t.absences == {(2, gamma)}  # participating "101" and no game in round 2
    assert t.settings["unplayed"] == {"virtual_opponent": "half-point"}
    assert t.settings["scoring"]["absent_nbw"] == "1/2"  # doubled value 1 = ½ point
    assert t.players[t.player_index("Beta Bob")].smms_correction == 1


def test_participating_zero_is_an_absence_unless_paired(tmp_path):
    path = xml_file(tmp_path, game(1, "ALPHAANN", "BETABOB", "RESULT_BLACKWINS"))
    t = opengotha_xml.read_path(path)
    gamma = t.player_index("Gamma Guy")
    assert t.absences == {(2, gamma)}  # participating="101"
    host = Host(config_file=False, entry_points=False)
    standings = host.standings(t)
    # Gamma 5K: start 25, round 2 absent ½ floored to 0; Beta 1K + correction 1 = 30.
    assert standings.value("MMS", gamma) == 25
    assert standings.value("MMS", t.player_index("Beta Bob")) == 30
    # Alpha 2D (below the 3D bar): start 31, plus the win.
    assert standings.value("MMS", t.player_index("Alpha Ann")) == 31 + 1


@pytest.mark.parametrize(
    "games, warning",
    [
        (
            game(1, "ALPHAANN", "NOBODY", "RESULT_BLACKWINS"),
            "round 1 table 1 ALPHAANN - NOBODY: no player has this key: the game is skipped",
        ),
        (
            game(1, "ALPHAANN", "BETABOB", "RESULT_WIN"),
            "result 'RESULT_WIN' is not an OpenGotha result",
        ),
        (
            game(1, "ALPHAANN", "BETABOB", "RESULT_BLACKWINS")
            + game(1, "GAMMAGUY", "ALPHAANN", "RESULT_BLACKWINS", table=2),
            "round 1: Alpha Ann has 2 games: table 1 vs Beta Bob (Black), table 2 vs "
            "Gamma Guy (White)",
        ),
    ],
)
def test_odd_games_are_read_as_opengotha_reads_them_and_named(tmp_path, games, warning):
    path = xml_file(tmp_path, games)
    result = Host(config_file=False, entry_points=False).read([path])
    assert any(warning in w and str(path) in w for w in result.warnings), result.warnings


def test_a_game_after_the_last_round_raises_the_number_of_rounds(tmp_path):
    t = opengotha_xml.read_path(
        xml_file(tmp_path, game(7, "ALPHAANN", "BETABOB", "RESULT_BLACKWINS"))
    )
    assert t.rounds == 7 and t.games[0].round == 7


def test_bad_values_are_named(tmp_path):
    path = xml_file(tmp_path, game(1, "ALPHAANN", "BETABOB", "RESULT_BLACKWINS", 12))
    with pytest.raises(InputError, match="expected 0..9, got 12") as caught:
        opengotha_xml.read_path(path)
    assert str(path) in str(caught.value) and "<Game" in str(caught.value)


def test_unknown_criterion_is_null_with_a_warning_and_bad_rating_an_error(tmp_path):
    path = xml_file(tmp_path, "", criteria=("MMS", "FOO"))
    t, warnings = opengotha_xml.read_file(path)
    assert t.settings["criteria"] == ["MMS"]
    assert any("'FOO' is not an OpenGotha criterion name" in w for w in warnings)
    bad = [("Alpha", "Ann", "2D", "111", "x")]
    with pytest.raises(InputError, match=r"<Player name='Alpha' firstName='Ann'> smmsCorrection"):
        opengotha_xml.read_path(xml_file(tmp_path, "", players=bad))


def test_entity_expansion_is_refused(tmp_path):
    path = tmp_path / "bomb.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE Tournament [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<Tournament name="&b;"/>'
    )
    with pytest.raises(InputError, match="refused unsafe XML"):
        opengotha_xml.read_path(path)


def test_size_limit_and_malformed_xml(tmp_path):
    path = xml_file(tmp_path, "")
    with pytest.raises(InputError, match="above the limit of 100"):
        opengotha_xml.read_path(path, max_bytes=100)
    host = Host({"plugin": {"builtin.opengotha_xml": {"max_bytes": 100}}}, config_file=False)
    with pytest.raises(InputError, match="above the limit"):
        host.read([path])
    broken = tmp_path / "broken.xml"
    broken.write_text("<Tournament>\n<Players>\n</Tournament>")
    with pytest.raises(InputError, match=r"not well-formed XML.*line 3"):
        opengotha_xml.read_path(broken)


def test_cli_json_shape_on_juvisy(capsys):
    path = shared_path(*GO, "opengotha_Tournoi_de_Juvisy.xml")
    assert main(["standings", str(path), "--format", "json", "--no-entry-points"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tournament"] == {
        "name": "Tournoi de Juvisy",
        "rounds": 4,
        "scheduled_rounds": 4,
        "round_note": "",
        "system": "mcmahon",
    }
    assert data["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    first = data["standings"][0]
    assert first == {
        "place": 1,
        "tied": False,
        "player": {"name": "Minieri Davide", "rank": "3d", "country": "FR", "club": "75Ju"},
        "values": {"MMS": 36, "SOSM": 128, "SOSOSM": 503},
    }
    assert isinstance(data["warnings"], list)


def test_half_point_file_gives_halves_as_json_numbers(tmp_path, capsys):
    games = game(1, "ALPHAANN", "BETABOB", "RESULT_WHITEWINS_BYDEF")
    path = xml_file(tmp_path, games, general='genCountNotPlayedGamesAsHalfPoint="true"')
    command = ["standings", str(path), "--format", "json", "--round", "3", "--no-entry-points"]
    assert main(command) == 0
    data = json.loads(capsys.readouterr().out)
    sos = {row["player"]["name"]: row["values"]["SOSM"] for row in data["standings"]}
    # Alpha's only game was a forfeit: as an opponent Beta counts ½ per round not played
    # (the forfeit and two rounds): start 30 (1K, correction +1) + 3/2 = 31.5; Alpha's
    # own two rounds without a game add his start MMS 31 each.
    assert sos["Alpha Ann"] == 31.5 + 31 + 31
    assert Fraction(sos["Alpha Ann"]).denominator == 2
