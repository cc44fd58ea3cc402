"""Byes as games against a dummy "bye" player (docs/rules.md §4; WAGC 2018/2019, KPMC 2013).

The pairing bye is a game against a dummy who scores 0: the bye round adds 0 to
SOS (both forms), and to SOSOS the dummy's SOS — the sum of the final scores of
everyone who received the bye, one term per bye given up to round R (a player with
two byes counts twice). Rounds without a game that are not byes (absent, not
assigned) follow the EGF rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sodos_plugin.engine.conventions.base import Convention, register
from sodos_plugin.engine.scores import BYE

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


class Dummy(Convention):
    name = "dummy"
    description = "byes are games against a dummy scoring 0; its SOS = scores of bye receivers"

    def sos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        if ctx.pairings.state[round_index][player] == BYE:
            return 0
        return super().sos_virtual(ctx, form, round_index, player)

    def sosos_virtual(
        self, ctx: Context, form: str, round_index: int, player: int, sos: Sequence[int]
    ) -> int:
        if ctx.pairings.state[round_index][player] == BYE:
            return ctx.memo(("dummy sos", form), lambda: self._dummy_sos(ctx, form))
        return super().sosos_virtual(ctx, form, round_index, player, sos)

    @staticmethod
    def _dummy_sos(ctx: Context, form: str) -> int:
        final = ctx.scores.final(form)
        state = ctx.pairings.state
        return sum(
            final[p] for r in range(ctx.round) for p in range(ctx.size) if state[r][p] == BYE
        )


register(Dummy())
