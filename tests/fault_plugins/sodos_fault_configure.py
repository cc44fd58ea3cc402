"""A plugin whose sodos_configure rejects its section (tests only)."""

from sodos_hookspecs import Breakdown, Criterion, hookimpl


@hookimpl
def sodos_configure(config):
    if config.get("level") != "ok":
        raise ValueError(f"level: expected 'ok', got {config.get('level')!r}")


@hookimpl
def sodos_criteria():
    return [Criterion("F-CONF", "ok", lambda ctx: Breakdown(1, totals=[0] * ctx.size))]
