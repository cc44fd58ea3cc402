"""The conventions each system takes from its own sources (docs/rules.md §10.3-10.7):
GoR's floor per formula, Glicko-2's seeding RD, OGS's effective handicap, WHR iterated
to a tolerance. Hand-computed cases, each from the source's formula."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from conftest import builtin_host
from sodos_hookspecs import GameHistory, HistoryGame, HistoryPlayer, InitialRating, RatingState

from sodos_plugin.ratings.systems import egf, glicko2, whr

HOST = builtin_host({"cache": {"enabled": False}})


# -- GoR: the floor each formula came with ----------------------------------------------


def losses(n: int, loser: str = "low", winner: str = "top") -> GameHistory:
    games = tuple(
        HistoryGame(f"2024-01-{k + 1:02d}", f"t{k}", loser, winner, 0.0) for k in range(n)
    )
    return GameHistory(games)


def test_pre2021_floors_at_100_and_2021_at_minus_900():
    start = {"low": InitialRating(RatingState(150.0)), "top": InitialRating(RatingState(200.0))}
    old = HOST.ratings(losses(12), formula="pre2021", initial=start, details=True)
    assert old.result.final["low"].rating == 100.0
    assert old.shown_parameters()["floor"] == 100.0
    assert any(label == "floor 100" for s in old.steps_of("low") for label, _ in s.parts)
    new = HOST.ratings(losses(12), initial=start)
    assert new.result.final["low"].rating < 100.0 and new.shown_parameters()["floor"] == -900.0
    assert new.as_dict()["parameters"]["floor"] == -900.0
    chosen = HOST.ratings(losses(12), formula="pre2021", initial=start, floor=-900)
    assert chosen.result.final["low"].rating < 100.0  # a floor set is the floor used
    deep = {"low": InitialRating(RatingState(-880.0)), "top": InitialRating(RatingState(-880.0))}
    assert HOST.ratings(losses(1), initial=deep).result.final["low"].rating == -900.0


def test_pre2021_grades_below_20k_enter_at_20k():
    players = {"low": HistoryPlayer("low", "25k"), "top": HistoryPlayer("top", "1d")}
    history = GameHistory(losses(1).games, players=players)
    for details in (False, True):
        old = HOST.ratings(history, formula="pre2021", details=details)
        assert old.result.steps[0].before.rating == 100.0
        new = HOST.ratings(history, details=details)  # the 2021 scale reaches 30k
        assert new.result.steps[0].before.rating == -400.0


@pytest.mark.parametrize("formula", ["2021", "pre2021"])
def test_gor_terms_of_a_tournament_are_each_players_game(formula):
    """The one form of the GoR update (game_terms: each game's Black, then each game's
    White) gives each player what his one game gives him: the stones inside Black's Se
    only, White's score 1 - Black's, the class weight on the change only."""
    rating = np.array([1800.0, 2100.0, 2650.0])
    black, white = np.array([0, 2, 1]), np.array([1, 0, 2])
    result, stones = np.array([1.0, 0.5, 0.0]), np.array([3, 0, 1])
    terms = egf.game_terms(rating, black, white, result, stones, 0.75, formula)
    n = len(black)
    for k in range(n):
        b, w = rating[black[k]], rating[white[k]]
        mine = egf.game_contribution(b, w, result[k], stones[k], 0, formula)
        theirs = egf.game_contribution(w, b, 1.0 - result[k], 0, stones[k], formula)
        assert terms.expected[k] == mine["expected"]
        assert terms.part[k] == mine["con_times_difference"]
        assert terms.change[k] == mine["change"] * 0.75
        assert terms.change[k + n] == theirs["change"] * 0.75
        assert (mine["expected"] + theirs["expected"] == pytest.approx(1.0)) == (formula == "2021")
    assert terms.inside[0] == 1800.0 + 250.0 and terms.inside[n] == 2100.0


def test_gor_stones_go_to_one_player_of_a_game():
    with pytest.raises(ValueError, match="one player of a game"):
        egf.game_contribution(1800.0, 2100.0, 1.0, 2, 1)
    assert egf.game_contribution(2000.0, 2000.0, 1.0, 0, 0)["change"] > 0


# -- Glicko-2 and OGS: a rank's RD, the effective handicap --------------------------------


@pytest.mark.parametrize("system", ["glicko2", "ogs"])
def test_a_rank_seeds_with_deviation_350(system):
    players = {"a": HistoryPlayer("a", "3d"), "b": HistoryPlayer("b", "5k")}
    history = GameHistory((HistoryGame("2024-01-01", "t", "a", "b", 1.0),), players=players)
    first = HOST.ratings(history, rating=system).result.steps[0].before
    assert first.deviation == 350.0  # goratings' Glicko2Entry default
    assert HOST.rating_system(system)[0].rank_to_rating("3d") == first
    assert first.rating == pytest.approx(525 * math.exp(32 / 23.15))  # 3d is 32 (30k 0)


@pytest.mark.parametrize(
    ("handicap", "size", "komi", "rules", "ranks"),
    [
        (0, 19, 6.0, "japanese", 0.0),  # goratings asserts: perfect komi is even
        (0, 9, 7.0, "aga", 0.0),
        (0, 13, 7.0, "chinese", 0.0),
        (0, 19, 6.5, "japanese", -0.5 / 12),
        (2, 19, 0.5, "japanese", (6 - 0.5 + 12) / 12),
        (2, 9, 0.5, "chinese", (7 - (0.5 + 2) + 13) * 6 / 12),
        (3, 13, 0.5, "aga", (7 - (0.5 + 2) + 26) * 3 / 12),
        (1, 19, 0.5, "korean", (6 - 0.5) / 12),
        (4, 19, 0.5, "nz", (7 - 0.5 + 39) / 12),
    ],
)
def test_effective_handicap_is_goratings_rank_difference(handicap, size, komi, rules, ranks):
    got = glicko2.effective_handicap([handicap], [size], [komi], rules)[0]
    assert got == pytest.approx(ranks, abs=1e-12)


def test_ogs_sees_the_opponent_moved_by_the_effective_handicap():
    game = HistoryGame("2024-01-01", "g", "b", "w", 1.0, handicap=2, komi=0.5, size=9)
    start = {n: InitialRating(RatingState(1500.0, 100.0, 0.06)) for n in "bw"}
    run = HOST.ratings(GameHistory((game,)), rating="ogs", initial=start, details=True)
    (black,) = run.steps_of("b")
    (white,) = run.steps_of("w")
    d = (6 - 0.5 + 12) * 6 / 12
    rank = glicko2.rating_to_rank(1500.0)
    assert black.details[0]["head_start"] == pytest.approx(d)
    assert black.details[0]["opponent_rating"] == pytest.approx(
        glicko2.rank_to_rating_value(rank - d)
    )
    assert white.details[0]["opponent_rating"] == pytest.approx(
        glicko2.rank_to_rating_value(rank + d)
    )
    stones = HOST.ratings(GameHistory((game,)), rating="ogs", initial=start, handicap="ranks")
    assert stones.result.final["b"] != run.result.final["b"]  # OGS's old rule: 2 ranks
    fast = HOST.ratings(GameHistory((game,)), rating="ogs", initial=start)  # the array path
    assert fast.result.final == run.result.final


def test_ogs_without_komi_counts_the_stones_and_says_so():
    game = HistoryGame("2024-01-01", "g", "b", "w", 1.0, handicap=3)
    run = HOST.ratings(GameHistory((game,)), rating="ogs", details=True)
    assert run.steps_of("b")[0].details[0]["head_start"] == 3.0
    assert any("1 game(s) without komi" in w for w in run.warnings)
    fast = HOST.ratings(GameHistory((game,)), rating="ogs")
    assert fast.result.final == run.result.final and fast.warnings == run.warnings


# -- WHR: to a tolerance -----------------------------------------------------------------


def synthetic(n: int, players: int, days: int, seed: int = 3):
    rng = random.Random(seed)
    strength = [rng.gauss(0, 300) for _ in range(players)]
    out = []
    for k in range(n):
        b = rng.randrange(players)
        w = rng.randrange(players - 1)
        w += w >= b
        p = 1 / (1 + 10 ** ((strength[w] - strength[b]) / 400))
        out.append((f"p{b}", f"p{w}", 1.0 if rng.random() < p else 0.0, k * days // n, 0.0))
    return out


def test_whr_iterates_to_its_tolerance():
    games = synthetic(600, 40, 120)
    converged = whr.fit(games, iterations=5000, tolerance=1e-10)
    default = whr.fit(games, iterations=1000, tolerance=1e-4)
    fixed = whr.fit(games, iterations=50)  # GoShrine's count

    def worst(fitted):
        return max(abs(a[1] - b[1]) for n in converged for a, b in zip(converged[n], fitted[n]))

    assert worst(default) < 0.005  # every printed digit (2 decimals) right
    assert worst(fixed) > 0.01  # what 50 passes leave
    assert 50 < default.passes < 1000


def test_whr_says_when_it_did_not_converge():
    history = GameHistory(
        tuple(
            HistoryGame(f"2024-01-{d + 1:02d}", "e", b, w, s)
            for b, w, s, d, _ in synthetic(60, 6, 20)
        )
    )
    run = HOST.ratings(history, rating="whr", iterations=2)
    assert any("not converged after 2 passes" in w for w in run.warnings)
    assert not any("not converged" in w for w in HOST.ratings(history, rating="whr").warnings)
