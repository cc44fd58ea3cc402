"""Standings → text with a writer plugin, then the text → a stream or a file.

Contract: :func:`render` runs the writer into memory under the plugin fault rule
(:func:`sodos_plugin.plugins.call.call`), so a writer that fails leaves nothing
half-written; :func:`send` hands the text to the stream in bounded pieces, and a
stream that fails (a full disk, a closed pipe, an encoding that cannot show a
character) is an :class:`~sodos_plugin.errors.OutputError`, not a failure of the writer.

Files, for every command that writes one (``--output``, ``--save-state``):

* :func:`refuse_overwrite`, before anything is read: no output is one of the run's
  inputs (the same path once links are followed, or the same file by device and inode:
  a hard link), nor a file inside an input folder, nor another output of the same run.
  The refusal is one line naming both paths; nothing is written.
* :class:`AtomicFiles` (and :func:`atomic_file` for one file): each output is written to
  a temporary file in its target's folder, flushed to disk, and all of them are renamed
  over their targets only once every one is complete. A failed run (a writer, a full
  disk, a size limit, an error after the first file) removes the temporary files and
  leaves the old files as they were. A target that is not a regular file
  (``/dev/stdout``, a pipe) is written directly.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
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


# -- files ---------------------------------------------------------------------------------


def _same(a: Path, b: Path) -> bool:
    """The same file: one path once links are followed, or one inode (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def _inside(path: Path, folder: Path) -> bool:
    """``path`` is an existing file somewhere under ``folder``."""
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return os.path.isfile(real) and real.startswith(top.rstrip(os.sep) + os.sep)


def refuse_overwrite(
    inputs: Iterable[tuple[str, Path]], outputs: Iterable[tuple[str, Path]]
) -> None:
    """An :class:`OutputError` naming both paths when an output would replace an input or
    another output. ``inputs`` and ``outputs`` are ``(label, path)`` pairs; the labels are
    the face's names for them (the CLI's ``--output``, ``input``)."""
    inputs, outputs = list(inputs), list(outputs)
    for n, (label, path) in enumerate(outputs):
        for other_label, other in outputs[:n]:
            if _same(path, other):
                raise OutputError(
                    f"{other_label} {other} and {label} {path} are the same file: "
                    "refused, nothing written"
                )
        for in_label, source in inputs:
            if _same(path, source):
                raise OutputError(
                    f"{label} {path} would overwrite the {in_label} {source}: "
                    "refused, nothing written"
                )
            if os.path.isdir(source) and _inside(path, source):
                raise OutputError(
                    f"{label} {path} would overwrite a file of the {in_label} folder "
                    f"{source}: refused, nothing written"
                )


class AtomicFiles:
    """The files one run writes, moved into place together once all are complete.

    ``with AtomicFiles() as files:`` then ``with files.open(path) as handle:`` for each;
    leaving the outer block normally renames every temporary file over its target,
    leaving it with an exception removes them (the targets are untouched).
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path, Path]] = []  # (temporary, target, as given)

    def __enter__(self) -> AtomicFiles:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    @contextlib.contextmanager
    def open(self, path: Path) -> Iterator[TextIO]:
        """A UTF-8 text stream for ``path``: a temporary file beside it, renamed at
        :meth:`commit` (a link is followed, not replaced; the old file's mode is kept)."""
        target = Path(os.path.realpath(path))
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
        staged = False
        try:
            if mode is not None and os.chmod in os.supports_fd:  # keep the old file's mode
                os.chmod(fd, stat.S_IMODE(mode))
            with open(fd, "w", encoding="utf-8", newline="") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            self._staged.append((temporary, target, path))
            staged = True
        except OutputError as error:  # the stream failed while the writer wrote (Host.write)
            raise OutputError(f"cannot write: {error.reason}", source=str(path)) from error
        except OSError as error:
            raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
        finally:
            if not staged:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)

    def commit(self) -> None:
        """Every staged file renamed over its target."""
        staged, self._staged = self._staged, []
        try:
            while staged:
                temporary, target, path = staged[0]
                try:
                    os.replace(temporary, target)
                except OSError as error:
                    raise OutputError(f"cannot write: {error.strerror}", source=str(path)) from None
                staged.pop(0)
        finally:
            self._staged = staged
            self.discard()

    def discard(self) -> None:
        """Every staged temporary file removed; the targets are left as they were."""
        for temporary, _, _ in self._staged:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        self._staged = []


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[TextIO]:
    """One file written as :class:`AtomicFiles` writes it."""
    with AtomicFiles() as files, files.open(path) as handle:
        yield handle
