"""Standings → text with a writer plugin, then the text → a stream.

Contract: :func:`render` runs the writer into memory under the plugin fault rule
(:func:`sodos_plugin.plugins.call.call`), so a writer that fails leaves nothing
half-written; :func:`send` hands the text to the stream in bounded pieces, and a
stream that fails (a full disk, a closed pipe, an encoding that cannot show a
character) is an :class:`~sodos_plugin.errors.OutputError`, not a failure of the writer.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, TextIO

from sodos_plugin.errors import OutputError
from sodos_plugin.plugins.call import call
from sodos_plugin.util.textsafe import printable

if TYPE_CHECKING:
    from sodos_plugin.engine.standings import Standings
    from sodos_plugin.plugins.registry import Provided

#: Output is handed to the stream in pieces of this many characters.
OUTPUT_CHUNK = 1 << 20


def render(writer: Provided, standings: Standings) -> str:
    """The standings as the writer plugin ``writer`` writes them, as text."""
    buffer = io.StringIO()
    call(writer.plugin, f"write ({writer.name})", writer.item.write, standings, buffer)
    return buffer.getvalue()


def send(text: str, stream: TextIO) -> None:
    """``text`` written to ``stream``; the stream's own failures are an OutputError."""
    name = getattr(stream, "name", None)
    target = "standard output" if name == "<stdout>" else "the output"
    try:
        for start in range(0, len(text), OUTPUT_CHUNK):  # bounded encoding buffers
            stream.write(text[start : start + OUTPUT_CHUNK])
    except UnicodeEncodeError as error:
        shown = printable(repr(error.object[error.start : error.end]))
        reason = f"its encoding ({error.encoding}) cannot show {shown}"
        raise OutputError(f"cannot write {target}: {reason}", reason=reason) from error
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(f"cannot write {target}: {reason}", reason=reason) from error
