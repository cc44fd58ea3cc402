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

from sodos_plugin.engine.conventions import aga, dummy, half_point, self_opponent
from sodos_plugin.engine.conventions.base import CONVENTIONS, Convention, get, register

__all__ = ["CONVENTIONS", "Convention", "get", "register"]
# The named conventions of docs/rules.md §4 register themselves on import (above).
_REGISTERED = (aga, dummy, half_point, self_opponent)
