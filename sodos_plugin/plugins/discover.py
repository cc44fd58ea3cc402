"""Entry points of one group, found as :mod:`importlib.metadata` finds them, without it.

Importing ``importlib.metadata`` (with ``email``, ``zipfile``, ``csv``, ``inspect``...)
costs about twice a bare interpreter's start-up, and every ``sodos`` command — even
``--version`` — only needs the ``sodos`` group. :func:`entry_points` reads the same
files in the same order as the standard library: every ``*.dist-info`` and
``*.egg-info`` folder of each directory on ``sys.path`` in ``os.listdir`` order, grouped
by normalised name, the first distribution of a name winning, its ``entry_points.txt``
parsed as ``importlib.metadata`` parses it. Anything else — a zip file or an ``.egg``
on ``sys.path``, a meta-path finder that provides distributions of its own — is left to
``importlib.metadata`` itself, so the answer never differs (``tests/plugins/test_discover.py``
compares both on this environment and on crafted folders).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing stays out of sodos --version's start-up
if TYPE_CHECKING:
    from typing import Any

_INFO_SUFFIXES = (".dist-info", ".egg-info")


def _normalize(name: str) -> str:
    """``importlib.metadata.Prepared.normalize`` (PEP 503, with ``_``)."""
    import re

    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


class _Metadata(dict):
    """The headers of ``METADATA`` / ``PKG-INFO`` by case-insensitive name; a missing
    one is ``None`` (as in the ``email`` message ``importlib.metadata`` returns)."""

    def __getitem__(self, key: str) -> str | None:
        return self.get(key.lower())


class Distribution:
    """The part of ``importlib.metadata.Distribution`` the plugin host reads."""

    def __init__(self, path: str):
        self._path = path
        self._metadata: _Metadata | None = None

    def read_text(self, filename: str) -> str | None:
        try:
            with open(os.path.join(self._path, filename), encoding="utf-8") as f:
                return f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            return None

    @property
    def metadata(self) -> _Metadata:
        if self._metadata is None:
            text = self.read_text("METADATA") or self.read_text("PKG-INFO") or ""
            headers = _Metadata()
            for line in text.splitlines():
                if not line.strip():
                    break  # the body starts
                if line[:1] in (" ", "\t"):
                    continue  # a continuation line: Name and Version have none
                key, sep, value = line.partition(":")
                if sep:
                    headers.setdefault(key.strip().lower(), value.strip())
            self._metadata = headers
        return self._metadata

    @property
    def version(self) -> str | None:
        return self.metadata["version"]


class EntryPoint:
    """``importlib.metadata.EntryPoint``'s ``name``, ``value``, ``group``, ``dist`` and
    ``load()`` (the same pattern: ``module[:attr.attr][ [extras]]``)."""

    def __init__(self, name: str, value: str, group: str, dist: Distribution | None):
        self.name, self.value, self.group, self.dist = name, value, group, dist

    def load(self) -> Any:
        import functools
        import importlib
        import re

        pattern = r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$"
        match = re.match(pattern, self.value)
        if match is None:
            raise ValueError(f"malformed entry point value {self.value!r}")
        module = importlib.import_module(match.group("module"))
        attrs = filter(None, (match.group("attr") or "").split("."))
        return functools.reduce(getattr, attrs, module)

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _parse(text: str, group: str, dist: Distribution) -> list[EntryPoint]:
    """``importlib.metadata.Sectioned``: stripped lines, ``#`` comments, ``[section]``;
    a line without ``=`` in any section is an error there too."""
    found = []
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        name, equals, value = line.partition("=")
        if not equals:
            raise ValueError(f"malformed entry point line {line!r} in {dist._path}")
        if section == group:
            found.append(EntryPoint(name.strip(), value.strip(), group, dist))
    return found


def _standard_library_only() -> bool:
    """True when only the standard path finder provides distributions."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is PathFinder or not hasattr(finder, "find_distributions"):
            continue
        return False
    return True


def _info_folders(root: str) -> list[str] | None:
    """The metadata folders of one ``sys.path`` entry in the standard library's order,
    or None when the entry needs the standard library (a zip file, an ``.egg``)."""
    try:
        children = os.listdir(root or ".")
    except NotADirectoryError:
        return None  # a zip file on sys.path
    except Exception:
        return []
    if os.path.basename(root).lower().endswith(".egg"):
        return None
    grouped: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith(_INFO_SUFFIXES):
            name = low.rpartition(".")[0].partition("-")[0]
            grouped.setdefault(_normalize(name), []).append(os.path.join(root, child))
    return [path for paths in grouped.values() for path in paths]


def _stdlib_entry_points(group: str) -> list[Any]:
    import importlib.metadata

    return list(importlib.metadata.entry_points(group=group))


def entry_points(group: str) -> list[Any]:
    """Every entry point of ``group``, in ``importlib.metadata.entry_points`` order;
    errors reading a distribution's files propagate as they do there."""
    if not _standard_library_only():
        return _stdlib_entry_points(group)
    folders = []
    for root in sys.path:
        found = _info_folders(root)
        if found is None:
            return _stdlib_entry_points(group)
        folders.extend(found)
    seen: set[str] = set()
    result = []
    for path in folders:
        stem = os.path.basename(path)
        key = _normalize(os.path.splitext(stem)[0].partition("-")[0])
        if key in seen:
            continue
        seen.add(key)
        dist = Distribution(path)
        text = dist.read_text("entry_points.txt")
        if text:
            result.extend(_parse(text, group, dist))
    return result
