"""The rating documents, version 1: a rating run (``sodos schema ratings``: what ``sodos
ratings --format json`` prints and ``POST /ratings`` answers, built by
:meth:`sodos_plugin.ratings.run.RatingRun.document`) and one player's steps
(``sodos explain --ratings PLAYER --format json``, ``sodos schema rating-steps``).

Ratings are the numbers the system computed (floats, shortest decimals); the printed
parts of an explanation are decimal strings that add up exactly (docs/ratings.md).
Members may be added in later versions: clients ignore members they do not know.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import UNSET, Meta, Struct, UnsetType

Count = Annotated[int, Meta(ge=0)]
Number = int | float


class State(Struct, kw_only=True):
    """A rating, with the deviation and volatility of systems that have them."""

    rating: Number
    deviation: Number | UnsetType = UNSET
    volatility: Number | UnsetType = UNSET
    label: Annotated[
        str | UnsetType, Meta(description="the system's own name for it (a rank), final only")
    ] = UNSET


class File(Struct):
    """An input file and what became of it."""

    path: str
    status: Annotated[str, Meta(description="ingested, rejected, duplicate, excluded, ...")]
    reason: str


class Rated(Struct):
    """A player's final rating, in the final-ratings table's order."""

    name: str
    initial: Annotated[str, Meta(description="where the starting rating came from")]
    games: Count
    final: State
    place: Annotated[int, Meta(ge=1)]
    last_game: Annotated[str, Meta(description="the day of the player's last game")]


class Reason(Struct):
    """One reason of a status, with how many files (or games of one) it has."""

    reason: str
    count: Count


class Summary(Struct):
    """The history's files of one status (ingested, duplicate, excluded, rejected ...)."""

    status: str
    count: Count
    reasons: Annotated[list[Reason], Meta(description="most first")]


class Period(Struct):
    """One player in one rating period (an event, a month...)."""

    player: str
    period: str
    date: Annotated[str, Meta(description="YYYY-MM-DD")]
    games: Count
    before: State
    after: State
    change: Annotated[
        Number, Meta(description="after - before, as the difference of the printed numbers")
    ]


class Ratings(Struct, kw_only=True):
    """What 'sodos ratings --format json' prints and POST /ratings returns: a rating
    system run over a game history, every player's final rating and every player's
    change in every period. Members may be added in later versions: clients ignore
    members they do not know."""

    system: str
    provider: Annotated[str, Meta(description="the plugin that provides the system")]
    provided_by: Annotated[
        dict[str, Any],
        Meta(
            description="the plugin that computed it: its name, built in or not, what it replaces"
        ),
    ]
    source: Annotated[str, Meta(description="where the system's rules are written")]
    parameters: Annotated[dict[str, Any], Meta(description="the system's parameters used")]
    games: Annotated[Count, Meta(description="games rated")]
    events: Count
    files: list[File]
    summary: Annotated[list[Summary], Meta(description="the files counted by status")]
    warnings: list[str]
    notes: list[str]
    players: Annotated[list[Rated], Meta(description="by final rating, highest first")]
    periods: Annotated[list[Period], Meta(description="in date order")]
    last_day: Annotated[str, Meta(description="the last day of the history's games")]
    continued_from: Annotated[
        str | None, Meta(description="the last day of the saved state gone on from")
    ]


class StepState(Struct):
    """A rating with every member the system may have (null when it has not)."""

    rating: Number
    deviation: Number | None
    volatility: Number | None


class Part(Struct):
    """One printed part of a change."""

    label: str
    value: Annotated[str, Meta(description="a decimal, as printed")]


class Step(Struct):
    """One period of the player, with the parts of the change."""

    period: str
    date: str
    games: Count
    before: StepState
    after: StepState
    change: Annotated[str, Meta(description="a decimal, as printed: the parts add up to it")]
    parts: list[Part]
    details: Annotated[
        list[dict[str, Any]], Meta(description="per game: what the system's formula used")
    ]
    summary: Annotated[dict[str, Any], Meta(description="per period: the system's own numbers")]


class RatingSteps(Struct, kw_only=True):
    """What 'sodos explain --ratings PLAYER --format json' prints: every step of one
    player's ratings, each change with printed parts that add up to it exactly."""

    player: str
    system: str
    provider: str
    provided_by: dict[str, Any]
    source: str
    start: Annotated[str, Meta(description="where the starting rating came from")]
    final: StepState | None
    steps: list[Step]
    warnings: list[str]
    notes: list[str]
