"""sodos-plugin: Go tournament standings (SOS, SOSOS, SODOS, SODOMS, ...) and ratings
(EGF GoR, Glicko-2, WHR) as pluggy plugins.

The public front: what :data:`__all__` lists is what hosts and plugin authors use, and
docs/hosts.md and docs/plugins.md name nothing else of the package; the modules behind it
are the package's own and may move. A host needs :class:`Host`, the model
(:class:`Tournament`, :class:`Player`, :class:`Game`, :class:`Result`,
:class:`Participation`), what it gets back (:class:`Standings`, :class:`Settings`), one
player's explanation (:func:`explain_player`, :func:`explanation_as_dict`) and the errors;
a plugin author needs the plugin contract (the ``sodos_hookspecs`` package) and, from
here, what a criterion, reader or writer uses: :class:`Context`, :func:`parse_rank` /
:func:`format_rank` (Go ranks as integers, docs/rules.md §1), :func:`format_value` (an
exact value as text) and the errors to raise. The map of the package is
docs/architecture.md.

The names are imported on first use (:func:`sodos_plugin.util.lazy.exports`), so
``sodos --version`` and a program that needs one of them do not pay for the rest.
"""

from __future__ import annotations

from sodos_plugin.util.lazy import exports

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up
__version__ = "0.1.0"

#: public name -> the module that defines it
_EXPORTS = {
    "ConfigError": "sodos_plugin.errors",
    "InputError": "sodos_plugin.errors",
    "ModelError": "sodos_plugin.errors",
    "OutputError": "sodos_plugin.errors",
    "PluginError": "sodos_plugin.errors",
    "SodosError": "sodos_plugin.errors",
    "StrictError": "sodos_plugin.errors",
    "Host": "sodos_plugin.host",
    "Context": "sodos_plugin.engine.context",
    "Game": "sodos_plugin.engine.model",
    "Participation": "sodos_plugin.engine.model",
    "Player": "sodos_plugin.engine.model",
    "Result": "sodos_plugin.engine.model",
    "Tournament": "sodos_plugin.engine.model",
    "Settings": "sodos_plugin.config.settings",
    "Standings": "sodos_plugin.engine.standings",
    "format_rank": "sodos_plugin.engine.ranks",
    "parse_rank": "sodos_plugin.engine.ranks",
    "format_value": "sodos_plugin.engine.numbers",
    "explain_player": "sodos_plugin.engine.explain",
    "explanation_as_dict": "sodos_plugin.engine.explain:as_dict",
}

__all__ = [
    "ConfigError",
    "Context",
    "Game",
    "Host",
    "InputError",
    "ModelError",
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
    "explain_player",
    "explanation_as_dict",
    "format_rank",
    "format_value",
    "parse_rank",
]

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings
    from sodos_plugin.engine.context import Context
    from sodos_plugin.engine.explain import as_dict as explanation_as_dict
    from sodos_plugin.engine.explain import explain_player
    from sodos_plugin.engine.model import Game, Participation, Player, Result, Tournament
    from sodos_plugin.engine.numbers import format_value
    from sodos_plugin.engine.ranks import format_rank, parse_rank
    from sodos_plugin.engine.standings import Standings
    from sodos_plugin.errors import (
        ConfigError,
        InputError,
        ModelError,
        OutputError,
        PluginError,
        SodosError,
        StrictError,
    )
    from sodos_plugin.host import Host

__getattr__ = exports(globals(), _EXPORTS)


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
