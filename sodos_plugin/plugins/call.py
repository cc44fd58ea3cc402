"""The one wrapper through which every plugin hook runs, and its one fault rule.

:func:`call` runs a plugin's function (a criterion's ``compute``, a reader's ``claims``
or ``read``, a writer's ``write``, a rating system's ``rate``, the registration hooks):

* ``KeyboardInterrupt`` passes through: the person at the keyboard stops the run;
* a :class:`~sodos_plugin.errors.SodosError` passes through as it is: the plugin
  tells the user about their input or config (a reader naming the bad line);
* any other ``BaseException`` — ``SystemExit`` and ``GeneratorExit`` too — becomes a
  :class:`~sodos_plugin.errors.PluginError` naming the plugin and the hook, with the
  original as its cause. The host never goes down for a plugin (docs/plugins.md).

Registration hooks add one rule on top (:mod:`sodos_plugin.plugins.manager`): a plugin
whose hook fails there is unregistered, and nothing it provides is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sodos_plugin.errors import PluginError, SodosError

T = TypeVar("T")


def call(plugin: str, hook: str, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)``, under the fault rule of this module."""
    try:
        return function(*args, **kwargs)
    except (KeyboardInterrupt, SodosError):
        raise
    except BaseException as error:
        raise PluginError(plugin, hook, describe(error)) from error


def describe(error: BaseException | str) -> str:
    """A fault as messages name it: ``ValueError: bad value``."""
    return error if isinstance(error, str) else f"{type(error).__name__}: {error}"


def check(plugin: str, hook: str, value: Any, expected: type, what: str = "") -> None:
    """A plugin's return value of the wrong type is its fault, named here (not later, in
    a writer or a sort, blamed on another plugin)."""
    if not isinstance(value, expected):
        raise PluginError(plugin, hook, what or f"did not return a {expected.__name__}")
