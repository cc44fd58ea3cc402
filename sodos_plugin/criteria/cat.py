"""CAT — category (docs/rules.md §5; OpenGotha CAT, Player.category).

``categories.lower_limits`` gives the lowest rank of categories 1, 2, …, n−1 (n − 1
limits for n categories; none: one category). A player is in the first category, in
the order given (not sorted), whose lower limit his rank reaches, else in the last one.
The value is the category number, 1 first: lower is better, so CAT as a first
criterion ranks category 1 above category 2 whatever the scores.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.criteria._needs import every_player_has
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha CAT, Player.category; OpenGotha help, Placement settings)"


def category(rank: int, limits: tuple[int, ...]) -> int:
    """The category number (1 = first) of ``rank`` under ``limits``."""
    for number, limit in enumerate(limits, 1):
        if rank >= limit:
            return number
    return len(limits) + 1


def compute(ctx: Context) -> Breakdown:
    limits = ctx.settings.categories.lower_limits
    players = ctx.tournament.players
    if not limits:
        return Breakdown(denominator=1, totals=[1] * ctx.size)
    every_player_has(ctx, "rank", "CAT")
    numbers = [category(p.rank, limits) for p in players]
    lowest = [limits[c - 1] if c <= len(limits) else min(-30, *limits) for c in numbers]
    ranks = [p.rank for p in players]
    return Breakdown(
        denominator=1,
        totals=numbers,
        details={
            "rank": RoundTable(1, [ranks] * ctx.round),
            "category's lower limit": RoundTable(1, [lowest] * ctx.round),
        },
    )


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "CAT",
            "category by rank (1 = first), from categories.lower_limits",
            compute,
            SOURCE,
            higher_is_better=False,
        )
    ]
