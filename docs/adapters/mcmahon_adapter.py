"""Pairing by sodos's order inside `mcmahon` 0.3.0 (PyPI), the host's own code unchanged.

`mcmahon` is a McMahon pairer: ``Tournament.make_pairing(rn)`` builds a weighted
matching whose seeding costs come from each player's place inside its score group, and
that place comes from one public method, ``Tournament.sorted_participants(rn)``, which
sorts by score and rank only. :class:`SodosTournament` overrides that method and nothing
else: it calls ``super()`` first (the host's score cache runs as before), then sorts the
host's list by (the host's score, sodos's place, rank), so that players equal on score
are placed by sodos's criteria (by default MMS, SOS, SODOS) in the host's own pairing.

The host asks for the order once per candidate pair (hundreds of times a round), so the
standings are computed once per state of the tournament: the key is the round asked and
every game (players, round, result, handicap, by default) and participation; a result
entered or a game added is a new state.

Why this is an example and not part of the package: `mcmahon` declares no licence in its
metadata (no licence field or classifier, no licence file in its wheel), so nobody may
redistribute it or build on it as a dependency; sodos neither imports nor requires it.
The file ships with the docs (``sodos docs --path``) and runs against a copy of the host
its user installs. It needs Python 3.10 (the host's ``Requires-Python <3.11``)::

    pip install --target /tmp/mcmahon-host mcmahon==0.3.0 scipy
    PYTHONPATH=/tmp/mcmahon-host python3.10 docs/adapters/mcmahon_adapter.py 1

plays the tournament of seed 1 twice, with the host's order and with sodos's, and prints
each round's pairings and the score groups sodos's places reordered. docs/plugins.md
explains it as the model for a program without a plugin seam; tests/docs/
test_mcmahon_adapter.py runs it; benchmarks/mcmahon_host.py measures its cost.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from operator import attrgetter

from mcmahon.game import Result as HostResult
from mcmahon.participant import Participant
from mcmahon.tournament import Tournament as HostTournament

from sodos_plugin import Game, Host, Player, Result, Tournament

#: the host's results as sodos's (the host scores UNKNOWN as a loss for both)
RESULTS = {
    HostResult.UNKNOWN: Result.UNKNOWN,
    HostResult.WHITE_WINS: Result.WHITE_WINS,
    HostResult.BLACK_WINS: Result.BLACK_WINS,
    HostResult.DRAW: Result.JIGO,
    HostResult.BOTH_WIN: Result.BOTH_WIN,
    HostResult.BOTH_LOSE: Result.BOTH_LOSE,
}


#: a game's part of the state: what sodos's standings read from it
GAME_STATE = attrgetter("white", "black", "round_number", "result", "handicap", "by_default")


class SodosTournament(HostTournament):
    """The host's ``Tournament``, placing players of equal score by sodos's standings.

    :param criteria: sodos's placement criteria (``host.resolve_criteria`` names).
    :param sodos: the :class:`sodos_plugin.Host` to ask (default: built-ins only, no
        config file), for a program that configures sodos itself.
    The other arguments are the host's own.
    """

    def __init__(self, *args, criteria=("MMS", "SOS", "SODOS"), sodos=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.criteria = list(criteria)
        self.sodos = sodos or Host({"system": "mcmahon"}, config_file=False, entry_points=False)
        self._kept: dict[int, tuple] = {}  # rn -> (state, places, host's order, order)
        self.standings_computed = 0  # how often sodos computed standings (the cost)

    def sorted_participants(self, rn):
        by_host = super().sorted_participants(rn)  # score, then rank: ascending
        state = self.state()
        kept = self._kept.get(rn)
        if kept is None or kept[0] != state:
            place = self._places(rn)
            # The host lists the weakest first, so a better (smaller) place goes later.
            order = sorted(by_host, key=lambda p: (self.get_score_x2(p, rn), -place[id(p)], p.rank))
            kept = self._kept[rn] = (state, place, by_host, order)
        return list(kept[3])

    def orders(self, rn) -> tuple[list, list, dict[int, int]]:
        """For round ``rn`` as the tournament stands: the host's own order, sodos's
        order, and each participant's place (by ``id``) in sodos's standings after
        sodos's rounds 1..rn (the host counts rounds from 0)."""
        self.sorted_participants(rn)
        _, place, by_host, order = self._kept[rn]
        return by_host, order, place

    def _places(self, rn) -> dict[int, int]:
        standings = self.sodos.standings(self.as_sodos(), round=max(rn, 0), criteria=self.criteria)
        self.standings_computed += 1
        ids = [id(p) for p in self.participants]
        return {ids[i]: place for i, place in zip(standings.order, standings.places)}

    def state(self) -> tuple:
        """What sodos's standings depend on, as a value compared in C (tuples compare
        their items by identity first): every game's players, round, result, handicap
        and by-default flag, and every participant with its rank, start score and
        participation."""
        games = tuple(map(GAME_STATE, self.games))
        players = tuple(
            (p, p.rank, p.start_mms, *p.participation.values()) for p in self.participants
        )
        return games, players

    def as_sodos(self) -> Tournament:
        """The host's participants and games as a sodos tournament (rounds from 1)."""
        index = {id(p): i for i, p in enumerate(self.participants)}
        players = tuple(
            Player(
                f"{p.last_name} {p.first_name}".strip(),
                rank=p.rank,
                country=p.country,
                # The host adds start_mms to a score counted in half points.
                start_score=Fraction(p.start_mms, 2),
                id=str(i),
            )
            for i, p in enumerate(self.participants)
        )
        games = tuple(
            Game(
                g.round_number + 1,
                index[id(g.black)],
                index[id(g.white)],
                RESULTS[g.result],
                g.handicap,
                g.by_default,
            )
            for g in self.games
        )
        status = [
            (r + 1, index[id(p)], s)
            for p in self.participants
            for r, s in p.participation.items()
            if s.is_absent_or_bye()
        ]
        return Tournament(
            "mcmahon",
            rounds=self.number_of_rounds,
            players=players,
            games=games,
            byes=frozenset((r, i) for r, i, s in status if s.is_bye()),
            absences=frozenset((r, i) for r, i, s in status if s.is_absent()),
        )


# -- a seeded tournament, played with the host's order and with sodos's ---------------


def play(cls, seed, players=12, rounds=5, paired=None, **kwargs):
    """A tournament of ``cls`` paired round by round by the host's ``make_pairing``
    (``paired(tournament, rn)`` is called after each); results drawn from the seed, the
    round and the two players (two runs that pair alike get alike results), the
    stronger player more likely to win."""
    draw = random.Random(f"players {seed}")
    tournament = cls(number_of_rounds=rounds, **kwargs)
    for i in range(players):
        rating = draw.randrange(1700, 2200, 100)  # 4k..1d: score groups of several
        tournament.add_participant(Participant(f"P{i + 1:02}", "", "XX", rating))
    tournament.reset_start_mms()
    for rn in range(rounds):
        tournament.make_pairing(rn)
        if paired is not None:
            paired(tournament, rn)
        for game in tournament.games:
            if game.round_number == rn:
                game.result = result(seed, game)
    return tournament


def result(seed, game):
    names = sorted((game.white.last_name, game.black.last_name))
    draw = random.Random(f"{seed} {game.round_number} {names}")
    gap = game.white.rank - game.black.rank
    white_wins = draw.random() < min(0.9, max(0.1, 0.5 + 0.1 * gap))
    return HostResult.WHITE_WINS if white_wins else HostResult.BLACK_WINS


def pairings(tournament, rn) -> list[str]:
    """Round ``rn``'s pairs, each ``P01-P07``, in order."""
    pairs = (sorted((g.white.last_name, g.black.last_name)) for g in tournament.games
             if g.round_number == rn)  # fmt: skip
    return sorted("-".join(pair) for pair in pairs)


def moved(tournament, rn) -> list[str]:
    """The score groups whose order sodos changed when round ``rn`` was paired: names
    strongest first, each with its rank and sodos place."""
    by_host, order, place = tournament.orders(rn)
    lines = []
    for score in sorted({tournament.get_score_x2(p, rn) for p in order}, reverse=True):
        host = [p for p in reversed(by_host) if tournament.get_score_x2(p, rn) == score]
        ours = [p for p in reversed(order) if tournament.get_score_x2(p, rn) == score]
        if host != ours:
            name = lambda p: f"{p.last_name} ({rank_name(p.rank)}, {place[id(p)]})"  # noqa: E731
            lines.append(f"score_x2 {score}: host {', '.join(map(name, host))}"
                         f" -> sodos {', '.join(map(name, ours))}")  # fmt: skip
    return lines


def rank_name(rank: int) -> str:
    return f"{rank + 1}d" if rank >= 0 else f"{-rank}k"


def main(seed=1) -> None:
    own = play(HostTournament, seed)
    seen = {}
    ours = play(SodosTournament, seed, paired=lambda t, rn: seen.setdefault(rn, moved(t, rn)))
    print(f"seed {seed}: {len(own.participants)} players, {own.number_of_rounds} rounds, "
          f"sodos criteria {','.join(ours.criteria)}; (rank, sodos place)")  # fmt: skip
    for rn in range(own.number_of_rounds):
        a, b = pairings(own, rn), pairings(ours, rn)
        print(f"round {rn + 1}: {'same' if a == b else 'differ'}")
        print(f"  host:  {' '.join(a)}\n  sodos: {' '.join(b)}")
        for line in seen[rn]:
            print(f"  {line}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
