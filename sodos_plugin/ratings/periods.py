"""What the built-in rating systems share: the order of games and events, and first
ratings.

Contract: :func:`events_in_order` gives each event's games in the history's order of
events (first day, then key: docs/rules.md §10.1); :func:`seed` gives a player's first
rating and says where it came from — the ``initial`` mapping, else the player's rank
through the system's mapping, else the system's default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sodos_hookspecs import GameHistory, HistoryGame, HistoryPlayer, InitialRating, RatingState

from sodos_plugin.engine.identity import identity_key


def events_in_order(history: GameHistory, with_days: bool = False):
    """(event key, its games) by the event's first day, then key; with ``with_days``,
    also each event's first day (key → ISO day: the day it is ordered by)."""
    games: dict[str, list[HistoryGame]] = {}
    first: dict[str, str] = {}
    for game in history.games:
        games.setdefault(game.event, []).append(game)
        if game.event not in first or game.date < first[game.event]:
            first[game.event] = game.date
    for key, event in history.events.items():
        if key in first and event.date:
            first[key] = min(first[key], event.date)
    ordered = [(key, games[key]) for key in sorted(games, key=lambda k: (first[k], k))]
    return (ordered, first) if with_days else ordered


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
    """Where a game sorts in a history (docs/rules.md §10.1): by date, event, round,
    names, result, handicap, then source."""
    return _order(*game[:6], game.round, game.source, key)


def _order(date, event, black, white, result, handicap, round, source, key) -> tuple:
    return (date, event, round or 0, key(black), key(white), result, handicap, source)
