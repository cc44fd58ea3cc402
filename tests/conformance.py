"""Comparing the values a real file prints with the values ``sodos standings`` computes,
player by player, for the conformance tests."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from conftest import builtin_host

from sodos_plugin.cli import main
from sodos_plugin.readers import h9

#: The folder of the Go conformance files under the shared data.
GO = ("conformance", "go")


def standings_json(path: Path, capsys, *extra: str) -> dict:
    """``sodos standings PATH --format json`` through the CLI entry point, after the
    file's last round as OpenGotha's export is (the CLI's own default is the last round
    with a result, e.g. round 1 of TournoiChinois's 5)."""
    if "--round" not in extra:
        rounds = builtin_host().read([path]).tournament.rounds
        extra = ("--round", str(rounds), *extra)
    capsys.readouterr()
    status = main(["standings", str(path), "--format", "json", "--no-entry-points", *extra])
    out = capsys.readouterr()
    assert status == 0, out.err
    return json.loads(out.out)


def printed_places(rows: list[h9.H9Row]) -> list[int]:
    places, last = [], 0
    for position, row in enumerate(rows, start=1):
        last = row.place if row.place is not None else (last or position)
        places.append(last)
    return places


def compare(printed: h9.H9File, computed: dict) -> tuple[dict[str, list[int]], list[str]]:
    """Per column ``[matched, total]`` and the mismatch messages."""
    rows = computed["standings"]
    form = "M" if computed["tournament"]["system"] == "mcmahon" else "W"
    by_name: dict[str, list[dict]] = {}
    for row in rows:
        by_name.setdefault(row["player"]["name"], []).append(row)
    counts: dict[str, list[int]] = {}
    problems: list[str] = []
    places = printed_places(printed.rows)
    for position, prow in enumerate(printed.rows):
        if "?" in prow.name:
            crow = rows[position]
        else:
            found = by_name.get(prow.name, [])
            if len(found) != 1:
                problems.append(f"{prow.name}: {len(found)} computed rows with this name")
                continue
            crow = found[0]
        values = crow["values"]
        for column, value in prow.printed.items():
            key = h9.COLUMNS[column].format(form)  # the criterion the column names
            if key not in values:
                problems.append(f"{prow.name}: {column} not computed (have {sorted(values)})")
                continue
            tally = counts.setdefault(column, [0, 0])
            tally[1] += 1
            got = Fraction(values[key]).limit_denominator(64)
            if got == value:
                tally[0] += 1
            else:
                problems.append(f"{prow.name}: {column} printed {value}, computed {got}")
        tally = counts.setdefault("place", [0, 0])
        tally[1] += 1
        group = sum(1 for row in rows if row["place"] == crow["place"])
        if crow["place"] <= places[position] < crow["place"] + group:
            tally[0] += 1
        else:
            problems.append(
                f"{prow.name}: place printed {places[position]}, computed {crow['place']}"
            )
    return counts, problems
