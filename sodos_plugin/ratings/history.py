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
:func:`file_summary` counts the account of every file by status and key: the one count
that stderr's summary, the report's and the rating document's are made from.

The files are read with the host's readers and settings, passed in as :class:`Sources`
(this module knows no host).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
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
    Coded,
    FileReport,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    Reader,
    ReadResult,
)

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE, Result, Tournament
from sodos_plugin.engine.ranks import format_rank, rank_text
from sodos_plugin.errors import ConfigError, InputError, SodosError
from sodos_plugin.plugins.call import call
from sodos_plugin.ratings.columns import player_names
from sodos_plugin.ratings.periods import _order, game_order, id_order
from sodos_plugin.readers import dated
from sodos_plugin.util.inputfiles import FileRefused, exists
from sodos_plugin.util.lazy import LazyModule
from sodos_plugin.util.textsafe import quoted

np = LazyModule("numpy", globals(), "np")


_UNSEEN = object()


class _Keys(dict):
    """``identity_key`` of each name, computed once per run (an archive of a hundred
    thousand games repeats a few thousand names)."""

    def __missing__(self, name: str) -> str:
        key = self[name] = identity_key(name)
        return key

    def __reduce__(self):
        """Sent to a worker process as nothing: the worker's own (it only remembers what
        it computes, and keeps it from one task to the next)."""
        return _process_keys, ()


@functools.cache
def _process_keys() -> _Keys:
    """This process's :class:`_Keys` (a worker's, kept across its tasks)."""
    return _Keys()


def _in_game_order(
    games: GameColumns, key, previous: Any = None, saving: bool = True
) -> tuple[GameColumns, dict | None]:
    """The columns with :attr:`~GameColumns.order` listing their rows by
    :func:`game_order` (no object per game), and that order as saved with the cache
    (None unless ``saving``: its digest of every game's event is per game).

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
    before, everything = _events_digests(events, old) if saving or old else ("", "")
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
        order = _sorted_rows(c, fields, key)
    if not saving:
        return GameColumns(**c, order=order), None
    saved = {"games": n, "order": list(map(int, order)), "events": everything}
    return GameColumns(**c, order=order), saved


#: Rows whose game keys are made at once when columns are sorted (:func:`_sorted_rows`).
SORT_CHUNK = 1 << 16


def _sorted_rows(c: Mapping[str, Sequence], fields: list[Sequence], key) -> Any:
    """The rows of columns ``c`` sorted by :func:`game_order` (``fields``: its columns),
    as an int64 array: by date and time of day first (codes of their sorted values),
    then each run of one date and time by the rest of the key (:func:`_by_parts`), a few
    runs at a time — a chunk of rows' values in memory, not every game's."""
    n = len(c["result"])
    date_rank = _ranks(c["date"])
    time_rank = _ranks(c["time"], _or_empty)
    by_day = np.lexsort((time_rank, date_rank))  # stable: rows of one run in row order
    primary = (date_rank * (int(time_rank.max(initial=0)) + 1) + time_rank)[by_day]
    starts = np.flatnonzero(np.diff(primary)) + 1  # where each run starts
    readers = [_gatherer(field) for field in fields]
    order = np.empty(n, dtype=np.int64)
    start = 0
    while start < n:
        at = int(np.searchsorted(starts, start + SORT_CHUNK))  # the first run after
        end = int(starts[at]) if at < len(starts) else n
        rows = by_day[start:end]
        try:
            positions = _by_parts(readers, rows, primary[start:end], key)
        except TypeError:  # a column whose values do not all compare: key by key, as asked
            values = [read(rows) for read in readers]
            keys = list(map(_order, *values, itertools.repeat(key)))
            positions = np.asarray(sorted(range(len(keys)), key=keys.__getitem__), np.int64)
        order[start:end] = rows[positions]
        start = end
    return order


def _by_parts(readers: list[Callable[[Any], list]], rows: Any, primary: Any, key) -> Any:
    """The places of ``rows`` sorted by :func:`game_order` (``readers``: of the columns of
    ``fields`` in :func:`_sorted_rows`; ``primary``: the rows' date and time's rank, in
    order), with no key made per game: the rows still tied are sorted by the next part
    of the key, ranked among its distinct values, until none are tied (most parts are
    never read). Each step is stable, as sorting the keys is: rows with equal keys keep
    their order. TypeError where a column holds values that do not compare."""
    _, event, black, white, result, handicap, round_, source, _, game_id = readers
    parts = (
        (game_id, id_order), (event, None), (round_, _or_0), (black, key),
        (white, key), (result, None), (handicap, None), (source, None), (game_id, _or_empty),
    )  # fmt: skip
    at = np.arange(len(rows), dtype=np.int64)  # the places in the order so far
    group = np.asarray(primary, dtype=np.int64)  # each place's run of equal keys so far
    for read, value in parts:
        same = group[1:] == group[:-1]
        tied = np.zeros(len(group), dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        if not tied.any():
            break
        places = np.flatnonzero(tied)
        rank = _ranks(read(rows[at[places]]), value)
        within = np.lexsort((rank, group[places]))  # stable: by rank within each run
        at[places] = at[places][within]
        ranks = np.zeros(len(group), dtype=np.int64)
        ranks[places] = rank[within]
        changed = (group[1:] != group[:-1]) | (ranks[1:] != ranks[:-1])
        group = np.concatenate(([0], np.cumsum(changed)))
    return at


def _or_0(value: Any) -> Any:
    return value or 0


def _or_empty(value: Any) -> Any:
    return value or ""


def _ranks(column: Sequence, value: Callable[[Any], Any] | None = None) -> Any:
    """Each row's place among the column's distinct values (through ``value``, when
    given) sorted, equal values in one place, as an int64 array."""
    if isinstance(column, Coded):
        codes, values = column.codes, list(column.values)
        if len(values) == 1:
            return np.zeros(len(codes), dtype=np.int64)
        codes = (
            np.asarray(codes, dtype=np.int64)
            if hasattr(codes, "__array__") or hasattr(codes, "buffer_info")
            else np.fromiter(codes, dtype=np.int64, count=len(codes))
        )
    else:
        values = list(dict.fromkeys(column))
        table = {v: code for code, v in enumerate(values)}
        codes = np.fromiter(map(table.__getitem__, column), dtype=np.int64, count=len(column))
    texts = values if value is None else list(map(value, values))
    distinct = sorted(set(texts))
    place = {text: i for i, text in enumerate(distinct)}
    return np.asarray([place[t] for t in texts], dtype=np.int64)[codes]


def _gatherer(column: Sequence) -> Callable[[Any], list]:
    """``read(rows)``: the column's values of ``rows`` (an int64 array), as a list."""
    if isinstance(column, Coded):
        values, codes = column.values, column.codes
        if len(values) == 1:
            return lambda rows: [values[0]] * len(rows)
        if hasattr(codes, "__array__") or hasattr(codes, "buffer_info"):
            codes = np.asarray(codes)
            return lambda rows: list(map(values.__getitem__, codes[rows].tolist()))
        return lambda rows: [values[codes[r]] for r in rows.tolist()]
    if hasattr(column, "__array__") or hasattr(column, "buffer_info"):
        array = np.asarray(column)
        return lambda rows: array[rows].tolist()
    return lambda rows: list(map(column.__getitem__, rows.tolist()))


def _events_digests(events: Sequence[str], old: int) -> tuple[str, str]:
    """Digests of the first ``old`` games' events and of all: of the list's JSON without
    its brackets (the parts' joined by a comma), made a chunk of events at a time."""
    head = hashlib.blake2b(digest_size=16)
    whole = hashlib.blake2b(digest_size=16)
    items, n, i = iter(events), len(events), 0
    while i < n:
        end = min(i + SORT_CHUNK, old if i < old else n)
        text = json.dumps(list(itertools.islice(items, end - i)))[1:-1]
        data = text.encode("utf-8", "surrogatepass")
        for digest in (head, whole) if i < old else (whole,):
            digest.update(b", " + data if i else data)
        i = end
    return head.hexdigest(), whole.hexdigest()


def tournament_games(
    tournament: Tournament, date: str, source: str, klass: str = ""
) -> tuple[list[HistoryGame], HistoryEvent, dict[str, HistoryPlayer], list[FileReport]]:
    """One dated tournament → its rated games, its event, its players, unrated games;
    each game keeps its own komi (``Game.komi``, None when the source gives none)."""
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
            HistoryGame(
                date, key, black, white, score, game.handicap, game.komi, 19, game.round, where
            )
        )
    return games, event, players, skipped


def unnamed(error: SodosError, source: str) -> str:
    """An error's text for the report of ``source``: without the file's name when the
    error names that file (the report names it once: ``rejected: a.xml: reason``)."""
    if error.source != source:
        return str(error)
    return f"{error.where}: {error.message}" if error.where else error.message


def _valid_date(text: str | None) -> str | None:
    try:
        return date.fromisoformat(text).isoformat() if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Sources:
    """What a history reads its files with: the host's readers, settings and cache.

    :param claim: the reader that claims a path and its plugin's name:
        ``(Reader, plugin)``.
    :param read: a file read as a tournament (the host's reading: its roster and
        ``strict`` apply).
    :param sections: the config's ``[plugin.<name>]`` tables (each reader's options).
    :param event_gap_days: config ``history.event_gap_days``.
    :param cache: ``cache(options)``: the host's ingest cache for a reader's options, or
        None (``cache.enabled``).
    """

    claim: Callable[[Path], tuple[Reader, str]]
    read: Callable[[Path], ReadResult]
    sections: Mapping[str, Mapping[str, Any]]
    event_gap_days: int
    cache: Callable[[Any], Any]


def _history_fault(found: Any) -> str | None:
    """What is wrong with a reader's game history (its result check), else ``None``."""
    if not isinstance(found, GameHistory):
        return f"did not return a GameHistory (got {type(found).__name__})"
    games = found.games
    if isinstance(games, GameColumns):
        dates = set(games.columns["date"])
    elif isinstance(games, (list, tuple)) and set(map(type, games)) <= {HistoryGame}:
        dates = {g.date for g in games}
        names = {n for g in games for n in (g.black, g.white)}
        if not set(map(type, names)) <= {str} or "" in names:
            return "games: a player's name that is not a text"
    else:
        return "games: expected a list of HistoryGame or GameColumns"
    bad = next((d for d in dates if not isinstance(d, str) or _valid_date(d) != d), None)
    if bad is not None:
        return f"games: the date {bad!r} is not YYYY-MM-DD"
    parts = (
        (found.events, HistoryEvent, "events"),
        (found.players, HistoryPlayer, "players"),
    )
    for mapping, kind, what in parts:
        if not isinstance(mapping, Mapping) or not set(map(type, mapping.values())) <= {kind}:
            return f"{what}: expected a mapping of {kind.__name__}"
    if not set(map(type, found.files)) <= {FileReport}:
        return "files: expected FileReport items"
    if isinstance(found.warnings, str) or not set(map(type, found.warnings)) <= {str}:
        return "warnings: expected texts"
    return None


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
        # a dict's events copied, another mapping's kept as it is (a table's millions)
        self.events = dated.Merged()
        self.players: dict[str, HistoryPlayer] = {}
        self.spelling: dict[str, str] = {}
        self.files: list[FileReport] = []
        self.warnings: list[str] = []
        self.tournaments: dict[tuple, str] = {}  # a tournament's games → its first file
        self.keys = _Keys()
        self.columns: list[GameColumns] = []  # histories a reader gave as columns
        self.pending: list[str] = []  # said while a reader's columns were arranged
        self.plain: dict[str, str | None] = {}  # a rank text → its plain spelling, or None
        self.spelled: tuple = ()  # the name columns last found spelled as the run's

    def name(self, raw: str, source: str) -> str:
        key = self.keys[raw]
        first = self.spelling.setdefault(key, raw)
        if first != raw:
            self.warnings.append(
                f"{source}: {quoted(raw)} is taken as {quoted(first)}: the same name "
                "(docs/rules.md §8)"
            )
            self.spelling[key] = first
        return first

    def add_player(self, player: HistoryPlayer) -> None:
        """A player's first rank and rating; a rank in its plain spelling (``P9段`` →
        ``9p``, docs/rules.md §10.1) when it is a Go rank."""
        if player.rank:
            plain = self.plain.get(player.rank, _UNSEEN)
            if plain is _UNSEEN:
                plain = self.plain[player.rank] = rank_text(player.rank)
            if plain is not None and plain != player.rank:
                player = replace(player, rank=plain)
        known = self.players.get(player.name)
        if known is None and type(player) is HistoryPlayer:  # the usual case, kept as given
            self.players[player.name] = player
            return
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
        for game in games:  # a game's own komi (Game.komi) wins over the event's KM
            self.games.append(
                game._replace(
                    black=renamed[game.black],
                    white=renamed[game.white],
                    size=size,
                    komi=komi if game.komi is None else game.komi,
                )
            )
        self.events[event.key] = event
        for name, player in players.items():
            self.add_player(replace(player, name=renamed[name]))
        self.files.append(FileReport(source, "ingested"))
        self.files.extend(skipped)

    def add_history(
        self, reader: Reader, plugin: str, paths: Sequence[Path], run: Mapping[str, Any]
    ) -> None:
        """The paths a reader reads as a game history (:attr:`Reader.history`), run as
        its plugin's hook: its games with the run's spelling of each name, its events,
        players, files and warnings."""
        section = self.sources.sections.get(plugin, {})
        hook = f"history ({reader.name})"
        found = call(plugin, hook, reader.history, paths, section, run, expect=_history_fault)
        self.warnings.extend(found.warnings)
        self.warnings.extend(self.pending)  # the spellings said after the reader's warnings
        self.pending.clear()
        self.events.update(found.events)
        games = found.games
        if isinstance(games, GameColumns):
            self.columns.append(self._renamed(games))
        else:
            names: dict[str, str] = {}
            for game in games:
                for raw in (game.black, game.white):
                    if raw not in names:
                        names[raw] = self.name(raw, game.source or reader.name)
            self.games.extend(
                game._replace(black=names[game.black], white=names[game.white])
                if (names[game.black], names[game.white]) != game[2:4]
                else game
                for game in games
            )
        for player in found.players.values():
            name = self.name(player.name, player.source or reader.name)
            self.add_player(player if name == player.name else replace(player, name=name))
        self.files.extend(found.files)

    def _renamed(self, games: GameColumns) -> GameColumns:
        """The games with the run's spelling of each name: the same columns unless a
        name was first spelled otherwise (by a tournament file read before), said once
        per name at its first game (in the columns' rows), after the reader's warnings."""
        c = games.columns
        known = self.spelled  # the same name columns, every name spelled as the run's
        if known and known[0] is c["black"] and known[1] is c["white"]:
            return games
        keys, spelling = self.keys, self.spelling
        # the usual case first, over the distinct names in any order (not per game): no
        # two spellings of one name, none spelled otherwise before
        mine: dict[str, str] = {}
        for raw in _distinct(c["black"], c["white"]):
            key = keys[raw]
            if mine.setdefault(key, raw) != raw or spelling.get(key, raw) != raw:
                break
        else:
            for key, raw in mine.items():
                spelling.setdefault(key, raw)
            self.spelled = (c["black"], c["white"])
            return games
        for raw in player_names(games):  # each name's first spelling: of its first game
            spelling.setdefault(keys[raw], raw)
        mark = len(self.warnings)
        spelled: dict[str, str] = {}
        for pair, source in zip(zip(c["black"], c["white"]), c["source"]):
            for raw in pair:
                if raw not in spelled:
                    spelled[raw] = self.name(raw, source)
        self.pending += self.warnings[mark:]
        del self.warnings[mark:]
        renamed = {}
        for side in ("black", "white"):
            column = c[side]
            if isinstance(column, Coded):
                renamed[side] = Coded(column.codes, [spelled.get(v, v) for v in column.values])
            else:
                renamed[side] = [spelled[v] for v in column]
        return GameColumns(**{**c, **renamed}, order=games.order)

    def add_path(self, path: Path) -> None:
        """One h9, XML or other reader's file: a dated tournament."""
        source = str(path)
        try:
            read = self.sources.read(path)
        except (InputError, ConfigError) as error:
            self.files.append(FileReport(source, "rejected", unnamed(error, source)))
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


def _distinct(*columns: Sequence) -> Iterable:
    """The values of name columns, each once, in no particular order."""
    seen: dict = {}
    for column in columns:
        seen.update(dict.fromkeys(column.values if isinstance(column, Coded) else column))
    return seen


#: The statuses of a history's account in the order its summary lists them (any other
#: status after these, by name).
STATUSES = ("ingested", "duplicate", "excluded", "rejected")


def summary_key(report: FileReport) -> str:
    """What a summary counts a file by: the key of its reason
    (:attr:`~sodos_hookspecs.FileReport.kind`, else the reason itself); an ingested file
    under ``""``."""
    return "" if report.status == "ingested" else (report.kind or report.reason)


def file_summary(
    files: Iterable[FileReport], key: Callable[[FileReport], str] = summary_key
) -> dict[str, dict[str, int]]:
    """The account of the files by status (in :data:`STATUSES`' order), then by
    ``key`` of each file (:func:`summary_key`; the rating document counts by the reason
    itself), each with its count, largest first (ties in the order met):
    ``{"excluded": {"undated": 111, "self-play": 98}, ...}``. Ingested files are counted
    under ``""``. The one count of a history's files: stderr's summary, the table's and
    the document's (``summary``) are made from it."""
    counts: dict[str, Counter] = {}
    for report in files:
        counts.setdefault(report.status, Counter())[key(report)] += 1
    order = {status: n for n, status in enumerate(STATUSES)}
    ordered = sorted(counts, key=lambda status: (order.get(status, len(order)), status))
    return {status: dict(counts[status].most_common()) for status in ordered}


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
    histories: dict[str, tuple[Reader, list[Path]]] = {}  # plugin → its reader, its paths
    for raw in paths:
        path = Path(raw)
        try:  # a name too long, a loop of links ...: said, naming the path
            found = exists(path)
        except FileRefused as error:
            raise InputError(str(error), source=str(path)) from None
        if not found:
            raise InputError("no such file or directory", source=str(path))
        try:
            reader, plugin = sources.claim(path)
        except InputError as error:
            collector.files.append(FileReport(str(path), "rejected", unnamed(error, str(path))))
            continue
        if reader.history is not None:
            histories.setdefault(plugin, (reader, []))[1].append(path)
        else:
            collector.add_path(path)
    keys = collector.keys
    for n, (plugin, (reader, found)) in enumerate(histories.items(), 1):
        # the last reader's columns are kept in game order when nothing else is there
        alone = n == len(histories) and not (
            collector.games or collector.columns or tournaments or games
        )

        def arrange(columns: GameColumns, previous: Any, saving: bool = True, alone=alone):
            columns = collector._renamed(columns)
            if not alone:
                return columns, None
            return _in_game_order(columns, keys.__getitem__, previous, saving)

        run = {
            "event_gap_days": sources.event_gap_days,
            "identity": keys.__getitem__,
            "jobs": jobs,
            "progress": progress,
            "cache": sources.cache,
            "arrange": arrange,
        }
        collector.add_history(reader, plugin, found, run)
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
    key = collector.keys.__getitem__
    columns = collector.columns
    if len(columns) == 1 and columns[0].order is not None and not collector.games:
        games = columns[0]  # an archive alone: columns in game order
    else:
        everything = [*itertools.chain.from_iterable(columns), *collector.games]
        everything.sort(key=lambda game: game_order(game, key))
        games = tuple(everything)
    warnings = list(dict.fromkeys(collector.warnings))
    return GameHistory(
        games=games,
        events=collector.events.plain(),
        players=collector.players,
        files=tuple(collector.files),
        warnings=tuple(warnings),
    )
