"""HTML output: one self-contained standings page a tournament director can publish.

Valid HTML5 with its style inline (no scripts, no external files). Like OpenGotha's
standings page, each round's cell is ``<opponent number><result>/<colour><handicap>``:
``12+/w3`` = won against number 12 with White at handicap 3; ``-`` a loss, ``=`` a
jigo, ``?`` no result yet, ``!`` a game decided by default; a game whose colours the
source does not give shows none (``12+``, ``12+/?3`` with a handicap; docs/rules.md
§12). Rounds without a game show ``bye``, ``abs`` (announced absent) or ``–`` (not
paired). The players' identifiers the input gives (EGD PIN, FFG licence, AGA id) are
columns after the club, one per scheme present. Numbers are the players'
line numbers on the page; values print halves as ``½`` as the terminal table does.

Every text from the input goes through :func:`escape`: HTML-escaped, and its control
and format characters shown as escapes (``\\x1b``, ``\\u202e``), so a name can
neither inject markup nor reverse the text that follows it.
"""

from __future__ import annotations

import html
from typing import TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.engine.model import ID_SCHEMES, SYMBOLS, id_schemes
from sodos_plugin.engine.numbers import value_texts
from sodos_plugin.engine.standings import Standings, rank_text
from sodos_plugin.util.textsafe import printable


def escape(text: str) -> str:
    """Text for the page: controls escaped visibly, then HTML-escaped (quotes too)."""
    return html.escape(printable(text))


CLASS = {"+": "win", "-": "loss", "=": "jigo", "?": "unknown"}

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
p.sub { margin-top: 0; color: #444; }
table { border-collapse: collapse; font-size: 0.92em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.45em; white-space: nowrap; }
th { background: #eee; }
td.num, td.value { text-align: right; font-variant-numeric: tabular-nums; }
td.round { text-align: center; font-family: ui-monospace, monospace; }
td.win { background: #e3f4e1; } td.loss { background: #fbe4e4; }
td.jigo { background: #fdf6d8; } td.unpaired { color: #777; }
tbody tr:nth-child(even) td.name { background: #f7f7f7; }
ul.warnings { color: #8a4b00; } footer { margin-top: 1em; color: #666; font-size: 0.85em; }
"""


def _cell(text: str, css: str, tip: str) -> str:
    return f'<td class="round {css}" title="{tip}">{text}</td>'


def round_cells(standings: Standings) -> list[list[str]]:
    """Per player index: one ``<td>`` per round 1..R (game data only), its text, css
    class and tooltip escaped. :func:`escape` works character by character, so a
    tooltip is escaped as its parts (each name once); the result texts (``12+/w3``,
    ``bye``) and the fixed words hold nothing to escape."""
    t = standings.tournament
    rounds = standings.round
    number = {index: position + 1 for position, index in enumerate(standings.order)}
    unpaired = _cell("–", "unpaired", "not paired")
    cells = [[unpaired] * rounds for _ in range(len(t.players))]
    for r, p in t.absences:
        if r <= rounds:
            cells[p][r - 1] = _cell("abs", "unpaired", "absent")
    for r, p in t.byes:  # the bye wins over an absence in the same round
        if r <= rounds:
            cells[p][r - 1] = _cell("bye", "unpaired", "pairing bye")
    names: dict[int, str] = {}
    for game in t.games:
        if game.round > rounds:
            continue
        hcp = str(game.handicap) if game.handicap else ""
        forfeit = "!" if game.by_default else ""
        more = (f", handicap {game.handicap}" if game.handicap else "") + (
            ", by default" if game.by_default else ""
        )
        known = game.colours_known
        for me, other, colour in ((game.black, game.white, "b"), (game.white, game.black, "w")):
            symbol = SYMBOLS[game.result][0 if colour == "b" else 1]
            name = names.get(other)
            if name is None:
                name = names[other] = escape(t.players[other].name)
            if known:
                mark = f"{forfeit}/{colour}{hcp}"
                tip = f"{'Black' if colour == 'b' else 'White'} against {name}{more}"
            else:  # no colour shown: none was given
                mark = f"{forfeit}/?{hcp}" if hcp else forfeit
                tip = f"Against {name} (colour not given){more}"
            cells[me][game.round - 1] = _cell(f"{number[other]}{symbol}{mark}", CLASS[symbol], tip)
    return cells


def _provider(standings: Standings, criterion: str) -> str:
    info = standings.providers.get(criterion, {})
    return standings.provider_text(criterion) or f"built-in ({info.get('plugin', '?')})"


def _plugin_note(standings: Standings) -> list[str]:
    """A line naming every criterion a third-party plugin computed (nothing silent)."""
    parts = [
        f"{c} from {standings.provider_text(c)}"
        for c in standings.criteria
        if standings.provider_text(c)
    ]
    if not parts:
        return []
    return [f'<p class="plugins">Computed by plugins: {escape(", ".join(parts))}</p>']


def write(standings: Standings, stream: TextIO) -> None:
    t = standings.tournament
    title = t.name or "Tournament"
    rounds = standings.round
    cells = round_cells(standings)
    schemes = id_schemes(t.players)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} — standings after round {rounds}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="sub">Standings after round {rounds} ({escape(standings.settings.system)})'
        f" — criteria: {escape(', '.join(standings.criteria))}</p>",
        *_plugin_note(standings),
        '<table class="standings">',
        "<thead><tr>"
        + "".join(f"<th>{h}</th>" for h in ("Num", "Pl", "Name", "Rank", "Co", "Club"))
        + "".join(f'<th class="id">{escape(ID_SCHEMES.get(s, s))}</th>' for s in schemes)
        + "".join(f'<th class="round">R{r}</th>' for r in range(1, rounds + 1))
        + "".join(
            f'<th class="criterion" title="{escape(_provider(standings, c))}">'
            f"{escape(standings.heading(c))}</th>"
            for c in standings.criteria
        )
        + "</tr></thead>",
        "<tbody>",
    ]
    players = t.players
    values = []
    for c in standings.criteria:
        texts = value_texts(standings, c)
        shown = {text: f'<td class="value">{escape(text)}</td>' for text in set(texts)}
        values.append([shown[text] for text in texts])
    positions = zip(standings.places, standings.tied, standings.order)
    for number, (place, tied, index) in enumerate(positions, start=1):
        player = players[index]
        parts = [
            f'<td class="num">{number}</td>',
            f'<td class="num place">{place}{"=" if tied else ""}</td>',
            f'<td class="name">{escape(player.name)}</td>',
            f"<td>{escape(rank_text(player.rank))}</td>",
            f"<td>{escape(player.country)}</td>",
            f"<td>{escape(player.club)}</td>",
            *[f'<td class="id">{escape(player.ids.get(s, ""))}</td>' for s in schemes],
            *cells[index],
            *[column[index] for column in values],
        ]
        out.append(f'<tr data-place="{place}">' + "".join(parts) + "</tr>")
    out.append("</tbody>")
    out.append("</table>")
    if standings.warnings:
        out.append('<ul class="warnings">')
        out += [f"<li>{escape(w)}</li>" for w in standings.warnings]
        out.append("</ul>")
    out.append(
        "<footer>Round cells: opponent number, + win, - loss, = jigo, ? no result, "
        "! by default, /w or /b colour then handicap (no colour: none given); bye, abs "
        "(absent), – not paired. "
        "Made with sodos-plugin.</footer>"
    )
    out += ["</body>", "</html>", ""]
    stream.write("\n".join(out))


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("html", "self-contained HTML standings page with per-round results", write)]
