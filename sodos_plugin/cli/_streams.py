"""Where the command's text goes (messages on stderr, standard output, ``--output``
files) and what it ends with (its exit status).

Contract:

* A command ends with :data:`EXIT_OK` (0), :data:`EXIT_FAILED_CHECK` (1: ``sodos
  check`` found a problem) or :data:`EXIT_ERROR` (2: one error line on stderr).
* :func:`say` prints one message line on stderr: control characters escaped
  (:func:`sodos_plugin.util.textsafe.printable`), so a name in a message can neither start
  a terminal sequence nor forge a line such as ``rejected: ...``; a line longer than
  :data:`MAX_MESSAGE_WIDTH` columns loses its middle (``…``), keeping its start and the
  reason at its end.
* ``--output`` and ``--save-state`` files are written by
  :mod:`sodos_plugin.writers.output` (atomically, never onto an input).
* :class:`StdoutGuard`, around a whole command: standard output that cannot encode a
  character (an ASCII terminal) shows ``?`` and the run says how many were replaced;
  a closed standard output, a full disk or any write error is one error line naming
  standard output and the reason, not a failure blamed on a writer plugin, and not
  Python's "Exception ignored" at exit.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import sys

from sodos_plugin.errors import OutputError
from sodos_plugin.util.textsafe import fit_middle, printable

TYPE_CHECKING = False  # typing and pathlib are left out of sodos --version's start-up
if TYPE_CHECKING:
    from typing import TextIO

EXIT_OK, EXIT_FAILED_CHECK, EXIT_ERROR = 0, 1, 2
#: Columns of one message line; a longer one is cut with "…".
MAX_MESSAGE_WIDTH = 2000
REPLACE_HANDLER = "sodos.replace"


#: paths the user never gave → how messages name them (stdin's temporary file: "stdin")
SHOWN_AS: dict[str, str] = {}


def say(text: str, stream: TextIO | None = None) -> None:
    """One message line on ``stream`` (default stderr), escaped and bounded."""
    stream = sys.stderr if stream is None else stream
    if stream is None:  # no stderr at all: nowhere to say it
        return
    for real, shown in SHOWN_AS.items():
        text = text.replace(real, shown)
    progress = sys.modules.get("sodos_plugin.util.progress")
    if progress is not None:  # a message never continues an open progress line
        progress.end_line(stream)
    keep = MAX_MESSAGE_WIDTH * 4  # characters: enough for the widest cut of each end
    if len(text) > 2 * keep:
        text = text[:keep] + text[-keep:]
    stream.write(fit_middle(printable(text), MAX_MESSAGE_WIDTH) + "\n")


class _Closed:
    """Standard output when the process was started with it closed."""

    name = "<stdout>"
    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class StdoutGuard:
    """Around one command: replaced characters counted, stdout failures reported."""

    def __init__(self) -> None:
        self.replaced = 0
        self._closed = sys.stdout is None
        self._errors: str | None = None
        codecs.register_error(REPLACE_HANDLER, self._replace)

    def _replace(self, error: UnicodeError) -> tuple[str, int]:
        if not isinstance(error, UnicodeEncodeError):
            raise error
        self.replaced += error.end - error.start
        return "?" * (error.end - error.start), error.end

    def __enter__(self) -> StdoutGuard:
        if self._closed:
            sys.stdout = _Closed()  # type: ignore[assignment]
            return self
        with contextlib.suppress(AttributeError, ValueError, OSError):
            self._errors = sys.stdout.errors
            sys.stdout.reconfigure(errors=REPLACE_HANDLER)  # type: ignore[union-attr]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._closed:
            sys.stdout = None  # type: ignore[assignment]
        elif self._errors is not None:
            with contextlib.suppress(AttributeError, ValueError, OSError):
                sys.stdout.reconfigure(errors=self._errors)  # type: ignore[union-attr]

    def finish(self) -> None:
        """Flush standard output (raising :class:`OutputError`) and report replacements."""
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(f"cannot write standard output: {error.strerror}") from error
        if self.replaced:
            encoding = getattr(sys.stdout, "encoding", "?")
            say(
                f"warning: {self.replaced} character(s) cannot be shown in the output's "
                f"encoding ({encoding}) and were replaced by '?'; --output FILE writes UTF-8 "
                "(or set PYTHONIOENCODING=utf-8)"
            )


def discard_stdout() -> None:
    """Point file descriptor 1 at the null device: what is still buffered is dropped
    there, instead of failing again when Python flushes at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
