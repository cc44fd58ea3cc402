"""A plugin whose criteria are fine but whose readers hook raises (tests only)."""

from sodos_hookspecs import Breakdown, Criterion, hookimpl


@hookimpl
def sodos_criteria():
    return [
        Criterion(
            "SODOS",
            "a replacement that must not survive",
            lambda ctx: Breakdown(1, totals=[0] * ctx.size),
        )
    ]


@hookimpl
def sodos_readers():
    raise RuntimeError("readers hook exploded")
