"""The SGF reader's names (the reader's, its plugin's) and which file names are SGF
records and which are archives of them (by suffix).

Its own module so that :func:`~sodos_plugin.readers.sgf.claims` can decide without
importing the walk (archives, processes) or the parsers.
"""

from __future__ import annotations

NAME = "sgf"
PLUGIN = "builtin.sgf"


def is_record(name: str) -> bool:
    return name.endswith(".sgf") or name.lower().endswith(".sgf")


def is_archive(name: str) -> bool:
    low = name.lower()
    return low.endswith((".zip", ".tar.gz", ".tgz"))
