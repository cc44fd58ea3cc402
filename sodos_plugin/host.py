"""The host API: config → plugin manager → read → standings → write.

A pairing program or Go server embeds the tool through :class:`Host`::

    from sodos_plugin import Host

    host = Host({"system": "mcmahon", "criteria": ["MMS", "SOS", "SOSOS"]})
    tournament = host.read(["results.xml"]).tournament
    standings = host.standings(tournament, round=3)
    host.write(standings, "json", sys.stdout)

Data flows one way (DESIGN.md): readers produce a frozen Tournament, the Context
computes scores once, criteria produce breakdowns, standings order them, writers
format them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from sodos_hookspecs import Breakdown, Criterion, FileReport, ReadResult

from sodos_plugin.advice import advice
from sodos_plugin.context import Context
from sodos_plugin.errors import ConfigError, InputError, PluginError, StrictError
from sodos_plugin.inputfiles import FileRefused, read_head
from sodos_plugin.model import Tournament
from sodos_plugin.plugins import PluginHost, Registry
from sodos_plugin.roster import Roster, load_roster
from sodos_plugin.settings import (
    Settings,
    find_config,
    load_file,
    parse_override,
    resolve,
)
from sodos_plugin.standings import Standings, order_players

HEAD_BYTES = 4096


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
    ):
        layers: list[tuple[str, Mapping[str, Any]]] = []
        if config_file is None:
            config_file = find_config(cwd or Path.cwd())
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
        self.plugin_host = PluginHost(self.settings, entry_points=entry_points)

    # -- plugins ----------------------------------------------------------------------

    @property
    def registry(self) -> Registry:
        return self.plugin_host.registry

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module, class instance) at run time."""
        self.plugin_host.register(plugin, name)

    # -- settings ---------------------------------------------------------------------

    def settings_for(self, tournament: Tournament | None = None, **options: Any) -> Settings:
        """Settings for one tournament: defaults < the file's own < config < overrides.

        ``options`` (e.g. ``system="swiss"``, ``criteria=[...]``) override everything.
        """
        layers: list[tuple[str, Mapping[str, Any]]] = []
        if tournament is not None and tournament.settings:
            layers.append((tournament.source or tournament.name, tournament.settings))
        layers.extend(self.layers)
        extra = {k: v for k, v in options.items() if v is not None}
        if extra:
            layers.append(("options", extra))
        return resolve(layers)

    def resolve_criteria(self, names: Sequence[str]) -> list[Criterion]:
        """Criteria by name (case-insensitive); an unknown name suggests the close match."""
        known = self.registry.criteria
        by_upper = {name.upper(): name for name in known}
        found = []
        for name in names:
            key = by_upper.get(name.strip().upper())
            if key is None:
                close = difflib.get_close_matches(name.upper(), list(by_upper), n=1)
                hint = f" (did you mean {by_upper[close[0]]}?)" if close else ""
                raise ConfigError(f"unknown criterion {name!r}{hint}", where="criteria")
            found.append(known[key])
        return found

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
            if not path.exists():
                raise InputError("no such file or directory", source=str(path))
            head = b""
            if not path.is_dir():  # a folder is claimed by its name; else the file's head
                try:
                    head = read_head(path, HEAD_BYTES)
                except FileRefused as error:
                    raise InputError(str(error), source=str(path)) from None
            reader = self._reader_for(path, head)
            if chosen is not None and reader[0].name != chosen[0].name:
                raise InputError(
                    f"is {reader[0].name} but earlier inputs are {chosen[0].name}: "
                    "give the files of one tournament in one format",
                    source=str(path),
                )
            chosen = reader
            resolved.append(path)
        assert chosen is not None
        reader, plugin_name = chosen
        options: dict[str, Any] = dict(self.settings.plugin_sections.get(plugin_name, {}))
        options.update(skip_bad=skip_bad, jobs=jobs)
        try:
            result = reader.read(resolved, options)
        except (InputError, ConfigError):
            raise
        except Exception as error:
            raise PluginError(
                plugin_name, f"read ({reader.name})", f"{type(error).__name__}: {error}"
            ) from error
        if not isinstance(result, ReadResult):
            raise PluginError(plugin_name, f"read ({reader.name})", "did not return a ReadResult")
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

    def _reader_for(self, path: Path, head: bytes):
        for reader, plugin_name in self.registry.readers:
            try:
                if reader.claims(path, head):
                    return reader, plugin_name
            except Exception as error:
                raise PluginError(plugin_name, f"claims ({reader.name})", str(error)) from error
        formats = ", ".join(r.name for r, _ in self.registry.readers) or "none installed"
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
    ) -> Standings:
        """Ordered standings after round ``round`` (default: the last round)."""
        settings = self.settings_for(tournament, system=system, criteria=criteria)
        rounds = tournament.rounds if round is None else round
        if not 0 <= rounds <= tournament.rounds:
            raise ConfigError(f"round {rounds} outside 0..{tournament.rounds}", where="--round")
        definitions = self.resolve_criteria(settings.criteria)
        ctx = Context(tournament, settings, rounds, evaluate=self._evaluate)
        breakdowns: dict[str, Breakdown] = {}
        columns: list[list[int]] = []
        for name, criterion in zip(settings.criteria, definitions):
            if criterion.uses_ties:
                ctx.preceding = list(zip(*columns)) if columns else [()] * ctx.size
            breakdown = self._compute(criterion, ctx)
            ctx.preceding = None
            breakdowns[name] = breakdown
            # after round 0 a per-round breakdown has no rows: every value is 0
            columns.append(self._column(criterion, breakdown, ctx) or [0] * ctx.size)
        order, places, tied = order_players(
            tournament, columns, [c.higher_is_better for c in definitions]
        )
        all_warnings = list(warnings)
        all_warnings += [str(f) for f in self.registry.failures]
        all_warnings += advice(
            settings.system,
            [c.name for c in definitions],
            lambda: ctx.scores.start_mms,
        )
        result = Standings(
            tournament=tournament,
            settings=settings,
            round=rounds,
            criteria=tuple(settings.criteria),
            breakdowns=breakdowns,
            definitions=dict(zip(settings.criteria, definitions)),
            order=order,
            places=places,
            tied=tied,
            warnings=all_warnings,
            files=files,
        )
        self.enforce_strict(all_warnings)
        for name, column in zip(settings.criteria, columns):
            result._numerators[name] = column
        return result

    def _evaluate(self, name: str, ctx: Context) -> Breakdown:
        (criterion,) = self.resolve_criteria([name])
        return self._compute(criterion, ctx)

    def _compute(self, criterion: Criterion, ctx: Context) -> Breakdown:
        """Run one criterion, checking what it returns (plugin faults are reported)."""
        owner = self.registry.criterion_owner.get(criterion.name, "?")
        hook = f"compute ({criterion.name})"
        try:
            breakdown = criterion.compute(ctx)
        except (InputError, ConfigError):
            raise
        except Exception as error:
            raise PluginError(owner, hook, f"{type(error).__name__}: {error}") from error
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

    def _column(self, criterion: Criterion, breakdown: Breakdown, ctx: Context) -> list[int]:
        """The criterion's numerators, checked to be integers (exact arithmetic).

        A float, string or None from a plugin would otherwise fail later in a writer
        or in sorting, blamed on the wrong plugin.
        """
        owner = self.registry.criterion_owner.get(criterion.name, "?")
        hook = f"compute ({criterion.name})"
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

    # -- writing ----------------------------------------------------------------------

    def write(self, standings: Standings, format: str, stream: TextIO) -> None:
        """Write standings with the writer plugin called ``format``."""
        entry = self.registry.writers.get(format)
        if entry is None:
            known = ", ".join(sorted(self.registry.writers))
            raise ConfigError(
                f"unknown output format {format!r} (known: {known})", where="--format"
            )
        writer, plugin_name = entry
        try:
            writer.write(standings, stream)
        except (InputError, ConfigError):
            raise
        except Exception as error:
            raise PluginError(
                plugin_name, f"write ({format})", f"{type(error).__name__}: {error}"
            ) from error
