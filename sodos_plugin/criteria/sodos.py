"""SODOS — sum of defeated opponents' scores (docs/rules.md §2; OpenGotha SODOSW/SODOSM).

Per round: the opponent value used by SOS (score after round R, with the M-form
handicap correction) times 1 for a win (by default included, both-win included),
½ for a jigo, 0 otherwise. Rounds without a game add nothing. Sensei's Library:
"A draw against another player will see half their score added."
"""

from __future__ import annotations

from operator import mul

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine import conventions, opponents
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §2 (Sensei's Library SODOS; OpenGotha SODOSW/SODOSM, verified)"


def compute(ctx: Context, form: str) -> Breakdown:
    """SODOS in the W or M form, once per context (SODOMS and a McMahon's SODOS share it)."""
    return ctx.memo(("sodos", form), lambda: _compute(ctx, form))


def _compute(ctx: Context, form: str) -> Breakdown:
    base = opponents.opponent_values(ctx, form)
    contributions = base.contributions or []
    half_points = ctx.pairings.half_points
    # result factor in halves (2 win, 1 jigo): the denominator doubles.
    rows = [list(map(mul, values, halves)) for values, halves in zip(contributions, half_points)]
    details = dict(base.details)
    # A round without a game adds nothing to SODOS (its virtual SOS value is not used),
    # unless the convention scores it as a game (AGA: a forced bye beats the phantom).
    details.pop("virtual opponent", None)
    convention = conventions.get(ctx.settings.unplayed.virtual_opponent)
    for r, row in enumerate(rows):
        for p in ctx.pairings.unpaired[r]:
            row[p] = convention.sodos_virtual(ctx, form, r, p)
    details["result factor"] = RoundTable(2, half_points)
    return Breakdown(denominator=base.denominator * 2, contributions=rows, details=details)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms("SODOS{}", "sum of defeated opponents' scores", SOURCE, compute)
