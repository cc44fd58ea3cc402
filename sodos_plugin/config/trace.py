"""The config trace: which config files were read and where each setting came from.

``sodos config`` prints it on stdout and ``--trace-config`` on stderr. The layers,
lowest first: built-in defaults, the settings a tournament file carries (an OpenGotha
file's parameters, a records folder's ``sodos.toml``), the config file (``--config``,
else ``./sodos.toml``, else ``[tool.sodos]`` in ``./pyproject.toml``), the host's
mapping, ``-o key=value``, then command options such as ``--system``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sodos_plugin.config.settings import SCHEMA, Settings, show_value

if TYPE_CHECKING:
    from sodos_hookspecs import FileReport


def shown(key: str, value: Any) -> str:
    """A setting's value as it would be written in sodos.toml (the key's own ``show``)."""
    if value is None or key not in SCHEMA:
        return show_value(value)
    return SCHEMA[key].show(value)


def value_of(settings: Settings, key: str) -> Any:
    """The resolved value of a config key (a test checks every key has one)."""
    return settings.value(key)


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
            derived = SCHEMA[key].default_origin
            origin = "default" if derived is None else derived(settings.value)
        lines.append(f"  {key.ljust(width)} = {shown(key, value)}  ({origin})")
    for criterion, plugin in settings.prefer.items():
        lines.append(f"  prefer.{criterion} = {shown('', plugin)}")
    for name in settings.plugin_sections:
        lines.append(f"  [plugin.{name}]: {len(settings.plugin_sections[name])} key(s)")
    return lines
