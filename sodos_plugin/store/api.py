"""The store: games in, ratings out, kept in SQLite (docs/ratings.md, "A server's live
ratings").

Contract: :class:`Store` rates each game added, in the order it arrives, in a
transaction committed before it answers (``BEGIN IMMEDIATE``: two processes on one store
take turns, and each reads the two players' states inside its own transaction, so every
game is applied once, in order). The writes of threads that come while a commit runs
share the next transaction, each in its own savepoint (a refusal is its caller's alone),
and the games of a system rated game by game are rated together in waves
(:mod:`sodos_plugin.store.group`). Adding a game reads and writes its two players only:
its cost does not grow with the number of players. A game id posted again with the same
content answers what it answered the first time; with other content it is a
:class:`StoreConflict`. Voiding or correcting a game rates again every game after it
(their players' states are put back to where they were before it), so that every rating
equals a batch run over the corrected history in the order of arrival
(:meth:`Store.games` is that history).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from sodos_hookspecs import (
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    InitialRating,
    RatingState,
)

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError, LimitError
from sodos_plugin.ratings.systems.whr import ELO
from sodos_plugin.schemas import live
from sodos_plugin.store import backend, schema
from sodos_plugin.store.games import LOADED, LiveGame, Posted, parse_game, row_content
from sodos_plugin.store.group import GroupCommit
from sodos_plugin.store.incremental import for_system

#: The most players one leaderboard answer lists (``store.max_leaderboard``).
MAX_LEADERBOARD = 1000
#: The most games one batch adds (``store.max_batch``).
MAX_BATCH = 100_000
#: Game ids looked up by one query of a batch (SQLite takes 32,766 parameters).
ID_CHUNK = 500


class StoreConflict(InputError):
    """A game id already rated with other content (HTTP 409)."""


class PeriodClosed(StoreConflict):
    """A game of a rating period already closed (HTTP 409): refused, not rated into its
    period (docs/ratings.md: a period closes when the first game of a later one arrives)."""


class NotFound(InputError):
    """No such player or game (HTTP 404)."""


class Rated(NamedTuple):
    """A game rated: its id, its place in the order of arrival, whether it was rated
    before (posted again), and both players' names and states after it."""

    id: str
    order: int
    already: bool
    black: tuple[str, RatingState]
    white: tuple[str, RatingState]


class Player(NamedTuple):
    """A player's current state."""

    name: str
    id: str | None
    state: RatingState
    games: int
    last_game: str | None


def _stored(error: Exception, path: Any) -> InputError:
    """An SQLite error as people read it: locked, read-only, full, damaged."""
    text = str(error)
    low = text.lower()
    if "locked" in low or "busy" in low:
        why = "locked by another process past the wait (store.busy_timeout)"
    elif "readonly" in low or "read-only" in low:
        why = "read-only: nothing was written"
    elif "full" in low:
        why = "the disk is full: nothing of this request was written"
    elif "malformed" in low or "not a database" in low or "corrupt" in low:
        why = "damaged (restore it from a backup; nothing was written)"
    else:
        why = text
    shown = str(path).split("@")[-1]  # a URL's password is never said
    return InputError(f"the store cannot be used: {why} ({text})", source=shown)


def _reading(method):
    """A reading method whose SQLite error (a damaged or vanished store) is said as
    :func:`_stored` says it, not raised raw."""

    @functools.wraps(method)
    def read(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except backend.errors() as error:
            raise _stored(error, self.path) from None

    return read


class Store:
    """A rating store at ``path`` for ``system`` and its resolved ``parameters`` (see
    :meth:`sodos_plugin.Host.store`, which resolves them as ``sodos ratings`` does)."""

    def __init__(
        self,
        path: Path | str,
        system: str,
        parameters: Mapping[str, Any],
        *,
        synchronous: str = "full",
        busy_timeout: float = schema.BUSY_TIMEOUT_MS / 1000,
        max_batch: int = MAX_BATCH,
        max_leaderboard: int = MAX_LEADERBOARD,
    ):
        """The ``store.*`` config keys (docs/config.md): ``synchronous``,
        ``busy_timeout`` (seconds), ``max_batch``, ``max_leaderboard``."""
        #: a file (SQLite), or a ``postgresql://`` URL (PostgreSQL, the postgres extra)
        self.path: Any = path if backend.is_url(path) else Path(path)
        self.system = system.lower()
        self.parameters = dict(parameters)
        self.max_batch, self.max_leaderboard = max_batch, max_leaderboard
        self.rater = for_system(self.system, self.parameters)
        self._whole_history = getattr(self.rater, "whole_history", False)
        if backend.is_url(path):
            self.db = schema.connect_postgres(path, self.system, self.parameters)
            #: the reading methods' connection: what is committed, never what a write
            #: holds open in ``db`` (the players, leaderboard and history answers)
            self._reads: Any = backend.Postgres(path)
        else:
            self.db = schema.connect(
                self.path, self.system, self.parameters, synchronous, busy_timeout
            )
            self._reads = schema.reader(self.path, busy_timeout)
        #: rated in waves, one game of a player after another (not a period, a
        #: tournament or a whole history at once)
        self._in_waves = not (
            self.rater.periodic
            or self._whole_history
            or getattr(self.rater, "per_tournament", False)
        )
        #: every write goes through it: the works of threads that come while one commit
        #: runs are committed together, their games rated together in waves when the
        #: system rates game by game (store/group.py)
        self._writes = GroupCommit(
            self.db,
            backend.errors_of(path),
            lambda error: _stored(error, self.path),
            self._together if self._in_waves else None,
        )

    # -- writing ---------------------------------------------------------------------

    def add(self, game: LiveGame | Mapping[str, Any]) -> Rated:
        """Rate one game (committed before it returns)."""
        return self.add_many([game])[0]

    def add_many(self, games: Iterable[LiveGame | Mapping[str, Any]]) -> list[Rated]:
        """Rate games in the order given, all in one transaction (all or none)."""
        games = list(games)
        if len(games) > self.max_batch:
            raise LimitError(
                f"{len(games)} games in one batch, at most {self.max_batch}",
                limit="store.max_batch",
            )
        posted = [
            parse_game(g, f"games[{k}]" if len(games) > 1 else "") for k, g in enumerate(games)
        ]
        if getattr(self.rater, "per_tournament", False):
            return self._write(lambda: self._add_tournament(posted))
        if self._in_waves:
            if len(posted) == 1:
                return self._write(lambda: [self._add(posted[0])], posted)
            return self._write(lambda: self._add_waves(posted), posted)
        return self._write(lambda: [self._add(p) for p in posted])

    def _together(self, parts: list[list[Posted]]) -> list[list[Rated]]:
        """The games of several requests rated as one batch (in waves), each request's
        answers as it would have had them alone after the requests before it; a conflict
        or a refusal in any of them raises, and each is then rated alone
        (:class:`~sodos_plugin.store.group.GroupCommit`)."""
        rated = self._add_waves([game for part in parts for game in part])
        out, k = [], 0
        for part in parts:
            out.append(rated[k : k + len(part)])
            k += len(part)
        return out

    def _add_tournament(self, posted: list[Posted]) -> list[Rated]:
        """GoR: the games posted at once are one tournament (one game alone is its own),
        rated at once (:class:`~.incremental.ByTournament`)."""
        db = self.db
        known = []
        for k, game in enumerate(posted):
            row = db.execute(
                "SELECT seq, content, event FROM games WHERE id = ?", (game.id,)
            ).fetchone()
            if row is not None:
                self._posted_again(
                    row[0], row[1], game, f"games[{k}].id" if len(posted) > 1 else "id"
                )
            known.append(row)
        if all(known):
            return [self._rated_in_event(row[0], row[2], g.id) for row, g in zip(known, posted)]
        if any(known):
            raise StoreConflict(
                "part of this tournament was rated before (post a tournament once, whole)",
                where="id",
            )
        first: dict[str, int] = {}
        for k, game in enumerate(posted):
            j = first.setdefault(game.id, k)
            if j != k and posted[j].content != game.content:
                raise StoreConflict(
                    f"game {game.id!r} is in the tournament twice with other content",
                    where=f"games[{k}].id",
                )
        games = [posted[k] for k in sorted(set(first.values()))]
        key = games[0].id
        db.execute(
            "INSERT INTO events VALUES (?, ?, ?, '')", (key, key, min(g.date for g in games))
        )
        ids = {}
        for game in games:
            black, _, _ = self._player(
                game.black_key, game.black, game.black_id, game.black_rank, "black_rank"
            )
            white, _, _ = self._player(
                game.white_key, game.white, game.white_id, game.white_rank, "white_rank"
            )
            ids[game.id] = db.execute(
                "INSERT INTO games (id, content, date, time, black, white, result, handicap, "
                "komi, size, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.content, game.date, game.time, black, white, game.score,
                 game.handicap, game.komi, game.size, key),
            ).lastrowid  # fmt: skip
        self._rate_event(key)
        out = {g.id: self._rated_in_event(ids[g.id], key, g.id, False) for g in games}
        return [out[g.id] for g in posted]

    def _rate_event(self, key: str) -> None:
        """Rate the tournament ``key`` (its games not voided) from its players' states
        now: one step per player, kept at the tournament's first game."""
        db = self.db
        rows = db.execute(
            "SELECT seq, id, date, time, black, white, result, handicap, komi, size "
            "FROM games WHERE event = ? AND void = 0 ORDER BY seq",
            (key,),
        ).fetchall()
        if not rows:
            return
        day, name, klass = db.execute(
            "SELECT date, name, class FROM events WHERE key = ?", (key,)
        ).fetchone()
        players: dict[int, tuple] = {}
        for row in rows:
            for pid in (row[4], row[5]):
                if pid not in players:
                    players[pid] = db.execute(
                        "SELECT rating, deviation, volatility, start, games FROM players "
                        "WHERE id = ?",
                        (pid,),
                    ).fetchone()
        # the players by id in the history (two players of one name stay two)
        games = [
            HistoryGame(d, key, f"#{b}", f"#{w}", s, h, k, z, None, gid, t, gid)
            for _, gid, d, t, b, w, s, h, k, z in rows
        ]
        starts = {
            f"#{pid}": InitialRating(RatingState(r, rd, v), start)
            for pid, (r, rd, v, start, count) in players.items()
            if count
        }
        for pid, (r, rd, v, start, count) in players.items():
            if not count:  # a new player: the start he was given (his rank's, or default)
                starts[f"#{pid}"] = InitialRating(RatingState(r, rd, v), start)
        event = HistoryEvent(key, name, day, klass, "store")
        after = self.rater.rate_tournament(games, event, starts)
        seq = rows[0][0]
        counts: dict[int, int] = {}
        for row in rows:
            counts[row[4]] = counts.get(row[4], 0) + 1
            counts[row[5]] = counts.get(row[5], 0) + 1
        last_day = max(r[2] for r in rows)
        for pid, (r, rd, v, _, _) in players.items():
            new = after.get(f"#{pid}", RatingState(r, rd, v))  # (GoR rates 19x19 only)
            db.execute(
                "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (pid, seq, r, rd, v, *new),
            )
            db.execute(
                "UPDATE players SET rating = ?, deviation = ?, volatility = ?, "
                "games = games + ?, last_game = ? WHERE id = ?",
                (*new, counts[pid], last_day, pid),
            )

    def _rated_in_event(self, seq: int, key: str, game_id: str, already: bool = True) -> Rated:
        """A game of a tournament: both players' states after the tournament."""
        db = self.db
        black, white = db.execute("SELECT black, white FROM games WHERE seq = ?", (seq,)).fetchone()
        (first,) = db.execute(
            "SELECT MIN(seq) FROM games WHERE event = ? AND void = 0", (key,)
        ).fetchone()
        sides = []
        for pid in (black, white):
            row = db.execute(
                "SELECT p.name, h.rating, h.deviation, h.volatility FROM history h "
                "JOIN players p ON p.id = h.player WHERE h.player = ? AND h.seq = ?",
                (pid, first),
            ).fetchone()
            if row is None:
                raise StoreConflict(f"game {game_id!r} was voided", where="id")
            sides.append((row[0], RatingState(row[1], row[2], row[3])))
        return Rated(game_id, seq, already, sides[0], sides[1])

    def _add_waves(self, posted: list[Posted]) -> list[Rated]:
        """A batch game by game, as the batch run rates games: in waves of games that
        share no player (a game's wave is one more than the last of its players'), each
        wave at once by the system's formula — the same numbers as one game after
        another, in a few calls instead of one per game."""
        db = self.db
        results: list[Rated | None] = [None] * len(posted)
        first_of: dict[str, int] = {}
        fresh: list[int] = []
        ids = list({game.id: None for game in posted})
        known = set()
        for at in range(0, len(ids), ID_CHUNK):  # one query a chunk, not one a game
            chunk = ids[at : at + ID_CHUNK]
            marks = ", ".join("?" * len(chunk))
            known.update(
                gid for (gid,) in db.execute(f"SELECT id FROM games WHERE id IN ({marks})", chunk)
            )
        for k, game in enumerate(posted):
            if game.id in known:
                results[k] = self._add(game)  # rated before: the same answer, or a conflict
                continue
            j = first_of.setdefault(game.id, k)
            if j != k:
                if posted[j].content != game.content:
                    raise StoreConflict(
                        f"game {game.id!r} is in the batch twice with other content",
                        where=f"games[{k}].id",
                    )
                continue
            fresh.append(k)
        players: dict[str, list] = {}  # key -> [id, name, state, games, last day]
        for k in fresh:
            game = posted[k]
            for key, name, pid, rank, where in (
                (game.black_key, game.black, game.black_id, game.black_rank, "black_rank"),
                (game.white_key, game.white, game.white_id, game.white_rank, "white_rank"),
            ):
                if key not in players:
                    number, shown, state = self._player(key, name, pid, rank, f"games[{k}].{where}")
                    players[key] = [number, shown, state, 0, None]
        (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM games").fetchone()
        chosen = [posted[k] for k in fresh]
        waves = self.rater.rate_waves(
            chosen, [(players[g.black_key][2], players[g.white_key][2]) for g in chosen]
        )
        game_rows, history_rows = [], []
        for i, (game, (after_b, after_w)) in enumerate(zip(chosen, waves)):
            seq = top + 1 + i
            game_rows.append(
                (seq, game.id, game.content, game.date, game.time, players[game.black_key][0],
                 players[game.white_key][0], game.score, game.handicap, game.komi, game.size)
            )  # fmt: skip
            sides = []
            for key, after in ((game.black_key, after_b), (game.white_key, after_w)):
                entry = players[key]
                history_rows.append((entry[0], seq, *entry[2], *after))
                entry[2], entry[3], entry[4] = after, entry[3] + 1, game.date
                sides.append((entry[1], after))
            results[fresh[i]] = Rated(game.id, seq, False, sides[0], sides[1])
        db.executemany(
            "INSERT INTO games (seq, id, content, date, time, black, white, result, handicap, "
            "komi, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        db.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", history_rows)
        db.executemany(
            "UPDATE players SET rating = ?, deviation = ?, volatility = ?, games = games + ?, "
            "last_game = ? WHERE id = ?",
            [(*e[2], e[3], e[4], e[0]) for e in players.values() if e[3]],
        )
        for k, game in enumerate(posted):  # the same game twice in the batch
            if results[k] is None:
                results[k] = results[first_of[game.id]]._replace(already=True)  # type: ignore[union-attr]
        return results  # type: ignore[return-value]

    def void(self, game_id: str) -> int:
        """Void a game: it counts no more; every later game is rated again. Returns the
        number of games rated again."""
        return self._write(lambda: self._change(game_id, None))

    def correct(self, game_id: str, result: str) -> int:
        """Correct a game's result (an SGF ``RE`` text); every game from it on is rated
        again. Returns the number of games rated again (it included)."""
        return self._write(lambda: self._change(game_id, result))

    def _write(self, work, games: list[Posted] | None = None):
        """``work()``'s answer once its transaction is committed (with the works other
        threads hand in meanwhile: :class:`~sodos_plugin.store.group.GroupCommit`);
        ``games``: the games it adds, when they may be rated together with others'."""
        return self._writes.run(work, games)

    def _player(
        self, key: str, name: str, player_id: str | None, rank: str | None = None, where=""
    ) -> tuple[int, str, RatingState]:
        """A player's id, name as the store keeps it and state; a new one is added, at
        the start of his rank (``where``: the member a rank that is no rank is named by)."""
        row = self.db.execute(
            "SELECT id, name, rating, deviation, volatility FROM players WHERE key = ?", (key,)
        ).fetchone()
        if row is not None:
            return row[0], row[1], RatingState(row[2], row[3], row[4])
        try:
            state, start = self.rater.start(rank)
        except ValueError as error:
            raise InputError(f"{rank!r} is not a Go rank: {error}", where=where) from None
        cursor = self.db.execute(
            "INSERT INTO players (key, name, rating, deviation, volatility, start) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (key, name, *state, start),
        )
        return cursor.lastrowid, name, state  # type: ignore[return-value]

    def _add(self, game: Posted) -> Rated:
        db = self.db
        found = db.execute("SELECT seq, content FROM games WHERE id = ?", (game.id,)).fetchone()
        if found is not None:
            self._posted_again(found[0], found[1], game, "id")
            return self._rated(found[0], game.id, already=True)
        index = None
        if self.rater.periodic:
            index = self.rater.index(game.date)
            (open_period,) = db.execute("SELECT MAX(period) FROM games").fetchone()
            if open_period is not None and index < open_period:
                (later,) = db.execute(
                    "SELECT date FROM games WHERE period = ? ORDER BY seq LIMIT 1", (open_period,)
                ).fetchone()
                period = self.rater.period
                raise PeriodClosed(
                    f"the {period} of {game.date} is closed: a game of a later {period} "
                    f"({later}) arrived before this one; a closed period is not rated again "
                    "(void its games and post them again in order, or rate the history with "
                    "sodos ratings)",
                    where="date",
                )
        black, black_name, b = self._player(
            game.black_key, game.black, game.black_id, game.black_rank, "black_rank"
        )
        white, white_name, w = self._player(
            game.white_key, game.white, game.white_id, game.white_rank, "white_rank"
        )
        seq = db.execute(
            "INSERT INTO games (id, content, date, time, black, white, result, handicap, komi, "
            "size, period) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.content, game.date, game.time, black, white, game.score,
             game.handicap, game.komi, game.size, index),
        ).lastrowid  # fmt: skip
        if getattr(self.rater, "whole_history", False):
            nb, nw = self._apply_whr(seq, game, black, white)
        elif index is None:
            nb, nw = self._apply(seq, game, black, b, white, w)  # type: ignore[arg-type]
        else:
            nb, nw = self._apply_period(seq, game, black, white, index)  # type: ignore[arg-type]
        return Rated(game.id, seq, False, (black_name, nb), (white_name, nw))  # type: ignore[arg-type]

    def _apply(self, seq: int, game: Posted, black: int, b, white: int, w):
        nb, nw = self.rater.rate(b, w, game)
        self.db.executemany(
            "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(black, seq, *b, *nb), (white, seq, *w, *nw)],
        )
        self.db.executemany(
            "UPDATE players SET rating = ?, deviation = ?, volatility = ?, games = games + 1, "
            "last_game = ? WHERE id = ?",
            [(*nb, game.date, black), (*nw, game.date, white)],
        )
        return nb, nw

    def _apply_whr(self, seq: int, game: Posted, black: int, white: int):
        """WHR: the two players' days fitted again (:class:`~.incremental.WholeHistory`)."""
        db, rater = self.db, self.rater
        day = rater.day(game.date)
        pair = (black, white)
        own_days = []
        for pid in pair:
            rows = db.execute(
                "SELECT day, r FROM player_days WHERE player = ? ORDER BY day", (pid,)
            ).fetchall()
            if all(d != day for d, _ in rows):
                earlier = [r for d, r in rows if d <= day]
                rows.append((day, earlier[-1] if earlier else 0.0))
            own_days.append(rows)
        entries = []
        for side, pid in enumerate(pair):
            found = db.execute(
                "SELECT black, white, result, date, handicap FROM games WHERE void = 0 AND "
                "seq <= ? AND (black = ? OR white = ?)",
                (seq, pid, pid),
            ).fetchall()
            for b, w, result, date, handicap in found:
                shift = rater.per_stone * handicap
                if b == pid:
                    other, score, seen = w, result, -shift
                else:
                    other, score, seen = b, 1.0 - result, shift
                when = rater.day(date)
                if other in pair:
                    entries.append((side, when, None, score, seen))
                    continue
                (r,) = db.execute(
                    "SELECT r FROM player_days WHERE player = ? AND day = ?", (other, when)
                ).fetchone()
                entries.append((side, when, r, score, seen))
        fitted = rater.fit_two(own_days, entries)
        after = []
        for pid, days in zip(pair, fitted):
            db.execute("DELETE FROM player_days WHERE player = ?", (pid,))
            db.executemany("INSERT INTO player_days VALUES (?, ?, ?, ?)", [(pid, *d) for d in days])
            _, r, variance = days[-1]
            after.append(RatingState(r * ELO, math.sqrt(variance) * ELO if variance > 0 else None))
        before = [
            RatingState(*db.execute(
                "SELECT rating, deviation, volatility FROM players WHERE id = ?", (pid,)
            ).fetchone())
            for pid in pair
        ]  # fmt: skip
        db.executemany(
            "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(pid, seq, *b, *a) for pid, b, a in zip(pair, before, after)],
        )
        db.executemany(
            "UPDATE players SET rating = ?, deviation = ?, volatility = ?, games = games + 1, "
            "last_game = ? WHERE id = ?",
            [(*a, game.date, pid) for pid, a in zip(pair, after)],
        )
        return after[0], after[1]

    def refit(self) -> int:
        """WHR: fit every player again over every game (the batch run's fit); returns
        the players fitted. Other systems: nothing to do (0)."""
        if not getattr(self.rater, "whole_history", False):
            return 0
        return self._write(self._refit)

    def _refit(self) -> int:
        db, rater = self.db, self.rater
        rows = db.execute(
            "SELECT black, white, result, date, handicap FROM games WHERE void = 0 ORDER BY seq"
        ).fetchall()
        fitted = rater.fit_all(
            [(f"#{b}", f"#{w}", s, rater.day(d), rater.per_stone * h) for b, w, s, d, h in rows]
        )
        db.execute("DELETE FROM player_days")
        db.execute("UPDATE players SET rating = 0.0, deviation = NULL, games = 0, last_game = NULL")
        for name, days in fitted.items():
            pid = int(name[1:])
            db.executemany(
                "INSERT INTO player_days VALUES (?, ?, ?, ?)",
                [(pid, day, elo / ELO, variance) for day, elo, variance in days],
            )
            _, elo, variance = days[-1]
            deviation = math.sqrt(variance) * ELO if variance > 0 else None
            db.execute(
                "UPDATE players SET rating = ?, deviation = ? WHERE id = ?", (elo, deviation, pid)
            )
        db.execute(
            "UPDATE players SET games = (SELECT COUNT(*) FROM games g WHERE g.void = 0 AND "
            "(g.black = players.id OR g.white = players.id)), last_game = (SELECT MAX(date) "
            "FROM games g WHERE g.void = 0 AND (g.black = players.id OR g.white = players.id))"
        )
        return len(fitted)

    def _apply_period(self, seq: int, game: Posted, black: int, white: int, index: int):
        """Rate a game of calendar period ``index`` (:class:`~.incremental.ByPeriod`):
        each player's period from its start over his games of it so far."""
        db = self.db
        current, starts = [], []
        for player in (black, white):
            r, rd, v, period, sr, srd, sv = db.execute(
                "SELECT rating, deviation, volatility, period, start_rating, start_deviation, "
                "start_volatility FROM players WHERE id = ?",
                (player,),
            ).fetchone()
            now = RatingState(r, rd, v)
            if period != index:  # his first game of this period: the last one closes
                start = self.rater.period_start(now, period, index)
                db.execute(
                    "UPDATE players SET period = ?, start_rating = ?, start_deviation = ?, "
                    "start_volatility = ? WHERE id = ?",
                    (index, *start, player),
                )
            else:
                start = RatingState(sr, srd, sv)
            current.append(now)
            starts.append(start)
        db.execute(
            "UPDATE games SET black_start_rating = ?, black_start_deviation = ?, "
            "black_start_volatility = ?, white_start_rating = ?, white_start_deviation = ?, "
            "white_start_volatility = ? WHERE seq = ?",
            (*starts[0], *starts[1], seq),
        )
        after = []
        for player, start in zip((black, white), starts):
            games = []
            for colour, side, other in ((0, "black", "white"), (1, "white", "black")):
                rows = db.execute(
                    f"SELECT result, handicap, size, komi, {other}_start_rating, "
                    f"{other}_start_deviation, {other}_start_volatility FROM games "
                    f"WHERE {side} = ? AND period = ? AND void = 0 AND seq <= ? ORDER BY seq",
                    (player, index, seq),
                ).fetchall()
                for result, handicap, size, komi, o_r, o_rd, o_v in rows:
                    score = result if colour == 0 else 1.0 - result
                    seen = RatingState(o_r, o_rd, o_v)
                    games.append((seen, score, None, colour, handicap, size, komi))
            after.append(self.rater.rate_player(start, games))
        self.db.executemany(
            "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(black, seq, *current[0], *after[0]), (white, seq, *current[1], *after[1])],
        )
        self.db.executemany(
            "UPDATE players SET rating = ?, deviation = ?, volatility = ?, games = games + 1, "
            "last_game = ? WHERE id = ?",
            [(*after[0], game.date, black), (*after[1], game.date, white)],
        )
        return after[0], after[1]

    def _rated(self, seq: int, game_id: str, already: bool) -> Rated:
        rows = self.db.execute(
            "SELECT p.name, h.rating, h.deviation, h.volatility, p.id = g.black "
            "FROM history h JOIN players p ON p.id = h.player JOIN games g ON g.seq = h.seq "
            "WHERE h.seq = ?",
            (seq,),
        ).fetchall()
        sides = {bool(r[4]): (r[0], RatingState(r[1], r[2], r[3])) for r in rows}
        if not sides:  # a voided game: no step
            raise StoreConflict(f"game {game_id!r} was voided", where="id")
        return Rated(game_id, seq, already, sides[True], sides[False])

    def _loaded_row(self, seq: int) -> tuple:
        """Game ``seq``'s row: :func:`~.games.row_content`'s members, then both players'
        keys."""
        return self.db.execute(
            "SELECT g.id, g.date, g.time, b.name, w.name, g.result, g.handicap, g.komi, "
            "g.size, b.key, w.key FROM games g JOIN players b ON b.id = g.black "
            "JOIN players w ON w.id = g.white WHERE g.seq = ?",
            (seq,),
        ).fetchone()

    def _content(self, seq: int, content: str) -> str:
        """Game ``seq``'s content: as posted, or for a game loaded from a history (kept
        with none: :data:`~.games.LOADED`) made from its row (:func:`~.games.row_content`)."""
        return content if content != LOADED else row_content(*self._loaded_row(seq)[:9])

    def _posted_again(self, seq: int, content: str, game: Posted, where: str) -> None:
        """``game`` is posted again with game ``seq``'s id: a
        :class:`StoreConflict` (``where``) unless it is that game — the same content as
        posted; for a game loaded from a history, the same facts as its row (day, time,
        both players, score, handicap, komi and size: what the history gave), whatever
        ``RE`` text and ranks the server posts it with now."""
        if content != LOADED:
            same = content == game.content
        else:
            _, day, time, _, _, score, handicap, komi, size, black, white = self._loaded_row(seq)
            same = (day, time, black, white, score, handicap, komi, size) == (
                game.date, game.time, game.black_key, game.white_key, game.score,
                game.handicap, game.komi, game.size,
            )  # fmt: skip
        if not same:
            raise StoreConflict(
                f"game {game.id!r} was rated before with other content: "
                f"{self._content(seq, content)}",
                where=where,
            )

    def _change(self, game_id: str, result: str | None) -> int:
        db = self.db
        row = db.execute("SELECT seq, content, void FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game {game_id!r} in the store", where="id")
        seq, content, void = row
        if result is None:
            if void:
                return 0
            db.execute("UPDATE games SET void = 1 WHERE seq = ?", (seq,))
        else:
            members = json.loads(self._content(seq, content))
            members["result"] = result
            fixed = parse_game(members)
            db.execute(
                "UPDATE games SET result = ?, content = ?, void = 0 WHERE seq = ?",
                (fixed.score, fixed.content, seq),
            )
        return self._rerate_from(seq)

    def _rerate_from(self, seq: int) -> int:
        """Put every player of the games from ``seq`` on back to where he was before
        the first of them, and rate those games again in their order (for calendar
        periods: from the first game of ``seq``'s period)."""
        db = self.db
        if getattr(self.rater, "per_tournament", False):
            return self._rerate_events_from(seq)
        if getattr(self.rater, "whole_history", False):  # the whole history fitted again
            db.execute("DELETE FROM history WHERE seq >= ?", (seq,))
            self._refit()
            return db.execute("SELECT COUNT(*) FROM games WHERE void = 0").fetchone()[0]
        if self.rater.periodic:
            (seq,) = db.execute(
                "SELECT MIN(seq) FROM games WHERE period = (SELECT period FROM games "
                "WHERE seq = ?)",
                (seq,),
            ).fetchone()
        firsts = db.execute(
            "SELECT player, MIN(seq), COUNT(*) FROM history WHERE seq >= ? GROUP BY player",
            (seq,),
        ).fetchall()
        for player, first, count in firsts:
            before = db.execute(
                "SELECT rating_before, deviation_before, volatility_before FROM history "
                "WHERE player = ? AND seq = ?",
                (player, first),
            ).fetchone()
            last = db.execute(
                "SELECT g.date, g.period FROM history h JOIN games g ON g.seq = h.seq "
                "WHERE h.player = ? AND h.seq < ? ORDER BY h.seq DESC LIMIT 1",
                (player, seq),
            ).fetchone()
            db.execute(
                "UPDATE players SET rating = ?, deviation = ?, volatility = ?, "
                "games = games - ?, last_game = ?, period = ? WHERE id = ?",
                (*before, count, *(last or (None, None)), player),
            )
        db.execute("DELETE FROM history WHERE seq >= ?", (seq,))
        games = db.execute(
            "SELECT seq, id, date, time, black, white, result, handicap, komi, size, period "
            "FROM games WHERE seq >= ? AND void = 0 ORDER BY seq",
            (seq,),
        ).fetchall()
        for at, gid, day, time, black, white, score, handicap, komi, size, index in games:
            game = Posted(gid, day, time, "", "", "", "", None, None, score, handicap, komi,
                          size, "")  # fmt: skip
            if index is not None:
                self._apply_period(at, game, black, white, index)
                continue
            states = []
            for player in (black, white):
                r = db.execute(
                    "SELECT rating, deviation, volatility FROM players WHERE id = ?", (player,)
                ).fetchone()
                states.append(RatingState(*r))
            self._apply(at, game, black, states[0], white, states[1])
        return len(games)

    def _rerate_events_from(self, seq: int) -> int:
        """GoR: every tournament from ``seq``'s on rated again, its players put back
        where they were before it."""
        db = self.db
        (seq,) = db.execute(
            "SELECT MIN(seq) FROM games WHERE event = (SELECT event FROM games WHERE seq = ?)",
            (seq,),
        ).fetchone()
        firsts = db.execute(
            "SELECT player, MIN(seq) FROM history WHERE seq >= ? GROUP BY player", (seq,)
        ).fetchall()
        for player, first in firsts:
            before = db.execute(
                "SELECT rating_before, deviation_before, volatility_before FROM history "
                "WHERE player = ? AND seq = ?",
                (player, first),
            ).fetchone()
            db.execute(
                "UPDATE players SET rating = ?, deviation = ?, volatility = ? WHERE id = ?",
                (*before, player),
            )
        db.execute("DELETE FROM history WHERE seq >= ?", (seq,))
        events = db.execute(
            "SELECT event FROM games WHERE seq >= ? GROUP BY event ORDER BY MIN(seq)", (seq,)
        ).fetchall()
        touched = {p for p, _ in firsts}
        touched.update(
            p
            for row in db.execute("SELECT black, white FROM games WHERE seq >= ?", (seq,))
            for p in row
        )
        for player in touched:  # counted again from the games the history keeps
            db.execute("UPDATE players SET games = 0, last_game = NULL WHERE id = ?", (player,))
            db.execute(
                "UPDATE players SET games = (SELECT COUNT(*) FROM games WHERE void = 0 AND "
                "seq < ? AND (black = ? OR white = ?)), last_game = (SELECT MAX(date) FROM "
                "games WHERE void = 0 AND seq < ? AND (black = ? OR white = ?)) WHERE id = ?",
                (seq, player, player, seq, player, player, player),
            )
        for (key,) in events:
            self._rate_event(key)
        (count,) = db.execute(
            "SELECT COUNT(*) FROM games WHERE seq >= ? AND void = 0", (seq,)
        ).fetchone()
        return count

    # -- reading ---------------------------------------------------------------------

    def _find(self, who: str) -> tuple | None:
        for key in (f"id:{who}", f"name:{identity_key(who)}"):
            row = self._reads.execute(
                "SELECT id, key, name, rating, deviation, volatility, games, last_game "
                "FROM players WHERE key = ?",
                (key,),
            ).fetchone()
            if row is not None:
                return row
        return None

    @_reading
    def player(self, who: str) -> Player:
        """A player by id on the server, else by name (:class:`NotFound` when absent)."""
        row = self._find(who)
        if row is None:
            raise NotFound(f"no player {who!r} in the store", where="player")
        _, key, name, r, rd, vol, games, last = row
        player_id = key[3:] if key.startswith("id:") else None
        return Player(name, player_id, RatingState(r, rd, vol), games, last)

    @_reading
    def player_answer(self, who: str) -> live.Player:
        p = self.player(who)
        return live.Player(
            provisional=self._provisional(p.name),
            name=p.name, id=p.id, rating=p.state.rating, deviation=p.state.deviation,
            volatility=p.state.volatility, rank=self.rater.label(p.state), games=p.games,
            last_game=p.last_game,
        )  # fmt: skip

    def _provisional(self, name: str) -> bool:
        """Whether a player's rating is of the open calendar period (it may still change
        with his next game of the period)."""
        if not self.rater.periodic:
            return False
        (open_period,) = self._reads.execute("SELECT MAX(period) FROM games").fetchone()
        row = self._reads.execute("SELECT period FROM players WHERE name = ?", (name,)).fetchone()
        return row is not None and row[0] == open_period

    @_reading
    def history(self, who: str) -> live.History:
        """A player's every game rated, in the order of arrival."""
        row = self._find(who)
        if row is None:
            raise NotFound(f"no player {who!r} in the store", where="player")
        rows = self._reads.execute(
            "SELECT g.id, h.seq, g.date, g.time, h.rating_before, h.deviation_before, "
            "h.rating, h.deviation FROM history h JOIN games g ON g.seq = h.seq "
            "WHERE h.player = ? ORDER BY h.seq",
            (row[0],),
        ).fetchall()
        steps = [
            live.HistoryStep(
                game=g,
                order=s,
                date=d,
                time=t,
                rating_before=rb,
                deviation_before=db,
                rating=r,
                deviation=rd,
            )  # fmt: skip
            for g, s, d, t, rb, db, r, rd in rows
        ]
        return live.History(name=row[2], steps=steps)

    @_reading
    def leaderboard(self, limit: int = 100, offset: int = 0) -> live.Leaderboard:
        """The highest rated players with a game (then by name)."""
        if not 0 <= limit <= self.max_leaderboard:
            raise LimitError(
                f"limit {limit}: at most {self.max_leaderboard} players an answer",
                limit="store.max_leaderboard",
            )
        if offset < 0:
            raise InputError(f"offset {offset}: expected 0 or more", where="offset")
        rows = self._reads.execute(
            "SELECT name, rating, deviation, volatility, games FROM players WHERE games > 0 "
            "ORDER BY rating DESC, name LIMIT ? OFFSET ?",
            (limit, offset),
        ).fetchall()
        players = [
            live.Leader(
                place=offset + k + 1,
                name=n,
                rating=r,
                deviation=rd,
                rank=self.rater.label(RatingState(r, rd, v)),
                games=g,
            )  # fmt: skip
            for k, (n, r, rd, v, g) in enumerate(rows)
        ]
        return live.Leaderboard(system=self.system, offset=offset, players=players)

    @_reading
    def ratings(self) -> dict[str, RatingState]:
        """Every player with a game rated: name → current state."""
        rows = self._reads.execute(
            "SELECT name, rating, deviation, volatility FROM players WHERE games > 0"
        ).fetchall()
        return {n: RatingState(r, rd, v) for n, r, rd, v in rows}

    @_reading
    def games(self) -> GameHistory:
        """The games rated (not voided) in the order of arrival, as a history that
        ``Host.ratings`` rates in that order (the batch run the store equals)."""
        rows = self._reads.execute(
            "SELECT g.id, g.date, g.time, b.name, w.name, g.result, g.handicap, g.komi, "
            "g.size, COALESCE(g.event, g.id) FROM games g JOIN players b ON b.id = g.black "
            "JOIN players w ON w.id = g.white WHERE g.void = 0 ORDER BY g.seq"
        ).fetchall()
        games = [
            HistoryGame(d, e, b, w, s, h, k, z, None, gid, t, gid)
            for gid, d, t, b, w, s, h, k, z, e in rows
        ]
        events = {
            key: HistoryEvent(key, name, day, klass, "store")
            for key, name, day, klass in self._reads.execute("SELECT * FROM events")
        }
        ranked = self._reads.execute(
            "SELECT name, start FROM players WHERE start LIKE 'rank %' AND games > 0"
        ).fetchall()
        players = {n: HistoryPlayer(n, start[5:], None, "store") for n, start in ranked}
        return GameHistory(games=games, events=events, players=players)

    def close(self) -> None:
        self._reads.close()
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
