"""What the readers of dated games share (SGF archives, games tables): the day a game
was played, the events its name and dates make, each player's first rank, and why a
game is not rated (docs/rules.md §10.1).

Contract:

* :func:`first_day` gives the first full date of a text as ISO ``YYYY-MM-DD``, or
  None: year, month and day with one separator (``-``, ``.`` or ``/``), month and day
  of one or two digits, then anything but a digit — a time (``2017.06.21 19:43``,
  ``2017-04-04T09:59:32.86+00:00``), a list (``2002-10-23,24``) or a range
  (``2016-03-09 ~ 2016-03-15``): its first day; or ``2017年6月21日``. A partial date
  (``2024-05``) is no date, nor is a day written first (``21.06.2017``, ``06/21/2017``:
  which is the day and which the month is not said).
* :func:`group_events` makes the events of games given their names and days: one name
  while consecutive days are at most ``gap`` apart; a game without a name is an event
  of its own.
* :func:`first_ranks` gives each player's rank: the first (by date) that is a Go rank,
  in its plain spelling (``P9段`` → ``9p``); else the first text given.
* The reasons a valid game is *excluded* (not rated, never a failure), by short stable
  keys (:attr:`~sodos_hookspecs.FileReport.kind`) that summaries count: :data:`KINDS`.
  A file that cannot be read is *rejected* instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date

from sodos_hookspecs import HistoryEvent, HistoryPlayer

from sodos_plugin.engine.ranks import rank_text

__all__ = [
    "FORFEIT",
    "KINDS",
    "NOT_UNDERSTOOD",
    "NO_PLAYERS",
    "NO_WINNER",
    "SELF_PLAY",
    "SHARED_NAME",
    "UNDATED",
    "UNFINISHED",
    "VOID",
    "first_day",
    "first_ranks",
    "group_events",
    "time_of_day",
]

UNDATED = "undated"
SELF_PLAY = "self-play"
NO_PLAYERS = "no players"
UNFINISHED = "unfinished"
VOID = "void"
FORFEIT = "forfeit"
NOT_UNDERSTOOD = "result not understood"
NO_WINNER = "no winner"
SHARED_NAME = "shared name"

#: key → what it means (docs/rules.md §10.1, docs/ratings.md).
KINDS: dict[str, str] = {
    UNDATED: "no date, or not a full date (the order of games decides ratings)",
    SELF_PLAY: "Black and White are the same player",
    NO_PLAYERS: "a player's name is missing or empty",
    UNFINISHED: "no result, or an unknown one (RE[?], RE[], no RE)",
    VOID: "a void game, no result (RE[Void], Fox's result code 0)",
    FORFEIT: "won by default, not played (the EGD does not rate it)",
    NOT_UNDERSTOOD: "a result text no rule reads",
    NO_WINNER: "both players won, or both lost (a pairing program's result)",
    SHARED_NAME: "two players of one file share a name: a history cannot tell them apart",
}

_DATE = re.compile(r"\s*(\d{4})([-./])(\d{1,2})\2(\d{1,2})(?!\d)")
_TIME = re.compile(r"(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2}))?(?!\d)")
_CJK_DATE = re.compile(r"\s*(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")


def first_day(text: str | None) -> str | None:
    """The first full date of ``text``, ISO ``YYYY-MM-DD``, or None (see the module)."""
    if not text:
        return None
    match = _DATE.match(text)
    if match:
        y, m, d = int(match.group(1)), int(match.group(3)), int(match.group(4))
    else:
        match = _CJK_DATE.match(text)
        if not match:
            return None
        y, m, d = map(int, match.groups())
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def time_of_day(text: str | None) -> str | None:
    """The time of day right after the first full date of ``text`` (``2024-01-01
    05:30``, ``2024-01-01T23:30:15Z``), as ``HH:MM:SS``; None when there is none. An
    offset after it is not read: a server's times are of one clock (docs/rules.md §10.1)."""
    if not text:
        return None
    match = _DATE.match(text)
    if not match:
        return None
    found = _TIME.match(text, match.end())
    if not found:
        return None
    h, m, s = int(found.group(1)), int(found.group(2)), int(found.group(3) or 0)
    if h > 23 or m > 59 or s > 59:
        return None
    return f"{h:02d}:{m:02d}:{s:02d}"


def group_events(
    names: Sequence[str | None], days: Sequence[str], sources: Sequence[str], gap: int
) -> tuple[list[str], dict[str, HistoryEvent]]:
    """Each game's event key, and the events (see the module), for games given by their
    event names (None: none), ISO days and sources (the key of an unnamed game)."""
    # decided per (name, day) pair: an archive has far fewer pairs than games
    pairs = list(zip(names, days))
    first_row = dict(zip(reversed(pairs), range(len(pairs) - 1, -1, -1)))
    days_of: dict[str | None, list[str]] = {name: [] for name in dict.fromkeys(names)}
    for name, when in first_row:
        days_of[name].append(when)
    days_of.pop(None, None)
    event_key_of: dict[tuple[str | None, str], str] = {}
    events: dict[str, HistoryEvent] = {}
    for name, named_days in days_of.items():
        assert name is not None
        previous = None
        event_key = ""
        for when in sorted(named_days):
            today = date.fromisoformat(when).toordinal()
            if previous is None or today - previous > gap:
                event_key = f"{name} ({when})"
                first = sources[first_row[name, when]]
                events[event_key] = HistoryEvent(event_key, name, when, "", first)
            previous = today
            event_key_of[name, when] = event_key
    event_of = [event_key_of.get(pair) or source for pair, source in zip(pairs, sources)]
    if None in names:
        for i, name in enumerate(names):
            if name is None:
                events[sources[i]] = HistoryEvent(sources[i], sources[i], days[i], "", sources[i])
    return event_of, events


def first_ranks(
    days: Sequence[str],
    blacks: Sequence[str],
    whites: Sequence[str],
    black_ranks: Sequence[str | None],
    white_ranks: Sequence[str | None],
    sources: Sequence[str],
) -> dict[str, HistoryPlayer]:
    """Every player of the games, with the rank of :func:`first_ranks` (see the module)
    and where it was read; the pass stops once every player has a Go rank."""
    players: dict[str, HistoryPlayer] = {}
    everyone, ranked = len(set(blacks).union(whites)), 0
    plain: dict[str, str | None] = {}  # rank text → its plain spelling, or None
    done: set[str] = set()  # players with a Go rank
    for i in sorted(range(len(days)), key=days.__getitem__):
        for name, rank in ((blacks[i], black_ranks[i]), (whites[i], white_ranks[i])):
            if name in done:
                continue
            known = players.get(name)
            text = rank.strip() if rank else ""
            if not text:
                if known is None:
                    players[name] = HistoryPlayer(name, None, None, "")
                continue
            if text not in plain:
                plain[text] = rank_text(text)
            if plain[text] is not None:
                players[name] = HistoryPlayer(name, plain[text], None, sources[i])
                done.add(name)
                ranked += 1
            elif known is None or known.rank is None:
                players[name] = HistoryPlayer(name, text, None, sources[i])
        if ranked == everyone:
            break
    return players


class Merged(Mapping):
    """Mappings (events: key → :class:`HistoryEvent`) merged as ``dict.update`` in turn
    would merge them, without copying them: a key where it first appears, its value of
    the last mapping that has it. A server's table of millions of games without an event
    has an event per game, given as a mapping that makes each when read; set and
    :meth:`update` add to the last part (a new dict after a mapping that is not one)."""

    def __init__(self, parts: Sequence[Mapping] = ()):
        self.parts: list[Mapping] = [part for part in parts if len(part)]

    def __getitem__(self, key):
        for part in reversed(self.parts):
            if key in part:
                return part[key]
        raise KeyError(key)

    def __contains__(self, key) -> bool:
        return any(key in part for part in self.parts)

    def __iter__(self) -> Iterator:
        for key, _ in self.items():
            yield key

    def __len__(self) -> int:
        if len(self.parts) == 1:
            return len(self.parts[0])
        return sum(1 for _ in self)

    def items(self):  # type: ignore[override]
        """(key, value) pairs in order, each part read once (no value made twice)."""
        parts = self.parts
        for i, part in enumerate(parts):
            earlier, later = parts[:i], parts[i + 1 :]
            for key, value in part.items():
                if earlier and any(key in p for p in earlier):
                    continue
                last = next((p for p in reversed(later) if key in p), None)
                yield key, (value if last is None else last[key])

    def values(self):  # type: ignore[override]
        return (value for _, value in self.items())

    def __setitem__(self, key, value) -> None:
        if not self.parts or type(self.parts[-1]) is not dict:
            self.parts.append({})
        self.parts[-1][key] = value  # type: ignore[index]

    def update(self, other: Mapping) -> None:  # type: ignore[override]
        """``other``'s keys and values: copied when it is a dict, else kept as a part."""
        if type(other) is dict:
            for key, value in other.items():
                self[key] = value
        elif len(other):
            self.parts.append(other)

    def plain(self) -> Mapping:
        """The mapping: its one dict when it is only that."""
        if not self.parts:
            return {}
        if len(self.parts) == 1 and type(self.parts[0]) is dict:
            return self.parts[0]
        return self
