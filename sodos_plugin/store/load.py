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

import contextlib
import sqlite3
from collections import Counter
from datetime import date as Date
from itertools import chain, count, islice, repeat
from operator import attrgetter
from typing import Any

from sodos_hookspecs import GameHistory, RatingResult, RatingState, RatingStep

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.periods import event_order, events_in_order, game_order
from sodos_plugin.store.games import LOADED, Posted
from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")  # imported when a store is loaded


def from_run(store, run: Any) -> int:
    """Load ``run`` (a :class:`~sodos_plugin.ratings.run.RatingRun` of the store's
    system and parameters, game by game) into the empty ``store``; returns the games.

    In one transaction, as a bulk load, in two passes over the history's columns
    (:func:`_chunks`: ``LOAD_CHUNK`` games' lists at a time, no object per game, so that
    the memory beyond the run's own is per chunk and per player): the first numbers the
    players in order of first appearance and counts their games; the second makes the
    games' rows. Each table's rows go to ``executemany`` (the history's in its key's
    order: appended, not inserted here and there), and in SQLite the secondary indexes
    are made after the rows (one sort each, not an entry per row) with a large page
    cache for the load only (:func:`_bulk`). A loaded game keeps no content
    (:data:`~.games.LOADED`: made from its row when read); the rest of the finished store
    is what adding its rows one by one makes, and as durable (the store's
    ``synchronous``; all or nothing)."""
    if run.system.name.lower() != store.system:
        raise InputError(f"the run is of {run.system.name}, the store of {store.system}")
    with _journal(store.db):
        if getattr(store.rater, "per_tournament", False):
            return store._write(lambda: _tournaments(store, run))
        if store.rater.periodic:
            return store._write(lambda: _by_periods(store, run))
        return _by_games(store, run)


def _by_games(store, run: Any) -> int:
    """A history rated game by game (OGS, Glicko-2 per game, WHR): the bulk load of
    :func:`from_run`."""
    games = run.history.games
    steps = run.result.steps
    whole = getattr(store.rater, "whole_history", False)  # WHR: the games, then the fit
    if not whole and len(steps) != 2 * len(games):
        raise InputError("the run has not one step per player and game: not game by game")
    db = store.db

    def work() -> int:
        if db.execute("SELECT 1 FROM games LIMIT 1").fetchone():
            raise InputError("the store has games already: make it from a history when new")
        final = run.final()
        starts = run.starts()
        n = len(games)
        # First pass, the players and the ids: each player's games and last day, in
        # order of first appearance; the hashes of the games' ids, to know whether any repeats.
        counts: Counter = Counter()
        last: dict[str, str] = {}
        hashes = np.empty(n, np.int64)
        for lo, (black, white, day, gid, source) in _chunks(
            games, ("black", "white", "date", "id", "source")
        ):
            sides = list(chain.from_iterable(zip(black, white)))
            counts.update(sides)
            last.update(zip(sides, chain.from_iterable(zip(day, day))))
            hashes[lo : lo + len(black)] = np.fromiter(
                map(hash, _game_ids(gid, source, lo)), np.int64, len(black)
            )
        # No two hashes equal: no id repeats, and none is told apart (``#2``) from another.
        repeats = len(np.unique(hashes)) < n
        del hashes
        (top,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM players").fetchone()
        player_id = {name: top + k for k, name in enumerate(counts, 1)}
        on_steps = None if whole else _step_players(steps, player_id)
        with _bulk(db):
            db.executemany(
                "INSERT INTO players (id, key, name, rating, deviation, volatility, start, "
                "games, last_game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (player_id[name], f"name:{identity_key(name)}", name, *final[name],
                     starts.get(name, ""), counts[name], last[name])
                    for name in counts
                ],
            )  # fmt: skip
            # Second pass, the games' rows, a chunk at a time.
            seen: dict[str, int] = {}
            for lo, columns in _chunks(games, _GAME_FIELDS):
                day, time, black, white, result, handicap, komi, size, gid, source = columns
                ids = _game_ids(gid, source, lo)
                if repeats:
                    ids = [_unique(i, seen) for i in ids]
                blacks = list(map(player_id.__getitem__, black))
                whites = list(map(player_id.__getitem__, white))
                if on_steps is not None and (
                    on_steps[2 * lo : 2 * (lo + len(black)) : 2].tolist() != blacks
                    or on_steps[2 * lo + 1 : 2 * (lo + len(black)) : 2].tolist() != whites
                ):
                    raise InputError("the run's steps are not in its games' order")
                db.executemany(
                    "INSERT INTO games (seq, id, content, date, time, black, white, result, "
                    "handicap, komi, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    zip(range(lo + 1, lo + len(black) + 1), ids, repeat(LOADED), day, time, blacks,
                        whites, result, handicap, komi, size),
                )  # fmt: skip
            if on_steps is not None:
                db.executemany(
                    "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    _history_rows(on_steps, steps),
                )
        if whole:
            store._refit()  # the batch run's fit, kept day by day
        return n

    return store._write(work)


#: The fields of a game its row is made of, in the order :func:`from_run` reads them.
_GAME_FIELDS = (
    "date", "time", "black", "white", "result", "handicap", "komi", "size", "id", "source",
)  # fmt: skip

#: Games a load makes rows for at once: its lists are per chunk, not per history.
LOAD_CHUNK = 1 << 18


def _chunks(games, fields: tuple[str, ...], size: int = LOAD_CHUNK):
    """``(first, lists)`` for each run of ``size`` games in order: the index of its first
    game, then one list per field named (the values :class:`HistoryGame` has), taken
    from the columns where the games are columns (no object per game)."""
    field = getattr(games, "field", None)
    if field is not None:
        values = [field(name) for name in fields]
    else:
        values = [map(attrgetter(name), games) for name in fields]
    for lo in range(0, len(games), size):
        yield lo, [list(islice(column, size)) for column in values]


def _game_ids(ids, sources, first: int) -> list[str]:
    """Each game's id as the store keeps it before repeats are told apart (the game's
    own, else its source, else its number in the history, from 1)."""
    return [i or s or f"#{k}" for k, i, s in zip(count(first + 1), ids, sources)]


def _unique(gid: str, seen: dict[str, int]) -> str:
    """``gid``, or where it was given before ``gid#2``, ``gid#3`` ... (the first such id
    not given either: an id ``g1#2`` of the history's own is not taken twice). ``seen``
    holds the ids given, each with the last number its repeats took."""
    if gid not in seen:
        seen[gid] = 1
        return gid
    k = seen[gid]
    while True:
        k += 1
        candidate = f"{gid}#{k}"
        if candidate not in seen:
            seen[gid] = k
            seen[candidate] = 1
            return candidate


def _step_players(steps, player_id: dict[str, int]):
    """Each step's player as the store numbers him (numpy ``int64``; −1 for a name the
    store has not), in the steps' order."""
    if hasattr(steps, "names") and hasattr(steps, "player"):  # StepColumns: no step made
        numbers = np.array([player_id.get(name, -1) for name in steps.names], np.int64)
        return numbers[steps.player] if len(numbers) else np.zeros(0, np.int64)
    return np.fromiter((player_id.get(s.player, -1) for s in steps), np.int64, len(steps))


def _history_rows(players, steps):
    """The history's rows (player, game, the states before and after), in the key's
    order (player, game: stable, each player's in order, so appended to its B-tree),
    ``LOAD_CHUNK`` steps' lists at a time."""
    before, after = _step_states(steps)
    columns = [c if isinstance(c, np.ndarray) else np.asarray(c, object) for c in (*before, *after)]
    order = np.argsort(players, kind="stable")
    for lo in range(0, len(order), LOAD_CHUNK):
        part = order[lo : lo + LOAD_CHUNK]
        yield from zip(
            players[part].tolist(),
            ((part >> 1) + 1).tolist(),
            *(column[part].tolist() for column in columns),
        )


#: The page cache of a load (KiB): the rows' pages and the indexes' sorts in memory.
LOAD_CACHE_KIB = 256 << 10


@contextlib.contextmanager
def _journal(db):
    """SQLite's rollback journal instead of its WAL while a store is loaded, then the WAL
    again: one transaction of millions of rows is written once into the file, not into
    the WAL and then again by its checkpoint (SQLite: "WAL does not work well for very
    large transactions"), and is as atomic and as durable (``synchronous``). Where the
    mode cannot change (another connection is reading), the load runs in the WAL."""
    if not isinstance(db, sqlite3.Connection):
        yield
        return
    (mode,) = db.execute("PRAGMA journal_mode").fetchone()
    try:
        if mode.lower() == "wal":
            db.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.OperationalError:
        pass
    try:
        yield
    finally:
        db.execute(f"PRAGMA journal_mode = {mode}")


@contextlib.contextmanager
def _bulk(db):
    """Rows inserted inside it as a bulk load: in SQLite, the secondary indexes (those
    the schema names, not the keys') dropped before and made again after, from the
    same statements, with a large page cache meanwhile; inside the caller's
    transaction, so that a failure leaves the store as it was."""
    if not isinstance(db, sqlite3.Connection):
        yield
        return
    indexes = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
    ).fetchall()
    (cache,) = db.execute("PRAGMA cache_size").fetchone()
    db.execute(f"PRAGMA cache_size = -{LOAD_CACHE_KIB}")
    try:
        for name, _ in indexes:
            db.execute(f'DROP INDEX "{name}"')
        yield
        for _, sql in indexes:
            db.execute(sql)
    finally:
        db.execute(f"PRAGMA cache_size = {int(cache)}")


def _by_periods(store, run: Any) -> int:
    """Glicko-2 by calendar periods: every game of the run's history, in its order, rated
    by the store as a posted one is, each player created at the start the run gave him
    (the ``before`` of his first step). A batch run by periods keeps a step per player
    and period, not per game, and what the store keeps besides the ratings (each
    player's open period and its start, what each game's players saw) is what its own
    per-game path writes: so it writes them, to the batch run's numbers (the equality
    tests of docs/ratings.md, "A server's live ratings"), one game at a time."""
    db = store.db
    if db.execute("SELECT 1 FROM games LIMIT 1").fetchone():
        raise InputError("the store has games already: make it from a history when new")
    starts = run.starts()
    first: dict[str, RatingState] = {}
    for step in run.result.steps:
        first.setdefault(step.player, step.before)
    ids: dict[str, int] = {}
    made: set[str] = set()
    games = run.history.games
    for k, g in enumerate(games):
        keys = (f"name:{identity_key(g.black)}", f"name:{identity_key(g.white)}")
        for key, name in zip(keys, (g.black, g.white)):
            if key not in made:
                made.add(key)
                db.execute(
                    "INSERT INTO players (key, name, rating, deviation, volatility, start) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (key, name, *first[name], starts.get(name, "")),
                )
        gid, content = _posted(g, ids, k + 1)
        store._add(
            Posted(gid, g.date, g.time, g.black, g.white, *keys, None, None, g.result,
                   g.handicap, g.komi, g.size, content)
        )  # fmt: skip
    return len(games)


def _step_states(steps) -> tuple[list, list]:
    """The states before and after each step as columns (rating, deviation, volatility:
    an array or a list each; the arrays of
    :class:`~sodos_plugin.ratings.columns.StepColumns` as they are when the steps are
    columns: no object per step)."""
    if all(hasattr(steps, a) for a in ("names", "player", "before", "after")):
        n = len(steps)

        def columns(arrays):
            return [[None] * n if c is None else c for c in arrays]

        return columns(steps.before), columns(steps.after)
    before = [list(column) for column in zip(*(tuple(s.before) for s in steps))]
    after = [list(column) for column in zip(*(tuple(s.after) for s in steps))]
    return before or [[], [], []], after or [[], [], []]


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
                (gid, content, g.date,
                 g.time, player_id[g.black], player_id[g.white], g.result, g.handicap, g.komi,
                 g.size, key),
            )  # fmt: skip
            count += 1
        store._rate_event(key)
    return count


def _posted(game, ids: dict[str, int], number: int) -> tuple[str, str]:
    """A history's game as the store keeps it: its id (the game's own, else its source,
    else its number; one given again gets ``#2``, ``#3`` ...: :func:`_unique`) and its
    content, :data:`~.games.LOADED`."""
    (gid,) = _game_ids([game.id], [game.source], number - 1)
    return _unique(gid, ids), LOADED
