"""The JSON tournament format (``sodos schema``), version 2: the one definition of what a
host hands over, read by :mod:`sodos_plugin.readers.json_tournament` and written by
``sodos convert``.

Version 2 adds what other formats say and version 1 could not hold (docs/hosts.md): a
player's ``ids`` (EGD PIN, FFG licence, AGA id), a game's ``colours_known`` (false: the
source does not say who had Black) and its ``komi`` kept in the model, the event's
``info`` (the EGD h9 header: class, komi, place...) and ``board_size``. A version 1
document is read as before (it has none of them); sodos writes version 2.

Every optional member defaults to :data:`msgspec.UNSET`, so a decoded document says which
members were given (``null`` is a value, an absent member is UNSET): the reader counts
the members it decoded against the text's, which finds a key given twice at C speed.
Members are added as optional ones (with UNSET), so documents of version 1 stay valid.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from msgspec import UNSET, Meta, Struct, UnsetType, field

FORMAT = "sodos-tournament"
VERSION = 2
#: The versions this reader reads (a document of version 1 is a version 2 one without
#: the members version 2 added).
VERSIONS = (1, 2)

Text = Annotated[str, Meta(max_length=200)]
Name = Annotated[str, Meta(min_length=1, max_length=200)]
Round = Annotated[int, Meta(ge=1, le=64)]
Rank = Annotated[str, Meta(max_length=12)]

Reference = Annotated[
    Annotated[int, Meta(ge=0)] | Annotated[str, Meta(min_length=1, max_length=200)],
    Meta(
        description="a player: index in 'players' (from 0), or a string that is a player's "
        "id or else a player's name"
    ),
]
ExactNumber = Annotated[
    Annotated[float, Meta(ge=-10000, le=10000)] | Annotated[str, Meta(min_length=1, max_length=20)],
    Meta(description='an exact value: a number (2, 2.5) or a fraction as text ("5/2")'),
]
Scheme = Annotated[str, Meta(pattern="^[a-z][a-z0-9_]{0,19}$")]
Identifier = Annotated[str, Meta(min_length=1, max_length=64, pattern="\\S")]
Points = (
    Annotated[int, Meta(ge=0, le=1000)]
    | Annotated[float, Meta(ge=0, le=1000)]
    | Annotated[str, Meta(max_length=20)]
)


class Result(Enum):
    """B+ Black wins, W+ White wins, = jigo, ++ both win, -- both lose, ? not known yet"""

    BLACK_WINS = "B+"
    WHITE_WINS = "W+"
    JIGO = "="
    BOTH_WIN = "++"
    BOTH_LOSE = "--"
    UNKNOWN = "?"


class FlagText(Enum):
    """true or false, as text"""

    TRUE = "true"
    FALSE = "false"
    ON = "on"
    OFF = "off"
    YES = "yes"
    NO = "no"


class VirtualOpponent(Enum):
    """Who an unplayed round is scored against (docs/rules.md)"""

    EGF = "egf"
    HALF_POINT = "half-point"
    SELF = "self"
    DUMMY = "dummy"
    AGA = "aga"


Flag = bool | FlagText


class Player(Struct, forbid_unknown_fields=True, kw_only=True):
    """A registered player."""

    name: Name
    id: Annotated[
        Annotated[str, Meta(min_length=1, max_length=200)] | UnsetType,
        Meta(description="the host's own identifier, unique, echoed in standings"),
    ] = UNSET
    rank: Annotated[
        Rank | None | UnsetType, Meta(description="a Go rank: 30k..1k, 1d..9d, 1p..9p")
    ] = UNSET
    rating: (
        Annotated[int, Meta(ge=-100000, le=100000)]
        | Annotated[float, Meta(ge=-100000, le=100000)]
        | None
        | UnsetType
    ) = UNSET
    club: Text | UnsetType = UNSET
    country: Text | UnsetType = UNSET
    smms_correction: Annotated[
        Annotated[int, Meta(ge=-100, le=100)] | UnsetType,
        Meta(description="start-score correction added to the McMahon start score"),
    ] = UNSET
    start_score: Annotated[
        ExactNumber | None | UnsetType,
        Meta(description="an explicit McMahon start score, replacing the one from the rank"),
    ] = UNSET
    ids: Annotated[
        Annotated[dict[Scheme, Identifier], Meta(max_length=8)] | UnsetType,
        Meta(
            description="the player's identifiers by scheme: egd (EGD PIN), ffg (FFG "
            "licence), aga (AGA id), or another scheme's name (version 2)"
        ),
    ] = UNSET


class Game(Struct, forbid_unknown_fields=True, kw_only=True):
    """A game of one round."""

    round: Round
    black: Reference
    white: Reference
    result: Result
    handicap: Annotated[int, Meta(ge=0, le=9)] | UnsetType = UNSET
    komi: Annotated[
        Annotated[float, Meta(ge=-100, le=100)] | None | UnsetType,
        Meta(description="the game's own komi, kept and written again; no rule here uses it"),
    ] = UNSET
    by_default: Annotated[
        bool | UnsetType,
        Meta(description="won or lost by default (a forfeit), not played over the board"),
    ] = UNSET
    colours_known: Annotated[
        bool | UnsetType,
        Meta(
            description="false: the source does not say who had Black; 'black' and 'white' "
            "are then only the two sides, and no colour is shown (version 2; default true)"
        ),
    ] = UNSET


InfoText = Annotated[str, Meta(max_length=500)]


class Info(Struct, forbid_unknown_fields=True, kw_only=True):
    """What the source says about the event, under the EGD h9 header's names (docs/rules.md
    §12): the ratings take the class and komi from it."""

    TC: Annotated[InfoText | UnsetType, Meta(description="the EGD tournament code")] = UNSET
    CL: Annotated[InfoText | UnsetType, Meta(description="the EGD class: A, B, C or D")] = UNSET
    PC: Annotated[InfoText | UnsetType, Meta(description="the place: country,city")] = UNSET
    DT: Annotated[InfoText | UnsetType, Meta(description="the dates: first,last (YYYY-MM-DD)")] = (
        UNSET
    )
    KM: Annotated[InfoText | UnsetType, Meta(description="the komi, e.g. 7.5")] = UNSET
    TM: Annotated[InfoText | UnsetType, Meta(description="the thinking time")] = UNSET
    CM: Annotated[InfoText | UnsetType, Meta(description="a comment")] = UNSET


class RoundPlayer(Struct, forbid_unknown_fields=True, kw_only=True):
    """A player in one round (a bye, an absence)."""

    round: Round
    player: Reference


class McMahonSettings(Struct, forbid_unknown_fields=True, kw_only=True):
    """The McMahon bar, floor and zero (ranks)."""

    bar: Rank | UnsetType = UNSET
    floor: Rank | UnsetType = UNSET
    zero: Rank | UnsetType = UNSET


class ScoringSettings(Struct, forbid_unknown_fields=True, kw_only=True):
    """Points of byes and absences, rounding, doubled scores."""

    bye: Points | UnsetType = UNSET
    bye_mms: Points | UnsetType = UNSET
    absent_nbw: Points | UnsetType = UNSET
    absent_mms: Points | UnsetType = UNSET
    round_down: Flag | UnsetType = UNSET
    doubled: Flag | UnsetType = UNSET


class UnplayedSettings(Struct, forbid_unknown_fields=True, kw_only=True):
    """The virtual opponent of unplayed rounds."""

    virtual_opponent: VirtualOpponent | UnsetType = UNSET


class CategoriesSettings(Struct, forbid_unknown_fields=True, kw_only=True):
    """Rank categories (CAT)."""

    lower_limits: Annotated[
        Annotated[list[Rank], Meta(max_length=8)]
        | Annotated[str, Meta(max_length=200)]
        | UnsetType,
        Meta(description="CAT: the lowest rank of categories 1, 2..."),
    ] = UNSET


class HandicapSettings(Struct, forbid_unknown_fields=True, kw_only=True):
    """Handicap corrections."""

    sos_correction: Flag | UnsetType = UNSET
    reduction: Annotated[int, Meta(ge=-999999999, le=999999999)] | UnsetType = UNSET


class Settings(Struct, forbid_unknown_fields=True, kw_only=True):
    """The tournament's own config entries (docs/config.md), applied below the host's
    config; code-loading and service keys are not accepted here."""

    system: Literal["mcmahon", "swiss"] | UnsetType = UNSET
    criteria: (
        Annotated[list[Annotated[str, Meta(max_length=40)]], Meta(max_length=64)]
        | Annotated[str, Meta(max_length=1000)]
        | UnsetType
    ) = UNSET
    mcmahon: McMahonSettings | UnsetType = UNSET
    scoring: ScoringSettings | UnsetType = UNSET
    unplayed: UnplayedSettings | UnsetType = UNSET
    categories: CategoriesSettings | UnsetType = UNSET
    compat: Annotated[
        Literal["none", "opengotha"] | UnsetType,
        Meta(description="opengotha: OpenGotha 3.51's numbers, its defects included"),
    ] = UNSET
    handicap: HandicapSettings | UnsetType = UNSET


#: The deepest nesting of containers a valid document has (document, settings,
#: categories, lower_limits): decoding by the types never goes deeper.
DEPTH = 4


class Tournament(Struct, forbid_unknown_fields=True, kw_only=True):
    """One Go tournament as a host hands it to sodos: players, rounds, games, byes,
    absences and the tournament's own settings. Players are referred to by their index in
    'players' (an integer from 0), by their 'id', or by their name. The schema checks the
    shape; the reader also checks that references name a player, that rounds are within
    'rounds', ranks and settings values, and its size limits (docs/hosts.md)."""

    schema: Annotated[str, Meta(max_length=500)] | UnsetType = field(default=UNSET, name="$schema")
    format: Literal["sodos-tournament"]
    version: Annotated[
        Literal[1, 2],
        Meta(description="the version of this format; a reader refuses versions it does not know"),
    ]
    name: Annotated[str, Meta(max_length=500)] | UnsetType = UNSET
    date: Annotated[
        Annotated[str, Meta(max_length=10)] | UnsetType,
        Meta(
            description="the first day of the event, YYYY-MM-DD (orders tournaments in a "
            "rating history)"
        ),
    ] = UNSET
    rounds: Annotated[
        int,
        Meta(
            ge=0,
            le=64,
            description="rounds scheduled; standings are computed after the last by default",
        ),
    ]
    players: list[Player]
    games: list[Game]
    byes: Annotated[
        list[RoundPlayer] | UnsetType,
        Meta(description="players given the pairing bye in a round"),
    ] = UNSET
    absences: Annotated[
        list[RoundPlayer] | UnsetType,
        Meta(description="players announced absent in a round"),
    ] = UNSET
    settings: Settings | UnsetType = UNSET
    info: Annotated[
        Info | UnsetType,
        Meta(description="what the source says about the event, EGD h9 header names (version 2)"),
    ] = UNSET
    board_size: Annotated[
        Annotated[int, Meta(ge=2, le=52)] | UnsetType,
        Meta(description="the board size, when the source says it (version 2; 19 if absent)"),
    ] = UNSET
