"""The one wrapper through which every plugin hook runs, and its one fault rule.

:func:`call` runs a plugin's function (a criterion's ``compute``, a reader's ``claims``
or ``read``, a writer's ``write``, a rating system's ``rate``, the registration hooks):

* ``KeyboardInterrupt`` passes through: the person at the keyboard stops the run;
* a :class:`~sodos_plugin.errors.SodosError` passes through as it is: the plugin
  tells the user about their input or config (a reader naming the bad line);
* any other ``BaseException`` — ``SystemExit`` and ``GeneratorExit`` too — becomes a
  :class:`~sodos_plugin.errors.PluginError` naming the plugin and the hook, with the
  original as its cause. The host never goes down for a plugin (docs/plugins.md);
* what the hook returns is checked here too (``expect``: a type, or a function saying
  what is wrong): a result of the wrong type or shape is the plugin's fault, named, not
  a ``TypeError`` later in a sort or a writer blamed on another part.

Registration hooks add one rule on top (:mod:`sodos_plugin.plugins.manager`): a plugin
whose hook fails there is unregistered, and nothing it provides is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sodos_plugin.errors import PluginError, SodosError

T = TypeVar("T")


#: What a hook's result is checked against: a type (or tuple of types) it must be, or a
#: function that says what is wrong with it (``None``: nothing).
Expect = type | tuple[type, ...] | Callable[[Any], str | None]


def call(
    plugin: str,
    hook: str,
    function: Callable[..., T],
    /,
    *args: Any,
    expect: Expect | None = None,
    **kwargs: Any,
) -> T:
    """``function(*args, **kwargs)``, under the fault rule of this module, its result
    checked by ``expect`` (:func:`verify`)."""
    try:
        value = function(*args, **kwargs)
    except (KeyboardInterrupt, SodosError):
        raise
    except BaseException as error:
        raise PluginError(plugin, hook, describe(error)) from error
    if expect is not None:
        verify(plugin, hook, value, expect)
    return value


def verify(plugin: str, hook: str, value: Any, expect: Expect) -> None:
    """The one result check of every hook: ``value`` of the type ``expect`` names, or
    nothing wrong with it by the function ``expect``; else a :class:`PluginError`
    naming the plugin, the hook and what is wrong (a fault of the check itself is the
    plugin's too: it is about the plugin's value)."""
    if isinstance(expect, (type, tuple)):
        if not isinstance(value, expect):
            names = " or ".join(
                t.__name__ for t in (expect if isinstance(expect, tuple) else (expect,))
            )
            raise PluginError(
                plugin, hook, f"did not return a {names} (got {type(value).__name__})"
            )
        return
    try:
        why = expect(value)
    except (KeyboardInterrupt, SodosError):
        raise
    except Exception as error:
        why = f"its result cannot be read: {describe(error)}"
    if why is not None:
        raise PluginError(plugin, hook, why)


def describe(error: BaseException | str) -> str:
    """A fault as messages name it: ``ValueError: bad value``."""
    return error if isinstance(error, str) else f"{type(error).__name__}: {error}"


def check(plugin: str, hook: str, value: Any, expected: type, what: str = "") -> None:
    """A plugin's return value of the wrong type is its fault, named here (not later, in
    a writer or a sort, blamed on another plugin)."""
    if not isinstance(value, expected):
        raise PluginError(plugin, hook, what or f"did not return a {expected.__name__}")
