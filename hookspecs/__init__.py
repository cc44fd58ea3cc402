"""The sodos plugin contract: hook specifications and the markers to implement them.

This package is the manual of the contract between *hosts* (a pairing program, a Go
server, the ``sodos`` command) and *plugins* (the built-in criteria, readers and
writers, and any third-party distribution). It is installed under the import name
``sodos_hookspecs``.

A plugin is any object or module with functions decorated by :data:`hookimpl`::

    from sodos_hookspecs import Breakdown, Criterion, hookimpl

    def compute(ctx):
        ...  # return a Breakdown

    @hookimpl
    def sodos_criteria():
        return [Criterion(name="MYCRIT", description="...", compute=compute)]

Third-party plugins are found through the entry-point group ``sodos`` (see
:data:`ENTRY_POINT_GROUP`) or named as modules in the host's config (``plugins = [...]``).
Built-in criteria are registered exactly the same way, so a plugin that provides a
criterion with a built-in's name replaces it.

Every hook below documents its parameters, what it returns and when it is called.
A hook implementation may accept a subset of the parameters (pluggy passes by name).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pluggy
from sodos_hookspecs.types import (
    HISTORY_RUN_OPTIONS,
    Breakdown,
    Coded,
    Criterion,
    FileReport,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    InitialRating,
    Parameter,
    RatingResult,
    RatingState,
    RatingStep,
    RatingSystem,
    Reader,
    ReadResult,
    RoundTable,
    SavedState,
    Writer,
)

#: The pluggy project name: hosts create ``pluggy.PluginManager(PROJECT_NAME)``.
PROJECT_NAME = "sodos"
#: The entry-point group third-party distributions declare their plugins in.
ENTRY_POINT_GROUP = "sodos"

#: Marker for the specifications below (for hosts; plugins never need it).
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
#: Marker for plugin implementations: ``@hookimpl def sodos_criteria(): ...``.
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

__all__ = [
    "ENTRY_POINT_GROUP",
    "PROJECT_NAME",
    "HISTORY_RUN_OPTIONS",
    "Breakdown",
    "Coded",
    "Criterion",
    "FileReport",
    "GameColumns",
    "GameHistory",
    "HistoryEvent",
    "HistoryGame",
    "HistoryPlayer",
    "InitialRating",
    "Parameter",
    "RatingResult",
    "RatingState",
    "RatingStep",
    "RatingSystem",
    "ReadResult",
    "Reader",
    "RoundTable",
    "SavedState",
    "Writer",
    "hookimpl",
    "hookspec",
    "sodos_configure",
    "sodos_criteria",
    "sodos_rating_systems",
    "sodos_readers",
    "sodos_writers",
]


@hookspec
def sodos_criteria() -> list[Criterion]:
    """Provide placement criteria (tiebreaks).

    Called once by the host's plugin manager after all plugins are registered and
    configured, to build the criteria registry.

    :return: a list of :class:`~sodos_hookspecs.types.Criterion`. Each has a unique
        ``name`` (upper case by convention, e.g. ``"SODOS"``), a one-line
        ``description``, the ``source`` of its rule, and a ``compute(ctx)`` callable
        that returns a :class:`~sodos_hookspecs.types.Breakdown` for every player.

    Name collisions: a third-party criterion with the name of a built-in *replaces*
    the built-in. Two third-party plugins providing the same name are an error unless
    the config's ``[prefer]`` table names the winner (``SODOS = "my-plugin"``).
    """


@hookspec
def sodos_readers() -> list[Reader]:
    """Provide record readers: file formats turned into a tournament.

    Called once when the registry is built.

    :return: a list of :class:`~sodos_hookspecs.types.Reader`. A reader *claims*
        paths (by extension and by the first bytes of the file, or a directory) and
        *reads* the claimed paths into a :class:`~sodos_hookspecs.types.ReadResult`:
        one ``sodos_plugin.engine.model.Tournament`` plus an account of every file
        (ingested, duplicate or rejected, with the reason).

    A reader must never guess: data it cannot interpret is reported, naming the
    file and the line or property and what was expected.

    Game histories (``sodos ratings``): a reader whose files hold dated games of many
    events gives ``Reader.history(paths, section, run) -> GameHistory``, called once
    with every path it claims in the run (``section``: its ``[plugin.<name>]`` table;
    ``run``: the host's run options, :data:`~sodos_hookspecs.types.HISTORY_RUN_OPTIONS`).
    Without it, each file is one tournament of the history, dated by
    ``Tournament.date``. Standard input: ``Reader.stdin(head) -> str | None`` gives the
    file name suffix for data read from stdin whose first 4 KiB are ``head`` when it is
    the reader's format. What every hook returns is checked as it comes back (a
    ``ReadResult``, a ``GameHistory``, ``claims`` ``True`` or ``False``): anything else
    is the plugin's fault, reported naming it.
    """


@hookspec
def sodos_writers() -> list[Writer]:
    """Provide writers: standings turned into an output format.

    Called once when the registry is built.

    :return: a list of :class:`~sodos_hookspecs.types.Writer`, each with a format
        ``name`` (``"json"``, ``"h9"``...) and a ``write(standings, stream)``
        callable that writes ``sodos_plugin.engine.standings.Standings`` as text.
    """


@hookspec
def sodos_rating_systems() -> list[RatingSystem]:
    """Provide rating systems: a game history and starting ratings turned into ratings.

    Called once when the registry is built (after :func:`sodos_configure`), like
    :func:`sodos_criteria`; a plugin that raises here, or returns anything but a list
    of :class:`~sodos_hookspecs.types.RatingSystem`, is reported and contributes nothing.

    :return: a list of :class:`~sodos_hookspecs.types.RatingSystem`. Each has a unique
        ``name`` (lower case by convention: ``"egf"``, ``"glicko2"``), a one-line
        ``description``, its ``parameters`` (name, default, help), and
        ``rate(history, initial, params)``:

        * ``history`` — a :class:`~sodos_hookspecs.types.GameHistory`: games in date
          order, each with its date, event, players, Black's score, handicap, komi,
          board size and source; the events and what the inputs said of each player
          (rank, rating). ``history.games`` is a sequence of
          :class:`~sodos_hookspecs.types.HistoryGame`; for a large history it is a
          :class:`~sodos_hookspecs.types.GameColumns` (the same games, built when read),
          whose ``columns`` a system may read directly (players as integer codes);
        * ``initial`` — name → :class:`~sodos_hookspecs.types.InitialRating` for the
          players given a starting rating (a ratings file, a file's own ratings); the
          system seeds the others (from their rank, else its default) and says how in
          :attr:`RatingResult.initial`;
        * ``params`` — every declared parameter, defaults filled in and values checked
          against each default's type (or ``kind``), ``choices`` and bounds
          (``Parameter.minimum``/``maximum``) by the host; the
          values come from the config table ``[rating.<name>]``, then ``--param
          KEY=VALUE``, then the host's ``Host.ratings(..., **params)``; and the host's
          keys ``details`` and ``state`` (``None``, or for a system that
          ``saves_state``, the :class:`~sodos_hookspecs.types.SavedState` to go on from).

        ``rate`` returns a :class:`~sodos_hookspecs.types.RatingResult`: each
        player's step per rating period (before, after, the additive parts of the
        change and the per-game details ``explain --ratings`` shows) and the final
        ratings. It must not depend on the order of games within one date and event.
        ``steps`` is any sequence of :class:`~sodos_hookspecs.types.RatingStep`
        (built-in systems return columns that build each step when it is read). Every
        rating, deviation and volatility must be a finite number: the host reports any
        other as the plugin's fault, and so every part of the result of another type
        than the one :class:`~sodos_hookspecs.types.RatingResult` names. A system that
        ``saves_state`` also returns ``RatingResult.state``, what it needs to go on
        (JSON-ready: anything else is its fault), declares ``check_state``, the check of
        that part when a state file is read back, and keeps the promise: rating games A,
        then games B (after A's last period) from A's saved state, gives what rating
        A + B in one run gives.

        The descriptor carries every other fact the host uses: ``decimals`` (how its
        ratings are shown), ``file_scale`` (whether the ratings files carry are on its
        scale: its default start), ``unit`` (``"game"``, ``"event"`` or ``"period"``),
        ``saves`` (what its state holds). The system of a run that names none is the
        config key ``ratings.default``.

    Name collisions follow the criteria's rule (names are case-insensitive): a
    third-party system with a built-in's name *replaces* it; two third-party plugins
    providing one name are an error unless ``[prefer]`` names the winner
    (``egf = "my-plugin"``). Blocking a plugin (``disable = [...]``) removes its systems.
    """


@hookspec
def sodos_configure(config: Mapping[str, Any], settings: Any) -> None:
    """Hand a plugin its own section of the host's configuration.

    Called once per plugin, right after all plugins are registered and before
    :func:`sodos_criteria` is called. Each plugin receives only its own section:
    the table ``[plugin.<plugin name>]`` of the config (an empty mapping when there
    is none), so plugins cannot read or clash with each other's settings.

    :param config: this plugin's settings section (read-only mapping).
    :param settings: the validated ``sodos_plugin.config.settings.Settings`` of the run
        (system, scoring rules, conventions), for plugins that need them.
    :return: nothing. Raise ``ValueError`` with a message naming the key to reject a
        bad setting; the host reports it with the plugin's name.
    """
