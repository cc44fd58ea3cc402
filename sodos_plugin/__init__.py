"""sodos-plugin: Go tournament standings (SOS, SOSOS, SODOS, SODOMS, ...) as pluggy plugins.

The host API is :class:`~sodos_plugin.host.Host`; the plugin contract is the
``sodos_hookspecs`` package; the model is :mod:`sodos_plugin.model`.

The names below are imported on first use (PEP 562), so ``sodos --version`` and a
program that needs one module do not pay for the whole package.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up
__version__ = "0.1.0"

#: public name -> the module that defines it
_EXPORTS = {
    "Context": "sodos_plugin.context",
    "ConfigError": "sodos_plugin.errors",
    "InputError": "sodos_plugin.errors",
    "OutputError": "sodos_plugin.errors",
    "PluginError": "sodos_plugin.errors",
    "SodosError": "sodos_plugin.errors",
    "StrictError": "sodos_plugin.errors",
    "Host": "sodos_plugin.host",
    "Game": "sodos_plugin.model",
    "Participation": "sodos_plugin.model",
    "Player": "sodos_plugin.model",
    "Result": "sodos_plugin.model",
    "Tournament": "sodos_plugin.model",
    "Settings": "sodos_plugin.settings",
    "Standings": "sodos_plugin.standings",
}

__all__ = [
    "ConfigError",
    "Context",
    "Game",
    "Host",
    "InputError",
    "OutputError",
    "Participation",
    "Player",
    "PluginError",
    "Result",
    "Settings",
    "SodosError",
    "Standings",
    "StrictError",
    "Tournament",
]

if TYPE_CHECKING:
    from sodos_plugin.context import Context
    from sodos_plugin.errors import (
        ConfigError,
        InputError,
        OutputError,
        PluginError,
        SodosError,
        StrictError,
    )
    from sodos_plugin.host import Host
    from sodos_plugin.model import Game, Participation, Player, Result, Tournament
    from sodos_plugin.settings import Settings
    from sodos_plugin.standings import Standings


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sodos_plugin' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
