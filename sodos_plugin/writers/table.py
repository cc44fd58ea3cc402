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
  The line of a player is his place when no place is shared;
* names are aligned by display width (East Asian wide characters take two columns) and
  cut at :data:`NAME_WIDTH` columns with ``…``, clubs at :data:`CLUB_WIDTH` (a note
  says so); text from the file is shown with controls escaped (``textsafe.printable``);
* values print halves and quarters as ``½ ¼ ¾``; warnings end the table.
"""

from __future__ import annotations

from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.model import Result
from sodos_plugin.standings import Standings, rank_text
from sodos_plugin.textsafe import display_width, fit, pad, printable
from sodos_plugin.writers.numbers import format_value

NAME_WIDTH = 40  # as the h9 writer pads names (MAX_PAD)
CLUB_WIDTH = 12

#: A result from one player's side: (as Black, as White).
SYMBOL: dict[Result, tuple[str, str]] = {
    Result.BLACK_WINS: ("+", "-"),
    Result.WHITE_WINS: ("-", "+"),
    Result.JIGO: ("=", "="),
    Result.BOTH_WIN: ("+", "+"),
    Result.BOTH_LOSE: ("-", "-"),
    Result.UNKNOWN: ("?", "?"),
}


def round_cells(standings: Standings, line_of: dict[int, int]) -> dict[int, list[str]]:
    """Per player index: one cell per round 1..R (the game listed last counts)."""
    t = standings.tournament
    rounds = standings.round
    cells = {p: ["–"] * rounds for p in range(len(t.players))}
    for r, p in t.absences:
        if r <= rounds:
            cells[p][r - 1] = "abs"
    for game in t.games:
        if game.round > rounds:
            continue
        for me, other, colour in ((game.black, game.white, "b"), (game.white, game.black, "w")):
            symbol = SYMBOL[game.result][0 if colour == "b" else 1]
            forfeit = "!" if game.by_default else ""
            hcp = str(game.handicap) if game.handicap else ""
            cells[me][game.round - 1] = f"{line_of[other]}{symbol}{forfeit}/{colour}{hcp}"
    for r, p in t.byes:  # the bye wins over a game in the same round (docs/rules.md §6)
        if r <= rounds:
            cells[p][r - 1] = "bye"
    return cells


def write(standings: Standings, stream: TextIO) -> None:
    rows = standings.rows()
    line_of = {row.index: number for number, row in enumerate(rows, start=1)}
    shared = any(row.tied for row in rows)
    cells = round_cells(standings, line_of)
    cut: list[str] = []

    def shown(text: str, width: int, what: str) -> str:
        text = " ".join(printable(text).split())  # escaped first: a line break shows as \n
        if display_width(text) > width:
            cut.append(what)
            return fit(text, width)
        return text

    columns: list[tuple[str, list[str], bool]] = []  # header, cells, right-aligned
    if shared:
        columns.append(("Num", [str(n) for n in range(1, len(rows) + 1)], True))
    columns += [
        ("Pl", [f"{r.place}{'=' if r.tied else ''}" for r in rows], True),
        ("Name", [shown(r.player.name, NAME_WIDTH, "names") for r in rows], False),
        ("Rank", [rank_text(r.player.rank) for r in rows], False),
        ("Co", [printable(r.player.country.strip()) for r in rows], False),
        ("Club", [shown(r.player.club, CLUB_WIDTH, "clubs") for r in rows], False),
    ]
    columns += [
        (f"R{n}", [cells[r.index][n - 1] for r in rows], False)
        for n in range(1, standings.round + 1)
    ]
    columns += [
        (printable(c), [format_value(r.values[c]) for r in rows], True) for c in standings.criteria
    ]
    # a column with nothing in it says nothing (no club, no country known)
    columns = [c for c in columns if c[0] in ("Pl", "Name") or any(c[1]) or not rows]
    widths = [max([display_width(h)] + [display_width(v) for v in cs]) for h, cs, _ in columns]

    def render(values: list[str]) -> str:
        parts = [pad(v, w, right=right) for v, w, (_, _, right) in zip(values, widths, columns)]
        return "  ".join(parts).rstrip()

    stream.write(title(standings) + "\n")
    stream.write(render([h for h, _, _ in columns]) + "\n")
    for i in range(len(rows)):
        stream.write(render([cs[i] for _, cs, _ in columns]) + "\n")
    if cut:
        kinds = " and ".join(dict.fromkeys(cut))
        stream.write(
            f"note: {kinds} longer than the column are cut with … "
            f"(names at {NAME_WIDTH} columns, clubs at {CLUB_WIDTH}); "
            "--format csv or json keeps them whole\n"
        )
    for warning in standings.warnings:
        stream.write(f"warning: {printable(warning)}\n")


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
