"""A game whose colours the source does not give (docs/rules.md §12): criteria see no
colour (``Seat.colour`` is ``None``), and every value is the one of the same game with
colours (without a handicap, which such a game cannot have in h9, colour changes no
value)."""

from __future__ import annotations

import dataclasses

import msgspec
from builders import B, J, W, tournament
from conftest import builtin_host

from sodos_plugin.engine.context import Context

HOST = builtin_host()
CRITERIA = ["MMS", "SOSM", "SOSOSM", "SODOSM", "SOSM-1", "CUSSM", "EXT", "EXR", "DC", "SDC"]


def with_colours(known: bool):
    t = tournament(
        [("A", "2d"), ("B", "1d"), ("C", "1k"), ("D", "2k")],
        3,
        [(1, "C", "A", W), (1, "D", "B", B), (2, "A", "B", J), (2, "C", "D", B, 0, True),
         (3, "B", "C", W), (3, "D", "A", B)],
    )  # fmt: skip
    games = tuple(msgspec.structs.replace(g, colours_known=known) for g in t.games)
    return dataclasses.replace(t, games=games)


def test_seats_have_no_colour_when_the_source_gives_none():
    for known in (True, False):
        t = with_colours(known)
        ctx = Context(t, HOST.settings_for(t), 3)
        colours = {seat.colour for r in (1, 2, 3) for seat in ctx.seats(r)}
        assert colours == ({"B", "W"} if known else {None})


def test_values_do_not_depend_on_a_colour_without_handicap():
    known, unknown = (
        HOST.standings(with_colours(k), system="mcmahon", criteria=CRITERIA) for k in (True, False)
    )
    assert [[known.value(c, p) for p in range(4)] for c in CRITERIA] == [
        [unknown.value(c, p) for p in range(4)] for c in CRITERIA
    ]
