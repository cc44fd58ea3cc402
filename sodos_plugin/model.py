"""The tournament model: frozen data that readers produce and nothing mutates.

Players are referred to by their index in :attr:`Tournament.players`; rounds are
numbered from 1. Round participation (docs/rules.md §1) is derived, never stored
twice: a player listed in ``byes`` for r has the *bye* (even if he also has a game in
r, as OpenGotha counts it, docs/rules.md §6); otherwise a player with a game in round
r is *paired*; otherwise one listed in ``absences`` is *absent*; otherwise the player
is *not assigned*.

Games as OpenGotha accepts them (docs/rules.md §6): a player may have two games in one
round, or play himself. Every game scores; for the player's own SOS-type values the game
listed *last* in :attr:`Tournament.games` counts (see :class:`sodos_plugin.scores.Pairings`).
Readers that accept such games warn, naming both games.

Validation here is structural (indexes, rounds, handicaps); readers report problems in
terms of their files before building the model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any


class Result(Enum):
    """The outcome of a game, from the board's point of view."""

    BLACK_WINS = "B+"
    WHITE_WINS = "W+"
    JIGO = "="
    BOTH_WIN = "++"
    BOTH_LOSE = "--"
    UNKNOWN = "?"


class Participation(Enum):
    """A player's situation in one round (docs/rules.md §1)."""

    PAIRED = "paired"
    BYE = "bye"
    ABSENT = "absent"
    NOT_ASSIGNED = "not assigned"


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player.

    :param rank: OpenGotha rank integer (see :mod:`sodos_plugin.ranks`), ``None`` if unknown.
    :param smms_correction: manual start-McMahon-score correction (docs/rules.md §1).
    :param start_score: an explicit start score, overriding the rank-based one; used by
        readers whose format stores the start score but not the rules (EGD h9).
    :param rating: the player's rating as the source gives it, ``None`` if unknown: an
        ``int`` when the source prints an integer (OpenGotha XML), else a ``float`` holding
        the printed decimal exactly as ``repr`` shows it (GoR ``2674.564``, OGS
        ``1465.2197``); :func:`rating_value` gives the exact value for sorting.
    :param id: the host's own identifier (JSON tournaments), echoed in JSON output.
    """

    name: str
    rank: int | None = None
    rating: int | float | None = None
    club: str = ""
    country: str = ""
    smms_correction: int = 0
    start_score: Any = None  # int | Fraction | None; Any keeps the slot type simple
    id: str | None = None


def rating_value(rating: int | float) -> Fraction:
    """A rating as an exact fraction: an ``int`` as it is, a ``float`` as its shortest
    decimal (``2674.564`` → 2674564/1000), which is the number the source printed.

    ``Fraction(2674.564)`` would be the binary approximation (a 52-bit denominator);
    the shortest decimal that reads back to the same float is what was written.
    """
    if isinstance(rating, bool) or not isinstance(rating, (int, float)):
        raise TypeError(f"a rating is an int or a float, got {rating!r}")
    if isinstance(rating, int):
        return Fraction(rating)
    if not math.isfinite(rating):
        raise ValueError(f"a rating must be finite, got {rating!r}")
    return Fraction(repr(rating))


@dataclass(frozen=True, slots=True)
class Game:
    """A game of one round. ``by_default`` marks a forfeit (not played over the board)."""

    round: int
    black: int
    white: int
    result: Result = Result.UNKNOWN
    handicap: int = 0
    by_default: bool = False


@dataclass(frozen=True)
class CompatView:
    """The event as another program reads its file (docs/rules.md §7).

    :param tournament: what that program reads.
    :param defects: why it differs: defect code (``"V1"``, see
        :data:`sodos_plugin.compat.DEFECTS`) → what it changes in this file.
    """

    tournament: Tournament
    defects: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Tournament:
    """Players, rounds and games of one event.

    :param rounds: number of rounds scheduled (standings may be asked after any of them).
    :param byes: ``(round, player)`` pairs that received the pairing bye.
    :param absences: ``(round, player)`` pairs announced absent.
    :param settings: config entries the file itself carries (system, MM bar...), applied
        below the user's config (see :mod:`sodos_plugin.settings`).
    :param source: where it was read from, for messages.
    :param date: the first day of the event as ISO ``YYYY-MM-DD`` (``""`` when unknown);
        game histories (ratings) order tournaments by it.
    :param compat: the same event as another program reads the file, by ``compat``
        name (``"opengotha"``), when it reads it differently (e.g. drops games): a
        :class:`CompatView`; used by :mod:`sodos_plugin.compat` only. Empty when the
        program reads the file as we do.
    """

    name: str
    rounds: int
    players: tuple[Player, ...]
    games: tuple[Game, ...]
    byes: frozenset[tuple[int, int]] = frozenset()
    absences: frozenset[tuple[int, int]] = frozenset()
    settings: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    date: str = ""
    compat: Mapping[str, CompatView] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))
        object.__setattr__(self, "compat", MappingProxyType(dict(self.compat)))
        self._validate()

    def _validate(self) -> None:
        n, rounds = len(self.players), self.rounds
        where = self.source or self.name or "tournament"
        if rounds < 0:
            raise ValueError(f"{where}: number of rounds must be >= 0, got {rounds}")
        paired: set[tuple[int, int]] = set()
        add = paired.add
        for game in self.games:
            r, b, w = game.round, game.black, game.white
            if not 1 <= r <= rounds:
                raise ValueError(f"{where}: game in round {r} outside 1..{rounds}")
            if not (0 <= b < n and 0 <= w < n):
                raise ValueError(f"{where}: round {r}: bad players {b} vs {w}")
            add((r, b))
            add((r, w))
            if game.handicap < 0:
                raise ValueError(f"{where}: round {r}: negative handicap {game.handicap}")
        for r, p in self.byes:
            if not (1 <= r <= rounds and 0 <= p < n):
                raise ValueError(f"{where}: bye ({r}, {p}) out of range")
        for r, p in self.absences:
            if not (1 <= r <= rounds and 0 <= p < n):
                raise ValueError(f"{where}: absence ({r}, {p}) out of range")
            if (r, p) in paired:
                raise ValueError(
                    f"{where}: round {r}: {self.players[p].name} is paired and has an absence"
                )
        both = self.byes & self.absences
        if both:
            r, p = min(both)
            raise ValueError(f"{where}: round {r}: {self.players[p].name} has a bye and is absent")

    def participation(self, round_number: int, player: int) -> Participation:
        """The derived participation of one player in one round (slow path)."""
        if (round_number, player) in self.byes:
            return Participation.BYE
        for game in self.games:
            if game.round == round_number and player in (game.black, game.white):
                return Participation.PAIRED
        if (round_number, player) in self.absences:
            return Participation.ABSENT
        return Participation.NOT_ASSIGNED

    def player_index(self, name: str) -> int:
        """Index of the player called ``name`` (exact match after trimming)."""
        wanted = name.strip()
        for i, player in enumerate(self.players):
            if player.name.strip() == wanted:
                return i
        raise KeyError(name)
