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
the other rows), not a multiple of the file's text. Warnings and reasons show a cell
cut to a few dozen columns (:func:`sodos_plugin.util.textsafe.quoted`).

Player ids: when ``black id`` and ``white id`` are given, a player is the id, not the
name: an id met with two names keeps the first (warned); two ids with one name are two
players, each shown as ``name [id]`` (warned), never merged into one.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from sodos_hookspecs import (
    FileReport,
    GameHistory,
    HistoryEvent,
    HistoryGame,
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
        reader = _Reader(source, at, names)
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
    return GamesTable(
        source, tuple(reader.named_games()), tuple(reader.files), tuple(warnings), tuple(at)
    )


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


class _Reader:
    """The rows of one table, one at a time."""

    def __init__(self, source: str, at: Mapping[str, int], names: Mapping[str, str]):
        self.source = source
        self.at = at
        self.names = names
        self.games: list[TableGame] = []
        self.files: list[FileReport] = []
        self.warnings: list[str] = []
        self.ids: dict[str, int] = {}  # game id → its line
        # one object per distinct name, day, event, rank and komi: a server's million
        # games hold a few thousand of each
        self.share = {}.setdefault
        self.by_id = "black_id" in at and "white_id" in at
        self.player_ids: list[tuple[str, str]] = []  # per game: (black id, white id)
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
            first = self.ids.setdefault(game_id, line)
            if first != line:
                self.files.append(
                    FileReport(where, "duplicate", f"game id {quoted(game_id)} as on line {first}")
                )
                return
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
            return
        if ids is not None:
            for player_id, name in zip(ids, (black, white)):
                first_name = self.id_names.setdefault(player_id, (name, line))
                if first_name[0] != name:
                    self.warnings.append(
                        f"{where}: player id {quoted(player_id)} is {quoted(name)} here and "
                        f"{quoted(first_name[0])} on line {first_name[1]}: the first name is used"
                    )
            self.player_ids.append(ids)  # type: ignore[arg-type]
        self.games.append(
            TableGame(
                line,
                share(day, day),  # type: ignore[arg-type]  # checked by _not_rated
                black,
                white,
                BLACK_SCORE[parsed.result],
                handicap,  # type: ignore[arg-type]
                share(komi, komi),
                size,  # type: ignore[arg-type]
                self.kept(row, "event"),
                rnd,
                self.kept(row, "black_rank"),
                self.kept(row, "white_rank"),
                game_id,
                dated.time_of_day(date_text),
            )
        )
        if parsed.note:
            self.warnings.append(f"{where}: {_note(parsed.note)}")

    def kept(self, row: _Row, column: str) -> str | None:
        """A text cell kept with a game, one object per distinct text; None when blank."""
        text = row.get(column)
        return self.share(text, text) or None

    def named_games(self) -> list[TableGame]:
        """The games, each player named by the first name of his id (when ids are given);
        two ids of one name are ``name [id]`` each."""
        if not self.by_id:
            return self.games
        ids_of: dict[str, list[str]] = {}
        for player_id, (name, _) in self.id_names.items():
            ids_of.setdefault(identity_key(name), []).append(player_id)
        shown = {}
        for player_id, (name, _) in self.id_names.items():
            shared = len(ids_of[identity_key(name)]) > 1
            shown[player_id] = f"{name} [{player_id}]" if shared else name
        return [
            _renamed(game, shown[b], shown[w]) for game, (b, w) in zip(self.games, self.player_ids)
        ]

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


def _renamed(game: TableGame, black: str, white: str) -> TableGame:
    if (black, white) == (game.black, game.white):
        return game
    return TableGame(
        game.line, game.date, black, white, game.score, game.handicap, game.komi, game.size,
        game.event, game.round, game.black_rank, game.white_rank, game.id, game.time,
    )  # fmt: skip


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


def history(
    paths: Sequence[Path], section: Mapping[str, Any], run: Mapping[str, Any]
) -> GameHistory:
    """Games tables as a game history: each row a dated game of the event its ``event``
    column names (one per day without it, :func:`~sodos_plugin.readers.dated.group_events`),
    or a report; a table that cannot be read is reported rejected; names of one player
    by the identity rule joined (and said); each player's first rank. ``section``:
    ``max_bytes`` (bytes one table may have)."""
    limit = positive_integer(section.get("max_bytes", MAX_BYTES), "max_bytes", f"[plugin.{PLUGIN}]")
    games: list[HistoryGame] = []
    events: dict[str, HistoryEvent] = {}
    players: dict[str, HistoryPlayer] = {}
    files: list[FileReport] = []
    warnings: list[str] = []
    identity = run.get("identity") or identity_key
    names: dict[str, str] = {}  # each spelling → the first of its identity (§8)
    spelled: dict[str, str] = {}
    for path in paths:
        source = str(path)
        try:
            table = read_table(path, limit)
        except InputError as error:  # the file is named by the report
            files.append(FileReport(source, "rejected", error.message))
            continue
        warnings.extend(table.warnings)
        rows = table.games
        where = [f"{source}:{g.line}" for g in rows]
        days = [g.date for g in rows]
        event_of, found = dated.group_events(
            [g.event for g in rows], days, where, run["event_gap_days"]
        )
        events.update(found)
        for game, place in zip(rows, where):
            for raw in (game.black, game.white):
                if raw not in names:
                    first = spelled.setdefault(identity(raw), raw)
                    if first != raw:
                        warnings.append(
                            f"{place}: {quoted(raw)} is taken as {quoted(first)}: the same name "
                            "(docs/rules.md §8)"
                        )
                    names[raw] = first
        for game, place, event in zip(rows, where, event_of):
            games.append(
                HistoryGame(
                    game.date,
                    event,
                    names[game.black],
                    names[game.white],
                    game.score,
                    game.handicap,
                    game.komi,
                    game.size,
                    game.round,
                    place,
                    game.time,
                    game.id,
                )  # fmt: skip
            )
        first_ranks = dated.first_ranks(
            days,
            [names[g.black] for g in rows],
            [names[g.white] for g in rows],
            [g.black_rank for g in rows],
            [g.white_rank for g in rows],
            where,
        )
        for name, player in first_ranks.items():
            known = players.get(name)
            if known is None or (known.rank is None and player.rank):
                players[name] = player
        files.append(FileReport(source, "ingested"))
        files.extend(table.files)
    return GameHistory(tuple(games), events, players, tuple(files), tuple(warnings))


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
