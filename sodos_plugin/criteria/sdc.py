"""SDC — simplified direct confrontation (docs/rules.md §3; OpenGotha SDC).

Inside each group of players tied on the criteria before it (see
:mod:`sodos_plugin.criteria._confrontation`): if every two of them met and their
results against each other do not cancel out, SDC counts the group members a player
beat (net result per pair); otherwise, and outside groups, SDC is 0.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.criteria._confrontation import groups, pair_results
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §3 (OpenGotha Tournament.defineDirForExAequoGroup, SDC)"


def compute(ctx: Context) -> Breakdown:
    totals = [0] * ctx.size
    for members in groups(ctx):
        net = pair_results(ctx, members)
        n = len(members)
        decided = [pair for pair, value in net.items() if value != 0]
        if len(decided) == n * (n - 1):  # every two met, and not evenly
            for i, _ in decided:
                if net[(i, _)] > 0:
                    totals[members[i]] += 1
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
