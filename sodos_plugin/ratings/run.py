"""One rating run: a system applied to a game history, and what every face shows of it.

Contract: :func:`resolve_parameters` gives a system's parameters from its defaults, the
config's ``[rating.<name>]`` table and the host's own values, each checked against the
default's type, ``choices`` and declared bounds (an unknown key, a wrong type or a value
out of bounds is a :class:`~sodos_plugin.errors.ConfigError` naming it). :func:`rate`
runs a system over a history with those parameters (the aliases applied, the starting
ratings matched, a saved state checked and gone on from, the plugin's fault rule
applied, its result checked: steps, final ratings, starts, warnings and parameters of
the types the hookspec names, every rating, deviation and volatility a finite number;
anything else is the plugin's fault, a :class:`~sodos_plugin.errors.PluginError` naming
it). :class:`RatingRun` holds the result; what the faces show beside it (the provider as
machine output carries it, notes, plugin faults) its caller sets on it.
:meth:`RatingRun.document` is exactly what ``sodos ratings --format json`` prints (and
what ``POST /ratings`` answers), built of the Structs of
:mod:`sodos_plugin.schemas.ratings`, the document's one definition (``as_dict``: as
plain data); :meth:`RatingRun.standings` is the final-ratings table (place, name,
rating, deviation, rank label, games, last game) every face shows;
:meth:`RatingRun.saved_state` is where the run ended, to go on from (a system's state
that is not JSON-ready is its plugin's fault).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter
from typing import Any, NamedTuple

from msgspec import UNSET
from sodos_hookspecs import (
    GameColumns,
    GameHistory,
    RatingResult,
    RatingState,
    RatingStep,
    RatingSystem,
    SavedState,
)

from sodos_plugin.errors import ConfigError, InputError, PluginError
from sodos_plugin.plugins.call import call, describe
from sodos_plugin.ratings.columns import StepColumns, StepTotals
from sodos_plugin.ratings.history import file_summary
from sodos_plugin.ratings.initial import given_ratings
from sodos_plugin.ratings.names import Aliases, alias_map, history_names, renamed, spelling_map
from sodos_plugin.ratings.state import beyond_limits, check_continuation
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import ratings as schema

#: Keys the host adds to ``params`` for every system (see the hookspec): ``details``
#: (per-game parts shown), ``steps`` (the steps shown: false when the answer is the final
#: ratings only, so a system need not keep a step per player and period) and ``state``.
HOST_KEYS = ("details", "steps", "state")
#: A value of each type, for a parameter declared by ``kind`` with a ``None`` default.
_EXEMPLAR = {bool: False, int: 0, float: 0.0, str: ""}


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
            exemplar = p.default
            if exemplar is None and p.kind is not None:
                exemplar = _EXEMPLAR.get(p.kind)
            params[key] = _convert(key, exemplar, value, tuple(p.choices), f"{where}.{key}")
            why = p.out_of_range(params[key])
            if why is not None:
                raise ConfigError(
                    f"{key}: {why} ({p.bounds()}), got {params[key]!r}", where=f"{where}.{key}"
                )
    return params


def _state(state: RatingState, label: str | None = None) -> schema.State:
    """A rating as the document writes it: what the system has, and a final rating's
    label."""
    return schema.State(
        rating=state.rating,
        deviation=UNSET if state.deviation is None else state.deviation,
        volatility=UNSET if state.volatility is None else state.volatility,
        label=UNSET if label is None else label,
    )


class FinalRow(NamedTuple):
    """One line of the final-ratings table."""

    place: int
    name: str
    state: RatingState
    label: str | None
    games: int
    last_game: str
    start: str


def totals(steps: Sequence[RatingStep]) -> tuple[dict[str, int], dict[str, str]]:
    """Each player's games over ``steps`` and the date of their last step."""
    if isinstance(steps, (StepColumns, StepTotals)):
        return steps.totals()
    games: dict[str, int] = {}
    last: dict[str, str] = {}
    for step in steps:
        games[step.player] = games.get(step.player, 0) + step.games
        last[step.player] = step.date
    return games, last


#: How many reasons of one status the summary lists before "N other reasons".
SUMMARY_REASONS = 20
#: What the document's summary counts a file by: its reason, whole.
_reason = attrgetter("reason")


@dataclass
class RatingRun:
    """A system's result over a history, with where everything came from.

    :param provided: the system's provider as machine output carries it (plugin,
        built-in, distribution, version, what it replaces); ``provider_text``: who
        computed it when not a built-in (``sodos-foo 1.2``), else ``""``.
    :param previous: the saved state the run went on from, or ``None``.
    :param notes: what the run chose and says on stderr (the start it used), not
        warnings: nothing went wrong.
    """

    system: RatingSystem
    provider: str
    parameters: dict[str, Any]
    history: GameHistory
    result: RatingResult
    warnings: list[str] = field(default_factory=list)
    provided: dict[str, Any] = field(default_factory=dict)
    provider_text: str = ""
    previous: SavedState | None = None
    notes: list[str] = field(default_factory=list)
    _totals: tuple[dict[str, int], dict[str, str]] | None = field(default=None, repr=False)

    def events(self) -> int:
        """How many events the rated games are of (from the event column when the
        games are columns: no object per game)."""
        games = self.history.games
        if isinstance(games, GameColumns):
            return len(set(games.columns["event"]))
        return len({g.event for g in games})

    def kept_steps(self) -> bool:
        """Whether the run kept its steps (``False`` when it was asked for final ratings
        only: ``steps=False``)."""
        return not isinstance(self.result.steps, StepTotals)

    def steps_of(self, player: str) -> list[RatingStep]:
        return [s for s in self.result.steps if s.player == player]

    def label(self, state) -> str | None:
        if self.system.label is None:
            return None
        try:
            return self.system.label(state)
        except Exception:  # a label is decoration: never fail a run over it
            return None

    # -- every player at the end ------------------------------------------------------

    def final(self) -> dict[str, RatingState]:
        """Every player's rating at the end: those of a saved state the run did not
        rate keep their saved state."""
        if self.previous is None:
            return dict(self.result.final)
        return {**self.previous.players, **self.result.final}

    def starts(self) -> dict[str, str]:
        """Where each player's first rating came from."""
        if self.previous is None:
            return dict(self.result.initial)
        return {**self.previous.starts, **self.result.initial}

    def totals(self) -> tuple[dict[str, int], dict[str, str]]:
        """(games, last game day) per player, a saved state's counted in."""
        if self._totals is None:
            games, last = totals(self.result.steps)
            if self.previous is not None:
                before = self.previous
                games = {
                    n: before.games.get(n, 0) + games.get(n, 0) for n in {*before.games, *games}
                }
                last = {**before.last_games, **last}
            self._totals = (games, last)
        return self._totals

    def standings(self) -> list[FinalRow]:
        """The final-ratings table: highest rating first (then name), players of one
        rating sharing a place."""
        final = self.final()
        starts = self.starts()
        games, last = self.totals()
        ordered = sorted(final.items(), key=lambda kv: (-kv[1].rating, kv[0]))
        rows = []
        place, previous = 0, None
        for index, (name, state) in enumerate(ordered, 1):
            if state.rating != previous:
                place, previous = index, state.rating
            rows.append(
                FinalRow(
                    place,
                    name,
                    state,
                    self.label(state),
                    games.get(name, 0),
                    last.get(name, ""),
                    starts.get(name, ""),
                )
            )
        return rows

    def summary(self) -> list[schema.Summary]:
        """The history's files by status, each with its count and its reasons by count,
        most first, then by text: :func:`~sodos_plugin.ratings.history.file_summary`
        counted by the reason itself (the document's ``summary``; the table's lines)."""
        out = []
        for status, found in file_summary(self.history.files, key=_reason).items():
            reasons = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
            out.append(
                schema.Summary(
                    status, sum(found.values()), [schema.Reason(r, n) for r, n in reasons]
                )
            )
        return out

    def shown_parameters(self) -> dict[str, Any]:
        """The parameters as used: the host's, and the values the system chose."""
        shown = {k: v for k, v in self.parameters.items() if k not in HOST_KEYS}
        for key, value in self.result.parameters.items():
            if key in shown and shown[key] is None:
                shown[key] = value
        return shown

    def last_day(self) -> str:
        """The last day of the history's games (a game not rated too: it was played), or
        of the saved state's, whichever is later."""
        games = self.history.games
        days = (
            [max((g.date for g in games), default="")] if not isinstance(games, GameColumns) else []
        )
        if isinstance(games, GameColumns) and len(games):
            days = [games[-1].date if games.order is not None else max(games.columns["date"])]
        if self.previous is not None:
            days.append(self.previous.last_day)
        return max([d for d in days if d], default="")

    def saved_state(self) -> SavedState:
        """Where this run ended, for a later run to go on from."""
        if not self.system.saves_state or self.result.state is None:
            raise ConfigError(
                f"{self.system.name} cannot save its state"
                + (f" (from {self.provider_text})" if self.provider_text else "")
                + ": rate the whole history each time",
                where="state",
            )
        if not self.last_day():
            raise ConfigError("no game in the history: no state to save", where="state")
        try:  # the hookspec's promise: JSON-ready (a set or NaN is the plugin's fault)
            json.dumps(self.result.state, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            raise PluginError(
                self.provider,
                f"rate ({self.system.name})",
                f"state: not JSON-ready data ({describe(error)})",
            ) from None
        final = self.final()
        why = beyond_limits(final)
        if why is not None:  # it could not be read back: said now, not by the next run
            raise InputError(
                f"the state cannot be saved: {why} (a saved state is where a later run "
                "starts, within the limits of a start)",
                where="state",
            )
        games, last = self.totals()
        return SavedState(
            system=self.system.name,
            last_day=self.last_day(),
            players=final,
            starts=self.starts(),
            games=games,
            last_games=last,
            system_state=dict(self.result.state),
            parameters={k: v for k, v in self.parameters.items() if k not in HOST_KEYS},
        )

    def document(self) -> schema.Ratings:
        """The run as its document (:class:`~sodos_plugin.schemas.ratings.Ratings`): what
        ``sodos ratings --format json`` prints and ``POST /ratings`` answers."""
        players = [
            schema.Rated(
                row.name,
                row.start,
                row.games,
                _state(row.state, row.label),
                row.place,
                row.last_game,
            )
            for row in self.standings()
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
            provided_by=dict(self.provided),
            source=self.system.source,
            parameters=self.shown_parameters(),
            games=len(self.history.games),
            events=self.events(),
            files=[schema.File(f.path, f.status, f.reason) for f in self.history.files],
            summary=self.summary(),
            warnings=list(self.warnings),
            notes=list(self.notes),
            players=players,
            periods=periods,
            last_day=self.last_day(),
            continued_from=None if self.previous is None else self.previous.last_day,
        )

    def as_dict(self) -> dict[str, Any]:
        """The run as plain JSON-ready data (``sodos ratings --format json``):
        :meth:`document`'s."""
        return codec.builtins(self.document())


def change(before: float, after: float) -> float:
    """``after - before`` as the difference of the two numbers as printed (shortest repr):
    2100.365 after 2088.462 is 11.903, not the binary subtraction's 11.902999999999793."""
    if isinstance(before, int) and isinstance(after, int):
        return after - before
    return float(Decimal(repr(float(after))) - Decimal(repr(float(before))))


def _not_finite(state: Any) -> bool:
    """Whether a state is not a :class:`RatingState` of finite numbers (deviation and
    volatility may be ``None``)."""
    if not isinstance(state, RatingState):
        return True
    for k, value in enumerate(state):
        if value is None and k:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        if not math.isfinite(value):
            return True
    return False


#: The numbers of a step, read at C speed by the check (``attrgetter`` of each).
_NUMBERS = tuple(
    attrgetter(f"{when}.{what}")
    for when in ("before", "after")
    for what in ("rating", "deviation", "volatility")
)


def _steps_finite(steps: Sequence[RatingStep]) -> bool:
    """Whether every number of ``steps`` is certainly finite: the sum of each kind of
    number is (a NaN or an infinity makes the sum so; one that overflows, or a value that
    is not a number, sends the caller to the step-by-step check)."""
    try:
        return all(math.isfinite(sum(filter(None, map(get, steps)))) for get in _NUMBERS)
    except (TypeError, AttributeError):
        return False


def states_finite(states: Sequence[Any]) -> bool:
    """Whether ``states`` are certainly :class:`RatingState` s of finite numbers, at C
    speed (a server's million players): their types, and the sums of each kind of
    number (a NaN or an infinity makes its sum so). ``False`` sends the caller to the
    state-by-state check, which names the first one that is not."""
    if not states:
        return True
    if set(map(type, states)) != {RatingState}:
        return False
    columns = list(zip(*states))
    ratings = columns[0]
    if not set(map(type, ratings)) <= {float, int}:
        return False
    for column in columns:
        known = list(filter(None, column))  # deviations and volatilities may be None
        if not set(map(type, known)) <= {float, int} or not math.isfinite(sum(known)):
            return False
    return True


#: The text fields of a step, read at C speed by the check.
_STEP_TEXTS = tuple(map(attrgetter, ("player", "period", "date")))


def _types(values) -> set[type]:
    return set(map(type, values))


def result_fault(result: Any) -> str | None:
    """What is wrong with a system's result, else ``None``: a :class:`RatingResult`
    whose parts are of the types the hookspec names and whose numbers are finite
    (:func:`number_fault`). The host's one result check of ``rate`` (through
    :func:`~sodos_plugin.plugins.call.call`): a fault is the plugin's, named, never a
    ``TypeError`` later in a sort or a writer."""
    if not isinstance(result, RatingResult):
        return f"did not return a RatingResult (got {type(result).__name__})"
    final, initial = result.final, result.initial
    if not isinstance(final, Mapping) or not _types(final) <= {str}:
        return f"final: expected a mapping name (text) → RatingState, got {shown(final)}"
    if (
        not isinstance(initial, Mapping)
        or not _types(initial) <= {str}
        or not _types(initial.values()) <= {str}
    ):
        return (
            "initial: expected a mapping name → where the first rating came from (texts), "
            f"got {shown(initial)}"
        )
    warnings = result.warnings
    if isinstance(warnings, (str, bytes)) or not isinstance(warnings, Sequence):
        return f"warnings: expected a list of texts, got {shown(warnings)}"
    if not _types(warnings) <= {str}:
        return f"warnings: expected texts, got {shown(list(warnings))}"
    if not isinstance(result.parameters, Mapping) or not _types(result.parameters) <= {str}:
        return f"parameters: expected a mapping name → value, got {shown(result.parameters)}"
    if result.state is not None and not isinstance(result.state, Mapping):
        return f"state: expected a mapping (JSON-ready) or None, got {shown(result.state)}"
    steps = result.steps
    if not isinstance(steps, (StepColumns, StepTotals)):  # the host's own: checked arrays
        why = _step_fault(steps)
        if why is not None:
            return why
    return number_fault(result)


def _step_fault(steps: Any) -> str | None:
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
        return f"steps: expected a sequence of RatingStep, got {shown(steps)}"
    if not _types(steps) <= {RatingStep}:
        return f"steps: expected RatingStep items, got {sorted(t.__name__ for t in _types(steps))}"
    for get in _STEP_TEXTS:
        if not _types(map(get, steps)) <= {str}:
            bad = next(s for s in steps if type(get(s)) is not str)
            return f"steps: a step's player, period or date that is not text: {shown(bad)}"
    counts = _types(map(attrgetter("games"), steps))
    if not counts <= {int}:
        return f"steps: a step's games that is not a count: {sorted(t.__name__ for t in counts)}"
    return None


def shown(value: Any, width: int = 60) -> str:
    """A plugin's value in a message: its ``repr``, cut to ``width`` characters."""
    try:
        text = repr(value)
    except Exception:  # a plugin's own __repr__ may fail too
        return f"<a {type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."


def number_fault(result: RatingResult) -> str | None:
    """A rating, deviation or volatility that is not a finite number (or not a number),
    named with its player, else ``None``."""
    if not states_finite(list(result.final.values())):
        for name, state in result.final.items():
            if _not_finite(state):
                return f"final rating of {name!r} is {shown(state)}"
    steps = result.steps
    if isinstance(steps, StepTotals) and not steps.finite():
        return "a rating step is not finite (rate with the steps kept to see which)"
    if isinstance(steps, (StepColumns, StepTotals)):
        if steps.finite():
            return None
    elif _steps_finite(steps):
        return None
    for step in steps:
        for when in (step.before, step.after):
            if _not_finite(when):
                return f"{step.player!r} in {step.period!r}: rating {shown(when)}"
    return None


def check_system_state(
    system: RatingSystem, provider: str, state: SavedState, source: str = ""
) -> None:
    """The system's own part of a saved state, checked by the system's declared
    ``check_state`` (run as its plugin's hook): a reason it gives is an
    :class:`~sodos_plugin.errors.InputError` naming the state's file and the key."""
    if system.check_state is None:
        return
    own = state.system_state
    hook = f"check_state ({system.name})"
    why = call(provider, hook, system.check_state, own, expect=(str, type(None)))
    if why is None:
        return
    key = why.split(":", 1)[0] if ":" in why else ""
    where = f"system_state.{key}" if key and " " not in key.strip() else "system_state"
    raise InputError(f"saved state of {system.name}: {why}", source=source or None, where=where)


def rate(
    system: RatingSystem,
    provider: str,
    history: GameHistory,
    parameters: Mapping[str, Any],
    *,
    initial: Any,
    details: bool = False,
    steps: bool = True,
    aliases: Aliases | None = None,
    state: SavedState | None = None,
    state_source: str = "",
    provider_text: str = "",
) -> RatingRun:
    """One run of ``system`` (provided by the plugin ``provider``) over ``history``: what
    it computes from. What the faces show beside it (the provider as machine output
    carries it, the caller's notes, the plugin faults said with its warnings) the caller
    sets on the run.

    :param parameters: the system's parameters, resolved (:func:`resolve_parameters`).
    :param initial: starting ratings, as :func:`~sodos_plugin.ratings.initial.given_ratings`
        takes them.
    :param details: build per-game details (``explain --ratings``).
    :param steps: keep every player's step per period (``False``: the answer is the final
        ratings, games and last game only, :func:`~sodos_plugin.ratings.report.needs_steps`;
        the built-in systems then keep memory per player, not per game, and give
        :class:`~sodos_plugin.ratings.columns.StepTotals`). Details need steps.
    :param aliases: names joined before rating, and where they are set (the report of a
        game they join says it).
    :param state: a saved state to go on from (the system must save states), read from
        the file ``state_source`` (``""``: a host's own); its system part is checked by
        the system's ``check_state`` before the run.
    :param provider_text: who provides the system, for people (``""`` for a built-in):
        its messages and the run's say it.
    """
    values = dict(parameters)
    warnings = list(history.warnings)
    if aliases is not None and aliases.names:
        rename = alias_map(aliases.names, history_names(history))
        history = renamed(history, rename, aliases.where)
    if state is not None:
        if not system.saves_state:
            by = f" (from {provider_text})" if provider_text else ""
            raise ConfigError(
                f"{system.name}{by} cannot go on from a saved state: rate the whole history",
                where="state",
            )
        check_continuation(state, system.name, values, history)
        check_system_state(system, provider, state, state_source)
        rename = spelling_map(history_names(history), state.players)
        history = renamed(history, rename, "the saved state's spelling")
    given, unmatched = given_ratings(initial, history)
    warnings += unmatched
    if state is not None:
        known = [n for n in given if n in state.players]
        if known:
            shown = ", ".join(repr(n) for n in known[:5]) + (" ..." if len(known) > 5 else "")
            warnings.append(
                f"initial ratings: {len(known)} name(s) already in the saved state, which "
                f"is where they go on from: {shown}"
            )
            given = {n: g for n, g in given.items() if n not in state.players}
    hook = f"rate ({system.name})"
    options = {**values, "details": details, "steps": steps or details, "state": state}
    result = call(provider, hook, system.rate, history, given, options, expect=result_fault)
    warnings += list(result.warnings)
    return RatingRun(
        system,
        provider,
        values,
        history,
        result,
        list(dict.fromkeys(warnings)),
        provider_text=provider_text,
        previous=state,
    )
