"""Rating systems whose results are of the wrong types, one per part of a result, and
whose saved state is not JSON-ready (tests only)."""

from __future__ import annotations

import math

from sodos_hookspecs import RatingResult, RatingState, RatingStep, RatingSystem, hookimpl


def _players(history):
    return list(dict.fromkeys(n for g in history.games for n in (g.black, g.white)))


def _final(history):
    return {n: RatingState(1500.0) for n in _players(history)}


def final_list(history, initial, params):
    return RatingResult(steps=(), final=[RatingState(1500.0)])


def step_tuples(history, initial, params):
    return RatingResult(steps=[(1, 2, 3)], final=_final(history))


def step_player_number(history, initial, params):
    state = RatingState(1500.0)
    return RatingResult(
        steps=[RatingStep(7, "p", "2024-01-01", state, state, 1)], final=_final(history)
    )


def initial_numbers(history, initial, params):
    return RatingResult(steps=(), final=_final(history), initial={n: 5 for n in _players(history)})


def warnings_text(history, initial, params):
    return RatingResult(steps=(), final=_final(history), warnings="one warning")


def state_set(history, initial, params):
    return RatingResult(steps=(), final=_final(history), state={"seen": {1, 2}})


def state_nan(history, initial, params):
    return RatingResult(steps=(), final=_final(history), state={"level": math.nan})


def state_far(history, initial, params):
    final = {n: RatingState(20_000.0) for n in _players(history)}
    return RatingResult(steps=(), final=final, state={})


@hookimpl
def sodos_rating_systems():
    return [
        RatingSystem("t-final-list", "final is a list", final_list),
        RatingSystem("t-step-tuples", "steps are plain tuples", step_tuples),
        RatingSystem("t-step-player", "a step's player is a number", step_player_number),
        RatingSystem("t-initial", "starts are numbers", initial_numbers),
        RatingSystem("t-warnings", "warnings is one text", warnings_text),
        RatingSystem("t-state-set", "a set in the state", state_set, saves_state=True),
        RatingSystem("t-state-nan", "NaN in the state", state_nan, saves_state=True),
        RatingSystem("t-state-far", "ratings beyond a start's", state_far, saves_state=True),
    ]
