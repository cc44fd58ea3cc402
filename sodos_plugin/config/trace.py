"""The config trace: which config files were read and where each setting came from.

``sodos config`` prints it on stdout and ``--trace-config`` on stderr. The layers,
lowest first: built-in defaults, the settings a tournament file carries (an OpenGotha
file's parameters, a records folder's ``sodos.toml``), the config file (``--config``,
else ``./sodos.toml``, else ``[tool.sodos]`` in ``./pyproject.toml``), the host's
mapping, ``-o key=value``, then command options such as ``--system``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sodos_plugin.config.settings import SCHEMA, Settings
from sodos_plugin.engine.ranks import format_rank

if TYPE_CHECKING:
    from sodos_hookspecs import FileReport

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
    "limits.max_players": "max_players",
    "limits.max_player_rounds": "max_player_rounds",
}
RANK_KEYS = {"mcmahon.bar", "mcmahon.floor", "mcmahon.zero"}
RANK_LISTS = {"categories.lower_limits"}


def shown(key: str, value: Any) -> str:
    """A setting's value as it would be written in sodos.toml."""
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
        return settings.serve.get(key.removeprefix("serve."), SCHEMA[key].default)
    if key.startswith("store."):  # the live store's keys live together in Settings.store
        return settings.store.get(key.removeprefix("store."), SCHEMA[key].default)
    return getattr(settings, ATTRIBUTES.get(key) or key.replace(".", "_"))


def trace_lines(
    config_files: Sequence[tuple[str, str]], settings: Settings, files: Sequence[FileReport] = ()
) -> list[str]:
    """The trace: each config file looked at (``(path, what happened)``), each records
    folder's own settings file among ``files``, then every key's value and origin."""
    lines = ["config files:"]
    for path, state in config_files:
        lines.append(f"  {path}: {state}")
    if not config_files:
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
