"""EXT — exploits attempted (docs/rules.md §3; OpenGotha EXT, "exploits tentés").

Σ over games of the opponent's NBW × the exploit weight of the handicap actually
given against the rank difference (see :mod:`sodos_plugin.criteria._exploits`).
"""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.criteria._exploits import exploits

SOURCE = "docs/rules.md §3 (OpenGotha Tournament.fillBaseScoringInfo, EXT)"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "EXT",
            "exploits attempted: opponents' NBW weighted by handicap",
            lambda ctx: exploits(ctx, False),
            SOURCE,
        )
    ]
