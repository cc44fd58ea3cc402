"""JSON output: the shape other tools rely on (numbers as JSON numbers, 2.5 not "2½")."""

from __future__ import annotations

import json
from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.standings import Standings


def write(standings: Standings, stream: TextIO) -> None:
    json.dump(standings.as_dict(), stream, ensure_ascii=False, indent=1)
    stream.write("\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("json", "JSON standings for programs", write)]
