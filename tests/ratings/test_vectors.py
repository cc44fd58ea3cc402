"""Every published rating vector in ``shared/data/ratings/`` reproduced within its
tolerance, the files read in place. Each ``function`` of the files is
computed with the built-in systems' own functions (docs/rules.md §10)."""

from __future__ import annotations

import json
import math

import pytest
from conftest import SHARED_DATA, shared_path

from sodos_plugin.ratings.systems import egf, glicko2, whr

FILES = ("glicko2.json", "egf_gor_2021.json", "egf_gor_old.json", "whr.json", "ogs_glicko2.json")
S = glicko2.SCALE


def _vectors():
    for name in FILES:
        path = SHARED_DATA / "ratings" / name
        if not path.is_file():
            yield pytest.param(name, None, id=f"{name}-absent")
            continue
        for vector in json.loads(path.read_text("utf-8"))["vectors"]:
            yield pytest.param(name, vector, id=vector["id"])


def check(vector: dict, computed: dict) -> None:
    missing = set(vector["expect"]) - set(computed)
    assert not missing, f"not computed: {sorted(missing)}"
    for key, want in vector["expect"].items():
        got = computed[key]
        value = want["value"]
        if isinstance(value, (str, bool)):
            assert got == value, key
        else:
            tol = want.get("tol", 0)  # a number without tol is exact
            assert abs(got - value) <= tol + 1e-15, (key, got, value, tol)


# -- EGF 2021 ---------------------------------------------------------------------------


def egf2021_game(i):
    mine = egf.game_contribution(i["r"], i["opponent"], i["sa"], 0, 0)
    theirs = egf.game_contribution(i["opponent"], i["r"], 1 - i["sa"], 0, 0)
    return {
        "new_rating": i["r"] + mine["change"],
        "change": mine["change"],
        "Se": mine["expected"],
        "opponent_Se": theirs["expected"],
        "con": mine["con"],
        "bonus": mine["bonus"],
        "beta": mine["beta"],
        "opponent_new_rating": i["opponent"] + theirs["change"],
    }


def egf2021_se(i):
    own, other = i.get("stones_received", 0), i.get("stones_received_by_opponent", 0)
    mine = egf.game_contribution(i["r"], i["opponent"], 1, own, other)
    theirs = egf.game_contribution(i["opponent"], i["r"], 0, other, own)
    return {"Se": mine["expected"], "opponent_Se": theirs["expected"]}


def tournament(i, formula="2021", epsilon=0.016):
    """Through the system's own rate(): one event, the player against each opponent."""
    from sodos_hookspecs import GameHistory, HistoryGame, InitialRating, RatingState

    games, initial = [], {"p": InitialRating(RatingState(i["r"]))}
    for n, (rating, sa) in enumerate(i["games"]):
        games.append(HistoryGame("2024-01-01", "t", "p", f"o{n}", float(sa)))
        initial[f"o{n}"] = InitialRating(RatingState(rating))
    params = {p.name: p.default for p in egf.PARAMETERS}
    params.update(formula=formula, epsilon=epsilon, decimals=-1, details=True)
    result = egf.rate(GameHistory(games), initial, params)
    return {"new_rating": result.final["p"].rating}


# -- EGF before 2021 --------------------------------------------------------------------


def egfold_se(i):
    return {"Se": egf.se_old(i["r"], i["opponent"], i["epsilon"])}


def egfold_game(i):
    adj = i.get("adj", 0)
    stones = 0
    if adj:  # goratings' GorEntry(r, adj): adj = 100(h - 0.5)
        stones = round(adj / 100 + 0.5)
        assert egf.handicap_adjustment(stones) == adj
    eps = i["epsilon"]
    mine = egf.game_contribution(i["r"], i["opponent"], i["sa"], stones, 0, "pre2021", eps)
    theirs = egf.game_contribution(i["opponent"], i["r"], 1 - i["sa"], 0, stones, "pre2021", eps)
    return {
        "new_rating": i["r"] + mine["change"],
        "opponent_new_rating": i["opponent"] + theirs["change"],
    }


def egfold_table_row(i):
    r = i["rating"]
    out = {"con": egf.con_old(r), "a": egf.a_old(r)}
    for x in i["differences"]:
        out[f"Se+{x}"] = egf.se_old(r, r + x, i["epsilon"])
    return out


# -- Glicko-2 ---------------------------------------------------------------------------


def glicko2_period(i, variant=None):
    r, rd, vol = i["player"]
    mu, phi = (r - 1500) / S, rd / S
    opps = [((o - 1500) / S, ord_ / S, s) for o, ord_, s in i["opponents"]]
    tau = i.get("tau", 0.5)
    new_mu, new_phi, new_vol, v, delta, phi_star, per_game = glicko2.update(mu, phi, vol, opps, tau)
    if i.get("variant") == "f_uses_mu_in_place_of_phi":
        # deepy/glicko2's f reads μ² where the paper has φ²: the same solver, given μ²
        new_vol = glicko2.volatility(mu * mu, v, delta, vol, tau, 1e-6)
    out = {
        "mu": mu,
        "phi": phi,
        "v": v,
        "delta": delta,
        "vol": new_vol,
        "phi_star": phi_star,
        "phi_prime": new_phi,
        "mu_prime": new_mu,
        "rating": S * new_mu + 1500,
        "rd": S * new_phi,
    }
    for n, ((mu_j, phi_j, _), (gj, e)) in enumerate(zip(opps, per_game), 1):
        out.update({f"opp{n}.mu": mu_j, f"opp{n}.phi": phi_j, f"g{n}": gj, f"E{n}": e})
    return out


def glicko2_period_scaled(i):
    opps = [tuple(o) for o in i["opponents"]]
    new_mu, new_phi, new_vol, *_ = glicko2.update(i["mu"], i["phi"], i["vol"], opps, i["tau"])
    return {"mu_prime": new_mu, "phi_prime": new_phi, "vol": new_vol}


def glicko2_no_games(i):
    phi = i["rd"] / S
    for _ in range(i.get("periods", 1)):
        phi = min(i.get("cap", math.inf) / S, glicko2.no_games(phi, i["vol"]))
    return {"rd": S * phi}


def glicko2_games(i):
    """Each game a period of its own for both players, through the system's rate()."""
    from sodos_hookspecs import GameHistory, HistoryGame, InitialRating, RatingState

    initial = {n: InitialRating(RatingState(*v)) for n, v in i["players"].items()}
    games = [HistoryGame("2024-01-01", "e", b, w, float(s)) for b, w, s in i["games"]]
    params = {p.name: p.default for p in glicko2.GLICKMAN_PARAMETERS}
    params.update(period="game", max_rd=0.0, details=False)
    result = glicko2.make_rate("glicko2")(GameHistory(games), initial, params)
    out = {}
    for name, state in result.final.items():
        out.update(
            {
                f"{name}.rating": state.rating,
                f"{name}.rd": state.deviation,
                f"{name}.vol": state.volatility,
            }
        )
    return out


def glicko2_expected_combined(i):
    e = glicko2.expected_combined(i["r1"], i["rd1"], i["r2"], i["rd2"])
    return {"E": e, "E_other": glicko2.expected_combined(i["r2"], i["rd2"], i["r1"], i["rd1"])}


def glicko2_interval(i):
    return {"low": i["r"] - 1.96 * i["rd"], "high": i["r"] + 1.96 * i["rd"]}


# -- OGS --------------------------------------------------------------------------------


def ogs_update(i):
    config = i.get("config", {})
    params = {p.name: p.default for p in glicko2.OGS_PARAMETERS}
    params.update(min_rd=config.get("min_rd", 30), max_rd=config.get("max_rd", 500))
    clamp = glicko2._Clamp(params)
    r, rd, vol = i["player"]
    if not i["matches"]:
        return {"rating": r}
    opps = [((o - 1500) / S, ord_ / S, s) for o, ord_, s in i["matches"]]
    new_mu, new_phi, new_vol, *_ = glicko2.update(
        (r - 1500) / S, rd / S, vol, opps, config.get("tao", 0.5)
    )
    state = clamp.state(S * new_mu + 1500, S * new_phi, new_vol)
    return {"rating": state.rating, "deviation": state.deviation}


def ogs_expand(i):
    params = {p.name: p.default for p in glicko2.OGS_PARAMETERS}
    params.update(min_rd=i["config"]["min_rd"], max_rd=i["config"]["max_rd"])
    clamp = glicko2._Clamp(params)
    phi = glicko2.no_games(i["rd"] / S, i["vol"], i["periods"])
    return {"deviation": clamp.state(1500, S * phi, i["vol"]).deviation}


def ogs_expected(i):
    (r1, _), (r2, rd2) = i["player"], i["opponent"]
    return {"E": glicko2.expected((r1 - 1500) / S, (r2 - 1500) / S, rd2 / S)}


def ogs_user_rating(i):
    r, rd = i["rating"], i["deviation"]
    partial = glicko2.rating_to_rank(r)
    rank = math.floor(partial)
    bounded = max(5, min(38, rank))
    return {
        "rank": rank,
        "bounded_rank": bounded,
        "rank_label": glicko2.rank_label(rank),
        "bounded_rank_label": glicko2.rank_label(bounded),
        "partial_rank_label": glicko2.rank_label(partial, True),
        "partial_bounded_rank": max(5, min(38, partial)),
        "partial_bounded_rank_label": glicko2.rank_label(max(5, min(38, partial)), True),
        "rank_deviation_low_label": glicko2.rank_label(glicko2.rating_to_rank(r - rd), True),
        "rank_deviation_high_label": glicko2.rank_label(glicko2.rating_to_rank(r + rd), True),
        "provisional": rd >= glicko2.PROVISIONAL_RD,
    }


def _ogs_user(r):
    """rank_utils' rank of a user object: pro ranks as they are, else the floored rank of
    the overall rating; provisional when its deviation is ≥ 160."""
    if isinstance(r, dict):
        if r.get("pro"):
            return "pro", r["ranking"] - 36
        overall = r["ratings"]["overall"]
        if overall["deviation"] >= glicko2.PROVISIONAL_RD:
            return "provisional", None
        return "rank", math.floor(glicko2.rating_to_rank(overall["rating"]))
    return "rank", r


def ogs_rank_string(i):
    kind, rank = _ogs_user(i["r"])
    if kind == "pro":
        return {"label": f"{rank}p"}
    if kind == "provisional":
        return {"label": "?"}
    return {"label": glicko2.rank_label(rank, i["with_tenths"])}


def ogs_long_rank_string(i):
    kind, rank = _ogs_user(i["r"])
    if kind == "pro":
        return {"label": f"{rank} Pro"}
    if kind == "provisional":
        return {"label": "?"}
    return {"label": glicko2.long_rank_label(rank)}


def ogs_rank_list(i):
    out = {}
    for rank in range(i["min_rank"], i["max_rank"] + 1):
        out[str(rank)] = glicko2.long_rank_label(rank)
    if i.get("plus_on_last"):
        out[str(i["max_rank"])] += "+"
    return out


def ogs_effective(i):
    black = glicko2.rank_to_rating_value(i["black_rank"])
    white = glicko2.rank_to_rating_value(i["white_rank"])
    effective = black + glicko2.handicap_shift(black, i["handicap"])
    return {
        "black_effective_stronger": effective > white,
        "black_real_stronger": black > white,
        "white_effective_stronger": white >= effective,
        "white_real_stronger": white >= black,
    }


# -- WHR --------------------------------------------------------------------------------


def whr_run(i):
    winners = {"B": 1.0, "W": 0.0, "D": 0.5}
    games = [(b, w, winners[x], day, h) for b, w, x, day, h in i["games"]]
    fitted = whr.fit(games, i["w2"], i["prior_games"], i["iterations"])
    out = {}
    for name, days in fitted.items():
        for day, elo, variance in days:
            out[f"{name}@{day}.elo"] = elo
            out[f"{name}@{day}.var"] = variance
            out[f"{name}@{day}.sd_elo"] = math.sqrt(variance) * whr.ELO
    if "evaluate" in i:
        total = 0.0
        for b, w, x, day in i["evaluate"]:
            p = whr.game_probability(
                whr.rating_at(fitted[b], day), whr.rating_at(fitted[w], day), winners[x]
            )
            total += math.log(p)
        out["ave_log_likelihood"] = total / len(i["evaluate"])
    return out


def whr_white_win(i):
    return {"p_white": whr.game_probability(i["black_elo"], i["white_elo"], 0.0, i["handicap"])}


FUNCTIONS = {
    "egf2021.game": egf2021_game,
    "egf2021.se": egf2021_se,
    "egf2021.tournament": tournament,
    "egfold.se": egfold_se,
    "egfold.game": egfold_game,
    "egfold.table_row": egfold_table_row,
    "glicko2.period": glicko2_period,
    "glicko2.period_scaled": glicko2_period_scaled,
    "glicko2.no_games": glicko2_no_games,
    "glicko2.games": glicko2_games,
    "glicko2.expected_combined": glicko2_expected_combined,
    "glicko2.interval": glicko2_interval,
    "ogs.glicko2_update": ogs_update,
    "ogs.expand_deviation": ogs_expand,
    "ogs.expected_win_probability": ogs_expected,
    "ogs.rank_to_rating": lambda i: {"rating": glicko2.rank_to_rating_value(i["rank"])},
    "ogs.rating_to_rank": lambda i: {"rank": glicko2.rating_to_rank(i["rating"])},
    "ogs.rank_deviation": lambda i: {
        "rank_deviation": glicko2.rank_deviation(i["rating"], i["deviation"])
    },
    "ogs.user_rating": ogs_user_rating,
    "ogs.rank_string": ogs_rank_string,
    "ogs.long_rank_string": ogs_long_rank_string,
    "ogs.rank_list": ogs_rank_list,
    "ogs.effective_outcome": ogs_effective,
    "whr.run": whr_run,
    "whr.white_win_probability": whr_white_win,
}


@pytest.mark.parametrize(("name", "vector"), list(_vectors()))
def test_vector(name, vector):
    if vector is None:
        shared_path("ratings", name)  # skips with the reason
    function = FUNCTIONS.get(vector["function"])
    assert function is not None, f"no implementation for {vector['function']}"
    check(vector, function(vector["input"]))


def test_every_vector_file_is_read():
    folder = shared_path("ratings")
    found = sorted(p.name for p in folder.glob("*.json"))
    assert found == sorted(FILES), "a vector file was added or removed: read it here"
