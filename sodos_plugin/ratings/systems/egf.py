"""EGF GoR — the European Go Database's rating (docs/rules.md §10.2-10.4).

``formula = "2021"`` (default), the system in force since 2021 (the whole database was
recalculated with it)::

    Se = 1 / (1 + exp(β(r₂) − β(r₁))),  β(r) = −7 ln(3300 − r)
    con(r) = ((3300 − r) / 200) ^ 1.6
    bonus(r) = ln(1 + exp((2300 − r) / 80)) / 5
    per game: con(r)·(Sa − Se) + bonus(r)

``formula = "pre2021"``, the system before it::

    Se = 1 / (exp(D / a) + 1) − ε/2,  D = opponent − own rating, a = max(70, 205 − r/20)
    of the weaker rating; con by rating from the table (116 at 100 ... 10 at 2700,
    linear in between); per game: con(r)·(Sa − Se)

Both: a handicap of h ≥ 1 stones adds 100(h − 0.5) to the receiver's (Black's) rating
inside Se only (β, or D and a); con and bonus use the unadjusted rating. A tournament is
rated at once: every game from the ratings both players had before it, the changes
summed, scaled by the class weight (A 1, B 0.75, C 0.5, D 0.25: the whole change), the
result floored (−900 with the 2021 formula, 100 before it: the floor came with the 2021
system, docs/rules.md §10.4) and stored to 3 decimals. Only 19×19 games are rated. First
ratings: a grade gives 2100 + 100·n (1d = 2100, 1k = 2000, 20k = 100), bounded below by
the floor, professionals 1p = 2700, 2p = 2730 … 9p = 2940.

A saved state (``params["state"]``) holds every player's rating and the last tournament
rated (its first day and key); a run from it rates tournaments after that one only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import repeat
from typing import Any, NamedTuple

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

from sodos_plugin.engine.ranks import parse_rank
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.columns import (
    Lazy,
    StepColumns,
    StepTotals,
    _ranges,
    argsort_ints,
    game_arrays,
    levels,
)
from sodos_plugin.ratings.initial import MAX_RATING
from sodos_plugin.ratings.periods import (
    event_name,
    event_order,
    events_in_order,
    has_times_or_ids,
    saved_key,
    seed,
)
from sodos_plugin.ratings.state import is_day, shown, too_early
from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")  # imported when a rating is computed, not when registered

NAME = "egf"
SOURCE = (
    "docs/rules.md §10.2-10.4 (EGD rating system page; european-go/rating-system; "
    "Sensei's Library GoR table for the pre-2021 formula)"
)
#: The 2021 formulas are defined below this rating (β takes ln(3300 − r)).
CEILING = 3300.0
FORMULAS = ("2021", "pre2021")
CLASS_WEIGHTS = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
#: Pre-2021 con by rating, linear in between; 116 below 100, 10 above 2700.
CON_TABLE = (
    (100, 116), (200, 110), (300, 105), (400, 100), (500, 95), (600, 90), (700, 85),
    (800, 80), (900, 75), (1000, 70), (1100, 65), (1200, 60), (1300, 55), (1400, 51),
    (1500, 47), (1600, 43), (1700, 39), (1800, 35), (1900, 31), (2000, 27), (2100, 24),
    (2200, 21), (2300, 18), (2400, 15), (2500, 13), (2600, 11), (2700, 10),
)  # fmt: skip

#: Where a rating the formulas take may lie: the limit of a start below, the 2021
#: formulas' ceiling above (docs/rules.md §10.1, §10.3).
_RATINGS = {"minimum": -MAX_RATING, "maximum": CEILING, "maximum_excluded": True}

PARAMETERS = (
    Parameter("formula", "2021", "GoR formula: 2021 (in force) or pre2021", FORMULAS),
    Parameter(
        "floor",
        None,
        "a result below this is reset to it (default: -900 with the 2021 formula, "
        "100 with pre2021)",
        kind=float,
        **_RATINGS,
    ),
    Parameter(
        "decimals",
        3,
        "decimals of the stored rating after each tournament (EGD: 3; -1: not rounded)",
        minimum=-1,
        maximum=15,
    ),
    Parameter(
        "epsilon",
        0.016,
        "pre2021 only: the ε of Se (0.016; 0.014 in older documents)",
        minimum=0,
        maximum=1,
        maximum_excluded=True,
    ),
    Parameter(
        "use_class", True, "scale a tournament by its class (A 100 %, B 75 %, C 50 %, D 25 %)"
    ),
    Parameter(
        "default_rating", 100.0, "first rating of a player without rank (100 = 20k)", **_RATINGS
    ),
)

#: The floor each formula came with (docs/rules.md §10.3-10.4): the EGD's announcement of
#: the 2021 system moved it from 20 kyu to 30 kyu.
FLOORS = {"2021": -900.0, "pre2021": 100.0}

_PRO = re.compile(r"^\s*(\d)\s*[pP]\s*$")


# -- the formulas, on arrays ----------------------------------------------------------------


# Written once on numpy arrays (a number is an array of one): the waves of a whole
# archive, each tournament of the per-game path, explain's steps and the scalar helpers
# all compute through these functions and :func:`game_terms`, so they give the very same
# numbers. The 2021 formulas take numpy's exp and log; the pre-2021 Se takes the math
# module's exp, as it always has (numpy's differs from it in the last bit for about one
# value in twenty on CPUs with AVX-512).


def _beta(r):
    return -7.0 * np.log(CEILING - r)


def _con(r):
    return np.power((CEILING - r) / 200.0, 1.6)


def _bonus(r):
    x = (2300.0 - r) / 80.0
    # ln(1 + e^x) without overflow for very low ratings: x + ln(1 + e^-x) above 0, and
    # -|x| is x below (one exp and one log1p for both)
    tail = np.log1p(np.exp(-np.abs(x)))
    return np.where(x > 0, x + tail, tail) / 5.0


def _se(beta_own, beta_opponent):
    return 1.0 / (1.0 + np.exp(beta_opponent - beta_own))


def _con_old(r):
    """Pre-2021 con: :data:`CON_TABLE`, linear in between."""
    at = np.array([x for x, _ in CON_TABLE], dtype=float)
    value = np.array([c for _, c in CON_TABLE], dtype=float)
    i = np.clip((r - 100) // 100, 0, len(CON_TABLE) - 2).astype(np.int64)
    r0, r1, c0, c1 = at[i], at[i + 1], value[i], value[i + 1]
    inside = c0 + (c1 - c0) * (r - r0) / (r1 - r0)
    return np.where(r <= at[0], value[0], np.where(r >= at[-1], value[-1], inside))


def _a_old(weaker):
    return np.maximum(70.0, 205.0 - weaker / 20.0)


def _se_old(own, opponent, a, epsilon: float):
    d = np.asarray((opponent - own) / a, dtype=float)
    flat = d.ravel().tolist()
    e = np.fromiter(map(math.exp, flat), dtype=float, count=len(flat)).reshape(d.shape)
    return 1.0 / (e + 1.0) - epsilon / 2.0


def _adjustment(stones):
    """What h stones add to the receiver's rating inside Se: 100(h − 0.5), 0 for even."""
    return np.where(stones >= 1, 100.0 * (stones - 0.5), 0.0)


class GameTerms(NamedTuple):
    """Every term of a tournament's games (docs/rules.md §10.2-10.4), by side: each game's
    Black, then each game's White (the opponent of side ``i`` of ``n`` games is side
    ``(i + n) % 2n``)."""

    player: Any  # the side's player (a place in the ratings given)
    inside: Any  # the side's rating inside Se (its own + the handicap's); None: no handicap
    beta: Any  # 2021: β of the rating inside Se (None before 2021)
    a: Any  # before 2021: a of the game's weaker rating inside Se (None in 2021)
    expected: Any  # Se
    con: Any
    part: Any  # con·(Sa − Se)
    bonus: Any  # 0.0 before 2021
    change: Any  # (con·(Sa − Se) + bonus) · the class weight
    outside: Any  # by game: a rating inside Se of 3300 or more (2021: not rated); None: none


def game_terms(
    rating,
    black,
    white,
    result,
    stones=None,
    weight=None,
    formula: str = "2021",
    epsilon: float = 0.016,
) -> GameTerms:
    """The GoR update of one tournament's games, each from the ratings before it.

    ``rating``: the players' ratings before it (an array); ``black``, ``white``: each
    game's players (places in ``rating``); ``result``: Black's score (White's is 1 − it);
    ``stones``: Black's handicap by game (None: no handicap); ``weight``: the class
    weight, a number or by game (None: 1). β, con and bonus are computed once per player
    (they take the rating before the tournament only); the terms of a game
    :attr:`~GameTerms.outside` the formula are not numbers to use (NaN)."""
    n = len(black)
    player = np.concatenate([black, white])
    score = np.concatenate([result, 1.0 - result])
    inside = outside = beta = a = None
    if stones is not None and (stones >= 1).any():  # Black's rating gains the stones'
        inside = rating[player] + np.concatenate([_adjustment(stones), np.zeros(n)])
    # a rating at the 2021 ceiling gives NaN or -inf (its games outside), not a warning
    with np.errstate(invalid="ignore", divide="ignore"):
        if formula == "2021":
            beta = _beta(rating)[player]
            if inside is not None:
                beta[:n] = np.where(stones >= 1, _beta(inside[:n]), beta[:n])
            expected = _se(beta, np.roll(beta, n))
            con, bonus = _con(rating)[player], _bonus(rating)[player]
            if n and (rating.max() >= CEILING or inside is not None and inside.max() >= CEILING):
                high = (rating[player] if inside is None else inside) >= CEILING
                outside = high[:n] | high[n:]
        else:
            own = rating[player] if inside is None else inside
            a = _a_old(np.minimum(own, np.roll(own, n)))
            expected = _se_old(own, np.roll(own, n), a, epsilon)
            con, bonus = _con_old(rating)[player], 0.0
        part = con * (score - expected)
        change = part + bonus
    if weight is not None:
        change[:n] *= weight
        change[n:] *= weight
    return GameTerms(player, inside, beta, a, expected, con, part, bonus, change, outside)


#: What a game with a rating at the ceiling says (not rated).
_OUTSIDE = f"a rating of {CEILING:g} or more is outside the 2021 formula"


def _details(terms: GameTerms, i: int, j: int, mine, theirs, sa) -> dict[str, Any]:
    """What explain shows of side ``i`` against side ``j`` (``terms`` as lists), its
    player rated ``mine`` against ``theirs`` before the tournament, with score ``sa``;
    ``change`` with the class weight."""
    details: dict[str, Any] = {"rating": mine, "opponent_rating": theirs}
    inside = terms.inside
    if inside is not None and (inside[i] != mine or inside[j] != theirs):
        details.update(adjusted_rating=inside[i], adjusted_opponent=inside[j])
    if terms.beta is not None:
        details.update(beta=terms.beta[i], opponent_beta=terms.beta[j])
    else:
        details["a"] = terms.a[i]
    details.update(
        result=sa,
        expected=terms.expected[i],
        con=terms.con[i],
        con_times_difference=terms.part[i],
        bonus=terms.bonus[i],
        change=terms.change[i],
    )
    return details


def _as_lists(terms: GameTerms) -> GameTerms:
    """The terms as lists (a number given once: once for each side)."""
    sides = len(terms.player)
    return GameTerms(
        *(x if x is None else [x] * sides if isinstance(x, float) else x.tolist() for x in terms)
    )


# -- the scalar helpers (one game, one rating: the reference vectors' tests) ------------------


def con_old(r: float) -> float:
    return float(_con_old(np.float64(r)))


def a_old(weaker: float) -> float:
    return float(_a_old(np.float64(weaker)))


def se_old(r: float, opponent: float, epsilon: float = 0.016) -> float:
    """Pre-2021 expected score; ``a`` from the weaker of the two (adjusted) ratings."""
    r, opponent = np.float64(r), np.float64(opponent)
    return float(_se_old(r, opponent, _a_old(np.minimum(r, opponent)), epsilon))


def handicap_adjustment(stones: int) -> float:
    """What h stones add to the receiver's rating inside Se: 100(h − 0.5), 0 for even."""
    return float(_adjustment(np.int64(stones)))


def game_contribution(
    r: float,
    opponent: float,
    sa: float,
    own_stones: int,
    opponent_stones: int,
    formula: str = "2021",
    epsilon: float = 0.016,
) -> dict[str, Any]:
    """One game's change for the player rated ``r`` with score ``sa`` (0, ½ or 1), with
    every step (explain shows them): :func:`game_terms` of that game alone.

    ``own_stones``/``opponent_stones``: the handicap this player / the opponent received
    (one of them 0: the receiver is Black)."""
    if own_stones >= 1 and opponent_stones >= 1:
        raise ValueError("a handicap is received by one player of a game, not both")
    black = not opponent_stones >= 1  # the player: Black, unless the opponent receives
    terms = game_terms(
        np.array([r, opponent], dtype=float),
        np.array([0 if black else 1]),
        np.array([1 if black else 0]),
        np.array([sa if black else 1.0 - sa], dtype=float),
        np.array([own_stones if black else opponent_stones]),
        formula=formula,
        epsilon=epsilon,
    )
    if terms.outside is not None and terms.outside[0]:
        raise ValueError(_OUTSIDE)
    i = 0 if black else 1
    return _details(_as_lists(terms), i, 1 - i, r, opponent, sa)


# -- first ratings ------------------------------------------------------------------------


def rank_to_rating(text: str) -> RatingState:
    """``"1d"`` → 2100, ``"5k"`` → 1600, ``"20k"`` → 100, ``"1p"`` → 2700, ``"9p"`` → 2940."""
    pro = _PRO.match(text)
    if pro:
        n = int(pro.group(1))
        if not 1 <= n <= 9:
            raise ValueError(f"professional rank out of range 1p..9p: {text!r}")
        return RatingState(2700.0 + 30.0 * (n - 1))
    return RatingState(2100.0 + 100.0 * parse_rank(text))


def grade_start(floor: float):
    """The first rating of a grade, bounded below by the floor: before 2021 a player
    entering below 20 kyu entered at 20 kyu (100); since 2021 the scale and the floor
    both reach 30 kyu (−900)."""

    def start(text: str) -> RatingState:
        state = rank_to_rating(text)
        return state if state.rating >= floor else RatingState(floor)

    return start


# -- the run ------------------------------------------------------------------------------


def floor_of(params: Mapping[str, Any]) -> float:
    """The floor: the parameter when set, else the formula's own (:data:`FLOORS`)."""
    given = params.get("floor")
    return FLOORS[params["formula"]] if given is None else float(given)


def rate(
    history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
) -> RatingResult:
    """GoR over the history's tournaments in order; from a saved state, its players start
    where it ended and the tournaments must all come after its last one."""
    floor = floor_of(params)
    params = {**params, "floor": floor}
    state = params.get("state")
    if state is not None:
        initial = {**initial, **_state_starts(state)}
    result = _rate(history, initial, params)
    if not (params.get("details", True) or params.get("steps", True)):
        # final ratings only: the steps' totals kept, the steps dropped
        result = replace(result, steps=StepTotals.of(result.steps))
    if state is not None:
        _check_after(state, result.state)
    last = result.state.get("last_event") if result.state else None
    if last is None and state is not None:  # no tournament rated: the state's stays
        last = state.system_state.get("last_event")
    return replace(result, parameters={"floor": floor}, state={"last_event": last})


def _state_starts(state) -> dict[str, InitialRating]:
    """A saved state's players as starting ratings (their origin kept)."""
    starts = state.starts
    return {
        name: InitialRating(RatingState(s.rating), starts.get(name, ""))
        for name, s in state.players.items()
    }


def check_state(own: Mapping[str, Any]) -> str | None:
    """Why GoR's part of a saved state cannot be gone on from: ``last_event`` is
    ``None`` (nothing rated yet), ``[first day, time, id order, event key]``
    (:func:`~sodos_plugin.ratings.periods.event_order`) or, as saved before times and ids,
    ``[first day, event key]``."""
    unknown = sorted(set(own) - {"last_event"})
    if unknown:
        return f"{unknown[0]}: not a key of GoR's state (last_event)"
    saved = own.get("last_event")
    if saved is None:
        return None
    if not (
        isinstance(saved, list)
        and len(saved) in (2, 4)
        and all(isinstance(x, str) for x in saved)
        and is_day(saved[0])
        and saved[-1]
    ):
        return (
            "last_event: expected [first day YYYY-MM-DD, time, id order, event key], "
            f"got {shown(saved)}"
        )
    return None


def _check_after(state, found) -> None:
    """The first tournament rated must come after the state's last one (first day,
    then key: the order of docs/rules.md §10.1)."""
    saved = saved_key(state.system_state.get("last_event"), "event")
    first = (found or {}).get("first_event")
    if not saved or not first:
        return
    if not (isinstance(saved, list) and len(saved) == 4 and all(isinstance(x, str) for x in saved)):
        raise InputError(
            "system_state.last_event: expected [first day, time, game id, event key]",
            where="state",
        )
    if tuple(first) <= tuple(saved):
        raise InputError(
            too_early(f"{saved[3]!r} ({saved[0]})", f"{first[3]!r} ({first[0]})", "tournament"),
            where="state",
        )


def _rate(
    history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
) -> RatingResult:
    formula = params["formula"]
    floor = float(params["floor"])
    decimals = params["decimals"]
    want_details = bool(params.get("details", True))
    if not want_details and formula == "2021":
        done = _rate_arrays(history, initial, params)
        if done is not None:
            return done
    epsilon = float(params["epsilon"])
    default = RatingState(float(params["default_rating"]))
    from_rank = grade_start(floor)
    warnings: list[str] = []
    current: dict[str, float] = {}
    origin: dict[str, str] = {}
    steps: list[RatingStep] = []
    skipped_sizes = 0
    ordered, days = events_in_order(history, with_days=True)
    for key, games in ordered:
        event = history.events.get(key)
        klass = (event.tournament_class if event is not None else "").upper()
        weight = CLASS_WEIGHTS.get(klass, 1.0) if params["use_class"] else 1.0
        if klass and klass not in CLASS_WEIGHTS:
            warnings.append(
                f"{NAME}: {event_name(history, key)}: class {klass!r} unknown; rated as A"
            )
        rated = []
        for game in games:
            if game.size != 19:
                skipped_sizes += 1
                continue
            rated.append(game)
        if not rated:
            continue
        before: dict[str, float] = {}
        for game in rated:
            for name in (game.black, game.white):
                if name in before:
                    continue
                if name not in current:
                    state, origin[name] = seed(
                        name, initial, history.players, from_rank, default, warnings, NAME
                    )
                    current[name] = state.rating
                before[name] = current[name]
        per_player: dict[str, list[Any]] = {name: [] for name in before}
        _changes(rated, before, formula, epsilon, weight, want_details, per_player, warnings)
        label = event_name(history, key)
        date = event.date if event is not None and event.date else rated[0].date
        for name, details in per_player.items():
            start = before[name]
            if details and not isinstance(details[0], dict):  # no details: the changes
                after = _end(start, details, floor, decimals)[2]
                current[name] = after
                steps.append(
                    RatingStep(
                        name, label, date, RatingState(start), RatingState(after), len(details)
                    )
                )
                continue
            parts: list[tuple[str, float]] = [
                (
                    f"vs {d['opponent']}" + (f" (round {d['round']})" if d["round"] else ""),
                    d["change"],
                )
                for d in details
            ]
            total, floored, after = _end(start, [p for _, p in parts], floor, decimals)
            if total < floor:
                parts.append((f"floor {floor:g}", floor - total))
            if after != floored:
                parts.append((f"stored to {decimals} decimals", after - floored))
            current[name] = after
            steps.append(
                RatingStep(
                    player=name,
                    period=label,
                    date=date,
                    before=RatingState(start),
                    after=RatingState(after),
                    games=len(details),
                    parts=tuple(parts),
                    details=tuple(details),
                )
            )
    if skipped_sizes:
        warnings.append(f"{NAME}: {skipped_sizes} game(s) not on 19x19 not rated (GoR rates 19x19)")
    final = {name: RatingState(r) for name, r in current.items()}
    ends = {}
    if ordered:
        (first, one), (last, other) = ordered[0], ordered[-1]
        ends = {
            "first_event": list(event_order(days[first], first, one[0])),
            "last_event": list(event_order(days[last], last, other[0])),
        }
    return RatingResult(steps=steps, final=final, initial=origin, warnings=warnings, state=ends)


def _changes(rated, before, formula, epsilon, weight, want_details, per_player, warnings):
    """Each game's change for both its players (:func:`game_terms`), added to
    ``per_player`` in the games' order: with details, every term (explain shows them),
    else the numbers. A game outside the formula is not rated, with a warning (with
    details, one for each player)."""
    place = {name: k for k, name in enumerate(before)}
    n = len(rated)
    terms = game_terms(
        np.fromiter(before.values(), dtype=float, count=len(before)),
        np.fromiter((place[game.black] for game in rated), dtype=np.int64, count=n),
        np.fromiter((place[game.white] for game in rated), dtype=np.int64, count=n),
        np.fromiter((game.result for game in rated), dtype=float, count=n),
        np.fromiter((game.handicap for game in rated), dtype=np.int64, count=n),
        None if weight == 1.0 else weight,
        formula,
        epsilon,
    )
    outside = repeat(False) if terms.outside is None else terms.outside.tolist()
    not_rated = f"not rated: {_OUTSIDE}"
    if not want_details:
        change = terms.change.tolist()
        for k, (game, out) in enumerate(zip(rated, outside)):
            if out:
                warnings.append(f"{NAME}: {game.source}: {not_rated}")
                continue
            per_player[game.black].append(change[k])
            per_player[game.white].append(change[k + n])
        return
    lists = _as_lists(terms)
    for k, (game, out) in enumerate(zip(rated, outside)):
        for i, j, name, opponent, colour, sa in (
            (k, k + n, game.black, game.white, "B", game.result),
            (k + n, k, game.white, game.black, "W", 1.0 - game.result),
        ):
            if out:
                warnings.append(f"{NAME}: {game.source}: {not_rated}")
                continue
            mine, theirs = before[name], before[opponent]
            detail = {
                "opponent": opponent,
                "colour": colour,
                "handicap": game.handicap,
                "round": game.round,
                "source": game.source,
                **_details(lists, i, j, mine, theirs, sa),
            }
            if weight != 1.0:
                detail["weight"] = weight
            per_player[name].append(detail)


def _end(start: float, changes, floor: float, decimals) -> tuple[float, float, float]:
    """A player's tournament: (``start`` + ``changes`` summed exactly, that floored, that
    stored to ``decimals``: not rounded when None or negative)."""
    total = start + math.fsum(changes)
    floored = max(floor, total)
    stored = round(floored, decimals) if decimals is not None and decimals >= 0 else floored
    return total, floored, stored


def _rate_arrays(
    history: GameHistory, initial: Mapping[str, InitialRating], params: Mapping[str, Any]
) -> RatingResult | None:
    """The 2021 formula without details on arrays: the numbers, steps, seeds and warnings
    of the per-game path, with no object per game. The tournaments in order, a chunk of
    whole ones at a time (:data:`CHUNK_GAMES` games: what is held beside the columns is
    a chunk's pairs, not every game's); within a chunk, tournaments that share no player
    are rated at once (:func:`sodos_plugin.ratings.columns.levels`); within one, each
    player's β, con and bonus once, every game from the ratings before it, each player's
    changes summed as ``math.fsum`` sums them (:func:`_stored`). Without steps
    (``steps`` false) only their totals are kept (:class:`StepTotals`). ``None`` when
    the history needs that path (an unknown class: its warning comes between seeds; a
    rating at the ceiling)."""
    use_class = params["use_class"]
    if has_times_or_ids(history.games):  # events of one day then sort by their first game
        return None
    for event in history.events.values():
        klass = event.tournament_class.upper()
        if use_class and klass and klass not in CLASS_WEIGHTS:
            return None
    floor = float(params["floor"])
    decimals = params["decimals"]
    arrays = game_arrays(history.games, by_appearance=False)  # seeds are ordered below
    n, events = len(arrays), arrays.events
    event_rank, ordered, day_of = _event_order(history, arrays)
    # the rated games (19x19), grouped by event in that order, the history's order within
    # (``rated`` None: every game, already in that order, the usual history)
    rated: Any = None
    if not (arrays.size == 19).all():
        rated = np.flatnonzero(arrays.size == 19)
    ev = arrays.event if rated is None else arrays.event[rated]
    # each game's event's rank is rank[ev] (None: the events are coded in order, codes
    # are ranks); the usual history has its games by event in that order already, and
    # then no rank is made per game but a chunk's
    rank = None if ordered == list(range(len(events))) else event_rank
    if not _by_event(ev, rank):
        ev = ev if rank is None else rank[ev]
        rank = None
        by_event = argsort_ints(ev)
        rated = by_event if rated is None else rated[by_event]
        ev = ev[by_event]

    def take(column):  # a per-game column in rated order
        return column if rated is None else column[rated]

    m = len(ev)
    skipped_sizes = n - m
    black, white = take(arrays.black), take(arrays.white)
    names = arrays.names
    # per event (in order): its weight, label, date, its games' range
    if rank is None:
        game_start = np.searchsorted(ev, np.arange(len(events) + 1))
    else:
        game_start = np.zeros(len(events) + 1, dtype=np.int64)
        np.cumsum(np.bincount(ev, minlength=len(events))[ordered], out=game_start[1:])
    keys = [events[e] for e in ordered]
    own = list(map(history.events.get, keys))
    labels = [e.name if e is not None and e.name else key for e, key in zip(own, keys)]
    weights = np.ones(len(events))
    if use_class:
        klass = [(e.tournament_class if e is not None else "").upper() for e in own]
        weights[:] = [CLASS_WEIGHTS.get(c, 1.0) for c in klass]
    # an event's date: its own, else its first rated game's
    with_games = np.flatnonzero(game_start[1:] > game_start[:-1])
    first_day = np.full(len(events), -1, dtype=np.int64)
    first_game = game_start[with_games]
    first_day[with_games] = arrays.date[first_game if rated is None else rated[first_game]]
    dates = arrays.dates
    step_dates = [
        e.date if e is not None and e.date else (dates[d] if d >= 0 else "")
        for e, d in zip(own, first_day.tolist())
    ]
    result, stones = take(arrays.result), take(arrays.handicap)
    handicaps = bool((stones >= 1).any())
    weighted = bool((weights != 1.0).any())
    keep = bool(params.get("steps", True))  # else final ratings only: the steps' totals
    warnings: list[str] = []
    rating = np.zeros(len(names))
    seen = np.zeros(len(names), dtype=bool)
    origin: dict[str, str] = {}
    seed_parts: list[Any] = []
    kept: list[tuple[Any, ...]] = []  # each chunk's steps, when kept
    games_of_player = np.zeros(len(names))  # else their totals
    last_event = np.full(len(names), -1, dtype=np.int64)
    count, finite = 0, True
    slot = np.zeros(len(names), dtype=np.int64)  # a player's place among a wave's pairs
    for e0, e1 in _event_chunks(game_start):
        g0, g1 = int(game_start[e0]), int(game_start[e1])
        ev_here = (ev[g0:g1] if rank is None else rank[ev[g0:g1]]) - e0
        black_here, white_here = black[g0:g1], white[g0:g1]
        pairs = _pairs(black_here, white_here, ev_here, len(names), e1 - e0)
        pair_player, pair_event, games_of = pairs.player, pairs.event, pairs.games
        # first ratings of the players met here first, in the order the per-game path
        # seeds them (by first appearance)
        new = pairs.seeds[~seen[pairs.seeds]]
        seen[new] = True
        seeds = new.tolist()
        first, found = _first_ratings(
            history, initial, params, seeds, [names[p] for p in seeds], len(names), warnings
        )
        rating[new] = first[new]
        origin.update(found)
        seed_parts.append(new)
        # per event of the chunk: its games' and pairs' ranges
        starts = game_start[e0 : e1 + 1] - g0
        pair_start = np.searchsorted(pair_event, np.arange(e1 - e0 + 1))
        rated_here = np.flatnonzero(starts[1:] > starts[:-1])  # (events with games)
        before = np.empty(len(pair_player))
        after = np.empty(len(pair_player))
        wave = levels(pair_event, pair_player, e1 - e0, pairs.by_player)
        by_wave = rated_here[np.argsort(wave[rated_here], kind="stable")]
        bounds = np.searchsorted(wave[by_wave], np.arange(wave.max() + 2))
        result_here, stones_here = result[g0:g1], stones[g0:g1]
        for k in range(len(bounds) - 1):
            chosen = by_wave[bounds[k] : bounds[k + 1]]
            if not len(chosen):
                continue
            pi = _ranges(pair_start[chosen], pair_start[chosen + 1])  # its pairs, in order
            gi = _ranges(starts[chosen], starts[chosen + 1])  # its games, in order
            players = pair_player[pi]
            start = rating[players]
            # a wave's tournaments share no player: a player is one pair of the wave
            slot[players] = np.arange(len(pi))
            gb, gw = slot[black_here[gi]], slot[white_here[gi]]
            terms = game_terms(
                start,
                gb,
                gw,
                result_here[gi],
                stones_here[gi] if handicaps else None,
                weights[ev_here[gi] + e0] if weighted else None,  # (1 changes no number)
                params["formula"],
                float(params["epsilon"]),
            )
            if terms.outside is not None:  # (not rated, with a warning each)
                return None
            ends = _stored(start, terms.change, terms.player, games_of[pi], floor, decimals)
            before[pi] = start
            after[pi] = ends
            rating[players] = ends
        if keep:
            kept.append((pair_player, pair_event + e0, games_of, before, after))
        else:  # what StepColumns.totals and .finite give of these steps
            games_of_player += np.bincount(pair_player, weights=games_of, minlength=len(names))
            np.maximum.at(last_event, pair_player, pair_event + e0)
            finite = finite and bool(np.isfinite(before).all() and np.isfinite(after).all())
        count += len(pair_player)
    if skipped_sizes:
        warnings.append(f"{NAME}: {skipped_sizes} game(s) not on 19x19 not rated (GoR rates 19x19)")
    if keep:
        if kept:
            pair_player, pair_event, games_of, before, after = map(np.concatenate, zip(*kept))
        else:
            pair_player = pair_event = games_of = np.zeros(0, dtype=np.int64)
            before = after = np.zeros(0)
        steps: Any = StepColumns(
            names,
            pair_player,
            Lazy(count, lambda k: labels[pair_event[k]]),
            Lazy(count, lambda k: step_dates[pair_event[k]]),
            (before, None, None),
            (after, None, None),
            games_of,
        )
    else:
        met = np.flatnonzero(last_event >= 0).tolist()
        totals, ends_at = games_of_player.tolist(), last_event.tolist()
        steps = StepTotals(
            {names[p]: int(totals[p]) for p in met},
            {names[p]: step_dates[ends_at[p]] for p in met},
            count,
            finite,
        )
    seeds = np.concatenate(seed_parts).tolist() if seed_parts else []
    seed_names = [names[p] for p in seeds]
    final = dict(zip(seed_names, _states(rating[seeds].tolist())))
    played = [e for e in ordered if day_of(e) is not None]
    ends = {}
    if played:
        first, last = played[0], played[-1]
        ends = {
            "first_event": [day_of(first), "", "", events[first]],
            "last_event": [day_of(last), "", "", events[last]],
        }
    return RatingResult(steps=steps, final=final, initial=origin, warnings=warnings, state=ends)


#: Games rated a chunk at a time (whole tournaments: a chunk ends with the tournament
#: that reaches it): the pairs, waves and terms of a chunk are what the rating holds
#: beside the columns, not the pairs of every game.
CHUNK_GAMES = 1 << 20


def _by_event(ev: Any, rank: Any) -> bool:
    """Whether the games' events ranks (``rank[ev]``, or ``ev`` when ``rank`` is None)
    never decrease, checked a chunk at a time (no array per game)."""
    last = -1
    for start in range(0, len(ev), CHUNK_GAMES):
        part = ev[start : start + CHUNK_GAMES]
        if rank is not None:
            part = rank[part]
        if part[0] < last or (part[1:] < part[:-1]).any():
            return False
        last = part[-1]
    return True


def _event_chunks(game_start: Any) -> list[tuple[int, int]]:
    """The events (``game_start``: where each one's games start, and the end) in runs
    of whole events of about :data:`CHUNK_GAMES` games, those with games only."""
    total = int(game_start[-1])
    cuts = np.searchsorted(game_start, np.arange(CHUNK_GAMES, total, CHUNK_GAMES))
    bounds = sorted({0, *cuts.tolist(), len(game_start) - 1})
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if game_start[b] > game_start[a]]


def _first_ratings(
    history: GameHistory,
    initial: Mapping[str, InitialRating],
    params: Mapping[str, Any],
    seeds: list[int],
    seed_names: list[str],
    count: int,
    warnings: list[str],
) -> tuple[Any, dict[str, str]]:
    """(Each player's first rating by id, as an array of ``count``; its origin by name,
    in the seeds' order): what :func:`sodos_plugin.ratings.periods.seed` gives each, in
    that order."""
    rating = np.zeros(count, dtype=float)
    if not seeds:
        return rating, {}
    # every seed given a rating: seed()'s answers without the calls; the given ratings
    # read in their own order (their objects lie in memory about so: in the seeds'
    # order, reading them costs four times more)
    if len(initial) <= 4 * len(seeds):
        of = dict(zip(seed_names, seeds))
        given = [
            (p, g.state.rating, g.source or "initial ratings")
            for name, g in initial.items()
            if g is not None and (p := of.get(name)) is not None
        ]
    else:  # (a few seeds, as a chunk's, among many given ratings: the seeds looked up)
        given = [
            (p, g.state.rating, g.source or "initial ratings")
            for p, name in zip(seeds, seed_names)
            if (g := initial.get(name)) is not None
        ]
    if len(given) == len(seeds):
        played, values, sources = zip(*given) if given else ((), (), ())
        rating[list(played)] = values
        source = dict(zip(played, sources))
        return rating, dict(zip(seed_names, map(source.__getitem__, seeds)))
    origin: dict[str, str] = {}
    default = RatingState(float(params["default_rating"]))
    from_rank = grade_start(float(params["floor"]))
    for p, name in zip(seeds, seed_names):
        state, origin[name] = seed(
            name, initial, history.players, from_rank, default, warnings, NAME
        )
        rating[p] = state.rating
    return rating, origin


def _states(ratings: list[float]) -> Iterator[RatingState]:
    """``RatingState(r)`` of each rating, with no Python call each (a named tuple's
    ``__new__`` is ``tuple.__new__`` of its fields, the defaults None)."""
    return map(tuple.__new__, repeat(RatingState), zip(ratings, repeat(None), repeat(None)))


def _event_order(history: GameHistory, arrays) -> tuple[Any, list[int], Any]:
    """Events (codes into ``arrays.events``) by first day — of their games, or their own
    date when earlier — then key; events no game has last, as coded. Returns each
    event's rank, the events in that order, and ``day_of(e)``: the first day event ``e``
    is ordered by (``None`` for an event no game has)."""
    events, dates = arrays.events, arrays.dates
    # ISO dates sort as days: a date's rank among the distinct dates stands for it
    by_day = sorted(range(len(dates)), key=dates.__getitem__)
    date_rank = np.empty(len(dates), dtype=np.int64)
    date_rank[by_day] = np.arange(len(dates))
    none = len(dates)  # the first day of an event no game has
    first = np.full(len(events), none, dtype=np.int64)
    if len(arrays):
        in_order = by_day == list(range(len(dates)))  # the dates coded in order
        np.minimum.at(first, arrays.event, arrays.date if in_order else date_rank[arrays.date])
    # an event's own date, where it is earlier than its first game's
    code = {key: e for e, key in enumerate(events)}
    earlier = {}
    for key, event in history.events.items():
        e = code.get(key)
        if e is None or first[e] == none or not event.date:
            continue
        if event.date < dates[by_day[first[e]]]:
            earlier[e] = event.date
    day_list = [dates[d] for d in by_day]  # rank -> day
    if earlier:  # rank those dates among the others
        days = sorted({*dates, *earlier.values()})
        rank = {day: k for k, day in enumerate(days)}
        first = np.array([rank[dates[d]] for d in by_day] + [len(days)])[first]
        first[list(earlier)] = [rank[day] for day in earlier.values()]
        none = len(days)
        day_list = days
    played = np.flatnonzero(first < none)
    by_key = np.empty(len(events), dtype=np.int64)
    by_key[sorted(range(len(events)), key=events.__getitem__)] = np.arange(len(events))
    ordered = played[np.lexsort((by_key[played], first[played]))].tolist()
    ordered += np.flatnonzero(first == none).tolist()
    event_rank = np.empty(len(events), dtype=np.int64)
    event_rank[ordered] = np.arange(len(events))

    def day_of(e: int) -> str | None:
        k = int(first[e])
        return day_list[k] if k < none else None

    return event_rank, ordered, day_of


class _Pairs(NamedTuple):
    """A history's (event, player) pairs — one player's tournament, one step each."""

    player: Any  # by event, then first appearance in it
    event: Any
    games: Any  # the pair's games (a game against oneself counts twice)
    by_player: Any  # the pairs by player, then event (levels' order)
    seeds: Any  # the players, by first appearance


def _pairs(black, white, ev, players: int, events: int) -> _Pairs:
    """The pairs of rated games (``ev``: their events, non-decreasing), from one sort of
    the games' players (Black then White, game by game) by player, then event, then
    place: a pair where the player or the event changes."""
    m = len(ev)
    low = max(1, (2 * m - 1).bit_length())  # the bits of a place
    mid = max(1, (events - 1).bit_length())  # of an event
    head = np.ones(2 * m, dtype=bool)  # where a pair starts (in the sorted order)
    if max(1, (players - 1).bit_length()) + mid + low <= 63:
        # (player, event, place) packed in one int64, sorted in place: no argsort, no
        # array per occurrence but this one (fresh memory is most of the time here)
        key = np.empty(2 * m, dtype=np.int64)
        np.left_shift(black, mid, out=key[0::2])
        np.left_shift(white, mid, out=key[1::2])
        key[0::2] |= ev
        key[1::2] |= ev
        key <<= low
        step = 1 << 18  # the places added, then the pair keys compared, a slice at a time
        for start in range(0, 2 * m, step):
            key[start : start + step] |= np.arange(start, min(start + step, 2 * m), dtype=np.int64)
        key.sort()
        for start in range(0, 2 * m - 1, step):
            pair_key = key[start : start + step + 1] >> low
            head[start + 1 : start + step + 1] = pair_key[1:] != pair_key[:-1]
        heads = np.flatnonzero(head)
        at = key[heads]
        keys, first_place = at >> low, at & ((1 << low) - 1)
    else:
        occ_event = np.repeat(ev, 2)
        occ = np.empty(2 * m, dtype=np.int64)
        occ[0::2], occ[1::2] = black, white
        place = np.lexsort((occ_event, occ))
        pair_key = (occ[place] << mid) | occ_event[place]
        head[1:] = pair_key[1:] != pair_key[:-1]
        heads = np.flatnonzero(head)
        keys, first_place = pair_key[heads], place[heads]
    # keys: the pairs by player, then event
    games = np.diff(heads, append=2 * m)
    appearance = argsort_ints(first_place)  # by first occurrence
    rank = np.empty(len(heads), dtype=np.int64)
    rank[appearance] = np.arange(len(heads))
    player = keys >> mid
    first = np.ones(len(heads), dtype=bool)  # a player's first pair
    first[1:] = player[1:] != player[:-1]
    firsts = np.flatnonzero(first)
    seeds = player[firsts][np.argsort(rank[firsts], kind="stable")]
    keys = keys[appearance]
    return _Pairs(keys >> mid, keys & ((1 << mid) - 1), games[appearance], rank, seeds)


def _stored(start, changes, owner, counts, floor: float, decimals):
    """Per player: ``round(max(floor, start + math.fsum(its changes)), decimals)``, as
    :func:`_end` computes it. ``changes[i]`` is a change of player ``owner[i]``
    (``0..len(start)-1``), each player with ``counts`` of them (at least one).

    On arrays where the outcome is certain: numpy's sum is within a known bound of the
    exact one, and when every value within that bound of it lies on the same side of
    the floor and rounds to the same decimals (away from a half by more than the bound),
    numpy's ``rint(x·10^d)/10^d`` is exactly Python's ``round``. The others (one in
    millions) are computed as the per-game path does."""
    ends = np.empty(len(start))
    if decimals is None or not 0 <= decimals <= 9 or not len(start):
        slow = np.arange(len(start))
    else:
        scale = 10.0**decimals
        # a sum in order, each player's: within (count − 1)·2⁻⁵³·Σ|change| of the exact one
        sums = np.bincount(owner, weights=changes, minlength=len(start))
        size = np.bincount(owner, weights=np.abs(changes), minlength=len(start))
        approx = start + sums
        bound = (counts + 2) * 2.0**-52 * (size + np.abs(start) + np.abs(approx))
        z = approx * scale
        half = np.abs(z - np.floor(z) - 0.5)
        below = approx < floor
        sure = (np.abs(approx - floor) > bound) & (below | (half > bound * scale + 1e-6))
        ends[:] = np.where(below, round(floor, decimals), np.rint(z) / scale)
        slow = np.flatnonzero(~sure)
    if len(slow):
        offsets = np.zeros(len(start) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        bounds = offsets.tolist()
        values, first = changes[argsort_ints(owner)].tolist(), start.tolist()
        for k in slow.tolist():
            ends[k] = _end(first[k], values[bounds[k] : bounds[k + 1]], floor, decimals)[2]
    return ends


@hookimpl
def sodos_rating_systems() -> Sequence[RatingSystem]:
    return [
        RatingSystem(
            name=NAME,
            description="EGF GoR (2021 formula; pre2021 selectable): per tournament, "
            "handicap, class and the floor",
            rate=rate,
            parameters=PARAMETERS,
            rank_to_rating=rank_to_rating,
            source=SOURCE,
            saves_state=True,
            saves="the last tournament rated (its first day and key)",
            check_state=check_state,
            file_scale=True,
            decimals=3,
            unit="event",
        )
    ]
