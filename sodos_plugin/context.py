"""What a criterion's ``compute(ctx)`` receives: the tournament, settings and scores.

A :class:`Context` is built once per standings computation. It is read-only for
criteria, except :meth:`Context.memo`, a shared cache so that criteria built on the
same tables (SOS, SOSOS, SODOS...) compute them once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sodos_plugin.model import Tournament
from sodos_plugin.scores import Pairings, Scores
from sodos_plugin.settings import Settings

if TYPE_CHECKING:
    from sodos_hookspecs import Breakdown

T = TypeVar("T")


class Context:
    """Everything a criterion may read.

    :ivar tournament: the :class:`~sodos_plugin.model.Tournament`.
    :ivar settings: the run's :class:`~sodos_plugin.settings.Settings`.
    :ivar round: R, the round after which standings are computed.
    :ivar pairings: per-round tables (opponent, points, handicap, participation).
    :ivar scores: NBW/MMS after each round (:class:`~sodos_plugin.scores.Scores`).
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

    def criterion(self, name: str) -> Breakdown:
        """The breakdown of another registered criterion, computed once per context."""
        if self._evaluate is None:
            raise LookupError("this context has no criteria registry")
        evaluate = self._evaluate
        return self.memo(("criterion", name), lambda: evaluate(name, self))
