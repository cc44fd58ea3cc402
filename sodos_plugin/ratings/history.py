"""Game-history mode: many inputs → one :class:`~sodos_hookspecs.GameHistory` in date order.

Contract (docs/rules.md §10.1): :func:`read_history` reads

* SGF records (files, folders, ``.zip``/``.tar.gz``), a server's whole archive: mixed
  events, dated by ``DT``, duplicates dropped and reported, every unusable record
  reported with its reason (:mod:`sodos_plugin.readers.sgf.history`, the SGF ingest's
  own per-file records, served from the :mod:`~sodos_plugin.readers.sgf.cache` when unchanged);
* EGD h9 and OpenGotha XML files, and any other format a reader plugin reads: one
  tournament each, dated by its header (h9 ``DT[...]``, XML ``beginDate``) or by
  ``Tournament.date``; a tournament without a date is rejected;
* host objects: :class:`~sodos_plugin.engine.model.Tournament` s (dated) and
  :class:`~sodos_hookspecs.HistoryGame` s.

Games are ordered by date, then event, round, names, result and source, so that the
order of files given never changes a rating. A game without a result over the board
(unknown, void, won by default) is not rated and is reported.

:func:`read_initial` reads starting ratings from a CSV file (``name, rating[,
deviation]``, a header line optional).
"""

from __future__ import annotations

import bisect
import contextlib
import csv
import io
import itertools
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_hookspecs import (
    FileReport,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    InitialRating,
    RatingState,
)

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import Result, Tournament
from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.util.inputfiles import FileRefused, TooLarge, read_head, read_regular

if TYPE_CHECKING:
    from sodos_plugin.host import Host

_SCORES = {Result.BLACK_WINS: 1.0, Result.WHITE_WINS: 0.0, Result.JIGO: 0.5}
_DT = re.compile(r"^\s*;\s*DT\[\s*(\d{4}-\d{2}-\d{2})")
_CL = re.compile(r"^\s*;\s*CL\[\s*([A-Za-z])\s*\]")
MAX_INITIAL_BYTES = 64 << 20
MAX_INITIAL_ROWS = 1_000_000
MAX_PARTS = 16  # parts of a cached assembly before they are saved as one


class _Keys(dict):
    """``identity_key`` of each name, computed once per run (an archive of a hundred
    thousand games repeats a few thousand names)."""

    def __missing__(self, name: str) -> str:
        key = self[name] = identity_key(name)
        return key


def game_order(game: HistoryGame, key=identity_key) -> tuple:
    """Where a game sorts in a history (the module documentation's order)."""
    return _order(*game[:6], game.round, game.source, key)


def _order(date, event, black, white, result, handicap, round, source, key) -> tuple:
    return (date, event, round or 0, key(black), key(white), result, handicap, source)


def _in_game_order(games: GameColumns, key, previous: Any = None) -> tuple[GameColumns, dict]:
    """The columns with :attr:`~GameColumns.order` listing their rows by
    :func:`game_order` (no object per game), and that order as saved with the cache.

    ``previous``, the saved order of the first rows, is extended when those rows' events
    are still the same (new games that extend an event leave its key alone; one that
    starts it earlier changes it): only the new rows are sorted and put in place.
    """
    c = games.columns
    fields = [c[name] for name in ("date", "event", "black", "white", "result", "handicap")]
    fields += [c["round"], c["source"]]
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
    import hashlib

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
            skipped.append(FileReport(where, "excluded", why))
            continue
        score = _SCORES.get(game.result)
        if game.by_default:
            skipped.append(FileReport(where, "excluded", "won by default (not rated)"))
            continue
        if score is None:
            skipped.append(FileReport(where, "excluded", f"result {game.result.value} (not rated)"))
            continue
        games.append(
            HistoryGame(date, key, black, white, score, game.handicap, None, 19, game.round, where)
        )
    return games, event, players, skipped


def _h9_header(path: Path) -> tuple[str | None, str]:
    date, klass = None, ""
    try:  # a regular file only (sodos_plugin.util.inputfiles): a pipe would block here
        head = read_head(path, 16384).decode("utf-8", "replace")
    except FileRefused as error:
        raise InputError(str(error), source=str(path)) from None
    for line in head.splitlines():
        if not line.lstrip().startswith(";"):
            break
        if date is None and (m := _DT.match(line)):
            date = m.group(1)
        if not klass and (m := _CL.match(line)):
            klass = m.group(1).upper()
    return date, klass


def _xml_header(path: Path) -> tuple[str | None, int, float | None]:
    from sodos_plugin.readers import opengotha_file

    root = opengotha_file.scan(path, opengotha_file.MAX_BYTES)
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    if general is None:
        return None, 19, None
    date = (general.get("beginDate") or "").strip()[:10] or None
    try:
        size = int(general.get("size") or 19)
    except ValueError:
        size = 19
    try:
        komi = float(general.get("komi")) if general.get("komi") else None
    except ValueError:
        komi = None
    return date, size, komi


def _valid_date(text: str | None) -> str | None:
    from datetime import date

    try:
        return date.fromisoformat(text).isoformat() if text else None
    except ValueError:
        return None


class _Collector:
    def __init__(self, host: Host):
        self.host = host
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
        from sodos_plugin.readers.sgf import PLUGIN
        from sodos_plugin.readers.sgf.history import Assembly, Marks, ingest_history
        from sodos_plugin.readers.sgf.options import parse_options
        from sodos_plugin.readers.sgf.walk import collect

        settings = self.host.settings
        options = parse_options(dict(settings.plugin_sections.get(PLUGIN, {})))
        units, reports, settings_files = collect(list(paths), options.limits)
        reports = list(reports)
        reports += [
            FileReport(str(p), "excluded", "tournament settings: not used for ratings")
            for p in settings_files
        ]
        key = self.keys.__getitem__
        sources = [unit if isinstance(unit, str) else unit.source for unit in units]
        cache = self.host.history_cache(options)
        assembly, done, keys, states = Assembly(key), 0, [None] * len(units), []
        name = json.dumps([*map(os.path.abspath, paths), settings.event_gap_days])
        try:
            if cache is not None:
                # the assembly of the units seen before, when they come first (an archive
                # that grows by date or number): only the units after them are read
                keys = cache.keys_for(units)
                done, states = cache.parts(name, keys)
                try:
                    most = options.limits.max_games_per_file * done
                    assembly = Assembly.resume(states, sources[:done], key, most)
                except ValueError:  # never trusted: every unit from the per-file cache
                    done, states = 0, []
            outcomes = ingest_history(
                units[done:],
                fallback=options.fallback_encoding,
                limits=options.limits,
                jobs=jobs,
                cache=cache,
                keys=keys[done:],
                progress=progress(len(units) - done) if progress else None,
            )
            # the next part: the units up to the first one without a key (a few parts are
            # read together; many are saved again as one)
            start, since = done, assembly.marks()
            if len(states) >= MAX_PARTS and done < len(keys):
                start, since = 0, Marks()
            covered = next((i for i, k in enumerate(keys) if k is None), len(keys))
            for i, outcome in enumerate(outcomes, done):
                if i == covered and cache is not None:
                    cache.put_part(name, keys[:covered], start, assembly.state(sources, since))
                assembly.add(outcome)
            games, events, players, files, warnings = assembly.finish(
                settings.event_gap_days, reports
            )
            games, order = self._renamed(games), None
            if alone:
                previous = states[-1].get("order") if states else None
                games, order = _in_game_order(games, key, previous)
            if cache is not None and covered == len(keys) and done < covered:
                part = assembly.state(sources, since)
                if order is not None:
                    part["order"] = order
                cache.put_part(name, keys, start, part)
        finally:
            if cache is not None:
                self.warnings.extend(cache.warnings)
                cache.close()
        self.sgf = games
        self.events.update(events)
        for player in players.values():
            self.add_player(replace(player, name=self.name(player.name, player.source or "SGF")))
        self.files.extend(files)
        self.warnings.extend(warnings)

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
        host = self.host
        source = str(path)
        try:
            provided = host.reader_for(path)
            reader, builtin = provided.item, host.registry.plugins[provided.plugin].builtin
            read = host.read([path])
        except (InputError, ConfigError) as error:
            self.files.append(FileReport(source, "rejected", str(error)))
            return
        except OSError as error:
            self.files.append(FileReport(source, "rejected", f"cannot read: {error.strerror}"))
            return
        self.warnings.extend(read.warnings)
        tournament = read.tournament
        date, klass, size, komi = _valid_date(tournament.date), "", 19, None
        try:
            if builtin and reader.name == "h9":
                found, klass = _h9_header(path)
                date = date or _valid_date(found)
            elif builtin and reader.name == "opengotha-xml":
                found, size, komi = _xml_header(path)
                date = date or _valid_date(found)
        except (OSError, InputError) as error:
            self.files.append(FileReport(source, "rejected", f"cannot read its date: {error}"))
            return
        if date is None:
            self.files.append(
                FileReport(source, "rejected", "no date (h9 DT[...], XML beginDate): not rated")
            )
            return
        self.add_tournament(tournament, date, source, klass, size, komi)


def read_history(
    host: Host,
    paths: Sequence[Path | str] = (),
    *,
    tournaments: Iterable[Tournament] = (),
    games: Iterable[HistoryGame] = (),
    jobs: int | None = None,
    progress=None,
) -> GameHistory:
    """The game history of everything given (see the module documentation)."""
    collector = _Collector(host)
    tournaments, games = list(tournaments), list(games)
    sgf: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError("no such file or directory", source=str(path))
        try:
            provided = host.reader_for(path)
        except InputError as error:
            collector.files.append(FileReport(str(path), "rejected", str(error)))
            continue
        if provided.item.name == "sgf" and host.registry.plugins[provided.plugin].builtin:
            sgf.append(path)
        else:
            collector.add_path(path)
    if sgf:
        from sodos_plugin.engine.model import paused_gc

        # the cache's values, the assembly and the games: no reference cycles, and the
        # collector's passes over them cost a fifth of reading the cache (measured)
        with paused_gc():
            alone = not collector.games and not tournaments and not games
            collector.add_sgf(sgf, jobs, progress, alone)
    for n, tournament in enumerate(tournaments, 1):
        date = _valid_date(tournament.date)
        source = tournament.source or f"tournament {n}"
        if date is None:
            raise InputError(
                f"tournament {tournament.name!r} has no date (Tournament.date)", source=source
            )
        collector.add_tournament(tournament, date, source)
    for game in games:
        if not isinstance(game, HistoryGame):
            raise InputError(f"expected a HistoryGame, got {type(game).__name__}")
        if _valid_date(game.date) is None:
            raise InputError(f"game date {game.date!r} is not YYYY-MM-DD", source=game.source)
        collector.games.append(
            game._replace(
                black=collector.name(game.black, game.source),
                white=collector.name(game.white, game.source),
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


def read_initial(path: Path | str) -> dict[str, InitialRating]:
    """Starting ratings from CSV: ``name, rating[, deviation]`` (a header row is skipped).

    Names are matched by identity (docs/rules.md §8); a name twice, a rating that is not
    a finite number or an empty name is an error naming the line.
    """
    path = Path(path)
    source = str(path)
    try:  # a regular file only, bounded (sodos_plugin.util.inputfiles)
        text = read_regular(path, MAX_INITIAL_BYTES).decode("utf-8-sig")
    except TooLarge:
        raise InputError(f"larger than {MAX_INITIAL_BYTES} bytes", source=source) from None
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=source) from None
    found: dict[str, InitialRating] = {}
    keys: dict[str, int] = {}
    for number, row in enumerate(csv.reader(io.StringIO(text)), 1):
        if number > MAX_INITIAL_ROWS:
            raise InputError(f"more than {MAX_INITIAL_ROWS} rows", source=source)
        cells = [c.strip() for c in row]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if len(cells) < 2 or len(cells) > 3:
            raise InputError(f"line {number}: expected name, rating[, deviation]", source=source)
        try:
            values = [float(c) for c in cells[1:]]
        except ValueError:
            if number == 1 and not found:
                continue  # a header
            raise InputError(
                f"line {number}: {cells[1:]!r} is not a number", source=source
            ) from None
        if not cells[0]:
            raise InputError(f"line {number}: empty name", source=source)
        if any(v != v or v in (float("inf"), float("-inf")) for v in values):
            raise InputError(f"line {number}: not a finite number", source=source)
        key = identity_key(cells[0])
        if key in keys:
            raise InputError(
                f"line {number}: {cells[0]!r} is also on line {keys[key]}", source=source
            )
        keys[key] = number
        state = RatingState(values[0], values[1] if len(values) > 1 else None)
        found[cells[0]] = InitialRating(state, f"{path.name}:{number}")
    return found


#: Whitespace other than the space (an ASCII name with one is not its own identity key).
_OTHER_SPACE = re.compile(r"[\t\n\x0b\x0c\r\x1c-\x1f]")


def _own_keys(names: list[str]) -> bool:
    """Whether each name is its own ``identity_key`` (the usual table of a host: ASCII,
    lower case, single inner spaces), checked on all of them at once."""
    joined = "\x00".join(names)  # NUL: neither a space nor changed by lower()
    return (
        joined.isascii()
        and joined == joined.lower()
        and not _OTHER_SPACE.search(joined)
        and "  " not in joined
        and "\x00 " not in joined
        and " \x00" not in joined
        and not joined.startswith(" ")
        and not joined.endswith(" ")
    )


def _identity_keys(names: list[str]) -> list[str]:
    """``identity_key`` of each name (the names themselves when :func:`_own_keys`)."""
    return names if _own_keys(names) else list(map(identity_key, names))


def match_initial(
    initial: Mapping[str, InitialRating], history: GameHistory
) -> tuple[dict[str, InitialRating], list[str]]:
    """Initial ratings keyed by the history's spelling of each name (identity), and a
    warning for names in the file that play in no game."""
    names = _names(history)
    keys = _identity_keys(names)
    by_key = dict(zip(keys, names))  # the last of one key wins
    given = list(initial)
    given_keys = _identity_keys(given)
    if keys is names and given_keys is given and all(map(by_key.__contains__, given)):
        return dict(initial), []  # every name its own key and in a game: each is its target
    out: dict[str, InitialRating] = {}
    unused = []
    for (name, rating), key in zip(initial.items(), given_keys):
        target = by_key.get(key)
        if target is None:
            unused.append(name)
        else:
            out[target] = rating
    warnings = []
    if unused:
        shown = ", ".join(repr(n) for n in unused[:5]) + (" ..." if len(unused) > 5 else "")
        warnings.append(f"initial ratings: {len(unused)} name(s) play in no game: {shown}")
    return out, warnings


def _names(history: GameHistory) -> list[str]:
    """Each player once, by first appearance (Black before White, game by game)."""
    if isinstance(history.games, GameColumns):  # no object per game
        from sodos_plugin.ratings.columns import player_names

        return player_names(history.games)
    seen: dict[str, None] = {}
    for game in history.games:
        seen.setdefault(game.black, None)
        seen.setdefault(game.white, None)
    return list(seen)


def file_ratings(history: GameHistory) -> dict[str, InitialRating]:
    """The ratings the files carry themselves (OpenGotha XML ``rating``)."""
    return {
        name: InitialRating(RatingState(float(p.rating)), f"{p.source} rating")
        for name, p in history.players.items()
        if p.rating is not None
    }
