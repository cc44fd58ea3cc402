"""SOSTS — sum of opponents' Strasbourg scores (docs/rules.md §5; OpenGotha SOSTS).

SOSM's rule (docs/rules.md §2) on the opponents' STS instead of their MMS: per round,
the opponent's STS after round R, + h as White / − h as Black with
``handicap.sos_correction``; a round without a game adds the virtual opponent (EGF: own
start score). As an opponent, a player counts his STS under the convention's score:
with OpenGotha's virtual SOS (``half-point``), his virtual MMS plus his STS bonus.
"""

from __future__ import annotations

from operator import add

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.criteria import sts
from sodos_plugin.engine import conventions, opponents
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §5 (OpenGotha SOSTS, Tournament.fillBaseScoringInfo)"


def opponent_sts(ctx: Context) -> list[int]:
    """Each player's STS as an opponent: the convention's M-form score + his bonus."""
    convention = conventions.get(ctx.settings.unplayed.virtual_opponent)
    return list(map(add, convention.opponent_scores(ctx, "M"), sts.final_bonus(ctx)))


def compute(ctx: Context) -> Breakdown:
    return opponents.opponent_table(ctx, "M", opponent_sts(ctx), label="opponent STS")


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [Criterion("SOSTS", "sum of opponents' Strasbourg scores (STS)", compute, SOURCE)]
