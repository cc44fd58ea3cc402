"""A third-party rating system (tests only): "tenths", on the files' scale (GoR), shown to
one decimal, saving its state with a declared check. It touches nothing of the core: its
descriptor says every fact about it."""

from __future__ import annotations

from sodos_hookspecs import Parameter, RatingResult, RatingState, RatingStep, RatingSystem, hookimpl


def rate(history, initial, params):
    step = params["step"]
    saved = params["state"]
    current = {}
    origin = {}
    if saved is not None:
        current.update({n: s.rating for n, s in saved.players.items()})
    steps = []
    for game in history.games:
        for name in (game.black, game.white):
            if name not in current:
                given = initial.get(name)
                current[name] = given.state.rating if given is not None else 1000.0
                origin[name] = given.source if given is not None else "default"
        change = step * (game.result - 0.5) * 2
        for name, sign in ((game.black, 1), (game.white, -1)):
            before = current[name]
            current[name] = before + sign * change
            steps.append(
                RatingStep(
                    name, game.event, game.date, RatingState(before), RatingState(current[name]), 1
                )
            )
    final = {n: RatingState(r) for n, r in current.items()}
    return RatingResult(steps, final, origin, state={"games": len(history.games)})


def check_state(own):
    games = own.get("games")
    if type(games) is not int or games < 0:
        return f"games: expected a count of games, got {games!r}"
    return None


@hookimpl
def sodos_rating_systems():
    return [
        RatingSystem(
            "tenths",
            "each game moves both players by step (tests only)",
            rate,
            (Parameter("step", 10.25, "points per game", minimum=0, minimum_excluded=True),),
            saves_state=True,
            saves="the count of games rated",
            check_state=check_state,
            file_scale=True,
            decimals=1,
            unit="game",
        )
    ]
