"""``sodos config [PATH...]`` (and ``--trace-config``): which config files were read and
where each setting came from.

The layers, lowest first: built-in defaults, the settings a tournament file carries
(an OpenGotha file's parameters, a records folder's ``sodos.toml``), the config file
(``--config``, else ``./sodos.toml``, else ``[tool.sodos]`` in ``./pyproject.toml``),
``-o key=value``, then command options such as ``--system``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sodos_plugin.cli._common import EXIT_OK, common, criteria_option, selecting
from sodos_plugin.cli._streams import say

if TYPE_CHECKING:
    from sodos_hookspecs import FileReport

    from sodos_plugin.config.settings import Settings
    from sodos_plugin.host import Host

HELP = "show the config files read and where each setting came from"

#: config key -> Settings attribute, where the names differ
ATTRIBUTES = {
    "mcmahon.bar": "mcmahon_bar",
    "mcmahon.floor": "mcmahon_floor",
    "mcmahon.zero": "mcmahon_zero",
    "scoring.bye": "bye_nbw",
    "scoring.absent_nbw": "absent_nbw",
    "scoring.absent_mms": "absent_mms",
    "scoring.bye_mms": "bye_mms",
    "scoring.round_down": "round_down",
    "scoring.doubled": "doubled",
    "unplayed.virtual_opponent": "virtual_opponent",
    "handicap.sos_correction": "sos_correction",
    "handicap.reduction": "handicap_reduction",
    "categories.lower_limits": "category_limits",
    "history.event_gap_days": "event_gap_days",
}
RANK_KEYS = {"mcmahon.bar", "mcmahon.floor", "mcmahon.zero"}
RANK_LISTS = {"categories.lower_limits"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    selecting(p)
    p.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="optional tournament files: their own settings are shown as a layer",
    )


def shown(key: str, value: Any) -> str:
    """A setting's value as it would be written in sodos.toml."""
    from fractions import Fraction

    from sodos_plugin.engine.ranks import format_rank

    if value is None:
        return "(not set)"
    if key in RANK_KEYS and isinstance(value, int):
        return f'"{format_rank(value)}"'
    if key in RANK_LISTS and isinstance(value, tuple):
        return "[" + ", ".join(f'"{format_rank(v)}"' for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def value_of(settings: Settings, key: str) -> Any:
    """The resolved value of a config key (a test checks every key has one)."""
    if key.startswith("serve."):  # the service's keys live together in Settings.serve
        from sodos_plugin.config.settings import SCHEMA

        return settings.serve.get(key.removeprefix("serve."), SCHEMA[key].default)
    return getattr(settings, ATTRIBUTES.get(key) or key.replace(".", "_"))


def trace_lines(host: Host, settings: Settings, files: Sequence[FileReport] = ()) -> list[str]:
    from sodos_plugin.config.settings import SCHEMA

    lines = ["config files:"]
    for path, state in host.config_files:
        lines.append(f"  {path}: {state}")
    if not host.config_files:
        lines.append("  none (config_file=False)")
    for report in files:
        if report.status == "settings":
            lines.append(f"  {report.path}: read (the records folder's own settings)")
    lines.append("settings (value, then where it came from):")
    width = max(len(k) for k in SCHEMA)
    for key in SCHEMA:
        origin = settings.origins.get(key)
        value = value_of(settings, key)
        if origin is None:
            origin = "default"
            if key == "criteria":
                origin = f"default: the {settings.system} preset"
            elif key == "scoring.bye_mms":
                origin = "default: scoring.bye"
        lines.append(f"  {key.ljust(width)} = {shown(key, value)}  ({origin})")
    for criterion, plugin in settings.prefer.items():
        lines.append(f"  prefer.{criterion} = {shown('', plugin)}")
    for name in settings.plugin_sections:
        lines.append(f"  [plugin.{name}]: {len(settings.plugin_sections[name])} key(s)")
    return lines


def write_trace(
    host: Host, settings: Settings, files: Sequence[FileReport], stream: TextIO
) -> None:
    for line in trace_lines(host, settings, files):
        say(f"config: {line}" if stream is sys.stderr else line, stream)  # escaped, one line


def run(args: argparse.Namespace) -> int:
    host = make_host_quiet(args)
    names = criteria_option(args)
    files: Sequence[FileReport] = ()
    tournament = None
    if args.paths:
        read = host.read(args.paths)
        tournament, files = read.tournament, read.files
    settings = host.settings_for(tournament, files=files, system=args.system, criteria=names)
    write_trace(host, settings, files, sys.stdout)
    return EXIT_OK


def make_host_quiet(args: argparse.Namespace) -> Host:
    from sodos_plugin.cli._common import make_host

    args.trace_config = False  # this command prints the trace itself, on stdout
    return make_host(args)
