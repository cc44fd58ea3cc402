"""Games table reader (``builtin.games_table``): what a server exports from its
database — one row per game, named columns — read as a game history (docs/ratings.md,
docs/rules.md §10.1).

Contract: :func:`claims` takes ``.csv`` and ``.tsv`` files whose first line names a
``black`` or ``white`` column; :func:`read_table` reads one into a :class:`GamesTable`
— every row a :class:`TableGame`, or a report saying why it is not rated — or raises
:class:`~sodos_plugin.errors.InputError` for a file that cannot be read as a table at
all. ``sodos ratings games.csv`` rates it; ``sodos standings`` refuses it (a table of
dated games is a history, not one tournament's rounds).

The table: UTF-8 (a BOM is skipped), comma, semicolon or tab separated (the one the
header line holds most of; tab for ``.tsv``), a header row naming the columns (any
case; spaces, ``_`` and ``-`` alike), quoted cells as CSV quotes them:

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

Player ids: when ``black id`` and ``white id`` are given, a player is the id, not the
name: an id met with two names keeps the first (warned); two ids with one name are two
players, each shown as ``name [id]`` (warned), never merged into one.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE
from sodos_plugin.errors import InputError
from sodos_plugin.readers import dated
from sodos_plugin.readers.sgf.results import parse_result
from sodos_plugin.util.inputfiles import FileRefused, read_regular

__all__ = [
    "COLUMNS",
    "MAX_BYTES",
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


@dataclass(frozen=True)
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


def _header_line(head: bytes) -> str:
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    return text.split("\n", 1)[0]


def claims(path: Path, head: bytes) -> bool:
    """``.csv``/``.tsv`` files whose first line names a ``black`` or ``white`` column."""
    if path.suffix.lower() not in SUFFIXES or path.is_dir():
        return False
    line = _header_line(head)
    delimiter = _delimiter(line, path)
    cells = next(csv.reader([line], delimiter=delimiter), [])
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
            f"{self.where}:{self.line}", "rejected", f"column {self.names[column]!r}: {message}"
        )


def read_table(path: Path | str, max_bytes: int = MAX_BYTES) -> GamesTable:
    """Read one games table (see the module documentation)."""
    source = str(path)
    try:
        data = read_regular(path, max_bytes, f"option [plugin.{PLUGIN}] max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    return parse_table(data, source)


def parse_table(data: bytes, source: str) -> GamesTable:
    """:func:`read_table` of bytes already read (``source`` names them in messages)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(
            f"line {line}: not UTF-8 text (byte {error.start})", source=source
        ) from None
    first = text.split("\n", 1)[0]
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first, source))
    try:
        header = next(rows, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InputError("line 1: no header row naming the columns", source=source)
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
                    f"line 1: columns {names[column]!r} and {cell.strip()!r} both give "
                    f"the {column.replace('_', ' ')}",
                    source=source,
                )
            at[column], names[column] = index, cell.strip()
        missing = [c for c in REQUIRED if c not in at]
        if missing:
            raise InputError(
                f"line 1: no {' and no '.join(missing)} column (a games table needs "
                f"{', '.join(REQUIRED)}; the header names {', '.join(map(repr, header[:12]))})",
                source=source,
            )
        reader = _Reader(source, at, names)
        start = rows.line_num + 1  # a row's first line (a quoted cell may hold line breaks)
        for cells in rows:
            reader.row(cells, start)
            start = rows.line_num + 1
    except csv.Error as error:
        raise InputError(f"line {rows.line_num}: not valid CSV: {error}", source=source) from None
    warnings = list(reader.warnings)
    if ignored:
        warnings.insert(0, f"{source}: columns not read: {', '.join(map(repr, ignored))}")
    warnings.extend(reader.id_warnings())
    return GamesTable(
        source, tuple(reader.named_games()), tuple(reader.files), tuple(warnings), tuple(at)
    )


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
            self.files.append(row.error("result", parsed.note))
            return
        game_id = row.get("id") or None
        if game_id is not None:
            first = self.ids.setdefault(game_id, line)
            if first != line:
                self.files.append(
                    FileReport(where, "duplicate", f"game id {game_id!r} as on line {first}")
                )
                return
        black, white = row.get("black"), row.get("white")
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
                        f"{where}: player id {player_id!r} is {name!r} here and "
                        f"{first_name[0]!r} on line {first_name[1]}: the first name is used"
                    )
            self.player_ids.append(ids)  # type: ignore[arg-type]
        self.games.append(
            TableGame(
                line,
                day,  # type: ignore[arg-type]  # checked by _not_rated
                black,
                white,
                BLACK_SCORE[parsed.result],
                handicap,  # type: ignore[arg-type]
                komi,
                size,  # type: ignore[arg-type]
                row.get("event") or None,
                rnd,
                row.get("black_rank") or None,
                row.get("white_rank") or None,
                game_id,
                dated.time_of_day(date_text),
            )
        )
        if parsed.note:
            self.warnings.append(f"{where}: {parsed.note}")

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
            f"{self.id_names[ids[0]][0]!r} ({', '.join(map(repr, ids[:5]))}): different "
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


class _Bad(Exception):
    def __init__(self, report: FileReport):
        self.report = report


def _integer(row: _Row, column: str, low: int, high: int, default: int | None) -> int | None:
    text = row.get(column)
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise _Bad(row.error(column, f"{text[:40]!r} is not a number {low}..{high}"))
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
        raise _Bad(row.error("komi", f"{text[:40]!r} is not a komi in points"))
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
        return dated.SELF_PLAY, f"{black!r} plays himself: self-play (not rated)"
    if ids is not None and not all(ids):
        missing = " and ".join(names[c] for c, v in zip(("black_id", "white_id"), ids) if not v)
        return dated.NO_PLAYERS, f"no player id in {missing} (not rated)"
    if day is None:
        if date_text:
            return (
                dated.UNDATED,
                f"{names['date']} {date_text[:40]!r}: not a full date (not rated)",
            )
        return dated.UNDATED, f"no {names['date']}: the game's date is unknown (not rated)"
    if parsed.by_default:
        return dated.FORFEIT, f"{names['result']} {result_text!r}: won by default (not rated)"
    if parsed.result not in BLACK_SCORE:
        kind = {"void": dated.VOID, "unrecognised": dated.NOT_UNDERSTOOD}.get(
            parsed.how, dated.UNFINISHED
        )
        shown = parsed.note or f"RE[{result_text}]: result unknown"
        return kind, f"{names['result']}: {shown} (not rated)"
    return None


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    """A games table is a history of dated games, not one tournament's rounds."""
    raise InputError(
        "a games table (a server's dated games) is a game history, not one tournament: "
        "'sodos ratings FILE' rates it",
        source=str(paths[0]) if paths else None,
    )


@hookimpl
def sodos_readers() -> list[Reader]:
    return [
        Reader(
            NAME,
            "games tables (.csv/.tsv: date, black, white, result ...), for ratings",
            claims,
            read,
        )
    ]
