"""Hypothesis properties of the SOS family (docs/rules.md §2, §4, EGF convention, defaults).

Relabelling players and causality (values after round R ignore later rounds) are in
``tests/engine/test_invariants.py`` for every criterion and convention. Here, the sum rules:

* SODOSW ≤ SOSW for every player when bye/absence points are ≥ 0: each per-round SODOS
  term is the SOS term × a factor in {0, ½, 1}, rounds without a game add 0 to both
  (W virtual opponent 0). Equality for a player who won every round with a game.
* SODOSM ≤ SOSM likewise when every M-form SOS term is ≥ 0 (correction off, no rank
  below the zero rank).
* Σ_p SOSW_p = Σ_q NBW_q × g_q, g_q = rounds 1..R in which q had a game (each game adds
  each player's score once to the opponent's SOS); the same for SOSOSW with SOSW.
* Round robin (each pair meets once): SOSW_p + NBW_p = Σ_q NBW_q for every p;
  with the handicap correction off, SOSM_p + MMS_p = Σ_q MMS_q.
* SOS − SOS-1 is the lowest per-round term and SOS-1 − SOS-2 the second lowest, so
  SOS − SOS-1 ≤ SOS-1 − SOS-2 (R ≥ 2); SOS-1 ≤ SOS in the W form.
* CUSS after R = CUSS after R − 1 + score after R; MMS − NBW = start MMS when byes and
  absences score the same in both (scoring.absent_mms = scoring.absent_nbw).
* The standings order equals the plain definition: sort by (criteria values, tie order).
"""

from __future__ import annotations

import random
from fractions import Fraction

from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Host, Player, Result, Tournament
from sodos_plugin.engine.standings import order_players

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RESULTS = list(Result)
ALL = [
    "NBW", "MMS", "SOSW", "SOSM", "SOSW-1", "SOSM-1", "SOSW-2", "SOSM-2",
    "SODOSW", "SODOSM", "SOSOSW", "SOSOSM", "CUSSW", "CUSSM",
]  # fmt: skip


def engine(config=None) -> Host:
    return builtin_host(config or {})


@st.composite
def swiss_like(draw, full: bool = False):
    """Random rounds; ``full``: every player has a game in every round (n even)."""
    n = draw(st.integers(1, 6)) * 2 if full else draw(st.integers(2, 11))
    rounds = draw(st.integers(1, 5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = tuple(Player(f"P{i}", rank=rng.randrange(-30, 9)) for i in range(n))
    games, byes, absences = [], set(), set()
    for r in range(1, rounds + 1):
        order = list(range(n))
        rng.shuffle(order)
        paired = n if full else rng.randrange(0, n // 2 + 1) * 2
        for i in range(0, paired, 2):
            games.append(
                Game(r, order[i], order[i + 1], rng.choice(RESULTS), rng.choice([0, 0, 2, 9]),
                     rng.random() < 0.1)
            )  # fmt: skip
        for p in order[paired:]:
            kind = rng.random()
            if kind < 0.3:
                byes.add((r, p))
            elif kind < 0.6:
                absences.add((r, p))
    return Tournament("random", rounds, players, tuple(games), frozenset(byes), frozenset(absences))


@st.composite
def round_robins(draw):
    """Circle method: n players (even), n − 1 rounds, every pair meets once."""
    n = draw(st.integers(1, 5)) * 2
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = tuple(Player(f"P{i}", rank=rng.randrange(-30, 9)) for i in range(n))
    ring = list(range(n))
    games = []
    for r in range(1, n):
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if rng.random() < 0.5:
                a, b = b, a
            games.append(
                Game(r, a, b, rng.choice(RESULTS), rng.choice([0, 0, 3]), rng.random() < 0.1)
            )
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return Tournament("round robin", n - 1, players, tuple(games))


def table(host, tournament, system="mcmahon", criteria=ALL, round=None):
    """After ``round``, by default the last scheduled one (unknown results included)."""
    round = tournament.rounds if round is None else round
    s = host.standings(tournament, system=system, criteria=criteria, round=round)
    return {c: [s.value(c, p) for p in range(len(tournament.players))] for c in criteria}


def games_played(tournament, rounds):
    count = [0] * len(tournament.players)
    for g in tournament.games:
        if g.round <= rounds:
            count[g.black] += 1
            count[g.white] += 1
    return count


@PROPERTY
@given(swiss_like())
def test_sodos_w_at_most_sos_w(t):
    v = table(engine(), t)
    for p in range(len(t.players)):
        assert 0 <= v["SODOSW"][p] <= v["SOSW"][p]


@PROPERTY
@given(swiss_like(full=True))
def test_sodos_equals_sos_for_a_player_who_won_every_game(t):
    v = table(engine(), t)
    winners = set(range(len(t.players)))
    for g in t.games:
        b, w = {
            Result.BLACK_WINS: (True, False),
            Result.WHITE_WINS: (False, True),
            Result.BOTH_WIN: (True, True),
        }.get(g.result, (False, False))
        if not b:
            winners.discard(g.black)
        if not w:
            winners.discard(g.white)
    for p in winners:
        assert v["SODOSW"][p] == v["SOSW"][p]
        assert v["SODOSM"][p] == v["SOSM"][p]


@PROPERTY
@given(swiss_like())
def test_sodos_m_at_most_sos_m_without_negative_terms(t):
    v = table(engine({"handicap": {"sos_correction": False}}), t)
    for p in range(len(t.players)):
        assert 0 <= v["SODOSM"][p] <= v["SOSM"][p]


@PROPERTY
@given(swiss_like(), st.data())
def test_sum_of_sos_w_is_scores_times_games(t, data):
    rounds = data.draw(st.integers(0, t.rounds))
    v = table(engine(), t, round=rounds)
    g = games_played(t, rounds)
    assert sum(v["SOSW"]) == sum(nbw * n for nbw, n in zip(v["NBW"], g))
    assert sum(v["SOSOSW"]) == sum(sos * n for sos, n in zip(v["SOSW"], g))


@PROPERTY
@given(round_robins())
def test_round_robin_sos_plus_score_is_the_same_for_everyone(t):
    v = table(engine({"handicap": {"sos_correction": False}}), t)
    total_nbw, total_mms = sum(v["NBW"]), sum(v["MMS"])
    assert {s + n for s, n in zip(v["SOSW"], v["NBW"])} == {total_nbw}
    assert {s + m for s, m in zip(v["SOSM"], v["MMS"])} == {total_mms}


@PROPERTY
@given(swiss_like())
def test_cuts_remove_the_lowest_terms(t):
    v = table(engine(), t)
    for form in "WM":
        sos, one, two = v[f"SOS{form}"], v[f"SOS{form}-1"], v[f"SOS{form}-2"]
        for p in range(len(t.players)):
            if t.rounds >= 2:
                assert sos[p] - one[p] <= one[p] - two[p]
            if form == "W":
                assert two[p] <= one[p] <= sos[p]


@PROPERTY
@given(swiss_like(), st.data())
def test_cuss_adds_the_score_after_each_round(t, data):
    host = engine()
    rounds = data.draw(st.integers(1, t.rounds))
    now = table(host, t, round=rounds)
    before = table(host, t, round=rounds - 1)
    for form, score in (("W", "NBW"), ("M", "MMS")):
        cuss = f"CUSS{form}"
        assert [b + s for b, s in zip(before[cuss], now[score])] == now[cuss]


@PROPERTY
@given(swiss_like())
def test_mms_is_start_plus_nbw_when_points_agree(t):
    host = engine({"scoring": {"absent_mms": 0}})
    v = table(host, t)
    settings_ = host.settings_for(t, system="mcmahon")
    from sodos_plugin.engine.scores import start_scores

    starts = [Fraction(s, 2) for s in start_scores(t, settings_, 2)]
    assert [m - n for m, n in zip(v["MMS"], v["NBW"])] == starts


NAMES = ["a", "A", "b", "B ", "c"]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 12).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.tuples(st.sampled_from(NAMES), st.none() | st.integers(-3, 3)),
                min_size=n,
                max_size=n,
            ),
            st.lists(
                st.tuples(st.lists(st.integers(-3, 3) | st.integers(), min_size=n, max_size=n),
                          st.booleans()),
                max_size=4,
            ),
        )
    )
)  # fmt: skip
def test_order_is_the_plain_sort_by_values_then_tie_order(made):
    entries, columns = made
    players = tuple(Player(name, rank=rank) for name, rank in entries)
    t = Tournament("t", 0, players, ())
    n = len(players)
    cols = [c for c, _ in columns]
    higher = [h for _, h in columns]
    order, places, tied = order_players(t, cols, higher)

    def key(i):
        values = tuple(-c[i] if h else c[i] for c, h in zip(cols, higher))
        p = players[i]
        return values, (-(p.rank if p.rank is not None else -99), p.name.casefold(), i)

    assert order == sorted(range(n), key=key)
    for position, i in enumerate(order):
        equal = [j for j in range(n) if key(j)[0] == key(i)[0]]
        assert places[position] == 1 + sum(key(j)[0] < key(i)[0] for j in range(n))
        assert tied[position] == (len(equal) > 1)
