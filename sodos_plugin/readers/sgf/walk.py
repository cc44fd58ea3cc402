"""Input paths → units to ingest (files, archive members), ingested serially or in parallel.

Contract: :func:`collect` expands the paths given (``.sgf`` files, directories walked
recursively in sorted order, ``.zip`` and ``.tar.gz``/``.tgz`` archives) into
:class:`Unit` s plus reports for what is not ingested (other files, unreadable
archives, members over the limits). :func:`ingest_units` ingests them and returns
one :class:`~.ingest.FileOutcome` per unit *in unit order*, whatever ``jobs`` is,
so parallel and serial runs give identical results.

Archives are read in memory, never extracted: the member count, each member's
size and the total uncompressed size are bounded (:class:`Limits`); a member is
read with a cap even when its header lies about its size. Names inside archives
are only labels (``archive.zip!games/r1.sgf``), nothing is written to disk.

Hidden entries (names starting with ``.``) are skipped when walking directories.
A ``sodos.toml`` at the top of a directory given is the tournament's own settings
(see the package documentation), not a record.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TextIO

from sodos_hookspecs import FileReport

from sodos_plugin.inputfiles import open_regular
from sodos_plugin.readers.sgf.ingest import (
    MAX_FILE_BYTES,
    MAX_GAMES,
    MAX_PARSE_TOKENS,
    FileOutcome,
    clear_shared,
    ingest_bytes,
    ingest_file,
)

__all__ = ["Limits", "Unit", "collect", "ingest_units", "is_archive", "is_record"]

SETTINGS_FILE = "sodos.toml"
EXCLUDED = "excluded"
#: Below this many units one process is as fast as workers: measured on 2 cores (whole
#: reader, benchmarks/README.md), break-even at 5 000-8 000 records, 1.12-1.18x from
#: 10 000 to 100 000 (the parent still assembles alone).
PARALLEL_MIN_UNITS = 10_000
#: Units per task are bounded: each task costs a round trip (small tasks lose the gain),
#: a task is the progress step (huge ones stall it).
MIN_CHUNK, MAX_CHUNK = 256, 4096


def chunk_size(units: int, workers: int) -> int:
    """About four tasks per worker, within ``MIN_CHUNK``..``MAX_CHUNK`` units."""
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-units // (workers * 4))))


@dataclass(frozen=True)
class Limits:
    """Bounds on what is read (config keys of the same names)."""

    max_file_bytes: int = MAX_FILE_BYTES
    max_archive_members: int = 100_000
    max_archive_bytes: int = 1 << 30
    max_games_per_file: int = MAX_GAMES
    max_parse_tokens: int = MAX_PARSE_TOKENS


class Unit(NamedTuple):
    """An archive member read in memory (``data``), or a file on disk (``data`` None).

    :func:`collect` gives a file on disk as its plain path string (cheaper, 100 000
    files are common); :func:`ingest_units` accepts both forms.
    """

    source: str
    data: bytes | None = None


def is_record(name: str) -> bool:
    return name.endswith(".sgf") or name.lower().endswith(".sgf")


def is_archive(name: str) -> bool:
    low = name.lower()
    return low.endswith((".zip", ".tar.gz", ".tgz"))


def _archive_members(path: str, limits: Limits) -> Iterator[tuple[str, bytes | None, str]]:
    """(label, data, reason): data None means the member is reported with ``reason``."""
    total = 0
    count = 0

    def budget(name: str, size: int) -> str:
        nonlocal total, count
        count += 1
        total += max(size, 0)
        if count > limits.max_archive_members:
            raise ValueError(
                f"more than {limits.max_archive_members} members (max_archive_members)"
            )
        if total > limits.max_archive_bytes:
            raise ValueError(
                f"more than {limits.max_archive_bytes} bytes uncompressed (max_archive_bytes)"
            )
        if size > limits.max_file_bytes:
            return f"member is {size} bytes, above the limit of {limits.max_file_bytes}"
        return ""

    if path.lower().endswith(".zip"):
        # a regular file only (a pipe named .zip would block): sodos_plugin.inputfiles
        with open_regular(path) as handle, zipfile.ZipFile(handle) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if info.is_dir():
                    continue
                label = f"{path}!{info.filename}"
                if not is_record(info.filename):
                    yield label, None, "not an SGF record (.sgf)"
                    continue
                reason = budget(info.filename, info.file_size)
                if reason:
                    yield label, None, reason
                    continue
                with archive.open(info) as member:
                    data = member.read(limits.max_file_bytes + 1)
                if len(data) > limits.max_file_bytes:
                    yield label, None, f"member is above the limit of {limits.max_file_bytes}"
                    continue
                yield label, data, ""
        return
    found = []
    with (
        open_regular(path) as handle,
        tarfile.open(fileobj=handle, mode="r|gz") as archive,  # a stream: nothing extracted
    ):
        for info in archive:
            if info.isdir():
                continue
            label = f"{path}!{info.name}"
            if not info.isfile():
                found.append((label, None, "not a regular file (link or device)"))
                continue
            if not is_record(info.name):
                budget(info.name, info.size)
                found.append((label, None, "not an SGF record (.sgf)"))
                continue
            reason = budget(info.name, info.size)
            if reason:
                found.append((label, None, reason))
                continue
            handle = archive.extractfile(info)
            data = handle.read(limits.max_file_bytes + 1) if handle else b""
            found.append((label, data, ""))
    yield from sorted(found, key=lambda item: item[0])


def collect(
    paths: Sequence[Path], limits: Limits
) -> tuple[list[str | Unit], list[FileReport], list[Path]]:
    """Units to ingest, reports for what is not ingested, and directory settings files."""
    units: list[str | Unit] = []
    reports: list[FileReport] = []
    settings: list[Path] = []

    def add_file(path: str) -> None:
        if is_record(path):
            units.append(path)
        elif is_archive(path):
            add_archive(path)
        else:
            reports.append(FileReport(path, EXCLUDED, "not an SGF record (.sgf) or archive"))

    def add_archive(path: str) -> None:
        # an archive is taken whole or refused whole: members read before a limit or
        # a corrupt member is hit must not stay in the tournament
        found_units: list[Unit] = []
        found_reports: list[FileReport] = []
        try:
            for label, data, reason in _archive_members(path, limits):
                if data is None:
                    status = EXCLUDED if reason.startswith("not an SGF") else "rejected"
                    found_reports.append(FileReport(label, status, reason))
                else:
                    found_units.append(Unit(label, data))
        except (OSError, EOFError, ValueError, zipfile.BadZipFile, tarfile.TarError) as error:
            reports.append(FileReport(path, "rejected", f"cannot read archive: {error}"))
            return
        units.extend(found_units)
        reports.extend(found_reports)

    for path in paths:
        if path.is_dir():
            top = path / SETTINGS_FILE
            if top.is_file() or (top.exists() and not top.is_dir()):  # a pipe is refused
                settings.append(top)
            for directory, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                is_top = directory == str(path)
                prefix = os.path.join(directory, "")
                for name in sorted(files):
                    if name.endswith(".sgf") and not name.startswith("."):
                        units.append(prefix + name)  # the usual case, kept short
                    elif name.startswith(".") or (is_top and name == SETTINGS_FILE):
                        continue
                    else:
                        add_file(prefix + name)
        elif is_archive(path.name):
            add_archive(str(path))
        else:
            units.append(str(path))  # named explicitly: read whatever its extension
    return units, reports, settings


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused for a bulk step, then restored as it was.

    Ingest and assembly make hundreds of thousands of tuples, strings and dicts and no
    reference cycles (they are freed by reference counting), yet each batch of new
    objects triggers a collection pass over all of them: measured on 100 000 records,
    the passes cost 10-18 % of ingest and assembly.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _ingest_one(unit: str | Unit, fallback: str, limits: Limits) -> FileOutcome:
    games, tokens = limits.max_games_per_file, limits.max_parse_tokens
    if isinstance(unit, str):
        return ingest_file(unit, fallback, limits.max_file_bytes, games, tokens)
    if unit.data is None:
        return ingest_file(unit.source, fallback, limits.max_file_bytes, games, tokens)
    return ingest_bytes(unit.data, unit.source, fallback, max_games=games, max_tokens=tokens)


def _ingest_chunk(units: list[str | Unit], fallback: str, limits: Limits) -> list[FileOutcome]:
    with paused_gc():
        return [_ingest_one(unit, fallback, limits) for unit in units]


class _Progress:
    """``ingested n/N files`` on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.enabled = total >= 1000 and getattr(self.stream, "isatty", lambda: False)()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.2 or done == self.total):
            self.last = now
            self.stream.write(f"\rsodos: ingested {done}/{self.total} SGF files")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def ingest_units(
    units: Sequence[str | Unit], *, jobs: int | None, fallback: str, limits: Limits
) -> list[FileOutcome]:
    """One outcome per unit, in unit order; ``jobs`` > 1 uses worker processes."""
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    progress = _Progress(len(units))
    outcomes: list[FileOutcome] = []
    try:
        with paused_gc():  # the parent unpickles as many objects as it would make
            if workers <= 1 or len(units) < PARALLEL_MIN_UNITS:
                append = outcomes.append
                size, games, tokens = (
                    limits.max_file_bytes,
                    limits.max_games_per_file,
                    limits.max_parse_tokens,
                )
                for i, unit in enumerate(units, 1):
                    if unit.__class__ is str:  # the usual unit, without a call in between
                        append(ingest_file(unit, fallback, size, games, tokens))  # type: ignore[arg-type]
                    else:
                        append(_ingest_one(unit, fallback, limits))
                    if not i & 255:
                        progress.update(i)
            else:
                step = chunk_size(len(units), workers)
                chunks = [list(units[i : i + step]) for i in range(0, len(units), step)]
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    for batch in pool.map(
                        _ingest_chunk, chunks, [fallback] * len(chunks), [limits] * len(chunks)
                    ):
                        outcomes.extend(batch)
                        progress.update(len(outcomes))
        progress.update(len(outcomes))
    finally:
        progress.close()
        clear_shared()
    return outcomes
