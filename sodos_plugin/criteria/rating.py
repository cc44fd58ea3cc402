"""RATING — the player's rating (docs/rules.md §5; OpenGotha Rating).

The rating the input gives (OpenGotha: an integer, −900 … 2949 on its scale, EGF GoR
as it is); higher is better. It does not depend on the round. A rating that is not a
whole number is kept exact (its decimal digits), never rounded.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.criteria._needs import every_player_has
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha Rating)"


def exact(rating: object) -> Fraction:
    """A rating as an exact fraction: a float by its shortest decimal text (1500.5)."""
    if isinstance(rating, float):
        return Fraction(repr(rating))
    return Fraction(rating)  # type: ignore[arg-type]


def compute(ctx: Context) -> Breakdown:
    players = ctx.tournament.players
    every_player_has(ctx, "rating", "RATING")
    if all(type(p.rating) is int for p in players):
        return Breakdown(denominator=1, totals=[p.rating for p in players])
    values = [exact(p.rating) for p in players]
    denominator = math.lcm(*(v.denominator for v in values))
    return Breakdown(denominator=denominator, totals=[int(v * denominator) for v in values])


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("RATING", "rating (as the input gives it)", compute, SOURCE)]
