"""The AGA phantom (docs/rules.md §4; AGA tournament regulations).

A round without an opponent is a game against a phantom who started at the
player's start score (start MMS in the M form, 0 in the W form) and won half his
games: it adds ``start + R/2`` to SOS. As an opponent, a player's voluntary byes
(absent rounds) and double forfeits (both lose by default) count ½ point each
instead of the points really given. In SODOS (SODOMS) a forced bye (the pairing bye)
is a win against the phantom and adds its score; a voluntary bye (absent) is a loss
and adds nothing. SOSOS (not an AGA criterion) adds the EGF value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sodos_plugin.engine.conventions._rounds import gained, start
from sodos_plugin.engine.conventions.base import Convention, register
from sodos_plugin.engine.model import Result
from sodos_plugin.engine.scores import ABSENT, BYE

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


class Aga(Convention):
    name = "aga"
    description = "AGA phantom: start score + half the rounds; voluntary byes credit ½"

    def opponent_scores(self, ctx: Context, form: str) -> Sequence[int]:
        return ctx.memo(("aga scores", form), lambda: self._scores(ctx, form))

    def _scores(self, ctx: Context, form: str) -> list[int]:
        half = ctx.scores.unit // 2 * getattr(ctx.scores, "scale", 1)
        scores = list(ctx.scores.final(form))
        double_forfeits = {
            (g.round - 1, p)
            for g in ctx.tournament.games
            if g.by_default and g.result is Result.BOTH_LOSE and g.round <= ctx.round
            for p in (g.black, g.white)
        }
        for r in range(ctx.round):
            for p in range(ctx.size):
                if ctx.pairings.state[r][p] == ABSENT or (r, p) in double_forfeits:
                    scores[p] += half - gained(ctx, form, r, p)
        return scores

    def sos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        half = ctx.scores.unit // 2 * getattr(ctx.scores, "scale", 1)
        return start(ctx, form)[player] + half * ctx.round

    def sodos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        if ctx.pairings.state[round_index][player] != BYE:
            return 0
        return 2 * self.sos_virtual(ctx, form, round_index, player)  # a win: factor 2 halves


register(Aga())
