"""SOS-1 — SOS without the lowest per-round value (docs/rules.md §2; EGF rules).

The dropped value may be a virtual-opponent value. With one round played the value
is 0 (the only round is dropped), as in OpenGotha.
"""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.engine import opponents

SOURCE = "docs/rules.md §2 (OpenGotha SOSWM1/SOSMM1); EGF Tournament System Rules"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms(
        "SOS{}-1", "SOS minus the lowest round", SOURCE, lambda ctx, f: opponents.sos_cut(ctx, f, 1)
    )
