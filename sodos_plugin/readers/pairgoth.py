"""pairgoth tournament reader plugin (``builtin.pairgoth``; docs/rules.md §13).

pairgoth, the French Federation's pairing program, keeps each tournament as one JSON
file, ``NNNNNN-<short name>.tour``. Its model (pairgoth ``model/Tournament.kt``,
``Pairable.kt``, ``Game.kt``, ``Pairing.kt``, ``Placement.kt``) is read as follows:

* players: ``name`` and ``firstname`` (the name is ``"name firstname"``, as OpenGotha
  writes it), ``rank`` (pairgoth's integer: 1D = 0, 1K = −1, sodos's own), ``rating``,
  ``country``, ``club``, the ids ``egf`` (as ``egd``, the EGD PIN), ``ffg``, ``aga``,
  ``ext``, ``mmsCorrection`` (the start-score correction) and ``skip`` (rounds the
  player does not play: absent when he has no game there);
* ``games``: one list per round; each game ``w``, ``b`` (player ids), ``h``
  (handicap) and ``r``: ``b``/``w`` (that colour wins), ``=`` jigo, ``?`` unknown,
  ``#`` both win, ``0`` both lose, ``X`` cancelled (no game: left out, said). A game
  against player ``0`` is the bye of the other;
* settings: ``pairing.type`` (``MAC_MAHON`` → mcmahon, ``SWISS`` → swiss), ``mmBar``,
  ``mmFloor`` (rank integers), ``placement`` (pairgoth's criterion names:
  ``SOSWM1`` is SOSW-1, ``SOSMM2`` SOSM-2, ``CATEGORY`` CAT, ``NONE`` nothing),
  ``main.mmsValueAbsent`` and ``main.roundDownScore`` (scoring of absent rounds),
  ``handicap.correction`` (the handicap reduction); ``komi``, ``gobanSize``,
  ``startDate``/``endDate``, ``location``/``country`` and the name as the event's
  information.

Older files (the 2018 layout) lack the tournament's ``id``, the players' ``final``
and ``skip`` and the ids; a member absent takes pairgoth's own default. What sodos
has no use for (``final``, ``pro``, ``dd`` draw-ups, tables, pairing weights, the
time system, rules) is named in one note; a criterion sodos does not have
(``SCOREX``) is left out, with a note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_hookspecs import Reader, hookimpl

if TYPE_CHECKING:
    from sodos_hookspecs import ReadResult

NAME = "pairgoth"


def claims(path: Path, head: bytes) -> bool:
    """``.tour`` files, and JSON whose first bytes hold pairgoth's members."""
    if path.is_dir():
        return False
    if path.suffix.lower() == ".tour":
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith(b"{") and b'"gobanSize"' in head and b'"shortName"' in head


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    from sodos_plugin.readers.pairgoth_file import read as read_tournament

    return read_tournament(paths, options)


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader(NAME, "pairgoth tournament file (.tour)", claims, read)]
