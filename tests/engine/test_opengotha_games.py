"""Games as OpenGotha accepts them (docs/rules.md §6): two games in one round, a player
playing himself, a bye player who also has a game — computed by hand.

All players 1d (start MMS 30 with zero 30k), McMahon, no bar.

Round 1, games in this order:
    g1  A(B) – B(W)  White wins
    g2  C(B) – A(W)  jigo, handicap 2       A's second game: the one listed last counts
    g3  D(B) – D(W)  Black wins             D plays himself (read as White)
Round 2: g4 A(B) – B(W) Black wins; g5 C(B) – D(W) White wins; C also has the bye.

Scores (every game scores; the bye adds its point to C's game):
    NBW  A 0 + ½ + 1 = 1½, B 1 + 0 = 1, C ½ + (bye 1 + loss 0) = 1½, D 1 + 1 = 2
    MMS  30 + NBW: A 31½, B 31, C 31½, D 32
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from builders import B, J, W, tournament, values
from conftest import builtin_host

from sodos_plugin import Game, Host, Player, Tournament
from sodos_plugin.engine.model import Participation
from sodos_plugin.engine.scores import BYE, PAIRED, Pairings
from sodos_plugin.errors import ModelError


def event():
    return tournament(
        [("A", "1d"), ("B", "1d"), ("C", "1d"), ("D", "1d")],
        2,
        [
            (1, "A", "B", W),
            (1, "C", "A", J, 2),
            (1, "D", "D", B),
            (2, "A", "B", B),
            (2, "C", "D", W),
        ],
        byes=[(2, "C")],
        odd_pairings=True,  # as the OpenGotha XML reader builds it
    )


def standings(t, criteria):
    host = builtin_host()
    return host.standings(t, criteria=criteria, system="mcmahon")


def test_model_accepts_two_games_self_play_and_bye_with_game():
    t = event()
    assert t.participation(2, 2) is Participation.BYE  # the bye wins over his game
    assert t.participation(1, 3) is Participation.PAIRED


def test_model_refuses_self_play_and_a_bye_with_a_game_unless_the_source_keeps_them():
    """A host's tournament (odd_pairings false) with a player paired with himself, or
    with the bye and a game in one round: refused naming the round and the player (the
    model gave them points without a word)."""
    t = event()
    with pytest.raises(ModelError, match=r"round 1: D is paired with himself"):
        Tournament(t.name, t.rounds, t.players, t.games, byes=t.byes)
    no_self = tuple(g for g in t.games if g.black != g.white)
    with pytest.raises(ModelError, match=r"round 2: C has the bye and a game"):
        Tournament(t.name, t.rounds, t.players, no_self, byes=t.byes)
    assert Tournament(t.name, t.rounds, t.players, no_self).games == no_self  # two games: kept
    with pytest.raises(ModelError, match="odd_pairings: expected true or false"):
        Tournament(t.name, t.rounds, t.players, no_self, odd_pairings="yes")


def test_model_still_refuses_absent_players_with_a_game_and_bad_indexes():
    players = (Player("A", 0), Player("B", 0))
    with pytest.raises(ValueError, match="paired and has an absence"):
        Tournament("t", 1, players, (Game(1, 0, 1),), absences=frozenset({(1, 0)}))
    with pytest.raises(ValueError, match="bad players 0 vs 2"):
        Tournament("t", 1, players, (Game(1, 0, 2),))


def test_pairings_count_the_game_listed_last_and_score_every_game():
    p = Pairings(event(), 2)
    # round 1: A's counted game is g2 (vs C, White, handicap 2, jigo); D is his own
    # opponent, read as White: Black won, so his result factor is White's 0
    assert list(p.opponent[0]) == [2, 0, 0, 3]
    assert list(p.half_points[0]) == [1, 2, 1, 0]
    assert list(p.handicap[0]) == [2, 0, -2, 0]
    # every game's points: A ½ (0 + ½), D both sides' (a win: 1)
    assert list(p.game_points[0]) == [1, 2, 1, 2]
    # round 2: C has the bye and a game: his own round is unpaired, D's opponent is C
    assert list(p.opponent[1]) == [1, 0, -1, 2]
    assert list(p.state[1]) == [PAIRED, PAIRED, BYE, PAIRED]
    assert list(p.unpaired[1]) == [2]
    assert p.game_points[1] is p.half_points[1]  # the usual round shares its table


def test_scores_and_sos_family_by_hand():
    s = standings(event(), ["MMS", "NBW", "SOSM", "SODOSM", "SOSOSM"])
    assert values(s, "NBW") == {"A": F(3, 2), "B": 1, "C": F(3, 2), "D": 2}
    assert values(s, "MMS") == {"A": F(63, 2), "B": 31, "C": F(63, 2), "D": 32}
    # SOSM: A (C 31½ + 2) + B 31; B A + A; C (A 31½ − 2) + own 30 (bye); D himself 32 + C
    assert values(s, "SOSM") == {"A": F(129, 2), "B": 63, "C": F(119, 2), "D": F(127, 2)}
    # SODOSM: A ½ × 33½ + 31; B 31½ (r1 win); C ½ × 29½; D r1 0 (White's loss) + 31½
    assert values(s, "SODOSM") == {"A": F(191, 4), "B": F(63, 2), "C": F(59, 4), "D": F(63, 2)}
    # SOSOSM: opponents' SOSM, 30 × 2 for C's bye round
    assert values(s, "SOSOSM") == {"A": F(245, 2), "B": 129, "C": F(249, 2), "D": 123}


def test_order_of_the_two_games_decides_which_counts():
    t = event()
    swapped = Tournament(
        t.name,
        t.rounds,
        t.players,
        (t.games[1], t.games[0], *t.games[2:]),
        byes=t.byes,
        odd_pairings=True,
    )
    s = standings(swapped, ["MMS", "SOSM"])
    # A's counted round-1 game is now g1 (vs B, Black, no handicap): SOSM 31 + 31
    assert values(s, "SOSM")["A"] == 62
    assert values(s, "MMS") == values(standings(t, ["MMS"]), "MMS")  # points unchanged


def test_virtual_sos_counts_every_played_game_and_the_last_game_of_a_round():
    # OpenGotha's virtual SOS (docs/rules.md §4): as an opponent, points of games played
    # over the board, ½ per round whose counted game is missing or unplayed. C's bye
    # round has a game (a loss): no ½ (OpenGotha: gameWasPlayed).
    t = event()
    host = Host({"unplayed": {"virtual_opponent": "half-point"}}, config_file=False)
    s = host.standings(t, criteria=["SOSM"], system="mcmahon")
    # virtual MMS: A 30 + 1½ = 31½, B 31, C 30 + ½ + 0 = 30½, D 30 + 1 + 1 = 32
    # SOSM A = (C 30½ + 2) + B 31 = 63½; C = (A 31½ − 2) + own 30 = 59½
    assert values(s, "SOSM")["A"] == F(127, 2)
    assert values(s, "SOSM")["C"] == F(119, 2)
