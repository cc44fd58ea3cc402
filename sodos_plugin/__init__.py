"""sodos-plugin: Go tournament standings (SOS, SOSOS, SODOS, SODOMS, ...) as pluggy plugins.

The host API is :class:`~sodos_plugin.host.Host`; the plugin contract is the
``sodos_hookspecs`` package; the model is :mod:`sodos_plugin.model`.
"""

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

__version__ = "0.1.0"

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
