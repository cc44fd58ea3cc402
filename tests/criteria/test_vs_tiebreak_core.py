"""SOSW and SODOSW equal tiebreak-core's FIDE Buchholz and Sonneborn-Berger (independent code).

In a fully played Swiss without draws or byes, Buchholz (FIDE C.07 §8.1) is the sum
of the opponents' scores = SOSW, and Sonneborn-Berger (§9.1) the sum of the scores
of the opponents beaten = SODOSW (docs/rules.md §2). The tournament is the benchmark's
generator (benchmarks/vs_tiebreak_core.py) at a small size; no timing here.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest
from conftest import ROOT

tiebreak_core = pytest.importorskip("tiebreak_core", reason="tiebreak-core (test extra) missing")
sys.path.insert(0, str(ROOT / "benchmarks"))
from vs_tiebreak_core import swiss, to_tiebreak_core  # noqa: E402


@pytest.mark.parametrize(("players", "rounds", "seed"), [(40, 7, 1), (100, 9, 2)])
def test_buchholz_and_sonneborn_berger_equal_sosw_and_sodosw(host, players, rounds, seed):
    tournament = swiss(players, rounds, seed)
    ranked = tiebreak_core.rank_standings_strict(
        to_tiebreak_core(tournament),
        ["buchholz", "sonneborn_berger"],
        total_rounds=rounds,
        ruleset="fide-2026",
    )
    standings = host.standings(tournament, system="swiss", criteria=["NBW", "SOSW", "SODOSW"])
    theirs = {p.player_id - 1: p.values for p in ranked.players}
    assert len(theirs) == players
    for i in range(players):
        assert Fraction(theirs[i]["buchholz"]) == standings.value("SOSW", i)
        assert Fraction(theirs[i]["sonneborn_berger"]) == standings.value("SODOSW", i)
    # not vacuous: the values spread, and SOS differs from SODOS for most players
    assert len({standings.value("SOSW", i) for i in range(players)}) > 5
