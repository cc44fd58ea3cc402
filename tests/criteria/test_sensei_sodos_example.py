"""The seed example (docs/rules.md §2, Sensei's Library "SODOS")."""

from __future__ import annotations

from builders import seed, values


def test_seed_sodos_sos_and_winner(host):
    standings = host.standings(seed(), system="swiss", criteria=["NBW", "SOS", "SODOS"])
    assert values(standings, "NBW") == {"A": 4, "B": 4, "C": 3, "D": 1}
    assert values(standings, "SODOS") == {"A": 11, "B": 9, "C": 6, "D": 4}
    assert values(standings, "SOS")["A"] == values(standings, "SOS")["B"] == 16
    first = standings.rows()[0]
    assert first.player.name == "A" and first.place == 1 and not first.tied
