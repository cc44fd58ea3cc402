"""An example third-party plugin, a real distribution with an entry point. The tests
install it with ``pip install --target`` into a temporary folder (never for good: it
changes SODOS for every run that sees it).

* ``SODOS`` (replaces the built-in, and as a bare family name SODOSW, SODOSM and SODOMS
  too): sum of defeated opponents' *wins* (NBW) in every system, jigo counting half —
  Sensei's Library's "sum of defeated opponents' wins".
* ``WINS-VS-TOP``: number of wins against players who finished in the top half by NBW.

Both use the per-game view (``ctx.seats``) and exact values, as docs/plugins.md shows.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl


def defeated_wins(ctx) -> Breakdown:
    wins = ctx.final_scores("W")  # NBW whatever the form asked
    rows = [
        [wins[s.opponent] * s.points if s.played else 0 for s in ctx.seats(r)]
        for r in range(1, ctx.round + 1)
    ]
    return ctx.breakdown(rows)


def wins_vs_top(ctx) -> Breakdown:
    wins = ctx.final_scores("W")
    cut = sorted(wins, reverse=True)[max(0, len(wins) // 2 - 1)] if wins else 0
    rows = [
        [1 if s.won and wins[s.opponent] >= cut else 0 for s in ctx.seats(r)]
        for r in range(1, ctx.round + 1)
    ]
    return ctx.breakdown(rows)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion("SODOS", "sum of defeated opponents' wins (example plugin)", defeated_wins),
        Criterion("WINS-VS-TOP", "wins against the top half (example plugin)", wins_vs_top),
    ]
