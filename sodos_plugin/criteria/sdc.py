"""SDC — simplified direct confrontation (REFERENCE.md §3; OpenGotha SDC).

Inside each group of players tied on the criteria before it (see
:mod:`sodos_plugin.criteria._confrontation`): if every two of them met and their
results against each other do not cancel out, SDC counts the group members a player
beat (net result per pair); otherwise, and outside groups, SDC is 0.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.context import Context
from sodos_plugin.criteria._confrontation import groups, pair_matrix

SOURCE = "REFERENCE.md §3 (OpenGotha Tournament.defineDirForExAequoGroup, SDC)"


def compute(ctx: Context) -> Breakdown:
    totals = [0] * ctx.size
    for members in groups(ctx):
        pair = pair_matrix(ctx, members)
        n = len(members)
        if all(pair[i][j] != 0 for i in range(n) for j in range(n) if i != j):
            for i, p in enumerate(members):
                totals[p] = sum(1 for j in range(n) if pair[i][j] > 0)
    return Breakdown(denominator=1, totals=totals)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "SDC",
            "simplified direct confrontation: wins inside a tie where all met",
            compute,
            SOURCE,
            uses_ties=True,
        )
    ]
