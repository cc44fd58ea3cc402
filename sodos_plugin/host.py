"""The host API: config → plugin manager → read → standings → write, and ratings.

A pairing program or Go server embeds the tool through :class:`Host`::

    from sodos_plugin import Host

    host = Host({"system": "mcmahon", "criteria": ["MMS", "SOS", "SOSOS"]})
    tournament = host.read(["results.xml"]).tournament
    standings = host.standings(tournament, round=3)
    host.write(standings, "json", sys.stdout)

The host owns the run's config layers and its plugin manager, and delegates the rest,
one call each, to the layer that owns it (docs/architecture.md): reading to
:mod:`sodos_plugin.readers.choose`, ranking to :mod:`sodos_plugin.engine.ranking`,
writing to :mod:`sodos_plugin.writers.output`, histories and ratings to
:mod:`sodos_plugin.ratings`. Every plugin hook runs under one fault rule
(:func:`sodos_plugin.plugins.call.call`), and the calls that build much run with the
garbage collector paused (:mod:`sodos_plugin.util.gcpause`).
"""

from __future__ import annotations

import warnings as python_warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sodos_hookspecs import (
    Breakdown,
    Criterion,
    FileReport,
    GameHistory,
    HistoryGame,
    ReadResult,
    SavedState,
)

from sodos_plugin.config.layers import settings_for, user_layers
from sodos_plugin.config.settings import Settings
from sodos_plugin.engine.context import Context
from sodos_plugin.engine.model import Tournament
from sodos_plugin.engine.ranking import WorkLimits, rank
from sodos_plugin.engine.roster import Roster, load_roster
from sodos_plugin.engine.standings import Standings
from sodos_plugin.errors import ConfigError, StrictError
from sodos_plugin.plugins.call import call, describe
from sodos_plugin.plugins.manager import PluginHost
from sodos_plugin.plugins.registry import Provided, Registry
from sodos_plugin.readers import choose, sgf
from sodos_plugin.util.gcpause import paused
from sodos_plugin.util.lazy import LazyModule
from sodos_plugin.writers import output

if TYPE_CHECKING:
    from sodos_plugin.ratings.run import RatingRun

# the ratings machinery, loaded when a history or a rating is first asked for
# (sodos_plugin.util.lazy): a run that ranks or lists plugins never imports it
histories = LazyModule("sodos_plugin.ratings.history", globals(), "histories")
initials = LazyModule("sodos_plugin.ratings.initial", globals(), "initials")
runs = LazyModule("sodos_plugin.ratings.run", globals(), "runs")
states = LazyModule("sodos_plugin.ratings.state", globals(), "states")
stores = LazyModule("sodos_plugin.store.api", globals(), "stores")


class Host:
    """One configured instance of the tool.

    :param config: a mapping the host passes in (same keys as ``sodos.toml``).
    :param config_file: a TOML file; ``None`` looks for ``sodos.toml`` or a
        ``pyproject.toml`` with ``[tool.sodos]`` in ``cwd``; ``False`` reads none.
    :param overrides: ``key=value`` strings (the CLI's ``-o``), highest precedence.
    :param entry_points: load third-party plugins from the ``sodos`` entry points.
    :param strict: every warning is an error (:class:`~sodos_plugin.errors.StrictError`,
        config ``strict``); ``None`` leaves it to the config.
    :param roster: a players file (config ``roster``, docs/rules.md §8): every name read
        must be in it.
    :param plugins: more plugin modules to load: names, or a mapping of name to who
        named it (the CLI passes ``{"mod": "-p"}``); one that cannot be imported is a
        :class:`~sodos_plugin.errors.ConfigError` naming the module and the import error.
    :param disable: more plugin names to block (the CLI's ``-p no:NAME``).
    :param raise_plugin_errors: ``False`` keeps a module that cannot be imported as a
        failure in :attr:`registry` instead (``sodos plugins`` lists it).
    """

    def __init__(
        self,
        config: Mapping[str, Any] | None = None,
        *,
        config_file: Path | str | None | bool = None,
        overrides: Sequence[str] = (),
        entry_points: bool = True,
        cwd: Path | None = None,
        strict: bool | None = None,
        roster: Path | str | None = None,
        plugins: Mapping[str, str] | Sequence[str] = (),
        disable: Sequence[str] = (),
        raise_plugin_errors: bool = True,
    ):
        #: the user's config layers, and (path, what happened) for every config file
        #: looked at (``sodos config``)
        self.layers, self.config_files = user_layers(
            config, config_file, overrides, strict, roster, cwd
        )
        self._roster: Roster | None = None
        self.settings = settings_for(self.layers)
        modules = plugins if isinstance(plugins, Mapping) else dict.fromkeys(plugins, "host")
        self.plugin_host = PluginHost(
            self.settings, entry_points=entry_points, modules=modules, blocked=disable
        )
        if raise_plugin_errors and self.plugin_host.errors:
            error = self.plugin_host.errors[0]
            info = self.registry.plugins[error.plugin]
            cause = error.__cause__
            reason = describe(cause) if cause is not None else error.message
            raise ConfigError(
                f"plugin module {error.plugin!r} ({info.named_by}) cannot be imported: {reason}"
            ) from cause

    # -- plugins ----------------------------------------------------------------------

    @property
    def registry(self) -> Registry:
        return self.plugin_host.registry

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module, class instance) at run time."""
        self.plugin_host.register(plugin, name)

    def resolve(self, kind: str, names: Sequence[str]) -> list[Provided]:
        """What is used under each name (``kind``: ``criteria``, ``writers``...); an
        unknown name is a :class:`ConfigError` with the close match
        (:meth:`~sodos_plugin.plugins.registry.Registry.resolve`)."""
        return self.registry.resolve(kind, names)

    def resolve_criteria(self, names: Sequence[str]) -> list[Criterion]:
        """Criteria by name (case-insensitive); an unknown name suggests the close match."""
        return [p.item for p in self.resolve("criteria", names)]

    def providers(self, kind: str, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Who provides each name, as machine output carries it (JSON ``providers``)."""
        return {p.name: self.describe(p) for p in self.resolve(kind, names)}

    def describe(self, provided: Provided) -> dict[str, Any]:
        """One provider for machine output: plugin, distribution, what it replaces."""
        return self.registry.describe(provided)

    def plugin_warnings(self) -> list[str]:
        """Failures and plugin-control warnings, each naming the plugin (and what it lost)."""
        return self.registry.fault_warnings()

    # -- settings ---------------------------------------------------------------------

    def settings_for(
        self,
        tournament: Tournament | None = None,
        *,
        files: Sequence[FileReport] = (),
        **options: Any,
    ) -> Settings:
        """Settings for one tournament: defaults < the file's own < config < overrides.

        ``options`` (e.g. ``system="swiss"``, ``criteria=[...]``) override everything.
        ``files`` (the reader's account) names the settings files of a records folder,
        so that ``settings.origins`` says ``sample_sgf/sodos.toml``.
        """
        return settings_for(self.layers, tournament, files, options)

    def enforce_strict(self, warnings: Sequence[str]) -> None:
        """Under ``strict``, any warning is an error listing them all (:class:`StrictError`)."""
        if self.settings.strict and warnings:
            raise StrictError(list(dict.fromkeys(warnings)))

    # -- reading ----------------------------------------------------------------------

    @paused
    def read(
        self,
        paths: Sequence[Path | str],
        *,
        skip_bad: bool = False,
        jobs: int | None = None,
        _reading_roster: bool = False,
    ) -> ReadResult:
        """Read input files with the reader plugin that claims them.

        All paths must be claimed by one reader (one tournament per run). With a
        roster, every player's name must be in it; under ``strict`` any warning of the
        reader raises :class:`~sodos_plugin.errors.StrictError`.
        """
        sections = self.settings.plugin_sections
        result = choose.read(self.registry, paths, sections, skip_bad=skip_bad, jobs=jobs)
        if not _reading_roster:  # a roster file is only read for its names
            if self.roster is not None:
                self.roster.check(result.tournament)
            self.enforce_strict(result.warnings)
        return result

    @property
    def roster(self) -> Roster | None:
        """The roster of config ``roster`` / ``--roster``, read once (None: no roster)."""
        if self._roster is None and self.settings.roster is not None:
            self._roster = load_roster(
                self.settings.roster,
                lambda path: self.read([path], _reading_roster=True).tournament,
            )
        return self._roster

    def reader_for(self, path: Path | str) -> Provided:
        """The reader plugin that claims ``path`` (third-party readers are asked first)."""
        return choose.reader_for(self.registry, Path(path))

    # -- standings --------------------------------------------------------------------

    @paused
    def standings(
        self,
        tournament: Tournament,
        *,
        round: int | None = None,
        criteria: Sequence[str] | None = None,
        system: str | None = None,
        files: Sequence[FileReport] = (),
        warnings: Sequence[str] = (),
        compat: str | None = None,
    ) -> Standings:
        """Ordered standings after round ``round``.

        By default, the last round with any result: a tournament whose round 4 is paired
        but not played yet is ranked after round 3, and ``standings.round_note`` says so.
        ``compat`` (``"opengotha"``) overrides the config's ``compat`` (docs/rules.md §7).
        """
        settings = self.settings_for(
            tournament, files=files, system=system, criteria=criteria, compat=compat
        )
        result = rank(
            tournament,
            settings,
            self.resolve("criteria", settings.criteria),
            round=round,
            run=_compute,
            lookup=lambda name: self.resolve("criteria", [name])[0],
            describe=self.describe,
            warnings=warnings,
            plugin_warnings=self.plugin_warnings(),
            files=files,
            # the operator's bounds: a tournament's own settings cannot raise them
            limits=WorkLimits.from_settings(self.settings),
        )
        self.enforce_strict(result.warnings)
        return result

    # -- ratings (docs/rules.md §10) --------------------------------------------------

    def stdin_suffix(self, head: bytes) -> str:
        """The file name suffix data read from stdin gets, from its first bytes, as the
        readers declare (``".sgf"``; ``""``: none recognises it)."""
        return choose.stdin_suffix(self.registry, head)

    def rating_system(self, name: str | None = None):
        """A rating system by name (case-insensitive; ``None``: the config's
        ``ratings.default``), and its plugin's name."""
        (found,) = self.resolve("rating_systems", [name or self.settings.ratings.default])
        return found.item, found.plugin

    def history_cache(self, sgf_options: Any = None):
        """The ingest cache of game histories (``cache.enabled``, ``cache.path``), or None."""
        if not self.settings.cache.enabled:
            return None
        limits = getattr(sgf_options, "limits", None)
        fallback = getattr(sgf_options, "fallback_encoding", "")
        return sgf.open_cache(self.settings.cache.path, f"{fallback}/{limits!r}")

    @paused
    def history(
        self,
        paths: Sequence[Path | str] = (),
        *,
        tournaments: Sequence[Tournament] = (),
        games: Sequence[Any] = (),
        jobs: int | None = None,
        progress: Any = None,
    ) -> GameHistory:
        """A game history (:class:`~sodos_hookspecs.GameHistory`) of files and host objects:
        SGF archives, h9 and XML files (one dated tournament each), dated ``Tournament``
        objects and ``HistoryGame`` s, in date order (docs/rules.md §10.1)."""
        return histories.read_history(
            self._sources(),
            paths,
            tournaments=tournaments,
            games=games,
            jobs=jobs,
            progress=progress,
        )

    def _sources(self):
        def claim(path: Path):
            provided = self.reader_for(path)
            return provided.item, provided.plugin

        return histories.Sources(
            claim=claim,
            read=lambda path: self.read([path]),
            sections=self.settings.plugin_sections,
            event_gap_days=self.settings.history.event_gap_days,
            cache=self.history_cache,
        )

    @paused
    def ratings(
        self,
        history: Any,
        *,
        rating: str | None = None,
        initial: Any = None,
        details: bool = False,
        steps: bool = True,
        state: Any = None,
        system: str | None = None,
        **params: Any,
    ) -> RatingRun:
        """Rate a history with a rating system; returns a
        :class:`~sodos_plugin.ratings.run.RatingRun` whose ``as_dict()`` is what
        ``sodos ratings --format json`` prints.

        :param history: a ``GameHistory`` (from :meth:`history`), or paths to read.
        :param rating: the rating system (``egf``, ``glicko2``, ``ogs``, ``whr`` ...;
            ``None``: the config's ``ratings.default``, ``egf`` unless set). ``system=``
            is its old spelling, still taken with a ``DeprecationWarning``: ``system`` is
            the pairing system (:meth:`standings`).
        :param initial: starting ratings: a mapping name → ``InitialRating``, a CSV
            path (``name, rating[, deviation]``), ``"files"`` (the ratings the files
            carry, e.g. OpenGotha XML), ``"ranks"`` (ranks by the system's mapping), or
            ``None``: the default start (the files' ratings for a system on their scale,
            GoR, where the files carry them, else ranks; said in the run's ``notes``,
            docs/rules.md §10.1).
        :param details: build per-game details (``explain --ratings``).
        :param steps: keep each player's step per period; ``False`` when only the final
            ratings will be shown (``report.needs_steps`` says which answers need them):
            the built-in systems then hold memory per player, not per game.
        :param state: a :class:`~sodos_hookspecs.SavedState` (or the path of a saved
            state file) to go on from: the history's games must all come after its last
            day, with the same system and parameters (docs/ratings.md).
        :param params: the system's parameters (over ``[rating.<system>]``).
        """
        rating = _rating_word(rating, system, stacklevel=4)  # past @paused's wrapper
        if not isinstance(history, GameHistory):
            history = self.history(history)
        provided = self.resolve("rating_systems", [rating or self.settings.ratings.default])[0]
        chosen, provider = provided.item, provided.plugin
        info = self.registry.plugins[provider]
        notes = []
        if initial is None:
            initial, note = initials.default_start(chosen, history)
            notes += [note] if note else []
        state_source = ""
        if isinstance(state, (str, Path)):
            state_source = str(state)
            state = states.read_state(state, self.settings.limits.max_state_bytes)
        section = self.settings.plugin_sections.get(sgf.PLUGIN, {})
        aliases = None
        if section.get("aliases"):
            where = f'the aliases ([plugin."{sgf.PLUGIN}"] aliases)'
            aliases = runs.Aliases(sgf.aliases(section), where)
        faults = self.plugin_warnings()
        described = self.describe(provided)
        own = self.settings.rating_sections.get(chosen.name.lower(), {})
        result = runs.rate(
            chosen,
            provider,
            history,
            runs.resolve_parameters(chosen, own, params),
            initial=initial,
            details=details,
            steps=steps,
            aliases=aliases,
            state=state,
            state_source=state_source,
            provider_text="" if info.builtin else info.where(),
        )
        # what the faces show beside the run: who provides it, the notes, plugin faults
        result.provided = described
        result.notes = notes
        result.warnings = list(dict.fromkeys([*result.warnings, *faults]))
        self.enforce_strict(result.warnings)
        return result

    def rate_game(
        self,
        state: SavedState | None,
        game: HistoryGame,
        *,
        rating: str | None = None,
        system: str | None = None,
        **params: Any,
    ) -> SavedState:
        """New states from current states and one game: ``state`` (``None`` at the
        start, or what the last call returned) and the game, rated as a run over that
        one game from ``state`` (its date after the state's last day). A server rates
        each game as it ends; the result's ``players`` are every player's states. Games
        of one day go on only in the history's order (date, event, round...: event keys
        that sort as the games were played). For GoR a game is a tournament of its own
        here: rate a tournament's games together with :meth:`ratings` (``state=``)."""
        rating = _rating_word(rating, system, stacklevel=3)
        history = self.history(games=[game])
        run = self.ratings(history, rating=rating, state=state, **params)
        return run.saved_state()

    def store(
        self,
        path: Path | str,
        *,
        rating: str = "ogs",
        synchronous: str | None = None,
        **params: Any,
    ) -> Any:
        """The live rating store at ``path`` (a SQLite file, created when absent) for the
        rating system ``rating`` and its parameters, resolved as :meth:`ratings` resolves
        them (defaults < ``[rating.<system>]`` < ``params``): a
        :class:`~sodos_plugin.store.api.Store` (docs/ratings.md, "A server's live
        ratings"). A store made with another system or other parameters is refused;
        ``synchronous`` and the limits come from the ``store.*`` config keys."""
        chosen = self.resolve("rating_systems", [rating])[0].item
        section = self.settings.rating_sections.get(chosen.name.lower(), {})
        values = runs.resolve_parameters(chosen, section, params)
        limits = self.settings.store
        return stores.Store(
            path,
            chosen.name,
            values,
            synchronous=synchronous or limits["synchronous"],
            busy_timeout=limits["busy_timeout"],
            max_batch=limits["max_batch"],
            max_leaderboard=limits["max_leaderboard"],
        )

    # -- writing ----------------------------------------------------------------------

    def write(self, standings: Standings, format: str, stream: TextIO) -> None:
        """Write standings with the writer plugin called ``format`` (case-insensitive).

        The writer renders into memory (:meth:`render`), then the text is written to
        ``stream``: a writer that fails leaves nothing half-written, and a stream that
        fails (a full disk, a closed pipe, an encoding that cannot show a character) is
        an :class:`~sodos_plugin.errors.OutputError`, not a failure of the writer.
        """
        output.send(self.render(standings, format), stream)

    @paused
    def render(self, standings: Standings, format: str) -> str:
        """The standings as the writer plugin called ``format`` writes them, as text."""
        (writer,) = self.resolve("writers", [format])
        return output.render(writer, standings)


def _compute(entry: Provided, compute: Any, ctx: Context) -> Breakdown:
    """A criterion's ``compute`` run as its plugin's hook (the fault rule)."""
    return call(entry.plugin, f"compute ({entry.name})", compute, ctx)


def _rating_word(rating: str | None, system: str | None, *, stacklevel: int) -> str | None:
    """The rating system of a call that may use ``system=``, the old spelling (one word,
    one meaning: ``system`` is the pairing system), said by a ``DeprecationWarning``."""
    if system is None:
        return rating
    python_warnings.warn(
        "system= names the rating system here in the old spelling: use rating= "
        "(system is the pairing system, as in Host.standings)",
        DeprecationWarning,
        stacklevel=stacklevel,  # the caller's line
    )
    return system
