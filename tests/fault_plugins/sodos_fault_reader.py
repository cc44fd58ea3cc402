"""A well-behaved test reader for ``*.tiny.json`` files, so CLI fault tests need no real format.

The file holds ``{"rounds": R, "players": [names], "games": [[round, black, white, "B+"|"W+"]]}``.
"""

from __future__ import annotations

import json

from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin.engine.model import Game, Player, Result, Tournament


def claims(path, head) -> bool:
    return path.name.endswith(".tiny.json")


def read(paths, options) -> ReadResult:
    data = json.loads(paths[0].read_text("utf-8"))
    names = data["players"]
    games = tuple(Game(r, b, w, Result(res)) for r, b, w, res in data["games"])
    tournament = Tournament(
        "tiny", data["rounds"], tuple(Player(n) for n in names), games, source=str(paths[0])
    )
    return ReadResult(tournament, [FileReport(str(paths[0]), "ingested")])


@hookimpl
def sodos_readers():
    return [Reader("tiny-json", "test format", claims, read)]
