"""A progress line for long reads: ``ingested n/N SGF files`` on a terminal's stderr.

The line stays open (no newline) between updates; :func:`end_line` ends it, so that a
message written meanwhile (an error that stops the read) starts a line of its own.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

#: ids of the streams that end with an open progress line
_OPEN: set[int] = set()


def end_line(stream: TextIO) -> None:
    """End the progress line open on ``stream``, if any, before another message."""
    if id(stream) in _OPEN:
        _OPEN.discard(id(stream))
        stream.write("\n")


class Progress:
    """``ingested n/N SGF files`` on stderr (a terminal only), at most 5 times a second."""

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "SGF files"):
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.label = label
        self.enabled = total >= 1000 and getattr(self.stream, "isatty", lambda: False)()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.2 or done == self.total):
            self.last = now
            self.stream.write(f"\rsodos: ingested {done}/{self.total} {self.label}")
            self.stream.flush()
            _OPEN.add(id(self.stream))

    def close(self) -> None:
        if self.enabled:
            end_line(self.stream)
            self.stream.flush()
