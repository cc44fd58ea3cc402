"""The terminal table: aligned columns, shared places, halves as ``½``."""

from __future__ import annotations

from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.standings import Standings, rank_text
from sodos_plugin.textsafe import printable
from sodos_plugin.writers.numbers import format_value


def write(standings: Standings, stream: TextIO) -> None:
    header = ["Pl", "Name", "Rank", "Co", "Club", *map(printable, standings.criteria)]
    lines = []
    for row in standings.rows():
        place = f"{row.place}" + ("=" if row.tied else "")
        lines.append(
            [
                place,
                printable(row.player.name),  # textsafe: no terminal sequence, no new line
                rank_text(row.player.rank),
                printable(row.player.country),
                printable(row.player.club),
                *(format_value(row.values[c]) for c in standings.criteria),
            ]
        )
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(header)]
    numeric = {0} | set(range(5, len(header)))

    def render(cells: list[str]) -> str:
        out = [
            cell.rjust(width) if i in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(cells, widths))
        ]
        return "  ".join(out).rstrip()

    t = standings.tournament
    stream.write(
        f"{printable(t.name) or 'Tournament'} — standings after round {standings.round}"
        f" ({standings.settings.system})\n"
    )
    stream.write(render(header) + "\n")
    for line in lines:
        stream.write(render(line) + "\n")
    for warning in standings.warnings:
        stream.write(f"warning: {printable(warning)}\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("table", "aligned text table for the terminal", write)]
