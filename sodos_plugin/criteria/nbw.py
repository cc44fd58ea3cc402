"""NBW — number of wins (docs/rules.md §1; OpenGotha NBW).

Win 1 (by default or not), jigo ½, both-win 1, both-lose/unknown 0; a bye adds
``scoring.bye``, an absent round ``scoring.absent_nbw``, with ``scoring.round_down``
flooring the running total of those. Computed by :mod:`sodos_plugin.engine.scores`.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §1 (OpenGotha NBW); EGF Tournament System Rules"


def compute(ctx: Context) -> Breakdown:
    scores = ctx.scores
    return Breakdown(
        denominator=scores.unit,
        totals=scores.final_nbw,
        details={"score after round": RoundTable(scores.unit, scores.nbw)},
    )


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("NBW", "number of wins (Swiss score)", compute, SOURCE)]
