"""SOS — sum of opponents' scores (docs/rules.md §2; EGF rules; OpenGotha SOSW/SOSM).

Per round: the opponent's score after round R (NBW in the W form, MMS in the M form);
in the M form with ``handicap.sos_correction``, + h when I was White and − h when I
was Black. A round without a game adds the virtual opponent of the configured
convention (EGF: 0 in W, own start MMS in M).
"""

from __future__ import annotations

from sodos_hookspecs import Criterion, hookimpl

from sodos_plugin.engine import opponents

SOURCE = "docs/rules.md §2 (OpenGotha SOSW/SOSM, verified); EGF Tournament System Rules"


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return opponents.forms("SOS{}", "sum of opponents' scores", SOURCE, opponents.sos)
