"""Whole-History Rating (docs/rules.md §10.7): Coulom's WHR as GoShrine implements it.

Bradley-Terry games, P(i beats j) = γᵢ/(γᵢ + γⱼ) with γ = 10^(Elo/400) (a jigo counts
half a win and half a loss); a Wiener-process prior between a player's consecutive
days, variance |Δt|·w2 (w2 in Elo² per day); on each player's first day
``prior_games`` virtual wins and as many losses against γ = 1 (Elo 0). The maximum a
posteriori is found by Newton steps per player on the tridiagonal Hessian (with −0.001
on its diagonal), players in turn, ``iterations`` times; each day's uncertainty is the
diagonal of −H⁻¹. Handicap: ``elo_per_stone``·h Elo added to Black.

WHR rates the whole history at once: a day's rating can move when later games are
added, and no change is a sum of per-game parts. Starting ratings are not used (the
prior plays their part).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date as Date
from typing import Any

from sodos_hookspecs import (
    GameHistory,
    InitialRating,
    Parameter,
    RatingResult,
    RatingState,
    RatingStep,
    RatingSystem,
    hookimpl,
)

NAME = "whr"
SOURCE = "docs/rules.md §10.7 (Coulom, Whole-History Rating; goshrine/whole_history_rating)"
ELO = 400.0 / math.log(10.0)  # Elo points per natural unit of r
DAMPING = 0.001

PARAMETERS = (
    Parameter("w2", 300.0, "prior variance of rating change, Elo² per day"),
    Parameter("iterations", 50, "Newton passes over all players"),
    Parameter("prior_games", 1.0, "virtual wins and losses against Elo 0 on a first day"),
    Parameter("elo_per_stone", 0.0, "Elo added to Black per handicap stone"),
)


class _Day:
    __slots__ = ("day", "r", "games", "first", "variance")

    def __init__(self, day: int, r: float, first: bool):
        self.day = day
        self.r = r
        self.first = first
        self.games: list[tuple[_Day, float, float]] = []  # (opponent's day, score, elo shift)
        self.variance = 0.0

    def terms(self, prior: float) -> tuple[float, float]:
        """d log p / dr and d² log p / dr² of this day's games at the current ratings."""
        gamma = math.exp(self.r)
        first = 0.0
        second = 0.0
        for other, score, shift in self.games:
            d = math.exp(other.r + shift / ELO)
            first += score - gamma / (gamma + d)
            second -= gamma * d / ((gamma + d) ** 2)
        if self.first and prior:
            first += prior - 2.0 * prior * gamma / (gamma + 1.0)
            second -= 2.0 * prior * gamma / ((gamma + 1.0) ** 2)
        return first, second


def _solve(days: list[_Day], w2: float, prior: float) -> None:
    """One Newton step for one player's days (tridiagonal system, as GoShrine)."""
    n = len(days)
    terms = [day.terms(prior) for day in days]
    if n == 1:
        first, second = terms[0]
        days[0].r -= first / second
        return
    sigma2 = [abs(days[i + 1].day - days[i].day) * w2 for i in range(n - 1)]
    h_diag, grad = [], []
    for i, (first, second) in enumerate(terms):
        prior_h = 0.0
        prior_g = 0.0
        if i < n - 1:
            prior_h -= 1.0 / sigma2[i]
            prior_g -= (days[i].r - days[i + 1].r) / sigma2[i]
        if i > 0:
            prior_h -= 1.0 / sigma2[i - 1]
            prior_g -= (days[i].r - days[i - 1].r) / sigma2[i - 1]
        h_diag.append(second + prior_h - DAMPING)
        grad.append(first + prior_g)
    off = [1.0 / s for s in sigma2]  # h[i][i+1] = h[i+1][i]
    a = [0.0] * n
    d = [h_diag[0]] + [0.0] * (n - 1)
    b = off + [0.0]
    for i in range(1, n):
        a[i] = off[i - 1] / d[i - 1]
        d[i] = h_diag[i] - a[i] * b[i - 1]
    y = [grad[0]] + [0.0] * (n - 1)
    for i in range(1, n):
        y[i] = grad[i] - a[i] * y[i - 1]
    x = [0.0] * n
    x[n - 1] = y[n - 1] / d[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = (y[i] - b[i] * x[i + 1]) / d[i]
    for day, step in zip(days, x):
        day.r -= step


def _variances(days: list[_Day], w2: float, prior: float) -> None:
    """Diagonal of −H⁻¹ (GoShrine's covariance), stored on each day."""
    n = len(days)
    seconds = [day.terms(prior)[1] for day in days]
    sigma2 = [abs(days[i + 1].day - days[i].day) * w2 for i in range(n - 1)]
    h = []
    for i in range(n):
        prior_h = 0.0
        if i < n - 1:
            prior_h -= 1.0 / sigma2[i]
        if i > 0:
            prior_h -= 1.0 / sigma2[i - 1]
        h.append(seconds[i] + prior_h - DAMPING)
    off = [1.0 / s for s in sigma2]
    if n == 1:
        days[0].variance = -1.0 / h[0]
        return
    a = [0.0] * n
    d = [h[0]] + [0.0] * (n - 1)
    b = off + [0.0]
    for i in range(1, n):
        a[i] = off[i - 1] / d[i - 1]
        d[i] = h[i] - a[i] * b[i - 1]
    dp = [0.0] * n
    bp = [0.0] * n
    dp[n - 1] = h[n - 1]
    bp[n - 1] = off[n - 2]
    for i in range(n - 2, -1, -1):
        ap = off[i] / dp[i + 1]
        dp[i] = h[i] - ap * bp[i + 1]
        bp[i] = off[i - 1] if i > 0 else 0.0
    for i in range(n - 1):
        days[i].variance = dp[i + 1] / (b[i] * bp[i + 1] - d[i] * dp[i + 1])
    days[n - 1].variance = -1.0 / d[n - 1]


def fit(
    games: Sequence[tuple[str, str, float, int, float]],
    w2: float = 300.0,
    prior_games: float = 1.0,
    iterations: int = 50,
) -> dict[str, list[tuple[int, float, float]]]:
    """``games`` = (black, white, Black's score, day, Elo added to Black); returns
    name → [(day, Elo, variance in natural units²)] in day order."""
    w2_natural = (math.sqrt(w2) / ELO) ** 2
    players: dict[str, dict[int, _Day]] = {}
    for black, white, score, day, shift in sorted(games, key=lambda g: g[3]):
        days_b = players.setdefault(black, {})
        days_w = players.setdefault(white, {})
        for days in (days_b, days_w):
            if day not in days:
                days[day] = _Day(day, 0.0, not days)
        # the opponent's Elo as each side sees it: Black +shift, White −shift
        days_b[day].games.append((days_w[day], score, -shift))
        days_w[day].games.append((days_b[day], 1.0 - score, shift))
    ordered = {name: [days[k] for k in sorted(days)] for name, days in players.items()}
    for days in ordered.values():
        for i, day in enumerate(days):
            day.first = i == 0
    for _ in range(max(0, iterations)):
        for days in ordered.values():
            _solve(days, w2_natural, prior_games)
    for days in ordered.values():
        _variances(days, w2_natural, prior_games)
    return {
        name: [(day.day, day.r * ELO, day.variance) for day in days]
        for name, days in ordered.items()
    }


def rating_at(history: list[tuple[int, float, float]], day: int) -> float:
    """A player's Elo on ``day``: linear between the days around it (as whr's Evaluate)."""
    before = [(d, r) for d, r, _ in history if d <= day]
    after = [(d, r) for d, r, _ in history if d >= day]
    if not before:
        return after[0][1]
    if not after:
        return before[-1][1]
    (d0, r0), (d1, r1) = before[-1], after[0]
    if d1 <= d0:
        return r1
    return ((d1 - day) * r0 + (day - d0) * r1) / (d1 - d0)


def game_probability(black_elo: float, white_elo: float, score: float, shift: float = 0.0) -> float:
    """P(the result) for Black's ``score`` (1, 0, ½: √(γb·γw)/(γb + γw))."""
    gb = 10.0 ** ((black_elo + shift) / 400.0)
    gw = 10.0 ** (white_elo / 400.0)
    if score == 1.0:
        return gb / (gb + gw)
    if score == 0.0:
        return gw / (gb + gw)
    return math.sqrt(gb * gw) / (gb + gw)


def rate(
    history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
) -> RatingResult:
    warnings: list[str] = []
    if initial:
        warnings.append(f"{NAME}: starting ratings are not used (WHR rates the whole history)")
    per_stone = float(params["elo_per_stone"])
    games = []
    labels: dict[tuple[str, int], str] = {}
    counts: dict[tuple[str, int], int] = {}
    handicapped = 0
    for game in history.games:
        day = Date.fromisoformat(game.date).toordinal()
        handicapped += bool(game.handicap)
        games.append((game.black, game.white, game.result, day, per_stone * game.handicap))
        for player in (game.black, game.white):
            labels.setdefault((player, day), game.date)
            counts[(player, day)] = counts.get((player, day), 0) + 1
    if handicapped and not per_stone:
        warnings.append(f"{NAME}: {handicapped} handicap game(s) rated as even (elo_per_stone = 0)")
    fitted = fit(
        games, float(params["w2"]), float(params["prior_games"]), int(params["iterations"])
    )
    steps = []
    final = {}
    for name, days in fitted.items():
        before = RatingState(0.0, None)
        for day, elo, variance in days:
            after = RatingState(elo, math.sqrt(variance) * ELO if variance > 0 else None)
            when = labels[(name, day)]
            steps.append(RatingStep(name, f"day {when}", when, before, after, counts[(name, day)]))
            before = after
        final[name] = before
    steps.sort(key=lambda s: (s.date, s.player))
    origin = {name: "prior (Elo 0)" for name in fitted}
    return RatingResult(steps=steps, final=final, initial=origin, warnings=warnings)


@hookimpl
def sodos_rating_systems() -> list[RatingSystem]:
    return [
        RatingSystem(
            name=NAME,
            description="Whole-History Rating (Coulom): the whole history fitted at once, by day",
            rate=rate,
            parameters=PARAMETERS,
            source=SOURCE,
        )
    ]
