"""The terminal table: standings with each round's result, as OpenGotha's standings show.

Contract:

* a title line: ``<event> — standings after round R of N (<system>)``, and when R was
  chosen by default because later rounds have no result yet, it says so;
* columns ``Pl Name Rank Co Club``, one column per round 1..R, then the criteria; a
  column with nothing in it (no club, no country known) is left out; when places are
  shared a ``Num`` column numbers the lines;
* a round cell is ``<line of the opponent><result>/<colour><handicap>`` as OpenGotha
  writes it: ``12+/w3`` won against the player on line 12 with White at handicap 3,
  ``-`` a loss, ``=`` a jigo, ``?`` no result yet, ``!`` after the result a game decided
  by default; ``bye``, ``abs`` (announced absent) or ``–`` (not paired) without a game.
  A game whose colours the source does not give (h9 ``12+``) shows no colour: ``12+``,
  or ``12+/?3`` with a handicap (docs/rules.md §12).
  The line of a player is his place when no place is shared;
* names are aligned by display width (East Asian wide characters take two columns) and
  cut at :data:`NAME_WIDTH` columns with ``…``, clubs at :data:`CLUB_WIDTH` (a note
  says so); text from the file is shown with controls escaped (``textsafe.printable``);
* values print halves and quarters as ``½ ¼ ¾``; warnings end the table.
"""

from __future__ import annotations

from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.engine.model import SYMBOLS
from sodos_plugin.engine.numbers import value_texts
from sodos_plugin.engine.standings import Standings, rank_text
from sodos_plugin.util.textsafe import display_width, fit, printable

NAME_WIDTH = 40  # as the h9 writer pads names (MAX_PAD)
CLUB_WIDTH = 12


def round_cells(standings: Standings, line_of: dict[int, int]) -> list[list[str]]:
    """Per player index: one cell per round 1..R (the game listed last counts)."""
    t = standings.tournament
    rounds = standings.round
    cells = [["–"] * rounds for _ in range(len(t.players))]
    for r, p in t.absences:
        if r <= rounds:
            cells[p][r - 1] = "abs"
    for game in t.games:
        r = game.round
        if r > rounds:
            continue
        as_black, as_white = SYMBOLS[game.result]
        forfeit = "!" if game.by_default else ""
        hcp = str(game.handicap) if game.handicap else ""
        black, white = game.black, game.white
        if game.colours_known:
            b, w = f"{forfeit}/b{hcp}", f"{forfeit}/w{hcp}"
        else:  # no colour shown: none was given
            b = w = f"{forfeit}/?{hcp}" if hcp else forfeit
        cells[black][r - 1] = f"{line_of[white]}{as_black}{b}"
        cells[white][r - 1] = f"{line_of[black]}{as_white}{w}"
    for r, p in t.byes:  # the bye wins over a game in the same round (docs/rules.md §6)
        if r <= rounds:
            cells[p][r - 1] = "bye"
    return cells


def aligned(header: str, cells: list[str], right: bool) -> list[str]:
    """The header and cells padded to the column's display width (:func:`pad`); a
    column of printable ASCII, the usual one, is measured and padded by ``len``."""
    column = [header, *cells]
    joined = "".join(column)
    if joined.isascii() and joined.isprintable():
        width = max(map(len, column))
        return [v.rjust(width) for v in column] if right else [v.ljust(width) for v in column]
    widths = [display_width(v) for v in column]
    width = max(widths)
    if right:
        return [" " * (width - w) + v for v, w in zip(column, widths)]
    return [v + " " * (width - w) for v, w in zip(column, widths)]


def write(standings: Standings, stream: TextIO) -> None:
    players = standings.tournament.players
    order = standings.order
    line_of = {index: number for number, index in enumerate(order, start=1)}
    shared = any(standings.tied[: len(order)])
    cells = round_cells(standings, line_of)
    cut: list[str] = []

    def shown(text: str, width: int, what: str) -> str:
        text = " ".join(printable(text).split())  # escaped first: a line break shows as \n
        if display_width(text) > width:
            cut.append(what)
            return fit(text, width)
        return text

    ordered = [players[i] for i in order]
    columns: list[tuple[str, list[str], bool]] = []  # header, cells, right-aligned
    if shared:
        columns.append(("Num", [str(n) for n in range(1, len(order) + 1)], True))
    places = zip(standings.places[: len(order)], standings.tied[: len(order)])
    columns += [
        ("Pl", [f"{place}{'=' if tied else ''}" for place, tied in places], True),
        ("Name", [shown(p.name, NAME_WIDTH, "names") for p in ordered], False),
        ("Rank", [rank_text(p.rank) for p in ordered], False),
        ("Co", [printable(p.country.strip()) for p in ordered], False),
        ("Club", [shown(p.club, CLUB_WIDTH, "clubs") for p in ordered], False),
    ]
    by_line = [cells[i] for i in order]
    columns += [
        (f"R{n}", [line[n - 1] for line in by_line], False) for n in range(1, standings.round + 1)
    ]
    for c in standings.criteria:
        texts = value_texts(standings, c)
        columns.append((printable(c), [texts[i] for i in order], True))
    # a column with nothing in it says nothing (no club, no country known)
    columns = [c for c in columns if c[0] in ("Pl", "Name") or any(c[1]) or not order]
    padded = [aligned(header, cs, right) for header, cs, right in columns]
    lines = [title(standings)]
    lines += ["  ".join(parts).rstrip() for parts in zip(*padded)]
    if cut:
        kinds = " and ".join(dict.fromkeys(cut))
        lines.append(
            f"note: {kinds} longer than the column are cut with … "
            f"(names at {NAME_WIDTH} columns, clubs at {CLUB_WIDTH}); "
            "--format csv or json keeps them whole"
        )
    lines += [f"warning: {printable(warning)}" for warning in standings.warnings]
    stream.write("\n".join(lines) + "\n")


def title(standings: Standings) -> str:
    t = standings.tournament
    text = (
        f"{printable(t.name) or 'Tournament'} — standings after round {standings.round}"
        f" of {t.rounds} ({standings.settings.system})"
    )
    if standings.round_note:
        text += f"; {standings.round_note}"
    return text


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("table", "aligned text table with each round's results", write)]
