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

Handicap: Black's head start d in ranks moves Black d ranks up on OGS's rank scale —
in Black's update White is seen d ranks lower, in White's update Black d ranks higher
(goratings' ``get_handicap_adjustment``). ``handicap = "effective"`` (the ``ogs``
default) computes d as goratings does today from the stones, the komi, the board size
and the rules (``get_handicap_rank_difference``); ``"ranks"`` (the ``glicko2`` default,
OGS before March 2024) counts h stones as h ranks; ``"ignore"`` rates handicap games as
even. First ratings: the unrated 1500/350/0.06; a rank gives OGS's
``525·exp(rank/23.15)`` with RD 350 (goratings seeds a rank with its default RD).

A saved state holds every player's state, the last period rated (where it sorts) and,
for calendar periods, each player's last period (the deviation grows over the periods
a player sits out, across runs as within one).
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

from sodos_plugin.engine.ranks import parse_rank
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.columns import (
    CHUNK,
    Lazy,
    StepColumns,
    StepTotals,
    first_appearance,
    game_arrays,
    levels,
)
from sodos_plugin.ratings.initial import MAX_DEVIATION, MAX_RATING
from sodos_plugin.ratings.periods import (
    GAME_KEY,
    OLD_GAME_KEY,
    event_name,
    event_order,
    events_in_order,
    game_order,
    saved_key,
    seed,
    shown_game,
)
from sodos_plugin.ratings.state import is_day, shown, too_early
from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")  # imported when a rating is computed, not when registered

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


HANDICAPS = ("effective", "ranks", "ignore")
#: Rules as goratings names them (``analysis/util/OGSGameData.py`` cleans OGS's to these).
RULES = ("japanese", "korean", "chinese", "aga", "ing", "nz")


def _parameters(
    period: str,
    min_rd: float,
    max_rd: float,
    min_rating: float,
    max_rating: float,
    min_vol: float,
    max_vol: float,
    handicap: str,
) -> tuple[Parameter, ...]:
    above_0 = {"minimum": 0.0, "minimum_excluded": True}
    rating = {"minimum": -MAX_RATING, "maximum": MAX_RATING}
    deviation = {"minimum": 0.0, "maximum": MAX_DEVIATION}
    spread = {**above_0, "maximum": MAX_DEVIATION}  # a first RD or volatility: above 0
    return (
        Parameter("tau", 0.5, "system constant τ (constrains volatility over time)", **above_0),
        Parameter("epsilon", 1e-6, "convergence tolerance of the volatility iteration", **above_0),
        Parameter("period", period, "rating period: event, game, day, week or month", PERIODS),
        Parameter("rating", 1500.0, "first rating of an unrated player", **rating),
        Parameter("deviation", 350.0, "first RD of an unrated player", **spread),
        Parameter("volatility", 0.06, "first volatility", **spread),
        Parameter(
            "rank_deviation",
            350.0,
            "first RD of a player seeded from a rank (goratings)",
            **spread,
        ),
        Parameter(
            "min_rd", min_rd, "RD is clamped to at least this (0: no lower clamp)", **deviation
        ),
        Parameter(
            "max_rd", max_rd, "RD is clamped to at most this (0: no upper clamp)", **deviation
        ),
        Parameter("min_rating", min_rating, "rating clamped to at least this (0: none)", **rating),
        Parameter("max_rating", max_rating, "rating clamped to at most this (0: none)", **rating),
        Parameter(
            "min_volatility",
            min_vol,
            "volatility clamped to at least this (0: none)",
            **deviation,
        ),
        Parameter(
            "max_volatility",
            max_vol,
            "volatility clamped to at most this (0: none)",
            **deviation,
        ),
        Parameter(
            "handicap",
            handicap,
            "effective: Black's head start in ranks from stones, komi, board size and "
            "rules (goratings); ranks: h stones are h ranks; ignore: rated as even",
            HANDICAPS,
        ),
        Parameter(
            "rules",
            "japanese",
            "the rules an effective handicap counts komi by (a history has none): "
            + ", ".join(RULES),
            RULES,
        ),
    )


GLICKMAN_PARAMETERS = _parameters("event", 0.0, 350.0, 0.0, 0.0, 0.0, 0.0, "ranks")
OGS_PARAMETERS = _parameters("game", 30.0, 500.0, 100.0, 6000.0, 0.01, 0.15, "effective")


# -- the formulas ---------------------------------------------------------------------
#
# Written once, on numpy arrays: a server's archive rates thousands of players at once
# (every player of one period, or every game of a "wave" of games that share no
# player), and a single player is an array of one. Each element goes through exactly
# the steps the paper lists, whatever else is in its array.


def g(phi):
    return 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / _PI2)


def expected(mu, mu_j, phi_j):
    """The paper's E: the opponent's φ only."""
    return 1.0 / (1.0 + np.exp(-g(phi_j) * (mu - mu_j)))


def expected_combined(r1: float, rd1: float, r2: float, rd2: float) -> float:
    """A prediction between two rated players, g(√(φ₁² + φ₂²)) (skillratings, glicko2js);
    not used in updates."""
    phi = math.hypot(rd1, rd2) / SCALE
    return float(1.0 / (1.0 + np.exp(-g(phi) * (r1 - r2) / SCALE)))


def _f(x, a, d2, pv, tau2):
    ex = np.exp(x)
    s = pv + ex
    return ex * (d2 - pv - ex) / (2.0 * s * s) - (x - a) / tau2


def volatility(phi2, v, delta, sigma, tau: float, eps: float):
    """σ′: the root of f by the Illinois iteration (the paper's step 5), element-wise.

    ``phi2`` is the player's φ² (an implementation that put μ² there is reproduced by
    passing μ²). At most :data:`MAX_ITERATIONS` steps of each loop (it converges in a
    few); an element stops when its own bracket is within ``eps``.
    """
    scalar = np.ndim(sigma) == 0
    phi2, v, delta, sigma = (
        np.atleast_1d(np.asarray(x, dtype=float)) for x in (phi2, v, delta, sigma)
    )
    a = np.log(sigma * sigma)
    d2 = delta * delta
    tau2 = tau * tau
    pv = phi2 + v
    big_b = np.empty_like(a)
    wide = d2 > pv
    big_b[wide] = np.log(d2[wide] - pv[wide])
    # B = a − kτ for the first k ≥ 1 with f(a − kτ) not negative; the elements still
    # looking are kept compact (``look``: their positions), each through the same steps
    look = np.flatnonzero(~wide)
    k = 1.0
    for _ in range(MAX_ITERATIONS):
        if not len(look):
            break
        x = a[look] - k * tau
        found = ~(_f(x, a[look], d2[look], pv[look], tau2) < 0)
        big_b[look[found]] = x[found]
        look = look[~found]
        k += 1.0
    if len(look):  # the safety bound: as the loop above would leave them
        big_b[look] = a[look] - k * tau
    # the Illinois iteration on the compacted unconverged elements
    out = a.copy()
    A, B = a.copy(), big_b
    FA, FB = _f(A, a, d2, pv, tau2), _f(B, a, d2, pv, tau2)
    i = np.arange(len(a))
    active = np.abs(B - A) > eps
    ea, ed2, epv = a, d2, pv
    for _ in range(MAX_ITERATIONS):
        if not active.all():
            i, A, B, FA, FB = i[active], A[active], B[active], FA[active], FB[active]
            ea, ed2, epv = ea[active], ed2[active], epv[active]
        if not len(i):
            break
        c = A + (A - B) * FA / (FB - FA)
        fc = _f(c, ea, ed2, epv, tau2)
        swap = fc * FB <= 0
        A = np.where(swap, B, A)
        FA = np.where(swap, FB, FA / 2.0)
        B, FB = c, fc
        active = np.abs(c - A) > eps
        out[i] = A
    big_a = out
    out = np.exp(big_a / 2.0)
    return float(out[0]) if scalar else out


def update_rows(mu, phi, sigma, row, mu_j, phi_j, s, tau: float = 0.5, eps: float = 1e-6):
    """One rating period for many players at once.

    ``mu``, ``phi``, ``sigma``: arrays per player; ``row`` (player position), ``mu_j``,
    ``phi_j``, ``s``: arrays per game of the period (every player has at least one).
    Returns per player μ′, φ′, σ′, v, Δ, φ*, and per game g and E.
    """
    n = len(mu)
    gj = g(phi_j)
    e = 1.0 / (1.0 + np.exp(-gj * (mu[row] - mu_j)))
    v = 1.0 / np.bincount(row, weights=gj * gj * e * (1.0 - e), minlength=n)
    total = np.bincount(row, weights=gj * (s - e), minlength=n)
    delta = v * total
    phi2 = phi * phi
    new_sigma = volatility(phi2, v, delta, sigma, tau, eps)
    phi_star2 = phi2 + new_sigma * new_sigma
    new_phi = 1.0 / np.sqrt(1.0 / phi_star2 + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return new_mu, new_phi, new_sigma, v, delta, np.sqrt(phi_star2), gj, e


def update(
    mu: float,
    phi: float,
    sigma: float,
    games: Sequence[tuple[float, float, float]],
    tau: float = 0.5,
    eps: float = 1e-6,
) -> tuple[float, float, float, float, float, float, list[tuple[float, float]]]:
    """One player's period on the Glicko-2 scale: ``games`` = (μⱼ, φⱼ, sⱼ), at least one.

    Returns μ′, φ′, σ′, v, Δ, φ* and per game (g, E): the intermediates ``explain`` shows.
    """
    mu_j, phi_j, s = (np.array(col, dtype=float) for col in zip(*games))
    row = np.zeros(len(games), dtype=np.intp)
    out = update_rows(
        np.array([mu], float), np.array([phi], float), np.array([sigma], float),
        row, mu_j, phi_j, s, tau, eps,
    )  # fmt: skip
    new_mu, new_phi, new_sigma, v, delta, phi_star = (float(x[0]) for x in out[:6])
    return (
        new_mu,
        new_phi,
        new_sigma,
        v,
        delta,
        phi_star,
        list(zip(out[6].tolist(), out[7].tolist())),
    )


def no_games(phi: float, sigma: float, periods: int = 1) -> float:
    """φ after ``periods`` rating periods without games: √(φ² + k·σ²)."""
    return math.sqrt(phi * phi + periods * sigma * sigma)


# -- OGS rank scale -------------------------------------------------------------------------


def rating_to_rank(rating):
    """OGS rank of a rating (element-wise): 23.15·ln(r/525), r clamped to [100, 6000]."""
    return np.log(np.clip(rating, MIN_RANK_RATING, MAX_RANK_RATING) / RANK_A) * RANK_C


def rank_to_rating_value(rank):
    return RANK_A * np.exp(rank / RANK_C)


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
    return rank_label(float(rating_to_rank(state.rating)), tenths=True)


def ogs_rank(text: str) -> float:
    """A rank text on OGS's scale: 30k = 0, 1k = 29, 1d = 30, 9d = 38 (pros at 9d)."""
    return float(parse_rank(text) + 30)


def handicap_shift(rating: float, ranks: float) -> float:
    """The rating ``ranks`` ranks away on OGS's scale, minus the rating."""
    return rank_to_rating_value(rating_to_rank(rating) + ranks) - rating


#: Komi goratings takes as perfect under territory rules, and a stone's territorial
#: value (twice a half move): ``get_handicap_rank_difference``.
PERFECT_KOMI_TERRITORY = 6.0
STONE_VALUE_TERRITORY = 2 * PERFECT_KOMI_TERRITORY
#: A small board's head start scaled to 19x19 ranks (RatingsV6.md: 3 for 13x13, 6 for 9x9).
BOARD_MULTIPLIER = {9: 6.0, 13: 3.0}


def effective_handicap(handicap, size, komi, rules: str):
    """Black's head start in ranks (element-wise), as goratings' current
    ``get_handicap_rank_difference(handicap, size, komi, rules)`` computes it: the extra
    moves (h − 1 for h ≥ 2) at a stone's value, against the komi (plus the handicap
    bonus Chinese and AGA rules give White) measured from perfect komi, over a stone's
    territorial value; on 9x9 times 6 and 13x13 times 3."""
    handicap = np.asarray(handicap, dtype=float)
    extra = np.where(handicap > 1, handicap - 1, 0.0)
    territory = rules in ("japanese", "korean")
    area_bonus = 0.0 if territory else 1.0
    if rules == "chinese":
        scoring_bonus = handicap
    elif rules == "aga":
        scoring_bonus = extra
    else:
        scoring_bonus = 0.0
    full_komi = np.asarray(komi, dtype=float) + scoring_bonus
    perfect = PERFECT_KOMI_TERRITORY + area_bonus
    stone = STONE_VALUE_TERRITORY + area_bonus
    head_start = perfect - full_komi + stone * extra
    size = np.asarray(size)
    multiplier = np.where(
        size == 9, BOARD_MULTIPLIER[9], np.where(size == 13, BOARD_MULTIPLIER[13], 1.0)
    )
    return head_start * multiplier / STONE_VALUE_TERRITORY


def head_starts(mode: str, rules: str, handicap, size, komi):
    """(Black's head start in ranks per game, how many games had no komi): ``ranks``
    counts the stones, ``effective`` computes it (a game without komi — ``NaN`` — counts
    its stones instead: the rule needs the komi), ``ignore`` is 0."""
    handicap = np.asarray(handicap, dtype=float)
    if mode == "ignore":
        return np.zeros(len(handicap)), 0
    if mode == "ranks":
        return handicap, 0
    komi = np.asarray(komi, dtype=float)
    unknown = np.isnan(komi)
    missing = int(unknown.sum())
    if missing == len(komi):
        return handicap, missing
    found = effective_handicap(handicap, size, np.where(unknown, 0.0, komi), rules)
    return np.where(unknown, handicap, found), missing


# -- rating a history -----------------------------------------------------------------------


_NO_SUMMARY = RatingStep._field_defaults["summary"]


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

    def arrays(self, r, rd, vol):
        return (
            np.clip(r, self.min_r, self.max_r),
            np.clip(rd, self.min_rd, self.max_rd),
            np.clip(vol, self.min_v, self.max_v),
        )

    def state(self, r: float, rd: float, vol: float) -> RatingState:
        return RatingState(*(float(x) for x in self.arrays(r, rd, vol)))


def rate_pairs(before, result, start, tau: float, eps: float, clamp: _Clamp):
    """One game per period for both players, for ``m`` games that share no player: the
    states ``before`` are (r, RD, σ) arrays of the ``2m`` players, Black's of each game
    then White's; ``result`` Black's scores, ``start`` Black's head starts in ranks (or
    None). Returns the states after, in the same places. The one form of a game's
    update: the batch (:meth:`_Run.rate_games_columns`, a wave at a time) and the live
    store (:mod:`sodos_plugin.store`, a game at a time) both rate with it."""
    r, rd, vol = before
    m = len(result)
    opp = np.concatenate([np.arange(m, 2 * m), np.arange(m)])
    o_r = r[opp]
    if start is not None and start.any():
        ranks = np.concatenate([-start, start])
        o_r = np.where(ranks != 0, o_r + handicap_shift(o_r, ranks), o_r)
    scores = np.concatenate([result, 1.0 - result])
    new_mu, new_phi, new_vol, *_ = update_rows(
        (r - 1500.0) / SCALE, rd / SCALE, vol, np.arange(2 * m),
        (o_r - 1500.0) / SCALE, rd[opp] / SCALE, scores, tau, eps,
    )  # fmt: skip
    return clamp.arrays(SCALE * new_mu + 1500.0, SCALE * new_phi, new_vol)


def seen_with_head_start(o_r, shifts, colours):
    """The opponents' ratings as each row's player sees them: Black's head start moves
    Black up — White's update sees Black higher, Black's update sees White lower
    (goratings' get_handicap_adjustment). ``colours``: 0 where the row is Black's."""
    if not shifts.any():
        return o_r
    ranks = np.where(colours == 0, -shifts, shifts)
    moved = o_r + handicap_shift(o_r, ranks)
    return np.where(shifts != 0, moved, o_r)


def sat_out(state: RatingState, missed: int, max_rd: float) -> RatingState:
    """A state after ``missed`` calendar periods without a game: the deviation grows
    (φ² + k·σ²), at most ``max_rd``."""
    rd = SCALE * no_games(state.deviation / SCALE, state.volatility, missed)
    return state._replace(deviation=min(max_rd, rd))


def period_index(day: str, period: str) -> int:
    """The calendar period (``day``, ``week``, ``month``) of an ISO day, as a number."""
    return _period_index(day, period)


def _period_index(day: str, period: str) -> int:
    d = Date.fromisoformat(day)
    if period == "day":
        return d.toordinal()
    if period == "week":
        return (d.toordinal() - 1) // 7  # weeks from Monday (ordinal 1 is a Monday)
    return d.year * 12 + d.month - 1


def _periods(history: GameHistory, period: str) -> list[tuple[str, str, list[HistoryGame], Any]]:
    """(label, first date, games, where it sorts) of each period except ``"game"``; where
    an event sorts is ``[first day, key]``, a calendar period its index."""
    if period == "event":
        ordered, days = events_in_order(history, with_days=True)
        return [
            (
                event_name(history, key),
                games[0].date,
                games,
                list(event_order(days[key], key, games[0])),
            )
            for key, games in ordered
        ]
    buckets: dict[int, list[HistoryGame]] = {}
    for game in history.games:
        buckets.setdefault(_period_index(game.date, period), []).append(game)
    out = []
    for index, games in sorted(buckets.items()):
        first = games[0].date
        text = {"day": f"day {first}", "week": f"week of {first}", "month": f"month {first[:7]}"}
        out.append((text[period], first, games, index))
    return out


def _shown(key: Any, period: str) -> str:
    """Where a period sorts, for people: a game's date and event, a tournament's key and
    day, a calendar period's label."""
    if period == "game" and isinstance(key, list):
        return shown_game(key)
    if period == "event" and isinstance(key, list) and len(key) == 4:
        return f"{key[3]!r} ({key[0]})"
    if isinstance(key, int) and not isinstance(key, bool):
        if period == "day":
            return Date.fromordinal(key).isoformat()
        if period == "week":
            return f"week of {Date.fromordinal(key * 7 + 1).isoformat()}"
        if period == "month":
            return f"{key // 12:04d}-{key % 12 + 1:02d}"
    return repr(key)


#: The largest index of each calendar period (the last day a date can have).
_LAST_INDEX = {
    "day": Date.max.toordinal(),
    "week": (Date.max.toordinal() - 1) // 7,
    "month": Date.max.year * 12 + 11,
}


def _is_index(value: Any, period: str) -> bool:
    return (
        isinstance(value, int) and not isinstance(value, bool) and 0 < value <= _LAST_INDEX[period]
    )


def _is_place(value: Any, period: str) -> bool:
    """Whether ``value`` is where a period of this kind sorts, as a state keeps it."""
    if period in _LAST_INDEX:
        return _is_index(value, period)
    if not isinstance(value, list) or not value or not is_day(value[0]):
        return False
    if period == "event":  # [day, time, id order, key], or [day, key] as saved before
        return len(value) in (2, 4) and isinstance(value[-1], str)
    # a game's key (game_order), or one of the shorter keys saved before times and ids
    return len(value) in (OLD_GAME_KEY, GAME_KEY)


def check_state(own: Mapping[str, Any]) -> str | None:
    """Why Glicko-2's part of a saved state cannot be gone on from: ``period`` one of
    :data:`PERIODS`, ``last`` where its last period sorts (``None``: none rated) and, for
    calendar periods, ``periods``: each player's last period, an index of that kind."""
    unknown = sorted(set(own) - {"period", "last", "periods"})
    if unknown:
        return f"{unknown[0]}: not a key of Glicko-2's state (period, last, periods)"
    period = own.get("period")
    if period not in PERIODS:
        return f"period: expected one of {', '.join(PERIODS)}, got {shown(period)}"
    last = own.get("last")
    if last is not None and not _is_place(last, period):
        return f"last: {shown(last)} is not where a {period} period sorts"
    periods = own.get("periods", {})
    if not isinstance(periods, dict):
        return f"periods: expected an object (player → period), got {shown(periods)}"
    if periods and period not in _LAST_INDEX:
        return f"periods: a state of {period} periods has none"
    for name, index in periods.items():
        if not _is_index(index, period):
            return f"periods.{name}: {shown(index)} is not a {period} period's number"
    return None


def _game_key(game: HistoryGame) -> list:
    """Where a game sorts in a history (:func:`~sodos_plugin.ratings.history.game_order`),
    as JSON keeps it."""
    return list(game_order(game))


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
        self.handicap = params["handicap"]
        self.rules = params.get("rules", "japanese")
        self.no_komi = 0  # games whose effective handicap fell back on their stones
        self.details = bool(params.get("details", True))
        #: keep the steps (else only each player's games, last day, and whether every
        #: number was finite: :class:`StepTotals`, memory per player)
        self.keep = self.details or bool(params.get("steps", True))
        self.counts: dict[str, int] = {}
        self.ends: dict[str, str] = {}
        self.finite = True
        self.unkept = 0  # steps not kept
        self.default = RatingState(
            float(params["rating"]), float(params["deviation"]), float(params["volatility"])
        )
        rank_rd, vol0 = float(params["rank_deviation"]), float(params["volatility"])
        self.from_rank = lambda text: RatingState(
            float(rank_to_rating_value(ogs_rank(text))), rank_rd, vol0
        )
        self.warnings: list[str] = []
        self.origin: dict[str, str] = {}
        self.state: dict[str, RatingState] = {}
        #: every player's latest state (the start of the next period)
        self.last: dict[str, RatingState] = {}
        self.steps: list[RatingStep] = []
        #: each player's last calendar period (day, week, month periods)
        self.last_period: dict[str, int] = {}
        #: where the first and the last period rated sort (the saved state's check)
        self.first_key: Any = None
        self.last_key: Any = None
        self.resumed = None

    def resume(self, state) -> None:
        """Start from a saved state: its players' states, their last calendar periods."""
        self.resumed = state
        for name, saved in state.players.items():
            known = RatingState(
                saved.rating,
                saved.deviation if saved.deviation is not None else self.default.deviation,
                saved.volatility if saved.volatility is not None else self.default.volatility,
            )
            self.state[name] = self.last[name] = known
        periods = state.system_state.get("periods", {})
        if isinstance(periods, dict):
            self.last_period.update(
                (k, v) for k, v in periods.items() if isinstance(v, int) and k in state.players
            )

    def check_after(self, state) -> None:
        """The first period rated must sort after the state's last one."""
        saved = saved_key(state.system_state.get("last"), self.period)
        if saved is None or self.first_key is None:
            return
        first = self.first_key
        try:
            later = tuple(first) > tuple(saved) if isinstance(first, list) else first > saved
        except TypeError:
            raise InputError(
                f"system_state.last: {saved!r} is not where a {self.period} period sorts",
                where="state",
            ) from None
        if not later:
            what = {"game": "game", "event": "tournament"}.get(self.period, self.period)
            shown = (_shown(saved, self.period), _shown(first, self.period))
            raise InputError(too_early(*shown, what), where="state")

    def saved(self, state) -> dict[str, Any]:
        """What a later run needs besides the players' states."""
        last = self.last_key
        if last is None and state is not None:
            last = state.system_state.get("last")
        out: dict[str, Any] = {"period": self.period, "last": last}
        if self.period in ("day", "week", "month"):
            out["periods"] = dict(self.last_period)
        return out

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

    def head_starts(self, games) -> Any:
        """Black's head start in ranks per game (HistoryGame s), the games without komi
        counted."""
        if self.handicap == "ignore" or not games:
            return np.zeros(len(games))
        komi = [np.nan if g.komi is None else g.komi for g in games]
        found, missing = head_starts(
            self.handicap, self.rules, [g.handicap for g in games], [g.size for g in games], komi
        )
        self.no_komi += missing
        return found

    def no_komi_warning(self) -> None:
        if self.no_komi and self.handicap == "effective":
            self.warnings.append(
                f"{self.system}: {self.no_komi} game(s) without komi: their handicap "
                "counted as stones (an effective handicap needs the komi)"
            )

    def batch(self, labels, dates, players, before, opponents, scores, shifts, colours, games):
        """Rate one batch: ``players`` (names, each once), their states ``before``
        (r, RD, σ arrays), and per game row its player position (``opponents`` holds the
        opponent's r and RD as this player sees it before the handicap; ``shifts`` Black's
        head start in ranks). Appends one step per player (``labels``/``dates`` per
        player) and returns the states after."""
        row, o_r, o_rd = opponents
        o_r = seen_with_head_start(o_r, shifts, colours)
        r, rd, vol = before
        new_mu, new_phi, new_vol, v, delta, phi_star, gj, e = update_rows(
            (r - 1500.0) / SCALE, rd / SCALE, vol, row, (o_r - 1500.0) / SCALE, o_rd / SCALE,
            scores, self.tau, self.eps,
        )  # fmt: skip
        unclamped = SCALE * new_mu + 1500.0
        after_r, after_rd, after_v = self.clamp.arrays(unclamped, SCALE * new_phi, new_vol)
        counts = np.bincount(row, minlength=len(players)).tolist()
        make_step, make_state = RatingStep._make, RatingState._make
        states = list(map(make_state, zip(after_r.tolist(), after_rd.tolist(), after_v.tolist())))
        previous = self.last
        if not self.keep:
            self.finite = self.finite and _all_finite(r, rd, vol, after_r, after_rd, after_v)
            totals, ends = self.counts, self.ends
            self.unkept += len(players)
            for name, day, n, state in zip(players, dates, counts, states):
                totals[name] = totals.get(name, 0) + n
                ends[name] = day
                previous[name] = state
            return
        if not self.details:
            for name, label, day, n, state in zip(players, labels, dates, counts, states):
                self.steps.append(
                    make_step((name, label, day, previous[name], state, n, (), (), _NO_SUMMARY))
                )
                previous[name] = state
            return
        factor = SCALE * new_phi * new_phi
        contribution = factor[row] * gj * (scores - e)
        per_player: list[list[int]] = [[] for _ in players]
        for k, p in enumerate(row.tolist()):
            per_player[p].append(k)
        for p, (name, label, day, n, state) in enumerate(
            zip(players, labels, dates, counts, states)
        ):
            parts, details = [], []
            for k in per_player[p]:
                game, colour = games[k], colours[k]
                opponent = game.white if colour == 0 else game.black
                parts.append((f"vs {opponent}", float(contribution[k])))
                details.append(
                    {
                        "opponent": opponent,
                        "colour": "BW"[colour],
                        "handicap": game.handicap,
                        "round": game.round,
                        "source": game.source,
                        "head_start": float(shifts[k]) if shifts[k] else None,
                        "opponent_rating": float(o_r[k]),
                        "opponent_deviation": float(o_rd[k]),
                        "result": float(scores[k]),
                        "g": float(gj[k]),
                        "expected": float(e[k]),
                        "change": float(contribution[k]),
                    }
                )
            if after_r[p] != unclamped[p]:
                parts.append(("rating clamp", float(after_r[p] - unclamped[p])))
            summary = {
                "v": float(v[p]),
                "delta": float(delta[p]),
                "volatility": float(new_vol[p]),
                "phi_star": float(phi_star[p]),
                "deviation": float(SCALE * new_phi[p]),
                "factor": float(factor[p]),
            }
            self.steps.append(
                RatingStep(name, label, day, previous[name], state, n, parts, details, summary)
            )
            previous[name] = state

    def rate_games(self) -> None:
        """One game per period for both players, each from the other's state before it.

        Games are rated in waves: a game's wave is one more than the last wave of either
        player, so a wave's games share no player and are rated at once, each from the
        states its players had after their previous game — the same numbers as one game
        after another. Steps are then put back in the games' order.
        """
        games = self.history.games
        last_wave: dict[str, int] = {}
        waves: list[list[int]] = []
        for i, game in enumerate(games):
            for name in (game.black, game.white):
                if name not in self.last:
                    self.last[name] = self.current(name)
            w = max(last_wave.get(game.black, -1), last_wave.get(game.white, -1)) + 1
            last_wave[game.black] = last_wave[game.white] = w
            if w == len(waves):
                waves.append([])
            waves[w].append(i)
        for wave in waves:
            chosen = [games[i] for i in wave]
            n = len(chosen)
            names = [g.black for g in chosen] + [g.white for g in chosen]
            states = [self.last[x] for x in names]
            r = np.array([x[0] for x in states])
            rd = np.array([x[1] for x in states])
            vol = np.array([x[2] for x in states])
            row = np.arange(2 * n)
            other = np.concatenate([np.arange(n, 2 * n), np.arange(n)])
            result = np.array([g.result for g in chosen], dtype=float)
            scores = np.concatenate([result, 1.0 - result])
            shifts = np.tile(self.head_starts(chosen), 2)
            colours = np.repeat(np.array([0, 1], dtype=np.int64), n)
            labels = [g.source or g.event for g in chosen] * 2
            dates = [g.date for g in chosen] * 2
            self.batch(
                labels, dates, names, (r, rd, vol), (row, r[other], rd[other]),
                scores, shifts, colours, chosen * 2,
            )  # fmt: skip
        # the steps of a wave were appended black first then white: back to game order
        start = len(self.steps) - 2 * len(games)
        placed = [None] * (2 * len(games))
        k = start
        for wave in waves:
            for i in wave:
                placed[2 * i] = self.steps[k]
                k += 1
            for i in wave:
                placed[2 * i + 1] = self.steps[k]
                k += 1
        self.steps[start:] = placed

    def rate_games_columns(self) -> None:
        """:meth:`rate_games` without details, on arrays: no object per game.

        The games become arrays (players as integer ids,
        :func:`sodos_plugin.ratings.columns.game_arrays`), read a chunk of
        :data:`sodos_plugin.ratings.columns.CHUNK` games at a time: a chunk's waves are
        computed on arrays (:func:`sodos_plugin.ratings.columns.levels`), each wave is
        rated by the same formulas from the states its players had after their previous
        game (the chunks in order: the numbers of one game after another). The steps are
        columns (:class:`sodos_plugin.ratings.columns.StepColumns`) built only when read,
        or with ``steps`` false not kept at all
        (:class:`sodos_plugin.ratings.columns.StepTotals`): then the run holds memory per
        player and per chunk, beside the history's own columns.
        """
        games = self.history.games
        # players as the columns number them (no array per game), renumbered by first
        # appearance a chunk at a time
        arrays = game_arrays(games, events=False, by_appearance=False)
        table, black, white = arrays.names, arrays.black, arrays.white
        n = len(arrays)
        playing = first_appearance(black, white, len(table))
        renumber = np.empty(len(table), dtype=np.int64)
        renumber[playing] = np.arange(len(playing), dtype=np.int64)
        names = [table[p] for p in playing.tolist()]
        first = [self.current(name) for name in names]
        R = np.array([x[0] for x in first], dtype=float)
        RD = np.array([x[1] for x in first], dtype=float)
        V = np.array([x[2] for x in first], dtype=float)
        finite = _all_finite(R, RD, V)
        result = arrays.result
        if self.keep:
            before = [np.empty(2 * n) for _ in range(3)]
            after = [np.empty(2 * n) for _ in range(3)]
            both = np.empty(2 * n, dtype=np.int64)
        else:
            games_of = np.zeros(len(names), dtype=np.int64)
            last_game = np.full(len(names), -1, dtype=np.int64)
        for lo in range(0, n, CHUNK):
            hi = min(n, lo + CHUNK)
            b, w = renumber[black[lo:hi]], renumber[white[lo:hi]]
            c = hi - lo
            item = np.repeat(np.arange(c, dtype=np.int64), 2)
            pair = np.empty(2 * c, dtype=np.int64)
            pair[0::2], pair[1::2] = b, w
            wave = levels(item, pair, c)
            start, missing = None, 0
            if self.handicap != "ignore":
                h, z, km = arrays.handicap[lo:hi], arrays.size[lo:hi], arrays.komi[lo:hi]
                start, missing = head_starts(self.handicap, self.rules, h, z, km)
            self.no_komi += missing
            if start is not None and not start.any():
                start = None
            chunk_result = result[lo:hi]
            order = np.argsort(wave, kind="stable")
            bounds = np.searchsorted(wave[order], np.arange(wave.max() + 2 if c else 1))
            for k in range(len(bounds) - 1):
                idx = order[bounds[k] : bounds[k + 1]]
                m = len(idx)
                if not m:
                    continue
                players = np.concatenate([b[idx], w[idx]])
                r, rd, vol = R[players], RD[players], V[players]
                ar, ard, av = rate_pairs(
                    (r, rd, vol), chunk_result[idx], None if start is None else start[idx],
                    self.tau, self.eps, self.clamp,
                )  # fmt: skip
                if self.keep:
                    slots = 2 * (lo + idx)
                    slots = np.concatenate([slots, slots + 1])  # black's step, white's step
                    for column, values in zip(before, (r, rd, vol)):
                        column[slots] = values
                    for column, values in zip(after, (ar, ard, av)):
                        column[slots] = values
                else:
                    finite = finite and _all_finite(ar, ard, av)
                R[players], RD[players], V[players] = ar, ard, av
            if self.keep:
                both[2 * lo : 2 * hi] = pair
            else:
                games_of += np.bincount(pair, minlength=len(names))
                at = np.arange(lo, hi, dtype=np.int64)
                np.maximum.at(last_game, b, at)
                np.maximum.at(last_game, w, at)
        source, dates = arrays.source, arrays.date_column
        if self.keep:
            event = arrays.event_column
            labels = Lazy(2 * n, lambda k: source[k >> 1] or event[k >> 1])
            self.steps = StepColumns(
                names, both, labels, Lazy(2 * n, lambda k: dates[k >> 1]), before, after,
                np.ones(2 * n, dtype=np.int64),
            )  # fmt: skip
        else:
            self.steps = StepTotals(
                dict(zip(names, games_of.tolist())),
                {name: dates[g] for name, g in zip(names, last_game.tolist())},
                2 * n,
                finite,
            )
        self.last = {
            name: RatingState(r, rd, v)
            for name, r, rd, v in zip(names, R.tolist(), RD.tolist(), V.tolist())
        }

    def rate_periods(self) -> None:
        calendar = self.period in ("day", "week", "month")
        last_period = self.last_period
        periods = _periods(self.history, self.period)
        if periods:
            self.first_key, self.last_key = periods[0][3], periods[-1][3]
        if self.resumed is not None:
            self.check_after(self.resumed)
        for label_text, day, games, sorts in periods:
            index = sorts if calendar else 0
            position: dict[str, int] = {}
            for game in games:
                for name in (game.black, game.white):
                    if name not in position:
                        position[name] = len(position)
                        if name not in self.last:
                            self.last[name] = self.current(name)
                        missed = index - last_period[name] - 1 if name in last_period else 0
                        if missed > 0:  # calendar periods sat out: the deviation grows
                            self.last[name] = sat_out(self.last[name], missed, self.clamp.max_rd)
                        if calendar:
                            last_period[name] = index
            names = list(position)
            states = [self.last[x] for x in names]
            r = np.array([x[0] for x in states])
            rd = np.array([x[1] for x in states])
            vol = np.array([x[2] for x in states])
            pb = np.array([position[g.black] for g in games], dtype=np.intp)
            pw = np.array([position[g.white] for g in games], dtype=np.intp)
            row = np.concatenate([pb, pw])
            opp = np.concatenate([pw, pb])
            result = np.array([g.result for g in games], dtype=float)
            scores = np.concatenate([result, 1.0 - result])
            shifts = np.tile(self.head_starts(games), 2)
            colours = np.repeat(np.array([0, 1], dtype=np.int64), len(games))
            self.batch(
                [label_text] * len(names), [day] * len(names), names, (r, rd, vol),
                (row, r[opp], rd[opp]), scores, shifts, colours, list(games) * 2,
            )  # fmt: skip


def _all_finite(*arrays) -> bool:
    """Whether every number of the arrays is finite."""
    return all(bool(np.isfinite(a).all()) for a in arrays)


def make_rate(system: str):
    def rate(
        history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
    ) -> RatingResult:
        # at the limits of starting values (docs/rules.md §10.1) an expected score is 0 or
        # 1 exactly and v infinite: the formulas still end finite (the host checks every
        # number), and numpy's warnings of the steps between would only be noise
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            return _rate(system, history, initial, params)

    return rate


def _rate(
    system: str,
    history: GameHistory,
    initial: Mapping[str, InitialRating],
    params: Mapping[str, Any],
) -> RatingResult:
    """One run (from a saved state when ``params["state"]`` holds one)."""
    run = _Run(system, history, initial, params)
    state = params.get("state")
    if state is not None:
        run.resume(state)
    if run.period == "game":
        games = history.games
        if len(games):
            run.first_key, run.last_key = _game_key(games[0]), _game_key(games[-1])
    if state is not None and run.period == "game":
        run.check_after(state)
    if run.period == "game" and not run.details:
        run.rate_games_columns()
    elif run.period == "game":
        run.rate_games()
    else:
        run.rate_periods()
    run.no_komi_warning()
    steps = run.steps
    if not run.keep and not isinstance(steps, StepTotals):
        steps = StepTotals(run.counts, run.ends, run.unkept, run.finite)
    return RatingResult(
        steps=steps,
        final=dict(run.last),
        initial=run.origin,
        warnings=run.warnings,
        state=run.saved(state),
    )


SAVES = (
    "the last period rated (where it sorts) and, for calendar periods, each player's last period"
)

#: The first RD of a rank: goratings seeds a rank as ``Glicko2Entry(rank_to_rating(...))``,
#: whose deviation defaults to 350 (``goratings/math/glicko2.py``).
RANK_DEVIATION = 350.0


def _rank_state(text: str) -> RatingState:
    return RatingState(float(rank_to_rating_value(ogs_rank(text))), RANK_DEVIATION, 0.06)


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
            saves_state=True,
            saves=SAVES,
            check_state=check_state,
            unit="period",
        ),
        RatingSystem(
            name="ogs",
            description="Glicko-2, OGS preset: one game per period, OGS clamps and rank scale",
            rate=make_rate("ogs"),
            parameters=OGS_PARAMETERS,
            rank_to_rating=_rank_state,
            label=label,
            source=SOURCE,
            saves_state=True,
            saves=SAVES,
            check_state=check_state,
            unit="game",
        ),
    ]
