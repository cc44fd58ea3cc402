"""The convention protocol (:class:`Convention`, the EGF default) and the registry of
named conventions (:func:`register`, :func:`get`); see the package documentation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sodos_plugin.errors import ConfigError

if TYPE_CHECKING:
    from sodos_plugin.engine.context import Context


class Convention:
    """The EGF/OpenGotha default (docs/rules.md §4, EGF Tournament System Rules).

    "To a player's SOS, SOS-1 or SOS-2 in a round without an opponent or with the
    opponent Bye, in a McMahon his own start McMahon score is added and in a Swiss
    0 is added." SOSOS adds the virtual opponent's SOS: 0 (W) or smms × R (M).
    """

    name = "egf"
    description = "EGF/OpenGotha: virtual opponent scores 0 (W) or own start MMS (M)"

    def opponent_scores(self, ctx: Context, form: str) -> Sequence[int]:
        return ctx.scores.final(form)

    def sos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        return ctx.scores.start_mms[player] if form == "M" else 0

    def sosos_virtual(
        self, ctx: Context, form: str, round_index: int, player: int, sos: Sequence[int]
    ) -> int:
        return ctx.scores.start_mms[player] * ctx.round if form == "M" else 0

    def sodos_virtual(self, ctx: Context, form: str, round_index: int, player: int) -> int:
        """What a round without a game adds to SODOS, over ``2 × unit`` (value × result
        in half points). EGF/OpenGotha: nothing."""
        return 0


CONVENTIONS: dict[str, Convention] = {"egf": Convention()}


def register(convention: Convention) -> None:
    """Make a convention selectable by its ``name``."""
    CONVENTIONS[convention.name] = convention


def get(name: str) -> Convention:
    """The convention called ``name``; a ConfigError lists the known ones."""
    try:
        return CONVENTIONS[name]
    except KeyError:
        known = ", ".join(sorted(CONVENTIONS))
        raise ConfigError(
            f"unplayed.virtual_opponent: unknown convention {name!r} (known: {known})"
        ) from None
