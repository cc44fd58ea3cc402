"""OpenGotha tournament XML reader plugin (``builtin.opengotha_xml``).

The plugin module holds the reader's name, :func:`claims` and the hook only, so that
registering it costs nothing; the reader itself is :mod:`.opengotha_file` (its contract
and public functions are documented there), imported when a file is read
(:mod:`sodos_plugin.util.lazy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_hookspecs import Reader, hookimpl

from sodos_plugin.util.inputfiles import plain_head

if TYPE_CHECKING:
    from sodos_hookspecs import ReadResult

NAME = "opengotha-xml"


def claims(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<") and (b"<Tournament" in head or b"<TournamentData" in head):
        return True
    # an empty .xml file: OpenGotha opens it as an empty tournament
    return not text and path.suffix.lower() == ".xml"


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    from sodos_plugin.readers.opengotha_file import read as read_tournament

    return read_tournament(paths, options)


def stdin(head: bytes) -> str | None:
    """Data from stdin that starts as XML: ``.xml``."""
    return ".xml" if plain_head(head).startswith(b"<") else None


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader(NAME, "OpenGotha tournament file (.xml)", claims, read, stdin=stdin)]
