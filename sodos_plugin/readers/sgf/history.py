"""SGF game records → dated games of a game history (docs/rules.md §10.1).

Contract: :func:`ingest_unit` reads one unit :func:`.walk.collect` found into a
:class:`HistoryOutcome`: the file's :class:`~.ingest.FileOutcome` (the tournament
ingest's own records, same parser) plus, per record, what ratings need and tournament
ingest does not keep — komi, board size and a fingerprint of the moves (for
duplicates). A :class:`~sodos_plugin.readers.sgf.cache.Cache` serves files seen before
(same path, size and modification time) without reading them. :func:`ingest_chunks`
reads the units a run of consecutive units at a time, in worker processes with
``jobs``, and assembles each run where it was read (:func:`assemble`, a :class:`Chunk`).

:class:`Assembly` merges the chunks in unit order (:meth:`Assembly.merge`: first
spellings and duplicates of earlier chunks decided per distinct name and kept game)
into the games
(:class:`~sodos_hookspecs.GameColumns`), events, players and an account of every file:
a record is rated when it has two players, a date (``DT``, in any layout of
:func:`game_date`) and a result over the board (``RE``; games won by default are not
rated); a valid record that lacks one of them is *excluded*, by a reason of
:mod:`sodos_plugin.readers.dated`, and a file that cannot be read is *rejected*. The
same game in two files (same date, players, colours, result, handicap, komi, size and
moves) is one game, the later file reported as a duplicate. Records with the same ``EV``
are one event while their dates are at most ``event_gap_days`` apart; a record without
``EV`` is an event of its own. An assembly can be saved after some units and resumed by a later run
(:meth:`Assembly.state`, :meth:`Assembly.resume`): the cache keeps it in parts.
"""

from __future__ import annotations

import base64
import bisect
import contextlib
import hashlib
import itertools
import json
import math
import os
import re
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from sodos_hookspecs import FileReport, GameColumns, HistoryEvent, HistoryPlayer

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE
from sodos_plugin.readers import dated
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record, clear_shared, ingest_bytes
from sodos_plugin.readers.sgf.options import SgfOptions, parse_options
from sodos_plugin.readers.sgf.scan import scan_roots, scan_single
from sodos_plugin.readers.sgf.values import komi
from sodos_plugin.readers.sgf.walk import PARALLEL_MIN_UNITS, Limits, Unit, collect, task_starts
from sodos_plugin.util.gcpause import worker_start
from sodos_plugin.util.inputfiles import FileRefused, read_regular
from sodos_plugin.util.lazy import LazyModule
from sodos_plugin.util.progress import Progress

__all__ = [
    "Assembly",
    "Chunk",
    "Extra",
    "HistoryOutcome",
    "archive_history",
    "assemble",
    "ingest_chunks",
]

# only parallel reads need it (sodos_plugin.util.lazy)
parallel = LazyModule("sodos_plugin.util.workers", globals(), "parallel")

MAX_PARTS = 16  # parts of a cached assembly before they are saved as one

#: A move as the fingerprint takes it: its bytes, spaces inside included.
_MOVE = re.compile(rb";\s*[BW]\s*\[[a-zA-Z]{0,2}\]")
#: A move written without spaces, and a run of them with spaces between only.
_PLAIN_MOVE = re.compile(rb";[BW]\[[a-zA-Z]{0,2}\]")
_PLAIN_RUN = re.compile(rb";[BW]\[[a-zA-Z]{0,2}\](?:\s*;[BW]\[[a-zA-Z]{0,2}\])*")
_SPACE = b" \t\n\r\x0b\x0c"  # \s of a bytes pattern, bytes.split()'s whitespace
_GAME_END = b")" + _SPACE
_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
_PASSES = (b";B[]", b";W[]")
#: What may follow a plain move in a run of them (and b"": the end of the data).
_NEXT_OF_PLAIN = frozenset([b"", b";", b")", *(bytes([c]) for c in _SPACE)])
_NUMBER = re.compile(rb"\s*(\d{1,3})")


class Extra(NamedTuple):
    """What a record gives ratings beyond :class:`~.ingest.Record`."""

    komi: float | None
    size: int
    fingerprint: str


class HistoryOutcome(NamedTuple):
    outcome: FileOutcome
    extras: tuple[Extra, ...] = ()


def _size(raw: bytes | list | None) -> int:
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    if raw is None:
        return 19
    match = _NUMBER.match(raw)
    return int(match.group(1)) if match else 19


def moves(data: bytes) -> bytes:
    """The moves a record's fingerprint hashes: every match of :data:`_MOVE` in
    ``data``, joined (``b"".join(_MOVE.findall(data))``), found faster where the record
    allows; the same bytes always (tests/readers/sgf/test_history_moves.py).

    A regular expression costs about 0.1 µs a move; a server's record is mostly a run of
    plain moves (``;B[pd];W[dp]``, whitespace between). So the moves from the first
    plain move to the end of the game (``]`` then only ``)`` and whitespace) are taken
    in whole-buffer passes when that part is nothing but plain moves of two letters (and
    passes at its end) with whitespace before a ``;`` only: such a part is its own
    matches, less the whitespace between them. Otherwise, where the first plain move
    starts a run of them, that run is taken as one match of :data:`_PLAIN_RUN` and the
    rest by :data:`_MOVE`; else the pattern finds them all. No match crosses the edge of
    either part: a part starts at ``;``, which a match holds only first, and ends after
    a whole move."""
    first = _PLAIN_MOVE.search(data)
    if first is None or data[first.end() : first.end() + 1] not in _NEXT_OF_PLAIN:
        # no plain move, or moves with more in their node (OGS's ``;B[pd]BL[596.7]``):
        # no run of plain moves to take whole
        return b"".join(_MOVE.findall(data))
    start = first.start()
    end = len(data.rstrip(_GAME_END))
    if data[end - 1] == 0x5D:  # "]"
        part = data[start:end]
        tokens = part.translate(None, _SPACE)
        moves_end = len(tokens)  # the passes that end a game (``;W[];B[]``) set apart
        while tokens.endswith(_PASSES, 0, moves_end):
            moves_end -= 4
        passes, tokens = tokens[moves_end:], tokens[:moves_end]
        count = len(tokens) // 6
        if (
            len(tokens) == 6 * count
            and (len(tokens) + len(passes) == len(part) or _spaces_before_moves(part))
            and tokens[0::6].count(b";") == count
            and tokens[2::6].count(b"[") == count
            and tokens[5::6].count(b"]") == count
            and not tokens[1::6].translate(None, b"BW")
            and not (tokens[3::6] + tokens[4::6]).translate(None, _LETTERS)
        ):
            return b"".join(_MOVE.findall(data, 0, start)) + tokens + passes
    run = _PLAIN_RUN.search(data, start)
    assert run is not None  # the plain move at start begins one
    before, after = run.span()
    run_moves = run.group().translate(None, _SPACE)
    return b"".join((*_MOVE.findall(data, 0, before), run_moves, *_MOVE.findall(data, after)))


def _spaces_before_moves(part: bytes) -> bool:
    """Every run of whitespace in ``part`` (which starts and ends with no whitespace)
    comes before a ``;``."""
    single = b" ".join(part.split())
    return single.count(b" ") == single.count(b" ;")


def _extras(data: bytes, found: Sequence[Record], scanned: Sequence = ()) -> tuple[Extra, ...]:
    """Komi (:func:`.values.komi`), size and a moves fingerprint per record (the
    project's own scanner; ``scanned``: what :func:`.scan.scan_single` gave for ``data``
    when the ingest called it, not scanned again)."""
    records = len(found)
    roots = None
    if records == 1:
        single = scanned[0] if scanned else scan_single(data)
        roots = [single] if single is not None else None
    if roots is None:
        try:
            roots, _ = scan_roots(data)
        except ValueError:
            roots = []
    if records == 1:
        prints = [hashlib.blake2b(moves(data), digest_size=12).hexdigest()]
    else:
        whole = hashlib.blake2b(data, digest_size=12).hexdigest()
        prints = [f"{whole}#{n}" for n in range(1, records + 1)]
    out = []
    for n in range(records):
        raw = roots[n] if n < len(roots) else {}
        handicap = found[n].handicap if n < records else 0
        out.append(Extra(komi(raw, handicap), _size(raw.get(b"SZ")), prints[n]))
    return tuple(out)


def ingest_unit(unit: str | Unit, fallback: str, limits: Limits) -> HistoryOutcome:
    """One unit → its outcome and extras; never raises for bad input."""
    source = unit if isinstance(unit, str) else unit.source
    data = None if isinstance(unit, str) else unit.data
    if data is None:
        try:
            data = read_regular(source, limits.max_file_bytes, "max_file_bytes")
        except FileRefused as error:
            return HistoryOutcome(FileOutcome(source, error=str(error)))
    scanned: list = []
    outcome = ingest_bytes(
        data,
        source,
        fallback,
        max_games=limits.max_games_per_file,
        max_tokens=limits.max_parse_tokens,
        scanned=scanned,
    )
    if outcome.error is not None:
        return HistoryOutcome(outcome)
    return HistoryOutcome(outcome, _extras(data, outcome.records, scanned))


def _chunk_of(
    items: list,
    fallback: str,
    limits: Limits,
    key: Callable[[str], str],
    fresh: bool,
    between: Callable[[], Any] | None = None,
) -> tuple[Chunk, list[HistoryOutcome]]:
    """One task (in a worker, or in this process): consecutive units, read (or the
    outcomes the cache gave for them), as their :class:`Chunk`; and, when ``fresh``,
    the outcomes read (the cache keeps them). ``between``: called every 32 units (see
    :func:`sodos_plugin.util.workers.in_order`)."""
    outcomes = []
    for i, item in enumerate(items, 1):
        outcomes.append(
            item if isinstance(item, HistoryOutcome) else ingest_unit(item, fallback, limits)
        )
        if between is not None and not i & 31:
            between()
    read = []
    if fresh:
        read = [o for item, o in zip(items, outcomes) if not isinstance(item, HistoryOutcome)]
    return assemble(outcomes, key), read


def ingest_chunks(
    units: Sequence[str | Unit],
    *,
    fallback: str,
    limits: Limits,
    key: Callable[[str], str] = identity_key,
    jobs: int | None = None,
    cache=None,
    keys: Sequence | None = None,
    progress: Progress | None = None,
    cut: int | None = None,
) -> Iterator[tuple[int, Chunk]]:
    """The units as :class:`Chunk` s of consecutive units, each with its first unit's
    number, in unit order (one starts at ``cut``), each given as soon as it is made (the
    caller merges it while the workers make the next); cached units are not read.
    ``keys``: the units' cache keys when already known (:meth:`.cache.Cache.keys_for`).
    With ``jobs`` > 1 and enough units, ``jobs`` processes read and assemble the chunks,
    this one among them (:func:`sodos_plugin.util.workers.in_order`);
    :meth:`Assembly.merge` of them in order is the same whatever the chunks are and
    whoever made them."""
    items: list = list(units)
    todo = len(items)
    if keys is None:
        keys = [None] * len(units) if cache is None else cache.keys_for(units)
    if cache is not None:
        hits = cache.get_many([k for k in keys if k is not None])
        for i, k in enumerate(keys):
            hit = hits.get(k) if k is not None else None
            if hit is not None:
                items[i] = hit
                todo -= 1
    progress = progress or Progress(todo)
    cores = os.cpu_count() or 1
    # processes that read: this one and its workers, capped as the tournament walk is
    processes = cores if jobs is None else min(jobs, cores)
    if todo < PARALLEL_MIN_UNITS:
        processes = 1
    starts = task_starts(len(items), processes)
    bounds = sorted({*starts, *([cut] if cut else [])} - {len(items)})
    spans = list(zip(bounds, [*bounds[1:], len(items)]))
    tasks = [items[a:b] for a, b in spans]
    fresh = cache is not None
    read: list[HistoryOutcome] = []
    done = 0
    more = (fallback, limits, key, fresh)
    results = parallel.in_order(_chunk_of, tasks, more, processes, worker_start)
    try:
        with contextlib.closing(results):  # the workers end with the last chunk
            for (a, b), (chunk, outcomes) in zip(spans, results):
                read += outcomes
                done += len(outcomes) if fresh else b - a
                progress.update(done)
                yield a, chunk
    finally:
        clear_shared()  # a host that lives on does not keep every name it read
    progress.update(done)
    progress.close()
    if cache is not None:
        todo_keys = [k for item, k in zip(items, keys) if not isinstance(item, HistoryOutcome)]
        cache.put_many([(k, o) for k, o in zip(todo_keys, read) if k is not None])


_UNSEEN = object()


def game_date(text: str | None) -> str | None:
    """The first date of a ``DT`` value, ISO ``YYYY-MM-DD`` (``2017.06.21 19:43`` →
    2017-06-21, ``2002-10-23,24`` → 2002-10-23), or None when it holds no full date
    (:func:`sodos_plugin.readers.dated.first_day`, docs/rules.md §10.1)."""
    return dated.first_day(text)


def game_time(text: str | None) -> str | None:
    """The time of day a ``DT`` value writes right after its first date, ``HH:MM:SS``
    (Fox's ``2017-01-04 09:35:00``, ``2017-04-04T09:59:32.86+00:00``, ``2017.06.21
    19:43``), or None (a date alone, a list or range of dates): it orders one day's
    games as a games table's times do (:func:`sodos_plugin.readers.dated.time_of_day`)."""
    return dated.time_of_day(text)


#: ``ParsedResult.how`` of a result not rated → the reason's key.
_NOT_RATED = {
    "void": dated.VOID,
    "unrecognised": dated.NOT_UNDERSTOOD,
}


def _unusable(record: Record, date: str | None) -> tuple[str, str] | None:
    """Why a record is not rated, as (key of :mod:`~sodos_plugin.readers.dated`,
    reason), or None."""
    if not record.black or not record.white:
        missing = " and ".join(p for p, v in (("PB", record.black), ("PW", record.white)) if not v)
        return dated.NO_PLAYERS, f"no player name: {missing} missing or empty (not rated)"
    if record.black == record.white:
        return dated.SELF_PLAY, f"PB and PW are both {record.black!r}: self-play (not rated)"
    if date is None:
        if record.date:
            return dated.UNDATED, f"DT[{record.date}]: not a full date (not rated)"
        return dated.UNDATED, "no DT: the game's date is unknown (not rated)"
    parsed = record.result
    if parsed.by_default:
        return dated.FORFEIT, f"RE[{record.result_text}]: won by default (not rated)"
    if parsed.result not in BLACK_SCORE:
        why = parsed.note or f"RE[{record.result_text or ''}]: result unknown"
        if not why.startswith("RE["):
            why = f"RE[{record.result_text or ''}]: {why}"
        return _NOT_RATED.get(parsed.how, dated.UNFINISHED), f"{why} (not rated)"
    return None


#: The kept games' columns, as :class:`Assembly` holds and saves them.
KEPT = (
    "date", "black", "white", "score", "handicap", "komi", "size", "round", "source",
    "event", "black_rank", "white_rank", "fingerprint", "time",
)  # fmt: skip


def _text(value: Any) -> bool:
    return type(value) is str


def _maybe_text(value: Any) -> bool:
    return value is None or type(value) is str


def _whole(low: int, high: int | None) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and low <= v and (high is None or v <= high)


#: What each kept column may hold, as :meth:`Assembly.add` keeps it: a saved assembly
#: with anything else is damaged, never trusted (docs/ratings.md, "The cache").
KEPT_VALUES: dict[str, Callable[[Any], bool]] = {
    "date": lambda v: type(v) is str and _FULL_DATE.fullmatch(v) is not None,
    "black": lambda v: type(v) is str and v != "",
    "white": lambda v: type(v) is str and v != "",
    "score": lambda v: type(v) is float and v in (0.0, 0.5, 1.0),
    "handicap": _whole(0, 9),
    "komi": lambda v: v is None or (type(v) is float and math.isfinite(v) and abs(v) < 1000),
    "size": _whole(0, 999),
    "round": lambda v: v is None or _whole(-999_999, 999_999)(v),
    "source": _text,
    "event": _maybe_text,
    "black_rank": _maybe_text,
    "white_rank": _maybe_text,
    "fingerprint": _text,
    "time": lambda v: v is None or (type(v) is str and _TIME.fullmatch(v) is not None),
}
_FULL_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d")


def _packed(column: list) -> list | dict[str, Any]:
    """A column as saved: ``{"runs": [[value, count], ...]}`` when it mostly repeats
    (sizes, handicaps, statuses), ``{"values": [...], "codes": "<base64>"}`` when it has
    few values (dates, names, events, ranks: 32-bit little-endian codes into the values),
    else the column itself (also one of mixed types, where 1 == 1.0 == True would merge
    values). JSON parses a code string far faster than the strings."""
    n = len(column)
    if not column or len(set(map(type, column)) - {type(None)}) > 1:
        return column
    if sum(1 for _ in itertools.groupby(column)) <= n // 8:
        return {"runs": [[value, sum(1 for _ in run)] for value, run in itertools.groupby(column)]}
    values = dict.fromkeys(column)
    if len(values) > n // 2:
        return column
    code = {value: k for k, value in enumerate(values)}
    codes = array("i", map(code.__getitem__, column))
    if sys.byteorder == "big":
        codes.byteswap()
    return {"values": list(values), "codes": base64.b64encode(codes.tobytes()).decode()}


def _unpacked(saved: Any, rows: int) -> list:
    """The inverse of :func:`_packed`, of ``rows`` values; ValueError otherwise."""
    if isinstance(saved, list):
        if len(saved) != rows:
            raise ValueError(f"a column of {len(saved)} values, not {rows}")
        return saved
    if "runs" in saved:
        runs = saved["runs"]
        if sum(count for _, count in runs) != rows or any(count < 1 for _, count in runs):
            raise ValueError(f"runs of a column do not make {rows} values")
        column: list = []
        for value, count in runs:
            column += [value] * count
        return column
    values, codes = saved["values"], array("i")
    codes.frombytes(base64.b64decode(saved["codes"], validate=True))
    if sys.byteorder == "big":
        codes.byteswap()
    if len(codes) != rows or (rows and not 0 <= min(codes) <= max(codes) < len(values)):
        raise ValueError(f"codes of a column do not make {rows} values")
    return list(map(values.__getitem__, codes))


def _steps(numbers: list[int], first: int) -> list | dict[str, list]:
    """Unit numbers as steps from the one before (mostly 0 or 1: they pack into runs)."""
    return _packed([b - a for a, b in zip([first, *numbers], numbers)])


def _numbers(saved: Any, count: int, first: int, units: int) -> list[int]:
    """The inverse of :func:`_steps`: ``count`` unit numbers from ``first`` on, each
    below ``units``; ValueError otherwise."""
    steps = _unpacked(saved, count)
    if steps and min(steps) < 0:  # a step that is no number fails here or on indexing
        raise ValueError("unit numbers that go back")
    numbers = list(itertools.accumulate(steps, initial=first))[1:]
    if numbers and numbers[-1] >= units:
        raise ValueError("unit numbers beyond the units")
    return numbers


def _own_as_null(paths: list[str], numbers: list[int], sources: Sequence[str]) -> list:
    """A unit's own source saved as null (the run that resumes knows its units)."""
    return [None if path == sources[n] else path for path, n in zip(paths, numbers)]


def _own_restored(saved: list, numbers: list[int], sources: Sequence[str]) -> list[str]:
    if len(saved) != len(numbers):
        raise ValueError("paths and unit numbers differ in number")
    paths = [sources[n] if path is None else path for path, n in zip(saved, numbers)]
    if not set(map(type, paths)) <= {str}:
        raise ValueError("a path that is not text")
    return paths


class Marks(NamedTuple):
    """How much an :class:`Assembly` holds (where its next part starts)."""

    files: int = 0
    warnings: int = 0
    spelling: int = 0
    merged: int = 0
    rows: int = 0
    units: int = 0


class Chunk:
    """What a run of consecutive units gives on its own (:func:`assemble`), made where
    the units are read (a worker process), merged in unit order by
    :meth:`Assembly.merge` with what the units before it gave.

    Everything a unit decides alone is done here: its records read, dated, checked, its
    names coded, the duplicates among the run's own games found, its file reports and
    the warnings of its kept games. What depends on the units before is left for the
    merge, with what it needs to decide it without the records: each distinct name with
    its identity key, the file and the warning it first appears at (whose spelling is the
    first is decided over every unit); each kept game's fingerprint and duplicate key (a
    game of an earlier run is the first of its duplicates), its place among its unit's
    reports and the warnings it added (a game found to repeat an earlier run's is taken
    out again). The merge is per distinct name and per kept game, never per record text.
    """

    __slots__ = (
        "units", "files", "file_units", "dup_refs", "warnings", "raws", "keys", "firsts", "kept",
        "row_units", "row_before", "row_warn", "by_print", "by_key",
    )  # fmt: skip

    def __init__(self) -> None:
        self.units = 0
        # each report as (path, status, reason, kind): a tuple is made and pickled at C
        # speed; its FileReport is made once, by the merge
        self.files: list[tuple[str, str, str, str]] = []
        self.file_units: list[int] = []  # the unit (in the run) of each report
        self.dup_refs: list[tuple[int, int]] = []  # (report, kept row it names as the first)
        self.warnings: list[str] = []  # the kept games' notes, in order
        # distinct names in order of first use (their codes), as columns: each name, its
        # identity key, and where it is first used (the source, the warnings before it)
        self.raws: list[str] = []
        self.keys: list[str] = []
        self.firsts: list[tuple[str, int]] = []
        self.kept: dict[str, list] = {name: [] for name in KEPT}  # black, white: name codes
        self.row_units: list[int] = []
        self.row_before: list[int] = []  # reports of its unit's records before it; -1: alone
        self.row_warn: list[int] = []  # its first warning's place in ``warnings``
        self.by_print: dict[str, int] = {}  # as Assembly's, over the run's kept rows
        self.by_key: dict[tuple, int] = {}

    def __getstate__(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state) -> None:
        for name, value in zip(self.__slots__, state):
            setattr(self, name, value)


def assemble(results: Iterable[HistoryOutcome], key: Callable[[str], str]) -> Chunk:
    """Consecutive units' outcomes → their :class:`Chunk`.

    A file of one game is reported as ingested, duplicate or excluded (with the reason's
    key); in a collection, each game not rated gets its own report (``file.sgf#2``), as
    a loose file would.
    """
    chunk = Chunk()
    files, file_units, dup_refs = chunk.files, chunk.file_units, chunk.dup_refs
    warnings, raws, keys, firsts, kept = (
        chunk.warnings,
        chunk.raws,
        chunk.keys,
        chunk.firsts,
        chunk.kept,
    )
    row_units, row_before, row_warn = chunk.row_units, chunk.row_before, chunk.row_warn
    by_print, by_key = chunk.by_print, chunk.by_key
    codes: dict[str, int] = {}  # raw name → its code
    dates: dict[str | None, tuple] = {}  # DT text → its date and time of day
    columns = [kept[name] for name in KEPT]
    prints, sources = kept["fingerprint"], kept["source"]

    def code(raw: str, source: str) -> int:
        found = codes.get(raw)
        if found is None:
            found = codes[raw] = len(raws)
            raws.append(raw)
            keys.append(key(raw))
            firsts.append((source, len(warnings)))
        return found

    unit = -1
    for unit, result in enumerate(results):
        outcome = result.outcome
        if outcome.error is not None:
            files.append((outcome.source, "rejected", outcome.error, ""))
            file_units.append(unit)
            continue
        alone = len(outcome.records) == 1
        used = 0
        problems: list[tuple[str, str, str, str, int]] = []  # (where, status, why, kind, row)
        for record, extra in zip(outcome.records, result.extras):
            when = dates.get(record.date, _UNSEEN)
            if when is _UNSEEN:
                when = dates[record.date] = (game_date(record.date), game_time(record.date))
            date, time = when
            why = _unusable(record, date)
            if why is not None:
                problems.append((record.source, "excluded", why[1], why[0], -1))
                continue
            black = code(record.black, record.source)
            white = code(record.white, record.source)
            if keys[black] == keys[white]:
                why = (
                    f"PB {record.black!r} and PW {record.white!r} are one name "
                    "(docs/rules.md §8): self-play (not rated)"
                )
                problems.append((record.source, "excluded", why, dated.SELF_PLAY, -1))
                continue
            score = BLACK_SCORE[record.result.result]
            dup_key = (
                date, keys[black], keys[white], score, record.handicap, extra.komi, extra.size,
                record.round, extra.fingerprint,
            )  # fmt: skip
            row = len(prints)
            first = by_print.setdefault(extra.fingerprint, row)
            known = None
            if first != row:
                if _chunk_dup_key(chunk, keys, first) == dup_key:
                    known = first
                else:
                    known = by_key.setdefault(dup_key, row)
                    known = None if known == row else known
            if known is not None:
                same = f"same game as {sources[known]}"
                problems.append((record.source, "duplicate", same, "", known))
                continue
            row_units.append(unit)
            row_before.append(-1 if alone else len(problems))
            row_warn.append(len(warnings))
            for column, value in zip(
                columns,
                (
                    date, black, white, score, record.handicap, extra.komi, extra.size,
                    record.round, record.source, record.event, record.black_rank,
                    record.white_rank, extra.fingerprint, time,
                ),
            ):  # fmt: skip
                column.append(value)
            used += 1
            if record.notes:
                warnings.extend(f"{record.source}: {note}" for note in record.notes)
        if alone and problems:
            where, status, why, kind, row = problems[0]
            if row >= 0:
                dup_refs.append((len(files), row))
            files.append((outcome.source, status, why, kind))
            file_units.append(unit)
            continue
        if used:
            files.append((outcome.source, "ingested", "", ""))
            file_units.append(unit)
        elif not problems:
            files.append((outcome.source, "rejected", "no games", ""))
            file_units.append(unit)
        for where, status, why, kind, row in problems:
            if row >= 0:
                dup_refs.append((len(files), row))
            files.append((where, status, why, kind))
            file_units.append(unit)
    chunk.units = unit + 1
    return chunk


def _chunk_dup_key(chunk: Chunk, keys: Sequence[str], row: int) -> tuple:
    """The duplicate key of a chunk's kept row (its names by their codes' keys)."""
    kept = chunk.kept
    return (
        kept["date"][row], keys[kept["black"][row]], keys[kept["white"][row]],
        kept["score"][row], kept["handicap"][row], kept["komi"][row], kept["size"][row],
        kept["round"][row], kept["fingerprint"][row],
    )  # fmt: skip


def _interleaved(warnings: list[str], said: list[tuple[int, str]], dropped: set[int]) -> list[str]:
    """``warnings`` less the ``dropped`` places, with each of ``said`` (place, text) put
    before the warning at its place."""
    if not said and not dropped:
        return warnings
    out: list[str] = []
    at = 0
    for place, text in [*said, (len(warnings), None)]:
        out += [w for j, w in enumerate(warnings[at:place], at) if j not in dropped]
        if text is not None:
            out.append(text)
        at = place
    return out


class Assembly:
    """Outcomes → games, events, players, an account of every file and warnings (see the
    module doc), one unit at a time in unit order.

    Resumable: the assembly only ever appends (files, warnings, kept games) and adds
    (first spellings, merges), so :meth:`state` since :meth:`marks` is the part that the
    units since then added, as JSON-ready data, and :meth:`resume` of the parts in order
    continues with the units after them exactly as one pass over all of them would (the
    first spelling of a name, the first of duplicate games and the warnings depend only
    on the units before). :meth:`finish` groups events and ranks over every kept game,
    so an event that new games extend is regrouped.
    """

    def __init__(self, key: Callable[[str], str] = identity_key):
        self.key = key
        self.files: list[FileReport] = []
        self.warnings: list[str] = []
        self.spelling: dict[str, tuple[str, str]] = {}  # identity key → first spelling, file
        self.merged: dict[tuple[str, str], None] = {}  # (first spelling, another) said
        # duplicates: a kept game's row by its moves' fingerprint (the first with it), and
        # by its whole duplicate key for the others with that fingerprint
        self.by_print: dict[str, int] = {}
        self.by_key: dict[tuple, int] = {}
        self.kept: dict[str, list] = {name: [] for name in KEPT}
        self.units = 0  # units added
        self.file_units: list[int] = []  # the unit each file report is of
        self.row_units: list[int] = []  # the unit each kept game is from

    # -- saving and resuming -----------------------------------------------------------

    def marks(self) -> Marks:
        """How much the assembly holds now (where :meth:`state` starts a part)."""
        return Marks(
            len(self.files), len(self.warnings), len(self.spelling), len(self.merged),
            len(self.kept["date"]), self.units,
        )  # fmt: skip

    def state(self, sources: Sequence[str], since: Marks | None = None) -> dict[str, Any]:
        """What the units added since ``since`` (:meth:`marks`), as JSON-ready data.
        ``sources``: the units' own sources, in unit order (saved as null where a file
        or game has its unit's own)."""
        since = Marks() if since is None else since
        reports, rows = self.files[since.files :], since.rows
        file_units, row_units = self.file_units[since.files :], self.row_units[rows:]
        kept = {name: _packed(column[rows:]) for name, column in self.kept.items()}
        kept["source"] = _own_as_null(self.kept["source"][rows:], row_units, sources)
        return {
            "units": self.units - since.units,
            "files": [
                _own_as_null([f.path for f in reports], file_units, sources),
                _packed([f.status for f in reports]),
                _packed([f.reason for f in reports]),
                _steps(file_units, since.units),
                _packed([f.kind for f in reports]),
            ],
            "warnings": self.warnings[since.warnings :],
            "spelling": [[k, *v] for k, v in list(self.spelling.items())[since.spelling :]],
            "merged": list(self.merged)[since.merged :],
            "rows": len(self.kept["date"]) - rows,
            "row_units": _steps(row_units, since.units),
            "kept": kept,
        }

    @classmethod
    def resume(
        cls,
        parts: Sequence[Any],
        sources: Sequence[str],
        key: Callable[[str], str] = identity_key,
        max_rows: int = 0,
    ) -> Assembly:
        """The assembly whose :meth:`state` parts these are, in order, of the units whose
        sources are ``sources``; ValueError when they are not. ``max_rows`` bounds the
        games a part may say it holds."""
        self = cls(key)
        kept = self.kept
        try:
            for part in parts:
                first, units = self.units, self.units + part["units"]
                if not isinstance(part["units"], int) or not first < units <= len(sources):
                    raise ValueError(f"{part['units']!r} units")
                paths, statuses, reasons, steps, kinds = part["files"]
                numbers = _numbers(steps, len(paths), first, units)
                paths = _own_restored(paths, numbers, sources)
                statuses, reasons = _unpacked(statuses, len(paths)), _unpacked(reasons, len(paths))
                kinds = _unpacked(kinds, len(paths))
                if not set(map(type, [*statuses, *reasons, *kinds])) <= {str}:
                    raise ValueError("a file's status, reason or kind that is not text")
                self.files += map(FileReport, paths, statuses, reasons, kinds)
                self.file_units += numbers
                texts = [*part["warnings"], *itertools.chain.from_iterable(part["spelling"])]
                texts += itertools.chain.from_iterable(part["merged"])
                if not set(map(type, texts)) <= {str}:  # checked as input, never made text
                    raise ValueError("a warning or a name that is not text")
                self.warnings += part["warnings"]
                for k, raw, source in part["spelling"]:
                    self.spelling[k] = (raw, source)
                self.merged.update(((a, b), None) for a, b in part["merged"])
                columns, rows = part["kept"], part["rows"]
                if not isinstance(rows, int) or not 0 <= rows <= max_rows:
                    raise ValueError(f"{rows!r} games")
                numbers = _numbers(part["row_units"], rows, first, units)
                for name in KEPT:
                    if name == "source":
                        column = _own_restored(columns[name], numbers, sources)
                    else:
                        column = _unpacked(columns[name], rows)
                    valid = KEPT_VALUES[name]
                    if not all(map(valid, dict.fromkeys(column))):  # each value once
                        raise ValueError(f"a {name} that no game has")
                    kept[name] += column
                self.row_units += numbers
                self.units = units
            if self.units != len(sources):
                raise ValueError(f"parts of {self.units} units, not {len(sources)}")
            # a unit is reported ingested exactly when it kept a game (:meth:`add`)
            ingested = {u for u, f in zip(self.file_units, self.files) if f.status == "ingested"}
            if ingested != set(self.row_units):
                raise ValueError("the files ingested are not those whose games are kept")
            rows = len(kept["date"])
            if any(len(column) != rows for column in kept.values()):
                raise ValueError("columns differ in length")
            prints = kept["fingerprint"]
            self.by_print = dict(zip(reversed(prints), range(rows - 1, -1, -1)))  # the first
            if len(self.by_print) < rows:
                for row, fingerprint in enumerate(prints):
                    if self.by_print[fingerprint] != row:
                        self.by_key[self._dup_key(row)] = row
            if len(self.by_print) + len(self.by_key) != rows:
                raise ValueError("two kept games with one duplicate key")
        except (TypeError, KeyError, AttributeError, IndexError, ValueError) as problem:
            raise ValueError(f"malformed assembly state: {problem}") from None
        return self

    # -- merging the units' chunks -----------------------------------------------------------

    def add(self, result: HistoryOutcome) -> None:
        """One unit's outcome (:func:`assemble` of it alone, merged)."""
        self.merge(assemble([result], self.key))

    def merge(self, chunk: Chunk) -> None:
        """The units of ``chunk``, the ones right after those added so far: exactly what
        adding them one by one gives (see :class:`Chunk`)."""
        spelling, merged, kept = self.spelling, self.merged, self.kept
        rows, units = len(kept["date"]), self.units
        raws, keys = chunk.raws, chunk.keys
        known = list(map(spelling.get, keys))  # usually every name, spelled as here
        table = [raw if first is None else first[0] for raw, first in zip(raws, known)]
        said: list[tuple[int, str]] = []
        # the others in order (a name new here may be spelled two ways in the chunk)
        for i in [i for i, first in enumerate(known) if first is None or first[0] != raws[i]]:
            raw, (source, place) = raws[i], chunk.firsts[i]
            first = spelling.get(keys[i])
            if first is None:
                spelling[keys[i]] = (raw, source)
                table[i] = raw
                continue
            table[i] = first[0]
            if first[0] != raw and (first[0], raw) not in merged:
                merged[first[0], raw] = None
                said.append(
                    (
                        place,
                        f"{source}: {raw!r} is taken as {first[0]!r} ({first[1]}): the same "
                        "name (docs/rules.md §8)",
                    )
                )
        theirs = chunk.kept
        prints = theirs["fingerprint"]
        files, file_units = chunk.files, chunk.file_units
        warnings, dropped = chunk.warnings, set()
        keep: list[int] | None = None  # the chunk's rows kept, when not all
        if self.by_print.keys().isdisjoint(chunk.by_print):  # the usual case
            self.by_print.update({p: r + rows for p, r in chunk.by_print.items()})
            self.by_key.update({k: r + rows for k, r in chunk.by_key.items()})
        else:
            dup_keys = [_chunk_dup_key(chunk, keys, r) for r in range(len(prints))]
            later = {}  # chunk row → the earlier chunks' row it repeats
            for r, dup_key in enumerate(dup_keys):
                known = self._known(dup_key)
                if known is not None:
                    later[r] = known
            keep = [r for r in range(len(prints)) if r not in later]
            for g, r in enumerate(keep, rows):
                if self.by_print.setdefault(prints[r], g) != g:
                    self.by_key[dup_keys[r]] = g
            if later:
                files, file_units = self._without(chunk, later)
                ends = [*chunk.row_warn[1:], len(warnings)]
                for r in later:
                    dropped.update(range(chunk.row_warn[r], ends[r]))
        self.warnings += _interleaved(warnings, said, dropped)
        self.files += itertools.starmap(FileReport, files)
        self.file_units += [u + units for u in file_units]
        row_units = chunk.row_units
        if keep is not None and len(keep) < len(prints):
            theirs = {name: [column[r] for r in keep] for name, column in theirs.items()}
            row_units = [row_units[r] for r in keep]
        for name in KEPT:
            column = theirs[name]
            if name == "black" or name == "white":
                column = map(table.__getitem__, column)
            kept[name] += column
        self.row_units += [u + units for u in row_units]
        self.units = units + chunk.units

    def _known(self, dup_key: tuple) -> int | None:
        """The kept game ``dup_key`` is a duplicate of, else None."""
        first = self.by_print.get(dup_key[-1])
        if first is None:
            return None
        if self._dup_key(first) == dup_key:
            return first
        return self.by_key.get(dup_key)

    def _without(
        self, chunk: Chunk, later: Mapping[int, int]
    ) -> tuple[list[tuple[str, str, str, str]], list[int]]:
        """The chunk's reports when its kept rows ``later`` repeat earlier chunks' games:
        each reported as a duplicate where its unit's records put it, and the reports
        that named it as the first of duplicates naming the earlier game instead."""
        sources = self.kept["source"]
        files = list(chunk.files)
        for at, row in chunk.dup_refs:
            if row in later:
                path, status, _, kind = files[at]
                files[at] = (path, status, f"same game as {sources[later[row]]}", kind)
        file_units = chunk.file_units
        of_unit: dict[int, list[int]] = {}
        for r, unit in enumerate(chunk.row_units):
            of_unit.setdefault(unit, []).append(r)
        out, out_units, at = [], [], 0
        for unit in sorted({chunk.row_units[r] for r in later}):
            lo = bisect.bisect_left(file_units, unit)
            hi = bisect.bisect_right(file_units, unit)
            out += files[at:lo]
            out_units += file_units[at:lo]
            own, path = of_unit[unit], files[lo][0]  # its first report: "ingested"
            theirs = chunk.kept["source"]
            if chunk.row_before[own[0]] < 0:  # a file of one game
                reports = [(path, "duplicate", f"same game as {sources[later[own[0]]]}", "")]
            else:
                problems = files[lo + 1 : hi]
                for shift, r in enumerate(r for r in own if r in later):
                    same = (theirs[r], "duplicate", f"same game as {sources[later[r]]}", "")
                    problems.insert(chunk.row_before[r] + shift, same)
                left = sum(1 for r in own if r not in later)
                reports = [files[lo], *problems] if left else problems
            out += reports
            out_units += [unit] * len(reports)
            at = hi
        return out + files[at:], out_units + file_units[at:]

    def _dup_key(self, row: int) -> tuple:
        """What makes two records one game (see the module doc), of a kept game."""
        kept = self.kept
        return (
            kept["date"][row], self.key(kept["black"][row]), self.key(kept["white"][row]),
            kept["score"][row], kept["handicap"][row], kept["komi"][row], kept["size"][row],
            kept["round"][row], kept["fingerprint"][row],
        )  # fmt: skip

    # -- every kept game -------------------------------------------------------------------

    def finish(
        self, event_gap_days: int = 7, reports: Sequence[FileReport] = ()
    ) -> tuple[
        GameColumns, dict[str, HistoryEvent], dict[str, HistoryPlayer], list[FileReport], list[str]
    ]:
        """The games (as columns, in unit order), events, players, files (``reports``
        first) and warnings."""
        kept = self.kept
        dates, sources = kept["date"], kept["source"]
        event_of, events = dated.group_events(kept["event"], dates, sources, event_gap_days)
        games = GameColumns(
            date=dates,
            event=event_of,
            black=kept["black"],
            white=kept["white"],
            result=kept["score"],
            handicap=kept["handicap"],
            komi=kept["komi"],
            size=kept["size"],
            round=kept["round"],
            source=sources,
            time=kept["time"],
        )
        players = dated.first_ranks(
            dates, kept["black"], kept["white"], kept["black_rank"], kept["white_rank"], sources
        )
        return games, events, players, [*reports, *self.files], list(self.warnings)


class ArchiveHistory(NamedTuple):
    """What :func:`archive_history` gives: the parts of a history from an SGF archive."""

    games: GameColumns
    events: dict[str, HistoryEvent]
    players: dict[str, HistoryPlayer]
    files: list[FileReport]
    warnings: list[str]
    #: the cache's own (a cache that could not be used, a damaged entry rebuilt)
    cache_warnings: list[str]


def archive_history(
    paths: Sequence[str | os.PathLike],
    section: Mapping[str, Any],
    *,
    event_gap_days: int,
    key: Callable[[str], str],
    cache: Callable[[SgfOptions], Any] | None = None,
    jobs: int | None = None,
    progress: Callable[[int], Any] | None = None,
    arrange: Callable[[GameColumns, Any], tuple[GameColumns, Any]] | None = None,
) -> ArchiveHistory:
    """An SGF archive's games as columns, its events, players, every file's account and
    the warnings (docs/rules.md §10.1).

    ``section`` holds the reader's options (:func:`.options.parse_options`). With a
    ``cache`` (``cache(options)`` gives a :class:`~.cache.Cache`, or None), the
    assembly of the units seen before is resumed when they come first (an archive that
    grows by date or number), so only the units after them are read, and the new
    assembly is saved in parts. ``arrange(games,
    previous)`` gives the games as the history keeps them and the order to save with
    them (``previous``: the order saved last time, or None). ``key`` (a name's identity
    key) is sent to the worker processes with ``jobs``: a picklable callable.
    """
    options = parse_options(dict(section))
    cache = cache(options) if cache is not None else None
    units, reports, settings_files = collect(list(paths), options.limits)
    reports = list(reports)
    reports += [
        FileReport(p.source, "excluded", "tournament settings: not used for ratings", "settings")
        for p in settings_files
    ]
    sources = [unit if isinstance(unit, str) else unit.source for unit in units]
    assembly, done, keys, states = Assembly(key), 0, [None] * len(units), []
    name = json.dumps([*map(os.path.abspath, paths), event_gap_days])
    cache_warnings: list[str] = []
    try:
        if cache is not None:
            keys = cache.keys_for(units)
            done, states = cache.parts(name, keys)
            try:
                most = options.limits.max_games_per_file * done
                assembly = Assembly.resume(states, sources[:done], key, most)
            except ValueError as problem:  # never trusted: every unit from the per-file cache
                cache.malformed(str(problem))
                done, states = 0, []
        # the next part: the units up to the first one without a key (a few parts are
        # read together; many are saved again as one)
        start, since = done, assembly.marks()
        if len(states) >= MAX_PARTS and done < len(keys):
            start, since = 0, Marks()
        covered = next((i for i, k in enumerate(keys) if k is None), len(keys))
        chunks = ingest_chunks(
            units[done:],
            fallback=options.fallback_encoding,
            limits=options.limits,
            key=key,
            jobs=jobs,
            cache=cache,
            keys=keys[done:],
            progress=progress(len(units) - done) if progress else None,
            cut=covered - done,
        )
        for at, chunk in chunks:
            if at + done == covered and cache is not None:
                cache.put_part(name, keys[:covered], start, assembly.state(sources, since))
            assembly.merge(chunk)
        games, events, players, files, warnings = assembly.finish(event_gap_days, reports)
        order = None
        if arrange is not None:
            previous = states[-1].get("order") if states else None
            games, order = arrange(games, previous, saving=cache is not None)
        if cache is not None and covered == len(keys) and done < covered:
            part = assembly.state(sources, since)
            if order is not None:
                part["order"] = order
            cache.put_part(name, keys, start, part)
    finally:
        if cache is not None:
            cache_warnings.extend(cache.warnings)
            cache.close()
    return ArchiveHistory(games, events, players, files, warnings, cache_warnings)
