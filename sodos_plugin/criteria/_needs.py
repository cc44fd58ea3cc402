"""What a criterion needs from every player: a missing value is an error naming who,
never a guessed value (docs/rules.md §1)."""

from __future__ import annotations

from sodos_plugin.engine.context import Context
from sodos_plugin.errors import InputError


def every_player_has(ctx: Context, field: str, criterion: str) -> None:
    """Raise an InputError naming the players whose ``field`` (rank, rating) is unknown."""
    missing = [p.name for p in ctx.tournament.players if getattr(p, field) is None]
    if missing:
        raise InputError(
            f"{criterion} needs every player's {field}; unknown for {', '.join(missing[:5])}",
            source=ctx.tournament.source or ctx.tournament.name,
        )
