"""A criterion that scribbles on the shared tables of the context (tests only)."""

import contextlib

from sodos_hookspecs import Breakdown, Criterion, hookimpl


def mutate(ctx):
    for table in (ctx.scores.final_nbw, ctx.pairings.opponent[0]):
        with contextlib.suppress(TypeError):  # immutable: nothing to corrupt
            table[0] = table[0] + 7 if table[0] >= 0 else table[0]
    return Breakdown(denominator=1, totals=[0] * ctx.size)


@hookimpl
def sodos_criteria():
    return [Criterion("F-MUTATES", "writes into ctx tables", mutate)]
