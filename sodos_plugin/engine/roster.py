"""A roster: the players a host or TD says are in the event (docs/rules.md §8).

Contract: :func:`load_roster` reads a players file into a :class:`Roster` — a CSV
file (``.csv``, ``.tsv``, ``.txt``; comma, semicolon or tab separated, UTF-8) whose
header row names a ``name`` (or ``player``) column, or a surname column (``surname``,
``last name``, ``family name``, ``name``) and a first-name column (``first name``,
``firstname``, ``given name``) joined as ``surname first name`` (OpenGotha's order);
other columns (rank, club, country …) are allowed and not used. Any other file is read
as a tournament by the host's readers, and its players are the roster.
:meth:`Roster.check` raises :class:`~sodos_plugin.errors.InputError` listing every
player of a tournament whose name is not in the roster (by
:func:`~sodos_plugin.engine.identity.identity_key`), each with the closest roster name.

The roster only checks names: it changes no rank, club or result.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from sodos_plugin.engine.identity import NameIndex, identity_key
from sodos_plugin.engine.model import Tournament
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.util.inputfiles import FileRefused, read_regular

__all__ = ["MAX_ROSTER_BYTES", "Roster", "load_roster"]

MAX_ROSTER_BYTES = 16 << 20
#: Unknown names listed in the error; the rest are counted.
MAX_LISTED = 50
TABLE_SUFFIXES = (".csv", ".tsv", ".txt")
_NAME = ("name", "player", "full name", "player name")
_SURNAME = ("surname", "last name", "lastname", "family name", "name")
_FIRST = ("first name", "firstname", "given name", "forename")


class Roster:
    """The roster's names, matched by identity key."""

    def __init__(self, names: Sequence[str], source: str):
        self.names = list(names)
        self.source = source
        self.keys = {identity_key(name) for name in self.names}
        self._index: NameIndex | None = None

    def __contains__(self, name: str) -> bool:
        return identity_key(name) in self.keys

    def closest(self, name: str) -> str | None:
        if self._index is None:  # built only when a name is missing
            self._index = NameIndex(self.names)
        return self._index.closest(name)

    def check(self, tournament: Tournament) -> None:
        """Every player's name is in the roster, else an error listing the others."""
        unknown = [p.name for p in tournament.players if identity_key(p.name) not in self.keys]
        if not unknown:
            return
        shown = []
        for name in unknown[:MAX_LISTED]:
            close = self.closest(name)
            hint = f"closest: {close!r}" if close else "no close name in the roster"
            shown.append(f"{name!r} ({hint})")
        more = f" and {len(unknown) - MAX_LISTED} more" if len(unknown) > MAX_LISTED else ""
        raise InputError(
            f"{len(unknown)} player name(s) not in the roster {self.source}: "
            f"{', '.join(shown)}{more}",
            source=tournament.source or tournament.name or None,
        )


def _read_bounded(path: Path) -> bytes:
    try:  # a regular file only, bounded (sodos_plugin.util.inputfiles)
        return read_regular(path, MAX_ROSTER_BYTES)
    except FileRefused as error:
        raise ConfigError(f"roster: {error}", source=str(path)) from None


def _column(header: list[str], wanted: tuple[str, ...]) -> int | None:
    folded = [" ".join(h.replace("_", " ").split()).casefold() for h in header]
    for name in wanted:
        if name in folded:
            return folded.index(name)
    return None


def read_table(data: bytes, source: str) -> list[str]:
    """Names from a CSV players file (see the module documentation)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(f"roster: not UTF-8 text (byte {error.start})", source=source) from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    rows = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(rows, None)
        if header is None:
            raise ConfigError("roster: empty file", source=source)
        first_name = _column(header, _FIRST)
        whole = _column(header, _NAME) if first_name is None else None
        surname = _column(header, _SURNAME) if first_name is not None else None
        if whole is None and surname is None:
            raise ConfigError(
                "roster: the header row needs a 'name' column (or surname and first name "
                f"columns), got {', '.join(repr(h) for h in header[:10])}",
                source=source,
            )
        names = []
        for number, row in enumerate(rows, 2):
            if not any(cell.strip() for cell in row):
                continue
            if whole is not None:
                name = row[whole].strip() if whole < len(row) else ""
            else:
                parts = [row[i].strip() for i in (surname, first_name) if i < len(row)]
                name = " ".join(p for p in parts if p)
            if not name:
                raise ConfigError(f"roster: line {number} has no name", source=source)
            names.append(name)
    except csv.Error as error:
        raise ConfigError(f"roster: not valid CSV: {error}", source=source) from None
    return names


def load_roster(path: Path | str, read_players: Callable[[Path], Tournament]) -> Roster:
    """Read a roster; ``read_players`` reads a tournament file (the host's readers)."""
    path = Path(path)
    if path.suffix.lower() in TABLE_SUFFIXES:
        names = read_table(_read_bounded(path), str(path))
    else:
        if not path.exists():
            raise ConfigError("roster: no such file or directory", source=str(path))
        names = [player.name for player in read_players(path).players]
    if not names:
        raise ConfigError("roster: no player names in it", source=str(path))
    return Roster(names, str(path))
