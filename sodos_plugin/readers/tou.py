"""FFG results file reader plugin (``builtin.tou``; docs/rules.md §13).

The ``.tou`` file is what French tournaments send to the FFG rating; OpenGotha
(``ExternalDocument.generateTouFile``) and pairgoth write it. The plugin module holds
the reader's name, :func:`claims` and the hook; the reader is :mod:`.tou_file`,
imported when a file is read (:mod:`sodos_plugin.util.lazy`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_hookspecs import Reader, hookimpl

if TYPE_CHECKING:
    from sodos_hookspecs import ReadResult

NAME = "tou"
#: the column line both programs write
_COLUMN_LINE = re.compile(rb"(?im)^;\s*Num\s+Nom\s+Prenom\b")


def claims(path: Path, head: bytes) -> bool:
    """``.tou`` files, and text whose head has the ``;Num Nom Prenom`` column line."""
    if path.is_dir():
        return False
    if path.suffix.lower() == ".tou":
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith(b";") and _COLUMN_LINE.search(head) is not None


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    from sodos_plugin.readers.tou_file import read as read_tournament

    return read_tournament(paths, options)


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader(NAME, "FFG results file (.tou)", claims, read)]
