"""Engine invariants over random valid tournaments.

* Relabelling: permuting the players' order in the file changes no one's values,
  places or tie flags.
* Causality: standings after round R do not depend on anything in later rounds
  (games, results, byes, absences of rounds > R may be replaced wholesale).

Every built-in criterion is checked, in both systems and under every convention for
rounds without an opponent.
"""

from __future__ import annotations

import random

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Host, Player, Result, Tournament
from sodos_plugin.config.settings import VIRTUAL_OPPONENTS

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RESULTS = list(Result)
RANKS = list(range(-30, 9))


@pytest.fixture(scope="module")
def engine() -> Host:
    return builtin_host()


def random_rounds(rng: random.Random, n: int, first: int, last: int):
    """Games, byes and absences of rounds first..last: each player in at most one."""
    games, byes, absences = [], set(), set()
    for r in range(first, last + 1):
        order = list(range(n))
        rng.shuffle(order)
        paired = rng.randrange(0, n // 2 + 1) * 2
        for i in range(0, paired, 2):
            games.append(
                Game(
                    r,
                    order[i],
                    order[i + 1],
                    rng.choice(RESULTS),
                    rng.choice([0, 0, 0, 1, 2, 5]),
                    rng.random() < 0.1,
                )
            )
        for p in order[paired:]:
            kind = rng.random()
            if kind < 0.3:
                byes.add((r, p))
            elif kind < 0.6:
                absences.add((r, p))
    return games, byes, absences


@st.composite
def tournaments(draw):
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = tuple(
        Player(
            f"P{i}",
            rank=rng.choice(RANKS),  # MMS (always computed here) needs every rank
            rating=rng.choice([1200, 1850, 2100]),  # and RATING every rating
            smms_correction=rng.choice([0, 0, 0, 1, -1]),
        )
        for i in range(n)
    )
    games, byes, absences = random_rounds(rng, n, 1, rounds)
    config = {
        "unplayed": {"virtual_opponent": draw(st.sampled_from(VIRTUAL_OPPONENTS))},
        "mcmahon": {"bar": draw(st.sampled_from(["3d", "1k", "5k"]))},
    }
    tournament = Tournament(
        "random", rounds, players, tuple(games), frozenset(byes), frozenset(absences), config
    )
    return tournament, rng


def snapshot(engine: Host, tournament: Tournament, system: str, round_number: int, skip=()):
    """{name: (place, tied, {criterion: value})} for every built-in criterion."""
    criteria = sorted(set(engine.registry.criteria) - set(skip))
    standings = engine.standings(tournament, system=system, criteria=criteria, round=round_number)
    return {row.player.name: (row.place, row.tied, row.values) for row in standings.rows()}, [
        tournament.players[i].name for i in standings.order
    ]


@PROPERTY
@given(tournaments(), st.sampled_from(["swiss", "mcmahon"]), st.randoms(use_true_random=False))
def test_relabelling_players_changes_nothing(engine, made, system, shuffler):
    tournament, _ = made
    n = len(tournament.players)
    new_index = list(range(n))
    shuffler.shuffle(new_index)  # old index -> new index
    players = [None] * n
    for old, new in enumerate(new_index):
        players[new] = tournament.players[old]
    relabelled = Tournament(
        tournament.name,
        tournament.rounds,
        tuple(players),
        tuple(
            Game(
                g.round, new_index[g.black], new_index[g.white], g.result, g.handicap, g.by_default
            )
            for g in reversed(tournament.games)
        ),  # fmt: skip
        frozenset((r, new_index[p]) for r, p in tournament.byes),
        frozenset((r, new_index[p]) for r, p in tournament.absences),
        tournament.settings,
    )
    before, order_before = snapshot(engine, tournament, system, tournament.rounds)
    after, order_after = snapshot(engine, relabelled, system, tournament.rounds)
    assert after == before
    # names are unique, so even the order inside a tie (rank, then name) is the same
    assert order_after == order_before


@PROPERTY
@given(tournaments(), st.sampled_from(["swiss", "mcmahon"]), st.data())
def test_later_rounds_do_not_change_earlier_standings(engine, made, system, data):
    tournament, rng = made
    cut = data.draw(st.integers(0, tournament.rounds))
    extra = data.draw(st.integers(0, 2))
    rounds = tournament.rounds + extra
    kept = [g for g in tournament.games if g.round <= cut]
    games, byes, absences = random_rounds(rng, len(tournament.players), cut + 1, rounds)
    changed = Tournament(
        tournament.name,
        rounds,
        tournament.players,
        tuple(kept + games),
        frozenset({(r, p) for r, p in tournament.byes if r <= cut} | byes),
        frozenset({(r, p) for r, p in tournament.absences if r <= cut} | absences),
        tournament.settings,
    )
    # STS (and SOSTS) depend on the number of rounds scheduled by definition (their
    # knock-out is the last three rounds, docs/rules.md §5), not on later results
    skip = ("STS", "SOSTS")
    assert snapshot(engine, changed, system, cut, skip) == snapshot(
        engine, tournament, system, cut, skip
    )


def test_causality_check_can_fail(engine):
    """The property above is not vacuous: a later game does change the final standings."""
    players = tuple(Player(name, rank=0, rating=2100) for name in "ABC")
    one = Tournament("t", 2, players, (Game(1, 0, 1, Result.BLACK_WINS),))
    two = Tournament(
        "t", 2, players, (Game(1, 0, 1, Result.BLACK_WINS), Game(2, 1, 2, Result.BLACK_WINS))
    )
    skip = ("STS", "SOSTS")  # no McMahon bar here
    assert snapshot(engine, one, "swiss", 1, skip) == snapshot(engine, two, "swiss", 1, skip)
    assert snapshot(engine, one, "swiss", 2, skip) != snapshot(engine, two, "swiss", 2, skip)
