"""EGD h9 reader and writer: format details, recomputation, errors and the XML → h9 round trip."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import builtin_host, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin import InputError, Result
from sodos_plugin.readers import h9, opengotha_file

GO = ("conformance", "go")

# Alice (row 1) beats Bob (row 3) with White in round 1 and draws Carol (row 2) with
# Black in round 2; Carol has the bye in round 1; Bob is not paired in round 2.
# NBW: Alice 1½, Carol 1½, Bob 0. SOS (Swiss): Alice 0 + 1½, Carol 0 + 1½, Bob 1½ + 0.
# The printed SOS of Bob is wrong on purpose (9): printed values are never echoed.
SMALL = """; EV[Small Cup]
; HA[h2]
; Pl Name                  Rk Co Club  NBW SOS
   1 Alice Marie-Louise de la Fontaine-Longuenom  3d FR Par1  1½  1½   3+/w0  2=/b0  |12345678
     Carol Lée             5k DE Ber   1.5 1.5   0+     1=/w0  |23456789
   3 Bob Smith            10k GB Lon   1-/b0  0-  0  9
"""


def write(tmp_path: Path, data: bytes, name: str = "small.h9") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def standings(path: Path, **options):
    host = builtin_host()
    read = host.read([path])
    return host, read, host.standings(read.tournament, **options)


def values(result, criterion):
    t = result.tournament
    return {p.name: result.value(criterion, i) for i, p in enumerate(t.players)}


@pytest.mark.parametrize(
    "encoding",
    ["utf-8", "iso-8859-15"],
)
def test_small_file_is_recomputed_from_round_tokens(tmp_path, encoding):
    data = SMALL.encode("utf-8")
    if encoding != "utf-8":  # ½ is byte 0xBD, é is 0xE9
        data = data.replace("½".encode(), b"\xbd").replace("é".encode(), b"\xe9")
    path = write(tmp_path, data)
    _, read, result = standings(path)
    t = read.tournament
    alice = "Alice Marie-Louise de la Fontaine-Longuenom"
    assert [p.name for p in t.players] == [alice, "Carol Lée", "Bob Smith"]
    assert [p.rank for p in t.players] == [2, -5, -10]
    assert t.settings["system"] == "swiss" and t.settings["criteria"] == ["NBW", "SOSW"]
    assert t.settings["handicap"] == {"reduction": 2}
    assert t.byes == {(1, 1)} and not t.absences
    half = Fraction(3, 2)
    assert values(result, "NBW") == {alice: half, "Carol Lée": half, "Bob Smith": 0}
    assert values(result, "SOSW") == {alice: half, "Carol Lée": half, "Bob Smith": half}
    _, parsed, _ = h9.read_path(path)
    assert [row.printed for row in parsed.rows] == [
        {"NBW": half, "SOS": half},
        {"NBW": half, "SOS": half},
        {"NBW": 0, "SOS": 9},
    ]
    games = sorted((g.round, g.black, g.white, g.result) for g in t.games)
    assert games == [(1, 2, 0, Result.WHITE_WINS), (2, 0, 1, Result.JIGO)]


def test_columns_run_together_and_unknown_columns_are_noted():
    assert h9.split_columns("MMS  SOSSOSOS") == ["MMS", "SOS", "SOSOS"]
    # OpenGotha's short names, Rank and Rating (cut to "Ratin") among them
    assert h9.split_columns("NBW  SOSSODOS Rank  U20") == ["NBW", "SOS", "SODOS", "RANK", "?U20"]
    assert h9.split_columns("  CATRatin RankSOS-1 CUSSSODOS") == [
        "CAT", "RATIN", "RANK", "SOS-1", "CUSS", "SODOS"
    ]  # fmt: skip
    assert h9.split_columns("SOSTS") == ["SOSTS"]  # not SOS + "TS"
    assert h9.split_columns("SODOSW SOSM-1") == ["SODOSW", "SOSM-1"]  # the other form, whole
    # Round labels over the round tokens are not value columns (WAGC 2016, 2018).
    assert h9.split_columns("1st 2nd r3d 4th  score sos") == ["SCORE", "SOS"]
    assert h9.split_columns("score sos sosos  1   2   3") == ["SCORE", "SOS", "SOSOS"]
    # SOS/SOSOS overlap: a naive backtracking split is exponential on this word.
    word = "SOSOS" * 2000 + "X"
    assert h9.split_columns(word) == [f"?{word}"]


def test_round_tokens():
    assert h9.parse_round("11-/b5") == h9.RoundToken(11, "-", False, "b", 5)
    assert h9.parse_round("0=") == h9.RoundToken(0, "=")
    assert h9.parse_round("7+!w0") == h9.RoundToken(7, "+", True, "w", 0)
    assert h9.parse_round("12") is None and h9.parse_value("12") == 12
    assert h9.parse_value("-4") == -4 and h9.parse_value("½") == Fraction(1, 2)
    assert h9.parse_value("14.75") == Fraction(59, 4) and h9.parse_value("3¼") == Fraction(13, 4)


def test_mcmahon_start_scores_come_from_printed_mms():
    """Juvisy: printed MMS − points earned = OpenGotha's start MMS from rank and bar."""
    t, _, _ = h9.read_path(shared_path(*GO, "opengotha_Tournoi_de_Juvisy.h9"))
    xml = opengotha_file.read_path(shared_path(*GO, "opengotha_Tournoi_de_Juvisy.xml"))
    expected = {p.name: min(p.rank, 3) + 30 for p in xml.players}  # bar 4D, no floor hit
    assert {p.name: p.start_score for p in t.players} == expected
    daguenet = t.player_index("Daguenet Mathieu")  # 1 loss, 3 rounds "0=": ½ x 3 floored
    assert t.players[daguenet].start_score == 32
    assert {r for r, p in t.absences if p == daguenet} == {2, 3, 4}


@pytest.mark.parametrize(
    "row3, message",
    [
        ("   3 Bob Smith  10k GB Lon  0 0  1=/b0  0-", "result \\+ does not match"),
        ("   3 Bob Smith  10k GB Lon  0 0  2-/b0  0-", "whose round 1 token names row 2"),
        ("   3 Bob Smith  10k GB Lon  0 0  1-/b0  9-", "opponent 9 is not another row"),
        ("   3 Bob Smith  10k GB Lon  0 0  1-/w0  0-", "both players have colour 'w'"),
        ("   3 Bob Smith  10k GB Lon  0 0  1-/b3  0-", "handicap or by-default mark differs"),
        ("   3 Bob Smith  10k GB Lon  0 0  1-/b0", "1 round tokens, but line 4 has 2"),
        ("   3 Bob Smith  10k GB Lon  0 0  1-/b0  x7", "'x7' is neither a value"),
        ("   3 Bob Smith  GB Lon  0 0  1-/b0  0-", "no rank"),
        ("   3 Bob Smith  10k GB Lon  0  1-/b0  0-", "1 value columns for 2"),
        # digits other than 0-9 (str.isdigit and \\d accept them): never a place, a rank,
        # a value or a round, and never silently part of a name
        ("   ² Bob Smith  10k GB Lon  0 0  1-/b0  0-", "place '²' is not written with the digits"),
        ("   ٣ Bob Smith  10k GB Lon  0 0  1-/b0  0-", "place '٣' is not written with the digits"),
        ("   3 Bob Smith  ١٠k GB Lon  0 0  1-/b0  0-", "no rank"),
        ("   ２ Bob Smith  10k GB Lon  0 0  1-/b0  0-", "place '２' is not written with"),
        ("   3 Bob Smith  10k GB Lon  ٠ 0  1-/b0  0-", "'٠' is neither a value"),
        ("   3 Bob Smith  10k GB Lon  0 0  １-/b0  0-", "'１-/b0' is neither a value"),
    ],
)
def test_bad_rows_are_named(tmp_path, row3, message):
    lines = SMALL.splitlines()
    lines[5] = row3
    path = write(tmp_path, ("\n".join(lines) + "\n").encode())
    with pytest.raises(InputError, match=message) as caught:
        h9.read_path(path)
    assert str(path) in str(caught.value) and "line" in str(caught.value)


def test_missing_column_line_and_size_limit(tmp_path):
    path = write(tmp_path, b"; EV[x]\n 1 A B 3d FR C 1 2+/w0\n")
    with pytest.raises(InputError, match="before the column line"):
        h9.read_path(path)
    path = write(tmp_path, SMALL.encode())
    with pytest.raises(InputError, match="above the limit of 10"):
        h9.read_path(path, max_bytes=10)


def test_claims_h9_but_not_sgf():
    assert h9.claims(Path("x.txt"), SMALL.encode())
    assert not h9.claims(Path("x.sgf"), b"(;GM[1]EV[x])")
    assert not h9.claims(Path("x.txt"), b"; just a comment\n")


def round_trip(xml_name: str, tmp_path: Path):
    host = builtin_host()
    xml = host.read([shared_path(*GO, xml_name)]).tournament
    before = host.standings(xml)
    out = io.StringIO()
    host.write(before, "h9", out)
    path = write(tmp_path, out.getvalue().encode("utf-8"), "out.h9")
    after = host.standings(host.read([path]).tournament)
    return before, after, out.getvalue()


def comparable(result):
    from sodos_plugin.writers.h9_writer import h9_name

    rows = []
    for row in result.as_dict()["standings"]:
        player = dict(row["player"])
        player["country"] = player["country"] or "XX"
        player["club"] = player["club"] or "xxxx"
        egd = player.pop("ids", {}).get("egd")  # h9 holds the EGD PIN, no other id
        if egd:
            player["egd"] = egd
        values = {h9_name(k): v for k, v in row["values"].items()}
        rows.append((row["place"], row["tied"], player, values))
    return rows


@pytest.mark.parametrize(
    "xml_name", ["opengotha_Tournoi_de_Juvisy.xml", "opengotha_TournoiChinois.xml"]
)
def test_xml_to_h9_to_standings_round_trip(xml_name, tmp_path):
    before, after, text = round_trip(xml_name, tmp_path)
    assert text.startswith("; CL[A]\n; EV[") and "; HA[h1]" in text
    assert comparable(after) == comparable(before)
    assert after.settings.system == before.settings.system == "mcmahon"
    assert after.criteria == before.criteria == ("MMS", "SOSM", "SOSOSM")  # one label each


def test_writer_keeps_forfeits_byes_and_absences(host, tmp_path):
    from builders import W, tournament

    t = tournament(
        [("A", "1d"), ("B", "1k"), ("C", "2k")],
        2,
        [(1, "A", "B", W, 2, True), (2, "C", "B", Result.JIGO)],
        byes=[(1, "C")],
        absences=[(2, "A")],
    )
    before = host.standings(t, criteria=["MMS", "SOSM", "SODOSM"])
    out = io.StringIO()
    host.write(before, "h9", out)
    text = out.getvalue()
    assert "!b2" in text and "!w2" in text  # forfeit with handicap kept
    assert "0+" in text and "0=" in text  # bye worth 1, absence worth ½ in MMS
    back = host.standings(host.read([write(tmp_path, text.encode(), "t.h9")]).tournament)
    assert comparable(back) == comparable(before)
    forfeit = next(g for g in back.tournament.games if g.round == 1)
    assert forfeit.by_default and forfeit.handicap == 2


@st.composite
def random_tournaments(draw):
    from sodos_plugin import Game, Player, Tournament

    n = draw(st.integers(2, 6))
    rounds = draw(st.integers(1, 3))
    ranks = draw(st.lists(st.integers(-30, 8), min_size=n, max_size=n))
    players = tuple(Player(f"P{i}", rank=ranks[i], club="C" if i % 2 else "") for i in range(n))
    games, byes, absences = [], set(), set()
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(n)))
        paired = draw(st.integers(0, n // 2))
        for k in range(paired):
            b, w = order[2 * k], order[2 * k + 1]
            result = draw(st.sampled_from(list(Result)))
            games.append(Game(r, b, w, result, draw(st.integers(0, 3)), draw(st.booleans())))
        for p in order[2 * paired :]:
            kind = draw(st.sampled_from(["bye", "absent", "none"]))
            (byes if kind == "bye" else absences if kind == "absent" else set()).add((r, p))
    return Tournament("random", rounds, players, tuple(games), frozenset(byes), frozenset(absences))


@settings(max_examples=40, deadline=None)
@given(
    t=random_tournaments(),
    system=st.sampled_from(["swiss", "mcmahon"]),
    convention=st.sampled_from(["egf", "half-point"]),
)
def test_writer_reader_round_trip_on_random_tournaments(tmp_path_factory, t, system, convention):
    """Any result kind, forfeits (visible with half-point), byes, absences, handicaps."""
    config = {"unplayed": {"virtual_opponent": convention}}
    host = builtin_host(config)
    criteria = ["MMS", "SOS", "SOSOS", "SODOS"] if system == "mcmahon" else None
    before = host.standings(t, system=system, criteria=criteria)
    out = io.StringIO()
    host.write(before, "h9", out)
    path = tmp_path_factory.mktemp("rt") / "t.h9"
    path.write_text(out.getvalue(), encoding="utf-8")
    after = host.standings(host.read([path]).tournament)
    assert after.settings.system == system
    assert comparable(after) == comparable(before)


def test_writer_refuses_players_without_rank(host):
    from builders import tournament

    t = tournament(["A", "B"], 1, [(1, "A", "B", Result.BLACK_WINS)])
    standings = host.standings(t, system="swiss")
    with pytest.raises(InputError, match="h9 needs every player's rank; unknown for A, B"):
        host.write(standings, "h9", io.StringIO())


def test_cli_writes_h9_that_reads_back(tmp_path):
    from sodos_plugin.cli import main

    xml = shared_path(*GO, "opengotha_Tournoi_de_Juvisy.xml")
    out = tmp_path / "juvisy.h9"
    assert main(["standings", str(xml), "--format", "h9", "--output", str(out)]) == 0
    text = out.read_text("utf-8")
    assert "; Pl Name" in text and "   1 Minieri Davide" in text
    assert "1-/b0  0=     0=     0=" in text  # Daguenet: lost, then absent (½ each)
    t, parsed, _ = h9.read_path(out)
    assert [row.printed["SOS"] for row in parsed.rows][:3] == [128, 132, 129]
    assert t.settings["handicap"] == {"reduction": 1}


# -- ids, colours, countries, criteria (docs/rules.md §12) ------------------------------


def colours_file(row1_tokens: str, row2_tokens: str, columns: str = "NBW") -> str:
    return (
        f"; Pl Name Rk Co Club {columns}\n"
        f"   1 Ann 3d XX xxxx 1 {row1_tokens}  |19713452\n"
        f"   2 Bob 2d FR _0   0 {row2_tokens}\n"
    )


def test_pin_colours_and_unknown_marks_are_read():
    t, notes = h9.interpret(h9.scan(colours_file("2+", "1-"), "t.h9"))
    ann, bob = t.players
    assert (dict(ann.ids), dict(bob.ids)) == ({"egd": "19713452"}, {})
    assert (ann.country, ann.club, bob.country, bob.club) == ("", "", "FR", "0")  # XX, xxxx
    (game,) = t.games
    assert not game.colours_known and (game.black, game.white) == (0, 1)  # sides only
    assert game.result == Result.BLACK_WINS  # the first side, Ann, won


@pytest.mark.parametrize(
    ("tokens", "known", "black"),
    [
        (("2+", "1-"), False, 0),
        (("2+/?0", "1-/?0"), False, 0),  # OpenGotha's unknown colour
        (("2+!", "1-!"), False, 0),  # by default, no colour
        (("2+/w", "1-"), True, 1),  # one side's colour gives both
        (("2+", "1-/w0"), True, 0),
        (("2+/b0", "1-/w0"), True, 0),
    ],
)
def test_a_game_has_colours_when_a_token_gives_one(tokens, known, black):
    t, _ = h9.interpret(h9.scan(colours_file(*tokens), "t.h9"))
    assert (t.games[0].colours_known, t.games[0].black) == (known, black), tokens


def test_a_handicap_game_without_colours_is_refused():
    with pytest.raises(InputError, match="a handicap game needs colours"):
        h9.interpret(h9.scan(colours_file("2+/?3", "1-/?3"), "t.h9"))


def test_rank_and_rating_columns_are_criteria_and_ratings_a_cat_column_says_what_is_missing():
    text = (
        "; Pl Name Rk Co Club  CATRatin Rank  NBW  SOS\n"
        "   1 Ann 3d FR Par    1 2100    2    1    0   2+/b0\n"
        "   2 Bob 2d FR Par    1 2050    1    0    1   1-/w0\n"
    )
    t, notes = h9.interpret(h9.scan(text, "t.h9"))
    assert t.settings["criteria"] == ["CAT", "RATING", "RANK", "NBW", "SOSW"]
    assert [p.rating for p in t.players] == [2100, 2050]
    assert notes == ["t.h9: CAT: h9 does not give the category limits: every player is in "
                     "category 1 (set categories.lower_limits)"]  # fmt: skip


@pytest.mark.parametrize(
    ("columns", "criteria"),
    [
        ("MMS SOSSOSOS", ["MMS", "SOSM", "SOSOSM"]),  # a McMahon: the M form
        ("NBW SOSSOSOS", ["NBW", "SOSW", "SOSOSW"]),  # a Swiss: the W form
        ("MMS SOS-1 CUSS SODOMS", ["MMS", "SOSM-1", "CUSSM", "SODOSM"]),
        ("MMS SOSM SODOSW", ["MMS", "SOSM", "SODOSW"]),  # the other form, written whole
    ],
)
def test_columns_name_the_criteria_of_the_event(columns, criteria):
    text = f"; Pl Name Rk Co Club {columns}\n   1 Ann 3d FR Par" + " 1" * len(criteria) + " 0-\n"
    t, _ = h9.interpret(h9.scan(text, "t.h9"))
    assert t.settings["criteria"] == criteria


def test_the_xml_and_the_h9_of_one_event_have_one_label_per_criterion(host):
    """Juvisy's XML says SOSM, SOSOSM; OpenGotha's h9 of it SOS, SOSOS: read as the same."""
    labels = [
        host.standings(host.read([shared_path(*GO, f"opengotha_{stem}")]).tournament).criteria
        for stem in ("Tournoi_de_Juvisy.xml", "Tournoi_de_Juvisy.h9")
    ]
    assert labels[0] == labels[1] == ("MMS", "SOSM", "SOSOSM")


# OpenGotha's own h9 files (issue 30): what its exports hold that other writers do not.


def test_a_criterion_the_column_line_names_twice_ranks_once_with_a_note():
    text = (
        "; Pl Name Rk Co Club  NBW  NBW\n"
        "   1 Ann 3d FR Par    1    1 0 0   2+\n"
        "   2 Bob 2d FR Par    0    0 0 0   1-\n"
    )
    t, notes = h9.interpret(h9.scan(text, "t.h9"))
    assert t.settings["criteria"] == ["NBW"]
    assert notes == ["t.h9: the column line names NBW twice: ranked once, at its first place"]
    assert [g.result for g in t.games] == [Result.BLACK_WINS]


def test_veterans_from_opengotha_3_42_reads_with_nbw_once():
    path = shared_path("tdformats", "ffg", "Veterans.h9")
    host, read, result = standings(path)
    assert result.criteria == ("NBW",)
    assert any("names NBW twice" in w for w in read.warnings)
    assert len(read.tournament.players) == 14 and len(read.tournament.games) == 35
    assert [result.value("NBW", i) for i in range(3)] == [5, 4, 4]


# Ann and Bob draw; OpenGotha prints their MMS 20½ as "20?" and their SOS 20½ as "20?".
MARKED = (
    "; Pl Name Rk Co Club  MMS  SOS\n"
    "   1 Ann 3d FR Par   20?  20? 0  2=/w0  3?/b0\n"
    "     Bob 3d FR Par   20?  20? 0  1=/b0  0=\n"
    "   3 Cid 5k FR Par    18   20 0  0-     1?/w0\n"
)


def test_a_value_written_with_a_question_mark_is_read_and_its_mark_said():
    parsed = h9.scan(MARKED, "t.h9")
    assert [row.printed["MMS"] for row in parsed.rows] == [Fraction(41, 2), Fraction(41, 2), 18]
    assert [row.marked for row in parsed.rows] == [{"MMS", "SOS"}, {"MMS", "SOS"}, set()]
    t, notes = h9.interpret(parsed)
    # start scores: printed MMS 20½ less the ½ of the jigo (and Bob's ½ of his 0=, floored)
    assert [p.start_score for p in t.players] == [20, 20, 18]
    # "3?/b0" and "1?/w0" stay round tokens: a game of unknown result
    assert [(g.round, g.result) for g in t.games] == [(1, Result.JIGO), (2, Result.UNKNOWN)]
    assert len(notes) == 1 and "2 row(s) print values with '?' (line 2: 20? 20?)" in notes[0]


def test_a_bare_unknown_result_after_the_values_is_a_round_token():
    """``5?`` past the header's values is a game of unknown result, not a value."""
    text = "; Pl Name Rk Co Club  NBW\n   1 Ann 3d FR Par  0  2?  \n   2 Bob 2d FR Par  0  1?\n"
    parsed = h9.scan(text, "t.h9")
    assert [r.opponents for r in parsed.rows] == [[2], [1]] and not parsed.marked


def test_izmny_league_reads_its_half_points_from_question_marks():
    path = shared_path("conformance", "opengotha", "minimal", "izmny.h9")
    host, read, result = standings(path)
    players = read.tournament.players
    # Drean-Guenaizia and Silt drew: MMS printed "33?" (33½), so both start at 33
    assert [(p.name, p.start_score) for p in players[1:3]] == [
        ("Drean-Guenaizia Benjamin", 33),
        ("Silt Ondrej", 33),
    ]
    assert [result.value("MMS", i) for i in (1, 2)] == [Fraction(67, 2)] * 2


def _every_shared_h9() -> list[Path]:
    from conftest import SHARED_DATA

    return sorted(p for p in SHARED_DATA.rglob("*") if p.suffix.lower() in (".h9", ".h10"))


def test_every_h9_in_the_shared_data_reads(host):
    paths = _every_shared_h9()
    if not paths:
        pytest.skip("shared data not found (set SODOS_SHARED_DATA)")
    for path in paths:
        read = host.read([path])
        assert read.tournament.players, path
        host.standings(read.tournament)
    assert len(paths) >= 7


def test_veterans_under_strict_says_each_error_on_its_own_line(capsys):
    from sodos_plugin.cli import main

    path = shared_path("tdformats", "ffg", "Veterans.h9")
    capsys.readouterr()
    assert main(["standings", str(path), "--strict", "--no-entry-points"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == ["error", "sodos"]
    assert "names NBW twice" in lines[0] and lines[1].startswith("sodos: error: 1 warning")


def test_a_pin_label_in_the_column_line_is_no_value_column():
    """The EGD's files label the ``|PIN`` after the values (``R1 R2 NBW Place Pin``)."""
    text = (
        "; Pl Name Rk Co Club R1 R2 NBW Place Pin\n"
        " 1 Ann 3d FR Par  2+ 0+  2 1 |12345678\n"
        " 2 Bob 2d FR Par  1- 0-  0 2 |23456789\n"
    )
    parsed = h9.scan(text, "t.h9")
    assert parsed.columns == ["NBW", "?Place"]
    assert [r.printed for r in parsed.rows] == [{"NBW": 2}, {"NBW": 0}]
    assert [r.pin for r in parsed.rows] == ["12345678", "23456789"]
