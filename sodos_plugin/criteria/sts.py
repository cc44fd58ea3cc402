"""STS — Strasbourg score (docs/rules.md §5; OpenGotha STS).

For a McMahon whose top group plays a single-elimination bracket in the last rounds
(quarter-finals in round N−2, semi-finals in N−1, final in N; N = the number of rounds
scheduled, not the round of the standings): STS is MMS plus a bonus. The top group's
score after round k is the bar's start score plus k (``mcmahon.bar``; 1d starts at 30
with zero 30k). A player whose MMS after round N−2 is exactly that score gains 2
points after rounds N−2, N−1 and N; one whose MMS after round N−1 is exactly the top
score after N−1 gains 2 more after rounds N−1 and N. The test is on the MMS value, as
OpenGotha makes it: a start-score correction of +k reaches it with k points fewer.
Rounds before 1 (N ≤ 2) test nothing.
"""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, RoundTable, hookimpl

from sodos_plugin.engine.context import Context
from sodos_plugin.errors import ConfigError

SOURCE = "docs/rules.md §5 (OpenGotha STS, Tournament.fillBaseScoringInfo; OpenGotha help)"

#: Bonus points of a win in the quarter- or semi-final.
BONUS = 2


def bonus_rows(ctx: Context) -> list[list[int]]:
    """Per round 1..R, each player's STS bonus after that round, over ``ctx.scores.unit``."""

    def build() -> list[list[int]]:
        settings, scores = ctx.settings, ctx.scores
        if settings.mcmahon.bar is None:
            raise ConfigError(
                "STS needs a McMahon bar: its top group starts at the bar (set mcmahon.bar)",
                where="mcmahon.bar",
            )
        point = scores.unit * scores.scale
        top_start = (settings.mcmahon.bar - settings.mcmahon.zero) * point
        last = ctx.tournament.rounds
        rows = [[0] * ctx.size for _ in range(ctx.round)]
        for k in (last - 2, last - 1):
            if not 1 <= k <= ctx.round:
                continue
            target = top_start + k * point
            winners = [p for p, value in enumerate(scores.mms[k - 1]) if value == target]
            for r in range(k - 1, ctx.round):
                row = rows[r]
                for p in winners:
                    row[p] += BONUS * point
        return rows

    return ctx.memo("sts bonus", build)


def compute(ctx: Context) -> Breakdown:
    scores = ctx.scores
    bonus = bonus_rows(ctx)
    final_bonus = bonus[-1] if bonus else [0] * ctx.size
    return Breakdown(
        denominator=scores.unit,
        totals=[m + b for m, b in zip(scores.final_mms, final_bonus)],
        details={
            "score after round": RoundTable(scores.unit, scores.mms),
            "bonus": RoundTable(scores.unit, bonus),
        },
    )


def final_bonus(ctx: Context) -> list[int]:
    """Each player's bonus after round R (0 before round 1)."""
    rows = bonus_rows(ctx)
    return list(rows[-1]) if rows else [0] * ctx.size


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "STS",
            "Strasbourg score: MMS + 2 per quarter- or semi-final won by the top group",
            compute,
            SOURCE,
        )
    ]
