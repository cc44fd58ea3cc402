"""Players renamed in a game history before it is rated: the configured aliases, and
the spellings of a saved state (docs/rules.md §8, §10.1).

Contract: :func:`alias_map` gives, for a history's names, the name each is rated as
under ``aliases`` (the SGF reader's option: ``"old account" = "player name"``, matched
by identity as the SGF reader matches them); :func:`spelling_map` the
spelling a saved state already uses for a name of the same identity;
:func:`renamed` applies such a mapping to the games and the players. A game whose two
players become one is not rated and is reported (*excluded*), as the SGF reader does
with a record whose PB and PW are the same player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import NamedTuple

from sodos_hookspecs import Coded, FileReport, GameColumns, GameHistory, HistoryPlayer

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.ratings.columns import player_names


class Aliases(NamedTuple):
    """The configured aliases (``"old name" = "player name"``) and where they are set,
    which the report of a game whose two players they join names."""

    names: Mapping[str, str]
    where: str = "the aliases"


def history_names(history: GameHistory) -> list[str]:
    """Each player of the games once, by first appearance."""
    if isinstance(history.games, GameColumns):
        return player_names(history.games)
    seen: dict[str, None] = {}
    for game in history.games:
        seen.setdefault(game.black, None)
        seen.setdefault(game.white, None)
    return list(seen)


def alias_map(aliases: Mapping[str, str], names: Iterable[str]) -> dict[str, str]:
    """name → the name it is rated as, for the names ``aliases`` joins: the alias's
    target as the history spells it when a name of the history has its identity, else
    as the alias writes it."""
    if not aliases:
        return {}
    names = list(names)
    target_of = {identity_key(old): new for old, new in aliases.items()}
    spelled = {}
    for name in names:
        spelled.setdefault(identity_key(name), name)
    out = {}
    for name in names:
        target = target_of.get(identity_key(name))
        if target is None:
            continue
        target = spelled.get(identity_key(target), target)
        if target != name:
            out[name] = target
    return out


def spelling_map(names: Iterable[str], known: Iterable[str]) -> dict[str, str]:
    """name → the spelling ``known`` (a saved state's players) has for its identity,
    where the two differ."""
    by_key = {identity_key(k): k for k in known}
    out = {}
    for name in names:
        found = by_key.get(identity_key(name))
        if found is not None and found != name:
            out[name] = found
    return out


def renamed(history: GameHistory, rename: Mapping[str, str], why: str) -> GameHistory:
    """``history`` with each name of ``rename`` replaced (games and players); ``why``
    names the rule in the report of a game whose players become one."""
    if not rename:
        return history
    games = history.games
    same: list[FileReport] = []
    if isinstance(games, GameColumns):
        c = dict(games.columns)
        for side in ("black", "white"):
            column = c[side]
            if isinstance(column, Coded):
                values = [rename.get(v, v) for v in column.values]
                c[side] = Coded(column.codes, values)
            else:
                c[side] = [rename.get(v, v) for v in column]
        rows = list(games.order) if games.order is not None else range(len(c["result"]))
        black, white, source = c["black"], c["white"], c["source"]
        kept = []
        for r in rows:
            r = int(r)
            if black[r] == white[r]:
                same.append(_excluded(source[r], black[r], why))
            else:
                kept.append(r)
        order = kept if (same or games.order is not None) else None
        games = GameColumns(**c, order=order)
    else:
        out = []
        for game in games:
            black, white = rename.get(game.black, game.black), rename.get(game.white, game.white)
            if black == white:
                same.append(_excluded(game.source, black, why))
                continue
            out.append(
                game._replace(black=black, white=white) if (black, white) != game[2:4] else game
            )
        games = tuple(out)
    players: dict[str, HistoryPlayer] = {}
    for name, info in history.players.items():
        target = rename.get(name, name)
        known = players.get(target)
        if known is None:
            players[target] = replace(info, name=target)
        else:  # the first rank and rating met stay, as the history keeps them
            players[target] = replace(
                known,
                rank=known.rank or info.rank,
                rating=known.rating if known.rating is not None else info.rating,
            )
    return replace(history, games=games, players=players, files=(*history.files, *same))


def _excluded(source: str, name: str, why: str) -> FileReport:
    return FileReport(source or "a game", "excluded", f"both players are {name!r} by {why}")
