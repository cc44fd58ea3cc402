"""Per-round helpers shared by the conventions (numbers over ``ctx.scores.unit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


def start(ctx: Context, form: str) -> list[int]:
    """Score before round 1: the start MMS in the M form, 0 in the W form."""
    return list(ctx.scores.start_mms) if form == "M" else [0] * ctx.size


def gained(ctx: Context, form: str, round_index: int, player: int) -> int:
    """What round ``round_index + 1`` added to ``player``'s score (after round-down)."""
    rows = ctx.scores.after(form)
    before = rows[round_index - 1][player] if round_index else start(ctx, form)[player]
    return rows[round_index][player] - before
