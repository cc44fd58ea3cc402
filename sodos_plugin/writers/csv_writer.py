"""CSV output: one row per player, values as exact decimals (``2.5``)."""

from __future__ import annotations

import csv
from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.standings import Standings, rank_text
from sodos_plugin.writers.numbers import format_value


def write(standings: Standings, stream: TextIO) -> None:
    out = csv.writer(stream, lineterminator="\n")
    # a criterion a third-party plugin computed says so in its heading: "SODOS (sodos-foo 1.2)"
    headings = [standings.heading(c) for c in standings.criteria]
    out.writerow(["place", "tied", "name", "rank", "country", "club", *headings])
    for row in standings.rows():
        out.writerow(
            [
                row.place,
                "yes" if row.tied else "",
                row.player.name,
                rank_text(row.player.rank),
                row.player.country,
                row.player.club,
                *(format_value(row.values[c], half=".5") for c in standings.criteria),
            ]
        )


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("csv", "comma-separated values for spreadsheets", write)]
