"""Scores: each player's NBW and MMS after every round, in one place (docs/rules.md §1).

Criteria read these tables; they never recompute scores. The tables are tuples:
every criterion (of any plugin) shares them, so none can change what another reads.
Everything is an integer numerator over :attr:`Scores.unit` (2 by default, so a
jigo's half point is exact; larger when config gives bye or absence values in quarters).

Rules (OpenGotha, verified on real files — docs/rules.md §1):

* a game gives 1 for a win (by default or not), ½ for a jigo, 1 each for both-win,
  0 for a loss, both-lose or an unknown result;
* a bye gives ``scoring.bye`` (NBW) / ``scoring.bye_mms`` (MMS); an absent round gives
  ``scoring.absent_nbw`` / ``scoring.absent_mms``; a round not assigned gives 0;
* with ``scoring.round_down`` the *running total* of bye/absence points is floored to a
  whole point after every round (jigo halves are never rounded);
* start MMS: ``clamp(rank, floor, bar) − zero + correction`` (zero rank 30k by default),
  or the player's explicit ``start_score`` when the reader had one;
* ``scoring.doubled`` multiplies every score by 2 (win 2, jigo 1, bye 2, start MMS
  doubled), as some events print them (docs/rules.md §1); tiebreaks follow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from operator import add
from typing import TYPE_CHECKING

from sodos_plugin.engine.model import Game, Participation, Result, Tournament
from sodos_plugin.errors import InputError

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings

#: Points of (black, white) in half points, per result (OpenGotha's getWX2).
HALF_POINTS: dict[Result, tuple[int, int]] = {
    Result.BLACK_WINS: (2, 0),
    Result.WHITE_WINS: (0, 2),
    Result.JIGO: (1, 1),
    Result.BOTH_WIN: (2, 2),
    Result.BOTH_LOSE: (0, 0),
    Result.UNKNOWN: (0, 0),
}

_HALF_POINTS_BY_VALUE = {result._value_: points for result, points in HALF_POINTS.items()}


def positions(values: list, wanted: object) -> list[int]:
    """Indexes of ``wanted`` in ``values``: list.index scans at C speed, which beats a
    comprehension when matches are few (players without a game, tied neighbours)."""
    found: list[int] = []
    index = values.index
    i = -1
    try:
        while True:
            i = index(wanted, i + 1)
            found.append(i)
    except ValueError:
        return found


#: one value per player (read-only), and one such row per round
Row = tuple[int, ...]
Table = tuple[Row, ...]

PAIRED, BYE, ABSENT, NOT_ASSIGNED = 0, 1, 2, 3
PARTICIPATION = (
    Participation.PAIRED,
    Participation.BYE,
    Participation.ABSENT,
    Participation.NOT_ASSIGNED,
)


class Pairings:
    """Per-round tables for rounds 1..R, built in one pass over the games.

    ``opponent[r][p]`` is the opponent whose values count for p's own SOS-type
    criteria, or −1 when p has no game *or has the bye* in that round (a bye player who
    also has a game treats the round as unpaired, docs/rules.md §6); ``half_points[r][p]``
    that game's points for p in halves (2 win, 1 jigo, 0 otherwise); ``handicap[r][p]``
    is +h when p was White and −h when Black (the M-form SOS correction, docs/rules.md
    §2); ``by_default[r]`` holds the players whose counted game was by default.
    ``state[r][p]`` is PAIRED, BYE, ABSENT or NOT_ASSIGNED; ``unpaired[r]`` lists the
    players whose state is not PAIRED (their opponent is −1).

    ``game_points[r][p]`` is what p's games of round r add to his scores, in halves:
    every game counts. It is ``half_points[r]`` itself unless someone has two games in
    the round or plays himself (docs/rules.md §6). Then the game listed *last* in
    ``tournament.games`` is the one that counts for ``opponent``, ``half_points``,
    ``handicap`` and ``by_default``; a player who plays himself is his own opponent,
    read as White (his result and handicap are White's), and scores both sides' points.
    """

    def __init__(self, tournament: Tournament, rounds: int):
        n = len(tournament.players)
        self.size = n
        self.rounds = rounds
        # Hot path (100k players x 10 rounds): one tight loop per game. The result is
        # looked up by its value string: an Enum member's hash runs Python code.
        by_round: list[list[Game]] = [[] for _ in range(rounds)]
        for game in tournament.games:
            if game.round <= rounds:
                by_round[game.round - 1].append(game)
        byes_by_round: list[list[int]] = [[] for _ in range(rounds)]
        for r, p in tournament.byes:
            if r <= rounds:
                byes_by_round[r - 1].append(p)
        opponents: list[list[int]] = []
        halves: list[list[int]] = []
        handicaps: list[list[int]] = []
        points_rows: list[Sequence[int]] = []
        states: list[list[int]] = []
        forfeited: list[set[int]] = []
        unpaired_rows: list[list[int]] = []
        points = _HALF_POINTS_BY_VALUE
        for r in range(rounds):
            games = by_round[r]
            opponent = [-1] * n
            half = [0] * n
            handicap = [0] * n
            forfeits: set[int] = set()
            for game in games:
                b, w = game.black, game.white
                opponent[b] = w
                opponent[w] = b
                half[b], half[w] = points[game.result._value_]
                h = game.handicap
                if h:
                    handicap[w] = h
                    handicap[b] = -h
                if game.by_default:
                    forfeits.add(b)
                    forfeits.add(w)
            unpaired = positions(opponent, -1)
            game_points: Sequence[int] = half
            # Every game pairs two new players, unless someone has two games or plays
            # himself: one comparison per round keeps the usual case on the fast path.
            if n - len(unpaired) != 2 * len(games):
                opponent, half, handicap, forfeits, game_points = _round_with_repeats(n, games)
            bye_players = byes_by_round[r]
            for p in bye_players:
                opponent[p] = -1  # the bye wins: his own round is unpaired
            if bye_players:
                unpaired = positions(opponent, -1)
                for p in bye_players:
                    forfeits.discard(p)
            elif game_points is not half:
                unpaired = positions(opponent, -1)
            state = [PAIRED] * n
            for p in unpaired:
                state[p] = NOT_ASSIGNED
            opponents.append(opponent)
            halves.append(half)
            handicaps.append(handicap)
            points_rows.append(game_points)
            states.append(state)
            forfeited.append(forfeits)
            unpaired_rows.append(unpaired)
        for r, p in tournament.absences:
            if r <= rounds:
                states[r - 1][p] = ABSENT
        for r, p in tournament.byes:
            if r <= rounds:
                states[r - 1][p] = BYE
        # Read-only from here on: criteria of any plugin share these tables, so they are
        # tuples — a criterion cannot change what the criteria after it read.
        self.opponent: Table = tuple(map(tuple, opponents))
        self.half_points: Table = tuple(map(tuple, halves))
        self.game_points: Table = tuple(
            self.half_points[r] if row is halves[r] else tuple(row)
            for r, row in enumerate(points_rows)
        )
        self.handicap: Table = tuple(map(tuple, handicaps))
        self.state: Table = tuple(map(tuple, states))
        self.by_default: tuple[frozenset[int], ...] = tuple(map(frozenset, forfeited))
        self.unpaired: Table = tuple(map(tuple, unpaired_rows))

    def participation(self, round_index: int, player: int) -> Participation:
        """Participation of ``player`` in round ``round_index + 1``."""
        return PARTICIPATION[self.state[round_index][player]]


def _round_with_repeats(n: int, games: Sequence[Game]):
    """One round's tables when a player has two games or plays himself (slow path).

    Games are taken in order: a later game of a player overrides what an earlier one
    set for his own values; ``game_points`` adds up every game.
    """
    opponent = [-1] * n
    half = [0] * n
    handicap = [0] * n
    game_points = [0] * n
    forfeits: set[int] = set()
    points = _HALF_POINTS_BY_VALUE
    for game in games:
        b, w = game.black, game.white
        black_points, white_points = points[game.result._value_]
        h = game.handicap
        sides = (
            ((w, b, white_points, h),)
            if b == w
            else ((b, w, black_points, -h), (w, b, white_points, h))
        )
        for p, q, got, signed in sides:
            opponent[p] = q
            half[p] = got
            handicap[p] = signed
            if game.by_default:
                forfeits.add(p)
            else:
                forfeits.discard(p)
        game_points[b] += black_points
        game_points[w] += white_points
    return opponent, half, handicap, forfeits, game_points


class Scores:
    """NBW and MMS of every player after every round 1..R.

    ``nbw[r][p]`` / ``mms[r][p]``: score after round r+1, over :attr:`unit`.
    ``final_nbw`` / ``final_mms``: after round R (start values when R = 0).
    """

    def __init__(self, tournament: Tournament, settings: Settings, pairings: Pairings):
        self._tournament = tournament
        self._settings = settings
        values = [
            settings.scoring.bye,
            settings.scoring.bye_mms,
            settings.scoring.absent_nbw,
            settings.scoring.absent_mms,
            Fraction(1, 2),
        ]
        values += [Fraction(p.start_score) for p in tournament.players if p.start_score is not None]
        self.unit = math.lcm(*(v.denominator for v in values))
        n = len(tournament.players)
        unit = self.unit
        # scoring.doubled: every point counts 2 (win 2, jigo 1, bye 2, start MMS ×2).
        self.scale = 2 if settings.scoring.doubled else 1
        half_unit = unit // 2 * self.scale
        self._start: Row | None = None
        # bye/absence values as integers over unit (exact: unit is the lcm of their
        # denominators); running totals stay integers, floored to a whole point
        # (a multiple of unit) by round_down.
        extras = {
            BYE: (_units(settings.scoring.bye, unit), _units(settings.scoring.bye_mms, unit)),
            ABSENT: (
                _units(settings.scoring.absent_nbw, unit),
                _units(settings.scoring.absent_mms, unit),
            ),
        }
        game_points = [0] * n
        extra_nbw: dict[int, int] = {}
        extra_mms: dict[int, int] = {}
        games_nbw: list[Row] = []  # game points only, cumulative
        nbw: list[Row] = []
        self._extra_mms_rows: list[dict[int, int]] = []
        round_down = settings.scoring.round_down
        scale = self.scale
        for r in range(pairings.rounds):
            half = pairings.game_points[r]
            if half_unit == 1:
                game_points = list(map(add, game_points, half))
            else:
                game_points = [g + h * half_unit for g, h in zip(game_points, half)]
            games_nbw.append(tuple(game_points))
            state = pairings.state[r]
            for p in pairings.unpaired[r]:
                kind = state[p]
                if kind in extras:
                    nbw_value, mms_value = extras[kind]
                    extra_nbw[p] = extra_nbw.get(p, 0) + nbw_value
                    extra_mms[p] = extra_mms.get(p, 0) + mms_value
            row = list(game_points)
            if round_down:
                for p, extra in extra_nbw.items():
                    row[p] += (extra - extra % unit) * scale
                mms_row = {p: (e - e % unit) * scale for p, e in extra_mms.items()}
            else:
                for p, extra in extra_nbw.items():
                    row[p] += extra * scale
                mms_row = {p: e * scale for p, e in extra_mms.items()}
            nbw.append(tuple(row))
            self._extra_mms_rows.append(mms_row)
        # read-only tables (tuples), as in Pairings
        self.games_nbw: Table = tuple(games_nbw)
        self.nbw: Table = tuple(nbw)
        self.final_nbw: Row = self.nbw[-1] if self.nbw else (0,) * n
        self._mms: Table | None = None

    @property
    def start_mms(self) -> Row:
        """Start McMahon score of every player over :attr:`unit` (docs/rules.md §1)."""
        if self._start is None:
            starts = start_scores(self._tournament, self._settings, self.unit)
            self._start = tuple(s * self.scale for s in starts)
        return self._start

    @property
    def mms(self) -> Table:
        """MMS after each round; computed on first use (Swiss standings never need it)."""
        if self._mms is None:
            start = self.start_mms
            rows = []
            for games, extra in zip(self.games_nbw, self._extra_mms_rows):
                row = list(map(add, start, games))
                for p, e in extra.items():
                    row[p] += e
                rows.append(tuple(row))
            self._mms = tuple(rows)
        return self._mms

    @property
    def final_mms(self) -> Row:
        rows = self.mms
        return rows[-1] if rows else self.start_mms

    def final(self, form: str) -> Row:
        """Final scores in the W (NBW) or M (MMS) form."""
        return self.final_mms if form == "M" else self.final_nbw

    def after(self, form: str) -> Table:
        """Per-round score tables in the W or M form."""
        return self.mms if form == "M" else self.nbw


def _units(points: Fraction, unit: int) -> int:
    """``points`` as an integer over ``unit``; ``floor`` of it over ``unit`` is
    ``x - x % unit`` (Python's ``%`` floors, so negative values round down too)."""
    scaled = points * unit
    if scaled.denominator != 1:  # pragma: no cover - unit is the lcm of all denominators
        raise ArithmeticError(f"{points} is not a multiple of 1/{unit}")
    return int(scaled)


def start_scores(tournament: Tournament, settings: Settings, unit: int) -> list[int]:
    """``clamp(rank, floor, bar) − zero + correction`` for every player, over ``unit``.

    :raises InputError: naming the players whose rank is unknown, since a guessed
        start score would change the standings.
    """
    bar, floor, zero = settings.mcmahon.bar, settings.mcmahon.floor, settings.mcmahon.zero
    result = []
    missing = []
    for player in tournament.players:
        if player.start_score is not None:
            result.append(int(Fraction(player.start_score) * unit))
            continue
        rank = player.rank
        if rank is None:
            missing.append(player.name)
            result.append(0)
            continue
        if bar is not None and rank > bar:
            rank = bar
        if floor is not None and rank < floor:
            rank = floor
        result.append((rank - zero + player.smms_correction) * unit)
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise InputError(
            f"McMahon scores need a rank for every player; unknown rank for {shown}",
            source=tournament.source or tournament.name,
        )
    return result
