"""Conventions for rounds without an opponent (docs/rules.md §4), each on a hand-computed case.

The case: A (1d), B (1k), C (2k), two rounds.
Round 1: A (Black) beats B; C has the bye. Round 2: C (White) beats B by default; A absent.

Real scores (bye 1, absent 0 in NBW, absent ½ in MMS floored):
NBW A 1, B 0, C 2.  MMS (start 30, 29, 28): A 31, B 29, C 30.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from builders import B, W, tournament, values

from sodos_plugin.engine import conventions
from sodos_plugin.errors import ConfigError


def case(settings: dict):
    return tournament(
        [("A", "1d"), ("B", "1k"), ("C", "2k")],
        2,
        [(1, "A", "B", B), (2, "B", "C", W, 0, True)],
        byes=[(1, "C")],
        absences=[(2, "A")],
        settings=settings,
    )


def run(host, system, convention, criteria, **extra):
    config = {"unplayed": {"virtual_opponent": convention}, **extra}
    standings = host.standings(case(config), system=system, criteria=criteria)
    return {c: values(standings, c) for c in criteria}


def half(x: int, y: int = 2) -> Fraction:
    return Fraction(x, y)


def test_egf_default(host):
    got = run(host, "swiss", "egf", ["NBW", "SOS", "SOSOS"])
    assert got["NBW"] == {"A": 1, "B": 0, "C": 2}
    # W: a round without an opponent adds 0.
    assert got["SOS"] == {"A": 0, "B": 3, "C": 0}
    got = run(host, "mcmahon", "egf", ["MMS", "SOS", "SOSOS"])
    assert got["MMS"] == {"A": 31, "B": 29, "C": 30}
    # M: own start MMS for the round without an opponent.
    assert got["SOS"] == {"A": 29 + 30, "B": 31 + 30, "C": 28 + 29}
    # SOSOS M: virtual opponent's SOS = own start MMS x R.
    assert got["SOSOS"]["A"] == 61 + 30 * 2


def test_half_point_virtual_sos(host):
    # Virtual scores: ½ per round not played over the board (bye, absence, forfeit):
    # W: A 1 + ½ = 1½, B 0 + ½ = ½, C ½ + ½ = 1. M adds the start MMS.
    got = run(host, "swiss", "half-point", ["NBW", "SOS"])
    assert got["NBW"] == {"A": 1, "B": 0, "C": 2}  # own scores unchanged
    assert got["SOS"] == {"A": half(1), "B": half(3) + 1, "C": half(1)}
    got = run(host, "mcmahon", "half-point", ["MMS", "SOS"])
    assert got["SOS"] == {"A": half(59) + 30, "B": half(63) + 29, "C": 28 + half(59)}


def test_self_virtual_opponent(host):
    # A: round 2 adds own score 1 minus the round's 0 -> SOS 0 + 1 = 1.
    # C: round 1 adds own score 2 minus the bye point 1 -> SOS 1 + 0 = 1.
    got = run(host, "swiss", "self", ["SOS", "SOSOS"])
    assert got["SOS"] == {"A": 1, "B": 3, "C": 1}
    # SOSOS: the virtual round adds the player's own SOS.
    assert got["SOSOS"] == {"A": 3 + 1, "B": 1 + 1, "C": 1 + 3}


def test_dummy_bye_player(host):
    # Byes are games against a dummy scoring 0; its SOS is C's score 2.
    got = run(host, "swiss", "dummy", ["SOS", "SOSOS"])
    assert got["SOS"] == {"A": 0, "B": 3, "C": 0}
    # C: dummy's SOS 2 + B's SOS 3; A's absence is not a bye: EGF 0.
    assert got["SOSOS"] == {"A": 3, "B": 0, "C": 2 + 3}


def test_aga_phantom(host):
    # Phantom: start 0 (W) + R/2 = 1. A's absence credits ½ to A's opponents.
    got = run(host, "swiss", "aga", ["SOS"])
    assert got["SOS"] == {"A": 0 + 1, "B": half(3) + 2, "C": 1 + 0}
    got = run(host, "mcmahon", "aga", ["SOS"])
    # M: phantom = own start MMS + 1; A as an opponent: 31 - 0 + ½.
    assert got["SOS"] == {"A": 29 + 31, "B": half(63) + 30, "C": 29 + 29}


def test_aga_forced_bye_beats_the_phantom_in_sodos(host):
    # C's bye (forced) is a win against the phantom: SODOS += 1 (W); A's absence
    # (voluntary) is a loss: nothing. Games: A beat B (B's aga score 0); C beat B.
    got = run(host, "swiss", "aga", ["SODOS"])
    assert got["SODOS"] == {"A": 0, "B": 0, "C": 1 + 0}
    got = run(host, "mcmahon", "aga", ["SODOS"])
    # M: A beat B (MMS 29); C: phantom 28 + 1 plus B's 29.
    assert got["SODOS"] == {"A": 29, "B": 0, "C": 29 + 29}
    assert run(host, "mcmahon", "egf", ["SODOS"])["SODOS"]["C"] == 29


def test_doubled_scores(host):
    got = run(host, "swiss", "egf", ["NBW", "SOS"], scoring={"doubled": True})
    assert got["NBW"] == {"A": 2, "B": 0, "C": 4}
    assert got["SOS"] == {"A": 0, "B": 6, "C": 0}


def test_every_named_convention_is_registered():
    assert {"egf", "half-point", "self", "dummy", "aga"} <= set(conventions.CONVENTIONS)
    with pytest.raises(ConfigError, match="known: aga, dummy, egf, half-point, self"):
        conventions.get("fide")


def test_sos_correction_off_breaks_juvisy(capsys):
    """docs/rules.md §2: without the handicap correction only 3/19 Juvisy SOS match."""
    from conformance import GO, compare, standings_json
    from conftest import shared_path

    from sodos_plugin.readers import h9

    path = shared_path(*GO, "opengotha_Tournoi_de_Juvisy.h9")
    _, parsed, _ = h9.read_path(path)
    computed = standings_json(path, capsys, "-o", "handicap.sos_correction=false")
    counts, _ = compare(parsed, computed)
    assert counts["SOS"] == [3, 19]
