"""SGF game records → dated games of a game history (docs/rules.md §10.1).

Contract: :func:`ingest_history` takes the units :func:`.walk.collect` found and returns
one :class:`HistoryOutcome` per unit, in unit order: the file's
:class:`~.ingest.FileOutcome` (the tournament ingest's own records, same parser) plus,
per record, what ratings need and tournament ingest does not keep — komi, board size
and a fingerprint of the moves (for duplicates). A :class:`~sodos_plugin.cache.Cache`
serves files seen before (same path, size and modification time) without reading them.

:func:`history_games` turns the outcomes into :class:`~sodos_hookspecs.HistoryGame` s
and an account of every file: a record needs a date (``DT``, the first
``YYYY-MM-DD``), a scored result (``RE``; games won by default are not rated) and two
players; the same game in two files (same date, players, colours, result, handicap,
komi, size and moves) is one game, the later file reported as a duplicate. Records with
the same ``EV`` are one event while their dates are at most ``event_gap_days`` apart;
a record without ``EV`` is an event of its own.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from sodos_hookspecs import FileReport, HistoryEvent, HistoryGame, HistoryPlayer

from sodos_plugin.identity import identity_key
from sodos_plugin.inputfiles import FileRefused, read_regular
from sodos_plugin.model import Result
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record, ingest_bytes
from sodos_plugin.readers.sgf.scan import scan_roots, scan_single
from sodos_plugin.readers.sgf.walk import (
    PARALLEL_MIN_UNITS,
    Limits,
    Progress,
    Unit,
    chunk_size,
    paused_gc,
)

__all__ = ["Extra", "HistoryOutcome", "history_games", "ingest_history"]

_MOVE = re.compile(rb";\s*[BW]\s*\[[a-zA-Z]{0,2}\]")
_DATE = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?!\d)")
_NUMBER = re.compile(rb"\s*(\d{1,3})")
_SCORES = {Result.BLACK_WINS: 1.0, Result.WHITE_WINS: 0.0, Result.JIGO: 0.5}


class Extra(NamedTuple):
    """What a record gives ratings beyond :class:`~.ingest.Record`."""

    komi: float | None
    size: int
    fingerprint: str


class HistoryOutcome(NamedTuple):
    outcome: FileOutcome
    extras: tuple[Extra, ...] = ()


def _komi(raw: bytes | list | None) -> float | None:
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    if not raw:
        return None
    try:
        value = float(raw.decode("ascii", "replace").strip())
    except ValueError:
        return None
    return value if abs(value) < 1000 else None


def _size(raw: bytes | list | None) -> int:
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    if raw is None:
        return 19
    match = _NUMBER.match(raw)
    return int(match.group(1)) if match else 19


def _extras(data: bytes, records: int) -> tuple[Extra, ...]:
    """Komi, size and a moves fingerprint per record (the project's own scanner)."""
    roots = None
    if records == 1:
        single = scan_single(data)
        roots = [single] if single is not None else None
    if roots is None:
        try:
            roots, _ = scan_roots(data)
        except ValueError:
            roots = []
    if records == 1:
        prints = [hashlib.blake2b(b"".join(_MOVE.findall(data)), digest_size=12).hexdigest()]
    else:
        whole = hashlib.blake2b(data, digest_size=12).hexdigest()
        prints = [f"{whole}#{n}" for n in range(1, records + 1)]
    out = []
    for n in range(records):
        raw = roots[n] if n < len(roots) else {}
        out.append(Extra(_komi(raw.get(b"KM")), _size(raw.get(b"SZ")), prints[n]))
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
    outcome = ingest_bytes(
        data,
        source,
        fallback,
        max_games=limits.max_games_per_file,
        max_tokens=limits.max_parse_tokens,
    )
    if outcome.error is not None:
        return HistoryOutcome(outcome)
    return HistoryOutcome(outcome, _extras(data, len(outcome.records)))


def _ingest_chunk(units: list, fallback: str, limits: Limits) -> list[HistoryOutcome]:
    with paused_gc():
        return [ingest_unit(unit, fallback, limits) for unit in units]


def ingest_history(
    units: Sequence[str | Unit],
    *,
    fallback: str,
    limits: Limits,
    jobs: int | None = None,
    cache=None,
    progress: Progress | None = None,
) -> list[HistoryOutcome]:
    """One :class:`HistoryOutcome` per unit, in unit order; cached units are not read."""
    found: list[HistoryOutcome | None] = [None] * len(units)
    todo: list[int] = []
    keys: list = [None] * len(units)
    if cache is not None:
        keys = [cache.key_for(unit) for unit in units]
        hits = cache.get_many([k for k in keys if k is not None])
        for i, key in enumerate(keys):
            hit = hits.get(key) if key is not None else None
            if hit is not None:
                found[i] = hit
            else:
                todo.append(i)
    else:
        todo = list(range(len(units)))
    progress = progress or Progress(len(todo))
    cores = os.cpu_count() or 1
    workers = cores if jobs is None else min(jobs, cores)  # capped as the tournament walk is
    fresh: list[HistoryOutcome] = []
    with paused_gc():
        if workers <= 1 or len(todo) < PARALLEL_MIN_UNITS:
            for n, i in enumerate(todo, 1):
                fresh.append(ingest_unit(units[i], fallback, limits))
                if not n & 255:
                    progress.update(n)
        else:
            step = chunk_size(len(todo), workers)
            chunks = [[units[i] for i in todo[s : s + step]] for s in range(0, len(todo), step)]
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for batch in pool.map(
                    _ingest_chunk, chunks, [fallback] * len(chunks), [limits] * len(chunks)
                ):
                    fresh.extend(batch)
                    progress.update(len(fresh))
    progress.update(len(fresh))
    progress.close()
    for i, result in zip(todo, fresh):
        found[i] = result
    if cache is not None:
        cache.put_many([(keys[i], result) for i, result in zip(todo, fresh) if keys[i] is not None])
    return found  # type: ignore[return-value]


_UNSEEN = object()


def game_date(text: str | None) -> str | None:
    """The first ``YYYY-MM-DD`` of a ``DT`` value (``2002-10-23,24`` → 2002-10-23)."""
    if not text:
        return None
    match = _DATE.match(text)
    if not match:
        return None
    y, m, d = map(int, match.groups())
    try:
        from datetime import date

        return date(y, m, d).isoformat()
    except ValueError:
        return None


def _unusable(record: Record, date: str | None) -> str | None:
    if date is None:
        if record.date:
            return f"DT[{record.date}]: not a full date YYYY-MM-DD (not rated)"
        return "no DT: the game's date is unknown (not rated)"
    parsed = record.result
    if parsed.by_default:
        return f"RE[{record.result_text}]: won by default (not rated)"
    if parsed.result not in _SCORES:
        why = parsed.note or f"RE[{record.result_text or ''}]: result unknown"
        if not why.startswith("RE["):
            why = f"RE[{record.result_text or ''}]: {why}"
        return f"{why} (not rated)"
    return None


def history_games(
    outcomes: Sequence[HistoryOutcome],
    *,
    event_gap_days: int = 7,
    reports: Sequence[FileReport] = (),
    key: Callable[[str], str] = identity_key,
) -> tuple[
    list[HistoryGame],
    dict[str, HistoryEvent],
    dict[str, HistoryPlayer],
    list[FileReport],
    list[str],
]:
    """Games, events, players, an account of every file, and warnings (see module doc)."""
    from datetime import date as Date

    files = list(reports)
    warnings: list[str] = []
    spelling: dict[str, tuple[str, str]] = {}  # identity key → (first spelling, its file)
    merged: set[tuple[str, str]] = set()
    seen: dict[tuple, str] = {}  # duplicate key → first source
    kept: list[tuple[Record, Extra, str, str, str]] = []  # record, extra, date, black, white
    dates: dict[str | None, str | None] = {}  # DT text → its date (an archive repeats days)

    def name_of(raw: str, source: str) -> str:
        k = key(raw)
        first = spelling.get(k)
        if first is None:
            spelling[k] = (raw, source)
            return raw
        if first[0] != raw and (first[0], raw) not in merged:
            merged.add((first[0], raw))
            warnings.append(
                f"{source}: {raw!r} is taken as {first[0]!r} ({first[1]}): the same name "
                "(docs/rules.md §8)"
            )
        return first[0]

    for result in outcomes:
        outcome = result.outcome
        if outcome.error is not None:
            files.append(FileReport(outcome.source, "rejected", outcome.error))
            continue
        used = duplicate = 0
        first_dup = ""
        problems: list[tuple[str, str]] = []
        for record, extra in zip(outcome.records, result.extras):
            date = dates.get(record.date, _UNSEEN)
            if date is _UNSEEN:
                date = dates[record.date] = game_date(record.date)
            why = _unusable(record, date)
            if why is not None:
                problems.append((record.source, why))
                continue
            black, white = (
                name_of(record.black, record.source),
                name_of(record.white, record.source),
            )
            if black == white:
                problems.append((record.source, f"PB and PW are both {black!r} (not rated)"))
                continue
            dup_key = (
                date,
                key(black),
                key(white),
                _SCORES[record.result.result],
                record.handicap,
                extra.komi,
                extra.size,
                record.round,
                extra.fingerprint,
            )
            known = seen.get(dup_key)
            if known is not None:
                duplicate += 1
                first_dup = first_dup or known
                continue
            seen[dup_key] = record.source
            kept.append((record, extra, date, black, white))
            used += 1
            warnings.extend(f"{record.source}: {note}" for note in record.notes)
        several = len(outcome.records) > 1
        if used:
            files.append(FileReport(outcome.source, "ingested"))
            for where, why in problems:
                files.append(FileReport(where, "excluded", why))
        elif duplicate and not problems:
            files.append(FileReport(outcome.source, "duplicate", f"same game as {first_dup}"))
        elif problems and not several:
            status = "excluded" if "won by default" in problems[0][1] else "rejected"
            files.append(FileReport(outcome.source, status, problems[0][1]))
        else:
            reasons = "; ".join(f"{w.rsplit('#', 1)[-1]}: {why}" for w, why in problems)
            if duplicate:
                reasons += f"{'; ' if reasons else ''}{duplicate} duplicate(s) of {first_dup}"
            files.append(FileReport(outcome.source, "rejected", reasons or "no games"))

    # events: one EV while its dates are at most event_gap_days apart
    by_event: dict[str, list[int]] = {}
    for i, (record, *_) in enumerate(kept):
        if record.event is not None:
            by_event.setdefault(record.event, []).append(i)
    event_of: list[str] = [""] * len(kept)
    events: dict[str, HistoryEvent] = {}
    for name, members in by_event.items():
        members.sort(key=lambda i: kept[i][2])
        start = previous = None
        event_key = ""
        for i in members:
            day = Date.fromisoformat(kept[i][2])
            if previous is None or (day - previous).days > event_gap_days:
                start = kept[i][2]
                event_key = f"{name} ({start})"
                events[event_key] = HistoryEvent(event_key, name, start, "", kept[i][0].source)
            previous = day
            event_of[i] = event_key
    games = []
    players: dict[str, HistoryPlayer] = {}
    for i, (record, extra, date, black, white) in enumerate(kept):
        event_key = event_of[i]
        if not event_key:
            event_key = record.source
            events[event_key] = HistoryEvent(event_key, record.source, date, "", record.source)
        games.append(
            HistoryGame(
                date,
                event_key,
                black,
                white,
                _SCORES[record.result.result],
                record.handicap,
                extra.komi,
                extra.size,
                record.round,
                record.source,
            )
        )
    # a player's rank: from the first game (by date) that gives one
    for game, (record, _, _, _, _) in sorted(zip(games, kept), key=lambda gk: gk[0].date):
        for name, rank in ((game.black, record.black_rank), (game.white, record.white_rank)):
            if name not in players or (players[name].rank is None and rank and rank.strip()):
                text = rank.strip() if rank and rank.strip() else None
                players[name] = HistoryPlayer(name, text, None, record.source if text else "")
    return games, events, players, files, warnings
