"""CUSS — cumulative sum of scores (docs/rules.md §2; OpenGotha CUSSW/CUSSM).

Σ over rounds 1..R of the player's own score after that round: early wins count
more than late ones. The EGF does not recommend it.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.engine import opponents
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §2 (OpenGotha CUSSW/CUSSM)"


def compute(ctx: Context, form: str) -> Breakdown:
    return Breakdown(denominator=ctx.scores.unit, contributions=ctx.scores.after(form))


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms("CUSS{}", "cumulative sum of scores", SOURCE, compute)
