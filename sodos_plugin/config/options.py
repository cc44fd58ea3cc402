"""Checks of plugin options (``[plugin.<name>]`` sections), written once.

A plugin's section reaches its reader as a plain mapping; a bad value there is the
user's config, so it is a :class:`~sodos_plugin.errors.ConfigError` naming the section
and the key, whichever reader finds it.
"""

from __future__ import annotations

from typing import Any

from sodos_plugin.errors import ConfigError

__all__ = ["positive_integer", "shown"]


def shown(value: Any) -> str:
    """``repr`` for messages: short, and safe for integers too long to print."""
    try:
        text = repr(value)
    except ValueError:  # int longer than sys.get_int_max_str_digits()
        return f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= 60 else text[:57] + "..."


def positive_integer(value: Any, key: str, source: str) -> int:
    """``value`` if it is an integer above 0 (``True`` is not one), else a ConfigError:
    ``[plugin.builtin.h9]:max_bytes: expected a positive integer, got 0``.

    :param key: the option's name in its section (``max_bytes``), named in the message.
    :param source: the section (``[plugin.builtin.h9]``), where the value came from.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(
            f"expected a positive integer, got {shown(value)}", source=source, where=key
        )
    return value
