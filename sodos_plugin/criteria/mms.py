"""MMS — McMahon score (docs/rules.md §1; OpenGotha MMS).

Start MMS ``clamp(rank, floor, bar) − zero + correction`` plus NBW-style game points,
plus ``scoring.bye_mms`` per bye and ``scoring.absent_mms`` per absent round
(running total floored with ``scoring.round_down``). Computed by
:mod:`sodos_plugin.engine.scores`.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §1 (OpenGotha MMS); EGF Tournament System Rules"


def compute(ctx: Context) -> Breakdown:
    scores = ctx.scores
    return Breakdown(
        denominator=scores.unit,
        totals=scores.final_mms,
        details={"score after round": RoundTable(scores.unit, scores.mms)},
    )


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("MMS", "McMahon score", compute, SOURCE)]
