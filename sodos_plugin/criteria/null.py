"""NULL — no tie break (docs/rules.md §5; OpenGotha NULL, "No tie break").

0 for every player: it never separates two players. An OpenGotha file whose placement
criteria are all NULL ranks every player equal; the XML reader gives it this list.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha NULL: no tie break)"


def compute(ctx: Context) -> Breakdown:
    return Breakdown(denominator=1, totals=[0] * ctx.size)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("NULL", "no tie break: 0 for every player", compute, SOURCE)]
