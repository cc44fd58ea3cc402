"""Game-history mode: many inputs → one :class:`~sodos_hookspecs.GameHistory` in date order.

Contract (docs/rules.md §10.1): :func:`read_history` reads

* SGF records (files, folders, ``.zip``/``.tar.gz``), a server's whole archive: mixed
  events, dated by ``DT``, duplicates dropped and reported, every unusable record
  reported with its reason (:mod:`sodos_plugin.readers.sgf.history`, the SGF ingest's
  own per-file records, served from the :mod:`~sodos_plugin.readers.sgf.cache` when unchanged);
* games tables (``.csv``/``.tsv``: one row per dated game, what a server exports from
  its database; :mod:`sodos_plugin.readers.games_table`): every row a game, or a report;
* EGD h9 and OpenGotha XML files, and any other format a reader plugin reads: one
  tournament each, dated by ``Tournament.date`` (the reader's: h9 ``DT[...]``, XML
  ``beginDate``), its class, board size and komi as the reader recorded them
  (:func:`tournament_facts`); a tournament without a date is rejected;
* host objects: :class:`~sodos_plugin.engine.model.Tournament` s (dated) and
  :class:`~sodos_hookspecs.HistoryGame` s.

Games are ordered by date, time of day (where the input gives it: a games table's date
with a time, a host's ``HistoryGame.time``), the server's game id (compared as a number
where it is one: ``g9`` before ``g10``), then event, round, names, result and source, so
that the order of files or rows given never changes a rating
(:func:`~sodos_plugin.ratings.periods.game_order`). A valid game that cannot be rated (no
date, self-play, no result over the board: unknown, void, won by default) is
*excluded*, with a short stable key of its reason (:mod:`sodos_plugin.readers.dated`);
:func:`file_summary` counts the account of every file by status and key.

The files are read with the host's readers and settings, passed in as :class:`Sources`
(this module knows no host).
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from sodos_hookspecs import (
    FileReport,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    ReadResult,
)

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE, Result, Tournament
from sodos_plugin.engine.ranks import format_rank, rank_text
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.ratings.periods import _order, game_order
from sodos_plugin.readers import dated, games_table
from sodos_plugin.readers import sgf as sgf_reader


class _Keys(dict):
    """``identity_key`` of each name, computed once per run (an archive of a hundred
    thousand games repeats a few thousand names)."""

    def __missing__(self, name: str) -> str:
        key = self[name] = identity_key(name)
        return key


def _in_game_order(games: GameColumns, key, previous: Any = None) -> tuple[GameColumns, dict]:
    """The columns with :attr:`~GameColumns.order` listing their rows by
    :func:`game_order` (no object per game), and that order as saved with the cache.

    ``previous``, the saved order of the first rows, is extended when those rows' events
    are still the same (new games that extend an event leave its key alone; one that
    starts it earlier changes it): only the new rows are sorted and put in place.
    """
    c = games.columns
    fields = [c[name] for name in ("date", "event", "black", "white", "result", "handicap")]
    fields += [c[name] for name in ("round", "source", "time", "id")]
    events = c["event"]

    def of(r: int) -> tuple:  # game_order of row r
        return _order(*(field[r] for field in fields), key)

    n = len(events)
    order: list[int] | None = None
    old, rows, digest = 0, None, None
    if isinstance(previous, dict):
        old, rows, digest = (previous.get(k) for k in ("games", "order", "events"))
    if not isinstance(old, int) or not 0 < old <= n:
        old, rows, digest = 0, None, None
    before, everything = _events_digests(events, old)
    if isinstance(rows, list) and len(rows) == old and digest == before:
        with contextlib.suppress(TypeError, ValueError):
            if len(set(rows)) == old and min(rows) == 0 and max(rows) == old - 1:
                order = []
                at = 0
                for r in sorted(range(old, n), key=of):  # bisect_right: after equal old rows
                    place = bisect.bisect_right(rows, of(r), lo=at, key=of)
                    order += rows[at:place]
                    order.append(r)
                    at = place
                order += rows[at:]
    if order is None:
        keys = list(map(_order, *fields, itertools.repeat(key)))
        order = sorted(range(n), key=keys.__getitem__)
    saved = {"games": n, "order": order, "events": everything}
    return GameColumns(**c, order=order), saved


def _events_digests(events: Sequence[str], old: int) -> tuple[str, str]:
    """Digests of the first ``old`` games' events and of all (one pass over the text:
    the list's JSON without its brackets is the parts' joined by a comma)."""
    head = json.dumps(list(events[:old]))[1:-1]
    tail = json.dumps(list(events[old:]))[1:-1]
    whole = f"{head}, {tail}" if head and tail else head or tail

    def digest(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    return digest(head), digest(whole)


def tournament_games(
    tournament: Tournament, date: str, source: str, klass: str = ""
) -> tuple[list[HistoryGame], HistoryEvent, dict[str, HistoryPlayer], list[FileReport]]:
    """One dated tournament → its rated games, its event, its players, unrated games."""
    key = f"{tournament.name} ({date}, {source})"
    event = HistoryEvent(key, tournament.name, date, klass, source)
    # A history tells players apart by name alone: players of one file who share a name
    # (after the identity rule) cannot be followed from event to event, so their games
    # are not rated rather than merged into one person (docs/rules.md §10).
    shared = Counter(identity_key(p.name) for p in tournament.players)
    ambiguous = {key for key, count in shared.items() if count > 1}
    players = {}
    for p in tournament.players:
        if identity_key(p.name) in ambiguous:
            continue
        rank = format_rank(p.rank) if p.rank is not None else None
        players[p.name] = HistoryPlayer(p.name, rank, p.rating, source)
    games, skipped = [], []
    for game in tournament.games:
        black, white = tournament.players[game.black].name, tournament.players[game.white].name
        where = f"{source}: round {game.round}: {black} vs {white}"
        same = [n for n in (black, white) if identity_key(n) in ambiguous]
        if same:
            names = " and ".join(
                dict.fromkeys(f"{n!r} names {shared[identity_key(n)]} players" for n in same)
            )
            why = f"{names} of this file (not rated: a history tells players apart by name)"
            skipped.append(FileReport(where, "excluded", why, dated.SHARED_NAME))
            continue
        score = BLACK_SCORE.get(game.result)
        if game.by_default:
            skipped.append(
                FileReport(where, "excluded", "won by default (not rated)", dated.FORFEIT)
            )
            continue
        if score is None:
            kind = dated.UNFINISHED if game.result is Result.UNKNOWN else dated.NO_WINNER
            why = f"result {game.result.value} (not rated)"
            skipped.append(FileReport(where, "excluded", why, kind))
            continue
        games.append(
            HistoryGame(date, key, black, white, score, game.handicap, None, 19, game.round, where)
        )
    return games, event, players, skipped


def _valid_date(text: str | None) -> str | None:
    try:
        return date.fromisoformat(text).isoformat() if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Sources:
    """What a history reads its files with: the host's readers, settings and cache.

    :param claim: the reader that claims a path: ``(reader name, built-in?)``.
    :param read: a file read as a tournament (the host's reading: its roster and
        ``strict`` apply).
    :param sections: the config's ``[plugin.<name>]`` tables (the SGF reader's options).
    :param event_gap_days: config ``history.event_gap_days``.
    :param cache: the SGF ingest cache for the SGF reader's options, or None.
    """

    claim: Callable[[Path], tuple[str, bool]]
    read: Callable[[Path], ReadResult]
    sections: Mapping[str, Mapping[str, Any]]
    event_gap_days: int
    cache: Callable[[Any], Any]


def tournament_facts(tournament: Tournament) -> tuple[str, int, float | None]:
    """What a history keeps of a tournament besides its games: its EGD class (h9 ``CL``,
    one letter), board size (19 when unknown) and komi (``KM``, None when unknown)."""
    klass = (tournament.info.get("CL") or "").strip()
    klass = klass.upper() if len(klass) == 1 and klass.isascii() and klass.isalpha() else ""
    size = 19 if tournament.size is None else tournament.size
    try:
        komi = float(tournament.info["KM"]) if tournament.info.get("KM") else None
    except ValueError:
        komi = None
    return klass, size, komi


class _Collector:
    def __init__(self, sources: Sources):
        self.sources = sources
        self.games: list[HistoryGame] = []
        self.events: dict[str, HistoryEvent] = {}
        self.players: dict[str, HistoryPlayer] = {}
        self.spelling: dict[str, str] = {}
        self.files: list[FileReport] = []
        self.warnings: list[str] = []
        self.tournaments: dict[tuple, str] = {}  # a tournament's games → its first file
        self.keys = _Keys()
        self.sgf: GameColumns | None = None  # the SGF archive's games, as columns

    def name(self, raw: str, source: str) -> str:
        key = self.keys[raw]
        first = self.spelling.setdefault(key, raw)
        if first != raw:
            self.warnings.append(
                f"{source}: {raw!r} is taken as {first!r}: the same name (docs/rules.md §8)"
            )
            self.spelling[key] = first
        return first

    def add_player(self, player: HistoryPlayer) -> None:
        """A player's first rank and rating; a rank in its plain spelling (``P9段`` →
        ``9p``, docs/rules.md §10.1) when it is a Go rank."""
        if player.rank:
            plain = rank_text(player.rank)
            if plain is not None and plain != player.rank:
                player = replace(player, rank=plain)
        known = self.players.get(player.name)
        if (
            known is None
            or (known.rank is None and player.rank)
            or (known.rating is None and player.rating is not None)
        ):
            rank = known.rank if known is not None and known.rank else player.rank
            rating = known.rating if known is not None and known.rating is not None else None
            self.players[player.name] = HistoryPlayer(
                player.name, rank, rating if rating is not None else player.rating, player.source
            )

    def add_tournament(
        self,
        tournament: Tournament,
        date: str,
        source: str,
        klass: str = "",
        size: int = 19,
        komi=None,
    ) -> None:
        games, event, players, skipped = tournament_games(tournament, date, source, klass)
        # the same tournament twice (its h9 and its XML): rated once, the later reported
        signature = (
            date,
            tuple(
                sorted(
                    (g.round or 0, self.keys[g.black], self.keys[g.white], g.result) for g in games
                )
            ),
        )
        first = self.tournaments.get(signature)
        if first is not None and games:
            self.files.append(FileReport(source, "duplicate", f"same tournament as {first}"))
            return
        self.tournaments[signature] = source
        renamed = {p: self.name(p, source) for p in players}
        for game in games:
            self.games.append(
                game._replace(
                    black=renamed[game.black], white=renamed[game.white], size=size, komi=komi
                )
            )
        self.events[event.key] = event
        for name, player in players.items():
            self.add_player(replace(player, name=renamed[name]))
        self.files.append(FileReport(source, "ingested"))
        self.files.extend(skipped)

    def add_sgf(
        self, paths: Sequence[Path], jobs: int | None, progress, alone: bool = False
    ) -> None:
        """An SGF archive's games; ``alone``: nothing else is in the history (its games
        are then kept as columns in game order, and that order in the cache)."""
        sources = self.sources
        key = self.keys.__getitem__

        def arrange(games: GameColumns, previous: Any) -> tuple[GameColumns, Any]:
            games = self._renamed(games)
            return _in_game_order(games, key, previous) if alone else (games, None)

        found = sgf_reader.archive_history(
            paths,
            sources.sections.get(sgf_reader.PLUGIN, {}),
            event_gap_days=sources.event_gap_days,
            key=key,
            cache=sources.cache,
            jobs=jobs,
            progress=progress,
            arrange=arrange,
        )
        self.warnings.extend(found.cache_warnings)
        self.sgf = found.games
        self.events.update(found.events)
        for player in found.players.values():
            self.add_player(replace(player, name=self.name(player.name, player.source or "SGF")))
        self.files.extend(found.files)
        self.warnings.extend(found.warnings)

    def _renamed(self, games: GameColumns) -> GameColumns:
        """The SGF games with the run's spelling of each name: the same columns unless a
        name was first spelled otherwise (by a tournament file read before)."""
        c = games.columns
        clash = False
        for raw in dict.fromkeys([*c["black"], *c["white"]]):
            clash |= self.spelling.setdefault(self.keys[raw], raw) != raw
        if not clash:
            return games
        black, white = list(c["black"]), list(c["white"])
        for i, source in enumerate(c["source"]):
            black[i], white[i] = self.name(black[i], source), self.name(white[i], source)
        return GameColumns(**{**c, "black": black, "white": white})

    def add_path(self, path: Path) -> None:
        """One h9, XML or other reader's file: a dated tournament."""
        source = str(path)
        try:
            read = self.sources.read(path)
        except (InputError, ConfigError) as error:
            self.files.append(FileReport(source, "rejected", str(error)))
            return
        except OSError as error:
            self.files.append(FileReport(source, "rejected", f"cannot read: {error.strerror}"))
            return
        self.warnings.extend(read.warnings)
        tournament = read.tournament
        date = _valid_date(tournament.date)
        if date is None:
            self.files.append(
                FileReport(source, "rejected", "no date (h9 DT[...], XML beginDate): not rated")
            )
            return
        self.add_tournament(tournament, date, source, *tournament_facts(tournament))

    def add_table(self, path: Path) -> None:
        """One games table: its rows as dated games (docs/ratings.md)."""
        source = str(path)
        section = self.sources.sections.get(games_table.PLUGIN, {})
        limit = section.get("max_bytes", games_table.MAX_BYTES)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise ConfigError(
                f"max_bytes must be a positive integer, got {limit!r}",
                source=f"[plugin.{games_table.PLUGIN}]",
                where="max_bytes",
            )
        try:
            table = games_table.read_table(path, limit)
        except InputError as error:  # the file is named by the report
            self.files.append(FileReport(source, "rejected", error.message))
            return
        self.warnings.extend(table.warnings)
        rows = table.games
        where = [f"{source}:{g.line}" for g in rows]
        days = [g.date for g in rows]
        event_of, events = dated.group_events(
            [g.event for g in rows], days, where, self.sources.event_gap_days
        )
        self.events.update(events)
        names = {}
        for game, place in zip(rows, where):
            for raw in (game.black, game.white):
                if raw not in names:
                    names[raw] = self.name(raw, place)
        for game, place, event in zip(rows, where, event_of):
            self.games.append(
                HistoryGame(
                    game.date,
                    event,
                    names[game.black],
                    names[game.white],
                    game.score,
                    game.handicap,
                    game.komi,
                    game.size,
                    game.round,
                    place,
                    game.time,
                    game.id,
                )  # fmt: skip
            )
        players = dated.first_ranks(
            days,
            [names[g.black] for g in rows],
            [names[g.white] for g in rows],
            [g.black_rank for g in rows],
            [g.white_rank for g in rows],
            where,
        )
        for player in players.values():
            self.add_player(player)
        self.files.append(FileReport(source, "ingested"))
        self.files.extend(table.files)


def file_summary(files: Iterable[FileReport]) -> dict[str, dict[str, int]]:
    """The account of the files by status, then by the key of the reason
    (:attr:`~sodos_hookspecs.FileReport.kind`, else the reason itself), each with its
    count, largest first: ``{"excluded": {"self-play": 98, "undated": 111}, ...}``.
    Ingested files are counted under ``""``."""
    counts: dict[str, Counter] = {}
    for report in files:
        key = "" if report.status == "ingested" else (report.kind or report.reason)
        counts.setdefault(report.status, Counter())[key] += 1
    return {status: dict(found.most_common()) for status, found in counts.items()}


def read_history(
    sources: Sources,
    paths: Sequence[Path | str] = (),
    *,
    tournaments: Iterable[Tournament] = (),
    games: Iterable[HistoryGame] = (),
    jobs: int | None = None,
    progress=None,
) -> GameHistory:
    """The game history of everything given (see the module documentation)."""
    collector = _Collector(sources)
    tournaments, games = list(tournaments), list(games)
    sgf: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError("no such file or directory", source=str(path))
        try:
            reader, builtin = sources.claim(path)
        except InputError as error:
            collector.files.append(FileReport(str(path), "rejected", str(error)))
            continue
        if reader == sgf_reader.NAME and builtin:
            sgf.append(path)
        elif reader == games_table.NAME and builtin:
            collector.add_table(path)
        else:
            collector.add_path(path)
    if sgf:
        alone = not collector.games and not tournaments and not games
        collector.add_sgf(sgf, jobs, progress, alone)
    for n, tournament in enumerate(tournaments, 1):
        date = _valid_date(tournament.date)
        source = tournament.source or f"tournament {n}"
        if date is None:
            raise InputError(
                f"tournament {tournament.name!r} has no date (Tournament.date)", source=source
            )
        collector.add_tournament(tournament, date, source, *tournament_facts(tournament))
    for game in games:
        if not isinstance(game, HistoryGame):
            raise InputError(f"expected a HistoryGame, got {type(game).__name__}")
        if _valid_date(game.date) is None:
            raise InputError(f"game date {game.date!r} is not YYYY-MM-DD", source=game.source)
        time = game.time
        if time is not None:
            time = dated.time_of_day(f"{game.date} {time}") if isinstance(time, str) else None
            if time is None:
                raise InputError(f"game time {game.time!r} is not HH:MM[:SS]", source=game.source)
        if game.id is not None and not isinstance(game.id, str):
            raise InputError(f"game id {game.id!r} is not a text", source=game.source)
        collector.games.append(
            game._replace(
                black=collector.name(game.black, game.source),
                white=collector.name(game.white, game.source),
                time=time,
            )
        )
        if game.event not in collector.events:
            collector.events[game.event] = HistoryEvent(game.event, game.event, game.date)
    keys = collector.keys.__getitem__
    ordered = collector.sgf is not None and collector.sgf.order is not None
    if ordered and not collector.games:  # an archive alone: columns in game order
        games = collector.sgf
    else:
        everything = [*(collector.sgf or ()), *collector.games]
        everything.sort(key=lambda game: game_order(game, keys))
        games = tuple(everything)
    warnings = list(dict.fromkeys(collector.warnings))
    return GameHistory(
        games=games,
        events=collector.events,
        players=collector.players,
        files=tuple(collector.files),
        warnings=tuple(warnings),
    )
