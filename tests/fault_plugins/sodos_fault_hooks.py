"""A plugin whose criteria hook itself raises (tests only)."""

from sodos_hookspecs import hookimpl


@hookimpl
def sodos_criteria():
    raise KeyError("criteria hook exploded")
