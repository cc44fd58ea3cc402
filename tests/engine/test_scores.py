"""Pairings and Scores tables (sodos_plugin/engine/scores.py, docs/rules.md §1), by hand.

Tournament (ranks 1d: start MMS 30 with zero 30k):
    round 1: A(B) – B(W) jigo, handicap 2, C bye, D absent
    round 2: C(B) – A(W) white wins by default, B(B) – D(W) both win
    round 3: A(B) – D(W) unknown; B absent; C not assigned
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from builders import tournament
from conftest import builtin_host

from sodos_plugin import Result
from sodos_plugin.engine.model import Participation
from sodos_plugin.engine.scores import ABSENT, BYE, NOT_ASSIGNED, PAIRED, Pairings, Scores

J, W = Result.JIGO, Result.WHITE_WINS


def event():
    return tournament(
        [("A", "1d"), ("B", "1d"), ("C", "1d"), ("D", "1d")],
        3,
        [
            (3, "A", "D", Result.UNKNOWN),  # out of round order on purpose
            (1, "A", "B", J, 2),
            (2, "C", "A", W, 0, True),
            (2, "B", "D", Result.BOTH_WIN),
        ],
        byes=[(1, "C")],
        absences=[(1, "D"), (3, "B")],
    )


def scores(config=None, rounds=3):
    host = builtin_host(config or {})
    t = event()
    settings = host.settings_for(t, system="mcmahon")
    pairings = Pairings(t, rounds)
    return pairings, Scores(t, settings, pairings)


def lists(table):
    return [list(row) for row in table]


def test_pairings_tables():
    p, _ = scores()
    assert lists(p.opponent) == [[1, 0, -1, -1], [2, 3, 0, 1], [3, -1, -1, 0]]
    # halves: jigo 1 each; win by default 2 (loser 0); both win 2 each; unknown 0
    assert lists(p.half_points) == [[1, 1, 0, 0], [2, 2, 0, 2], [0, 0, 0, 0]]
    # +h as White, −h as Black
    assert list(p.handicap[0]) == [-2, 2, 0, 0]
    assert lists(p.state) == [
        [PAIRED, PAIRED, BYE, ABSENT],
        [PAIRED, PAIRED, PAIRED, PAIRED],
        [PAIRED, ABSENT, NOT_ASSIGNED, PAIRED],
    ]
    assert list(p.by_default) == [set(), {0, 2}, set()]
    assert lists(p.unpaired) == [[2, 3], [], [1, 2]]
    assert p.participation(2, 2) is Participation.NOT_ASSIGNED
    assert p.participation(0, 2) is Participation.BYE


def test_pairings_ignore_rounds_after_r():
    p, _ = scores(rounds=1)
    assert p.rounds == 1 and lists(p.opponent) == [[1, 0, -1, -1]]


def test_scores_default_unit_two():
    _, s = scores()
    assert s.unit == 2
    # NBW (halves): A ½, ½+1, same; B ½, 3/2, 3/2 (absent 0); C 1 (bye), 1, 1; D 0, 1, 1
    assert lists(s.nbw) == [[1, 1, 2, 0], [3, 3, 2, 2], [3, 3, 2, 2]]
    # MMS: start 30 (60 halves) + points; bye 1; absent ½ floored on the running total:
    # D after r1: 30 + ⌊½⌋ = 30; B after r3: 30 + 3/2 + ⌊½⌋ = 63/2
    assert list(s.start_mms) == [60] * 4
    assert lists(s.mms) == [[61, 61, 62, 60], [63, 63, 62, 62], [63, 63, 62, 62]]
    assert s.final("W") == s.nbw[-1] and s.final("M") == s.mms[-1]
    assert s.after("M") is s.mms and s.after("W") is s.nbw


def test_round_down_off_keeps_halves():
    _, s = scores({"scoring": {"round_down": False}})
    # D after r1: 30 + ½ = 61/2; B after r3: 30 + 3/2 + ½ = 32
    assert s.mms[0][3] == 61 and s.mms[2][1] == 64


def test_quarter_values_raise_the_unit():
    _, s = scores({"scoring": {"absent_mms": 0.25, "round_down": False}})
    assert s.unit == 4
    # D after r1: 30 + ¼ = 121/4
    assert Fraction(s.mms[0][3], s.unit) == Fraction(121, 4)


def test_absent_nbw_and_bye_mms_settings():
    _, s = scores({"scoring": {"absent_nbw": 1, "bye_mms": 0, "round_down": False}})
    # D absent r1: NBW 1 → after r3 1 + 1 (both win) = 2; C's bye gives NBW 1, MMS 0
    assert s.nbw[2][3] == 4 and s.nbw[2][2] == 2 and s.mms[2][2] == 60


def test_doubled_multiplies_everything():
    _, s = scores({"scoring": {"doubled": True}})
    assert list(s.nbw[-1]) == [6, 6, 4, 4]
    assert list(s.start_mms) == [120] * 4


def test_tables_are_read_only():
    # every criterion shares these tables: a plugin writing into them would change the
    # values of the criteria computed after it (tests/plugins/test_faults.py)
    p, s = scores()
    tables = [p.opponent, p.half_points, p.handicap, p.state, p.unpaired, s.nbw, s.mms]
    for table in tables:
        with pytest.raises(TypeError):
            table[0] = ()
        with pytest.raises(TypeError):
            table[0][0] = 5
    for row in (s.final_nbw, s.final_mms, s.start_mms):
        with pytest.raises(TypeError):
            row[0] = 5
    with pytest.raises(AttributeError):
        p.by_default[1].add(3)
