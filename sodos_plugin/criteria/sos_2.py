"""SOS-2 — SOS without the two lowest per-round values (docs/rules.md §2; EGF rules)."""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.engine import opponents

SOURCE = "docs/rules.md §2 (OpenGotha SOSWM2/SOSMM2); EGF Tournament System Rules"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms(
        "SOS{}-2",
        "SOS minus the two lowest rounds",
        SOURCE,
        lambda ctx, f: opponents.sos_cut(ctx, f, 2),
    )
