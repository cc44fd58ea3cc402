"""OpenGotha's other criteria (docs/rules.md §5): CAT, RANK, RATING, CPS, STS, SOSTS, NULL,
computed by hand on small events with byes, absences, jigo, handicap and by-default games.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from builders import B, J, W, tournament, values
from conftest import builtin_host

from sodos_plugin import ConfigError, InputError, Player, Result, Tournament
from sodos_plugin.engine.explain import explain_player


def host(config=None):
    return builtin_host(config or {})


# -- CPS ----------------------------------------------------------------------------------
#
# All 1d. R1: A beats B (handicap 2), C–D jigo, E bye. R2: C beats A by default, B–E
# jigo, D absent. R3: A beats D, B–C no result yet, E absent.
# After R3 round k counts × 2^(3−k) (4, 2, 1); bye/absence points once, not doubled:
#   A 4 + 0 + 1 = 5; B 0 + ½·2 + 0 = 1; C ½·4 + 1·2 + 0 = 4; D ½·4 = 2; E bye 1 + ½·2 = 2


def cup():
    return tournament(
        [(name, "1d") for name in "ABCDE"],
        3,
        [
            (1, "A", "B", B, 2),  # handicap 2: CPS counts points only
            (1, "C", "D", J),
            (2, "C", "A", B, 0, True),
            (2, "B", "E", J),
            (3, "A", "D", B),
            (3, "B", "C", Result.UNKNOWN),
        ],
        byes=[(1, "E")],
        absences=[(2, "D"), (3, "E")],
    )


def test_cps_by_hand_at_every_round():
    h = host()
    after = {r: values(h.standings(cup(), round=r, criteria=["CPS"]), "CPS") for r in (1, 2, 3)}
    assert after[3] == {"A": 5, "B": 1, "C": 4, "D": 2, "E": 2}
    # after R2 the weights are 2, 1: A 2; B ½; C 1 + 1; D 1 (jigo) + 0 (absent); E 1 + ½
    assert after[2] == {"A": 2, "B": F(1, 2), "C": 2, "D": 1, "E": F(3, 2)}
    assert after[1] == {"A": 1, "B": 0, "C": F(1, 2), "D": F(1, 2), "E": 1}


def test_cps_absence_points_are_nbw_points_with_round_down():
    on = host({"scoring": {"absent_nbw": "1/2"}}).standings(cup(), criteria=["CPS"])
    off = host({"scoring": {"absent_nbw": "1/2", "round_down": False}}).standings(
        cup(), criteria=["CPS"]
    )
    # D absent in R2: ⌊½⌋ = 0 with round-down, ½ without; E: bye 1 + ½ absent → ⌊1½⌋ = 1
    assert values(on, "CPS")["D"] == 2 and values(on, "CPS")["E"] == 2
    assert values(off, "CPS")["D"] == F(5, 2) and values(off, "CPS")["E"] == F(5, 2)


def test_cps_explain_shows_points_weights_and_byes():
    s = host().standings(cup(), criteria=["CPS"])
    (cps,) = explain_player(s, "E").criteria
    assert [line.contribution for line in cps.rounds] == [1, 1, 0]
    assert [line.details.get("weight") for line in cps.rounds] == [4, 2, 1]
    assert [line.details.get("bye or absence points", 0) for line in cps.rounds] == [1, 0, 0]
    assert cps.value == 2


# -- STS and SOSTS ------------------------------------------------------------------------
#
# N = 3 rounds (quarter-final R1 = N−2, semi-final R2 = N−1, final R3), bar 1d: the top
# group starts at 30. A B C D 1d (30), E 1k (29), F 2k (28).
# R1: A beats B, C beats D, E–F jigo.
# R2: A beats C, B beats D, F(B)–E(W) White wins with handicap 1.
# R3: C beats A, B beats D by default, E bye, F absent (½, floored to 0).
# MMS after R3: A 32, B 32, C 32, D 30, E 31½, F 28½.
# STS: after R1 A and C are at 30 + 1: +2 after R1, R2, R3; after R2 A is at 30 + 2:
# +2 more after R2 and R3. After R3: A 32 + 4 = 36, C 32 + 2 = 34, others = MMS.


def strasbourg(extra_players=(), extra_games=()):
    return tournament(
        [("A", "1d"), ("B", "1d"), ("C", "1d"), ("D", "1d"), ("E", "1k"), ("F", "2k")]
        + list(extra_players),
        3,
        [
            (1, "A", "B", B),
            (1, "C", "D", B),
            (1, "E", "F", J),
            (2, "A", "C", B),
            (2, "B", "D", B),
            (2, "F", "E", W, 1),
            (3, "C", "A", B),
            (3, "B", "D", B, 0, True),
            *extra_games,
        ],
        byes=[(3, "E")],
        absences=[(3, "F")],
    )


BAR = {"mcmahon": {"bar": "1d"}}


def test_sts_bonuses_by_hand_at_every_round():
    h = host(BAR)
    after = {
        r: values(h.standings(strasbourg(), round=r, criteria=["STS"]), "STS") for r in (1, 2, 3)
    }
    assert after[3] == {"A": 36, "B": 32, "C": 34, "D": 30, "E": F(63, 2), "F": F(57, 2)}
    assert after[2] == {"A": 36, "B": 31, "C": 33, "D": 30, "E": F(61, 2), "F": F(57, 2)}
    assert after[1] == {"A": 33, "B": 30, "C": 33, "D": 30, "E": F(59, 2), "F": F(57, 2)}


def test_sts_tests_the_mms_value_exactly():
    # G 2k with a start correction of +2 starts at 30: one win in R1 reaches 31, so he
    # gains the quarter-final bonus as a top-group winner would (OpenGotha's test)
    extra = [Player("G", rank=-2, smms_correction=2), Player("H", rank=-2)]
    t = strasbourg()
    t = Tournament(
        t.name,
        3,
        t.players + tuple(extra),
        t.games
        + (
            # G beats H in R1 (H 2k starts at 28): G 31 after R1
            type(t.games[0])(1, 6, 7, Result.BLACK_WINS),
        ),
        byes=t.byes,
        absences=t.absences,
    )
    s = host(BAR).standings(t, criteria=["STS", "MMS"])
    assert values(s, "MMS")["G"] == 31 and values(s, "STS")["G"] == 33


def test_sts_needs_a_bar():
    with pytest.raises(ConfigError, match="STS needs a McMahon bar"):
        host().standings(strasbourg(), criteria=["STS"])


def test_sosts_by_hand():
    s = host(BAR).standings(strasbourg(), criteria=["SOSTS", "SOSM"])
    # per round the opponent's STS after R3; E +1 as White in R2, F −1; own start
    # score in a round without a game (E's bye 29, F's absence 28)
    assert values(s, "SOSTS") == {
        "A": 32 + 34 + 34,
        "B": 36 + 30 + 30,
        "C": 30 + 36 + 36,
        "D": 34 + 32 + 32,
        "E": F(57, 2) + F(59, 2) + 29,
        "F": F(63, 2) + F(61, 2) + 28,
    }
    # SOSM is the same rule on MMS: A's opponents B 32, C 32, C 32
    assert values(s, "SOSM")["A"] == 96


def test_sosts_with_virtual_sos_adds_the_bonus_to_the_virtual_score():
    config = {**BAR, "unplayed": {"virtual_opponent": "half-point"}}
    s = host(config).standings(strasbourg(), criteria=["SOSTS"])
    # virtual MMS: B 30 + 0 + 1 + ½ (R3 won by default) = 31½; C 32 + bonus 2 = 34
    assert values(s, "SOSTS")["A"] == F(63, 2) + 34 + 34


def test_sts_explain_shows_score_and_bonus():
    s = host(BAR).standings(strasbourg(), criteria=["STS"])
    (line,) = explain_player(s, "A").criteria
    assert [r.details["bonus"] for r in line.rounds] == [2, 4, 4]
    assert [r.details["score after round"] for r in line.rounds] == [31, 32, 32]
    assert line.value == 36


# -- CAT, RANK, RATING, NULL ----------------------------------------------------------------


def ranked(ranks, games=()):
    return tournament([(f"P{rank}", rank) for rank in ranks], 1, games)


def test_cat_first_limit_reached_in_the_order_given():
    t = ranked(["2d", "1d", "1k", "5k", "6k"])
    s = host({"categories": {"lower_limits": ["1d", "5k"]}}).standings(t, criteria=["CAT"])
    assert values(s, "CAT") == {"P2d": 1, "P1d": 1, "P1k": 2, "P5k": 2, "P6k": 3}
    # not sorted: with 5k first every rank from 5k up is in category 1, none in 2
    s = host({"categories": {"lower_limits": ["5k", "1d"]}}).standings(t, criteria=["CAT"])
    assert values(s, "CAT") == {"P2d": 1, "P1d": 1, "P1k": 1, "P5k": 1, "P6k": 3}


def test_cat_first_orders_categories_before_scores():
    # the 6k beats the 2d, yet category 1 comes first
    t = ranked(["2d", "6k"], [(1, "P6k", "P2d", B)])
    s = host({"categories": {"lower_limits": ["1d"]}}).standings(t, criteria=["CAT", "NBW"])
    assert [row.player.name for row in s.rows()] == ["P2d", "P6k"]
    assert values(s, "CAT") == {"P2d": 1, "P6k": 2}


def test_cat_with_one_category_is_one_for_everyone_even_without_ranks():
    t = tournament(["X", "Y"], 1, [(1, "X", "Y", B)])
    assert values(host().standings(t, criteria=["CAT", "NBW"]), "CAT") == {"X": 1, "Y": 1}
    with pytest.raises(InputError, match="CAT needs every player's rank"):
        host({"categories": {"lower_limits": ["1d"]}}).standings(t, criteria=["CAT"])


def test_rank_and_rating_and_null():
    players = (Player("A", rank=2, rating=2250), Player("B", rank=-12, rating=1200))
    t = Tournament("t", 1, players, ())
    s = host().standings(t, criteria=["RATING", "RANK", "NULL"])
    assert values(s, "RANK") == {"A": 2, "B": -12}
    assert values(s, "RATING") == {"A": 2250, "B": 1200}
    assert values(s, "NULL") == {"A": 0, "B": 0}
    # an all-NULL list leaves everyone tied
    tied = host().standings(t, criteria=["NULL"])
    assert [row.place for row in tied.rows()] == [1, 1]


def test_rating_keeps_decimals_exactly():
    players = (Player("A", rating=1500.5), Player("B", rating=1500))  # type: ignore[arg-type]
    s = host().standings(Tournament("t", 0, players, ()), criteria=["RATING"])
    assert values(s, "RATING") == {"A": F(3001, 2), "B": 1500}


def test_cat_rank_rating_ignore_games_byes_and_absences():
    # strasbourg(): a bye, an absence, a jigo, a handicap game and a win by default;
    # with ratings and two categories the values are the players' own at every round
    ratings = {"A": 2100, "B": 2050, "C": 2000, "D": 1950, "E": 1900, "F": 1800}
    base = strasbourg()
    t = Tournament(
        base.name,
        base.rounds,
        tuple(Player(p.name, rank=p.rank, rating=ratings[p.name]) for p in base.players),
        base.games,
        byes=base.byes,
        absences=base.absences,
    )
    h = host({**BAR, "categories": {"lower_limits": ["1d"]}})
    for r in (1, 2, 3):
        s = h.standings(t, round=r, criteria=["CAT", "RANK", "RATING"])
        assert values(s, "CAT") == {"A": 1, "B": 1, "C": 1, "D": 1, "E": 2, "F": 2}
        assert values(s, "RANK") == {"A": 0, "B": 0, "C": 0, "D": 0, "E": -1, "F": -2}
        assert values(s, "RATING") == ratings
    (cat, rank, rating) = explain_player(s, "E").criteria
    assert (cat.value, rank.value, rating.value) == (2, -1, 1900)
    assert [line.situation for line in cat.rounds] == ["jigo", "win", "bye"]


def test_rank_and_rating_need_values():
    t = tournament(["X", "Y"], 1, [])
    with pytest.raises(InputError, match="RANK needs every player's rank"):
        host().standings(t, criteria=["RANK"])
    with pytest.raises(InputError, match="RATING needs every player's rating"):
        host().standings(t, criteria=["RATING"])
