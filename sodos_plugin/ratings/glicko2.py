"""Glicko-2 (docs/rules.md §10.5-10.6): Glickman's algorithm, and OGS's preset.

Two systems from one set of formulas (Glickman, *Example of the Glicko-2 system*):

* ``glicko2`` — rating periods as Glickman describes them; a period is an event (the
  default), a day, a week, a month, or one game; a player who sits out k calendar
  periods has φ² + k·σ² before the next one; RD at most 350.
* ``ogs`` — OGS's ratings v5 (online-go/goratings): one game is a period of its own for
  both players; τ 0.5; rating clamped to [100, 6000], RD to [30, 500], volatility to
  [0.01, 0.15]; OGS's rank scale (rank = 23.15·ln(r/525), 30k = 0, 1d = 30).

Per period, on the Glicko-2 scale (μ = (r − 1500)/173.7178, φ = RD/173.7178)::

    g(φ) = 1/√(1 + 3φ²/π²),  E = 1/(1 + exp(−g(φⱼ)(μ − μⱼ)))
    v = [Σ g(φⱼ)² E (1 − E)]⁻¹,  Δ = v Σ g(φⱼ)(sⱼ − E)
    σ′ by the Illinois iteration on f(x) (ε = 1e-6), φ* = √(φ² + σ′²)
    φ′ = 1/√(1/φ*² + 1/v),  μ′ = μ + φ′² Σ g(φⱼ)(sⱼ − E)

Handicap (``handicap = "ranks"``): h stones move Black h ranks up on OGS's rank scale
— in Black's update White is seen h ranks lower, in White's update Black h ranks
higher (OGS v5). First ratings: the unrated 1500/350/0.06; a rank gives OGS's
``525·exp(rank/23.15)`` with RD 250 (OGS's seeding from a chosen rank).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date as Date
from typing import Any

from sodos_hookspecs import (
    GameHistory,
    HistoryGame,
    InitialRating,
    Parameter,
    RatingResult,
    RatingState,
    RatingStep,
    RatingSystem,
    hookimpl,
)

from sodos_plugin.ranks import parse_rank
from sodos_plugin.ratings._periods import event_name, events_in_order, seed

SCALE = 173.7178
_PI2 = math.pi * math.pi
PERIODS = ("event", "game", "day", "week", "month")
SOURCE = (
    "docs/rules.md §10.5-10.6 (Glickman, Example of the Glicko-2 system; "
    "online-go/goratings glicko2.py; online-go.com rank_utils.ts)"
)
#: Safety bound of the volatility iteration (as goratings): it converges in a few steps.
MAX_ITERATIONS = 100

# OGS rank scale (online-go.com rank_utils.ts)
RANK_A = 525.0
RANK_C = 23.15
MIN_RANK_RATING, MAX_RANK_RATING = 100.0, 6000.0
PROVISIONAL_RD = 160.0


def _parameters(
    period: str,
    min_rd: float,
    max_rd: float,
    min_rating: float,
    max_rating: float,
    min_vol: float,
    max_vol: float,
) -> tuple[Parameter, ...]:
    return (
        Parameter("tau", 0.5, "system constant τ (constrains volatility over time)"),
        Parameter("epsilon", 1e-6, "convergence tolerance of the volatility iteration"),
        Parameter("period", period, "rating period: event, game, day, week or month", PERIODS),
        Parameter("rating", 1500.0, "first rating of an unrated player"),
        Parameter("deviation", 350.0, "first RD of an unrated player"),
        Parameter("volatility", 0.06, "first volatility"),
        Parameter("rank_deviation", 250.0, "first RD of a player seeded from a rank"),
        Parameter("min_rd", min_rd, "RD is clamped to at least this (0: no lower clamp)"),
        Parameter("max_rd", max_rd, "RD is clamped to at most this (0: no upper clamp)"),
        Parameter("min_rating", min_rating, "rating clamped to at least this (0: none)"),
        Parameter("max_rating", max_rating, "rating clamped to at most this (0: none)"),
        Parameter("min_volatility", min_vol, "volatility clamped to at least this (0: none)"),
        Parameter("max_volatility", max_vol, "volatility clamped to at most this (0: none)"),
        Parameter(
            "handicap",
            "ranks",
            "ranks: h stones move Black h ranks up (OGS v5); ignore: rated as even",
            ("ranks", "ignore"),
        ),
    )


GLICKMAN_PARAMETERS = _parameters("event", 0.0, 350.0, 0.0, 0.0, 0.0, 0.0)
OGS_PARAMETERS = _parameters("game", 30.0, 500.0, 100.0, 6000.0, 0.01, 0.15)


# -- the formulas --------------------------------------------------------------------------


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / _PI2)


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """The paper's E: the opponent's φ only."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_combined(r1: float, rd1: float, r2: float, rd2: float) -> float:
    """A prediction between two rated players, g(√(φ₁² + φ₂²)) (skillratings, glicko2js);
    not used in updates."""
    phi = math.hypot(rd1, rd2) / SCALE
    return 1.0 / (1.0 + math.exp(-g(phi) * (r1 - r2) / SCALE))


def volatility(phi2: float, v: float, delta: float, sigma: float, tau: float, eps: float) -> float:
    """σ′: the root of f by the Illinois iteration (the paper's step 5).

    ``phi2`` is the player's φ² (an implementation that put μ² there is reproduced by
    passing μ²). At most :data:`MAX_ITERATIONS` steps of each loop (it converges in a few).
    """
    log, exp = math.log, math.exp
    a = log(sigma * sigma)
    d2 = delta * delta
    tau2 = tau * tau
    pv = phi2 + v
    # f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ², written out where used
    big_a = a
    if d2 > pv:
        big_b = log(d2 - pv)
    else:
        k = 1
        while k < MAX_ITERATIONS:
            x = a - k * tau
            ex = exp(x)
            s = pv + ex
            if ex * (d2 - pv - ex) / (2.0 * s * s) - (x - a) / tau2 >= 0:
                break
            k += 1
        big_b = a - k * tau
    ex = exp(big_a)
    s = pv + ex
    fa = ex * (d2 - pv - ex) / (2.0 * s * s)  # (A − a) is 0
    ex = exp(big_b)
    s = pv + ex
    fb = ex * (d2 - pv - ex) / (2.0 * s * s) - (big_b - a) / tau2
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= eps:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        ex = exp(c)
        s = pv + ex
        fc = ex * (d2 - pv - ex) / (2.0 * s * s) - (c - a) / tau2
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return exp(big_a / 2.0)


def update(
    mu: float,
    phi: float,
    sigma: float,
    games: Sequence[tuple[float, float, float]],
    tau: float = 0.5,
    eps: float = 1e-6,
) -> tuple[float, float, float, float, float, float, list[tuple[float, float]]]:
    """One period on the Glicko-2 scale: ``games`` = (μⱼ, φⱼ, sⱼ), at least one.

    Returns μ′, φ′, σ′, v, Δ, φ* and per game (g, E): the intermediates ``explain`` shows.
    """
    v_inv = 0.0
    total = 0.0
    per_game = []
    exp = math.exp
    for mu_j, phi_j, s in games:
        gj = 1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / _PI2)
        e = 1.0 / (1.0 + exp(-gj * (mu - mu_j)))
        v_inv += gj * gj * e * (1.0 - e)
        total += gj * (s - e)
        per_game.append((gj, e))
    v = 1.0 / v_inv
    delta = v * total
    phi2 = phi * phi
    new_sigma = volatility(phi2, v, delta, sigma, tau, eps)
    phi_star2 = phi2 + new_sigma * new_sigma
    new_phi = 1.0 / math.sqrt(1.0 / phi_star2 + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return new_mu, new_phi, new_sigma, v, delta, math.sqrt(phi_star2), per_game


def no_games(phi: float, sigma: float, periods: int = 1) -> float:
    """φ after ``periods`` rating periods without games: √(φ² + k·σ²)."""
    return math.sqrt(phi * phi + periods * sigma * sigma)


# -- OGS rank scale -------------------------------------------------------------------------


def rating_to_rank(rating: float) -> float:
    return math.log(min(MAX_RANK_RATING, max(MIN_RANK_RATING, rating)) / RANK_A) * RANK_C


def rank_to_rating_value(rank: float) -> float:
    return RANK_A * math.exp(rank / RANK_C)


def rank_deviation(rating: float, deviation: float) -> float:
    return rating_to_rank(rating + deviation) - rating_to_rank(rating)


def rank_label(rank: float, tenths: bool = False) -> str:
    """OGS's short label: rank < 30 → kyu (ceil), else dan (floor); ``tenths`` adds one
    decimal the way OGS forms it; above 900 a pro rank (1037 = 1p)."""
    if rank > 900:
        return f"{_js_number(rank - 1000 - 36)}p"
    if rank < 30:
        if tenths:
            return f"{math.ceil((30 - rank) * 10) / 10:.1f}k"
        return f"{math.ceil(30 - rank)}k"
    if tenths:
        return f"{math.floor((rank - 29) * 10) / 10:.1f}d"
    return f"{math.floor(rank - 29)}d"


def long_rank_label(rank: float) -> str:
    if rank > 900:
        return f"{_js_number(rank - 1000 - 36)} Pro"
    if rank < 30:
        return f"{_js_number(30 - rank)} Kyu"
    return f"{_js_number(rank - 30 + 1)} Dan"


def _js_number(x: float) -> str:
    """A number as JavaScript prints it (3.0 → "3", 3.5 → "3.5")."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def label(state: RatingState) -> str:
    """``"6.3k"`` (OGS's partial rank), ``"?"`` when provisional (RD ≥ 160)."""
    if state.deviation is not None and state.deviation >= PROVISIONAL_RD:
        return "?"
    return rank_label(rating_to_rank(state.rating), tenths=True)


def ogs_rank(text: str) -> float:
    """A rank text on OGS's scale: 30k = 0, 1k = 29, 1d = 30, 9d = 38 (pros at 9d)."""
    return float(parse_rank(text) + 30)


def handicap_shift(rating: float, ranks: float) -> float:
    """The rating ``ranks`` ranks away on OGS's scale, minus the rating."""
    return rank_to_rating_value(rating_to_rank(rating) + ranks) - rating


# -- rating a history -----------------------------------------------------------------------


class _Clamp:
    """The configured clamps as plain floats (a parameter of 0 is no clamp)."""

    def __init__(self, params: Mapping[str, Any]):
        inf = math.inf
        self.min_rd = float(params["min_rd"]) or 0.0
        self.max_rd = float(params["max_rd"]) or inf
        self.min_r = float(params["min_rating"]) or -inf
        self.max_r = float(params["max_rating"]) or inf
        self.min_v = float(params["min_volatility"]) or 0.0
        self.max_v = float(params["max_volatility"]) or inf

    def state(self, r: float, rd: float, vol: float) -> RatingState:
        return RatingState(
            min(self.max_r, max(self.min_r, r)),
            min(self.max_rd, max(self.min_rd, rd)),
            min(self.max_v, max(self.min_v, vol)),
        )


def _period_index(day: str, period: str) -> int:
    d = Date.fromisoformat(day)
    if period == "day":
        return d.toordinal()
    if period == "week":
        return (d.toordinal() - 1) // 7  # weeks from Monday (ordinal 1 is a Monday)
    return d.year * 12 + d.month - 1


def _periods(history: GameHistory, period: str) -> list[tuple[str, str, list[HistoryGame]]]:
    """(label, first date, games) of each period except ``"game"``."""
    if period == "event":
        return [
            (event_name(history, key), games[0].date, games)
            for key, games in events_in_order(history)
        ]
    buckets: dict[int, list[HistoryGame]] = {}
    for game in history.games:
        buckets.setdefault(_period_index(game.date, period), []).append(game)
    out = []
    for _, games in sorted(buckets.items()):
        first = games[0].date
        text = {"day": f"day {first}", "week": f"week of {first}", "month": f"month {first[:7]}"}
        out.append((text[period], first, games))
    return out


class _Run:
    """One rating run: parameters, every player's current state, the steps so far."""

    def __init__(
        self,
        system: str,
        history: GameHistory,
        initial: Mapping[str, InitialRating],
        params: Mapping[str, Any],
    ):
        self.system = system
        self.history = history
        self.initial = initial
        self.tau, self.eps = float(params["tau"]), float(params["epsilon"])
        self.clamp = _Clamp(params)
        self.period = params["period"]
        self.handicap = params["handicap"] == "ranks"
        self.details = bool(params.get("details", True))
        self.default = RatingState(
            float(params["rating"]), float(params["deviation"]), float(params["volatility"])
        )
        rank_rd, vol0 = float(params["rank_deviation"]), float(params["volatility"])
        self.from_rank = lambda text: RatingState(
            rank_to_rating_value(ogs_rank(text)), rank_rd, vol0
        )
        self.warnings: list[str] = []
        self.origin: dict[str, str] = {}
        self.state: dict[str, RatingState] = {}
        self.steps: list[RatingStep] = []

    def current(self, player: str) -> RatingState:
        known = self.state.get(player)
        if known is None:
            first, self.origin[player] = seed(
                player,
                self.initial,
                self.history.players,
                self.from_rank,
                self.default,
                self.warnings,
                self.system,
            )
            known = RatingState(
                first.rating,
                first.deviation if first.deviation is not None else self.default.deviation,
                first.volatility if first.volatility is not None else self.default.volatility,
            )
            self.state[player] = known
        return known

    def opponent_seen(self, game: HistoryGame, colour: str, other: RatingState) -> float:
        """The opponent's rating as this player's update sees it (handicap moved)."""
        if not (self.handicap and game.handicap):
            return other.rating
        ranks = -game.handicap if colour == "B" else game.handicap
        return other.rating + handicap_shift(other.rating, ranks)

    def rate_player(
        self,
        player: str,
        label_text: str,
        day: str,
        before: RatingState,
        played: list[tuple[float, float, float, HistoryGame, str]],
    ) -> RatingState:
        r, rd, vol = before
        new_mu, new_phi, new_vol, v, delta, phi_star, per_game = update(
            (r - 1500.0) / SCALE,
            rd / SCALE,
            vol,
            [((o - 1500.0) / SCALE, o_rd / SCALE, s) for o, o_rd, s, _, _ in played],
            self.tau,
            self.eps,
        )
        after = self.clamp.state(SCALE * new_mu + 1500.0, SCALE * new_phi, new_vol)
        if not self.details:
            self.steps.append(RatingStep(player, label_text, day, before, after, len(played)))
            return after
        factor = SCALE * new_phi * new_phi  # rating points per unit of g·(s − E)
        parts, details = [], []
        for (o, o_rd, s, game, colour), (gj, e) in zip(played, per_game):
            opponent = game.white if colour == "B" else game.black
            contribution = factor * gj * (s - e)
            parts.append((f"vs {opponent}", contribution))
            details.append(
                {
                    "opponent": opponent,
                    "colour": colour,
                    "handicap": game.handicap,
                    "source": game.source,
                    "opponent_rating": o,
                    "opponent_deviation": o_rd,
                    "result": s,
                    "g": gj,
                    "expected": e,
                    "change": contribution,
                }
            )
        unclamped = SCALE * new_mu + 1500.0
        if after.rating != unclamped:
            parts.append(("rating clamp", after.rating - unclamped))
        summary = {
            "v": v,
            "delta": delta,
            "volatility": new_vol,
            "phi_star": phi_star,
            "deviation": SCALE * new_phi,
            "factor": factor,
        }
        self.steps.append(
            RatingStep(player, label_text, day, before, after, len(played), parts, details, summary)
        )
        return after

    def rate_games(self) -> None:
        """One game per period for both players, each from the other's state before it."""
        for game in self.history.games:
            b, w = self.current(game.black), self.current(game.white)
            label_text = game.source or game.event
            self.state[game.black] = self.rate_player(
                game.black,
                label_text,
                game.date,
                b,
                [(self.opponent_seen(game, "B", w), w.deviation, game.result, game, "B")],
            )
            self.state[game.white] = self.rate_player(
                game.white,
                label_text,
                game.date,
                w,
                [(self.opponent_seen(game, "W", b), b.deviation, 1.0 - game.result, game, "W")],
            )

    def rate_periods(self) -> None:
        calendar = self.period in ("day", "week", "month")
        last: dict[str, int] = {}
        for label_text, day, games in _periods(self.history, self.period):
            index = _period_index(day, self.period) if calendar else 0
            before: dict[str, RatingState] = {}
            for game in games:
                for player in (game.black, game.white):
                    if player in before:
                        continue
                    state = self.current(player)
                    missed = index - last[player] - 1 if player in last else 0
                    if missed > 0:  # calendar periods sat out: the deviation grows
                        rd = SCALE * no_games(state.deviation / SCALE, state.volatility, missed)
                        state = state._replace(deviation=min(self.clamp.max_rd, rd))
                    before[player] = state
            played: dict[str, list[tuple[float, float, float, HistoryGame, str]]] = {
                p: [] for p in before
            }
            for game in games:
                b, w = before[game.black], before[game.white]
                played[game.black].append(
                    (self.opponent_seen(game, "B", w), w.deviation, game.result, game, "B")
                )
                played[game.white].append(
                    (self.opponent_seen(game, "W", b), b.deviation, 1.0 - game.result, game, "W")
                )
            for player, games_of in played.items():
                self.state[player] = self.rate_player(
                    player, label_text, day, before[player], games_of
                )
                if calendar:
                    last[player] = index


def make_rate(system: str):
    def rate(
        history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
    ) -> RatingResult:
        run = _Run(system, history, initial, params)
        if run.period == "game":
            run.rate_games()
        else:
            run.rate_periods()
        return RatingResult(
            steps=run.steps, final=dict(run.state), initial=run.origin, warnings=run.warnings
        )

    return rate


def _rank_state(text: str) -> RatingState:
    return RatingState(rank_to_rating_value(ogs_rank(text)), 250.0, 0.06)


@hookimpl
def sodos_rating_systems() -> list[RatingSystem]:
    return [
        RatingSystem(
            name="glicko2",
            description="Glicko-2 (Glickman): periods of an event, a day, week, month or game",
            rate=make_rate("glicko2"),
            parameters=GLICKMAN_PARAMETERS,
            rank_to_rating=_rank_state,
            label=label,
            source=SOURCE,
        ),
        RatingSystem(
            name="ogs",
            description="Glicko-2, OGS preset: one game per period, OGS clamps and rank scale",
            rate=make_rate("ogs"),
            parameters=OGS_PARAMETERS,
            rank_to_rating=_rank_state,
            label=label,
            source=SOURCE,
        ),
    ]
