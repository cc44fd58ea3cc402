"""A store made from a batch run, and a store's ratings as a run's result.

Contract: :func:`from_run` fills an empty store with a batch run's result over a game
history (``sodos ratings``' numbers, not rated again): every game in the history's
order (its id: the game's id, else its source), both players' states before and after
it, every player's final state and start — so that a server starts from its archive and
goes on game by game. :func:`as_result` is the store's ratings as a
:class:`~sodos_hookspecs.RatingResult` (a step per player and game, the final states,
the starts, and the saved state's key of the last game), which the ratings report writes
in today's formats and ``--save-state`` saves.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date as Date
from typing import Any

from sodos_hookspecs import GameHistory, RatingResult, RatingState, RatingStep

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.periods import event_order, events_in_order, game_order


def _result_text(score: float) -> str:
    return {1.0: "B+", 0.0: "W+"}.get(score, "0")


def from_run(store, run: Any) -> int:
    """Load ``run`` (a :class:`~sodos_plugin.ratings.run.RatingRun` of the store's
    system and parameters, game by game) into the empty ``store``; returns the games."""
    if run.system.name.lower() != store.system:
        raise InputError(f"the run is of {run.system.name}, the store of {store.system}")
    if getattr(store.rater, "per_tournament", False):
        return store._write(lambda: _tournaments(store, run))
    games = run.history.games
    steps = run.result.steps
    whole = getattr(store.rater, "whole_history", False)  # WHR: the games, then the fit
    if not whole and len(steps) != 2 * len(games):
        raise InputError("the run has not one step per player and game: not game by game")
    db = store.db

    def work() -> int:
        if db.execute("SELECT 1 FROM games LIMIT 1").fetchone():
            raise InputError("the store has games already: make it from a history when new")
        starts = run.starts()
        final = run.final()
        counts: Counter = Counter()
        last: dict[str, str] = {}
        ids: dict[str, int] = {}
        for g in games:
            counts[g.black] += 1
            counts[g.white] += 1
            last[g.black] = last[g.white] = g.date
        player_id: dict[str, int] = {}
        for name in counts:
            state = final[name]
            player_id[name] = db.execute(
                "INSERT INTO players (key, name, rating, deviation, volatility, start, games, "
                "last_game) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (f"name:{identity_key(name)}", name, *state, starts.get(name, ""),
                 counts[name], last[name]),
            ).lastrowid  # fmt: skip
        game_rows, history_rows = [], []
        names, before, after = _step_columns(steps) if not whole else ([], [], [])
        for k, g in enumerate(games):
            if not whole and (names[2 * k] != g.black or names[2 * k + 1] != g.white):
                raise InputError("the run's steps are not in its games' order")
            gid, content = _posted(g, ids, k + 1)
            seq = k + 1
            game_rows.append(
                (seq, gid, json.dumps(content, sort_keys=True, separators=(",", ":")), g.date,
                 g.time, player_id[g.black], player_id[g.white], g.result, g.handicap, g.komi,
                 g.size)
            )  # fmt: skip
            for i, name in ((2 * k, g.black), (2 * k + 1, g.white)):
                if not whole:
                    history_rows.append((player_id[name], seq, *before[i], *after[i]))
        db.executemany("INSERT INTO games (seq, id, content, date, time, black, white, result, "
                       "handicap, komi, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       game_rows)  # fmt: skip
        db.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", history_rows)
        if whole:
            store._refit()  # the batch run's fit, kept day by day
        return len(games)

    return store._write(work)


def _step_columns(steps) -> tuple[list, list, list]:
    """Each step's player, state before and state after, as lists (from the arrays of
    :class:`~sodos_plugin.ratings.columns.StepColumns` when the steps are columns: no
    object per step)."""
    if all(hasattr(steps, a) for a in ("names", "player", "before", "after")):
        n = len(steps)
        names = [steps.names[p] for p in steps.player.tolist()]

        def rows(columns):
            lists = [[None] * n if c is None else c.tolist() for c in columns]
            return list(zip(*lists))

        return names, rows(steps.before), rows(steps.after)
    return (
        [s.player for s in steps],
        [tuple(s.before) for s in steps],
        [tuple(s.after) for s in steps],
    )


def as_result(store) -> tuple[GameHistory, RatingResult]:
    """The store's games and ratings as a run's history and result."""
    history = store.games()
    rows = store.db.execute(
        "SELECT p.name, g.id, g.date, h.rating_before, h.deviation_before, "
        "h.volatility_before, h.rating, h.deviation, h.volatility FROM history h "
        "JOIN players p ON p.id = h.player JOIN games g ON g.seq = h.seq "
        "ORDER BY h.seq, p.id = g.white"
    ).fetchall()
    steps = [
        RatingStep(name, gid, day, RatingState(rb, db, vb), RatingState(r, d, v), 1)
        for name, gid, day, rb, db, vb, r, d, v in rows
    ]
    starts = dict(store.db.execute("SELECT name, start FROM players WHERE games > 0").fetchall())
    state = _saved(store, history)
    result = RatingResult(
        steps=steps, final=store.ratings(), initial=starts, warnings=[], state=state
    )
    return history, result


def _saved(store, history: GameHistory) -> dict:
    """What the store's system keeps in a saved state besides the players' states (as
    its batch run saves it), so that ``sodos ratings --state`` goes on from the store."""
    games = history.games
    rater = store.rater
    if not games:
        return {}
    if getattr(rater, "per_tournament", False):  # GoR: the last tournament
        ordered, days = events_in_order(history, with_days=True)
        key, own = ordered[-1]
        return {"last_event": list(event_order(days[key], key, own[0]))}
    last = list(game_order(games[-1]))
    if getattr(rater, "whole_history", False):  # WHR: every game (its fit is of all)
        names: dict[str, int] = {}
        rows = [
            [Date.fromisoformat(g.date).toordinal(), names.setdefault(g.black, len(names)),
             names.setdefault(g.white, len(names)), g.result, rater.per_stone * g.handicap]
            for g in games
        ]  # fmt: skip
        return {"names": list(names), "games": rows, "last": last}
    if rater.periodic:  # calendar periods: the last one, each player's last one
        periods = dict(
            store.db.execute(
                "SELECT name, period FROM players WHERE games > 0 AND period IS NOT NULL"
            ).fetchall()
        )
        return {"period": rater.period, "last": max(periods.values()), "periods": periods}
    return {"period": "game", "last": last}


def _tournaments(store, run: Any) -> int:
    """GoR: every tournament of the run's history in its order, each player created at
    the start the run gave him (the ``before`` of his first step: his rank's, his file's
    rating, or the default), each tournament then rated by the store as a posted one is
    — GoR's own run from the players' states, which is the batch run's numbers."""
    db = store.db
    if db.execute("SELECT 1 FROM games LIMIT 1").fetchone():
        raise InputError("the store has games already: make it from a history when new")
    history = run.history
    first: dict[str, RatingState] = {}
    for step in run.result.steps:
        first.setdefault(step.player, step.before)
    starts = run.starts()
    default, _ = store.rater.start()
    ids: dict[str, int] = {}
    player_id: dict[str, int] = {}
    count = 0
    ordered, days = events_in_order(history, with_days=True)
    for key, games in ordered:
        event = history.events.get(key)
        name = event.name if event is not None and event.name else key
        klass = event.tournament_class if event is not None else ""
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (key, name, days[key], klass))
        for g in games:
            for who in (g.black, g.white):
                if who not in player_id:
                    state = first.get(who, default)
                    player_id[who] = db.execute(
                        "INSERT INTO players (key, name, rating, deviation, volatility, start) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (f"name:{identity_key(who)}", who, *state, starts.get(who, "")),
                    ).lastrowid
            gid, content = _posted(g, ids, count + 1)
            db.execute(
                "INSERT INTO games (id, content, date, time, black, white, result, handicap, "
                "komi, size, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, json.dumps(content, sort_keys=True, separators=(",", ":")), g.date,
                 g.time, player_id[g.black], player_id[g.white], g.result, g.handicap, g.komi,
                 g.size, key),
            )  # fmt: skip
            count += 1
        store._rate_event(key)
    return count


def _posted(game, ids: dict[str, int], number: int) -> tuple[str, dict]:
    """A history's game as the store keeps a posted one: its id (the game's own, else its
    source, else its number; one given again gets ``#2``, ``#3`` ...) and its content."""
    gid = game.id or game.source or f"#{number}"
    seen = ids.setdefault(gid, 0)
    ids[gid] = seen + 1
    if seen:
        gid = f"{gid}#{seen + 1}"
    when = game.date if game.time is None else f"{game.date}T{game.time}"
    content = dict(
        id=gid, date=when, black=game.black, white=game.white, result=_result_text(game.result),
        handicap=game.handicap, komi=game.komi, size=game.size, black_id=None, white_id=None,
    )  # fmt: skip
    return gid, content
