"""CPS — cup score (docs/rules.md §5; OpenGotha CPS).

Designed for cup tournaments: a game won in an earlier round weighs more than all the
games won in the rounds after it. After round R, round k's game points count
× 2^(R−k) (win 1, jigo ½, both-win 1: NBW's game points, docs/rules.md §1); bye and
absence points are added as in NBW, once, not doubled. Three wins: 4 + 2 + 1 = 7.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha CPS, Tournament.fillBaseScoringInfo; OpenGotha help)"


def compute(ctx: Context) -> Breakdown:
    scores, n, rounds = ctx.scores, ctx.size, ctx.round
    games_rows, extra_rows, weights, rows = [], [], [], []
    games_before = [0] * n
    extra_before = [0] * n
    for r in range(rounds):
        games_now = scores.games_nbw[r]
        # bye/absence points so far: NBW minus game points (round-down applied)
        extra_now = [t - g for t, g in zip(scores.nbw[r], games_now)]
        games = [a - b for a, b in zip(games_now, games_before)]
        extra = [a - b for a, b in zip(extra_now, extra_before)]
        weight = 1 << (rounds - 1 - r)
        rows.append([g * weight + e for g, e in zip(games, extra)])
        games_rows.append(games)
        extra_rows.append(extra)
        weights.append((weight,) * n)
        games_before, extra_before = list(games_now), extra_now
    unit = scores.unit
    return Breakdown(
        denominator=unit,
        contributions=rows,
        details={
            "game points": RoundTable(unit, games_rows),
            "weight": RoundTable(1, weights),
            "bye or absence points": RoundTable(unit, extra_rows),
        },
    )


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "CPS",
            "cup score: round k's points count 2^(R-k); byes and absences as in NBW",
            compute,
            SOURCE,
        )
    ]
