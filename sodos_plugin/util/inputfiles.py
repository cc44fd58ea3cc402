"""Opening input files from strangers: regular files only, read within a size bound.

Every reader (h9, OpenGotha XML, SGF records and archives, folder configs) and
:meth:`Host.read <sodos_plugin.host.Host.read>` open their files here, so one rule
holds everywhere:

* **Only regular files.** The file is opened with ``O_NONBLOCK`` (a named pipe with no
  writer, a terminal or a device opens without waiting) and ``O_NOCTTY``, then the
  *open descriptor* is checked with ``fstat`` (no window between a check and the open
  for a swapped link). Anything else — a FIFO, ``/dev/zero``, a socket, a directory —
  is :class:`NotRegular`, before one byte is read. ``O_NONBLOCK`` has no effect on
  reading a regular file.
* **Bounded.** A file larger than the limit is refused from its size, without reading
  it (a sparse file of terabytes costs nothing), and reading stops one byte past the
  limit should the file grow while it is read.

Failures are :class:`FileRefused` (a ``ValueError``) whose text is the reason to
show: ``not a regular file (a named pipe)``, ``file is 17000000 bytes, above the limit
of 16777216 (option [plugin.builtin.h9] max_bytes)``, ``cannot read: Permission
denied``.
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "FileRefused",
    "NotRegular",
    "TooLarge",
    "exists",
    "is_dir",
    "open_bounded",
    "open_regular",
    "read_head",
    "read_regular",
]

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_CHUNK = 1 << 16

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(ValueError):
    """A file that is not read; ``str()`` is the reason to show."""


class NotRegular(FileRefused):
    """Not a regular file (pipe, device, socket, directory)."""


class TooLarge(FileRefused):
    """Above the size limit."""


def _stat(path: str | Path) -> os.stat_result | None:
    """The path's status (links followed), None when nothing is there; any other failure
    (a name longer than the system allows, a loop of links, a folder on the way that may
    not be searched, a NUL in the name) is :class:`FileRefused` with its reason. Python's
    ``Path.exists`` raises the bare ``OSError`` on some versions and answers False on
    others: the caller would name no file."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise FileRefused(f"cannot read: {error.strerror or error}") from None
    except ValueError:  # "embedded null byte"
        raise FileRefused("cannot read: the name holds a NUL character") from None


def exists(path: str | Path) -> bool:
    """Whether something is at ``path`` (:func:`_stat`: other failures are refused)."""
    return _stat(path) is not None


def is_dir(path: str | Path) -> bool:
    """Whether ``path`` is a folder (:func:`_stat`: other failures are refused)."""
    found = _stat(path)
    return found is not None and stat.S_ISDIR(found.st_mode)


def kind(mode: int) -> str:
    """``"a named pipe"``, ``"a socket"``... for a non-regular ``st_mode``."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse_mode(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise NotRegular(f"not a regular file ({kind(mode)})")


def _open(path: str | Path) -> tuple[int, int]:
    """``(descriptor, size)`` of a regular file, else :class:`FileRefused`."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as error:
        # a socket cannot be opened at all (ENXIO): say what it is, not the errno
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        _refuse_mode(mode)
        raise FileRefused(f"cannot read: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        _refuse_mode(info.st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def _too_large(size: int | None, limit: int, option: str) -> TooLarge:
    shown = f"file is {size} bytes, above" if size is not None else "file is above"
    return TooLarge(f"{shown} the limit of {limit}{f' ({option})' if option else ''}")


def read_regular(path: str | Path, limit: int, option: str = "") -> bytes:
    """The whole content of the regular file ``path``, at most ``limit`` bytes.

    :param option: the setting that raises the limit, named in the reason.
    :raises FileRefused: not a regular file, above ``limit``, or unreadable.
    """
    fd, size = _open(path)
    try:
        if size > limit:
            raise _too_large(size, limit, option)
        # One read takes the usual file whole: a regular file returns fewer bytes
        # than asked only at its end.
        want = size + 1
        try:
            data = os.read(fd, want)
            if len(data) < want:
                return data
            chunks = [data]
            total = len(data)
            while total <= limit:
                chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
                total += len(chunk)
        except OSError as error:
            raise FileRefused(f"cannot read: {error.strerror}") from None
        raise _too_large(None, limit, option)  # it grew while read
    finally:
        os.close(fd)


def read_head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file (for format detection)."""
    fd, _ = _open(path)
    try:
        return os.read(fd, size)
    except OSError as error:
        raise FileRefused(f"cannot read: {error.strerror}") from None
    finally:
        os.close(fd)


def open_regular(path: str | Path) -> BinaryIO:
    """A binary file object on a regular file (archives: zipfile and tarfile read it)."""
    fd, _ = _open(path)
    return os.fdopen(fd, "rb")


class _Bounded(io.RawIOBase):
    """A descriptor read to at most ``limit`` bytes: one byte more is :class:`TooLarge`
    (the file grew while read)."""

    def __init__(self, fd: int, limit: int, option: str):
        self.fd, self.left, self.limit, self.option = fd, limit, limit, option

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        position = os.lseek(self.fd, offset, whence)
        self.left = self.limit - position
        return position

    def tell(self) -> int:
        return os.lseek(self.fd, 0, os.SEEK_CUR)

    def readinto(self, buffer) -> int:  # type: ignore[override]
        try:
            data = os.read(self.fd, min(len(buffer), self.left + 1))
        except OSError as error:
            raise FileRefused(f"cannot read: {error.strerror}") from None
        if len(data) > self.left:
            raise _too_large(None, self.limit, self.option)
        self.left -= len(data)
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def open_bounded(path: str | Path, limit: int, option: str = "") -> BinaryIO:
    """A buffered binary stream on the regular file ``path`` of at most ``limit`` bytes,
    for readers that read as they go (memory a small multiple of what they keep, not of
    the file): refused as :func:`read_regular` refuses, from its size before any read;
    reading past ``limit`` (a file that grows) raises :class:`TooLarge`."""
    fd, size = _open(path)
    if size > limit:
        os.close(fd)
        raise _too_large(size, limit, option)
    return io.BufferedReader(_Bounded(fd, limit, option), _CHUNK)  # type: ignore[return-value]


def plain_head(head: bytes) -> bytes:
    """A file's first bytes without a UTF-8 BOM and leading white space, and a UTF-16
    text's as bytes of its ASCII (SGF from some editors): what a reader's ``stdin``
    check looks at."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = text[2:].replace(b"\x00", b"").lstrip()
    return text
