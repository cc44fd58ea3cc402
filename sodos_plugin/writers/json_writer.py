"""JSON output: the standings document other tools rely on (``sodos schema standings``:
numbers as JSON numbers, 2.5 not "2½"), encoded by :mod:`sodos_plugin.schemas.codec`.

Strings keep every character of the input, and are safe to print on a terminal:
besides what JSON itself escapes (``"``, ``\\``, C0 controls), every character that
:func:`sodos_plugin.util.textsafe.printable` escapes for display (DEL, C1 controls such as
CSI, bidi overrides, line separators, lone surrogates) is written as a JSON escape
(``\\u009b``): the same string for a JSON reader, no terminal sequence for a viewer.
"""

from __future__ import annotations

from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.engine.standings import Standings
from sodos_plugin.schemas import codec


def write(standings: Standings, stream: TextIO) -> None:
    stream.write(codec.encode_text(standings.document()))
    stream.write("\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("json", "JSON standings for programs", write)]
