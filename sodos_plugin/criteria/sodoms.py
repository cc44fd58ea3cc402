"""SODOMS — SODOS on McMahon scores, i.e. SODOSM in every system (docs/rules.md §2).

Sensei's Library: "If SODOS is used in McMahon tournaments, it is sometimes called
SODOMS"; it must not be used with negative start McMahon scores (a warning says so).
"""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.criteria import sodos

SOURCE = "docs/rules.md §2 (Sensei's Library SODOS: SODOMS = SODOSM)"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "SODOMS",
            "sum of defeated opponents' McMahon scores (= SODOSM)",
            lambda ctx: sodos.compute(ctx, "M"),
            SOURCE,
        )
    ]
