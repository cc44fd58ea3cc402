"""docs/criteria.md's worked examples of OpenGotha's other criteria (docs/rules.md §5) are
the values the engine computes (the tables are parsed and every cell recomputed)."""

from __future__ import annotations

import pytest
from builders import B, J, W, tournament
from conftest import ROOT

from sodos_plugin import Result
from sodos_plugin.engine.numbers import format_value

DOCS = ROOT / "docs"


def cup():
    return tournament(
        [(name, "1d") for name in ("Ann", "Bob", "Cid", "Dan", "Eve")],
        3,
        [
            (1, "Ann", "Bob", B),
            (1, "Cid", "Dan", J),
            (2, "Cid", "Ann", B, 0, True),
            (2, "Bob", "Eve", J),
            (3, "Ann", "Dan", B),
            (3, "Bob", "Cid", Result.UNKNOWN),
        ],
        byes=[(1, "Eve")],
        absences=[(2, "Dan"), (3, "Eve")],
    )


def strasbourg():
    return tournament(
        [("Ann", "1d"), ("Bob", "1d"), ("Cid", "1d"), ("Dan", "1d"), ("Eve", "1k"), ("Fay", "2k")],
        3,
        [
            (1, "Ann", "Bob", B),
            (1, "Cid", "Dan", B),
            (1, "Eve", "Fay", J),
            (2, "Ann", "Cid", B),
            (2, "Bob", "Dan", B),
            (2, "Fay", "Eve", W, 1),
            (3, "Cid", "Ann", B),
            (3, "Bob", "Dan", B, 0, True),
        ],
        byes=[(3, "Eve")],
        absences=[(3, "Fay")],
    )


@pytest.mark.parametrize(
    ("marker", "build", "config"),
    [("cup", cup, {}), ("strasbourg", strasbourg, {"mcmahon": {"bar": "1d"}})],
)
def test_worked_examples_are_computed(make_host, marker, build, config):
    text = (DOCS / "criteria.md").read_text(encoding="utf-8")
    table = text.split(f"<!-- example: {marker} -->\n", 1)[1].split("\n\n", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()]
    header, body = rows[0], rows[2:]
    t = build()
    host = make_host(config)
    standings = host.standings(t, system="mcmahon", criteria=header[1:])
    names = [p.name for p in t.players]
    assert [row[0] for row in body] == names
    for row in body:
        index = names.index(row[0])
        for name, shown in zip(header[1:], row[1:]):
            assert shown == format_value(standings.value(name, index)), (row[0], name)
