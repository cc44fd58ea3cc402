"""CSV output: one row per player, values as exact decimals (``2.5``).

Columns: ``place, tied, name, rank, country, club``, then one column per identifier
scheme any player has (``egd_pin``, ``ffg_licence``, ``aga_id``, another scheme by its
name; empty when a player has none: see ``Player.ids``), then the criteria.

Text cells (names, rank, country, club, criterion names) are written safe:

* control and format characters are escaped visibly (``\\x1b``, ``\\n``: see
  :func:`sodos_plugin.util.textsafe.printable`), so every player is one line;
* a cell a spreadsheet would run as a formula — one that starts with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return — gets a leading apostrophe (``'=HYPERLINK(...)``
  is shown as text by Excel, LibreOffice and Google Sheets), the neutralisation OWASP
  recommends against CSV injection.

Numbers are never touched: the values sodos writes (``-1``, ``2.5``) stay numbers.
Programs that read the CSV and want text cells exactly as in the input set
``escape_formulas = false`` in ``[plugin.builtin.csv_writer]``
(``-o plugin.builtin.csv_writer.escape_formulas=false``); control characters are
escaped either way.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any, TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.engine.model import ID_SCHEMES, id_schemes
from sodos_plugin.engine.numbers import value_texts
from sodos_plugin.engine.standings import Standings, rank_text
from sodos_plugin.errors import ConfigError
from sodos_plugin.util.textsafe import printable

SECTION = "builtin.csv_writer"
#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def options(section: Mapping[str, Any]) -> bool:
    """``escape_formulas`` from the writer's config section (default true)."""
    unknown = sorted(set(section) - {"escape_formulas"})
    if unknown:
        raise ConfigError(
            f"unknown key {unknown[0]!r} (known: escape_formulas)", source=f"[plugin.{SECTION}]"
        )
    value = section.get("escape_formulas", True)
    if not isinstance(value, bool):
        raise ConfigError(
            f"escape_formulas: expected true or false, got {value!r}",
            source=f"[plugin.{SECTION}]",
        )
    return value


def text_cell(text: str, escape_formulas: bool = True) -> str:
    """A text cell: controls escaped, a formula start neutralised with ``'``."""
    text = printable(text)
    if escape_formulas and text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def id_heading(scheme: str) -> str:
    """``egd`` → ``egd_pin`` (:data:`~sodos_plugin.engine.model.ID_SCHEMES`' label as one
    lower-case word); another scheme keeps its name."""
    label = ID_SCHEMES.get(scheme)
    return "_".join(label.lower().split()) if label else scheme


def write(standings: Standings, stream: TextIO) -> None:
    guard = options(standings.settings.plugin_sections.get(SECTION, {}))
    out = csv.writer(stream, lineterminator="\n")
    players = standings.tournament.players
    schemes = id_schemes(players)
    # a criterion a third-party plugin computed says so in its heading: "SODOS (sodos-foo 1.2)"
    headings = [text_cell(standings.heading(c), guard) for c in standings.criteria]
    ids = [text_cell(id_heading(s), guard) for s in schemes]
    out.writerow(["place", "tied", "name", "rank", "country", "club", *ids, *headings])
    order = standings.order
    values = [value_texts(standings, c, half=".5") for c in standings.criteria]
    out.writerows(
        [
            place,
            "yes" if tied else "",
            text_cell(player.name, guard),
            text_cell(rank_text(player.rank), guard),
            text_cell(player.country, guard),
            text_cell(player.club, guard),
            *[text_cell(player.ids.get(s, ""), guard) for s in schemes],
            *[texts[index] for texts in values],
        ]
        for place, tied, index, player in zip(
            standings.places, standings.tied, order, [players[i] for i in order]
        )
    )


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("csv", "comma-separated values for spreadsheets", write)]
