"""RANK — the player's rank (docs/rules.md §5; OpenGotha Rank).

The rank as an integer on OpenGotha's scale: 30k = −30 … 1k = −1, 1d = 0 … 9d = 8
(docs/rules.md §1); a stronger rank is better. It does not depend on the round.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.criteria._needs import every_player_has
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha Rank: 30K = -30 ... 9D = 8)"


def compute(ctx: Context) -> Breakdown:
    players = ctx.tournament.players
    every_player_has(ctx, "rank", "RANK")
    return Breakdown(denominator=1, totals=[p.rank for p in players])


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("RANK", "rank (30k = -30 ... 1d = 0 ... 9d = 8)", compute, SOURCE)]
