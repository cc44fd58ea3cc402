"""The SGF reader's work: paths → one tournament (:func:`read`), and the tournament
settings a records folder or archive carries (:func:`_folder_settings`).

Imported on the first read only (the plugin module, the package, stays light so that
a run on another format never imports the SGF layers); the package documentation
describes the reader and its layers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, ReadResult

from sodos_plugin.config.settings import _builtin_sections, load_bytes, load_file, resolve
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.readers.sgf.assemble import assemble
from sodos_plugin.readers.sgf.names import PLUGIN
from sodos_plugin.readers.sgf.options import LIMIT_KEYS, RUN_KEYS, SECTION, parse_options
from sodos_plugin.readers.sgf.walk import (
    SettingsSource,
    collect,
    ingest_stream,
)

#: Keys a records folder's ``sodos.toml`` may not set: they load or block code, or act
#: on the run rather than on the tournament — refused, not ignored.
RUN_ONLY_KEYS = ("plugins", "disable", "prefer", "strict", "roster")
#: Reader keys a records folder may not set: the bounds on its own reading, and how the
#: run is done (worker processes, skipping bad files).
FOLDER_REFUSED = (*LIMIT_KEYS, *RUN_KEYS)


def _folder_settings(
    sources: Sequence[SettingsSource],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Tournament settings and reader defaults from the folders' or archives' ``sodos.toml``.

    Refused (:class:`ConfigError` naming the file and key): unknown keys and bad values,
    :data:`RUN_ONLY_KEYS`, other plugins' sections, :data:`FOLDER_REFUSED`; and two
    settings files that differ (two tournaments' settings in one run).
    """
    settings: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    first: tuple[str, dict[str, Any]] | None = None
    for source in sources:
        where = source.source
        data = load_file(Path(where)) if source.data is None else load_bytes(source.data, where)
        resolve([(where, data)])  # unknown keys and bad values fail here, naming the file
        refused = [key for key in RUN_ONLY_KEYS if key in data]
        if refused:
            raise ConfigError(
                f"{refused[0]}: a records folder cannot set it (it acts on the run, not on "
                "the tournament); set it in your config",
                source=where,
                where=refused[0],
            )
        section: dict[str, Any] = {}
        for plugin, values in _builtin_sections(data.get("plugin", {})):
            if plugin != PLUGIN:
                raise ConfigError(
                    f"[plugin.{plugin}]: only {SECTION} belongs in a records folder",
                    source=where,
                )
            section.update(values)
        limits = [key for key in FOLDER_REFUSED if key in section]
        if limits:  # a folder of records must not raise the bounds on its own reading
            raise ConfigError(
                f"{limits[0]}: set limits and run options in your config, not in the "
                "records folder",
                source=where,
                where=limits[0],
            )
        if first is None:
            first = (where, data)
        elif data != first[1]:
            raise ConfigError(
                f"two records folders with different settings in one run: {first[0]} and "
                f"{where}; give one tournament per run, or make them agree"
            )
        defaults.update(section)
        settings.update({k: v for k, v in data.items() if k != "plugin"})
    return settings, defaults


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    """Read records from ``paths`` (files, directories, archives) into one tournament."""
    paths = [Path(p) for p in paths]
    user = parse_options(options)  # a bad key fails before any work
    units, reports, settings_files = collect(paths, user.limits)
    if not units and not any(r.status == "rejected" for r in reports):
        raise InputError(_no_records(paths, reports))
    settings, defaults = _folder_settings(settings_files)
    merged = dict(defaults)
    merged.update({k: v for k, v in options.items() if v is not None})
    where = f"{settings_files[0].source} or {SECTION}" if defaults else SECTION
    opts = parse_options(merged, where)
    name = paths[0].name if len(paths) == 1 else ", ".join(p.name for p in paths)
    # each file is assembled as it comes, while the workers read the next ones; a run
    # that fails stops them at once
    with contextlib.closing(
        ingest_stream(units, jobs=opts.jobs, fallback=opts.fallback_encoding, limits=opts.limits)
    ) as outcomes:
        tournament, files, warnings = assemble(
            outcomes,
            opts,
            settings=settings,
            name=name.rstrip("/") or str(paths[0]),
            reports=reports,
        )
    files.extend(FileReport(s.source, "settings", "tournament settings") for s in settings_files)
    return ReadResult(tournament, files=files, warnings=warnings)


def _no_records(paths: Sequence[Path], reports: Sequence[FileReport]) -> str:
    """Why a run found nothing to rank: never an empty table that looks like a result."""
    where = ", ".join(str(p) for p in paths[:3]) + (" …" if len(paths) > 3 else "")
    if not reports:
        return f"{where}: no SGF game record"
    names = [Path(r.path).name for r in reports[:3]]
    more = f" and {len(reports) - 3} more" if len(reports) > 3 else ""
    return (
        f"{where}: no SGF game record ({len(reports)} other file(s): {', '.join(names)}{more});"
        " a folder is read as SGF records: give a tournament file (h9, OpenGotha XML, JSON)"
        " itself as the path, one per run"
    )
