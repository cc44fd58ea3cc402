"""SGF reader plugin (``builtin.sgf``): a folder or archive of game records → a tournament.

``sodos standings games/`` reads every ``.sgf`` under ``games/`` (recursively),
``.zip`` and ``.tar.gz`` archives of records, and multi-game collections, and turns
the game information of each root node (PB PW BR WR RE RO EV DT HA KM GN) into one
tournament. Options: ``[plugin."builtin.sgf"]`` (see :mod:`.options`).

Layers, each its own module (sgfmill's layering as model):

* :mod:`.scan` — bytes → raw root property maps (fast path: the root node and a
  C-speed check of the rest; else sgfmill's full parse);
* :mod:`.values` — raw values → decoded strings with sgfmill's value functions and
  the encoding rules (CA, BOM, UTF-8 detection, UTF-16);
* :mod:`.results` — the ``RE`` value space (docs/rules.md §9);
* :mod:`.ingest` — one file → records or a rejection reason;
* :mod:`.walk` — paths, directories, archives, parallel ingest (``--jobs``);
* :mod:`.assemble` — records → Tournament, with the account of every file.

A directory given — or an archive, at its top or at the top of the one folder it
holds — may have a ``sodos.toml`` with the tournament's own settings (``system``,
``[mcmahon] bar`` ..., and ``[plugin."builtin.sgf"]`` defaults such as ``bye_name``);
they sit below the user's config, like the settings an OpenGotha file carries. A
folder's file cannot set what acts on the run (``plugins``, ``disable``, ``prefer``,
``strict``, ``roster``, limits, ``jobs``, ``skip_bad``): refused, naming the key. Two
settings files that differ in one run are an error.

This package is the plugin module: it holds the reader's name, :func:`claims` and the
hook only, so registering it costs nothing; :func:`read` imports :mod:`.reader` (and with
it the layers above and sgfmill) on its first call, and the game-history mode's
:func:`game_history` (the reader's game histories, through :func:`archive_history`) and
:func:`open_cache` import :mod:`.history` and :mod:`.cache` on theirs, :func:`aliases`
:mod:`.options` on its (:mod:`sodos_plugin.util.lazy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_hookspecs import GameHistory, Reader, hookimpl

from sodos_plugin.readers.sgf.names import NAME, PLUGIN, is_archive, is_record
from sodos_plugin.util.inputfiles import plain_head

if TYPE_CHECKING:
    from sodos_hookspecs import ReadResult

__all__ = [
    "NAME",
    "PLUGIN",
    "aliases",
    "archive_history",
    "claims",
    "game_history",
    "open_cache",
    "read",
    "sodos_readers",
    "stdin",
]


def claims(path: Path, head: bytes) -> bool:
    """Directories, ``.sgf`` files and archives, or any file starting like SGF."""
    if path.is_dir():
        return True
    if is_record(path.name) or is_archive(path.name):
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = text[2:].replace(b"\x00", b"")
    return text.startswith(b"(") and text[1:].lstrip()[:1] == b";"


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    """Read records from ``paths`` (files, directories, archives) into one tournament."""
    from sodos_plugin.readers.sgf.reader import read as read_records

    return read_records(paths, options)


def archive_history(paths: Sequence[Path], section: Mapping[str, Any], **kwargs: Any):
    """An SGF archive as the parts of a game history (:func:`.history.archive_history`);
    ``section``: the reader's options (``[plugin."builtin.sgf"]``)."""
    from sodos_plugin.readers.sgf.history import archive_history as read_archive

    return read_archive(paths, section, **kwargs)


def aliases(section: Mapping[str, Any]) -> Mapping[str, str]:
    """The reader's ``aliases`` option (``"old name" = "player name"``), checked as the
    reader checks its options (:func:`.options.parse_options`): ratings join the same
    names the reader joins."""
    from sodos_plugin.readers.sgf.options import parse_options

    return parse_options(section).aliases


def open_cache(path: Path | None, context: str):
    """The ingest cache at ``path`` (None: the default place), for reader options
    ``context`` (:class:`.cache.Cache`)."""
    from sodos_plugin.readers.sgf.cache import Cache, default_path

    return Cache(path or default_path(), context)


def game_history(
    paths: Sequence[Path], section: Mapping[str, Any], run: Mapping[str, Any]
) -> GameHistory:
    """An SGF archive as a game history (:func:`.history.archive_history`): its games as
    columns (arranged as the host's ``run["arrange"]`` says), the ingest cache's
    warnings first."""
    found = archive_history(
        paths,
        section,
        event_gap_days=run["event_gap_days"],
        key=run["identity"],
        cache=run.get("cache"),
        jobs=run.get("jobs"),
        progress=run.get("progress"),
        arrange=run.get("arrange"),
    )
    return GameHistory(
        found.games,
        found.events,
        found.players,
        tuple(found.files),
        (*found.cache_warnings, *found.warnings),
    )


def stdin(head: bytes) -> str | None:
    """Data from stdin that starts like SGF (``(;``, after a BOM or in UTF-16) or an
    archive: its suffix."""
    if head.startswith(b"PK\x03\x04"):
        return ".zip"
    if head.startswith(b"\x1f\x8b"):
        return ".tar.gz"
    text = plain_head(head)
    return ".sgf" if text.startswith(b"(") and text[1:].lstrip()[:1] == b";" else None


@hookimpl
def sodos_readers() -> list[Reader]:
    return [
        Reader(
            NAME,
            "SGF game records: files, folders, .zip/.tar.gz archives",
            claims,
            read,
            history=game_history,
            stdin=stdin,
        )
    ]
