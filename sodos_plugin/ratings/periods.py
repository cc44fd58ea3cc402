"""What the built-in rating systems share: the order of games and events, and first
ratings.

Contract: :func:`game_order` is where a game sorts in a history (date, time of day,
server's game id compared as a number where it is one, then event, round, names...:
docs/rules.md §10.1); :func:`events_in_order` gives each event's games in the history's
order of events (first day, then the time and id of its first game, then key);
:func:`seed` gives a player's first rating and says where it came from — the
``initial`` mapping, else the player's rank through the system's mapping, else the
system's default. :func:`saved_key` reads a key saved by an earlier version (without
the time and id) as one of today's, so that old saved states go on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from sodos_hookspecs import GameHistory, HistoryGame, HistoryPlayer, InitialRating, RatingState

from sodos_plugin.engine.identity import identity_key

_DIGITS = re.compile(r"(\d+)")


def events_in_order(history: GameHistory, with_days: bool = False):
    """(event key, its games) by :func:`event_order`; with ``with_days``, also each
    event's first day (key → ISO day: the day it is ordered by)."""
    games: dict[str, list[HistoryGame]] = {}
    first: dict[str, str] = {}
    for game in history.games:
        games.setdefault(game.event, []).append(game)
        if game.event not in first or game.date < first[game.event]:
            first[game.event] = game.date
    for key, event in history.events.items():
        if key in first and event.date:
            first[key] = min(first[key], event.date)
    sorts = {key: event_order(first[key], key, found[0]) for key, found in games.items()}
    ordered = [(key, games[key]) for key in sorted(games, key=sorts.__getitem__)]
    return (ordered, first) if with_days else ordered


def event_order(day: str, key: str, first: HistoryGame) -> tuple:
    """Where an event sorts: its first day, the time and game id of its first game (in
    the history's order; a server's games without an event are events of their own, and
    sort as the games do), then its key."""
    return (day, first.time or "", id_order(first.id), key)


def event_name(history: GameHistory, key: str) -> str:
    event = history.events.get(key)
    return event.name if event is not None and event.name else key


def seed(
    name: str,
    initial: Mapping[str, InitialRating],
    players: Mapping[str, HistoryPlayer],
    rank_to_rating: Callable[[str], RatingState] | None,
    default: RatingState,
    warnings: list[str],
    system: str,
) -> tuple[RatingState, str]:
    """A player's first rating and its origin (``"ratings.csv:3"``, ``"rank 3d"``...)."""
    given = initial.get(name)
    if given is not None:
        return given.state, given.source or "initial ratings"
    info = players.get(name)
    rank = info.rank if info is not None else None
    if rank and rank_to_rating is not None:
        try:
            return rank_to_rating(rank), f"rank {rank.strip()}"
        except ValueError as error:
            where = f" ({info.source})" if info is not None and info.source else ""
            warnings.append(
                f"{system}: {name}: rank {rank.strip()!r}{where} is not a Go rank ({error}); "
                f"seeded at the default {default.rating:g}"
            )
            return default, "default (rank not understood)"
    return default, "default (no rank)"


def game_order(game: HistoryGame, key=identity_key) -> tuple:
    """Where a game sorts in a history (docs/rules.md §10.1): by date, time of day (a
    game without one first), the server's game id (:func:`id_order`), event, round,
    names, result, handicap, source, then the id as given. Every part is a text or a
    number, so that the key is kept in JSON as it is (a saved state's last game)."""
    return _order(*game[:6], game.round, game.source, game.time, game.id, key)


def _order(date, event, black, white, result, handicap, round, source, time, id, key) -> tuple:
    return (
        date, time or "", id_order(id), event, round or 0, key(black), key(white), result,
        handicap, source, id or "",
    )  # fmt: skip


def id_order(text: str | None) -> str:
    """A game id as a text that sorts as the id compared as a number where it is one:
    each run of digits is written with its length first (``g9`` → ``g019``, ``g10`` →
    ``g0210``), so ``9`` < ``10`` and ``g9`` < ``g10``; no id is ``""`` (first)."""
    if not text:
        return ""
    parts = _DIGITS.split(text)
    for i in range(1, len(parts), 2):
        digits = parts[i].lstrip("0") or "0"
        parts[i] = f"{len(digits):02d}{digits}" if len(digits) < 100 else f"99{digits}"
    return "".join(parts)


#: The length of a game's key (:func:`game_order`) and of one saved before times and ids.
GAME_KEY, OLD_GAME_KEY = 11, 8


def saved_key(saved, kind: str = "game"):
    """A key as a saved state keeps it, read as today's: a game's key of 8 parts (saved
    before the time and id were part of it) gets an empty time, id order and id; an
    event's ``[day, key]`` an empty time and id. Anything else is returned as it is."""
    if not isinstance(saved, list):
        return saved
    if kind == "game" and len(saved) == OLD_GAME_KEY:
        return [saved[0], "", "", *saved[1:], ""]
    if kind == "event" and len(saved) == 2:
        return [saved[0], "", "", saved[1]]
    return saved


def has_times_or_ids(games) -> bool:
    """Whether any game of a history gives its time of day or its game id."""
    columns = getattr(games, "columns", None)
    if columns is not None:
        return any(
            any(v is not None for v in getattr(columns[name], "values", columns[name]))
            for name in ("time", "id")
        )
    return any(g.time is not None or g.id is not None for g in games)


def shown_game(key) -> str:
    """A game's key (:func:`game_order`) for people: ``2024-01-01 05:30:00 'g9'`` (its
    date, time and id; its event when it has no id)."""
    if not isinstance(key, (list, tuple)) or len(key) < GAME_KEY:
        return repr(key)
    date, time, _, event, *_, given = key
    return " ".join(x for x in (date, time, repr(given or event)) if x)
