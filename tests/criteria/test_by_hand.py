"""Hand-computed values of every built-in criterion (docs/rules.md §1-§3).

One small tournament exercises every situation; each expected value is computed by
hand in the comment beside it, with exactly the rules of docs/rules.md §1-§2:

    players (rank → start MMS with bar 2d, floor 5k, zero 30k: clamp(rank) + 30)
      A 3d → 2d → 31    B 1d → 30    C 1k → 29    D 5k → 25    E 10k → 5k → 25
    round 1: A(B) – B(W) black wins          D(B) – C(W) jigo, handicap 3    E bye
    round 2: C(B) – A(W) black wins, hc 2    B(B) – E(W) both lose           D absent
    round 3: D(B) – A(W) white wins by default   B(B) – C(W) both win        E not assigned

    scores (defaults: bye 1 NBW / 1 MMS, absent 0 NBW / ½ MMS, round down on)
      NBW after r1  A 1  B 0  C ½  D ½  E 1(bye)
          after r2  A 1  B 0  C 3/2  D ½ (absent 0)  E 1
          after r3  A 2  B 1  C 5/2  D ½  E 1
      MMS after r3  A 31+2=33  B 30+1=31  C 29+5/2=63/2  D 25+½+⌊½⌋=51/2  E 25+1=26
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from builders import tournament, values
from conftest import builtin_host

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.engine.ranks import parse_rank
from sodos_plugin.engine.scores import start_scores

ALL = [
    "NBW", "MMS",
    "SOSW", "SOSM", "SOS", "SOSW-1", "SOSM-1", "SOS-1", "SOSW-2", "SOSM-2", "SOS-2",
    "SOSOSW", "SOSOSM", "SOSOS", "SODOSW", "SODOSM", "SODOS", "SODOMS",
    "CUSSW", "CUSSM", "CUSS",
]  # fmt: skip

BOTH_WIN = Result.BOTH_WIN
BOTH_LOSE = Result.BOTH_LOSE
B, W, J = Result.BLACK_WINS, Result.WHITE_WINS, Result.JIGO


def event(**settings) -> Tournament:
    return tournament(
        [("A", "3d"), ("B", "1d"), ("C", "1k"), ("D", "5k"), ("E", "10k")],
        3,
        [
            (1, "A", "B", B),
            (1, "D", "C", J, 3),
            (2, "C", "A", B, 2),
            (2, "B", "E", BOTH_LOSE),
            (3, "D", "A", W, 0, True),
            (3, "B", "C", BOTH_WIN),
        ],
        byes=[(1, "E")],
        absences=[(2, "D")],
        settings={"mcmahon": {"bar": "2d", "floor": "5k"}, **settings},
    )


def standings(system="mcmahon", round=None, config=None, t=None):
    """After ``round``, by default the last scheduled one (rounds without any result
    count here: the API's own default is the last round with a result)."""
    host = builtin_host(config or {})
    t = t or event()
    return host.standings(
        t, system=system, criteria=ALL, round=t.rounds if round is None else round
    )


@pytest.fixture(scope="module")
def mcmahon():
    return standings("mcmahon")


@pytest.fixture(scope="module")
def swiss():
    return standings("swiss")


def check(s, criterion, expected):
    got = values(s, criterion)
    assert got == {k: F(v) for k, v in expected.items()}, criterion


def test_nbw(mcmahon):
    # A 1+0+1 (win by default counts) = 2; B 0+0 (both lose)+1 (both win) = 1;
    # C ½ (jigo)+1+1 (both win) = 5/2; D ½+0 (absent: 0)+0 = ½; E 1 (bye)+0+0 (not assigned) = 1
    check(mcmahon, "NBW", {"A": 2, "B": 1, "C": "5/2", "D": "1/2", "E": 1})


def test_mms(mcmahon):
    # A 31 (3d barred to 2d) + 2 = 33; B 30 + 1 = 31; C 29 + 5/2 = 63/2;
    # D 25 + ½ (jigo) + ⌊½⌋ (absent ½, running total floored) = 51/2; E 25 (10k floored
    # to 5k) + 1 (bye) = 26
    check(mcmahon, "MMS", {"A": 33, "B": 31, "C": "63/2", "D": "51/2", "E": 26})


def test_sos_w(mcmahon, swiss):
    # A: B 1 + C 5/2 + D ½ = 4;  B: A 2 + E 1 + C 5/2 = 11/2;  C: D ½ + A 2 + B 1 = 7/2;
    # D: C 5/2 + 0 (absent, W virtual 0) + A 2 = 9/2;  E: 0 (bye) + B 1 + 0 (n.a.) = 1
    expected = {"A": 4, "B": "11/2", "C": "7/2", "D": "9/2", "E": 1}
    check(mcmahon, "SOSW", expected)
    check(swiss, "SOSW", expected)
    check(swiss, "SOS", expected)  # generic = W form in a Swiss


def test_sos_m(mcmahon, swiss):
    # A: B 31 (A Black, h 0) + C 63/2 + 2 (A White, h 2) + D 51/2 = 31 + 67/2 + 51/2 = 90
    # B: A 33 + E 26 + C 63/2 = 181/2
    # C: D 51/2 + 3 (C White, h 3) + A 33 − 2 (C Black, h 2) + B 31 = 181/2
    # D: C 63/2 − 3 (D Black, h 3) + 25 (absent: own start MMS) + A 33 = 173/2
    # E: 25 (bye: own smms) + B 31 + 25 (not assigned: own smms) = 81
    expected = {"A": 90, "B": "181/2", "C": "181/2", "D": "173/2", "E": 81}
    check(mcmahon, "SOSM", expected)
    check(mcmahon, "SOS", expected)  # generic = M form in a McMahon
    check(swiss, "SOSM", expected)


def test_sos_m_without_handicap_correction():
    s = standings(config={"handicap": {"sos_correction": False}})
    # A: 31 + 63/2 + 51/2 = 88;  C: 51/2 + 33 + 31 = 179/2;  D: 63/2 + 25 + 33 = 179/2
    check(s, "SOSM", {"A": 88, "B": "181/2", "C": "179/2", "D": "179/2", "E": 81})
    # the W form never has the correction: unchanged
    check(s, "SOSW", {"A": 4, "B": "11/2", "C": "7/2", "D": "9/2", "E": 1})


def test_sos_minus_one(mcmahon):
    # W rounds: A [1, 5/2, ½] − ½ = 7/2; B [2, 1, 5/2] − 1 = 9/2; C [½, 2, 1] − ½ = 3;
    # D [5/2, 0, 2] − 0 = 9/2; E [0, 1, 0] − 0 = 1  (virtual values can be the cut ones)
    check(mcmahon, "SOSW-1", {"A": "7/2", "B": "9/2", "C": 3, "D": "9/2", "E": 1})
    # M rounds: A [31, 67/2, 51/2] − 51/2 = 129/2; B [33, 26, 63/2] − 26 = 129/2;
    # C [57/2, 31, 31] − 57/2 = 62; D [57/2, 25, 33] − 25 = 123/2; E [25, 31, 25] − 25 = 56
    expected = {"A": "129/2", "B": "129/2", "C": 62, "D": "123/2", "E": 56}
    check(mcmahon, "SOSM-1", expected)
    check(mcmahon, "SOS-1", expected)


def test_sos_minus_two(mcmahon, swiss):
    # W: A [1, 5/2, ½] → 5/2; B [2, 1, 5/2] → 5/2; C [½, 2, 1] → 2; D [5/2, 0, 2] → 5/2;
    # E [0, 1, 0] → 1
    check(swiss, "SOS-2", {"A": "5/2", "B": "5/2", "C": 2, "D": "5/2", "E": 1})
    # M: A → 67/2; B → 33; C → 31; D → 33; E → 31
    check(mcmahon, "SOSM-2", {"A": "67/2", "B": 33, "C": 31, "D": 33, "E": 31})


def test_sodos_w(mcmahon, swiss):
    # A: beat B (1) + lost to C + beat D by default (½) = 3/2
    # B: lost + both lose (0 × E) + both win vs C (5/2) = 5/2
    # C: jigo vs D (½ × ½ = ¼) + beat A (2) + both win vs B (1) = 13/4
    # D: jigo vs C (5/2 × ½ = 5/4) + absent (nothing) + lost = 5/4
    # E: bye adds nothing + both lose + not assigned = 0
    expected = {"A": "3/2", "B": "5/2", "C": "13/4", "D": "5/4", "E": 0}
    check(mcmahon, "SODOSW", expected)
    check(swiss, "SODOS", expected)


def test_sodos_m(mcmahon, swiss):
    # opponent values as in SOSM (with the handicap correction) × result factor:
    # A: B 31 × 1 + (lost) + D 51/2 × 1 (by default) = 113/2;  B: C 63/2 (both win)
    # C: (51/2 + 3) × ½ (jigo) + (33 − 2) × 1 + 31 × 1 = 57/4 + 62 = 305/4
    # D: (63/2 − 3) × ½ = 57/4;  E: 0
    expected = {"A": "113/2", "B": "63/2", "C": "305/4", "D": "57/4", "E": 0}
    check(mcmahon, "SODOSM", expected)
    check(mcmahon, "SODOS", expected)
    check(mcmahon, "SODOMS", expected)
    check(swiss, "SODOMS", expected)  # SODOMS is SODOSM in every system


def test_sosos_w(swiss):
    # Σ opponents' SOSW, 0 for rounds without a game (W):
    # A: B 11/2 + C 7/2 + D 9/2 = 27/2;  B: A 4 + E 1 + C 7/2 = 17/2;
    # C: D 9/2 + A 4 + B 11/2 = 14;  D: C 7/2 + 0 + A 4 = 15/2;  E: 0 + B 11/2 + 0 = 11/2
    expected = {"A": "27/2", "B": "17/2", "C": 14, "D": "15/2", "E": "11/2"}
    check(swiss, "SOSOSW", expected)
    check(swiss, "SOSOS", expected)


def test_sosos_m(mcmahon):
    # Σ opponents' SOSM; a round without a game adds smms × R (R = 3):
    # A: B 181/2 + C 181/2 + D 173/2 = 535/2;  B: A 90 + E 81 + C 181/2 = 523/2;
    # C: D 173/2 + A 90 + B 181/2 = 267;  D: C 181/2 + 25 × 3 + A 90 = 511/2;
    # E: 25 × 3 + B 181/2 + 25 × 3 = 481/2
    expected = {"A": "535/2", "B": "523/2", "C": 267, "D": "511/2", "E": "481/2"}
    check(mcmahon, "SOSOSM", expected)
    check(mcmahon, "SOSOS", expected)


def test_cuss(mcmahon, swiss):
    # Σ own NBW after r1, r2, r3: A 1+1+2 = 4; B 0+0+1 = 1; C ½+3/2+5/2 = 9/2;
    # D ½+½+½ = 3/2; E 1+1+1 = 3
    check(swiss, "CUSS", {"A": 4, "B": 1, "C": "9/2", "D": "3/2", "E": 3})
    check(mcmahon, "CUSSW", {"A": 4, "B": 1, "C": "9/2", "D": "3/2", "E": 3})
    # Σ own MMS: A 32+32+33 = 97; B 30+30+31 = 91; C 59/2+61/2+63/2 = 183/2;
    # D 51/2 × 3 (absent ½ floored) = 153/2; E 26 × 3 = 78
    check(mcmahon, "CUSSM", {"A": 97, "B": 91, "C": "183/2", "D": "153/2", "E": 78})
    check(mcmahon, "CUSS", {"A": 97, "B": 91, "C": "183/2", "D": "153/2", "E": 78})


def test_values_after_round_two():
    s = standings("swiss", round=2)
    # NBW after r2: A 1, B 0, C 3/2, D ½, E 1 — round 3 ignored entirely
    check(s, "NBW", {"A": 1, "B": 0, "C": "3/2", "D": "1/2", "E": 1})
    # SOSW uses scores after R = 2: A: B 0 + C 3/2; B: A 1 + E 1; C: D ½ + A 1;
    # D: C 3/2 + 0; E: 0 + B 0
    check(s, "SOSW", {"A": "3/2", "B": 2, "C": "3/2", "D": "3/2", "E": 0})
    # SODOSW: A beat B (0); C: ½ × ½ + 1 = 5/4; D: 3/2 × ½ = 3/4
    check(s, "SODOSW", {"A": 0, "B": 0, "C": "5/4", "D": "3/4", "E": 0})
    # SOSOSW: A: SOS(B) 2 + SOS(C) 3/2 = 7/2; E: 0 + SOS(B) 2 = 2; C: 3/2 + 3/2 = 3
    got = values(s, "SOSOSW")
    assert (got["A"], got["E"], got["C"]) == (F(7, 2), 2, 3)
    # MMS after r2 (M form): D 25 + ½ + ⌊½⌋ = 51/2, and SOSM after r2 of E: 25 + B 30 = 55
    check(s, "MMS", {"A": 32, "B": 30, "C": "61/2", "D": "51/2", "E": 26})
    assert values(s, "SOSM")["E"] == 55


def test_round_zero_gives_start_values():
    s = standings("mcmahon", round=0)
    check(s, "MMS", {"A": 31, "B": 30, "C": 29, "D": 25, "E": 25})
    assert set(values(s, "SOS").values()) == {0}
    assert set(values(s, "NBW").values()) == {0}


def test_round_down_off():
    s = standings(config={"scoring": {"round_down": False}})
    # D: 25 + ½ (jigo) + ½ (absent, not floored) = 26
    assert values(s, "MMS")["D"] == 26
    # A's SOSM reads D's MMS after round R: 31 + 67/2 + 26 = 181/2 (was 90)
    assert values(s, "SOSM")["A"] == F(181, 2)


def test_half_point_bye_round_down():
    config = {"scoring": {"bye": "1/2"}}
    # round down on: E's NBW = ⌊½⌋ = 0, MMS 25 + ⌊½⌋ = 25
    s = standings(config=config)
    assert (values(s, "NBW")["E"], values(s, "MMS")["E"]) == (0, 25)
    # off: ½ and 51/2
    s = standings(config={"scoring": {"bye": "1/2", "round_down": False}})
    assert (values(s, "NBW")["E"], values(s, "MMS")["E"]) == (F(1, 2), F(51, 2))


def test_round_down_floors_the_running_total_not_each_round(make_host):
    # P absent in rounds 1 and 2 (½ MMS each): after r1 ⌊½⌋ = 0, after r2 ⌊1⌋ = 1
    t = tournament([("P", "1d"), ("Q", "1d")], 2, [], absences=[(1, "P"), (2, "P")])
    s = make_host({}).standings(t, system="mcmahon", criteria=["MMS", "CUSSM"], round=2)
    # MMS 30 + 1 = 31; CUSSM 30 (after r1) + 31 (after r2) = 61
    assert values(s, "MMS")["P"] == 31
    assert values(s, "CUSSM")["P"] == 61


def test_unknown_result_scores_nothing():
    t = tournament(
        [("X", "1d"), ("Y", "1d"), ("Z", "1d")],
        2,
        [(1, "X", "Y", B), (2, "X", "Z", Result.UNKNOWN)],
        byes=[(1, "Z")],
        absences=[(2, "Y")],
    )
    s = standings("swiss", t=t)
    # NBW: X 1 (the unknown game adds 0, not ½), Y 0, Z 1 (bye)
    check(s, "NBW", {"X": 1, "Y": 0, "Z": 1})
    # SOSW: the opponent still counts: X: Y 0 + Z 1 = 1; Y: X 1 + 0 = 1; Z: 0 + X 1 = 1
    check(s, "SOSW", {"X": 1, "Y": 1, "Z": 1})
    # SODOSW: X beat Y (0) + unknown × 0 = 0 (a jigo would give ½)
    check(s, "SODOSW", {"X": 0, "Y": 0, "Z": 0})


def test_start_mms_bar_floor_zero_correction(make_host):
    players = (
        Player("5d", rank=parse_rank("5d")),
        Player("1d", rank=parse_rank("1d")),
        Player("3k+1", rank=parse_rank("3k"), smms_correction=1),
        Player("20k", rank=parse_rank("20k")),
        Player("explicit", rank=parse_rank("1d"), start_score=F(7, 2)),
    )
    t = Tournament("t", 0, players, ())
    host = make_host({})
    settings = host.settings_for(t, system="mcmahon", criteria=["MMS"])
    # defaults: zero 30k, no bar/floor: 5d (4) + 30 = 34, 1d 30, 3k (−3) + 30 + 1 = 28,
    # 20k (−20) + 30 = 10; the explicit start score 7/2 wins over the rank
    assert start_scores(t, settings, 2) == [68, 60, 56, 20, 7]
    config = {"mcmahon": {"bar": "3d", "floor": "15k", "zero": "20k"}}
    settings = make_host(config).settings_for(t, system="mcmahon", criteria=["MMS"])
    # bar 3d (2), floor 15k (−15), zero 20k (−20): 5d → 2 + 20 = 22, 1d → 20,
    # 3k → −3 + 20 + 1 = 18, 20k → −15 + 20 = 5, explicit 7/2
    assert start_scores(t, settings, 2) == [44, 40, 36, 10, 7]


def test_start_mms_negative_below_zero_rank(make_host):
    t = tournament([("P", "15k"), ("Q", "1d")], 0, [])
    s = make_host({"mcmahon": {"zero": "10k"}}).standings(t, system="mcmahon", criteria=["MMS"])
    # 15k (−15) − 10k (−10) = −5; 1d (0) + 10 = 10
    check(s, "MMS", {"P": -5, "Q": 10})


def test_doubled_scores():
    s = standings("swiss", config={"scoring": {"doubled": True}})
    # every point ×2: NBW A 4, C 5; SOSW A (1 + 5/2 + ½) × 2 = 8
    assert (values(s, "NBW")["A"], values(s, "NBW")["C"], values(s, "SOSW")["A"]) == (4, 5, 8)


def test_unknown_rank_in_mcmahon_is_an_error(make_host):
    from sodos_plugin.errors import InputError

    t = tournament(["nameless", ("Q", "1d")], 0, [])
    with pytest.raises(InputError, match="nameless"):
        make_host({}).standings(t, system="mcmahon", criteria=["MMS"])


def test_by_default_game_scores_like_a_played_one():
    played = standings("swiss")
    t = event()
    forfeit_free = Tournament(
        t.name,
        t.rounds,
        t.players,
        tuple(Game(g.round, g.black, g.white, g.result, g.handicap, False) for g in t.games),
        t.byes,
        t.absences,
        t.settings,
    )
    other = standings("swiss", t=forfeit_free)
    for criterion in ALL:
        assert values(played, criterion) == values(other, criterion), criterion


def test_breakdown_parts_for_explain(mcmahon):
    sos = mcmahon.breakdowns["SOSM"]
    a, d, e = 0, 3, 4

    def parts(label, player):
        table = sos.details[label]
        return [F(table.rows[r][player], table.denominator) for r in range(3)]

    # A: opponents' MMS 31, 63/2, 51/2; correction +2 only in round 2 (White, h 2)
    assert parts("opponent score", a) == [31, F(63, 2), F(51, 2)]
    assert parts("handicap correction", a) == [0, 2, 0]
    # D: round 2 absent → virtual opponent = own start MMS 25; round 1 correction −3
    assert parts("virtual opponent", d) == [0, 25, 0]
    assert parts("handicap correction", d) == [-3, 0, 0]
    # SOSM-1 of E drops one of the two equal 25s: the earliest round (OpenGotha)
    assert mcmahon.breakdowns["SOSM-1"].dropped_rounds(e) == [0]
    # SOSM-2 of A drops rounds 3 (51/2) and 1 (31)
    assert mcmahon.breakdowns["SOSM-2"].dropped_rounds(a) == [0, 2]
    # SODOSM's result factor (halves): C's jigo in round 1 is 1, its wins 2
    factor = mcmahon.breakdowns["SODOSM"].details["result factor"]
    assert [factor.rows[r][2] for r in range(3)] == [1, 2, 2]
