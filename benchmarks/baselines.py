"""The baseline programs of the whole-process benchmarks, each run as its own process.

Each does the least a program could do for the same input with the library it
stands for, so a ratio against it is conservative:

``tiebreak-core FILE.h9``
    reads the h9 file's round tokens (one ``split`` per row), builds tiebreak-core's
    input, ranks with Buchholz and Sonneborn-Berger (``rank_standings_strict``, FIDE
    2026 ruleset) and prints the standings as JSON (place, name, points, BH, SB).
``sgfmill FOLDER``
    parses every file under the folder with ``sgf.Sgf_game.from_bytes`` (nothing else).
``etree FILE.xml``
    parses the file with the standard library's ``xml.etree.ElementTree.parse``.

``python3 -c pass`` (the start-up floor) needs no script.
"""

from __future__ import annotations

import os
import sys


def tiebreak_core(path: str) -> None:
    import json
    import re

    from tiebreak_core import GameRecord, PlayerTiebreakData, rank_standings_strict

    token = re.compile(r"^(\d+)([-+=])(?:/([wb]))?")
    names, games = [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(";") or not line.strip():
                continue
            words = line.split()
            rounds = [m for m in map(token.match, words[7:]) if m]
            names.append(" ".join(words[1:3]))
            games.append(rounds)
    players = {}
    for i, rounds in enumerate(games, 1):
        records, points = [], 0.0
        for r, match in enumerate(rounds, 1):
            score = {"+": 1.0, "-": 0.0, "=": 0.5}[match.group(2)]
            colour = "black" if match.group(3) == "b" else "white"
            records.append(GameRecord(int(match.group(1)), 1500, score, colour, r, kind="played"))
            points += score
        players[i] = PlayerTiebreakData(i, 1500, points, records)
    ranked = rank_standings_strict(
        players,
        ["buchholz", "sonneborn_berger"],
        total_rounds=len(games[0]),
        ruleset="fide-2026",
    )
    rows = [
        {
            "place": place,
            "name": names[p.player_id - 1],
            "points": players[p.player_id].points,
            "buchholz": p.values["buchholz"],
            "sonneborn_berger": p.values["sonneborn_berger"],
        }
        for place, p in enumerate(ranked.players, 1)
    ]
    json.dump({"standings": rows}, sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")


def sgfmill(folder: str) -> None:
    from sgfmill import sgf

    for directory, subdirs, files in os.walk(folder):
        subdirs.sort()
        for name in sorted(files):
            with open(os.path.join(directory, name), "rb") as handle:
                sgf.Sgf_game.from_bytes(handle.read())


def etree(path: str) -> None:
    import xml.etree.ElementTree as ET

    ET.parse(path)


def main(argv: list[str]) -> int:
    programs = {"tiebreak-core": tiebreak_core, "sgfmill": sgfmill, "etree": etree}
    if len(argv) != 2 or argv[0] not in programs:
        sys.stderr.write(__doc__)
        return 2
    programs[argv[0]](argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
