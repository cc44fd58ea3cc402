"""Games table reader (``builtin.games_table``): what a server exports from its
database — one row per game, named columns — read as a game history (docs/ratings.md,
docs/rules.md §10.1).

Contract: :func:`claims` takes ``.csv`` and ``.tsv`` files whose first line names a
``black`` or ``white`` column; :func:`read_table` reads one into a :class:`GamesTable`
— every row a :class:`TableGame`, or a report saying why it is not rated — or raises
:class:`~sodos_plugin.errors.InputError` for a file that cannot be read as a table at
all. ``sodos ratings games.csv`` rates it; ``sodos standings`` refuses it (a table of
dated games is a history, not one tournament's rounds).

The table: UTF-8 (a BOM is skipped), or UTF-16 or UTF-32 with their BOM (what
spreadsheets save as "Unicode text"), or UTF-16 without one (told by its zero bytes);
lines end with LF, CR LF or CR alone (Excel for Mac); comma, semicolon or tab separated
(the one the header line holds most of; tab for ``.tsv``), a header row naming the
columns (any case; spaces, ``_`` and ``-`` alike), quoted cells as CSV quotes them,
read strictly: a quote never closed, or text after a closing quote (``"Ann"x``), is an
error naming the line where its row starts, never a cell that swallows the rest of the
file. A row of more than :data:`MAX_ROW_CHARS` characters (its quoted line breaks
included) is an error naming its line.

* required: ``date`` (any layout of :func:`sodos_plugin.readers.dated.first_day`; a
  time of day after the date, ``2024-05-10 23:30``, orders the games of one day),
  ``black``, ``white`` (the players' names) and ``result`` (SGF ``RE`` texts:
  ``B+R``, ``W+3.5``, ``B+T``, ``B+F``, ``0``/``Draw``/``Jigo``, ``Void``, ``?``;
  ``Black``, ``White``, ``B``, ``W``; docs/rules.md §9);
* optional: ``handicap`` (stones 0..9), ``komi`` (points), ``size`` (1..26, 19 when
  absent), ``event``, ``round`` (1..99), ``black rank`` and ``white rank`` (any
  spelling of docs/rules.md §10.1), ``id`` (the game's id), ``black id`` and
  ``white id`` (the players' ids);
* other columns are allowed and not read (named in a warning).

Rows, each accounted for as an SGF record is: a row with a value that cannot be read
(a handicap ``x``, a result that contradicts itself) is *rejected* with its line and
column; a row of a game that cannot be rated (no date, one player twice, no result, a
void or won by default game, a missing name) is *excluded* with its reason
(:mod:`sodos_plugin.readers.dated`); a game id given twice is a *duplicate*. Blank
lines are skipped.

The file is read as a stream, row by row (:func:`read_table`): memory is that of the
games kept (each a slotted :class:`TableGame` sharing its names, dates and events with
the other rows), not a multiple of the file's text. A history (:func:`history`, what
``sodos ratings`` reads) keeps no object per game: the rows are columns appended as they
are read (players, days, events, ranks as integer codes, the ids as one text, each
game's ``path:line`` and the event of a game without an event name made when read;
benchmarks/README.md). Warnings and reasons show a cell
cut to a few dozen columns (:func:`sodos_plugin.util.textsafe.quoted`).

Player ids: when ``black id`` and ``white id`` are given, a player is the id, not the
name: an id met with two names keeps the first (warned); two ids with one name are two
players, each shown as ``name [id]`` (warned), never merged into one.
"""

from __future__ import annotations

import bisect
import codecs
import csv
import io
import itertools
import math
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from sodos_hookspecs import (
    Coded,
    FileReport,
    GameColumns,
    GameHistory,
    HistoryEvent,
    HistoryPlayer,
    Reader,
    ReadResult,
    hookimpl,
)

from sodos_plugin.config.options import positive_integer
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE
from sodos_plugin.errors import InputError
from sodos_plugin.readers import dated
from sodos_plugin.readers.sgf.results import parse_result
from sodos_plugin.util.inputfiles import FileRefused, open_bounded, plain_head
from sodos_plugin.util.textsafe import fit_middle, printable, quoted, shown

__all__ = [
    "COLUMNS",
    "MAX_BYTES",
    "MAX_ROW_CHARS",
    "NAME",
    "PLUGIN",
    "GamesTable",
    "TableGame",
    "claims",
    "read",
    "read_table",
    "sodos_readers",
]

NAME = "games-table"
PLUGIN = "builtin.games_table"
SUFFIXES = (".csv", ".tsv")
#: A server's export of a million games is some 60 MB (option ``max_bytes``).
MAX_BYTES = 256 << 20
MAX_ROUNDS = 99
#: One row's characters, its quoted line breaks included: a games table's row is some
#: hundred; a quote never closed would otherwise make the rest of the file one cell.
MAX_ROW_CHARS = 1 << 20
#: Ignored columns named in the warning; more are counted.
SHOWN_COLUMNS = 12

#: column → the header names that mean it (folded: lower case, ``_``/``-`` as spaces).
COLUMNS: dict[str, tuple[str, ...]] = {
    "date": ("date", "day", "played", "game date", "dt"),
    "black": ("black", "black player", "black name", "pb"),
    "white": ("white", "white player", "white name", "pw"),
    "result": ("result", "re"),
    "handicap": ("handicap", "ha", "stones"),
    "komi": ("komi", "km"),
    "size": ("size", "board size", "board", "sz"),
    "event": ("event", "tournament", "ev"),
    "round": ("round", "ro"),
    "black_rank": ("black rank", "br"),
    "white_rank": ("white rank", "wr"),
    "id": ("id", "game id", "game"),
    "black_id": ("black id", "black player id"),
    "white_id": ("white id", "white player id"),
}
REQUIRED = ("date", "black", "white", "result")
_HEADER_OF = {name: column for column, names in COLUMNS.items() for name in names}


@dataclass(frozen=True, slots=True)
class TableGame:
    """One rated row: a game of the history, as the table gives it.

    :param line: the row's line in the file (1 is the header).
    :param score: Black's score (1 win, ½ jigo, 0 loss).
    """

    line: int
    date: str
    black: str
    white: str
    score: float
    handicap: int = 0
    komi: float | None = None
    size: int = 19
    event: str | None = None
    round: int | None = None
    black_rank: str | None = None
    white_rank: str | None = None
    id: str | None = None
    time: str | None = None


@dataclass(frozen=True)
class GamesTable:
    """A table read: its rated games, a report for every row not rated, warnings."""

    source: str
    games: tuple[TableGame, ...]
    files: tuple[FileReport, ...] = ()
    warnings: tuple[str, ...] = ()
    #: the columns read, of :data:`COLUMNS`
    columns: tuple[str, ...] = ()


def _fold(header: str) -> str:
    return " ".join(header.replace("_", " ").replace("-", " ").split()).casefold()


#: byte-order marks → the codec that reads the text after them (UTF-32 before UTF-16:
#: its little-endian BOM starts with UTF-16's)
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def encoding_of(head: bytes) -> str:
    """The text encoding of a table that starts with ``head``: its BOM's, else UTF-16
    when every other byte of the start is zero (a BOM-less UTF-16 export), else UTF-8."""
    for bom, encoding in BOMS:
        if head.startswith(bom):
            return encoding
    start = head[:64]
    if len(start) >= 4 and start.count(0) * 2 >= len(start) - 1:
        if not any(start[1::2]):
            return "utf-16-le"
        if not any(start[0::2]):
            return "utf-16-be"
    return "utf-8"


def _header_line(head: bytes) -> str:
    text = head.decode(encoding_of(head), "replace").lstrip("\ufeff")
    lines = text.splitlines()  # LF, CR LF or CR alone
    return lines[0] if lines else ""


def _cells(line: str, delimiter: str) -> list[str]:
    """The cells of one header line (a quote left open there: split at the delimiter)."""
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error:
        return line.split(delimiter)


def claims(path: Path, head: bytes) -> bool:
    """``.csv``/``.tsv`` files whose first line names a ``black`` or ``white`` column, in
    any encoding :func:`encoding_of` tells, any line end."""
    if path.suffix.lower() not in SUFFIXES or path.is_dir():
        return False
    line = _header_line(head)
    cells = _cells(line, _delimiter(line, path))
    return any(_HEADER_OF.get(_fold(cell)) in ("black", "white") for cell in cells)


def _delimiter(line: str, path: Path | str) -> str:
    if str(path).lower().endswith(".tsv"):
        return "\t"
    return max(",;\t", key=line.count)


class _Row:
    """Cells of one row by column, for messages naming line and column."""

    __slots__ = ("at", "cells", "line", "names", "where")

    def __init__(self, cells: list[str], line: int, at: Mapping[str, int], names, where: str):
        self.cells = cells
        self.line = line
        self.names = names
        self.where = where
        self.at = at

    def get(self, column: str) -> str:
        index = self.at.get(column)
        if index is None or index >= len(self.cells):
            return ""
        return self.cells[index].strip()

    def error(self, column: str, message: str) -> FileReport:
        return FileReport(
            f"{self.where}:{self.line}", "rejected", f"column '{self.names[column]}': {message}"
        )


def read_table(path: Path | str, max_bytes: int = MAX_BYTES) -> GamesTable:
    """Read one games table (see the module documentation), as a stream."""
    source = str(path)
    try:
        with open_bounded(path, max_bytes, f"option [plugin.{PLUGIN}] max_bytes") as stream:
            return read_stream(stream, source)
    except FileRefused as error:
        raise InputError(str(error), source=source) from None


def _read_columns(path: Path | str, max_bytes: int) -> tuple[_Reader, list[str]]:
    """:func:`read_table` as the history reads it: the rows kept as columns, no
    :class:`TableGame` built."""
    source = str(path)
    try:
        with open_bounded(path, max_bytes, f"option [plugin.{PLUGIN}] max_bytes") as stream:
            reader, warnings, _ = _read_rows(stream, source)
            return reader, warnings
    except FileRefused as error:
        raise InputError(str(error), source=source) from None


def parse_table(data: bytes, source: str) -> GamesTable:
    """:func:`read_table` of bytes already read (``source`` names them in messages)."""
    return read_stream(io.BytesIO(data), source)


class _RowTooLong(Exception):
    pass


def _lines(text: io.TextIOBase, used: list[int]) -> Iterator[str]:
    """The lines of ``text`` (ends kept: LF, CR LF, CR), each read to at most
    :data:`MAX_ROW_CHARS`; ``used[0]`` counts the characters of the row being read
    (the caller sets it to 0 at each row) and past the limit raises :class:`_RowTooLong`."""
    readline = text.readline
    while True:
        line = readline(MAX_ROW_CHARS + 1)
        if not line:
            return
        used[0] += len(line)
        if used[0] > MAX_ROW_CHARS:
            raise _RowTooLong
        yield line


def read_stream(binary: BinaryIO, source: str) -> GamesTable:
    """:func:`read_table` of an open binary stream, read row by row."""
    reader, warnings, columns = _read_rows(binary, source, _TableGames())
    games = reader.kept.named(reader.shown())
    return GamesTable(source, games, tuple(reader.files), tuple(warnings), columns)


def _read_rows(
    binary: BinaryIO, source: str, kept: Any = None
) -> tuple[_Reader, list[str], tuple[str, ...]]:
    """The rows of an open binary stream read into a :class:`_Reader` (its games kept as
    columns, or in ``kept``: :class:`_TableGames`), the table's warnings and the columns
    read."""
    encoding = encoding_of(binary.read(4))
    binary.seek(0)
    named = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8"}.get(encoding, encoding.upper())
    text = io.TextIOWrapper(binary, encoding=encoding, errors="strict", newline="")
    used = [0]
    lines = _lines(text, used)
    start = 1  # the first line of the row being read (a quoted cell may hold line breaks)
    rows: Any = None
    try:
        first = next(lines, "")
        delimiter = _delimiter(first.lstrip("\ufeff"), source)
        rows = csv.reader(_chain(first.lstrip("\ufeff"), lines), delimiter=delimiter,
                          strict=True)  # fmt: skip
        header = next(rows, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InputError("line 1: no header row naming the columns", source=source)
        at, names, ignored = _columns(header, source)
        reader = _Reader(source, at, names, kept)
        start = rows.line_num + 1
        used[0] = 0
        for cells in rows:
            reader.row(cells, start)
            start = rows.line_num + 1
            used[0] = 0
    except UnicodeDecodeError:
        line, byte = _undecodable(binary, encoding)
        raise InputError(f"line {line}: not {named} text (byte {byte})", source=source) from None
    except _RowTooLong:
        raise InputError(
            f"line {start}: a row of more than {MAX_ROW_CHARS} characters (a quote never closed?)",
            source=source,
        ) from None
    except csv.Error as error:
        if "unexpected end of data" in str(error):
            raise InputError(
                f"line {start}: a quote opened in this row is never closed", source=source
            ) from None
        end = rows.line_num if rows is not None else 1
        lines = f"line {start}" if end <= start else f"lines {start}-{end}"
        raise InputError(f"{lines}: not valid CSV: {error}", source=source) from None
    finally:
        text.detach()  # the caller closes the stream
    warnings = list(reader.warnings)
    if ignored:
        more = len(ignored) - SHOWN_COLUMNS
        listed = ", ".join(map(quoted, ignored[:SHOWN_COLUMNS]))
        warnings.insert(
            0,
            f"{source}: columns not read: {listed}" + (f" and {more} more" if more > 0 else ""),
        )
    warnings.extend(reader.id_warnings())
    reader.ids, reader.unkept, reader.kept_lines = set(), {}, None  # read: duplicates found
    return reader, warnings, tuple(at)


def _undecodable(binary: BinaryIO, encoding: str) -> tuple[int, int]:
    """The line and byte offset of the first bytes that are not ``encoding`` text: the
    stream read again from its start by blocks (the error path only)."""
    binary.seek(0)
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    line, offset, last = 1, 0, ""
    while True:
        block = binary.read(1 << 16)
        pending = decoder.getstate()[0]
        try:
            text = decoder.decode(block, final=not block)
        except UnicodeDecodeError as error:
            good = (pending + block)[: error.start].decode(encoding, "replace")
            return line + _breaks(last, good), offset - len(pending) + error.start
        if not block:  # pragma: no cover - the error was met while reading
            return line, offset
        line += _breaks(last, text)
        offset += len(block)
        last = text[-1:] or last


def _breaks(last: str, text: str) -> int:
    """Line ends in ``text`` (LF, CR LF, CR; a CR LF split after ``last`` counts once)."""
    count = text.count("\n") + text.count("\r") - text.count("\r\n")
    return count - (last == "\r" and text.startswith("\n"))


def _chain(first: str, lines: Iterator[str]) -> Iterator[str]:
    if first:
        yield first
    yield from lines


def _columns(header: list[str], source: str):
    """The header's columns: where each of :data:`COLUMNS` is, its name as written, and
    the names not read."""
    at: dict[str, int] = {}
    names: dict[str, str] = {}
    ignored = []
    for index, cell in enumerate(header):
        column = _HEADER_OF.get(_fold(cell))
        if column is None:
            if cell.strip():
                ignored.append(cell.strip())
            continue
        if column in at:
            raise InputError(
                f"line 1: columns '{names[column]}' and {quoted(cell.strip())} both "
                f"give the {column.replace('_', ' ')}",
                source=source,
            )
        at[column], names[column] = index, shown(cell.strip())
    missing = [c for c in REQUIRED if c not in at]
    if missing:
        raise InputError(
            f"line 1: no {' and no '.join(missing)} column (a games table needs "
            f"{', '.join(REQUIRED)}; the header names {', '.join(map(quoted, header[:12]))})",
            source=source,
        )
    return at, names, ignored


class _Codes:
    """A column of repeated values (names, days, events, ranks): one integer code per
    row, into the distinct values (a server's million games hold a few thousand of
    each). ``values``/``of`` may be another column's: one table for two columns."""

    __slots__ = ("codes", "of", "values")

    def __init__(self, values: list | None = None, of: dict | None = None):
        self.codes = array("i")
        self.values: list = [] if values is None else values
        self.of: dict = {} if of is None else of

    def code(self, value) -> int:
        """The code of ``value`` (a new one when it is new)."""
        code = self.of.get(value)
        if code is None:
            code = self.of[value] = len(self.values)
            self.values.append(value)
        return code

    def add(self, value) -> None:
        self.codes.append(self.code(value))

    def extend(self, other: _Codes) -> None:
        """``other``'s rows appended (its codes taken as they are when this is empty)."""
        if not self.values:
            self.codes, self.values, self.of = other.codes, other.values, other.of
            return
        new = [self.code(v) for v in other.values]
        self.codes.extend(map(new.__getitem__, other.codes))

    def coded(self) -> Coded:
        return Coded(self.codes, self.values)


class _Kept:
    """The rated rows of a table as columns, appended as they are read: no object per
    row. Players (``black``, ``white``: one table) are their ids when the table gives
    ids, else their names; ``first_line`` is the line each is first met on."""

    def __init__(self) -> None:
        self.line = array("q")
        self.date = _Codes()
        self.black = _Codes()
        self.white = _Codes(self.black.values, self.black.of)
        self.first_line = array("q")
        self.score = array("d")
        self.handicap = array("b")
        self.size = array("b")
        self.komi = _Codes()
        self.event = _Codes()
        self.round = _Codes()
        self.black_rank = _Codes()
        self.white_rank = _Codes(self.black_rank.values, self.black_rank.of)
        self.time = _Codes()
        self.id: list[str | None] = []

    def __len__(self) -> int:
        return len(self.line)

    def lines_by_id(self) -> dict[str, int]:
        """Each kept game's id → its line."""
        return {i: line for i, line in zip(self.id, self.line) if i is not None}

    def add(
        self, line, date, black, white, score, handicap, komi, size, event, rnd,
        black_rank, white_rank, game_id, time,
    ) -> None:  # fmt: skip
        self.line.append(line)
        self.date.add(date)
        players = len(self.black.values)
        self.black.add(black)
        self.white.add(white)
        self.first_line.extend([line] * (len(self.black.values) - players))
        self.score.append(score)
        self.handicap.append(handicap)
        self.size.append(size)
        self.komi.add(komi)
        self.event.add(event)
        self.round.add(rnd)
        self.black_rank.add(black_rank)
        self.white_rank.add(white_rank)
        self.id.append(game_id)
        self.time.add(time)


class _TableGames(list):
    """The rated rows as :class:`TableGame` s (what :func:`read_table` gives), each
    text one object per distinct text."""

    def __init__(self) -> None:
        super().__init__()
        self.share = {}.setdefault

    def add(self, line, date, black, white, score, handicap, komi, size, *texts) -> None:
        share = self.share
        event, rnd, black_rank, white_rank, game_id, time = texts
        game = TableGame(
            line, share(date, date), black, white, score, handicap, share(komi, komi),
            size, share(event, event), rnd, share(black_rank, black_rank),
            share(white_rank, white_rank), game_id, time,
        )  # fmt: skip
        self.append(game)

    def lines_by_id(self) -> dict[str, int]:
        """Each kept game's id → its line."""
        return {game.id: game.line for game in self if game.id is not None}

    def named(self, shown: Mapping[str, str] | None) -> tuple[TableGame, ...]:
        """The games, each player (his id) by his name in ``shown`` when given."""
        if shown is None:
            return tuple(self)
        return tuple(
            replace(game, black=shown[game.black], white=shown[game.white]) for game in self
        )


class _Reader:
    """The rows of one table, one at a time."""

    def __init__(
        self, source: str, at: Mapping[str, int], names: Mapping[str, str], kept: Any = None
    ):
        self.source = source
        self.at = at
        self.names = names
        self.kept = _Kept() if kept is None else kept  # the rated rows
        self.files: list[FileReport] = []
        self.warnings: list[str] = []
        # the game ids met: a set, not a line per game; the line of an id met again is
        # looked up then (:meth:`first_line`)
        self.ids: set[str] = set()
        self.unkept: dict[str, int] = {}  # id of a row not rated → its line
        self.kept_lines: dict[str, int] | None = None  # id of a kept game → its line
        # one object per distinct name (the first name of an id is kept)
        self.share = {}.setdefault
        self.by_id = "black_id" in at and "white_id" in at
        self.id_names: dict[str, tuple[str, int]] = {}  # player id → first name, line

    def row(self, cells: list[str], line: int) -> None:
        if not any(cell.strip() for cell in cells):
            return  # a blank line
        row = _Row(cells, line, self.at, self.names, self.source)
        where = f"{self.source}:{line}"
        try:
            handicap = _integer(row, "handicap", 0, 9, 0)
            komi = _komi(row)
            size = _integer(row, "size", 1, 26, 19)
            rnd = _integer(row, "round", 1, MAX_ROUNDS, None)
        except _Bad as bad:
            self.files.append(bad.report)
            return
        result_text = row.get("result")
        parsed = parse_result(result_text)
        if parsed.how == "contradiction":
            self.files.append(row.error("result", _note(parsed.note)))
            return
        game_id = row.get("id") or None
        if game_id is not None:
            if game_id in self.ids:
                first = self.first_line(game_id)
                self.files.append(
                    FileReport(where, "duplicate", f"game id {quoted(game_id)} as on line {first}")
                )
                return
            self.ids.add(game_id)
        share = self.share
        black, white = row.get("black"), row.get("white")
        black, white = share(black, black), share(white, white)
        ids = (row.get("black_id"), row.get("white_id")) if self.by_id else None
        date_text = row.get("date")
        day = dated.first_day(date_text)
        why = _not_rated(black, white, ids, day, date_text, parsed, result_text, row.names)
        if why is not None:
            kind, reason = why
            self.files.append(FileReport(where, "excluded", reason, kind))
            if game_id is not None:
                self.unkept[game_id] = line
            return
        if game_id is not None and self.kept_lines is not None:
            self.kept_lines[game_id] = line
        if ids is not None:
            for player_id, name in zip(ids, (black, white)):
                first_name = self.id_names.setdefault(player_id, (name, line))
                if first_name[0] != name:
                    self.warnings.append(
                        f"{where}: player id {quoted(player_id)} is {quoted(name)} here and "
                        f"{quoted(first_name[0])} on line {first_name[1]}: the first name is used"
                    )
        keys = ids if ids is not None else (black, white)  # a player: his id, else his name
        self.kept.add(
            line,
            day,
            keys[0],
            keys[1],
            BLACK_SCORE[parsed.result],
            handicap,
            komi,
            size,
            row.get("event") or None,
            rnd,
            row.get("black_rank") or None,
            row.get("white_rank") or None,
            game_id,
            dated.time_of_day(date_text),
        )
        if parsed.note:
            self.warnings.append(f"{where}: {_note(parsed.note)}")

    def first_line(self, game_id: str) -> int:
        """The line of the first row with ``game_id``: of a row not rated, or of a kept
        game (their ids by line made once, at the first id met again)."""
        if game_id in self.unkept:
            return self.unkept[game_id]
        if self.kept_lines is None:
            self.kept_lines = self.kept.lines_by_id()
        return self.kept_lines[game_id]

    def shown(self) -> dict[str, str] | None:
        """With ids, each player id → the name he is shown by: the first name of his
        id; two ids of one name are ``name [id]`` each. None without ids (a player is
        his name)."""
        if not self.by_id:
            return None
        ids_of: dict[str, list[str]] = {}
        for player_id, (name, _) in self.id_names.items():
            ids_of.setdefault(identity_key(name), []).append(player_id)
        shown = {}
        for player_id, (name, _) in self.id_names.items():
            shared = len(ids_of[identity_key(name)]) > 1
            shown[player_id] = f"{name} [{player_id}]" if shared else name
        return shown

    def id_warnings(self) -> list[str]:
        if not self.by_id:
            return []
        ids_of: dict[str, list[str]] = {}
        for player_id, (name, _) in self.id_names.items():
            ids_of.setdefault(identity_key(name), []).append(player_id)
        return [
            f"{self.source}: {len(ids)} player ids share the name "
            f"{quoted(self.id_names[ids[0]][0])} ({', '.join(map(quoted, ids[:5]))}): different "
            "players, each shown with the id"
            for ids in ids_of.values()
            if len(ids) > 1
        ]


def _note(note: str) -> str:
    """A result's note (it quotes the cell: ``RE[...]: result not understood``) cut in
    its middle to a line's length, its start and its reason kept."""
    return fit_middle(printable(note[:200] + note[-200:] if len(note) > 400 else note), 160)


class _Bad(Exception):
    def __init__(self, report: FileReport):
        self.report = report


def _integer(row: _Row, column: str, low: int, high: int, default: int | None) -> int | None:
    text = row.get(column)
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise _Bad(row.error(column, f"{quoted(text)} is not a number {low}..{high}"))
    return int(text)


def _komi(row: _Row) -> float | None:
    text = row.get("komi")
    if not text:
        return None
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or abs(value) > 150:
        raise _Bad(row.error("komi", f"{quoted(text)} is not a komi in points"))
    return value + 0.0


def _not_rated(black, white, ids, day, date_text, parsed, result_text, names):
    """(key, reason) when a valid row is not rated, else None."""
    if not black or not white:
        missing = " and ".join(names[c] for c, v in (("black", black), ("white", white)) if not v)
        return dated.NO_PLAYERS, f"no player name in {missing} (not rated)"
    same = (
        ids[0] == ids[1]
        if ids is not None and all(ids)
        else identity_key(black) == identity_key(white)
    )
    if same:
        return dated.SELF_PLAY, f"{quoted(black)} plays himself: self-play (not rated)"
    if ids is not None and not all(ids):
        missing = " and ".join(names[c] for c, v in zip(("black_id", "white_id"), ids) if not v)
        return dated.NO_PLAYERS, f"no player id in {missing} (not rated)"
    if day is None:
        if date_text:
            return (
                dated.UNDATED,
                f"{names['date']} {quoted(date_text)}: not a full date (not rated)",
            )
        return dated.UNDATED, f"no {names['date']}: the game's date is unknown (not rated)"
    if parsed.by_default:
        return dated.FORFEIT, f"{names['result']} {quoted(result_text)}: won by default (not rated)"
    if parsed.result not in BLACK_SCORE:
        kind = {"void": dated.VOID, "unrecognised": dated.NOT_UNDERSTOOD}.get(
            parsed.how, dated.UNFINISHED
        )
        note = _note(parsed.note or f"RE[{result_text}]: result unknown")
        return kind, f"{names['result']}: {note} (not rated)"
    return None


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    """A games table is a history of dated games, not one tournament's rounds."""
    raise InputError(
        "a games table (a server's dated games) is a game history, not one tournament: "
        "'sodos ratings FILE' rates it",
        source=str(paths[0]) if paths else None,
    )


class _Places(Sequence):
    """Each row's source, ``path:line``, made when read (not a text per game): the tables'
    paths, where each starts, and every row's line."""

    __slots__ = ("lines", "paths", "starts")

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.starts: list[int] = []
        self.lines = array("q")

    def extend(self, path: str, lines: Sequence[int]) -> None:
        self.paths.append(path)
        self.starts.append(len(self.lines))
        self.lines.extend(lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return f"{self.paths[bisect.bisect_right(self.starts, i) - 1]}:{self.lines[i]}"

    def __iter__(self) -> Iterator[str]:
        ends = [*self.starts[1:], len(self.lines)]
        for path, start, end in zip(self.paths, self.starts, ends):
            yield from map(f"{path}:".__add__, map(str, self.lines[start:end]))

    def row(self, source: str, part: int) -> int | None:
        """The row of table ``part`` whose source is ``source``, else None."""
        path, _, line = source.rpartition(":")
        if path != self.paths[part] or not (line.isascii() and line.isdigit()):
            return None
        start = self.starts[part]
        end = self.starts[part + 1] if part + 1 < len(self.starts) else len(self.lines)
        r = bisect.bisect_left(self.lines, int(line), start, end)
        return r if r < end and self.lines[r] == int(line) and str(self.lines[r]) == line else None


class _Texts(Sequence):
    """Texts or None (a game's id), kept as one string and where each ends: not an
    object per game (a server's millions of ids; None is kept as an empty text, which
    no id is)."""

    __slots__ = ("ends", "text")

    def __init__(self, items: Sequence[str | None]):
        self.text = "".join([item or "" for item in items])
        self.ends = array("q", itertools.accumulate(len(item or "") for item in items))

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.text[self.ends[i - 1] if i else 0 : self.ends[i]] or None

    def __iter__(self) -> Iterator[str | None]:
        text, start = self.text, 0
        for end in self.ends:
            yield text[start:end] or None
            start = end


class _EventColumn(Sequence):
    """Each row's event key: a named event's (``codes`` into ``keys``), or, for a game
    without an event name (code -1), its own source (:func:`dated.group_events`)."""

    __slots__ = ("codes", "keys", "places")

    def __init__(self, codes: Sequence[int], keys: Sequence[str], places: _Places):
        self.codes, self.keys, self.places = codes, keys, places

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        code = self.codes[i]
        return self.keys[code] if code >= 0 else self.places[i]

    def __iter__(self) -> Iterator[str]:
        keys = self.keys
        for code, place in zip(self.codes, self.places):
            yield keys[code] if code >= 0 else place


class _OwnEvents(Mapping):
    """The events of the games of table ``part`` without an event name, each its own
    (key, name and source: the game's source; :func:`dated.group_events`), made when
    read."""

    def __init__(self, part: int, rows: range, events: _EventColumn, days: Coded):
        self.part, self.rows, self.events, self.days = part, rows, events, days
        codes = events.codes
        self.count = sum(1 for r in rows if codes[r] < 0)

    def _event(self, r: int) -> HistoryEvent:
        key = self.events.places[r]
        return HistoryEvent(key, key, self.days[r], "", key)

    def __getitem__(self, key):
        r = self.events.places.row(key, self.part) if isinstance(key, str) else None
        if r is None or self.events.codes[r] >= 0:
            raise KeyError(key)
        return self._event(r)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[str]:
        places, codes = self.events.places, self.events.codes
        return (places[r] for r in self.rows if codes[r] < 0)

    def items(self):  # type: ignore[override]
        codes = self.events.codes
        events = map(self._event, (r for r in self.rows if codes[r] < 0))
        return ((event.key, event) for event in events)


def history(
    paths: Sequence[Path], section: Mapping[str, Any], run: Mapping[str, Any]
) -> GameHistory:
    """Games tables as a game history: each row a dated game of the event its ``event``
    column names (one per day without it, :func:`~sodos_plugin.readers.dated.group_events`),
    or a report; a table that cannot be read is reported rejected; names of one player
    by the identity rule joined (and said); each player's first rank. ``section``:
    ``max_bytes`` (bytes one table may have).

    The games are columns (:class:`~sodos_hookspecs.GameColumns`, arranged as the host's
    ``run["arrange"]`` says): players, days, events, ranks as codes, each game's source
    made when read: memory of a few numbers per game."""
    limit = positive_integer(section.get("max_bytes", MAX_BYTES), "max_bytes", f"[plugin.{PLUGIN}]")
    files: list[FileReport] = []
    warnings: list[str] = []
    identity = run.get("identity") or identity_key
    names: dict[str, str] = {}  # each spelling → the first of its identity (§8)
    spelled: dict[str, str] = {}
    # the history's columns, every table's rows appended
    date, black, time, komi, rnd = _Codes(), _Codes(), _Codes(), _Codes(), _Codes()
    white = _Codes(black.values, black.of)
    score, handicap, size = array("d"), array("b"), array("b")
    ids: list[str | None] = []
    places = _Places()
    event_codes, event_keys = array("i"), _Codes()
    event_parts: list[Mapping[str, HistoryEvent]] = []
    players: dict[str, HistoryPlayer] = {}
    columns = _EventColumn(event_codes, event_keys.values, places)
    for path in paths:
        source = str(path)
        try:
            reader, table_warnings = _read_columns(path, limit)
        except InputError as error:  # the file is named by the report
            files.append(FileReport(source, "rejected", error.message))
            continue
        warnings.extend(table_warnings)
        kept, by_id = reader.kept, reader.shown()
        shown = kept.black.values if by_id is None else [by_id[k] for k in kept.black.values]
        start = len(places)
        places.extend(source, kept.line)
        # each player's spelling: the first of his identity (players by first appearance)
        for code, raw in enumerate(shown):
            if raw not in names:
                first = spelled.setdefault(identity(raw), raw)
                if first != raw:
                    warnings.append(
                        f"{source}:{kept.first_line[code]}: {quoted(raw)} is taken as "
                        f"{quoted(first)}: the same name (docs/rules.md §8)"
                    )
                names[raw] = first
        spelling = [names[raw] for raw in shown]
        date.extend(kept.date)
        new = [black.code(name) for name in spelling]
        black.codes.extend(map(new.__getitem__, kept.black.codes))
        white.codes.extend(map(new.__getitem__, kept.white.codes))
        score.extend(kept.score)
        handicap.extend(kept.handicap)
        size.extend(kept.size)
        komi.extend(kept.komi)
        rnd.extend(kept.round)
        time.extend(kept.time)
        ids.extend(kept.id)
        # events: decided per (name, day) pair (dated.group_events), of far fewer pairs
        # than games; a game without an event name is its own
        day_count = len(kept.date.values)
        none = kept.event.of.get(None, -1)
        first_row: dict[int, int] = {}
        for i, (e, d) in enumerate(zip(kept.event.codes, kept.date.codes)):
            if e != none:
                first_row.setdefault(e * day_count + d, i)
        pairs = list(first_row)
        keys, named = dated.group_events(
            [kept.event.values[p // day_count] for p in pairs],
            [kept.date.values[p % day_count] for p in pairs],
            [f"{source}:{kept.line[i]}" for i in first_row.values()],
            run["event_gap_days"],
        )
        key_of_pair = {p: event_keys.code(k) for p, k in zip(pairs, keys)}
        event_codes.extend(
            -1 if e == none else key_of_pair[e * day_count + d]
            for e, d in zip(kept.event.codes, kept.date.codes)
        )
        rows = range(start, len(places))
        event_parts += [named, _OwnEvents(len(places.paths) - 1, rows, columns, date.coded())]
        first_ranks = dated.first_ranks(
            _Sub(date.coded(), start),
            _Sub(black.coded(), start),
            _Sub(white.coded(), start),
            kept.black_rank.coded(),
            kept.white_rank.coded(),
            _Sub(places, start),
        )
        table_files = reader.files
        del reader, kept
        for name, player in first_ranks.items():
            known = players.get(name)
            if known is None or (known.rank is None and player.rank):
                players[name] = player
        files.append(FileReport(source, "ingested"))
        files.extend(table_files)
    games = GameColumns(
        date=date.coded(),
        event=columns,
        black=black.coded(),
        white=white.coded(),
        result=score,
        handicap=handicap,
        komi=komi.coded(),
        size=size,
        round=rnd.coded(),
        source=places,
        time=time.coded(),
        id=_Texts(ids),
    )
    del ids
    arrange = run.get("arrange")
    if arrange is not None:
        games, _ = arrange(games, None, saving=False)
    events = dated.Merged(event_parts).plain()
    return GameHistory(games, events, players, tuple(files), tuple(warnings))


class _Sub(Sequence):
    """The items of ``column`` from ``start`` on (one table's rows of the history)."""

    __slots__ = ("column", "start")

    def __init__(self, column: Sequence, start: int):
        self.column, self.start = column, start

    def __len__(self) -> int:
        return len(self.column) - self.start

    def __getitem__(self, i):
        return self.column[self.start + i]

    def __iter__(self):
        column = self.column
        if isinstance(column, Coded):  # no list of the codes
            return map(column.values.__getitem__, itertools.islice(column.codes, self.start, None))
        return itertools.islice(column, self.start, None)


def stdin(head: bytes) -> str | None:
    """Data from stdin whose first line is a header of tab- or comma-separated columns,
    and that is no other format's (XML, SGF, JSON, an archive, h9): ``.tsv`` or ``.csv``."""
    text = plain_head(head)
    sgf = text.startswith(b"(") and text[1:].lstrip()[:1] == b";"
    if sgf or head.startswith((b"PK\x03\x04", b"\x1f\x8b")) or text[:1] in (b"<", b"{", b"["):
        return None
    if text.startswith(b";") or b"\n;" in text[:4096]:
        return None
    first = text.split(b"\n", 1)[0]
    if b"\t" in first:
        return ".tsv"
    return ".csv" if b"," in first else None


@hookimpl
def sodos_readers() -> list[Reader]:
    return [
        Reader(
            NAME,
            "games tables (.csv/.tsv: date, black, white, result ...), for ratings",
            claims,
            read,
            history=history,
            stdin=stdin,
        )
    ]
