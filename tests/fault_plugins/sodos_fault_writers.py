"""A writer that raises while writing (tests only)."""

from sodos_hookspecs import Writer, hookimpl


def write(standings, stream):
    stream.write("partial")
    raise MemoryError("writer exploded")


@hookimpl
def sodos_writers():
    return [Writer("boom", "raises", write)]
