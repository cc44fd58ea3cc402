"""OpenGotha's "virtual SOS" (``genCountNotPlayedGamesAsHalfPoint``, OpenGotha ≥ 3.45).

docs/rules.md §4: as an *opponent*, a player's score is recomputed with ½ point for
every round whose game was not played over the board — absent, bye, not assigned,
unknown result or a by-default result — instead of the points really scored
(bye and absence values and round-down do not apply to this virtual score). In the
M form the virtual score starts from the start MMS. A player's own rounds without
an opponent still add what the EGF rule adds (0 in W, own start MMS in M; SOSOS:
0 or start MMS × R), exactly as OpenGotha's Tournament.fillBaseScoringInfo does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sodos_plugin.conventions import Convention, register
from sodos_plugin.conventions._rounds import start
from sodos_plugin.model import Result

if TYPE_CHECKING:
    from sodos_plugin.context import Context


class HalfPoint(Convention):
    name = "half-point"
    description = "OpenGotha virtual SOS: opponents count ½ for every round not played"

    def opponent_scores(self, ctx: Context, form: str) -> Sequence[int]:
        return ctx.memo(("half-point scores", form), lambda: self._scores(ctx, form))

    def _scores(self, ctx: Context, form: str) -> list[int]:
        unit = ctx.scores.unit
        scale = getattr(ctx.scores, "scale", 1)
        unknown = {
            (g.round - 1, p)
            for g in ctx.tournament.games
            if g.result is Result.UNKNOWN and g.round <= ctx.round
            for p in (g.black, g.white)
        }
        scores = start(ctx, form)
        pairings = ctx.pairings
        for r in range(ctx.round):
            opponents = pairings.opponent[r]
            halves = pairings.half_points[r]
            forfeits = pairings.by_default[r]
            for p in range(ctx.size):
                played = opponents[p] >= 0 and p not in forfeits and (r, p) not in unknown
                points = halves[p] if played else 1  # in half points
                scores[p] += points * (unit // 2) * scale
        return scores


register(HalfPoint())
