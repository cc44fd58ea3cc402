"""Histories as columns (:class:`~sodos_hookspecs.GameColumns`) and the array helpers the
built-in systems rate them with: the same ratings as the same games as tuples."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import builtin_host
from sodos_hookspecs import (
    Coded,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    InitialRating,
    RatingState,
)

from sodos_plugin.ratings.columns import StepTotals, argsort_ints, levels
from sodos_plugin.ratings.systems import egf

HOST = builtin_host({"cache": {"enabled": False}})


def random_games(seed: int, n: int = 300, players: int = 25) -> list[HistoryGame]:
    rng = random.Random(seed)
    games = []
    for k in range(n):
        b, w = rng.sample(range(players), 2)
        day = f"2024-{1 + k * 12 // n:02}-{1 + k % 28:02}"
        event = f"e{k // 20}"
        games.append(
            HistoryGame(
                day, event, f"p{b}", f"p{w}", rng.choice([0.0, 0.5, 1.0]),
                rng.choice([0, 0, 0, 2, 5]), 6.5, rng.choice([19, 19, 19, 13]), None, f"f{k}",
            )
        )  # fmt: skip
    return sorted(games, key=lambda g: (g.date, g.event, g.source))


def as_columns(games: list[HistoryGame], shuffled: bool) -> GameColumns:
    rows = list(range(len(games)))
    if shuffled:  # rows stored in another order, ``order`` giving the games' order
        random.Random(1).shuffle(rows)
    stored = [None] * len(games)
    for k, r in enumerate(rows):
        stored[r] = games[k]
    names = sorted({g.black for g in games} | {g.white for g in games})
    code = {name: i for i, name in enumerate(names)}
    return GameColumns(
        date=[g.date for g in stored],
        event=Coded(np.array([int(g.event[1:]) for g in stored]), [f"e{i}" for i in range(99)]),
        black=Coded(np.array([code[g.black] for g in stored]), names),
        white=Coded([code[g.white] for g in stored], names),
        result=np.array([g.result for g in stored]),
        handicap=[g.handicap for g in stored],
        komi=[g.komi for g in stored],
        size=np.array([g.size for g in stored]),
        source=[g.source for g in stored],
        order=np.array(rows) if shuffled else None,
    )


@pytest.mark.parametrize("shuffled", [False, True])
def test_columns_are_the_same_games(shuffled):
    games = random_games(3)
    columns = as_columns(games, shuffled)
    assert len(columns) == len(games)
    assert list(columns) == games
    assert columns == games
    assert [columns[k] for k in (0, 7, -1)] == [games[0], games[7], games[-1]]
    with pytest.raises(IndexError):
        columns[len(games)]


@pytest.mark.parametrize("system", ["ogs", "egf", "glicko2", "whr"])
@pytest.mark.parametrize("details", [False, True])
@pytest.mark.parametrize("shuffled", [False, True])
def test_columns_rate_as_tuples(system, details, shuffled):
    games = random_games(7)
    plain = HOST.ratings(GameHistory(tuple(games)), rating=system, details=details)
    columns = HOST.ratings(GameHistory(as_columns(games, shuffled)), rating=system, details=details)
    assert columns.result.final == plain.result.final
    assert list(columns.result.steps) == list(plain.result.steps)


def test_a_column_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="column black"):
        GameColumns(["2024-01-01"], ["e"], [], ["b"], [1.0])


def python_levels(items: list[list[int]]) -> list[int]:
    last: dict[int, int] = {}
    out = []
    for players in items:
        level = max((last.get(p, -1) for p in players), default=-1) + 1
        for p in players:
            last[p] = level
        out.append(level)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_levels_are_one_more_than_the_players_previous_items(seed):
    rng = random.Random(seed)
    pool = rng.randint(2, 30)
    items = [
        rng.sample(range(pool), rng.randint(1, min(pool, 6))) for _ in range(rng.randint(0, 80))
    ]
    item = [i for i, players in enumerate(items) for _ in players]
    player = [p for players in items for p in players]
    assert levels(item, player, len(items)).tolist() == python_levels(items)


def test_argsort_ints_is_a_stable_argsort():
    values = np.random.default_rng(2).integers(0, 50, 1000)
    assert argsort_ints(values).tolist() == np.argsort(values, kind="stable").tolist()
    big = np.array([2**62, 3, 2**62, 0])
    assert argsort_ints(big).tolist() == [3, 1, 0, 2]


def gor_history(seed: int, n: int, low: float, high: float, classes: str = "ABCD", most=9):
    rng = random.Random(seed)
    games = []
    for k in range(n):
        b, w = rng.sample(range(60), 2)
        event = f"t{k // 45}"
        games.append(
            HistoryGame(
                f"2020-{1 + k * 12 // n:02}-01", event, f"p{b}", f"p{w}",
                rng.choice([0.0, 0.5, 1.0]), rng.choice([0, 0, 0, 1, 3, most]), None,
                rng.choice([19] * 9 + [13]), 1 + k % 5, f"f{k}",
            )
        )  # fmt: skip
    events = {
        f"t{e}": HistoryEvent(f"t{e}", f"T {e}", "", rng.choice([*classes, ""]), "")
        for e in range(n // 45 + 1)
    }
    players = {
        f"p{i}": HistoryPlayer(f"p{i}", rng.choice(["3d", "12k", None, "x"])) for i in range(60)
    }
    start = {
        f"p{i}": InitialRating(RatingState(rng.uniform(low, high)), "test") for i in range(0, 60, 2)
    }
    return GameHistory(tuple(games), events, players), start


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [3, -1, 0, 12])
def test_gor_on_arrays_gives_the_per_game_numbers(seed, decimals):
    """The array path (no details) against the per-game path (details), floors, classes,
    handicaps, boards other than 19x19 and seeds included."""
    history, start = gor_history(seed, 900, -900.0, 2800.0, most=4)
    lean = HOST.ratings(history, rating="egf", initial=start, decimals=decimals)
    full = HOST.ratings(history, rating="egf", initial=start, decimals=decimals, details=True)
    assert type(lean.result.steps).__name__ == "StepColumns"  # the array path ran
    assert [s[:6] for s in lean.result.steps] == [s[:6] for s in full.result.steps]
    assert list(lean.result.final.items()) == list(full.result.final.items())
    assert lean.result.initial == full.result.initial
    assert lean.warnings == full.warnings


@pytest.mark.parametrize("chunk", [1, 7, 64, 400])
@pytest.mark.parametrize("seed", range(3))
def test_gor_by_chunks_gives_the_numbers_of_one_pass(monkeypatch, chunk, seed):
    """GoR a chunk of whole tournaments at a time: the steps, final ratings, first
    ratings (given, from ranks, defaults) and warnings of one pass, of the per-game path,
    and without steps the totals the steps give."""
    history, start = gor_history(seed, 900, -900.0, 2800.0, most=4)
    whole = HOST.ratings(history, rating="egf", initial=start)
    full = HOST.ratings(history, rating="egf", initial=start, details=True)
    monkeypatch.setattr(egf, "CHUNK_GAMES", chunk)
    parts = HOST.ratings(history, rating="egf", initial=start)
    assert type(parts.result.steps).__name__ == "StepColumns"  # the array path ran
    assert list(parts.result.steps) == list(whole.result.steps)
    assert [s[:6] for s in parts.result.steps] == [s[:6] for s in full.result.steps]
    assert list(parts.result.final.items()) == list(full.result.final.items())
    assert list(parts.result.initial.items()) == list(full.result.initial.items())
    assert parts.warnings == full.warnings
    lean = HOST.ratings(history, rating="egf", initial=start, steps=False)
    totals = StepTotals.of(whole.result.steps)
    assert lean.result.steps.totals() == totals.totals()
    assert list(lean.result.steps.games) == list(totals.games)  # the players' order too
    assert (len(lean.result.steps), lean.result.steps.finite()) == (len(totals), True)
    assert list(lean.result.final.items()) == list(full.result.final.items())


@pytest.mark.parametrize("grouped", [True, False])
@pytest.mark.parametrize("chunk", [1, 50, 1 << 20])
def test_gor_events_coded_out_of_their_order(monkeypatch, grouped, chunk):
    """A games table's own event codes, in another order than the events are rated:
    the games by event in that order (no rank made per game), or mixed (sorted first);
    the per-game path's numbers either way, by chunks or in one."""
    rng = np.random.default_rng(4)
    events, per, players = 12, 30, 40
    keys = [f"e{k:02d}" for k in range(events)]  # rated in this order: by day
    days = [f"2024-01-{1 + k:02d}" for k in range(events)]
    rank = np.repeat(np.arange(events), per)
    if not grouped:
        rank = rank.reshape(events, per).T.ravel()  # one game of each event in turn
    n = len(rank)
    black = rng.integers(0, players, n)
    white = (black + rng.integers(1, players, n)) % players
    names = [f"p{i}" for i in range(players)]
    history = GameHistory(
        GameColumns(
            date=Coded(rank, days),
            event=Coded(events - 1 - rank, keys[::-1]),  # codes the reverse of ranks
            black=Coded(black, names),
            white=Coded(white, names),
            result=rng.choice([0.0, 0.5, 1.0], n),
            handicap=rng.choice([0, 0, 2], n),
        )
    )
    full = HOST.ratings(history, rating="egf", details=True)
    monkeypatch.setattr(egf, "CHUNK_GAMES", chunk)
    lean = HOST.ratings(history, rating="egf")
    assert type(lean.result.steps).__name__ == "StepColumns"  # the array path ran
    assert [s[:6] for s in lean.result.steps] == [s[:6] for s in full.result.steps]
    assert list(lean.result.final.items()) == list(full.result.final.items())
    assert [s.period for s in full.result.steps[:3]] == ["e00"] * 3


@pytest.mark.parametrize("classes", ["AX", "B"])
def test_gor_at_the_ceiling_or_an_unknown_class_as_the_per_game_path(classes):
    history, start = gor_history(4, 300, 2500.0, 3290.0, classes)
    lean = HOST.ratings(history, rating="egf", initial=start)
    full = HOST.ratings(history, rating="egf", initial=start, details=True)
    assert [s[:6] for s in lean.result.steps] == [s[:6] for s in full.result.steps]
    assert lean.result.final == full.result.final
    assert lean.warnings == full.warnings
    assert any("not rated" in w or "unknown" in w for w in lean.warnings)
