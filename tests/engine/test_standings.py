"""Standings order, shared places, the documented tie order, and the seed's advice.

standings.py: players equal on *every* criterion share a place and are marked tied;
inside a tie they are listed by rank (strongest first; unknown rank last), then name
(case-insensitive), then input order. advice.py: the seed's warnings (docs/rules.md §2).
"""

from __future__ import annotations

from builders import B, J, tournament
from conftest import builtin_host

from sodos_plugin import Player, Tournament
from sodos_plugin.engine.advice import advice
from sodos_plugin.engine.standings import order_players


def host(config=None):
    return builtin_host(config or {})


def names(standings):
    return [(row.place, row.tied, row.player.name) for row in standings.rows()]


def test_order_and_shared_places():
    # P beat Q, R beat S; P and R: NBW 1, SOSW 0 (opponents lost); Q and S: 0, 1
    t = tournament(
        [("P", "5k"), ("Q", "1d"), ("R", "2d"), ("S", "9k")],
        1,
        [(1, "P", "Q", B), (1, "R", "S", B)],
    )
    s = host().standings(t, system="swiss", criteria=["NBW", "SOSW"])
    # tie P/R: R first (2d stronger than 5k); tie Q/S: Q (1d) before S (9k)
    assert names(s) == [(1, True, "R"), (1, True, "P"), (3, True, "Q"), (3, True, "S")]


def test_a_later_criterion_breaks_the_tie():
    t = tournament(
        [("P", "5k"), ("Q", "1d"), ("R", "2d"), ("S", "9k"), ("T", "1d")],
        2,
        [(1, "P", "Q", B), (1, "R", "S", B), (2, "P", "T", B), (2, "Q", "R", B)],
    )
    s = host().standings(t, system="swiss", criteria=["NBW", "SOSW"])
    # NBW: P 2, Q 1, R 1, S 0, T 0; SOSW: Q = P 2 + R 1 = 3, R = S 0 + Q 1 = 1;
    # S = R 1, T = P 2 → T before S
    assert names(s) == [
        (1, False, "P"),
        (2, False, "Q"),
        (3, False, "R"),
        (4, False, "T"),
        (5, False, "S"),
    ]


def test_lower_is_better_criteria_sort_ascending():
    players = tuple(Player(n, rank=0) for n in "abc")
    t = Tournament("t", 0, players, ())
    order, places, tied = order_players(t, [[3, 1, 2]], [False])
    assert (order, places, tied) == ([1, 2, 0], [1, 2, 3], [False] * 3)
    order, places, tied = order_players(t, [[3, 1, 2]], [True])
    assert order == [0, 2, 1]


def test_tie_order_rank_then_name_casefold_then_input_order():
    players = (
        Player("bob", rank=None),
        Player("Zed", rank=-5),
        Player("alice", rank=-5),
        Player("Alice", rank=-5),
        Player("Max", rank=3),
    )
    t = Tournament("t", 0, players, ())
    order, places, tied = order_players(t, [[0] * 5], [True])
    # Max (4d) first; then the 5k players by casefolded name — "alice" and "Alice" equal,
    # so input order (2 before 3); Zed; then bob (unknown rank last)
    assert order == [4, 2, 3, 1, 0]
    assert places == [1] * 5 and tied == [True] * 5


def test_multi_criteria_ties_with_large_and_negative_values():
    players = tuple(Player(f"p{i}", rank=0) for i in range(6))
    t = Tournament("t", 0, players, ())
    big = 10**40
    columns = [[1, 1, -big, 1, -big, 1], [5, -3, 0, 5, 0, big]]
    order, places, tied = order_players(t, columns, [True, True])
    # by column 1 (higher first): 1 × 4 then −big × 2; then column 2 (higher first)
    assert order == [5, 0, 3, 1, 2, 4]
    assert places == [1, 2, 2, 4, 5, 5]
    assert tied == [False, True, True, False, True, True]


def test_no_criteria_everyone_shares_first_place():
    players = (Player("b", rank=0), Player("a", rank=0))
    order, places, tied = order_players(Tournament("t", 0, players, ()), [], [])
    assert (order, places, tied) == ([1, 0], [1, 1], [True, True])


def test_standings_value_and_rows():
    t = tournament([("P", "1d"), ("Q", "1d")], 1, [(1, "P", "Q", J)])
    s = host().standings(t, system="swiss", criteria=["NBW", "SOSW"])
    rows = list(s.rows())
    assert [r.values["NBW"] for r in rows] == [0.5, 0.5]
    assert all(r.tied and r.place == 1 for r in rows)


# -- advice (docs/rules.md §2) ----------------------------------------------------------


def test_sodos_first_tiebreak_in_a_swiss_warns():
    warnings = advice("swiss", ["NBW", "SODOS", "SOS"])
    assert len(warnings) == 1 and "first tiebreak in a Swiss" in warnings[0]
    assert advice("swiss", ["NBW", "SODOSW"])
    assert advice("swiss", ["NBW", "SOS", "SODOS"]) == []  # not first: no warning
    assert advice("swiss", ["SODOS"]) == []  # the main score, not a tiebreak


def test_sodos_in_a_mcmahon_warns():
    for name in ("SODOS", "SODOMS", "SODOSM", "SODOSW"):
        warnings = advice("mcmahon", ["MMS", "SOS", name], lambda: [0])
        assert any("McMahon" in w and name in w for w in warnings), name
    assert advice("mcmahon", ["MMS", "SOS", "SOSOS"], lambda: [-1]) == []


def test_mixing_w_and_m_criteria_warns():
    (warning,) = advice("swiss", ["NBW", "SOSM", "SOSOSW"])
    assert warning.startswith("NBW, SOSOSW (on wins) mixed with SOSM (on McMahon scores)")
    assert advice("mcmahon", ["MMS", "SOSM", "SOSOSM"]) == []
    assert advice("mcmahon", ["MMS", "SOS", "SOSOS", "CUSS"]) == []  # generic: the system's form
    assert advice("swiss", ["NBW", "SOSW-1", "EXT", "DC"]) == []  # EXT, DC: neither form


def test_sodoms_with_negative_start_mms_warns():
    negative = [w for w in advice("swiss", ["NBW", "SODOMS"], lambda: [4, -2]) if "negative" in w]
    assert len(negative) == 1
    assert not [w for w in advice("swiss", ["NBW", "SODOMS"], lambda: [0, 4]) if "negative" in w]
    # start scores are only asked for when SODOMS is used (Swiss without ranks works)
    assert advice("swiss", ["NBW", "SOS"], lambda: 1 / 0) == []


def test_warnings_reach_the_standings_and_never_stop_them():
    t = tournament(
        [("P", "15k"), ("Q", "1d")], 1, [(1, "P", "Q", B)], settings={"mcmahon": {"zero": "10k"}}
    )
    s = host().standings(t, system="mcmahon", criteria=["MMS", "SODOMS"])
    # P's start MMS is 15k − 10k = −5: McMahon advice and the negative-start advice
    assert any("negative start" in w for w in s.warnings)
    assert any("McMahon" in w for w in s.warnings)
    assert [r.player.name for r in s.rows()] == ["Q", "P"]  # computed all the same
    s = host().standings(t, system="swiss", criteria=["NBW", "SODOS"])
    assert any("first tiebreak in a Swiss" in w for w in s.warnings)
