"""A server's live ratings (docs/ratings.md, "A server's live ratings"), version 1: the
game a server posts (``sodos schema live-game``) and the store's answers — the games
rated (``live-games``), a player (``live-player``), a player's history
(``live-history``) and the leaderboard (``live-leaderboard``). Members may be added in
later versions: clients ignore members they do not know.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

Count = Annotated[int, Meta(ge=0)]
Rating = Annotated[float, Meta(description="the rating after the game (the system's scale)")]
Deviation = Annotated[float | None, Meta(description="its deviation (RD); null: none")]


class LiveGame(Struct, kw_only=True, forbid_unknown_fields=True):
    """One finished game, as a server posts it (``POST /games``: one, or an array)."""

    id: Annotated[str, Meta(min_length=1, max_length=200, description="the server's game id")]
    date: Annotated[
        str,
        Meta(
            min_length=10,
            max_length=40,
            description="when it ended: an ISO date, or date and time (2024-05-10T23:30:05)",
        ),
    ]
    black: Annotated[str, Meta(min_length=1, max_length=200, description="Black's name")]
    white: Annotated[str, Meta(min_length=1, max_length=200, description="White's name")]
    result: Annotated[
        str, Meta(min_length=1, max_length=40, description="an SGF RE text: B+R, W+3.5, 0")
    ]
    handicap: Annotated[int, Meta(ge=0, le=9, description="stones Black received")] = 0
    komi: Annotated[float, Meta(ge=-1000, le=1000)] | None = None
    size: Annotated[int, Meta(ge=1, le=52, description="board size")] = 19
    black_id: (
        Annotated[str, Meta(min_length=1, max_length=200, description="Black's id on the server")]
        | None
    ) = None
    white_id: (
        Annotated[str, Meta(min_length=1, max_length=200, description="White's id on the server")]
        | None
    ) = None
    black_rank: (
        Annotated[
            str, Meta(min_length=1, max_length=20, description="Black's rank: his start if new")
        ]
        | None
    ) = None
    white_rank: (
        Annotated[
            str, Meta(min_length=1, max_length=20, description="White's rank: his start if new")
        ]
        | None
    ) = None


class PlayerState(Struct, kw_only=True):
    """A player's state after a game."""

    name: Annotated[str, Meta(description="the player's name (as first posted)")]
    rating: Rating
    deviation: Deviation
    volatility: Annotated[float | None, Meta(description="Glicko-2's σ; null: none")]
    rank: Annotated[str, Meta(description="the rank label of the system (OGS: 3.2k)")]
    provisional: Annotated[
        bool, Meta(description="true: of the open rating period (changes with its games)")
    ] = False


class GameRated(Struct, kw_only=True):
    """One game of ``POST /games``: its place in the order of arrival and both players'
    states after it."""

    id: Annotated[str, Meta(description="the server's game id")]
    order: Annotated[int, Meta(ge=1, description="its place in the store's order of arrival")]
    already: Annotated[bool, Meta(description="true: posted before with the same content")]
    black: PlayerState
    white: PlayerState


class GamesRated(Struct, kw_only=True):
    """What ``POST /games`` answers."""

    system: Annotated[str, Meta(description="the store's rating system")]
    games: list[GameRated]


class Player(Struct, kw_only=True):
    """What ``GET /players/{name or id}`` answers."""

    name: str
    id: Annotated[str | None, Meta(description="the player's id on the server; null: by name")]
    rating: Rating
    deviation: Deviation
    volatility: Annotated[float | None, Meta(description="Glicko-2's σ; null: none")]
    rank: Annotated[str, Meta(description="the rank label of the system")]
    games: Annotated[Count, Meta(description="games rated")]
    last_game: Annotated[str | None, Meta(description="the day of the last game rated")]
    provisional: Annotated[
        bool, Meta(description="true while the rating may still change without a new game")
    ] = False


class HistoryStep(Struct, kw_only=True):
    """One game of a player's history: the states before and after it."""

    game: Annotated[str, Meta(description="the server's game id")]
    order: Annotated[int, Meta(ge=1, description="its place in the order of arrival")]
    date: str
    time: str | None
    rating_before: float
    deviation_before: float | None
    rating: Rating
    deviation: Deviation


class History(Struct, kw_only=True):
    """What ``GET /players/{id}/history`` answers: every game rated, first first."""

    name: str
    steps: list[HistoryStep]


class Leader(Struct, kw_only=True):
    place: Annotated[int, Meta(ge=1)]
    name: str
    rating: Rating
    deviation: Deviation
    rank: str
    games: Count
    provisional: Annotated[
        bool, Meta(description="true: of the open rating period (changes with its games)")
    ] = False


class Leaderboard(Struct, kw_only=True):
    """What ``GET /leaderboard`` answers: the highest rated first (then name)."""

    system: str
    offset: Count
    players: list[Leader]


class Voided(Struct, kw_only=True):
    """What ``POST /games/{id}/void`` answers."""

    id: str
    voided: bool
    rerated: Annotated[Count, Meta(description="games rated again after it")]
