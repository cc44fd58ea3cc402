"""Input paths → units to ingest (files, archive members), ingested serially or in parallel.

Contract: :func:`collect` expands the paths given (``.sgf`` files, directories walked
recursively in sorted order, ``.zip`` and ``.tar.gz``/``.tgz`` archives) into
:class:`Unit` s plus reports for what is not ingested (other files, unreadable
archives, members over the limits). :func:`ingest_units` ingests them and returns
one :class:`~.ingest.FileOutcome` per unit *in unit order*, whatever ``jobs`` is,
so parallel and serial runs give identical results.

Archives are read in memory, never extracted: each member's size is bounded, and the
member count and total uncompressed size are bounded *for the run* — one
:class:`Budget` over every archive (:class:`Limits`); a zip's member count and
directory size are checked from its end record before its directory is read; a
member is read with a cap even when its header lies about its size. An archive is
taken whole or refused whole when a bound is hit or its structure is corrupt; a
member that cannot be read (encrypted, an unsupported compression such as deflate64,
a bad CRC) is rejected alone, like a loose file. Names inside archives are only
labels (``archive.zip!games/r1.sgf``), nothing is written to disk.

Hidden entries (names starting with ``.``) are skipped when walking directories; a
link to a folder is reported, not followed; a folder that cannot be read (permissions,
a path too long, any error) is *rejected* with the reason, never skipped. A
``sodos.toml`` at the top of a directory given, or at the top of an archive (or of
the one folder an archive holds), is the tournament's own settings (see the package
documentation), not a record.
"""

from __future__ import annotations

import functools
import os
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NamedTuple

from sodos_hookspecs import FileReport

from sodos_plugin.readers.sgf.ingest import (
    MAX_FILE_BYTES,
    MAX_GAMES,
    MAX_PARSE_TOKENS,
    FileOutcome,
    clear_shared,
    ingest_bytes,
    ingest_file,
)
from sodos_plugin.readers.sgf.names import is_archive, is_record
from sodos_plugin.util.gcpause import worker_start
from sodos_plugin.util.inputfiles import open_regular
from sodos_plugin.util.lazy import LazyModule
from sodos_plugin.util.progress import Progress

# only archives and parallel reads need these (sodos_plugin.util.lazy)
zipfile = LazyModule("zipfile", globals(), "zipfile")
tarfile = LazyModule("tarfile", globals(), "tarfile")
parallel = LazyModule("sodos_plugin.util.workers", globals(), "parallel")

__all__ = ["Limits", "Unit", "collect", "ingest_stream", "ingest_units", "is_archive", "is_record"]

SETTINGS_FILE = "sodos.toml"
EXCLUDED = "excluded"
#: Below this many units one process is used: measured on 2 cores with this process
#: reading beside its worker (benchmarks/README.md), the reader and the history gain
#: from 1 000 records (x1.14 and x1.37), barely at 600 (x1.09, x1.27).
PARALLEL_MIN_UNITS = 1000
#: Units per task are bounded: each task costs a round trip (small tasks lose the gain),
#: a task is the progress step (huge ones stall it); small ones at the end balance the
#: processes' last tasks (256 left runs of 1 000 records with one process idle).
MIN_CHUNK, MAX_CHUNK = 128, 4096
#: With workers, a task is the units left shared among this many tasks per worker.
GUIDED = 2


def chunk_size(units: int, workers: int) -> int:
    """About four tasks per worker, within ``MIN_CHUNK``..``MAX_CHUNK`` units."""
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-units // (workers * 4))))


def task_starts(units: int, workers: int) -> list[int]:
    """Where each task of ``units`` units starts. One process: tasks of
    :func:`chunk_size`. Workers: each task is the units left shared among
    ``GUIDED * workers`` (within ``MIN_CHUNK``..``MAX_CHUNK``), so the tasks shrink
    toward the end and the workers finish within a small task of each other (with equal
    tasks, one worker's last task ran on while the other had nothing left, and the
    last result, the one the whole run waits for, was a large one to send)."""
    if workers <= 1:
        return list(range(0, units, chunk_size(units, 1)))
    starts, at = [], 0
    while at < units:
        starts.append(at)
        left = units - at
        size = max(MIN_CHUNK, min(MAX_CHUNK, -(-left // (workers * GUIDED))))
        at += left if left - size < MIN_CHUNK else size  # no task of a few units at the end
    return starts


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


class ArchiveLimit(ValueError):
    """An archive beyond a bound: refused whole."""


class Budget:
    """What archive members may cost in one run, shared by every archive.

    Members are held in memory until they are ingested, so the bounds are on the run:
    ``max_archive_members`` members and ``max_archive_bytes`` uncompressed bytes over all
    archives given or found in folders — ten small bombs share one budget. A refused
    archive gives back what it took (nothing of it is kept).
    """

    def __init__(self, limits: Limits):
        self.limits = limits
        self.members = 0
        self.bytes = 0

    def take(self, size: int) -> None:
        self.members += 1
        self.bytes += max(size, 0)
        self.check()

    def add_bytes(self, extra: int) -> None:
        """Bytes a member turned out to hold beyond its declared size."""
        self.bytes += max(extra, 0)
        self.check()

    def check(self) -> None:
        limits = self.limits
        if self.members > limits.max_archive_members:
            raise ArchiveLimit(
                f"more than {limits.max_archive_members} members in this run's archives "
                "(max_archive_members)"
            )
        if self.bytes > limits.max_archive_bytes:
            raise ArchiveLimit(
                f"more than {limits.max_archive_bytes} bytes uncompressed in this run's "
                "archives (max_archive_bytes)"
            )

    def remaining_members(self) -> int:
        return self.limits.max_archive_members - self.members


#: A central directory entry is 46 bytes plus its name and fields; more than this per
#: member allowed is refused before the directory is read into memory.
DIRECTORY_BYTES_PER_MEMBER = 1024
_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record
_EOCD64_LOCATOR = struct.Struct("<4sLQL")
_EOCD64 = struct.Struct("<4sQ2H2L4Q")


def zip_directory(handle: BinaryIO) -> tuple[int, int] | None:
    """(members, directory bytes) from a zip's end records, read without the directory.

    None when no end record is found (zipfile then says what is wrong). Zip64 archives
    give their 64-bit counts. Reads at most the last 64 KiB + 22 bytes.
    """
    handle.seek(0, os.SEEK_END)
    end = handle.tell()
    tail_size = min(end, _EOCD.size + 0xFFFF)
    handle.seek(end - tail_size)
    tail = handle.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _EOCD.size:
        return None
    fields = _EOCD.unpack_from(tail, at)
    members, size = fields[4], fields[5]
    if members == 0xFFFF or size == 0xFFFFFFFF:  # zip64: the record before its locator
        start = end - tail_size + at - _EOCD64_LOCATOR.size - _EOCD64.size
        if start >= 0:
            handle.seek(start)
            record = handle.read(_EOCD64.size)
            if len(record) == _EOCD64.size and record[:4] == b"PK\x06\x06":
                values = _EOCD64.unpack(record)
                members, size = values[6], values[7]
    return members, size


#: zip compression methods Python reads, and names for the others (for the reason).
_COMPRESSION_NAMES = {
    1: "shrink",
    6: "implode",
    9: "deflate64",
    10: "PKWARE implode",
    18: "IBM TERSE",
    19: "IBM LZ77",
    93: "zstandard",
    95: "xz",
    96: "JPEG",
    97: "WavPack",
    98: "PPMd",
    99: "AES encryption",
}


@functools.cache
def _readable_methods() -> frozenset[int]:

    methods = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}
    for method, module in ((zipfile.ZIP_BZIP2, "bz2"), (zipfile.ZIP_LZMA, "lzma")):
        try:
            __import__(module)
            methods.add(method)
        except ImportError:  # pragma: no cover - Python built without it
            pass
    return frozenset(methods)


def _zip_member_problem(info: zipfile.ZipInfo) -> str:
    """Why a zip member cannot be read without trying ("": it can)."""
    if info.flag_bits & 0x1:
        return "encrypted member: it needs a password, not read"
    if info.compress_type not in _readable_methods():
        name = _COMPRESSION_NAMES.get(info.compress_type, "unknown")
        return f"compression method {info.compress_type} ({name}) not supported, not read"
    return ""


@functools.cache
def member_errors() -> tuple[type[BaseException], ...]:
    """What reading one member can raise: that member is rejected, the others are read.
    (A function: zipfile is imported only when an archive is read.)"""

    return (OSError, EOFError, ValueError, RuntimeError, NotImplementedError,
            zipfile.BadZipFile, zlib.error)  # fmt: skip


@functools.cache
def archive_errors() -> tuple[type[BaseException], ...]:
    """What reading one archive can raise: the archive is rejected as a whole."""

    return (*member_errors(), tarfile.TarError)


def _archive_members(
    path: str, limits: Limits, budget: Budget
) -> Iterator[tuple[str, bytes | None, str]]:
    """(label, data, reason): data None means the member is reported with ``reason``.

    The label of an archive's own settings file is ``SETTINGS`` + label.
    """

    cap = limits.max_file_bytes

    def too_big(size: int) -> str:
        return f"member is {size} bytes, above the limit of {cap}" if size > cap else ""

    if path.lower().endswith(".zip"):
        # a regular file only (a pipe named .zip would block): sodos_plugin.util.inputfiles
        with open_regular(path) as handle:
            found = zip_directory(handle)
            if found is not None:
                members, size = found
                if members > budget.remaining_members():
                    raise ArchiveLimit(
                        f"more than {limits.max_archive_members} members in this run's "
                        f"archives: its directory lists {members} (max_archive_members); "
                        "not read"
                    )
                allowed = DIRECTORY_BYTES_PER_MEMBER * limits.max_archive_members
                if size > allowed:
                    raise ArchiveLimit(
                        f"central directory of {size} bytes, above {allowed} "
                        f"({DIRECTORY_BYTES_PER_MEMBER} per max_archive_members); not read"
                    )
            with zipfile.ZipFile(handle) as archive:
                infos = sorted(archive.infolist(), key=lambda i: i.filename)
                settings = _settings_member([i.filename for i in infos if not i.is_dir()])
                declared = sum(
                    max(i.file_size, 0)
                    for i in infos
                    if not i.is_dir()
                    and (is_record(i.filename) or i.filename == settings)
                    and i.file_size <= cap
                )
                if budget.bytes + declared > limits.max_archive_bytes:  # before inflating
                    raise ArchiveLimit(
                        f"more than {limits.max_archive_bytes} bytes uncompressed in this "
                        f"run's archives: its members declare {declared} (max_archive_bytes)"
                    )
                for info in infos:
                    if info.is_dir():
                        continue
                    label = f"{path}!{info.filename}"
                    is_settings = info.filename == settings
                    if not is_settings and not is_record(info.filename):
                        budget.take(0)  # listed, never read: its bytes cost nothing
                        yield label, None, "not an SGF record (.sgf)"
                        continue
                    reason = _zip_member_problem(info) or too_big(info.file_size)
                    if reason:
                        budget.take(0)
                        yield label, None, reason
                        continue
                    budget.take(info.file_size)
                    try:
                        with archive.open(info) as member:
                            data = member.read(cap + 1)
                    except member_errors() as error:
                        yield label, None, f"cannot read member: {_error_text(error)}"
                        continue
                    budget.add_bytes(len(data) - max(info.file_size, 0))
                    if len(data) > cap:
                        yield label, None, f"member is above the limit of {cap}"
                        continue
                    yield (SETTINGS + label if is_settings else label), data, ""
        return
    found_members = []
    with (
        open_regular(path) as handle,
        tarfile.open(fileobj=handle, mode="r|gz") as archive,  # a stream: nothing extracted
    ):
        for info in archive:
            if info.isdir():
                continue
            label = f"{path}!{info.name}"
            if not info.isfile():
                found_members.append((label, None, "not a regular file (link or device)"))
                continue
            budget.take(info.size)
            if info.name.rsplit("/", 1)[-1] == SETTINGS_FILE:  # decided once all are seen
                reason = too_big(info.size)
                handle = None if reason else archive.extractfile(info)
                data = handle.read(cap + 1) if handle else None
                found_members.append((SETTINGS + label, data, reason))
                continue
            if not is_record(info.name):
                found_members.append((label, None, "not an SGF record (.sgf)"))
                continue
            reason = too_big(info.size)
            if reason:
                found_members.append((label, None, reason))
                continue
            handle = archive.extractfile(info)
            data = handle.read(cap + 1) if handle else b""
            found_members.append((label, data, ""))
    settings = _settings_member([label.split("!", 1)[1] for label, _, _ in found_members])
    for label, data, reason in sorted(found_members, key=lambda item: item[0]):
        if label.startswith(SETTINGS):
            if label.split("!", 1)[1] == settings:
                yield label, data, reason
            else:
                yield label[len(SETTINGS) :], None, "not an SGF record (.sgf)"
            continue
        yield label, data, reason


#: Marks an archive's own settings file among the members :func:`_archive_members` gives.
SETTINGS = "\0settings\0"


def _settings_member(names: Sequence[str]) -> str | None:
    """The member that is an archive's own ``sodos.toml``: at its top, or at the top of
    the one folder holding everything (``zip -r games.zip games/``)."""
    if SETTINGS_FILE in names:
        return SETTINGS_FILE
    tops = {name.split("/", 1)[0] for name in names}
    if len(tops) == 1 and all("/" in name for name in names):
        candidate = f"{next(iter(tops))}/{SETTINGS_FILE}"
        if candidate in names:
            return candidate
    return None


def _error_text(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


class SettingsSource(NamedTuple):
    """A records folder's or an archive's own ``sodos.toml``: where, and its bytes."""

    source: str
    data: bytes | None  # None: a file on disk, read when needed


def walk(top: Path | str, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list, list]]:
    """``os.walk(top, onerror=onerror)`` top-down, without recursion: any depth of folders
    (Python before 3.12 recurses once per level, and 1 000 nested folders raise
    RecursionError). The same order; the caller may prune ``dirs`` in place."""
    stack = [os.fspath(top)]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as scan:
                entries = list(scan)
        except OSError as error:
            onerror(error)
            continue
        dirs, files = [], []
        for entry in entries:
            try:
                is_dir = entry.is_dir()  # a link to a folder too, as os.walk lists it
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        yield directory, dirs, files
        inner = [os.path.join(directory, name) for name in reversed(dirs)]
        stack.extend(path for path in inner if not os.path.islink(path))  # as os.walk


def collect(
    paths: Sequence[Path], limits: Limits
) -> tuple[list[str | Unit], list[FileReport], list[SettingsSource]]:
    """Units to ingest, reports for what is not ingested, and the tournament settings
    files (a directory's top ``sodos.toml``, an archive's own)."""
    units: list[str | Unit] = []
    reports: list[FileReport] = []
    settings: list[SettingsSource] = []
    budget = Budget(limits)

    def add_file(path: str) -> None:
        if is_record(path):
            units.append(path)
        elif is_archive(path):
            add_archive(path)
        else:
            reports.append(FileReport(path, EXCLUDED, "not an SGF record (.sgf) or archive"))

    def add_archive(path: str) -> None:
        # an archive is taken whole or refused whole: members read before a limit or
        # a corrupt archive is hit must not stay in the tournament
        found_units: list[Unit] = []
        found_reports: list[FileReport] = []
        found_settings: list[SettingsSource] = []
        taken = budget.members, budget.bytes
        try:
            for label, data, reason in _archive_members(path, limits, budget):
                if label.startswith(SETTINGS):
                    label = label[len(SETTINGS) :]
                    if data is None:
                        found_reports.append(FileReport(label, "rejected", reason))
                    else:
                        found_settings.append(SettingsSource(label, data))
                elif data is None:
                    status = EXCLUDED if reason.startswith("not an SGF") else "rejected"
                    found_reports.append(FileReport(label, status, reason))
                else:
                    found_units.append(Unit(label, data))
        except archive_errors() as error:
            budget.members, budget.bytes = taken  # nothing of it is kept
            reason = str(error) if isinstance(error, ArchiveLimit) else _error_text(error)
            reports.append(FileReport(path, "rejected", f"cannot read archive: {reason}"))
            return
        units.extend(found_units)
        reports.extend(found_reports)
        settings.extend(found_settings)

    def walk_error(error: OSError) -> None:  # an unreadable folder is not an empty one
        where = error.filename or "?"
        reports.append(
            FileReport(str(where), "rejected", f"cannot read folder: {_error_text(error)}")
        )

    for path in paths:
        try:
            is_dir = path.is_dir()
        except OSError as error:
            reports.append(FileReport(str(path), "rejected", f"cannot read: {_error_text(error)}"))
            continue
        if is_dir:
            top = path / SETTINGS_FILE
            if top.is_file() or (top.exists() and not top.is_dir()):  # a pipe is refused
                settings.append(SettingsSource(str(top), None))
            for directory, dirs, files in walk(path, walk_error):
                is_top = directory == str(path)
                prefix = os.path.join(directory, "")
                linked = [d for d in dirs if os.path.islink(prefix + d)]
                for name in sorted(linked):
                    if not name.startswith("."):
                        reports.append(
                            FileReport(prefix + name, EXCLUDED, "a link to a folder, not followed")
                        )
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in linked)
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


def _ingest_one(unit: str | Unit, fallback: str, limits: Limits) -> FileOutcome:
    games, tokens = limits.max_games_per_file, limits.max_parse_tokens
    if isinstance(unit, str):
        return ingest_file(unit, fallback, limits.max_file_bytes, games, tokens)
    if unit.data is None:
        return ingest_file(unit.source, fallback, limits.max_file_bytes, games, tokens)
    return ingest_bytes(unit.data, unit.source, fallback, max_games=games, max_tokens=tokens)


def _ingest_chunk(
    units: list[str | Unit], fallback: str, limits: Limits, between: Callable | None = None
) -> list[FileOutcome]:
    """One task: its units' outcomes (``between``: called every 32 units, see
    :func:`sodos_plugin.util.workers.in_order`)."""
    outcomes = []
    for i, unit in enumerate(units, 1):
        outcomes.append(_ingest_one(unit, fallback, limits))
        if between is not None and not i & 31:
            between()
    return outcomes


def ingest_units(
    units: Sequence[str | Unit], *, jobs: int | None, fallback: str, limits: Limits
) -> list[FileOutcome]:
    """One outcome per unit, in unit order (:func:`ingest_stream`, all of it)."""
    return list(ingest_stream(units, jobs=jobs, fallback=fallback, limits=limits))


def ingest_stream(
    units: Sequence[str | Unit], *, jobs: int | None, fallback: str, limits: Limits
) -> Iterator[FileOutcome]:
    """One outcome per unit, in unit order, each as soon as it is known; ``jobs`` > 1
    processes read, this one and its workers (:func:`sodos_plugin.util.workers.in_order`).

    A caller that works on each outcome as it comes (the reader's assembly) does that
    work while the workers read the next ones. Closing the stream early stops the
    workers."""
    cores = os.cpu_count() or 1
    # more processes than cores only adds memory and switching, never speed
    processes = cores if jobs is None else min(jobs, cores)
    progress = Progress(len(units))
    done = 0
    try:
        if processes <= 1 or len(units) < PARALLEL_MIN_UNITS:
            size, games, tokens = (
                limits.max_file_bytes,
                limits.max_games_per_file,
                limits.max_parse_tokens,
            )
            # read whole before any is given: nothing runs beside this process, and
            # reading all then assembling all was measured faster than taking turns
            outcomes: list[FileOutcome] = []
            append = outcomes.append
            for done, unit in enumerate(units, 1):
                if unit.__class__ is str:  # the usual unit, without a call in between
                    append(ingest_file(unit, fallback, size, games, tokens))  # type: ignore[arg-type]
                else:
                    append(_ingest_one(unit, fallback, limits))
                if not done & 255:
                    progress.update(done)
            progress.update(done)
            yield from outcomes
        else:
            starts = task_starts(len(units), processes)
            chunks = [list(units[a:b]) for a, b in zip(starts, [*starts[1:], len(units)])]
            batches = parallel.in_order(
                _ingest_chunk, chunks, (fallback, limits), processes, worker_start
            )
            try:
                for batch in batches:
                    yield from batch
                    done += len(batch)
                    progress.update(done)
            finally:
                batches.close()  # an early stop ends the workers now, not when collected
        progress.update(done)
    finally:
        progress.close()
        clear_shared()
