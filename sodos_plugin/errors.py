"""Errors for people: each names the file (and line or property) and what was expected."""

from __future__ import annotations


class SodosError(Exception):
    """A problem the user can fix: bad input, bad config, a failing plugin.

    The CLI prints ``str(error)`` on one line and exits with status 2; ``--debug``
    shows the traceback.
    """

    def __init__(self, message: str, *, source: str | None = None, where: str | None = None):
        self.message = message
        self.source = source
        self.where = where
        prefix = ""
        if source:
            prefix = f"{source}:{where}: " if where else f"{source}: "
        super().__init__(prefix + message)


class ConfigError(SodosError):
    """An unknown config key, a wrong type or an impossible combination."""


class InputError(SodosError):
    """A tournament file or record that cannot be used as it is."""


class LimitError(InputError):
    """An input inside its byte limits whose work would pass a limit of the config:
    :attr:`limit` is the key that bounds it (``limits.max_player_rounds``), named in the
    message, so that the user knows what to raise."""

    def __init__(self, message: str, *, limit: str, source: str | None = None):
        self.limit = limit
        super().__init__(f"{message} (config {limit})", source=source, where=None)


class OutputError(SodosError):
    """The output stream failed (a full disk, a closed standard output, an encoding):
    not the writer's fault. :attr:`reason` is the system's reason (``strerror``)."""

    def __init__(self, message: str, *, source: str | None = None, reason: str = ""):
        self.reason = reason or message
        super().__init__(message, source=source)


class PluginError(SodosError):
    """A plugin failed: names the plugin and the hook."""

    def __init__(self, plugin: str, hook: str, message: str):
        self.plugin = plugin
        self.hook = hook
        super().__init__(f"plugin {plugin!r} failed in {hook}: {message}")


class StrictError(InputError):
    """Warnings under ``strict`` (``--strict``, config ``strict = true``): each an error.

    :attr:`warnings` holds every warning; the message names the count and lists them.
    """

    def __init__(self, warnings: list[str]):
        self.warnings = list(warnings)
        listed = "".join(f"\n  {warning}" for warning in self.warnings)
        super().__init__(f"{len(self.warnings)} warning(s), errors under --strict:{listed}")


class ModelError(InputError, ValueError):
    """A tournament built with data of the wrong shape, naming the field
    (``players[2].rank: expected an integer rank ...``). Raised when the
    :class:`~sodos_plugin.engine.model.Tournament` is built; a ``ValueError`` too, so readers that
    catch the model's ``ValueError`` to name their file keep working."""
