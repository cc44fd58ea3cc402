"""Small helpers to build tournaments by hand in tests."""

from __future__ import annotations

from collections.abc import Iterable

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.engine.ranks import parse_rank

B, W, J = Result.BLACK_WINS, Result.WHITE_WINS, Result.JIGO


def tournament(
    players: Iterable[str | tuple[str, str]],
    rounds: int,
    games: Iterable[tuple],
    *,
    byes: Iterable[tuple[int, str]] = (),
    absences: Iterable[tuple[int, str]] = (),
    settings: dict | None = None,
    odd_pairings: bool = False,
) -> Tournament:
    """``players``: names or (name, rank); ``games``: (round, black, white, result[, handicap
    [, by_default]]) with player names; ``odd_pairings`` as :class:`Tournament` takes it."""
    made = []
    for entry in players:
        name, rank = (entry, None) if isinstance(entry, str) else entry
        made.append(Player(name, rank=None if rank is None else parse_rank(rank)))
    index = {p.name: i for i, p in enumerate(made)}
    built = []
    for g in games:
        r, b, w, result, *rest = g
        handicap = rest[0] if rest else 0
        by_default = rest[1] if len(rest) > 1 else False
        built.append(Game(r, index[b], index[w], result, handicap, by_default))
    return Tournament(
        "test",
        rounds,
        tuple(made),
        tuple(built),
        byes=frozenset((r, index[n]) for r, n in byes),
        absences=frozenset((r, index[n]) for r, n in absences),
        settings=settings or {},
        odd_pairings=odd_pairings,
    )


def values(standings, criterion: str) -> dict[str, object]:
    """{player name: exact value} of one criterion."""
    return {
        p.name: standings.value(criterion, i) for i, p in enumerate(standings.tournament.players)
    }


# The seed (docs/rules.md §2): A beat B, C, C, D; B beat A, C, D, D; C beat B, D, D; D beat A.
# Each pair is (winner, loser); the winner plays Black.
SEED_SCHEDULE = [
    [("A", "B"), ("C", "D")],
    [("A", "C"), ("B", "D")],
    [("A", "D"), ("B", "C")],
    [("B", "A"), ("C", "D")],
    [("A", "C"), ("B", "D")],
    [("D", "A"), ("C", "B")],
]


def seed_games() -> list[tuple]:
    """The seed's double round robin as (round, black, white, result) games."""
    return [(r + 1, w, loser, B) for r, pairs in enumerate(SEED_SCHEDULE) for w, loser in pairs]


def seed():
    """The seed example (docs/rules.md §2, Sensei's Library "SODOS"): 4 players, 6 rounds."""
    return tournament("ABCD", 6, seed_games())


def mixed():
    """5 players, 3 rounds: a bye, an absence, a not-assigned round, handicaps, jigo, forfeit."""
    return tournament(
        [("A", "3d"), ("B", "1d"), ("C", "2k"), ("D", "5k"), ("E", "1k"), ("F", "10k")],
        3,
        [
            (1, "B", "A", B, 2),
            (1, "C", "D", J),
            (2, "A", "C", W),
            (2, "D", "E", B, 3, True),
            (3, "A", "E", B),
            (3, "B", "C", W),
            (3, "D", "F", W, 5),
        ],
        byes=[(1, "E")],
        absences=[(2, "B")],
        settings={"mcmahon": {"bar": "1d"}},
    )
