"""Runs that keep no steps (``steps=False``: the answer is the final ratings only) give
exactly what runs that keep them give, for every output that does not show steps; the
OGS preset's chunked pass gives the numbers of one pass over the whole history."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from conftest import builtin_host
from sodos_hookspecs import Coded, GameColumns, GameHistory, HistoryGame

from sodos_plugin import Host
from sodos_plugin.ratings import columns
from sodos_plugin.ratings.columns import StepTotals
from sodos_plugin.ratings.report import needs_steps, write
from sodos_plugin.ratings.systems import glicko2
from tests.conftest import shared_path

HOST = builtin_host({"cache": {"enabled": False}})
SYSTEMS = ("ogs", "egf", "glicko2", "whr")


def outputs_without_steps(run) -> dict[str, str]:
    """Every output that shows no step: the table, the CSV of final ratings, the saved
    state, the totals."""
    out = {}
    for fmt in ("table", "csv"):
        stream = io.StringIO()
        write(run, fmt, stream)
        out[fmt] = stream.getvalue()
    out["final"] = repr(list(run.final().items()))
    out["totals"] = repr(run.totals())
    out["starts"] = repr(run.starts())
    out["warnings"] = repr(run.warnings)
    if run.system.saves_state and run.last_day():
        out["state"] = repr(run.saved_state())
    return out


def assert_same_without_steps(history, system: str, **params) -> None:
    kept = HOST.ratings(history, rating=system, steps=True, **params)
    lean = HOST.ratings(history, rating=system, steps=False, **params)
    assert kept.kept_steps()
    assert outputs_without_steps(lean) == outputs_without_steps(kept)
    if system != "whr":  # (WHR's fit holds every game: it keeps its steps)
        assert not lean.kept_steps()
        assert len(lean.result.steps) == len(kept.result.steps)


@pytest.mark.parametrize("folder", ["sgf", "server-archives"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_real_archives_same_final_ratings_without_steps(folder, system):
    history = HOST.history([shared_path(folder)])
    assert len(history.games) > 5
    assert_same_without_steps(history, system)


@pytest.mark.parametrize("period", ["game", "day", "event"])
def test_ogs_periods_same_without_steps(period):
    history = HOST.history([shared_path("sgf")])
    assert_same_without_steps(history, "ogs", period=period)


def random_history(seed: int, n: int, players: int) -> GameHistory:
    rng = np.random.default_rng(seed)
    black = rng.integers(0, players, n)
    white = (black + rng.integers(1, players, n)) % players
    days = [f"2024-{1 + d // 28:02}-{1 + d % 28:02}" for d in range(336)]
    day = np.sort(rng.integers(0, len(days), n))
    names = [f"p{i}" for i in range(players + 3)]  # three names that play no game
    ids = [f"g{k}" for k in range(n)]
    return GameHistory(
        GameColumns(
            date=Coded(day, days),
            event=ids,
            black=Coded(black, names),
            white=Coded(white, names),
            result=rng.choice([0.0, 0.5, 1.0], n),
            handicap=rng.choice([0, 0, 0, 2, 4], n),
            komi=rng.choice([0.5, 6.5, 7.5], n),
            size=rng.choice([9, 13, 19, 19], n),
            source=ids,
        )
    )


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_ogs_chunks_give_the_numbers_of_one_pass(monkeypatch, chunk):
    history = random_history(3, 700, 40)
    whole = HOST.ratings(history, rating="ogs", handicap="effective")
    steps = list(whole.result.steps)
    monkeypatch.setattr(glicko2, "CHUNK", chunk)
    monkeypatch.setattr(columns, "CHUNK", chunk)
    parts = HOST.ratings(history, rating="ogs", handicap="effective")
    assert list(parts.result.steps) == steps
    assert parts.result.final == whole.result.final
    lean = HOST.ratings(history, rating="ogs", handicap="effective", steps=False)
    assert outputs_without_steps(lean) == outputs_without_steps(whole)
    # and the per-game path (details) agrees on every step
    detailed = HOST.ratings(history, rating="ogs", handicap="effective", details=True)
    assert [(s.player, s.before, s.after) for s in detailed.result.steps] == [
        (s.player, s.before, s.after) for s in steps
    ]


def test_gor_columns_same_without_steps():
    rng = random.Random(5)
    games = []
    for k in range(600):
        b, w = rng.sample(range(30), 2)
        day = f"2024-{1 + k // 60:02}-{1 + k % 28:02}"
        games.append(
            HistoryGame(day, f"e{k // 20}", f"p{b}", f"p{w}", rng.choice([0.0, 1.0]), 0, 6.5)
        )
    games.sort(key=lambda g: (g.date, g.event))
    assert_same_without_steps(HOST.history(games=games), "egf")


def test_steps_not_kept_are_not_read():
    history = random_history(4, 50, 8)
    lean = HOST.ratings(history, rating="ogs", steps=False)
    assert isinstance(lean.result.steps, StepTotals)
    with pytest.raises(LookupError, match="not kept"):
        list(lean.result.steps)
    # details need steps: asked with details, they are kept
    assert HOST.ratings(history, rating="ogs", steps=False, details=True).kept_steps()


def test_needs_steps_by_answer():
    assert not needs_steps("table") and not needs_steps("CSV")
    assert needs_steps("table", history=True) and needs_steps("csv", player="Ann")
    assert needs_steps("json") and needs_steps("html")


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_cli_final_ratings_unchanged(fmt, capsys):
    from sodos_plugin.cli import main

    folder = shared_path("sgf")
    argv = ["ratings", str(folder), "--rating", "ogs", "--skip-bad", "--no-cache"]
    assert main([*argv, "--format", fmt]) == 0
    lean = capsys.readouterr().out
    run = Host({"cache": {"enabled": False}}, config_file=False).ratings(
        Host({"cache": {"enabled": False}}, config_file=False).history([folder]),
        rating="ogs",
    )
    stream = io.StringIO()
    write(run, fmt, stream, messages=False)  # not a terminal: the messages go to stderr only
    assert lean == stream.getvalue()
