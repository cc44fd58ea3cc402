"""JSON output: the shape other tools rely on (numbers as JSON numbers, 2.5 not "2½").

Strings keep every character of the input, and are safe to print on a terminal:
besides what JSON itself escapes (``"``, ``\\``, C0 controls), every character that
:func:`sodos_plugin.textsafe.printable` escapes for display (DEL, C1 controls such as
CSI, bidi overrides, line separators, lone surrogates) is written as a JSON escape
(``\\u009b``, :func:`sodos_plugin.textsafe.json_text`): the same string for a JSON
reader, no terminal sequence for a viewer.
"""

from __future__ import annotations

import json
from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.standings import Standings
from sodos_plugin.textsafe import json_text


def write(standings: Standings, stream: TextIO) -> None:
    text = json.dumps(standings.as_dict(), ensure_ascii=False, indent=1)
    stream.write(json_text(text))
    stream.write("\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("json", "JSON standings for programs", write)]
