"""The tournament model: frozen data that readers produce and nothing mutates.

Players are referred to by their index in :attr:`Tournament.players`; rounds are
numbered from 1. Round participation (docs/rules.md §1) is derived, never stored
twice: a player listed in ``byes`` for r has the *bye* (even if he also has a game in
r, as OpenGotha counts it, docs/rules.md §6); otherwise a player with a game in round
r is *paired*; otherwise one listed in ``absences`` is *absent*; otherwise the player
is *not assigned*.

Games as OpenGotha accepts them (docs/rules.md §6): a player may have two games in one
round. Every game scores; for the player's own SOS-type values the game listed *last* in
:attr:`Tournament.games` counts (see :class:`sodos_plugin.engine.scores.Pairings`).
Readers that accept such games warn, naming both games. A player paired with himself, or
with the bye and a game in one round, is refused (:class:`ModelError` naming the round
and the player) unless the tournament says its source keeps such pairings
(:attr:`Tournament.odd_pairings`: OpenGotha files, read as OpenGotha reads them).

Unknown stays unknown: a player's identifiers are only those the source gives
(:attr:`Player.ids`), and a game's colours and komi are known or not
(:attr:`Game.colours_known`, :attr:`Game.komi`); writers print nothing the source did not
give (docs/rules.md §12).

Players and games are frozen msgspec Structs: readers make them by the hundred thousand,
and a Struct is made at C speed (a fifth of the time of the fastest way to make a frozen
dataclass, benchmarks/README.md) and is not tracked by the cyclic collector
(``gc=False``: its fields are numbers, text and a mapping of text, which cannot form a
cycle). They compare, hash, copy and pickle as values (a player's hash leaves out
``ids``); a changed copy is ``msgspec.structs.replace(game, komi=7.5)``.

Validation here is structural (indexes, rounds, handicaps, types); readers report
problems in terms of their files before building the model.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from operator import attrgetter, ne
from types import MappingProxyType
from typing import Any, NoReturn

import msgspec

from sodos_plugin.errors import ModelError


class Result(Enum):
    """The outcome of a game, from the board's point of view."""

    BLACK_WINS = "B+"
    WHITE_WINS = "W+"
    JIGO = "="
    BOTH_WIN = "++"
    BOTH_LOSE = "--"
    UNKNOWN = "?"


#: Black's score in a game that rates (docs/rules.md §10.1): a win 1, a loss 0, jigo ½;
#: any other result rates nothing.
BLACK_SCORE: dict[Result, float] = {
    Result.BLACK_WINS: 1.0,
    Result.WHITE_WINS: 0.0,
    Result.JIGO: 0.5,
}

#: A result from one player's side, in words: (as Black, as White).
OUTCOMES: dict[Result, tuple[str, str]] = {
    Result.BLACK_WINS: ("win", "loss"),
    Result.WHITE_WINS: ("loss", "win"),
    Result.JIGO: ("jigo", "jigo"),
    Result.BOTH_WIN: ("both win", "both win"),
    Result.BOTH_LOSE: ("both lose", "both lose"),
    Result.UNKNOWN: ("unknown", "unknown"),
}

#: A result from one player's side as the standings show it: (as Black, as White).
SYMBOLS: dict[Result, tuple[str, str]] = {
    Result.BLACK_WINS: ("+", "-"),
    Result.WHITE_WINS: ("-", "+"),
    Result.JIGO: ("=", "="),
    Result.BOTH_WIN: ("+", "+"),
    Result.BOTH_LOSE: ("-", "-"),
    Result.UNKNOWN: ("?", "?"),
}


class Participation(Enum):
    """A player's situation in one round (docs/rules.md §1)."""

    PAIRED = "paired"
    BYE = "bye"
    ABSENT = "absent"
    NOT_ASSIGNED = "not assigned"


#: Identifier schemes readers know, in the order writers show them: scheme → what the
#: identifier is (its label in CSV and HTML). ``egd``: the European Go Database PIN (h9
#: ``|PIN``, OpenGotha ``egfPin``); ``ffg``: the French federation's licence (OpenGotha
#: ``ffgLicence``); ``aga``: the American Go Association's member id (OpenGotha
#: ``agaId``). A host may give other schemes; they are shown after these, by name.
ID_SCHEMES: dict[str, str] = {"egd": "EGD PIN", "ffg": "FFG licence", "aga": "AGA id"}


class Ids(Mapping[str, str]):
    """A player's identifiers by scheme (:data:`ID_SCHEMES`): a frozen, hashable mapping.

    ``Ids({"egd": "19713452"})``; ``Ids()`` is "none known". It compares equal to a
    dict with the same items, so ``player.ids == {"egd": "19713452"}``.
    """

    __slots__ = ("_data",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        self._data = dict(items)

    def __getitem__(self, scheme: str) -> str:
        return self._data[scheme]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"Ids({self._data!r})"


#: No identifier known (one shared object: most players have none).
NO_IDS = Ids()


def id_schemes(players: Iterable[Player]) -> list[str]:
    """The identifier schemes any of ``players`` has, known schemes first
    (:data:`ID_SCHEMES` order), then others by name: the id columns writers show."""
    found: set[str] = set()
    for player in players:
        if player.ids:
            found.update(player.ids)
    return [s for s in ID_SCHEMES if s in found] + sorted(found - set(ID_SCHEMES))


class Player(msgspec.Struct, frozen=True, gc=False):
    """A registered player.

    :param rank: OpenGotha rank integer (see :mod:`sodos_plugin.engine.ranks`), ``None`` if unknown.
    :param smms_correction: manual start-McMahon-score correction (docs/rules.md §1).
    :param start_score: an explicit start score, overriding the rank-based one; used by
        readers whose format stores the start score but not the rules (EGD h9).
    :param rating: the player's rating as the source gives it, ``None`` if unknown: an
        ``int`` when the source prints an integer (OpenGotha XML), else a ``float`` holding
        the printed decimal exactly as ``repr`` shows it (GoR ``2674.564``, OGS
        ``1465.2197``); :func:`rating_value` gives the exact value for sorting.
    :param id: the host's own identifier (JSON tournaments), echoed in JSON output.
    :param ids: the identifiers the source gives, by scheme (:data:`ID_SCHEMES`): the EGD
        PIN as ``{"egd": "19713452"}`` (h9 ``|PIN``, OpenGotha ``egfPin``), ``"ffg"`` the
        FFG licence, ``"aga"`` the AGA id; empty (:data:`NO_IDS`) when none is given.
        Readers give an :class:`Ids`; a host may give any mapping of non-empty strings.
        Not part of the player's hash (a host's dict is not hashable).
    """

    name: str
    rank: int | None = None
    rating: int | float | None = None
    club: str = ""
    country: str = ""
    smms_correction: int = 0
    start_score: Any = None  # int | Fraction | None; Any keeps the slot type simple
    id: str | None = None
    ids: Mapping[str, str] = NO_IDS

    def __hash__(self) -> int:  # every field but ids (a host's dict is not hashable)
        return hash(
            (
                self.name, self.rank, self.rating, self.club, self.country,
                self.smms_correction, self.start_score, self.id,
            )
        )  # fmt: skip


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


class Game(msgspec.Struct, frozen=True, gc=False):
    """A game of one round.

    :param by_default: a forfeit (not played over the board).
    :param colours_known: whether the source says who had Black. When ``False`` (an h9
        token without ``/w`` or ``/b``, OpenGotha ``knownColor="false"``) ``black`` and
        ``white`` are only the game's two sides in the source's order: nothing shows or
        writes a colour for it, and criteria see no colour (``Seat.colour`` is
        ``None``, docs/plugins.md). A handicap still has the sides the source gives.
    :param komi: the game's komi when the source gives one per game, else ``None``
        (the event's komi, when known, is ``Tournament.info["KM"]``).
    """

    round: int
    black: int
    white: int
    result: Result = Result.UNKNOWN
    handicap: int = 0
    by_default: bool = False
    colours_known: bool = True
    komi: float | None = None


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_day(text: str | None) -> str:
    """The day a date text starts with, as ISO ``YYYY-MM-DD`` (h9 ``2025-05-18,2025-05-21``,
    XML ``2024-05-18 10:00``), if it is a real day; else ``""`` (unknown)."""
    day = (text or "").strip()[:10]
    if not _DAY.fullmatch(day):
        return ""
    try:
        return datetime.date.fromisoformat(day).isoformat()
    except ValueError:
        return ""


class Games(tuple):
    """The games a reader built from columns (:func:`games_from_columns`): a tuple of
    :class:`Game`, which also keeps the columns the games were made of, so that the
    tournament checks the columns (C speed) instead of reading every game again."""

    columns: tuple[tuple[Any, ...], ...]  # round, black, white, handicap, result, known, komi
    #: whether the maker vouched for the columns' types (``typed=True``)
    typed: bool = False


def games_from_columns(
    rounds: Sequence[int],
    blacks: Sequence[int],
    whites: Sequence[int],
    results: Sequence[Result],
    handicaps: Sequence[int],
    by_defaults: Sequence[bool],
    colours_known: Sequence[bool] | None = None,
    komis: Sequence[float | None] | None = None,
    *,
    typed: bool = False,
) -> Games:
    """The games of equal-length columns (``Game(rounds[i], blacks[i], ...)``, the same
    objects as ``Game(...)`` makes), for a :class:`Tournament`; without
    ``colours_known`` every game's colours are known, without ``komis`` no game has its
    own komi. ``typed``: the caller vouches that every value has the type a Game field
    takes (rounds, players and handicaps ``int``, results :class:`Result`, flags
    ``bool``, komis a finite ``float`` or ``None``), as a reader whose schema decoder
    checked them does; the tournament then checks ranges only."""
    n = len(rounds)
    known = (True,) * n if colours_known is None else tuple(colours_known)
    komi = (None,) * n if komis is None else tuple(komis)
    columns = (
        *map(tuple, (rounds, blacks, whites, results, handicaps, by_defaults)),
        known,
        komi,
    )
    games = Games(map(Game, *columns))
    games.columns = (columns[0], columns[1], columns[2], columns[4], columns[3], known, komi)
    games.typed = typed
    return games


class Players(tuple):
    """The players a reader built from columns (:func:`players_from_columns`): a tuple of
    :class:`Player` that also keeps its columns, which the tournament checks (C speed)
    instead of each player."""

    columns: tuple[tuple[Any, ...], ...]  # in Player's field order
    #: whether the maker vouched for the columns' types (``typed=True``)
    typed: bool = False


def players_from_columns(
    names: Sequence[str],
    ranks: Sequence[int | None],
    ratings: Sequence[int | float | None],
    clubs: Sequence[str],
    countries: Sequence[str],
    smms_corrections: Sequence[int],
    start_scores: Sequence[Any],
    ids: Sequence[str | None],
    id_maps: Sequence[Mapping[str, str]] | None = None,
    *,
    typed: bool = False,
) -> Players:
    """The players of equal-length columns in :class:`Player`'s field order (the same
    objects as ``Player(...)`` makes), for a :class:`Tournament`; ``id_maps``: each
    player's ``ids`` (none known without it). ``typed``: the caller vouches that every
    value has the type the field takes (:func:`_check_player`; ``ids`` an :class:`Ids`
    of non-empty text), as :func:`games_from_columns`."""
    maps = (NO_IDS,) * len(names) if id_maps is None else id_maps
    columns = tuple(
        map(
            tuple,
            (names, ranks, ratings, clubs, countries, smms_corrections, start_scores, ids, maps),
        )
    )
    players = Players(map(Player, *columns))
    players.columns = columns
    players.typed = typed
    return players


@dataclass(frozen=True)
class CompatView:
    """The event as another program reads its file (docs/rules.md §7).

    :param tournament: what that program reads.
    :param defects: why it differs: defect code (``"V1"``, see
        :data:`sodos_plugin.engine.compat.DEFECTS`) → what it changes in this file.
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
        below the user's config (see :mod:`sodos_plugin.config.settings`).
    :param source: where it was read from, for messages.
    :param date: the first day of the event as ISO ``YYYY-MM-DD`` (``""`` when unknown);
        game histories (ratings) order tournaments by it.
    :param compat: the same event as another program reads the file, by ``compat``
        name (``"opengotha"``), when it reads it differently (e.g. drops games): a
        :class:`CompatView`; used by :mod:`sodos_plugin.engine.compat` only. Empty when the
        program reads the file as we do.
    :param info: what the source says about the event, under the EGD h9 header's names:
        ``TC`` (tournament code), ``CL`` (class), ``PC`` (place), ``DT`` (dates,
        ``2025-05-18,2025-05-21``), ``KM`` (komi), ``TM`` (time), ``CM`` (comment); only
        what is known. Writers (h9) print it; game histories take the class and komi
        from it.
    :param size: the board size, when the source says it (OpenGotha XML ``size``);
        ``None`` when unknown.
    :param odd_pairings: the source keeps pairings no pairing program makes: a player
        paired with himself, or given the bye and a game in one round, each scoring as
        OpenGotha scores it (docs/rules.md §6; the OpenGotha XML reader sets it). False
        (a host's or another reader's tournament): both are a :class:`ModelError`
        naming the round and the player.
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
    info: Mapping[str, str] = field(default_factory=dict)
    size: int | None = None
    # how the source reads, not a fact of the event: left out of repr and comparisons
    odd_pairings: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        where = self.source or self.name or "tournament"
        for name in ("players", "games"):  # a host's lists are taken as tuples
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
            elif not isinstance(value, tuple):
                _bad(where, name, f"expected a tuple of {name[:-1].title()}", value)
        for name in ("byes", "absences"):
            value = getattr(self, name)
            if isinstance(value, set):
                object.__setattr__(self, name, frozenset(value))
            elif not isinstance(value, frozenset):
                _bad(
                    where,
                    name,
                    "expected a frozenset of (round, player index) pairs, e.g. frozenset({(3, 0)})",
                    value,
                )
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))
        object.__setattr__(self, "compat", MappingProxyType(dict(self.compat)))
        object.__setattr__(self, "info", MappingProxyType(dict(self.info)))
        self._validate_shapes(where)
        self._validate()

    def _validate_shapes(self, where: str) -> None:
        """Types a host may get wrong, each named by its field (:class:`ModelError`).

        Cheap on the usual data: players are checked one by one (few), games by one
        integer expression per game whose ``TypeError`` sends us to :func:`_game_field`.
        """
        if not isinstance(self.name, str):
            _bad(where, "name", "expected a string", self.name)
        if type(self.rounds) is not int:
            _bad(where, "rounds", "expected an integer number of rounds", self.rounds)
        if type(self.odd_pairings) is not bool:
            _bad(where, "odd_pairings", "expected true or false", self.odd_pairings)
        if not _players_are_typed(self.players):  # else every player, to name the field
            for i, player in enumerate(self.players):
                if type(player) is not Player:
                    _bad(where, f"players[{i}]", "expected a sodos_plugin.Player", player)
                _check_player(where, i, player)
        if not _games_are_ints(self.games):  # the slow path: which field, or int subclasses
            result = Result
            try:
                for game in self.games:
                    game.round | game.black | game.white | game.handicap  # noqa: B018 - ints
                    if type(game.result) is not result or not _known_and_komi(game):
                        raise TypeError
            except (TypeError, AttributeError):
                _game_field(where, self.games)
        for name in ("byes", "absences"):
            for pair in getattr(self, name):
                if not (
                    type(pair) is tuple and len(pair) == 2 and all(type(v) is int for v in pair)
                ):
                    _bad(where, name, "expected (round, player index) pairs of integers, got "
                         "an element", pair)  # fmt: skip

    def _validate(self) -> None:
        n, rounds = len(self.players), self.rounds
        where = self.source or self.name or "tournament"
        if rounds < 0:
            raise ModelError(f"{where}: rounds: must be >= 0, got {rounds}")
        if not _games_in_range(self.games, n, rounds):
            self._first_bad_game(n, rounds, where)
        if not self.odd_pairings:
            self._refuse_odd_pairings(where)
        self._validate_free_rounds(n, rounds, where)

    def _refuse_odd_pairings(self, where: str) -> None:
        """A player paired with himself, or with the bye and a game in one round: no
        pairing program makes either (:attr:`odd_pairings`); the first, in round order,
        is named."""
        if not self.games:
            return
        round_of, blacks, whites = _columns(self.games, 3)
        if not all(map(ne, blacks, whites)):
            r, p = min((r, b) for r, b, w in zip(round_of, blacks, whites) if b == w)
            raise ModelError(
                f"{where}: round {r}: {self.players[p].name} is paired with himself "
                f"(games: players[{p}] is both black and white)"
            )
        if self.byes:
            both = self.byes & _paired(self.games)
            if both:
                r, p = min(both)
                raise ModelError(
                    f"{where}: round {r}: {self.players[p].name} has the bye and a game"
                )

    def _first_bad_game(self, n: int, rounds: int, where: str) -> None:
        """The first game out of range raises (games in document order)."""
        for game in self.games:
            r, b, w = game.round, game.black, game.white
            if not 1 <= r <= rounds:
                raise ModelError(f"{where}: games: a game in round {r} outside 1..{rounds}")
            if not (0 <= b < n and 0 <= w < n):
                raise ModelError(
                    f"{where}: games: round {r}: bad players {b} vs {w} "
                    f"(player indexes are 0..{n - 1})"
                )
            if game.handicap < 0:
                raise ModelError(f"{where}: games: round {r}: negative handicap {game.handicap}")

    def _validate_free_rounds(self, n: int, rounds: int, where: str) -> None:
        for r, p in self.byes:
            if not (1 <= r <= rounds and 0 <= p < n):
                raise ModelError(
                    f"{where}: byes: bye ({r}, {p}) out of range (rounds 1..{rounds}, "
                    f"player index 0..{n - 1})"
                )
        # (round, player) of every game's players, made only when there are absences
        paired = _paired(self.games) if self.absences else frozenset()
        for r, p in self.absences:
            if not (1 <= r <= rounds and 0 <= p < n):
                raise ModelError(
                    f"{where}: absences: absence ({r}, {p}) out of range (rounds 1..{rounds}, "
                    f"player index 0..{n - 1})"
                )
            if (r, p) in paired:
                raise ModelError(
                    f"{where}: round {r}: {self.players[p].name} is paired and has an absence"
                )
        both = self.byes & self.absences
        if both:
            r, p = min(both)
            raise ModelError(f"{where}: round {r}: {self.players[p].name} has a bye and is absent")

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


_ROUND, _BLACK, _WHITE, _HANDICAP, _RESULT, _KNOWN, _KOMI = map(
    attrgetter, ("round", "black", "white", "handicap", "result", "colours_known", "komi")
)
_NONE = type(None)


_FIELDS = (_ROUND, _BLACK, _WHITE, _HANDICAP, _RESULT, _KNOWN, _KOMI)


def _columns(games: tuple[Game, ...], count: int = len(_FIELDS)) -> tuple[Sequence[Any], ...]:
    """The first ``count`` of (round, black, white, handicap, result, colours_known,
    komi) of every game, as columns: those a reader built the games from
    (:class:`Games`), else read from the games (C-speed ``map``)."""
    if type(games) is Games:
        return games.columns[:count]
    return tuple(list(map(field_of, games)) for field_of in _FIELDS[:count])


def _games_are_ints(games: tuple[Game, ...]) -> bool:
    """Whether every game's round, players and handicap are ``int``, its result a
    Result, its colours flag a ``bool`` and its komi ``None`` or a finite number,
    checked column by column at C speed (False: the caller's slow check), or vouched for
    by their maker (:func:`games_from_columns`)."""
    if type(games) is Games and games.typed:
        return True
    try:
        *numbers, results, known, komis = _columns(games)
    except AttributeError:
        return False
    for column in numbers:
        if not set(map(type, column)) <= {int}:
            return False
    if not set(map(type, known)) <= {bool}:
        return False
    komis = set(komis)
    if not set(map(type, komis)) <= {_NONE, float, int} or not all(
        k is None or math.isfinite(k) for k in komis
    ):
        return False
    return set(map(type, results)) <= {Result}


def _games_in_range(games: tuple[Game, ...], n: int, rounds: int) -> bool:
    """Whether every game is in range (rounds 1..R, players 0..n-1, handicap >= 0),
    checked column by column (False: :meth:`Tournament._first_bad_game` names it)."""
    if not games:
        return True
    round_of, blacks, whites, handicaps = _columns(games, 4)
    return (
        min(round_of) >= 1
        and max(round_of) <= rounds
        and min(blacks) >= 0
        and max(blacks) < n
        and min(whites) >= 0
        and max(whites) < n
        and min(handicaps) >= 0
    )


def _paired(games: tuple[Game, ...]) -> set[tuple[int, int]]:
    """(round, player) of every game's players."""
    round_of, blacks, whites = _columns(games, 3)
    paired = set(zip(round_of, blacks))
    paired.update(zip(round_of, whites))
    return paired


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bad(where: str, field_name: str, expected: str, value: Any) -> NoReturn:
    raise ModelError(
        f"{where}: {field_name}: {expected}, got {type(value).__name__} {_shown(value)}"
    )


_NONE_TYPE = type(None)


def _players_are_typed(players: tuple[Player, ...]) -> bool:
    """Whether players a reader built from columns (:class:`Players`) have the types
    :func:`_check_player` wants, checked column by column at C speed (False: ask each),
    or vouched for by their maker (:func:`players_from_columns`)."""
    if type(players) is not Players:
        return False
    if players.typed:
        return True
    names, ranks, ratings, clubs, countries, corrections, starts, _, id_maps = players.columns
    return (
        all(ids is NO_IDS or (type(ids) is Ids and _ids_are_text(ids)) for ids in id_maps)
        and set(map(type, names)) <= {str}
        and set(map(type, ranks)) <= {int, _NONE_TYPE}
        and set(map(type, ratings)) <= {int, float, _NONE_TYPE}
        and not any(map(ne, ratings, ratings))  # NaN
        and set(map(type, clubs)) <= {str}
        and set(map(type, countries)) <= {str}
        and set(map(type, corrections)) <= {int}
        and set(map(type, starts)) <= {int, Fraction, _NONE_TYPE}
    )


def _ids_are_text(ids: Mapping[str, str]) -> bool:
    """Whether every scheme and identifier of ``ids`` is a non-empty string."""
    return all(type(k) is str and type(v) is str and k and v.strip() for k, v in ids.items())


def _check_player(where: str, i: int, player: Player) -> None:
    field_name = f"players[{i}]"
    if not isinstance(player.name, str):
        _bad(where, f"{field_name}.name", "expected a string", player.name)
    rank = player.rank
    if rank is not None and type(rank) is not int:
        hint = "an integer rank (30k = -30, 1d = 0, 9d = 8) or None; sodos_plugin.engine.ranks"
        _bad(where, f"{field_name}.rank", f"expected {hint}.parse_rank('3d') == 2", rank)
    rating = player.rating
    if rating is not None and (type(rating) not in (int, float) or rating != rating):
        _bad(where, f"{field_name}.rating", "expected an int, a float or None", rating)
    for name in ("club", "country"):
        if not isinstance(getattr(player, name), str):
            _bad(where, f"{field_name}.{name}", "expected a string", getattr(player, name))
    if type(player.smms_correction) is not int:
        _bad(where, f"{field_name}.smms_correction", "expected an integer", player.smms_correction)
    start = player.start_score
    if start is not None and type(start) not in (int, Fraction):
        _bad(where, f"{field_name}.start_score", "expected an int, a Fraction or None", start)
    ids = player.ids
    if ids is not NO_IDS and not (isinstance(ids, Mapping) and _ids_are_text(ids)):
        _bad(
            where,
            f"{field_name}.ids",
            "expected a mapping of scheme to identifier, both non-empty strings, e.g. "
            '{"egd": "19713452"}',
            ids,
        )


def _known_and_komi(game: Game) -> bool:
    """Whether a game's ``colours_known`` is a bool and its ``komi`` None or finite."""
    komi = game.komi
    return type(game.colours_known) is bool and (
        komi is None or (type(komi) in (int, float) and math.isfinite(komi))
    )


def _game_field(where: str, games: tuple[Game, ...]) -> NoReturn:
    """Name the first game field of the wrong type (the slow path of the check)."""
    for i, game in enumerate(games):
        if type(game) is not Game:
            _bad(where, f"games[{i}]", "expected a sodos_plugin.Game", game)
        for name in ("round", "black", "white", "handicap"):
            value = getattr(game, name)
            if type(value) is not int:
                what = (
                    "a round number"
                    if name == "round"
                    else ("a handicap" if name == "handicap" else "a player index")
                )
                _bad(where, f"games[{i}].{name}", f"expected {what} (an integer)", value)
        if type(game.result) is not Result:
            _bad(where, f"games[{i}].result", "expected a sodos_plugin.Result", game.result)
        if type(game.colours_known) is not bool:
            _bad(where, f"games[{i}].colours_known", "expected True or False", game.colours_known)
        if not _known_and_komi(game):
            _bad(where, f"games[{i}].komi", "expected a finite number or None", game.komi)
    raise ModelError(f"{where}: games: unexpected data")  # pragma: no cover
