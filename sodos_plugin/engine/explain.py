"""``sodos explain``: one player's criteria, round by round, from the breakdowns themselves.

Contract: nothing here computes a rule. Every number shown is read from the
criterion's :class:`~sodos_hookspecs.Breakdown` that produced the standings — its
per-round ``contributions``, its labelled ``details`` tables (opponent score used,
handicap correction, virtual opponent, result factor...) and
:meth:`~sodos_hookspecs.Breakdown.dropped_rounds` for cuts — or is plain game data
(opponent, colour, handicap, result) from the tournament and
:class:`~sodos_plugin.engine.scores.Pairings`. The *sum shown* is the sum of the contributions
shown as kept, and :func:`explain_player` checks that it equals the standings value.

Details convention (for plugin authors too): a details label starting with
``"virtual"`` is shown on rounds without a game; other labels on rounds with a game;
any label on a round where its value is not 0 (CPS's bye points on a bye round).
Criteria given as ``totals`` (NBW, MMS) show their details on every round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from msgspec import UNSET

from sodos_plugin.engine import compat
from sodos_plugin.engine.model import NO_IDS, OUTCOMES, Game, Tournament
from sodos_plugin.engine.numbers import format_value
from sodos_plugin.engine.scores import BYE, NOT_ASSIGNED, PAIRED, Pairings
from sodos_plugin.engine.standings import Standings, json_number, rank_text
from sodos_plugin.errors import InputError
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import explain as schema
from sodos_plugin.schemas.standings import Player as PlayerEntry
from sodos_plugin.util.suggest import suggestion
from sodos_plugin.util.textsafe import printable

UNPAIRED_TEXT = {BYE: "bye", NOT_ASSIGNED: "not assigned"}


@dataclass(frozen=True)
class RoundLine:
    """One round of one player: the game (or its absence) and one criterion's numbers."""

    round: int
    paired: bool
    situation: str  # win, loss, jigo, ..., bye, absent, not assigned
    opponent: int | None = None
    opponent_name: str = ""
    colour: str = ""  # "B" or "W"; "" without a game or when the source gives no colour
    handicap: int = 0
    by_default: bool = False
    contribution: Fraction | None = None
    details: dict[str, Fraction] = field(default_factory=dict)
    dropped: bool = False


@dataclass(frozen=True)
class CriterionLines:
    """One criterion for one player: its value and where it comes from."""

    name: str
    description: str
    source: str
    value: Fraction  # the standings value
    shown_sum: Fraction  # the sum of what is shown (kept contributions, or the total)
    kind: str  # "sum" (per-round contributions) or "total"
    rounds: list[RoundLine]
    drop_lowest: int = 0
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Explanation:
    """Everything :func:`render` prints for one player."""

    tournament: str
    system: str
    round: int
    player: int
    name: str
    rank: str
    country: str
    club: str
    place: int
    tied: bool
    games: list[RoundLine]
    criteria: list[CriterionLines]
    #: where OpenGotha 3.51 would print another value for this player, and why
    #: (docs/rules.md §7; see :func:`with_opengotha`)
    opengotha: list[str] = field(default_factory=list)
    player_id: str | None = None  # the host's id (JSON tournaments)
    player_ids: Mapping[str, str] = NO_IDS  # the source's identifiers (EGD PIN...)


def find_player(tournament: Tournament, name: str) -> int:
    """The player called ``name``: exact, then case-insensitive, then a unique part.

    :raises InputError: no such player (with the close matches) or an ambiguous part.
    """
    wanted = " ".join(name.split()).casefold()
    names = [" ".join(p.name.split()) for p in tournament.players]
    folded = [n.casefold() for n in names]
    for matches in (
        [i for i, n in enumerate(names) if n == " ".join(name.split())],
        [i for i, n in enumerate(folded) if n == wanted],
        [i for i, n in enumerate(folded) if wanted and wanted in n],
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = ", ".join(names[i] for i in matches[:5])
            raise InputError(f"{name!r} matches several players: {shown}")
    hint = suggestion(name, names, n=3)
    raise InputError(f"no player called {name!r}{hint}", source=tournament.source or None)


def _game_lines(standings: Standings, player: int) -> list[RoundLine]:
    """Opponent, colour, handicap and result of every round 1..R (game data only)."""
    tournament = standings.tournament
    pairings = Pairings(tournament, standings.round)
    games: dict[int, Game] = {
        g.round: g
        for g in tournament.games
        if g.round <= standings.round and player in (g.black, g.white)
    }
    lines = []
    for r in range(standings.round):
        state = pairings.state[r][player]
        game = games.get(r + 1)
        if state != PAIRED or game is None:
            lines.append(RoundLine(r + 1, False, UNPAIRED_TEXT.get(state, "absent")))
            continue
        black = game.black == player
        opponent = game.white if black else game.black
        lines.append(
            RoundLine(
                r + 1,
                True,
                OUTCOMES[game.result][0 if black else 1],
                opponent=opponent,
                opponent_name=tournament.players[opponent].name,
                colour=("B" if black else "W") if game.colours_known else "",
                handicap=game.handicap,
                by_default=game.by_default,
            )
        )
    return lines


def _criterion_lines(
    standings: Standings, name: str, player: int, games: Sequence[RoundLine]
) -> CriterionLines:
    breakdown = standings.breakdowns[name]
    definition = standings.definitions[name]
    denominator = breakdown.denominator
    totals = breakdown.totals is not None
    labels = tuple(breakdown.details)
    dropped = set(breakdown.dropped_rounds(player))
    rounds = []
    for r, game in enumerate(games):
        details = {}
        for label in labels:
            table = breakdown.details[label]
            if r >= len(table.rows) or player >= len(table.rows[r]):  # a short table
                continue
            virtual = label.startswith("virtual")
            value = table.fraction(r, player)
            if totals or virtual != game.paired or value:
                details[label] = value
        contribution = None if totals else Fraction(breakdown.contributions[r][player], denominator)
        rounds.append(
            replace(game, contribution=contribution, details=details, dropped=r in dropped)
        )
    if totals:
        shown = Fraction(breakdown.totals[player], denominator)
    else:
        shown = sum(
            (line.contribution for line in rounds if not line.dropped and line.contribution),
            Fraction(0),
        )
    return CriterionLines(
        name=name,
        description=definition.description,
        source=definition.source,
        value=standings.value(name, player),
        shown_sum=shown,
        kind="total" if totals else "sum",
        rounds=rounds,
        drop_lowest=breakdown.drop_lowest,
        details=labels,
    )


def explain_player(standings: Standings, player_name: str | int) -> Explanation:
    """Every criterion of one player (by name or index), round by round.

    :raises InputError: unknown or ambiguous player name.
    :raises AssertionError: never in practice — the shown sum differs from the value.
    """
    tournament = standings.tournament
    named = not isinstance(player_name, int)
    player = find_player(tournament, player_name) if named else int(player_name)
    position = standings.order.index(player)
    games = _game_lines(standings, player)
    criteria = [_criterion_lines(standings, name, player, games) for name in standings.criteria]
    for line in criteria:
        # One implementation of every rule: what is shown must add up to the standings.
        if line.shown_sum != line.value:
            raise AssertionError(
                f"{line.name}: shown sum {line.shown_sum} != standings value {line.value}"
            )
    info = tournament.players[player]
    return Explanation(
        tournament=tournament.name,
        system=standings.settings.system,
        round=standings.round,
        player=player,
        name=info.name,
        rank=rank_text(info.rank),
        country=info.country,
        club=info.club,
        place=standings.places[position],
        tied=standings.tied[position],
        games=games,
        criteria=criteria,
        player_id=info.id,
        player_ids=info.ids,
    )


# -- rendering ----------------------------------------------------------------------------


def document(explanation: Explanation, warnings: Sequence[str] = ()) -> schema.Explanation:
    """The explanation for programs (:mod:`sodos_plugin.schemas.explain`): the standings'
    JSON conventions (numbers as JSON numbers, ``json_number``), every round of every
    criterion with its parts."""
    e = explanation

    def game(line: RoundLine) -> schema.Game:
        return schema.Game(
            round=line.round,
            situation=line.situation,
            opponent=line.opponent_name if line.paired else None,
            colour=line.colour or None,
            handicap=line.handicap,
            by_default=line.by_default,
        )

    def criterion(c: CriterionLines) -> schema.Criterion:
        summed = c.kind == "sum"
        rounds = [
            schema.Round(
                round=line.round,
                adds=json_number(line.contribution or Fraction(0)) if summed else UNSET,
                cut=line.dropped if summed else UNSET,
                details={k: json_number(v) for k, v in line.details.items()},
            )
            for line in c.rounds
        ]
        return schema.Criterion(
            name=c.name,
            description=c.description,
            rule=c.source,
            value=json_number(c.value),
            kind=c.kind,
            drop_lowest=c.drop_lowest,
            rounds=rounds,
        )

    return schema.Explanation(
        tournament=schema.Tournament(name=e.tournament, rounds=e.round, system=e.system),
        player=PlayerEntry(
            e.name,
            e.rank,
            e.country,
            e.club,
            UNSET if e.player_id is None else e.player_id,
            dict(e.player_ids) if e.player_ids else UNSET,
        ),
        place=e.place,
        tied=e.tied,
        games=[game(line) for line in e.games],
        criteria=[criterion(c) for c in e.criteria],
        opengotha=list(e.opengotha),
        warnings=list(warnings),
    )


def as_dict(explanation: Explanation, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`document` as plain data (JSON-ready dicts and lists)."""
    return codec.builtins(document(explanation, warnings))


def _game_text(line: RoundLine) -> list[str]:
    if not line.paired:
        return ["", "", "", line.situation]
    result = line.situation + (" (by default)" if line.by_default else "")
    return [line.opponent_name, line.colour, str(line.handicap) if line.handicap else "", result]


def _table(header: list[str], rows: list[list[str]], numeric_from: int) -> list[str]:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i >= numeric_from or i == 0 else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    return [line(header)] + [line(r) for r in rows]


def render(explanation: Explanation) -> str:
    """The explanation as text for the terminal (halves as ``½``)."""
    e = explanation
    who = ", ".join(x for x in (e.rank, e.country, e.club) if x)
    place = f"{e.place}{'=' if e.tied else ''}"
    out = [
        f"{e.name}" + (f" ({who})" if who else ""),
        f"{e.tournament or 'Tournament'} — place {place} after round {e.round} ({e.system})",
        "",
    ]
    game_header = ["Rd", "Opponent", "Col", "Hcp", "Result"]
    for c in e.criteria:
        out.append(f"{c.name} = {format_value(c.value)}  — {c.description}")
        if c.source:
            out.append(f"  rule: {c.source}")
        header = game_header + list(c.details)
        if c.kind == "sum":
            header.append("adds")
        rows = []
        for line in c.rounds:
            cells = [str(line.round), *_game_text(line)]
            cells += [
                format_value(line.details[label]) if label in line.details else ""
                for label in c.details
            ]
            if c.kind == "sum":
                value = format_value(line.contribution or Fraction(0))
                cells.append(f"({value}) cut" if line.dropped else value)
            rows.append(cells)
        out += ["  " + text for text in _table(header, rows, len(game_header))]
        if c.kind == "sum":
            kept = [format_value(x.contribution or 0) for x in c.rounds if not x.dropped]
            cut = [str(x.round) for x in c.rounds if x.dropped]
            text = " + ".join(kept) if kept else "0"
            note = f"; cut removed round {', '.join(cut)}" if cut else ""
            out.append(f"  sum: {text} = {format_value(c.shown_sum)}{note}")
        else:
            out.append(f"  total: {format_value(c.shown_sum)}")
        out.append("")
    if e.opengotha:
        out.append("OpenGotha 3.51 would print otherwise (docs/rules.md §7):")
        out += [f"  {note}" for note in e.opengotha]
        out.append("")
    # each entry is one line: escaping it keeps a name from starting a terminal sequence
    # or another line (sodos_plugin.util.textsafe)
    return "\n".join(map(printable, out))


def with_opengotha(
    explanation: Explanation, rank: Callable[..., Standings], standings: Standings
) -> Explanation:
    """The explanation with the values OpenGotha 3.51 would print otherwise for this
    player, each with the defect that makes it (:func:`sodos_plugin.engine.compat.differences`;
    ``rank`` is how these standings were made, ``Host.standings``)."""
    found, reasons = compat.differences(standings, rank)
    mine = [d for d in found if d.player == explanation.player]
    if not mine:
        return explanation
    notes = [
        f"{d.criterion} = {format_value(d.theirs)} (sodos: {format_value(d.ours)})" for d in mine
    ]
    return replace(explanation, opengotha=notes + [f"why: {reason}" for reason in reasons])
