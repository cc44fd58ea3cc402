"""SOSOS — sum of opponents' SOS (docs/rules.md §2; OpenGotha SOSOSW/SOSOSM).

Per round with a game: the opponent's SOS (same form, after round R). A round
without a game adds the virtual opponent's SOS of the configured convention
(EGF/OpenGotha: 0 in W, own start MMS × R in M).
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine import conventions, opponents
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §2 (OpenGotha SOSOSW/SOSOSM, verified)"


def compute(ctx: Context, form: str) -> Breakdown:
    convention = conventions.get(ctx.settings.unplayed.virtual_opponent)
    sos = opponents.sos_totals(ctx, form)
    lookup = list(sos) + [0]  # index -1 (no game) reads 0
    rows, virtual_rows = [], []
    for r in range(ctx.round):
        row = [lookup[o] for o in ctx.pairings.opponent[r]]
        virtual = [0] * ctx.size
        for p in ctx.pairings.unpaired[r]:
            virtual[p] = row[p] = convention.sosos_virtual(ctx, form, r, p, sos)
        rows.append(row)
        virtual_rows.append(virtual)
    unit = ctx.scores.unit
    return Breakdown(
        denominator=unit,
        contributions=rows,
        details={"virtual opponent": RoundTable(unit, virtual_rows)},
    )


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms("SOSOS{}", "sum of opponents' SOS", SOURCE, compute)
