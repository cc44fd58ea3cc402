"""One rating run: a system applied to a game history, and what every face shows of it.

Contract: :func:`rate` runs a system over a history (its parameters resolved, the
starting ratings matched, the plugin's fault rule applied). :func:`resolve_parameters`
gives a system's parameters from its defaults, the config's ``[rating.<name>]`` table
and the host's own values, each checked against the default's type and ``choices`` (an
unknown key or a wrong type is a :class:`~sodos_plugin.errors.ConfigError` naming it).
:class:`RatingRun` holds the result; :meth:`RatingRun.document` is exactly what
``sodos ratings --format json`` prints (and what ``POST /ratings`` answers;
:mod:`sodos_plugin.schemas.ratings`), :meth:`RatingRun.as_dict` the same as plain data;
:meth:`RatingRun.rows` is one row per player and period for the table, CSV and HTML
forms.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from msgspec import UNSET
from sodos_hookspecs import GameColumns, GameHistory, RatingResult, RatingStep, RatingSystem

from sodos_plugin.errors import ConfigError
from sodos_plugin.plugins.call import call, check
from sodos_plugin.ratings.initial import given_ratings
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import ratings as schema

#: Keys the host adds to ``params`` for every system (see the hookspec).
HOST_KEYS = ("details",)


def _convert(name: str, default: Any, value: Any, choices: tuple[str, ...], where: str) -> Any:
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on", "off"):
            return value.lower() in ("true", "yes", "on")
        raise ConfigError(f"{name}: expected true or false, got {value!r}", where=where)
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value) < 10:
            return int(value)
        raise ConfigError(f"{name}: expected an integer, got {value!r}", where=where)
    if isinstance(default, float):
        try:
            number = float(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            number = None
        if number is None or not math.isfinite(number):
            raise ConfigError(f"{name}: expected a finite number, got {value!r}", where=where)
        return number
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{name}: expected a string, got {value!r}", where=where)
        text = value.strip()
        if choices and text.lower() not in choices:
            raise ConfigError(
                f"{name}: expected one of {', '.join(choices)}, got {value!r}", where=where
            )
        return text.lower() if choices else text
    return value


def resolve_parameters(
    system: RatingSystem,
    section: Mapping[str, Any],
    given: Mapping[str, Any],
) -> dict[str, Any]:
    """Defaults < ``[rating.<name>]`` < the host's values; every key checked."""
    params = {p.name: p.default for p in system.parameters}
    declared = {p.name: p for p in system.parameters}
    for layer, where in ((section, f"rating.{system.name}"), (given, "parameters")):
        for key, value in layer.items():
            p = declared.get(key)
            if p is None:
                known = ", ".join(declared) or "none"
                raise ConfigError(
                    f"{system.name} has no parameter {key!r} (known: {known})",
                    where=f"{where}.{key}",
                )
            params[key] = _convert(key, p.default, value, tuple(p.choices), f"{where}.{key}")
    return params


def _state(state, label: str | None = None) -> schema.State:
    return schema.State(
        rating=state.rating,
        deviation=UNSET if state.deviation is None else state.deviation,
        volatility=UNSET if state.volatility is None else state.volatility,
        label=UNSET if label is None else label,
    )


@dataclass
class RatingRun:
    """A system's result over a history, with where everything came from."""

    system: RatingSystem
    provider: str
    parameters: dict[str, Any]
    history: GameHistory
    result: RatingResult
    warnings: list[str] = field(default_factory=list)

    def events(self) -> int:
        """How many events the rated games are of (from the event column when the
        games are columns: no object per game)."""
        games = self.history.games
        if isinstance(games, GameColumns):
            return len(set(games.columns["event"]))
        return len({g.event for g in games})

    def steps_of(self, player: str) -> list[RatingStep]:
        return [s for s in self.result.steps if s.player == player]

    def label(self, state) -> str | None:
        if self.system.label is None:
            return None
        try:
            return self.system.label(state)
        except Exception:  # a label is decoration: never fail a run over it
            return None

    def rows(self) -> list[dict[str, Any]]:
        """One row per player and period, in date order."""
        rows = []
        for step in self.result.steps:
            rows.append(
                {
                    "player": step.player,
                    "period": step.period,
                    "date": step.date,
                    "games": step.games,
                    "before": step.before,
                    "after": step.after,
                    "change": change(step.before.rating, step.after.rating),
                }
            )
        return rows

    def document(self) -> schema.Ratings:
        """The run as the ratings document (``sodos ratings --format json``)."""
        games_of: dict[str, int] = {}
        for step in self.result.steps:
            games_of[step.player] = games_of.get(step.player, 0) + step.games
        players = [
            schema.Rated(
                name,
                self.result.initial.get(name, ""),
                games_of.get(name, 0),
                _state(state, self.label(state)),
            )
            for name, state in sorted(self.result.final.items(), key=lambda kv: -kv[1].rating)
        ]
        periods = [
            schema.Period(
                s.player,
                s.period,
                s.date,
                s.games,
                _state(s.before),
                _state(s.after),
                change(s.before.rating, s.after.rating),
            )
            for s in self.result.steps
        ]
        return schema.Ratings(
            system=self.system.name,
            provider=self.provider,
            source=self.system.source,
            parameters={k: v for k, v in self.parameters.items() if k not in HOST_KEYS},
            games=len(self.history.games),
            events=self.events(),
            files=[schema.File(f.path, f.status, f.reason) for f in self.history.files],
            warnings=list(self.warnings),
            players=players,
            periods=periods,
        )

    def as_dict(self) -> dict[str, Any]:
        """The run as plain JSON-ready data: :meth:`document`'s."""
        return codec.builtins(self.document())


def change(before: float, after: float) -> float:
    """``after - before`` as the difference of the two numbers as printed (shortest repr):
    2100.365 after 2088.462 is 11.903, not the binary subtraction's 11.902999999999793."""
    if isinstance(before, int) and isinstance(after, int):
        return after - before
    return float(Decimal(repr(float(after))) - Decimal(repr(float(before))))


def rate(
    system: RatingSystem,
    provider: str,
    history: GameHistory,
    *,
    section: Mapping[str, Any],
    params: Mapping[str, Any],
    initial: Any,
    details: bool,
    plugin_warnings: Sequence[str] = (),
) -> RatingRun:
    """One run of ``system`` (provided by the plugin ``provider``) over ``history``.

    :param section: the config's ``[rating.<name>]`` table; ``params``: the host's values.
    :param initial: starting ratings, as :func:`~sodos_plugin.ratings.initial.given_ratings`
        takes them.
    :param details: build per-game details (``explain --ratings``).
    :param plugin_warnings: the plugin faults of this run, said with its warnings.
    """
    values = resolve_parameters(system, section, params)
    warnings = list(history.warnings)
    given, unmatched = given_ratings(initial, history)
    warnings += unmatched
    hook = f"rate ({system.name})"
    result = call(provider, hook, system.rate, history, given, {**values, "details": details})
    check(provider, hook, result, RatingResult)
    warnings += list(result.warnings)
    warnings += plugin_warnings
    return RatingRun(system, provider, values, history, result, list(dict.fromkeys(warnings)))
