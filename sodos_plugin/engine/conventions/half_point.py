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

from sodos_plugin.engine.conventions._rounds import start
from sodos_plugin.engine.conventions.base import Convention, register
from sodos_plugin.engine.model import Result
from sodos_plugin.engine.scores import HALF_POINTS

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


class HalfPoint(Convention):
    name = "half-point"
    description = "OpenGotha virtual SOS: opponents count ½ for every round not played"

    def opponent_scores(self, ctx: Context, form: str) -> Sequence[int]:
        return ctx.memo(("half-point scores", form), lambda: self._scores(ctx, form))

    def _scores(self, ctx: Context, form: str) -> list[int]:
        # From the games themselves, as OpenGotha's fillBaseScoringInfo does: every game
        # played over the board gives its points (both games of a player with two in a
        # round); a round whose counted game (listed last) is missing, unplayed or by
        # default gives ½ — also to a bye player who has a game (docs/rules.md §6).
        half = ctx.scores.unit // 2 * getattr(ctx.scores, "scale", 1)
        points = [0] * ctx.size
        counted: dict[tuple[int, int], bool] = {}
        for g in ctx.tournament.games:
            if g.round > ctx.round:
                continue
            played = not g.by_default and g.result is not Result.UNKNOWN
            if played:
                black, white = HALF_POINTS[g.result]
                points[g.black] += black
                points[g.white] += white
            counted[(g.round, g.black)] = played
            counted[(g.round, g.white)] = played
        unplayed = [ctx.round] * ctx.size
        for (_, p), played in counted.items():
            unplayed[p] -= played
        scores = start(ctx, form)
        return [s + (g + u) * half for s, g, u in zip(scores, points, unplayed)]


register(HalfPoint())
