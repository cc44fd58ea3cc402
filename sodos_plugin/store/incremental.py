"""Each rating system's per-game form, as the store rates with it.

Contract: :func:`for_system` gives the :class:`GameByGame` rater of a system and its
resolved parameters, or refuses (naming the parameter) a system the store does not rate
game by game. A rater gives a new player's first state (the system's default start,
docs/rules.md §10.1) and both players' states after one game, from their states before
it, by the system's own formula (:func:`~sodos_plugin.ratings.systems.glicko2.rate_pairs`:
the batch rates each wave of games with it), so that the store's ratings are those of
``sodos ratings`` over the same games in the same order.

Built in: the OGS preset and Glicko-2 with ``period = "game"``. Glicko-2 with calendar
or event periods, GoR (a tournament at once) and WHR (a fit of every game) are not
rated game by game here: a store refuses them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sodos_hookspecs import GameHistory, RatingState

from sodos_plugin.errors import ConfigError
from sodos_plugin.ratings.systems import glicko2
from sodos_plugin.store.games import Posted
from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")  # imported when a game is rated

#: The systems the store rates game by game.
SYSTEMS = ("ogs", "glicko2")


class GameByGame:
    """Glicko-2 with one game per period for both players (the OGS preset, and
    ``glicko2`` with ``period = "game"``)."""

    def __init__(self, system: str, params: Mapping[str, Any]):
        # the batch run's own set-up: default start, clamps, τ, ε, handicap mode, rules
        self._run = glicko2._Run(system, GameHistory(games=()), {}, params)
        self.label: Callable[[RatingState], str] = glicko2.label

    def start(self) -> tuple[RatingState, str]:
        """A new player's first state and where it came from."""
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


def for_system(system: str, params: Mapping[str, Any]) -> GameByGame:
    """The store's rater of ``system`` (refused by name when it has none)."""
    name = system.lower()
    if name not in SYSTEMS:
        raise ConfigError(
            f"a store rates game by game with {', '.join(SYSTEMS)}; {system!r} rates "
            "periods, tournaments or the whole history (rate it with sodos ratings)",
            where="store.rating",
        )
    if params.get("period", "game") != "game":
        raise ConfigError(
            f"a store rates {system} with period = game, not {params.get('period')!r}",
            where=f"rating.{name}.period",
        )
    return GameByGame(name, params)
