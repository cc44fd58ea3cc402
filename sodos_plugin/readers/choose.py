"""Which reader reads a path, and the reading itself: files → reader → Tournament.

Contract: :func:`reader_for` asks each reader in use whether it claims a path, given
the path and its first :data:`HEAD_BYTES` (third-party readers first, so a plugin can
take a format over); :func:`read` reads every path with the one reader that claims
them all (one tournament per run) and adds the warnings every reader owes
(players registered apart whose names are one name, docs/rules.md §8). Each reader hook
runs under the plugin fault rule (:func:`sodos_plugin.plugins.call.call`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sodos_hookspecs import ReadResult

from sodos_plugin.config.options import positive_integer
from sodos_plugin.engine.identity import shared_name_warnings
from sodos_plugin.errors import InputError
from sodos_plugin.plugins.call import call
from sodos_plugin.plugins.registry import Provided, Registry
from sodos_plugin.util.inputfiles import FileRefused, exists, is_dir, read_head, read_regular

#: how much of a file a reader's ``claims`` sees
HEAD_BYTES = 4096


def head(path: Path) -> bytes:
    """The first bytes of a file, for readers' ``claims`` (a folder is claimed by its name)."""
    try:
        if is_dir(path):
            return b""
        return read_head(path, HEAD_BYTES)
    except FileRefused as error:
        raise InputError(str(error), source=str(path)) from None


def stdin_suffix(registry: Registry, head: bytes) -> str:
    """The file name suffix for data read from stdin whose first bytes are ``head``: the
    first reader (third-party first) whose declared ``stdin`` recognises it says it
    (``".sgf"``), else ``""`` (readers claim by content too)."""
    for reader, plugin in registry.readers:
        if reader.stdin is None:
            continue
        suffix = call(
            plugin, f"stdin ({reader.name})", reader.stdin, head, expect=(str, type(None))
        )
        if suffix:
            return suffix
    return ""


def reader_for(registry: Registry, path: Path) -> Provided:
    """The reader plugin that claims ``path`` (third-party readers are asked first)."""
    first = head(path)
    for reader, plugin in registry.readers:
        if call(plugin, f"claims ({reader.name})", reader.claims, path, first, expect=bool):
            provided = registry.lookup("readers", reader.name)
            assert provided is not None
            return provided
    for conflict in registry.conflicts:
        if conflict.kind == "readers":
            raise InputError(f"no reader in use claims this file; {conflict}", source=str(path))
    formats = ", ".join(r.name for r, _ in registry.readers) or "none installed"
    raise InputError(f"no reader recognises this file (formats: {formats})", source=str(path))


def read(
    registry: Registry,
    paths: Sequence[Path | str],
    sections: Mapping[str, Mapping[str, Any]],
    **options: Any,
) -> ReadResult:
    """Every path read by the one reader that claims them all.

    :param sections: the config's ``[plugin.<name>]`` tables: the reader's own is its
        options, under ``options`` (``skip_bad``, ``jobs``).
    """
    if not paths:
        raise InputError("no input files given")
    chosen = None
    found = []
    for raw in paths:
        path = Path(raw)
        try:  # a path too long, a loop of links ...: said, naming the path
            there = exists(path)
        except FileRefused as error:
            raise InputError(str(error), source=str(path)) from None
        if not there:
            raise InputError("no such file or directory", source=str(path))
        reader = reader_for(registry, path)
        if chosen is not None and reader.name != chosen.name:
            raise InputError(
                f"is {reader.name} but earlier inputs are {chosen.name}: "
                "give the files of one tournament in one format",
                source=str(path),
            )
        chosen = reader
        found.append(path)
    assert chosen is not None
    hook = f"read ({chosen.name})"
    options = {**sections.get(chosen.plugin, {}), **options}
    result = call(chosen.plugin, hook, chosen.item.read, found, options, expect=ReadResult)
    shared = shared_name_warnings(result.tournament)
    if shared:  # a plugin's ReadResult may hold a tuple: a new one, warnings appended
        result = dataclasses.replace(result, warnings=[*result.warnings, *shared])
    return result


def one_file(
    paths: Sequence[Path], options: Mapping[str, Any], plugin: str, what: str, default: int
) -> tuple[str, bytes]:
    """The one file a reader of one-file tournaments was given, read within its
    ``max_bytes`` option (``[plugin.<plugin>]``, ``default`` unless set): its name and
    bytes, or an :class:`InputError` naming the file."""
    if len(paths) != 1:
        raise InputError(f"give one {what} file per tournament, got {len(paths)}")
    source = str(paths[0])
    section = f"[plugin.{plugin}]"
    limit = positive_integer(options.get("max_bytes", default), "max_bytes", section)
    try:
        return source, read_regular(paths[0], limit, f"option {section} max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
