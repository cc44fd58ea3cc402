"""Ids travel and unknown colours stay unknown in the table, CSV and HTML writers
(docs/rules.md §12): a game whose colours the source does not give shows none, and the
players' identifiers are columns, one per scheme present."""

from __future__ import annotations

import csv
import io
import json

from conftest import builtin_host

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.engine import explain

HOST = builtin_host()


def event() -> Tournament:
    players = (
        Player("Ann", 2, ids={"egd": "19713452", "ffg": "1500104"}),
        Player("Bob", 0, ids={"aga": "14722", "kgs": "bob1"}),
        Player("Cid", -3),
    )
    games = (
        Game(1, 0, 1, Result.BLACK_WINS, 0, False, False),  # no colour given
        Game(2, 2, 0, Result.WHITE_WINS, 2),  # Cid Black, handicap 2
        Game(3, 1, 2, Result.JIGO, 0, True, False),  # by default, no colour
    )
    return Tournament("Ids cup", 3, players, games)


def rendered(fmt: str) -> str:
    return HOST.render(HOST.standings(event(), system="swiss", criteria=["NBW", "SOSW"]), fmt)


def test_table_shows_no_colour_the_input_did_not_give():
    lines = rendered("table").splitlines()
    assert lines[1].split() == ["Num", "Pl", "Name", "Rank", "R1", "R2", "R3", "NBW", "SOSW"]
    cells = {line.split()[2]: line.split()[4:7] for line in lines[2:5]}
    assert cells == {
        "Ann": ["2+", "3+/w2", "–"],  # round 1: no colour given; round 2: White, h2
        "Bob": ["1-", "–", "3=!"],  # round 3: jigo by default, no colour
        "Cid": ["–", "1-/b2", "2=!"],
    }


def test_explain_col_is_empty_for_a_game_without_colours():
    standings = HOST.standings(event(), system="swiss", criteria=["NBW"])
    e = explain.explain_player(standings, "Ann")
    assert [g.colour for g in e.games] == ["", "W", ""]  # round 3: no game
    assert explain.as_dict(e)["games"][0]["colour"] is None
    round_1 = next(line for line in explain.render(e).splitlines() if line.startswith("   1  "))
    assert " B " not in round_1 and " W " not in round_1


def test_csv_has_a_column_per_identifier_scheme_present():
    rows = list(csv.reader(io.StringIO(rendered("csv"))))
    assert rows[0] == ["place", "tied", "name", "rank", "country", "club", "egd_pin",
                       "ffg_licence", "aga_id", "kgs", "NBW", "SOSW"]  # fmt: skip
    by_name = {row[2]: row[6:10] for row in rows[1:]}
    assert by_name == {
        "Ann": ["19713452", "1500104", "", ""],
        "Bob": ["", "", "14722", "bob1"],
        "Cid": ["", "", "", ""],
    }
    plain = Tournament("t", 1, (Player("A", 0), Player("B", 0)), (Game(1, 0, 1, Result.JIGO),))
    text = HOST.render(HOST.standings(plain, system="swiss", criteria=["NBW"]), "csv")
    assert text.splitlines()[0] == "place,tied,name,rank,country,club,NBW"  # no ids: no column


def test_html_shows_the_identifiers_and_no_invented_colour():
    page = rendered("html")
    assert '<th class="id">EGD PIN</th><th class="id">FFG licence</th>' in page
    assert '<td class="id">19713452</td><td class="id">1500104</td>' in page
    assert "(colour not given)" in page and 'title="Black against Cid' not in page
    assert "White against Cid, handicap 2" in page


def test_json_answers_carry_ids_and_no_invented_colour():
    """Standings and explain documents: ``ids`` only for players the source gives some,
    a colour ``null`` where the source gives none."""
    standings = json.loads(rendered("json"))
    shown = {row["player"]["name"]: row["player"].get("ids") for row in standings["standings"]}
    assert shown == {
        "Ann": {"egd": "19713452", "ffg": "1500104"},
        "Bob": {"aga": "14722", "kgs": "bob1"},
        "Cid": None,
    }
    result = HOST.standings(event(), system="swiss", criteria=["NBW", "SOSW"])
    answer = explain.as_dict(explain.explain_player(result, 0))
    assert answer["player"]["ids"] == {"egd": "19713452", "ffg": "1500104"}
    assert [g["colour"] for g in answer["games"]] == [None, "W", None]
