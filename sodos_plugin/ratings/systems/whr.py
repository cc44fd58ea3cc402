"""Whole-History Rating (docs/rules.md §10.7): Coulom's WHR as GoShrine implements it.

Bradley-Terry games, P(i beats j) = γᵢ/(γᵢ + γⱼ) with γ = 10^(Elo/400) (a jigo counts
half a win and half a loss); a Wiener-process prior between a player's consecutive
days, variance |Δt|·w2 (w2 in Elo² per day); on each player's first day
``prior_games`` virtual wins and as many losses against γ = 1 (Elo 0). The maximum a
posteriori is found by Newton steps per player on the tridiagonal Hessian (with −0.001
on its diagonal), players in turn, until a pass moves no day's rating by more than
``tolerance`` Elo (at most ``iterations`` passes; ``tolerance = 0``: exactly
``iterations``, GoShrine's fixed count); each day's uncertainty is the diagonal of −H⁻¹.
Handicap: ``elo_per_stone``·h Elo added to Black.

WHR rates the whole history at once: a day's rating can move when later games are
added, and no change is a sum of per-game parts. Starting ratings are not used (the
prior plays their part). So a saved state is the history itself: every game rated so
far; a run from it fits those games and the new ones together — what one run over all
of them gives — and shows the new games' days.
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

from sodos_plugin.errors import InputError
from sodos_plugin.ratings.periods import game_order, saved_key, shown_game
from sodos_plugin.ratings.state import is_day, shown, too_early

NAME = "whr"
SOURCE = "docs/rules.md §10.7 (Coulom, Whole-History Rating; goshrine/whole_history_rating)"
ELO = 400.0 / math.log(10.0)  # Elo points per natural unit of r
DAMPING = 0.001

#: The most Newton passes a run may ask for (each is a pass over every player's days).
MAX_ITERATIONS = 100_000

PARAMETERS = (
    Parameter(
        "w2",
        300.0,
        "prior variance of rating change, Elo² per day",
        minimum=0.0,
        minimum_excluded=True,
        maximum=1e9,
    ),
    Parameter(
        "iterations",
        1000,
        "at most this many Newton passes over all players",
        minimum=1,
        maximum=MAX_ITERATIONS,
    ),
    Parameter(
        "tolerance",
        0.0001,
        "stop after a pass that moved no rating by more than this, Elo (0: always iterations)",
        minimum=0.0,
    ),
    Parameter(
        "prior_games",
        1.0,
        "virtual wins and losses against Elo 0 on a first day",
        minimum=0.0,
        minimum_excluded=True,
        maximum=1e6,
    ),
    Parameter(
        "elo_per_stone",
        0.0,
        "Elo added to Black per handicap stone",
        minimum=-1000.0,
        maximum=1000.0,
    ),
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


class Fit(dict):
    """name → [(day, Elo, variance in natural units²)] in day order, and how the
    iteration ended: ``passes`` made, ``change`` the largest change of a rating in the
    last pass (Elo)."""

    passes: int = 0
    change: float = 0.0


def fit(
    games: Sequence[tuple[str, str, float, int, float]],
    w2: float = 300.0,
    prior_games: float = 1.0,
    iterations: int = 50,
    tolerance: float = 0.0,
) -> Fit:
    """``games`` = (black, white, Black's score, day, Elo added to Black); returns
    name → [(day, Elo, variance in natural units²)] in day order.

    Newton passes over all players, at most ``iterations``; with a ``tolerance`` > 0
    (Elo), it stops after the first pass in which no day's rating moved by more."""
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
    every = [day for days in ordered.values() for day in days]
    passes, moved = 0, math.inf
    for _ in range(max(0, iterations)):
        before = [day.r for day in every] if tolerance > 0 else None
        for days in ordered.values():
            _solve(days, w2_natural, prior_games)
        passes += 1
        if before is not None:
            moved = max((abs(day.r - r) for day, r in zip(every, before)), default=0.0) * ELO
            if moved <= tolerance:
                break
    for days in ordered.values():
        _variances(days, w2_natural, prior_games)
    out = Fit(
        (name, [(day.day, day.r * ELO, day.variance) for day in days])
        for name, days in ordered.items()
    )
    out.passes, out.change = passes, moved if tolerance > 0 else math.nan
    return out


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
    """The fit of the history's games (with a saved state: of its games and these); the
    steps of the days of these games (a fit moves earlier days too: a run over the whole
    history shows them)."""
    warnings: list[str] = []
    if initial:
        warnings.append(f"{NAME}: starting ratings are not used (WHR rates the whole history)")
    per_stone = float(params["elo_per_stone"])
    state = params.get("state")
    games, last = _saved_games(state) if state is not None else ([], None)
    earlier = len(games)
    handicapped = 0
    keys = []
    for game in history.games:
        day = Date.fromisoformat(game.date).toordinal()
        handicapped += bool(game.handicap)
        games.append((game.black, game.white, game.result, day, per_stone * game.handicap))
        if state is not None and len(keys) < 1:
            keys.append(list(game_order(game)))
    last = saved_key(last)
    if keys and last is not None and tuple(keys[0]) <= tuple(last):
        raise InputError(too_early(shown_game(last), shown_game(keys[0]), "game"), where="state")
    if len(history.games):
        last = list(game_order(history.games[-1]))
    if handicapped and not per_stone:
        warnings.append(f"{NAME}: {handicapped} handicap game(s) rated as even (elo_per_stone = 0)")
    iterations, tolerance = int(params["iterations"]), float(params["tolerance"])
    fitted = fit(games, float(params["w2"]), float(params["prior_games"]), iterations, tolerance)
    if tolerance > 0 and fitted.change > tolerance:
        warnings.append(
            f"{NAME}: not converged after {fitted.passes} passes (a rating still moved by "
            f"{fitted.change:.2g} Elo, tolerance {tolerance:g}): raise iterations"
        )
    counts: dict[tuple[str, int], int] = {}
    for black, white, _, day, _ in games[earlier:]:
        for player in (black, white):
            counts[(player, day)] = counts.get((player, day), 0) + 1
    steps = []
    final = {}
    for name, days in fitted.items():
        before = RatingState(0.0, None)
        for day, elo, variance in days:
            after = RatingState(elo, math.sqrt(variance) * ELO if variance > 0 else None)
            if (name, day) in counts:
                when = Date.fromordinal(day).isoformat()
                steps.append(
                    RatingStep(name, f"day {when}", when, before, after, counts[(name, day)])
                )
            before = after
        final[name] = before
    steps.sort(key=lambda s: (s.date, s.player))
    origin = {name: "prior (Elo 0)" for name in fitted}
    names: dict[str, int] = {}
    saved = [
        [day, names.setdefault(b, len(names)), names.setdefault(w, len(names)), score, shift]
        for b, w, score, day, shift in games
    ]
    return RatingResult(
        steps=steps,
        final=final,
        initial=origin,
        warnings=warnings,
        state={"names": list(names), "games": saved, "last": last},
    )


def _saved_games(state) -> tuple[list[tuple[str, str, float, int, float]], Any]:
    """A saved state's games (WHR keeps the whole history: its fit is of every game)."""
    own = state.system_state
    names, rows, last = own.get("names"), own.get("games"), own.get("last")
    if not isinstance(names, list) or not isinstance(rows, list):
        raise InputError("system_state: expected names and games (WHR)", where="state")
    games = []
    try:
        for day, b, w, score, shift in rows:
            if not all(isinstance(x, int) for x in (day, b, w)):
                raise TypeError
            games.append((names[b], names[w], float(score), day, float(shift)))
    except (TypeError, ValueError, IndexError):
        raise InputError(
            "system_state.games: expected [day, black, white, score, shift] rows", where="state"
        ) from None
    if last is not None and not isinstance(last, list):
        raise InputError("system_state.last: expected where a game sorts", where="state")
    return games, last


#: The largest Elo a saved game's handicap shift may add (the limit of a start,
#: docs/rules.md §10.1: beyond it the fit's exponentials overflow).
MAX_SHIFT = 10_000.0
_LAST_DAY = Date.max.toordinal()
_SCORES = frozenset((0.0, 0.5, 1.0))


def check_state(own: Mapping[str, Any]) -> str | None:
    """Why WHR's part of a saved state cannot be gone on from: ``names`` (distinct
    non-empty texts), ``games`` (``[day number, black, white, score, shift]`` rows:
    a day of the calendar, two different indexes into ``names``, Black's score 0, 0.5
    or 1, an Elo shift within ±:data:`MAX_SHIFT`) and ``last`` (where the last game
    sorts, or ``None``)."""
    unknown = sorted(set(own) - {"names", "games", "last"})
    if unknown:
        return f"{unknown[0]}: not a key of WHR's state (names, games, last)"
    names, rows, last = own.get("names"), own.get("games"), own.get("last")
    if not isinstance(names, list) or not isinstance(rows, list):
        return "names, games: expected two lists (WHR keeps every game rated)"
    if not set(map(type, names)) <= {str} or not all(names):
        bad = next(n for n in names if not isinstance(n, str) or not n)
        return f"names: expected players' names (texts), got {shown(bad)}"
    if len(set(names)) != len(names):
        return "names: a name is listed twice"
    count = len(names)
    for k, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 5:
            return f"games[{k}]: expected [day, black, white, score, shift], got {shown(row)}"
        day, black, white, score, shift = row
        if type(day) is not int or not 0 < day <= _LAST_DAY:
            return f"games[{k}]: day {shown(day)} is not a day's number"
        if type(black) is not int or type(white) is not int:
            return f"games[{k}]: players {shown(black)}, {shown(white)} are not indexes of names"
        if not (0 <= black < count and 0 <= white < count) or black == white:
            return f"games[{k}]: players {black}, {white} are not two of the {count} names"
        if type(score) not in (int, float) or score not in _SCORES:
            return f"games[{k}]: score {shown(score)} is not 0, 0.5 or 1"
        if type(shift) not in (int, float) or not -MAX_SHIFT <= shift <= MAX_SHIFT:
            return f"games[{k}]: shift {shown(shift)} is not within ±{MAX_SHIFT:g} Elo"
    if last is not None and (not isinstance(last, list) or not last or not is_day(last[0])):
        return f"last: {shown(last)} is not where a game sorts"
    return None


@hookimpl
def sodos_rating_systems() -> list[RatingSystem]:
    return [
        RatingSystem(
            name=NAME,
            description="Whole-History Rating (Coulom): the whole history fitted at once, by day",
            rate=rate,
            parameters=PARAMETERS,
            source=SOURCE,
            saves_state=True,
            saves="every game rated (the fit is of the whole history)",
            check_state=check_state,
            unit="period",
        )
    ]
