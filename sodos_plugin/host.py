"""The host API: config → plugin manager → read → standings → write.

A pairing program or Go server embeds the tool through :class:`Host`::

    from sodos_plugin import Host

    host = Host({"system": "mcmahon", "criteria": ["MMS", "SOS", "SOSOS"]})
    tournament = host.read(["results.xml"]).tournament
    standings = host.standings(tournament, round=3)
    host.write(standings, "json", sys.stdout)

Data flows one way: readers produce a frozen Tournament, the Context
computes scores once, criteria produce breakdowns, standings order them, writers
format them.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from sodos_hookspecs import Breakdown, Criterion, FileReport, ReadResult

from sodos_plugin.config.settings import (
    Settings,
    find_config,
    load_file,
    parse_override,
    resolve,
)
from sodos_plugin.engine import compat as compat_mode
from sodos_plugin.engine.advice import advice
from sodos_plugin.engine.context import Context
from sodos_plugin.engine.model import Result, Tournament
from sodos_plugin.engine.roster import Roster, load_roster
from sodos_plugin.engine.standings import Standings, order_players
from sodos_plugin.errors import ConfigError, InputError, OutputError, PluginError, StrictError
from sodos_plugin.plugins.manager import PluginHost, Provided, Registry
from sodos_plugin.util.inputfiles import FileRefused, read_head
from sodos_plugin.util.textsafe import printable

HEAD_BYTES = 4096
#: Output is handed to the stream in pieces of this many characters.
OUTPUT_CHUNK = 1 << 20


def _roster_beside(data: dict[str, Any], folder: Path) -> dict[str, Any]:
    """A config file's relative ``roster`` path is taken from the file's folder."""
    roster = data.get("roster")
    if isinstance(roster, str) and roster.strip() and not Path(roster).is_absolute():
        data = {**data, "roster": str(folder / roster.strip())}
    return data


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
        layers: list[tuple[str, Mapping[str, Any]]] = []
        #: (path, what happened) for every config file looked at (``sodos config``)
        self.config_files: list[tuple[str, str]] = []
        if config_file is None:
            directory = cwd or Path.cwd()
            config_file = find_config(directory)
            if config_file is None:
                for name in ("sodos.toml", "pyproject.toml"):
                    candidate = directory / name
                    state = "has no [tool.sodos] table" if candidate.is_file() else "absent"
                    self.config_files.append((str(candidate), state))
            else:
                self.config_files.append((str(config_file), "read (found in the directory)"))
        elif config_file:
            self.config_files.append((str(config_file), "read (--config)"))
        if config_file:
            path = Path(config_file)
            layers.append((str(path), _roster_beside(load_file(path), path.parent)))
        if config:
            layers.append(("host config", config))
        for text in overrides:
            layers.append((f"-o {text}", parse_override(text)))
        if strict is not None:
            layers.append(("--strict", {"strict": strict}))
        if roster is not None:
            layers.append(("--roster", {"roster": str(roster)}))
        self.layers = layers
        self._roster: Roster | None = None
        self.settings = resolve(layers)
        modules = plugins if isinstance(plugins, Mapping) else dict.fromkeys(plugins, "host")
        self.plugin_host = PluginHost(
            self.settings, entry_points=entry_points, modules=modules, blocked=disable
        )
        if raise_plugin_errors and self.plugin_host.errors:
            error = self.plugin_host.errors[0]
            info = self.registry.plugins[error.plugin]
            cause = error.__cause__
            reason = _text(cause) if cause is not None else error.message
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
        layers: list[tuple[str, Mapping[str, Any]]] = []
        if tournament is not None and tournament.settings:
            named = ", ".join(f.path for f in files if f.status == "settings")
            layers.append((named or tournament.source or tournament.name, tournament.settings))
        layers.extend(self.layers)
        extra = {k: v for k, v in options.items() if v is not None}
        if extra:
            layers.append(("options", extra))
        return resolve(layers)

    def resolve_criteria(self, names: Sequence[str]) -> list[Criterion]:
        """Criteria by name (case-insensitive); an unknown name suggests the close match."""
        return [p.item for p in self.resolve("criteria", names)]

    def resolve(self, kind: str, names: Sequence[str]) -> list[Provided]:
        """What is used under each name (``kind``: ``criteria``, ``writers``...).

        :raises ConfigError: for a name nobody provides (with the close match and any
            plugin that failed before saying what it provides), a name two plugins
            provide (conflict), or one whose plugin failed.
        """
        registry = self.registry
        found = []
        for name in names:
            provided = registry.lookup(kind, name)
            if provided is None:
                raise ConfigError(self._unknown(kind, name), where=kind)
            found.append(provided)
        return found

    def _unknown(self, kind: str, name: str) -> str:
        from sodos_plugin.plugins.manager import kind as kind_of

        registry = self.registry
        k = kind_of(kind)
        reason = registry.unavailable(kind, name)
        if reason is not None:
            return f"{name}: {reason}"
        known = [p.name for p in registry.items(kind)]
        by_key = {k.key(n): n for n in known}
        close = difflib.get_close_matches(k.key(name), list(by_key), n=1)
        text = f"unknown {k.name} {name!r}"
        if close:
            text += f" (did you mean {by_key[close[0]]}?)"
        suspects = registry.suspects()
        if suspects:
            text += "; plugins that failed to load and may provide it: " + "; ".join(
                f"{i.name!r} ({i.where()}): {i.failed}" for i in suspects
            )
        blocked = registry.blocked()
        if blocked:
            text += "; plugins blocked in this run (-p no:NAME, disable) that may provide it: " + (
                ", ".join(repr(i.name) for i in blocked)
            )
        return text

    def providers(self, kind: str, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Who provides each name, as machine output carries it (JSON ``providers``)."""
        return {p.name: self.describe(p) for p in self.resolve(kind, names)}

    def describe(self, provided: Provided) -> dict[str, Any]:
        """One provider for machine output: plugin, distribution, what it replaces."""
        info = self.registry.plugins[provided.plugin]
        return {
            "plugin": info.name,
            "builtin": info.builtin,
            "origin": info.origin,
            "distribution": info.distribution,
            "version": info.version,
            "module": info.module,
            "provided_as": provided.provided_as,
            "replaces": provided.replaces,
        }

    # -- reading ----------------------------------------------------------------------

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
        if not paths:
            raise InputError("no input files given")
        chosen = None
        resolved = []
        for raw in paths:
            path = Path(raw)
            try:  # a path too long, a loop of links ...: said, naming the path
                exists = path.exists()
            except OSError as error:
                raise InputError(f"cannot read: {error.strerror}", source=str(path)) from None
            if not exists:
                raise InputError("no such file or directory", source=str(path))
            reader = self._reader_for(path, _head(path))
            if chosen is not None and reader.name != chosen.name:
                raise InputError(
                    f"is {reader.name} but earlier inputs are {chosen.name}: "
                    "give the files of one tournament in one format",
                    source=str(path),
                )
            chosen = reader
            resolved.append(path)
        assert chosen is not None
        reader, plugin_name = chosen.item, chosen.plugin
        options: dict[str, Any] = dict(self.settings.plugin_sections.get(plugin_name, {}))
        options.update(skip_bad=skip_bad, jobs=jobs)
        try:
            result = reader.read(resolved, options)
        except (InputError, ConfigError, KeyboardInterrupt):
            raise
        except BaseException as error:  # SystemExit from a plugin is its failure too
            raise PluginError(plugin_name, f"read ({reader.name})", _text(error)) from error
        if not isinstance(result, ReadResult):
            raise PluginError(plugin_name, f"read ({reader.name})", "did not return a ReadResult")
        shared = _shared_name_warnings(result.tournament)
        if shared:  # a plugin's ReadResult may hold a tuple: a new one, warnings appended
            result = dataclasses.replace(result, warnings=[*result.warnings, *shared])
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

    def enforce_strict(self, warnings: Sequence[str]) -> None:
        """Under ``strict``, any warning is an error listing them all (:class:`StrictError`)."""
        if self.settings.strict and warnings:
            raise StrictError(list(dict.fromkeys(warnings)))

    def reader_for(self, path: Path | str) -> Provided:
        """The reader plugin that claims ``path`` (third-party readers are asked first)."""
        return self._reader_for(Path(path), _head(Path(path)))

    def _reader_for(self, path: Path, head: bytes) -> Provided:
        registry = self.registry
        for reader, plugin_name in registry.readers:
            try:
                claimed = reader.claims(path, head)
            except KeyboardInterrupt:
                raise
            except BaseException as error:
                raise PluginError(plugin_name, f"claims ({reader.name})", _text(error)) from error
            if claimed:
                provided = registry.lookup("readers", reader.name)
                assert provided is not None
                return provided
        for conflict in registry.conflicts:
            if conflict.kind == "readers":
                raise InputError(f"no reader in use claims this file; {conflict}", source=str(path))
        formats = ", ".join(r.name for r, _ in registry.readers) or "none installed"
        raise InputError(f"no reader recognises this file (formats: {formats})", source=str(path))

    # -- standings --------------------------------------------------------------------

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
        tournament, settings, compat_notes = compat_mode.prepare(tournament, settings)
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
            raise ConfigError(f"round {rounds} outside 0..{tournament.rounds}", where="--round")
        provided = self.resolve("criteria", settings.criteria)
        definitions = [p.item for p in provided]
        names = tuple(p.name for p in provided)  # as registered: "sosm-1" is SOSM-1
        ctx = Context(tournament, settings, rounds, evaluate=self._evaluate)
        breakdowns: dict[str, Breakdown] = {}
        columns: list[list[int]] = []
        for name, entry in zip(names, provided):
            if entry.item.uses_ties:
                ctx.preceding = list(zip(*columns)) if columns else [()] * ctx.size
            breakdown = self._compute(entry, ctx)
            ctx.preceding = None
            breakdowns[name] = breakdown
            # after round 0 a per-round breakdown has no rows: every value is 0
            columns.append(self._column(entry, breakdown, ctx) or [0] * ctx.size)
        order, places, tied = order_players(
            tournament, columns, [c.higher_is_better for c in definitions]
        )
        all_warnings = list(warnings) + compat_notes
        all_warnings += compat_mode.criteria_notes(settings, names, rounds)
        all_warnings += self.plugin_warnings()
        all_warnings += advice(
            settings.system,
            [c.name for c in definitions],
            lambda: ctx.scores.start_mms,
        )
        result = Standings(
            tournament=tournament,
            settings=settings,
            round=rounds,
            criteria=names,
            breakdowns=breakdowns,
            definitions=dict(zip(names, definitions)),
            providers={p.name: self.describe(p) for p in provided},
            round_note=note,
            order=order,
            places=places,
            tied=tied,
            warnings=all_warnings,
            files=files,
        )
        self.enforce_strict(all_warnings)
        for name, column in zip(names, columns):
            result._numerators[name] = column
        return result

    def plugin_warnings(self) -> list[str]:
        """Failures and plugin-control warnings, each naming the plugin (and what it lost)."""
        registry = self.registry
        out = list(registry.warnings)
        for failure in registry.failures:
            info = registry.plugins.get(failure.plugin)
            text = str(failure)
            if info is not None and info.distribution:
                text += f" (distribution {info.distribution} {info.version or ''})".rstrip()
            lost = [n for names in (info.lost.values() if info else ()) for n in names]
            if lost:
                text += f"; not used: {', '.join(lost)}"
            out.append(text)
        return out

    def _evaluate(self, name: str, ctx: Context) -> Breakdown:
        (entry,) = self.resolve("criteria", [name])
        return self._compute(entry, ctx)

    def _compute(self, entry: Provided, ctx: Context) -> Breakdown:
        """Run one criterion, checking what it returns (plugin faults are reported)."""
        owner = entry.plugin
        hook = f"compute ({entry.name})"
        compute = compat_mode.adjusted(entry.name, owner, entry.item.compute, ctx.settings)
        try:
            breakdown = compute(ctx)
        except (InputError, ConfigError, KeyboardInterrupt):
            raise
        except BaseException as error:  # SystemExit from a plugin is its failure too
            raise PluginError(owner, hook, _text(error)) from error
        if not isinstance(breakdown, Breakdown):
            raise PluginError(owner, hook, f"returned {type(breakdown).__name__}, not a Breakdown")
        if type(breakdown.denominator) is not int:
            raise PluginError(
                owner, hook, f"denominator must be an int, got {breakdown.denominator!r}"
            )
        n = ctx.size
        if breakdown.totals is not None:
            if len(breakdown.totals) != n:
                raise PluginError(
                    owner, hook, f"gave {len(breakdown.totals)} values for {n} players"
                )
        else:
            rows = breakdown.contributions or []
            if len(rows) != ctx.round or any(len(row) != n for row in rows):
                raise PluginError(
                    owner, hook, f"contributions are not {ctx.round} rounds × {n} players"
                )
        return breakdown

    def _column(self, entry: Provided, breakdown: Breakdown, ctx: Context) -> list[int]:
        """The criterion's numerators, checked to be integers (exact arithmetic).

        A float, string or None from a plugin would otherwise fail later in a writer
        or in sorting, blamed on the wrong plugin.
        """
        owner = entry.plugin
        hook = f"compute ({entry.name})"
        try:
            column = ctx.numerators(breakdown)
        except TypeError as error:
            raise PluginError(owner, hook, f"values are not integers: {error}") from error
        # set(map(type)) is the fast path for the usual all-int column
        if set(map(type, column)) - {int} and not all(isinstance(v, int) for v in column):
            bad = sorted({type(v).__name__ for v in column if not isinstance(v, int)})
            raise PluginError(
                owner, hook, f"values must be integer numerators, got {', '.join(bad)}"
            )
        return column

    # -- ratings (docs/rules.md §10) --------------------------------------------------

    def rating_system(self, name: str):
        """A rating system by name (case-insensitive), and its plugin's name."""
        found = self.registry.lookup("rating_systems", name)
        if found is None:
            why = self.registry.unavailable("rating_systems", name)
            if why is not None:
                raise ConfigError(f"rating system {name!r}: {why}", where="--system")
            known = sorted(p.name for p in self.registry.items("rating_systems"))
            key = name.strip().lower()
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else f" (known: {', '.join(known)})"
            raise ConfigError(f"unknown rating system {name!r}{hint}", where="--system")
        return found.item, found.plugin

    def history_cache(self, sgf_options=None):
        """The ingest cache of game histories (``cache.enabled``, ``cache.path``), or None."""
        if not self.settings.cache_enabled:
            return None
        from sodos_plugin.readers.sgf.cache import Cache, default_path

        limits = getattr(sgf_options, "limits", None)
        fallback = getattr(sgf_options, "fallback_encoding", "")
        context = f"{fallback}/{limits!r}"
        return Cache(self.settings.cache_path or default_path(), context)

    def history(
        self,
        paths: Sequence[Path | str] = (),
        *,
        tournaments: Sequence[Tournament] = (),
        games: Sequence[Any] = (),
        jobs: int | None = None,
        progress: Any = None,
    ):
        """A game history (:class:`~sodos_hookspecs.GameHistory`) of files and host objects:
        SGF archives, h9 and XML files (one dated tournament each), dated ``Tournament``
        objects and ``HistoryGame`` s, in date order (docs/rules.md §10.1)."""
        from sodos_plugin.engine.model import paused_gc
        from sodos_plugin.ratings.history import read_history

        with paused_gc():  # millions of small tuples, no cycles: see paused_gc
            return read_history(
                self, paths, tournaments=tournaments, games=games, jobs=jobs, progress=progress
            )

    def ratings(
        self,
        history: Any,
        *,
        system: str = "egf",
        initial: Any = None,
        details: bool = False,
        **params: Any,
    ):
        """Rate a history with a rating system; returns a
        :class:`~sodos_plugin.ratings.run.RatingRun` whose ``as_dict()`` is what
        ``sodos ratings --format json`` prints.

        :param history: a ``GameHistory`` (from :meth:`history`), or paths to read.
        :param initial: starting ratings: a mapping name → ``InitialRating``, a CSV
            path (``name, rating[, deviation]``), ``"files"`` (the ratings the files
            carry, e.g. OpenGotha XML), or ``None`` (ranks by the system's mapping).
        :param details: build per-game details (``explain --ratings``).
        :param params: the system's parameters (over ``[rating.<system>]``).
        """
        from sodos_hookspecs import GameHistory, RatingResult

        from sodos_plugin.ratings.history import file_ratings, match_initial, read_initial
        from sodos_plugin.ratings.run import RatingRun, resolve_parameters

        if not isinstance(history, GameHistory):
            history = self.history(history)
        chosen, provider = self.rating_system(system)
        section = self.settings.rating_sections.get(chosen.name.lower(), {})
        values = resolve_parameters(chosen, section, params)
        warnings = list(history.warnings)
        if initial is None:
            given = {}
        elif isinstance(initial, str) and initial == "files":
            given = file_ratings(history)
        elif isinstance(initial, (str, Path)):
            given = read_initial(initial)
        else:
            given = dict(initial)
        if given:
            given, unused = match_initial(given, history)
            warnings += unused
        from sodos_plugin.engine.model import paused_gc

        try:
            with paused_gc():  # a rating run makes millions of steps, no cycles
                result = chosen.rate(history, given, {**values, "details": details})
        except (InputError, ConfigError):
            raise
        except Exception as error:
            raise PluginError(
                provider, f"rate ({chosen.name})", f"{type(error).__name__}: {error}"
            ) from error
        if not isinstance(result, RatingResult):
            raise PluginError(provider, f"rate ({chosen.name})", "did not return a RatingResult")
        warnings += list(result.warnings)
        warnings += [str(f) for f in self.registry.failures]
        warnings = list(dict.fromkeys(warnings))
        self.enforce_strict(warnings)
        return RatingRun(chosen, provider, values, history, result, warnings)

    # -- writing ----------------------------------------------------------------------

    def write(self, standings: Standings, format: str, stream: TextIO) -> None:
        """Write standings with the writer plugin called ``format`` (case-insensitive).

        The writer renders into memory (:meth:`render`), then the text is written to
        ``stream``: a writer that fails leaves nothing half-written, and a stream that
        fails (a full disk, a closed pipe, an encoding that cannot show a character) is
        an :class:`~sodos_plugin.errors.OutputError`, not a failure of the writer.
        """
        text = self.render(standings, format)
        name = getattr(stream, "name", None)
        target = "standard output" if name == "<stdout>" else "the output"
        try:
            for start in range(0, len(text), OUTPUT_CHUNK):  # bounded encoding buffers
                stream.write(text[start : start + OUTPUT_CHUNK])
        except UnicodeEncodeError as error:
            shown = printable(repr(error.object[error.start : error.end]))
            reason = f"its encoding ({error.encoding}) cannot show {shown}"
            raise OutputError(f"cannot write {target}: {reason}", reason=reason) from error
        except OSError as error:
            reason = error.strerror or str(error)
            raise OutputError(f"cannot write {target}: {reason}", reason=reason) from error

    def render(self, standings: Standings, format: str) -> str:
        """The standings as the writer plugin called ``format`` writes them, as text."""
        (entry,) = self._writer(format)
        writer, plugin_name = entry.item, entry.plugin
        buffer = io.StringIO()
        try:
            writer.write(standings, buffer)
        except (InputError, ConfigError, KeyboardInterrupt):
            raise
        except BaseException as error:  # SystemExit from a plugin is its failure too
            raise PluginError(plugin_name, f"write ({entry.name})", _text(error)) from error
        return buffer.getvalue()

    def _writer(self, format: str) -> list[Provided]:
        entry = self.registry.lookup("writers", format)
        if entry is None:
            reason = self.registry.unavailable("writers", format)
            known = ", ".join(sorted(self.registry.writers))
            message = f"{format}: {reason}" if reason else f"unknown output format {format!r}"
            raise ConfigError(f"{message} (known: {known})", where="--format")
        return [entry]


def last_round_with_results(tournament: Tournament) -> int:
    """The last round in which some game has a result (0 when none has)."""
    unknown = Result.UNKNOWN
    return max((g.round for g in tournament.games if g.result is not unknown), default=0)


def _head(path: Path) -> bytes:
    """The first bytes of a file, for readers' ``claims`` (a folder is claimed by its name)."""
    if path.is_dir():
        return b""
    try:
        return read_head(path, HEAD_BYTES)
    except FileRefused as error:
        raise InputError(str(error), source=str(path)) from None


def _text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _shared_name_warnings(tournament: Tournament) -> list[str]:
    """Players registered apart whose names are one name (docs/rules.md §8): said, never
    merged (a file's registrations are its own), whatever the reader."""
    from sodos_plugin.engine.identity import shared_names

    players = tournament.players
    warnings = []
    for group in shared_names([p.name for p in players]):
        shown = ", ".join(f"{players[i].name!r} (player {i + 1})" for i in group[:4])
        more = f" and {len(group) - 4} more" if len(group) > 4 else ""
        where = f"{tournament.source}: " if tournament.source else ""
        warnings.append(
            f"{where}{len(group)} players have one name by the identity rule (docs/rules.md §8): "
            f"{shown}{more}; one person registered twice, or different people?"
        )
    return warnings
