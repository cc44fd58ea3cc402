"""The standings document (``sodos schema standings``), version 2: what ``sodos standings
--format json`` prints and ``POST /standings`` answers, built by
:meth:`sodos_plugin.engine.standings.Standings.document`.

Values are JSON numbers: integers stay integers, halves and quarters are exact binary
fractions (2.5). Members may be added in later versions (as optional ones, UNSET when
absent): clients ignore members they do not know. Version 2 added a player's ``ids``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from sodos_plugin.schemas.ratings import Ratings

Count = Annotated[int, Meta(ge=0)]
Place = Annotated[int, Meta(ge=1)]
Number = int | float
System = Literal["mcmahon", "swiss"]


class Player(Struct):
    """A player as the answers show them."""

    name: str
    rank: Annotated[str, Meta(description="e.g. 3d, 5k; empty when unknown")]
    country: str
    club: str
    id: Annotated[
        str | UnsetType, Meta(description="the host's id, when the tournament gave one")
    ] = UNSET
    ids: Annotated[
        dict[str, str] | UnsetType,
        Meta(
            description="the player's identifiers by scheme, when the source gives any: egd "
            "(EGD PIN), ffg (FFG licence), aga (AGA id) (version 2)"
        ),
    ] = UNSET


class Provider(Struct, kw_only=True):
    """Who computed a criterion (a third-party plugin may replace a built-in)."""

    plugin: Annotated[
        str | UnsetType, Meta(description="the plugin's name (builtin.sodos, or a third party's)")
    ] = UNSET
    builtin: bool | UnsetType = UNSET
    origin: Annotated[
        str | UnsetType, Meta(description="builtin, entry point, config, module or runtime")
    ] = UNSET
    distribution: str | None | UnsetType = UNSET
    version: str | None | UnsetType = UNSET
    module: str | None | UnsetType = UNSET
    provided_as: Annotated[
        str | None | UnsetType,
        Meta(
            description="the name the plugin gave (a family name such as SODOS stands for SODOSM)"
        ),
    ] = UNSET
    replaces: Annotated[
        str | None | UnsetType, Meta(description="the built-in plugin it replaces")
    ] = UNSET


class Tournament(Struct, kw_only=True):
    """The tournament the standings are of."""

    name: str
    rounds: Annotated[Count, Meta(description="the standings are after this round")]
    scheduled_rounds: Annotated[
        Count,
        Meta(
            description="the rounds the tournament has (rounds < scheduled_rounds: standings "
            "before its end)"
        ),
    ]
    round_note: Annotated[
        str,
        Meta(
            description="why the standings are after that round (e.g. the last round with a "
            "result), empty when asked or the last round"
        ),
    ]
    system: System


class Row(Struct):
    """One row of the standings."""

    place: Annotated[Place, Meta(description="players tied on every criterion share a place")]
    tied: bool
    player: Player
    values: Annotated[dict[str, Number], Meta(description="criterion name -> value")]


class Standings(Struct, kw_only=True):
    """What 'sodos standings --format json' prints and POST /standings returns. Values
    are JSON numbers: integers stay integers, halves and quarters are exact binary
    fractions (2.5). Members may be added in later versions: clients ignore members they
    do not know."""

    tournament: Tournament
    criteria: Annotated[
        list[str],
        Meta(description="the criteria in order: the first decides, the next breaks its ties..."),
    ]
    providers: Annotated[
        dict[str, Provider],
        Meta(description="criterion name -> the plugin that computed it"),
    ]
    standings: Annotated[list[Row], Meta(description="one row per player, in standings order")]
    warnings: Annotated[
        list[str],
        Meta(description="everything that changed or may change a result, as on stderr"),
    ]
    ratings: Annotated[
        Ratings | UnsetType,
        Meta(
            description="with --rating: the rating run of the tournament's own games "
            "(sodos schema ratings)"
        ),
    ] = UNSET
