"""The seed example (REFERENCE.md §2, Sensei's Library "SODOS")."""

from __future__ import annotations

from builders import B, tournament, values

# A beat B, C, C, D; B beat A, C, D, D; C beat B, D, D; D beat A (winner plays Black).
SCHEDULE = [
    [("A", "B"), ("C", "D")],
    [("A", "C"), ("B", "D")],
    [("A", "D"), ("B", "C")],
    [("B", "A"), ("C", "D")],
    [("A", "C"), ("B", "D")],
    [("D", "A"), ("C", "B")],
]


def seed():
    games = [(r + 1, w, loser, B) for r, pairs in enumerate(SCHEDULE) for w, loser in pairs]
    return tournament("ABCD", 6, games)


def test_seed_sodos_sos_and_winner(host):
    standings = host.standings(seed(), system="swiss", criteria=["NBW", "SOS", "SODOS"])
    assert values(standings, "NBW") == {"A": 4, "B": 4, "C": 3, "D": 1}
    assert values(standings, "SODOS") == {"A": 11, "B": 9, "C": 6, "D": 4}
    assert values(standings, "SOS")["A"] == values(standings, "SOS")["B"] == 16
    first = next(standings.rows())
    assert first.player.name == "A" and first.place == 1 and not first.tied
