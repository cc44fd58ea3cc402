"""Each rating system's per-game form, as the store rates with it.

Contract: :func:`for_system` gives the :class:`GameByGame` rater of a system and its
resolved parameters, or refuses (naming the parameter) a system the store does not rate
game by game. A rater gives a new player's first state (the system's default start,
docs/rules.md §10.1) and both players' states after one game, from their states before
it, by the system's own formula (:func:`~sodos_plugin.ratings.systems.glicko2.rate_pairs`:
the batch rates each wave of games with it), so that the store's ratings are those of
``sodos ratings`` over the same games in the same order.

Built in: the OGS preset and Glicko-2 with ``period = "game"`` (:class:`GameByGame`),
Glicko-2 with day, week or month periods (:class:`ByPeriod`: provisional inside the
open period), GoR a tournament at once (:class:`ByTournament`). Glicko-2 by event and
WHR (a fit of every game) are refused by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import date as Date
from typing import Any

from sodos_hookspecs import GameHistory, HistoryEvent, HistoryGame, RatingState

from sodos_plugin.errors import ConfigError
from sodos_plugin.ratings.systems import egf, glicko2, whr
from sodos_plugin.store.games import Posted
from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")  # imported when a game is rated

#: The systems the store rates game by game.
SYSTEMS = ("ogs", "glicko2")


class GameByGame:
    """Glicko-2 with one game per period for both players (the OGS preset, and
    ``glicko2`` with ``period = "game"``)."""

    periodic = False
    per_tournament = False

    def __init__(self, system: str, params: Mapping[str, Any]):
        # the batch run's own set-up: default start, clamps, τ, ε, handicap mode, rules
        self._run = glicko2._Run(system, GameHistory(games=()), {}, params)
        self.label: Callable[[RatingState], str] = glicko2.label

    def start(self, rank: str | None = None) -> tuple[RatingState, str]:
        """A new player's first state and where it came from: his rank by the system's
        mapping when the game gives one (as a batch run seeds a rank), else the default."""
        if rank:
            return self._run.from_rank(rank.strip()), f"rank {rank.strip()}"
        return self._run.default, "default (no rank)"

    def rate(
        self, black: RatingState, white: RatingState, game: Posted
    ) -> tuple[RatingState, RatingState]:
        """Both players' states after ``game``."""
        run = self._run
        start = None
        if run.handicap != "ignore":
            komi = np.nan if game.komi is None else game.komi
            start, _ = glicko2.head_starts(
                run.handicap, run.rules, np.array([game.handicap]), np.array([game.size]),
                np.array([komi], dtype=float),
            )  # fmt: skip
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            r, rd, vol = glicko2.rate_pairs(
                (
                    np.array([black.rating, white.rating]),
                    np.array([black.deviation, white.deviation]),
                    np.array([black.volatility, white.volatility]),
                ),
                np.array([game.score]),
                start,
                run.tau,
                run.eps,
                run.clamp,
            )
        r, rd, vol = r.tolist(), rd.tolist(), vol.tolist()
        return RatingState(r[0], rd[0], vol[0]), RatingState(r[1], rd[1], vol[1])

    def rate_waves(self, games: list[Posted], before: list[tuple[RatingState, RatingState]]):
        """Both players' states after each game of ``games``, rated one after another
        (``before``: the players' states before the first game each plays here): in
        waves of games that share no player, each wave by one call of the formula, as
        the batch run rates (``glicko2._Run.rate_games_columns``)."""
        run = self._run
        state: dict[str, RatingState] = {}
        for game, (b, w) in zip(games, before):
            state.setdefault(game.black_key, b)
            state.setdefault(game.white_key, w)
        last: dict[str, int] = {}
        waves: list[list[int]] = []
        for i, game in enumerate(games):
            wave = max(last.get(game.black_key, -1), last.get(game.white_key, -1)) + 1
            last[game.black_key] = last[game.white_key] = wave
            if wave == len(waves):
                waves.append([])
            waves[wave].append(i)
        start = None
        if run.handicap != "ignore":
            komi = [np.nan if g.komi is None else g.komi for g in games]
            start, _ = glicko2.head_starts(
                run.handicap, run.rules, np.array([g.handicap for g in games]),
                np.array([g.size for g in games]), np.array(komi, dtype=float),
            )  # fmt: skip
            if not start.any():
                start = None
        out: list = [None] * len(games)
        for wave in waves:
            m = len(wave)
            keys = [games[i].black_key for i in wave] + [games[i].white_key for i in wave]
            states = [state[key] for key in keys]
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                r, rd, vol = glicko2.rate_pairs(
                    tuple(np.array([s[c] for s in states]) for c in range(3)),
                    np.array([games[i].score for i in wave]),
                    None if start is None else start[np.array(wave)],
                    run.tau,
                    run.eps,
                    run.clamp,
                )
            after = [RatingState(*x) for x in zip(r.tolist(), rd.tolist(), vol.tolist())]
            for j, i in enumerate(wave):
                out[i] = (after[j], after[m + j])
            for key, new in zip(keys, after):
                state[key] = new
        return out


class ByPeriod(GameByGame):
    """Glicko-2 with calendar periods (``day``, ``week``, ``month``): a player's rating
    in the open period is his period computed over his games so far (provisional: it
    changes with his next game of the period); the period closes for him with his first
    game of a later one, whose start is his last state, its deviation grown over the
    periods he sat out (:func:`~sodos_plugin.ratings.systems.glicko2.sat_out`)."""

    periodic = True

    def __init__(self, system: str, params: Mapping[str, Any]):
        super().__init__(system, params)
        self.period = params["period"]

    def index(self, day: str) -> int:
        return glicko2.period_index(day, self.period)

    def period_start(self, state: RatingState, last: int | None, index: int) -> RatingState:
        """A player's state at the start of period ``index`` (his last period ``last``)."""
        missed = index - last - 1 if last is not None else 0
        return glicko2.sat_out(state, missed, self._run.clamp.max_rd) if missed > 0 else state

    def rate_player(self, start: RatingState, games) -> RatingState:
        """A player's state after his games of the period so far, from his ``start``:
        ``games`` are (opponent's start state, his score, Black's head start, his colour
        0/1, handicap, size, komi), his games as Black first then as White, each in the
        order of arrival — the order the batch sums them in
        (:func:`~sodos_plugin.ratings.systems.glicko2.update_rows`)."""
        run = self._run
        n = len(games)
        o_r = np.array([g[0].rating for g in games])
        o_rd = np.array([g[0].deviation for g in games])
        scores = np.array([g[1] for g in games], dtype=float)
        colours = np.array([g[3] for g in games], dtype=np.int64)
        shifts = np.zeros(n)
        if run.handicap != "ignore":
            komi = np.array([np.nan if g[6] is None else g[6] for g in games], dtype=float)
            shifts, _ = glicko2.head_starts(
                run.handicap, run.rules, np.array([g[4] for g in games]),
                np.array([g[5] for g in games]), komi,
            )  # fmt: skip
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            o_r = glicko2.seen_with_head_start(o_r, shifts, colours)
            new_mu, new_phi, new_vol, *_ = glicko2.update_rows(
                np.array([(start.rating - 1500.0) / glicko2.SCALE]),
                np.array([start.deviation / glicko2.SCALE]),
                np.array([start.volatility]),
                np.zeros(n, dtype=np.intp),
                (o_r - 1500.0) / glicko2.SCALE,
                o_rd / glicko2.SCALE,
                scores,
                run.tau,
                run.eps,
            )
            r, rd, vol = run.clamp.arrays(
                glicko2.SCALE * new_mu + 1500.0, glicko2.SCALE * new_phi, new_vol
            )
        return RatingState(float(r[0]), float(rd[0]), float(vol[0]))


class ByTournament:
    """EGF GoR: a tournament is one unit (docs/rules.md §10.2-10.4). A batch of games
    posted at once is one tournament, a game posted alone a tournament of its own (as
    ``Host.rate_game`` rates it); each is rated by the system's own run over that one
    tournament, its players starting where the store has them (as a run from a saved
    state starts: exactly the numbers of one run over every tournament)."""

    periodic = False
    per_tournament = True

    def __init__(self, system: str, params: Mapping[str, Any]):
        self.params = dict(params)
        self.label: Callable[[RatingState], str] = lambda state: ""

    def start(self, rank: str | None = None) -> tuple[RatingState, str]:
        if rank:  # GoR's grade start, bounded by the floor (egf.grade_start)
            state = egf.grade_start(egf.floor_of(self.params))(rank.strip())
            return state, f"rank {rank.strip()}"
        return RatingState(float(self.params["default_rating"])), "default (no rank)"

    def rate_tournament(
        self, games: list[HistoryGame], event: HistoryEvent, starts: Mapping[str, Any]
    ) -> dict[str, RatingState]:
        """Every player's state after the tournament ``event`` of ``games`` (names as
        the games give them), from ``starts`` (name → ``InitialRating``)."""
        history = GameHistory(games=games, events={event.key: event})
        result = egf.rate(history, starts, {**self.params, "details": False})
        return dict(result.final)


class WholeHistory:
    """WHR (docs/rules.md §10.7), incremental as Coulom describes it for a live server:
    at each game only the two players' day ratings are fitted again (Newton steps on
    their days, every other player's days held), until no day of theirs moves by more
    than the system's ``tolerance``; :meth:`~sodos_plugin.store.api.Store.refit` fits
    every player again (``whr.fit``, the batch run's fit). Between two full fits the
    store's ratings differ from the batch run's by what the other players' days would
    have moved (docs/ratings.md states the measured difference)."""

    periodic = False
    per_tournament = False
    whole_history = True
    #: Newton passes over the two players at most, per game.
    PASSES = 50

    def __init__(self, system: str, params: Mapping[str, Any]):
        self.params = dict(params)
        w2 = float(params["w2"])
        self.w2 = (math.sqrt(w2) / whr.ELO) ** 2
        self.prior = float(params["prior_games"])
        self.tolerance = float(params["tolerance"]) or 1e-9
        self.per_stone = float(params["elo_per_stone"])
        self.label: Callable[[RatingState], str] = lambda state: ""

    def start(self, rank: str | None = None) -> tuple[RatingState, str]:
        return RatingState(0.0, None), "prior (Elo 0)"  # (WHR uses no start: its prior)

    def day(self, date: str) -> int:
        return Date.fromisoformat(date).toordinal()

    def fit_two(self, pair: list[list[tuple[int, float]]], games) -> list[list[tuple]]:
        """The two players' days fitted again: ``pair`` = each one's days (day, r) with
        the new game's day among them; ``games`` = (side 0/1, day, opponent's r that day
        or None when the opponent is the other of the two, score, Elo added to the side's
        opponent). Returns each one's days (day, r, variance)."""
        days = [{d: whr._Day(d, r, False) for d, r in own} for own in pair]
        for side, day, other_r, score, shift in games:
            mine = days[side][day]
            other = days[1 - side][day] if other_r is None else whr._Day(day, other_r, False)
            mine.games.append((other, score, shift))
        ordered = [[own[d] for d in sorted(own)] for own in days]
        for own in ordered:
            own[0].first = True
        for _ in range(self.PASSES):
            before = [d.r for own in ordered for d in own]
            for own in ordered:
                whr._solve(own, self.w2, self.prior)
            moved = max(abs(d.r - r) for d, r in zip((d for o in ordered for d in o), before))
            if moved * whr.ELO <= self.tolerance:
                break
        for own in ordered:
            whr._variances(own, self.w2, self.prior)
        return [[(d.day, d.r, d.variance) for d in own] for own in ordered]

    def fit_all(self, games) -> dict:
        """Every player fitted (the batch run's fit): ``games`` = (black, white, score,
        day, Elo added to Black)."""
        return whr.fit(
            games, float(self.params["w2"]), self.prior, int(self.params["iterations"]),
            float(self.params["tolerance"]),
        )  # fmt: skip


#: The calendar periods a store rates (an event is a tournament: rate it in a batch).
CALENDAR = ("day", "week", "month")


def for_system(system: str, params: Mapping[str, Any]) -> GameByGame:
    """The store's rater of ``system`` (refused by name when it has none)."""
    name = system.lower()
    if name == egf.NAME:
        return ByTournament(name, params)  # type: ignore[return-value]
    if name == whr.NAME:
        return WholeHistory(name, params)  # type: ignore[return-value]
    if name not in SYSTEMS:
        raise ConfigError(
            f"a store rates game by game with {', '.join(SYSTEMS)}, and tournaments with "
            f"{egf.NAME}; {system!r} fits the whole history (rate it with sodos ratings)",
            where="store.rating",
        )
    period = params.get("period", "game")
    if period in CALENDAR:
        return ByPeriod(name, params)
    if period != "game":
        raise ConfigError(
            f"a store rates {system} with period = game, day, week or month, not "
            f"{period!r} (a tournament at once: rate it with sodos ratings)",
            where=f"rating.{name}.period",
        )
    return GameByGame(name, params)
