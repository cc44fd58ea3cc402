"""Rating systems whose numbers are not finite, one per place a number can be (tests
only): the final rating, a step's rating, a deviation."""

from __future__ import annotations

import math

from sodos_hookspecs import Parameter, RatingResult, RatingState, RatingStep, RatingSystem, hookimpl


def _players(history):
    names = []
    for game in history.games:
        for name in (game.black, game.white):
            if name not in names:
                names.append(name)
    return names


def infinite_final(history, initial, params):
    return RatingResult(steps=(), final={n: RatingState(math.inf) for n in _players(history)})


def nan_step(history, initial, params):
    names = _players(history)
    steps = [
        RatingStep(n, "p", history.games[0].date, RatingState(1500.0), RatingState(math.nan), 1)
        for n in names
    ]
    return RatingResult(steps=steps, final={n: RatingState(1500.0) for n in names})


def nan_deviation(history, initial, params):
    return RatingResult(
        steps=(), final={n: RatingState(1500.0, -math.inf * 0) for n in _players(history)}
    )


@hookimpl
def sodos_rating_systems():
    level = (Parameter("level", 1.0, "unused"),)
    return [
        RatingSystem("f-inf", "final rating infinite", infinite_final, level),
        RatingSystem("f-nan-step", "a step's rating NaN", nan_step, level),
        RatingSystem("f-nan-rd", "a deviation NaN", nan_deviation, level),
    ]
