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
* :func:`atomic_file` writes ``--output``: a temporary file in the target's folder,
  flushed to disk, then renamed over the target. A failed write (the writer, a full
  disk, a size limit) removes the temporary file and leaves the old file as it was.
  A target that is not a regular file (``/dev/stdout``, a pipe) is written directly.
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
import stat
import sys
from collections.abc import Iterator

from sodos_plugin.errors import OutputError
from sodos_plugin.util.textsafe import fit_middle, printable

TYPE_CHECKING = False  # typing and pathlib are left out of sodos --version's start-up
if TYPE_CHECKING:
    from pathlib import Path
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


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[TextIO]:
    """A UTF-8 text stream that replaces ``path`` only once everything is written."""
    from pathlib import Path

    target = Path(os.path.realpath(path))  # a link is followed, not replaced
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
    if mode is not None and not stat.S_ISREG(mode):  # /dev/stdout, a pipe: no rename
        try:
            with open(target, "w", encoding="utf-8", newline="") as handle:
                yield handle
        except OSError as error:
            raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
        return
    temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
    except OSError as error:
        raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
    done = False
    try:
        if mode is not None and os.chmod in os.supports_fd:  # keep the old file's mode
            os.chmod(fd, stat.S_IMODE(mode))
        with open(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        done = True
    except OutputError as error:  # the stream failed while the writer wrote (Host.write)
        raise OutputError(f"cannot write: {error.reason}", source=str(path)) from error
    except OSError as error:
        raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


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
