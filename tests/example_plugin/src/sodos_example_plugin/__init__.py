"""An example third-party plugin, installed as a real distribution by CI.

* ``SODOS`` (replaces the built-in): sum of defeated opponents' *wins* (NBW) in every
  system, jigo counting half — Sensei's Library's "sum of defeated opponents' wins".
* ``WINS-VS-TOP``: number of wins against players who finished in the top half by NBW.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl


def defeated_wins(ctx) -> Breakdown:
    final = list(ctx.scores.final_nbw) + [0]
    rows = []
    for r in range(ctx.round):
        opponents = ctx.pairings.opponent[r]
        halves = ctx.pairings.half_points[r]
        rows.append([final[o] * h for o, h in zip(opponents, halves)])
    return Breakdown(denominator=ctx.scores.unit * 2, contributions=rows)


def wins_vs_top(ctx) -> Breakdown:
    final = ctx.scores.final_nbw
    cut = sorted(final, reverse=True)[max(0, len(final) // 2 - 1)] if final else 0
    rows = []
    for r in range(ctx.round):
        opponents = ctx.pairings.opponent[r]
        halves = ctx.pairings.half_points[r]
        rows.append(
            [1 if o >= 0 and h == 2 and final[o] >= cut else 0 for o, h in zip(opponents, halves)]
        )
    return Breakdown(denominator=1, contributions=rows)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion("SODOS", "sum of defeated opponents' wins (example plugin)", defeated_wins),
        Criterion("WINS-VS-TOP", "wins against the top half (example plugin)", wins_vs_top),
    ]
