"""EXR — exploits achieved (docs/rules.md §3; OpenGotha EXR, "exploits réussis").

EXT counted over games won only (by default and both-win included).
"""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.criteria._exploits import exploits

SOURCE = "docs/rules.md §3 (OpenGotha Tournament.fillBaseScoringInfo, EXR)"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "EXR", "exploits achieved: EXT over games won", lambda ctx: exploits(ctx, True), SOURCE
        )
    ]
