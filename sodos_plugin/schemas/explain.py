"""The explanation of one player (``sodos schema explain``), version 2: what ``sodos
explain PLAYER --format json`` prints and ``POST /explain`` answers, built by
:func:`sodos_plugin.engine.explain.document`.

The player's games and every criterion round by round, with the parts each round adds.
Numbers follow the standings' conventions. Members may be added in later versions:
clients ignore members they do not know.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from sodos_plugin.schemas.standings import Count, Number, Place, Player, System


class Tournament(Struct):
    """The tournament, after the round explained."""

    name: str
    rounds: Count
    system: System


class Game(Struct):
    """One round of the player: the game, or why there is none."""

    round: Annotated[int, Meta(ge=1)]
    situation: Annotated[
        str,
        Meta(
            description="win, loss, jigo, both win, both lose, unknown, bye, absent, not assigned"
        ),
    ]
    opponent: str | None
    colour: Literal["B", "W"] | None
    handicap: Count
    by_default: bool


class Round(Struct, kw_only=True):
    """What one round gives a criterion."""

    round: Annotated[int, Meta(ge=1)]
    adds: Annotated[Number | UnsetType, Meta(description="(kind sum) what this round adds")] = UNSET
    cut: Annotated[bool | UnsetType, Meta(description="(kind sum) dropped by SOS-1, SOS-2...")] = (
        UNSET
    )
    details: Annotated[
        dict[str, Number],
        Meta(description="labelled parts: opponent score used, handicap correction, ..."),
    ]


class Criterion(Struct):
    """One criterion of the player, round by round."""

    name: str
    description: str
    rule: Annotated[str, Meta(description="where the rule is written")]
    value: Annotated[Number, Meta(description="the standings value")]
    kind: Annotated[
        Literal["sum", "total"],
        Meta(
            description="sum: the value is the sum of the rounds' adds not cut; total: given whole"
        ),
    ]
    drop_lowest: Count
    rounds: list[Round]


class Explanation(Struct, kw_only=True):
    """What 'sodos explain PLAYER --format json' prints and POST /explain returns: the
    player's games and every criterion round by round, with the parts each round adds.
    Numbers follow the standings' conventions. Members may be added in later versions:
    clients ignore members they do not know."""

    tournament: Tournament
    player: Player
    place: Place
    tied: bool
    games: Annotated[list[Game], Meta(description="one entry per round 1..rounds")]
    criteria: list[Criterion]
    opengotha: Annotated[
        list[str],
        Meta(
            description="where OpenGotha 3.51 would print another value for this player, and "
            "why (docs/rules.md §7)"
        ),
    ]
    warnings: list[str]
