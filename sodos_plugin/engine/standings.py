"""Standings: players ordered by the criteria list, with shared places.

Order: by each criterion in turn (higher first unless the criterion says otherwise).
Players equal on *every* criterion share a place and are marked ``tied``; inside a
tie they are listed by rank (strongest first), then name (case-insensitive), then
the order of the input — a documented order that never changes a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import repeat
from operator import add, attrgetter, eq, mul, sub
from typing import TYPE_CHECKING, Any

from msgspec import UNSET
from sodos_hookspecs import Breakdown, Criterion, FileReport

from sodos_plugin.engine.model import Player, Tournament
from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.engine.scores import positions
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import standings as schema

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    place: int
    tied: bool
    index: int
    player: Player
    values: dict[str, Fraction]


@dataclass
class Standings:
    """Ordered standings after round :attr:`round`, with every criterion's breakdown."""

    tournament: Tournament
    settings: Settings
    round: int
    criteria: tuple[str, ...]
    breakdowns: dict[str, Breakdown]
    definitions: dict[str, Criterion]
    order: list[int]
    places: list[int]
    tied: list[bool]
    warnings: list[str] = field(default_factory=list)
    files: Sequence[FileReport] = ()
    #: criterion name -> who provides it (plugin, built-in or not, distribution,
    #: version, the name it provided, the built-in plugin it replaces); JSON "providers"
    providers: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: why ``round`` is not the last scheduled one when it was chosen by default
    #: ("the last round with results (round 5: none yet; --round to choose)"), else ""
    round_note: str = ""
    _numerators: dict[str, list[int]] = field(default_factory=dict, repr=False)

    def numerators(self, criterion: str) -> list[int]:
        if criterion not in self._numerators:
            self._numerators[criterion] = self.breakdowns[criterion].numerators()
        return self._numerators[criterion]

    def value(self, criterion: str, player: int) -> Fraction:
        """The exact value of ``criterion`` for player index ``player``."""
        breakdown = self.breakdowns[criterion]
        return Fraction(self.numerators(criterion)[player], breakdown.denominator)

    def json_numbers(self, criterion: str) -> list[int | float]:
        """Every player's value of ``criterion`` as :func:`json_number` gives it, by
        player index, without a Fraction per value (an integer division is exact, and
        ``n / d`` is the float of the reduced fraction: true division rounds correctly)."""
        d = self.breakdowns[criterion].denominator
        numerators = self.numerators(criterion)
        if d.__class__ is not int or d <= 0:
            return [json_number(Fraction(n, d)) for n in numerators]
        if d == 1:
            return [int(n) for n in numerators]
        return [n // d if not n % d else n / d for n in numerators]

    def provider_text(self, criterion: str) -> str:
        """Who computed ``criterion`` when it is not a built-in (``sodos-foo 1.2``,
        ``module my_plugin``), else ``""`` — what writers print beside its name."""
        info = self.providers.get(criterion)
        if not info or info.get("builtin", True):
            return ""
        if info.get("distribution"):
            return f"{info['distribution']} {info.get('version') or ''}".strip()
        if info.get("origin") in ("config", "module"):
            return f"module {info.get('module') or info.get('plugin')}"
        return f"plugin {info.get('plugin')}"

    def heading(self, criterion: str) -> str:
        """``SODOS``, or ``SODOS (sodos-foo 1.2)`` when a third-party plugin computed it."""
        by = self.provider_text(criterion)
        return f"{criterion} ({by})" if by else criterion

    def rows(self) -> list[Row]:
        """Rows in standings order (a list: index it, take its length, iterate it twice)."""
        players = self.tournament.players
        return [
            Row(
                place=self.places[position],
                tied=self.tied[position],
                index=index,
                player=players[index],
                values={c: self.value(c, index) for c in self.criteria},
            )
            for position, index in enumerate(self.order)
        ]

    def document(self) -> schema.Standings:
        """The standings document (:mod:`sodos_plugin.schemas.standings`): what ``sodos
        standings --format json`` prints. Built column by column: values by player index
        (:meth:`json_numbers`), one entry per player, rows in standings order."""
        criteria = self.criteria
        players = self.tournament.players
        if criteria:
            columns = [self.json_numbers(c) for c in criteria]
            values = list(map(dict, map(zip, repeat(criteria), zip(*columns))))
        else:
            values = [{} for _ in players]
        entries = player_entries(players)
        order = self.order
        return schema.Standings(
            tournament=schema.Tournament(
                name=self.tournament.name,
                rounds=self.round,
                scheduled_rounds=self.tournament.rounds,
                round_note=self.round_note,
                system=self.settings.system,
            ),
            criteria=list(criteria),
            providers={c: schema.Provider(**self.providers.get(c, {})) for c in criteria},
            standings=list(
                map(
                    schema.Row,
                    self.places,
                    self.tied,
                    map(entries.__getitem__, order),
                    map(values.__getitem__, order),
                )
            ),
            warnings=list(self.warnings),
        )

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape other tools rely on (numbers as JSON numbers), as plain data:
        :meth:`document`'s."""
        return codec.builtins(self.document())


_NAME, _RANK, _COUNTRY, _CLUB, _ID, _IDS = map(
    attrgetter, ("name", "rank", "country", "club", "id", "ids")
)


class _RankTexts(dict):
    def __missing__(self, rank: int | None) -> str:
        text = self[rank] = rank_text(rank)
        return text


def player_entries(players: Sequence[Player]) -> list[schema.Player]:
    """Each player as the answers show them; ``id`` only when the host gave one, ``ids``
    only when the source gives any."""
    ids = list(map(_ID, players))
    id_maps = [dict(i) if i else UNSET for i in map(_IDS, players)]
    return list(
        map(
            schema.Player,
            map(_NAME, players),
            map(_RankTexts().__getitem__, map(_RANK, players)),
            map(_COUNTRY, players),
            map(_CLUB, players),
            map({None: UNSET}.get, ids, ids),
            id_maps,
        )
    )


def rank_text(rank: int | None) -> str:
    return "" if rank is None else format_rank(rank)


def json_number(value: Fraction) -> int | float:
    """Integers stay integers; halves and quarters are exact binary floats."""
    if value.denominator == 1:
        return int(value)
    return value.numerator / value.denominator


def order_players(
    tournament: Tournament,
    columns: Sequence[Sequence[int]],
    higher_is_better: Sequence[bool],
) -> tuple[list[int], list[int], list[bool]]:
    """Sort players by criteria columns; return (order, places, tied).

    The order is that of the key ``(values..., tie order)`` with the tie order of the
    module docstring. For speed (100k players) the criteria values are packed into one
    integer per player, mixed radix: equal packed keys ⇔ equal on every criterion,
    and packed order = lexicographic order. Only runs of equal keys (ties) are then
    sorted by the tie order.
    """
    n = len(tournament.players)
    packed: list[int] = [0] * n
    first = True
    for column, higher in zip(columns, higher_is_better):
        if not n:
            break
        # each column as a non-negative offset that sorts ascending: best is 0
        if higher:
            best = max(column)
            values = list(map(sub, repeat(best, n), column))
        else:
            best = min(column)
            values = list(map(sub, column, repeat(best, n)))
        if first:
            packed, first = values, False
            continue
        span = max(values) + 1
        packed = list(map(add, map(mul, packed, repeat(span, n)), values))
    order = sorted(range(n), key=packed.__getitem__)
    places = list(range(1, n + 1))
    tied = [False] * n
    # positions equal to the previous one: found by a C scan over the sorted keys
    keys = list(map(packed.__getitem__, order))
    same = positions(list(map(eq, keys[1:], keys)), True)
    if not same:
        return order, places, tied
    players = tournament.players

    def tie_order(i: int) -> tuple:
        p = players[i]
        return (-(p.rank if p.rank is not None else -99), p.name.casefold(), i)

    runs: list[list[int]] = []
    for position in (i + 1 for i in same):
        places[position] = places[position - 1]
        tied[position] = tied[position - 1] = True
        if runs and runs[-1][1] == position - 1:
            runs[-1][1] = position
        else:
            runs.append([position - 1, position])
    for start, end in runs:
        order[start : end + 1] = sorted(order[start : end + 1], key=tie_order)
    return order, places, tied
