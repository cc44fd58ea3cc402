"""A plugin whose writers hook returns the wrong type (tests only)."""

from sodos_hookspecs import hookimpl


@hookimpl
def sodos_writers():
    return "not a list"
