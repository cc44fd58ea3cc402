"""Virtual opponent = the player himself (docs/rules.md §4; WAGC 2015, KPMC 2009).

A round without an opponent adds to SOS the player's own final score *minus what
that round gave him* (the bye point for a bye; a round-down may make an absence
give 0), and to SOSOS the player's own SOS. Opponents' scores are the real ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sodos_plugin.engine.conventions._rounds import gained
from sodos_plugin.engine.conventions.base import Convention, register

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


class SelfOpponent(Convention):
    name = "self"
    description = "virtual opponent is the player himself: own score minus the round's points"

    def sos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        return ctx.scores.final(form)[player] - gained(ctx, form, round_index, player)

    def sosos_virtual(
        self, ctx: Context, form: str, round_index: int, player: int, sos: Sequence[int]
    ) -> int:
        return sos[player]


register(SelfOpponent())
