"""Conventions for rounds without an opponent: small named strategies chosen by config.

``unplayed.virtual_opponent`` picks one. Criteria of the SOS family ask the convention
three questions and never branch on its name:

* :meth:`Convention.opponent_scores`: the score of each player *as an opponent*
  (normally the real score after round R; OpenGotha's "virtual SOS" changes it);
* :meth:`Convention.sos_virtual`: what a round without an opponent adds to SOS;
* :meth:`Convention.sosos_virtual`: what such a round adds to SOSOS;
* :meth:`Convention.sodos_virtual`: what such a round adds to SODOS (normally nothing).

All numbers are over ``ctx.scores.unit``. Register a new convention with
:func:`register`; each one cites its rule (docs/rules.md §4).
"""

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


# The other named conventions of docs/rules.md §4 register themselves on import.
from sodos_plugin.engine.conventions import aga, dummy, half_point, self_opponent  # noqa: E402, F401
