"""Ranking: a tournament and the criteria to use → :class:`~.standings.Standings`.

The engine's one entry point. It knows no files and no plugin manager: the caller
(:meth:`sodos_plugin.host.Host.standings`) resolves the criteria and passes them as
:class:`Entry` values, with the function that runs one criterion's ``compute`` under the
plugin fault rule (:func:`sodos_plugin.plugins.call.call`). Here:

* the round: by default the last round with any result (a round paired but not
  played yet is said in ``round_note``);
* ``compat`` prepares the tournament and settings (docs/rules.md §7);
* each criterion runs once, in order; one that breaks ties (``uses_ties``) sees the
  columns before it (``ctx.preceding``);
* what a criterion returns is checked against the contract (a :class:`Breakdown` of
  the right shape, integer numerators): a wrong value is a
  :class:`~sodos_plugin.errors.PluginError` naming the plugin, not a failure later in a
  writer or a sort blamed on another;
* the players are ordered (:func:`~.standings.order_players`) and the warnings
  gathered: the reader's, compat's notes, plugin faults, the seed's advice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sodos_hookspecs import Breakdown, Criterion, FileReport

from sodos_plugin.engine import compat
from sodos_plugin.engine.advice import advice
from sodos_plugin.engine.context import Context
from sodos_plugin.engine.model import Result, Tournament
from sodos_plugin.engine.standings import Standings, order_players
from sodos_plugin.errors import ConfigError, LimitError, PluginError

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings


class Entry(Protocol):
    """A criterion in use: the name shown, the criterion, the plugin that provides it."""

    name: str
    item: Criterion
    plugin: str


#: runs one entry's compute on a context, under the plugin fault rule
Compute = Callable[[Entry, Callable[[Context], Any], Context], Any]


@dataclass(frozen=True)
class WorkLimits:
    """The work one standings may cost (config ``limits.*``, docs/config.md).

    Memory grows with players × rounds, not with the input's bytes: every criterion
    keeps a breakdown row per round (each player's value in that round, for ``explain``
    and the JSON ``rounds``), ~150 bytes per player-round at peak (a tournament of
    20 000 players over 64 rounds: 250 MB). A few bytes of JSON can declare 64 rounds
    for 270 000 players; this bound refuses it before any table is made.
    """

    max_players: int
    max_player_rounds: int

    @classmethod
    def from_settings(cls, settings: Settings) -> WorkLimits:
        return cls(settings.limits.max_players, settings.limits.max_player_rounds)

    def check(self, players: int, rounds: int, source: str | None = None) -> None:
        """:class:`LimitError` past a limit, naming ``source`` (the tournament's file)."""
        if players > self.max_players:
            raise LimitError(
                f"{players} players, more than the limit of {self.max_players}",
                limit="limits.max_players",
                source=source,
            )
        work = players * max(rounds, 1)
        if work > self.max_player_rounds:
            raise LimitError(
                f"{players} players x {rounds} rounds = {work} player-rounds, more than the "
                f"limit of {self.max_player_rounds}",
                limit="limits.max_player_rounds",
                source=source,
            )


def last_round_with_results(tournament: Tournament) -> int:
    """The last round in which some game has a result (0 when none has)."""
    unknown = Result.UNKNOWN
    return max((g.round for g in tournament.games if g.result is not unknown), default=0)


def rank(
    tournament: Tournament,
    settings: Settings,
    entries: Sequence[Entry],
    *,
    round: int | None,
    run: Compute,
    lookup: Callable[[str], Entry],
    describe: Callable[[Entry], dict[str, Any]],
    warnings: Sequence[str] = (),
    plugin_warnings: Sequence[str] = (),
    files: Sequence[FileReport] = (),
    limits: WorkLimits | None = None,
) -> Standings:
    """Standings after round ``round`` (``None``: the last round with results).

    :param entries: the criteria in order (``settings.criteria``, resolved).
    :param run: ``run(entry, compute, ctx)`` calls ``compute(ctx)`` as the plugin's hook.
    :param lookup: the entry of a criterion another one evaluates (``ctx.evaluate``).
    :param describe: an entry's provider, as JSON ``providers`` carries it.
    :param warnings: the reader's; ``plugin_warnings``: the plugin faults to say.
    :param limits: the work allowed (default: ``settings``' own ``limits.*``); past it a
        :class:`~sodos_plugin.errors.LimitError` before anything is computed.
    """
    tournament, settings, compat_notes = compat.prepare(tournament, settings)
    note = ""
    if round is None:
        rounds = last_round_with_results(tournament)
        if rounds < tournament.rounds:
            later = (
                f"round {rounds + 1}"
                if rounds + 1 == tournament.rounds
                else f"rounds {rounds + 1}-{tournament.rounds}"
            )
            note = f"the last round with results ({later}: none yet; --round to choose)"
    else:
        rounds = round
    if not 0 <= rounds <= tournament.rounds:
        raise ConfigError(f"round {rounds} outside 0..{tournament.rounds}", where="round")
    (limits or WorkLimits.from_settings(settings)).check(
        len(tournament.players), rounds, tournament.source or tournament.name or None
    )
    names = tuple(e.name for e in entries)  # as registered: "sosm-1" is SOSM-1

    def compute(entry: Entry, ctx: Context) -> Breakdown:
        adjusted = compat.adjusted(entry.name, entry.plugin, entry.item.compute, ctx.settings)
        return checked(entry, run(entry, adjusted, ctx), ctx)

    ctx = Context(tournament, settings, rounds, evaluate=lambda n, c: compute(lookup(n), c))
    breakdowns: dict[str, Breakdown] = {}
    columns: list[list[int]] = []
    for entry in entries:
        if entry.item.uses_ties:
            ctx.preceding = list(zip(*columns)) if columns else [()] * ctx.size
        breakdown = compute(entry, ctx)
        ctx.preceding = None
        breakdowns[entry.name] = breakdown
        # after round 0 a per-round breakdown has no rows: every value is 0
        columns.append(integer_column(entry, breakdown, ctx) or [0] * ctx.size)
    definitions = [e.item for e in entries]
    order, places, tied = order_players(
        tournament, columns, [c.higher_is_better for c in definitions]
    )
    all_warnings = [*warnings, *compat_notes]
    all_warnings += compat.criteria_notes(settings, names, rounds)
    all_warnings += plugin_warnings
    all_warnings += advice(
        settings.system, [c.name for c in definitions], lambda: ctx.scores.start_mms
    )
    standings = Standings(
        tournament=tournament,
        settings=settings,
        round=rounds,
        criteria=names,
        breakdowns=breakdowns,
        definitions=dict(zip(names, definitions)),
        providers={e.name: describe(e) for e in entries},
        round_note=note,
        order=order,
        places=places,
        tied=tied,
        warnings=all_warnings,
        files=files,
    )
    for name, column in zip(names, columns):
        standings._numerators[name] = column
    return standings


def checked(entry: Entry, breakdown: Any, ctx: Context) -> Breakdown:
    """What a criterion returned, checked against the contract (hookspecs ``Breakdown``)."""
    owner, hook = entry.plugin, f"compute ({entry.name})"
    if not isinstance(breakdown, Breakdown):
        raise PluginError(owner, hook, f"returned {type(breakdown).__name__}, not a Breakdown")
    if type(breakdown.denominator) is not int:
        raise PluginError(owner, hook, f"denominator must be an int, got {breakdown.denominator!r}")
    n = ctx.size
    if breakdown.totals is not None:
        if len(breakdown.totals) != n:
            raise PluginError(owner, hook, f"gave {len(breakdown.totals)} values for {n} players")
    else:
        rows = breakdown.contributions or []
        if len(rows) != ctx.round or any(len(row) != n for row in rows):
            raise PluginError(
                owner, hook, f"contributions are not {ctx.round} rounds × {n} players"
            )
    return breakdown


#: The most decimal digits of a criterion's numerator or denominator. A real total is
#: far below (SOSOS of 10 000 players over 100 rounds in quarter points: 13 digits); a
#: value above is the plugin's fault, said here rather than when a writer fails to
#: print it (Python refuses int-to-text beyond 4 300 digits), blamed on the writer.
MAX_DIGITS = 100
_BOUND = 10**MAX_DIGITS


def integer_column(entry: Entry, breakdown: Breakdown, ctx: Context) -> list[int]:
    """The criterion's numerators, checked to be integers (exact arithmetic) of at most
    :data:`MAX_DIGITS` digits, over a denominator of at most as many.

    A float, string, None or a number of thousands of digits from a plugin would
    otherwise fail later in a writer or in sorting, blamed on the wrong plugin.
    """
    owner, hook = entry.plugin, f"compute ({entry.name})"
    try:
        column = ctx.numerators(breakdown)
    except TypeError as error:
        raise PluginError(owner, hook, f"values are not integers: {error}") from error
    # set(map(type)) is the fast path for the usual all-int column
    if set(map(type, column)) - {int} and not all(isinstance(v, int) for v in column):
        bad = sorted({type(v).__name__ for v in column if not isinstance(v, int)})
        raise PluginError(owner, hook, f"values must be integer numerators, got {', '.join(bad)}")
    if column and (max(column) >= _BOUND or min(column) <= -_BOUND):
        raise PluginError(
            owner, hook, f"a value of more than {MAX_DIGITS} digits: far beyond any real total"
        )
    if not isinstance(breakdown.denominator, int) or breakdown.denominator >= _BOUND:
        raise PluginError(
            owner, hook, f"the denominator must be an integer of at most {MAX_DIGITS} digits"
        )
    return column
