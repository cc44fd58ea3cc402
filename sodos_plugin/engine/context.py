"""What a criterion's ``compute(ctx)`` receives: the tournament, settings and scores.

A :class:`Context` is built once per standings computation. It is read-only for
criteria, except :meth:`Context.memo`, a shared cache so that criteria built on the
same tables (SOS, SOSOS, SODOS...) compute them once.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from sodos_hookspecs import Breakdown

from sodos_plugin.engine.model import OUTCOMES, Participation, Tournament
from sodos_plugin.engine.scores import PARTICIPATION, Pairings, Scores

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's round as a criterion author reads it: ``ctx.seats(r)``.

    :ivar round: the round number, 1..R.
    :ivar player: the player's index in ``ctx.tournament.players``.
    :ivar opponent: the opponent's index, or ``None`` when the player has no game
        (bye, absent, not assigned) — the tables' ``-1``.
    :ivar participation: :class:`~sodos_plugin.engine.model.Participation` (PAIRED, BYE, ABSENT,
        NOT_ASSIGNED).
    :ivar outcome: ``"win"``, ``"loss"``, ``"jigo"``, ``"both win"``, ``"both lose"``,
        ``"unknown"`` (no result yet), or ``None`` without a game.
    :ivar points: what the game gave the player, exactly: ``1``, ``1/2`` or ``0``
        (a both-win gives 1; bye and absence points are in ``ctx.scores``, not here).
    :ivar colour: ``"B"`` or ``"W"``; ``None`` without a game, and when the source does
        not say who had Black (``Game.colours_known`` is ``False``: an h9 token ``12+``).
        An unknown colour is neither Black nor White (docs/rules.md §12).
    :ivar handicap: the game's handicap stones (0 without a game), unsigned.
    :ivar by_default: the game was decided by default (a forfeit), not played.
    """

    round: int
    player: int
    opponent: int | None
    participation: Participation
    outcome: str | None
    points: Fraction
    colour: str | None
    handicap: int
    by_default: bool

    @property
    def played(self) -> bool:
        """The player has a game this round (by default or not)."""
        return self.opponent is not None

    @property
    def won(self) -> bool:
        """A win, a both-win or a win by default."""
        return self.outcome in ("win", "both win")


class Context:
    """Everything a criterion may read.

    :ivar tournament: the :class:`~sodos_plugin.engine.model.Tournament`.
    :ivar settings: the run's :class:`~sodos_plugin.config.settings.Settings`.
    :ivar round: R, the round after which standings are computed.
    :ivar pairings: per-round tables (opponent, points, handicap, participation).
    :ivar scores: NBW/MMS after each round (:class:`~sodos_plugin.engine.scores.Scores`).
    :ivar preceding: for criteria that work inside ties (DC, SDC): each player's tuple
        of the values of the criteria listed before this one; ``None`` otherwise.
    """

    def __init__(
        self,
        tournament: Tournament,
        settings: Settings,
        round_number: int,
        evaluate: Callable[[str, Context], Breakdown] | None = None,
    ):
        self.tournament = tournament
        self.settings = settings
        self.round = round_number
        self.pairings = Pairings(tournament, round_number)
        self.scores = Scores(tournament, settings, self.pairings)
        self.preceding: Sequence[tuple] | None = None
        self._memo: dict[Any, Any] = {}
        self._evaluate = evaluate
        self._form: str | None = None

    @property
    def size(self) -> int:
        """Number of players."""
        return len(self.tournament.players)

    @property
    def form(self) -> str:
        """``"M"`` in a McMahon, ``"W"`` in a Swiss — or the form a criterion is asked in:
        a plugin's bare ``SODOS`` standing in for SODOSW sees ``"W"`` (docs/plugins.md)."""
        return self._form or self.settings.form

    def in_form(self, form: str) -> Context:
        """This context seen in the W or M form (same tables, a memo of its own)."""
        if form not in ("W", "M"):
            raise ValueError(f"form must be 'W' or 'M', got {form!r}")
        view = copy.copy(self)
        view._form = form
        view._memo = {}
        return view

    def memo(self, key: Any, build: Callable[[], T]) -> T:
        """Compute ``build()`` once per context under ``key`` and share the result."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def numerators(self, breakdown: Breakdown) -> list[int]:
        """``breakdown.numerators()``, computed once per breakdown object in this context
        (SOS's column and SOSOS's input are the same sums; SODOS and SODOMS in a McMahon
        are the same breakdown). The memo keeps the breakdown, so its id is not reused."""
        key = ("numerators", id(breakdown))
        if key not in self._memo:
            self._memo[key] = (breakdown, breakdown.numerators())
        return self._memo[key][1]

    # -- the per-game view and exact helpers (docs/plugins.md) ------------------------

    def seats(self, round_number: int) -> tuple[Seat, ...]:
        """Every player's :class:`Seat` in round ``round_number`` (1..R), by player index."""
        if not 1 <= round_number <= self.round:
            raise ValueError(f"round {round_number} outside 1..{self.round}")
        return self.memo(("seats", round_number), lambda: self._seats(round_number))

    def _seats(self, round_number: int) -> tuple[Seat, ...]:
        r = round_number - 1
        pairings = self.pairings
        colour: dict[int, str | None] = {}
        result: dict[int, str] = {}
        for game in self.tournament.games:  # the game listed last counts, as in Pairings
            if game.round == round_number:
                black, white = OUTCOMES[game.result]
                known = game.colours_known
                colour[game.black], result[game.black] = "B" if known else None, black
                colour[game.white], result[game.white] = "W" if known else None, white
        half = Fraction(1, 2)
        seats = []
        for p in range(self.size):
            o = pairings.opponent[r][p]
            played = o >= 0
            seats.append(
                Seat(
                    round=round_number,
                    player=p,
                    opponent=o if played else None,
                    participation=PARTICIPATION[pairings.state[r][p]],
                    outcome=result.get(p) if played else None,
                    points=pairings.half_points[r][p] * half if played else Fraction(0),
                    colour=colour.get(p) if played else None,
                    handicap=abs(pairings.handicap[r][p]) if played else 0,
                    by_default=played and p in pairings.by_default[r],
                )
            )
        return tuple(seats)

    def final_scores(self, form: str | None = None) -> tuple[Fraction, ...]:
        """Each player's score after round R as an exact number: NBW in the W form, MMS
        in the M form (default: ``ctx.form``). The tables in ``ctx.scores`` hold the same
        values as integers over ``ctx.scores.unit``."""
        form = form or self.form
        unit = self.scores.unit
        return self.memo(
            ("final-scores", form),
            lambda: tuple(Fraction(v, unit) for v in self.scores.final(form)),
        )

    def breakdown(self, rows: Sequence[Sequence[Fraction | int]], **options: Any) -> Breakdown:
        """A per-round :class:`~sodos_hookspecs.Breakdown` from exact values: ``rows[r][p]``
        for rounds 1..R (``Fraction`` or ``int``); the common denominator is found for you.
        ``options`` go to ``Breakdown`` (``drop_lowest``, ``details``)."""
        denominator, scaled = _common([v for row in rows for v in row])
        size = self.size
        table = [scaled[i * size : (i + 1) * size] for i in range(len(rows))]
        return Breakdown(denominator=denominator, contributions=table, **options)

    def totals(self, values: Sequence[Fraction | int], **options: Any) -> Breakdown:
        """A :class:`~sodos_hookspecs.Breakdown` of one exact value per player."""
        denominator, scaled = _common(list(values))
        return Breakdown(denominator=denominator, totals=scaled, **options)

    def criterion(self, name: str) -> Breakdown:
        """The breakdown of another registered criterion, computed once per context."""
        if self._evaluate is None:
            raise LookupError("this context has no criteria registry")
        evaluate = self._evaluate
        return self.memo(("criterion", name), lambda: evaluate(name, self))


def _common(values: list[Fraction | int]) -> tuple[int, list[int]]:
    """The least common denominator of exact values, and each value over it."""
    if any(isinstance(v, float) for v in values):
        raise TypeError("criteria are exact: give Fraction or int values, not float")
    fractions = [Fraction(v) for v in values]
    denominator = math.lcm(1, *(f.denominator for f in fractions))
    return denominator, [int(f * denominator) for f in fractions]
