"""The opponent tables of the SOS family, computed once per context: one place per rule.

:func:`opponent_values` is docs/rules.md §2's per-round SOS contribution: the
opponent's score after round R (+h as White / −h as Black in the M form when
``handicap.sos_correction`` is on), or the convention's virtual-opponent value for a
round without a game. SOS, SOS-1, SOS-2, SODOS and SOSOS are all built on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import add, mul

from sodos_hookspecs import Breakdown, Criterion, RoundTable

from sodos_plugin.engine import conventions
from sodos_plugin.engine.context import Context

FORMS = ("W", "M")


def opponent_values(ctx: Context, form: str) -> Breakdown:
    """Per-round SOS contributions in the W or M form, with their parts for explain."""

    def build() -> Breakdown:
        convention = conventions.get(ctx.settings.unplayed.virtual_opponent)
        return opponent_table(ctx, form, convention.opponent_scores(ctx, form))

    return ctx.memo(("opponent-values", form), build)


def opponent_table(
    ctx: Context, form: str, opponent_scores: Sequence[int], label: str = "opponent score"
) -> Breakdown:
    """The SOS rule on any per-player score (over ``ctx.scores.unit``): per round, the
    opponent's ``opponent_scores`` value, + h as White / − h as Black in the M form with
    ``handicap.sos_correction``; a round without a game adds the convention's virtual
    opponent. SOS uses the convention's scores; SOSTS (docs/rules.md §5) opponents' STS."""
    convention = conventions.get(ctx.settings.unplayed.virtual_opponent)
    unit = ctx.scores.unit
    scores = list(opponent_scores)
    scores.append(0)  # opponent index -1 (no game) reads this sentinel
    correct = form == "M" and ctx.settings.handicap.sos_correction
    rows, opponent_rows, correction_rows, virtual_rows = [], [], [], []
    zeros = (0,) * ctx.size  # shared, immutable: rounds without any correction
    for r in range(ctx.round):
        opp_row = [scores[o] for o in ctx.pairings.opponent[r]]
        handicaps = ctx.pairings.handicap[r]
        if correct and any(handicaps):
            corr_row = list(map(mul, handicaps, repeat(unit, ctx.size)))
            row = list(map(add, opp_row, corr_row))
        else:
            corr_row = zeros
            row = list(opp_row)
        virtual_row = [0] * ctx.size
        for p in ctx.pairings.unpaired[r]:
            value = convention.sos_virtual(ctx, form, r, p)
            virtual_row[p] = value
            row[p] = value
        rows.append(row)
        opponent_rows.append(opp_row)
        correction_rows.append(corr_row)
        virtual_rows.append(virtual_row)
    return Breakdown(
        denominator=unit,
        contributions=rows,
        details={
            label: RoundTable(unit, opponent_rows),
            "handicap correction": RoundTable(unit, correction_rows),
            "virtual opponent": RoundTable(unit, virtual_rows),
        },
    )


def sos(ctx: Context, form: str) -> Breakdown:
    return opponent_values(ctx, form)


def sos_cut(ctx: Context, form: str, drop: int) -> Breakdown:
    """SOS minus the ``drop`` lowest per-round values, virtual values included."""
    base = opponent_values(ctx, form)
    return Breakdown(
        denominator=base.denominator,
        contributions=base.contributions,
        drop_lowest=drop,
        details=base.details,
    )


def sos_totals(ctx: Context, form: str) -> list[int]:
    """Each player's SOS numerators (shared by SOSOS)."""
    return ctx.numerators(opponent_values(ctx, form))


def forms(
    name: str,
    description: str,
    source: str,
    compute: Callable[[Context, str], Breakdown],
    *,
    generic: str | None = None,
) -> list[Criterion]:
    """The W form, the M form and the generic (system's form) criterion of one rule.

    ``name`` holds ``{}`` where the form letter goes (``"SOS{}"`` → SOSW, SOSM, SOS).
    """
    made = [
        Criterion(
            name=name.format(form),
            description=f"{description} ({'NBW' if form == 'W' else 'MMS'} form)",
            compute=lambda ctx, form=form: compute(ctx, form),
            source=source,
        )
        for form in FORMS
    ]
    made.append(
        Criterion(
            name=generic or name.format(""),
            description=f"{description} (W form in a Swiss, M form in a McMahon)",
            compute=lambda ctx: compute(ctx, ctx.form),
            source=source,
        )
    )
    return made
