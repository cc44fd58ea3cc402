"""JSON tournament reader and writer: the format hosts in any language hand over.

Contract: :func:`parse` turns the bytes of one JSON tournament (its one definition is
:class:`sodos_plugin.schemas.tournament.Tournament`; ``sodos schema`` prints its JSON
Schema) into a :class:`~sodos_plugin.engine.model.Tournament` whose ``settings`` are the
document's own ``settings``; every problem is an :class:`~sodos_plugin.errors.InputError`
whose ``where`` is the JSON path of the bad value (``games[12].white``).
:func:`parse_many` reads a tournament or an array of them (``POST /ratings``).
:func:`to_document` is the inverse of :func:`parse`: any Tournament (read from XML, h9,
an SGF folder...) as a document that :func:`parse` reads back to an equal Tournament
(``sodos convert``).

Layers, each bounded before the next runs (the same limits for a file and for an HTTP
request, options of ``[plugin.builtin.json_tournament]``):

1. bytes: at most ``max_bytes``; at most ``max_values`` values (counted at C speed as
   commas and brackets, an upper bound); at most ``max_depth`` levels of nesting
   (checked on the brackets outside strings; decoding by the types never goes deeper
   than the format's own :data:`~sodos_plugin.schemas.tournament.DEPTH`);
2. text and shape: msgspec decodes the bytes into the format's types at C speed:
   UTF-8 (a BOM is skipped), standard JSON only (``NaN``/``Infinity`` refused), every
   member of the right type and within its limits. A key given twice in one object is
   refused: the members decoded are counted against the text's colons (C speed);
3. meaning: player references, rounds within ``rounds``, ranks, exact start scores,
   byes and absences against games, and the settings through
   :func:`sodos_plugin.config.settings.resolve`.

When the text or the shape fails, the document is read again the slow way (the json
module, value by value, :mod:`sodos_plugin.schemas.messages`), which finds the first
problem in document order and says it; the usual document never takes that way. Meaning
is decided once, column by column (C-speed ``map``/``set``), warnings included
(:func:`_meaning`); a problem found there is named by a walk over the entries in
document order (:func:`_locate`), which decides nothing the columns did not.

Players are referred to by index (an integer from 0), by ``id``, or by name (the
project's identity rule: case, width and spacing do not matter). Players who share a
name are warned about (without ids, only their indexes can name them). Player and game
order are kept: they decide the order inside a tie and which of two games in one round
counts for SOS-type values.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import repeat
from operator import add, attrgetter, eq, is_not, itemgetter, mul
from pathlib import Path
from typing import Any, NoReturn

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import astuple
from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin.config.options import positive_integer
from sodos_plugin.config.settings import resolve
from sodos_plugin.engine.identity import identity_key as identity
from sodos_plugin.engine.model import (
    NO_IDS,
    Game,
    Ids,
    Player,
    Result,
    Tournament,
    games_from_columns,
    players_from_columns,
)
from sodos_plugin.engine.ranks import format_rank, parse_rank
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.schemas import codec
from sodos_plugin.schemas import tournament as schema
from sodos_plugin.schemas.messages import (
    first_duplicate,
    integral_floats,
    json_path,
    object_pairs,
    problem,
    shown,
    without_surrogates,
)
from sodos_plugin.util.inputfiles import FileRefused, plain_head, read_regular

NAME = "json"
FORMAT = schema.FORMAT
VERSION = schema.VERSION
PLUGIN = "builtin.json_tournament"
SECTION = f"[plugin.{PLUGIN}]"

#: Options the host adds for every reader (see Host.read), not from the config section.
RUN_OPTIONS = ("skip_bad", "jobs")
RESULTS: dict[schema.Result, Result] = {text: Result(text.value) for text in schema.Result}
TEXTS: dict[Result, schema.Result] = {result: text for text, result in RESULTS.items()}


@dataclass(frozen=True)
class Limits:
    """What one document may cost; options of ``[plugin.builtin.json_tournament]``."""

    max_bytes: int = 64 << 20
    max_values: int = 2_000_000
    max_depth: int = 32

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Limits:
        unknown = set(options) - {"max_bytes", "max_values", "max_depth", *RUN_OPTIONS}
        if unknown:
            key = sorted(unknown)[0]
            raise ConfigError(
                f"unknown option {key!r} (known: max_bytes, max_values, max_depth)",
                source=SECTION,
                where=key,
            )
        values = {}
        for key, default in (
            ("max_bytes", cls.max_bytes),
            ("max_values", cls.max_values),
            ("max_depth", cls.max_depth),
        ):
            values[key] = positive_integer(options.get(key, default), key, SECTION)
        return cls(**values)


DEFAULT_LIMITS = Limits()

# -- 1. bytes -----------------------------------------------------------------------------

_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_INNERMOST = re.compile(rb"\[\]|\{\}")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_BOM = b"\xef\xbb\xbf"


_NOT_MARKS = bytes(b for b in range(256) if b not in b",[{:")


def _check_size(data: bytes, source: str, limits: Limits) -> bytes:
    """The size limits; returns the text's commas, brackets and colons (one C pass)."""
    if len(data) > limits.max_bytes:
        raise InputError(
            f"document is {len(data)} bytes, above the limit of {limits.max_bytes} "
            f"(option {SECTION} max_bytes)",
            source=source,
        )
    marks = data.translate(None, _NOT_MARKS)
    values = marks.count(b",") + marks.count(b"[") + marks.count(b"{") + 1
    if values > limits.max_values:
        raise InputError(
            f"more than {limits.max_values} values (option {SECTION} max_values)", source=source
        )
    return marks


def _check_depth(data: bytes, source: str, limits: Limits) -> None:
    # Nesting: strings removed, only brackets kept; each pass removes the innermost pairs.
    skeleton = _STRINGS.sub(b"", data).translate(None, _NOT_BRACKETS)
    for _ in range(limits.max_depth):
        if not skeleton:
            return
        skeleton, removed = _INNERMOST.subn(b"", skeleton)
        if not removed:
            return  # unbalanced: the decoder reports where
    if skeleton:
        raise InputError(
            f"nested deeper than {limits.max_depth} levels (option {SECTION} max_depth)",
            source=source,
        )


def _key_colons(data: bytes) -> int:
    """The colons outside strings: one per member of every object in the text."""
    return _STRINGS.sub(b"", data).count(b":")


# -- 2. text and shape --------------------------------------------------------------------

_ONE = msgspec.json.Decoder(schema.Tournament)
_MANY = msgspec.json.Decoder(list[schema.Tournament])
_ARRAY = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*\[")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def decode(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Bytes → the decoded JSON value (the json module), within ``limits``; errors name
    line and column. Keys given twice are marked
    (:func:`sodos_plugin.schemas.messages.object_pairs`)."""
    _check_size(data, source, limits)
    _check_depth(data, source, limits)
    if data.startswith(_BOM):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", source=source) from None
    try:
        return json.loads(text, object_pairs_hook=object_pairs, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON: {error.msg}",
            source=source,
            where=f"line {error.lineno} column {error.colno}",
        ) from None
    except RecursionError:
        raise InputError("nested too deeply", source=source) from None
    except ValueError as error:  # NaN, or an integer of thousands of digits
        raise InputError(f"not valid JSON: {str(error).split(':')[0]}", source=source) from None


def validate(value: Any, source: str) -> schema.Tournament:
    """A decoded value (:func:`decode`) → the typed document; raises InputError at the
    JSON path of the first bad value (a newer ``version`` first)."""
    if isinstance(value, dict):
        version = value.get("version")
        if type(version) is int and version > VERSION:
            raise InputError(
                f"version {version} of the tournament format is newer than this sodos "
                f"reads ({VERSION}): upgrade sodos-plugin",
                source=source,
                where="version",
            )
    # the document as the types take it (2.0 as an integer); messages show the values given
    working = integral_floats(schema.Tournament, copy.deepcopy(value))
    try:
        document = msgspec.convert(working, schema.Tournament)
    except msgspec.ValidationError as error:
        path, message = problem(schema.Tournament, value, error)
    except UnicodeEncodeError:  # msgspec cannot word an error about a lone surrogate
        try:
            msgspec.convert(without_surrogates(working), schema.Tournament)
            path, message = problem(schema.Tournament, value, None)
        except msgspec.ValidationError as error:
            path, message = problem(schema.Tournament, value, error)
    else:
        if first_duplicate(schema.Tournament, value) is None:
            return document
        path, message = problem(schema.Tournament, value, None)
    raise InputError(message, source=source, where=json_path(path))


def _typed(data: bytes, source: str, limits: Limits, decoder: Any) -> tuple[Any, bytes]:
    """The fast way: bytes → (typed document(s) or None, the text's marks); None: the
    slow way says why."""
    marks = _check_size(data, source, limits)
    if limits.max_depth < schema.DEPTH:
        _check_depth(data, source, limits)
    body = data[3:] if data.startswith(_BOM) else data
    try:
        return decoder.decode(body), marks
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None, marks


# -- 3. meaning ---------------------------------------------------------------------------

_EXACT = re.compile(r"\s*([+-]?\d{1,6})(?:\.(\d{1,6}))?\s*|\s*([+-]?\d{1,6})\s*/\s*(\d{1,6})\s*")
MAX_DENOMINATOR = 1024


def _text(value: str, source: str, where: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "contains a lone surrogate (\\ud800-\\udfff), which is not text",
            source=source,
            where=where,
        ) from None
    return value


def exact(value: Any, source: str, where: str) -> int | Fraction:
    """A number or ``"5/2"``/``"2.5"`` as an exact value (denominator at most 1024)."""
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        result = Fraction(value)
    else:
        match = _EXACT.fullmatch(value)
        if not match:
            raise InputError(
                f'expected a number or a fraction such as "5/2", got {shown(value)}',
                source=source,
                where=where,
            )
        whole, decimals, numerator, denominator = match.groups()
        if numerator is not None:
            if int(denominator) == 0:
                raise InputError("a fraction cannot have denominator 0", source=source, where=where)
            result = Fraction(int(numerator), int(denominator))
        else:
            result = Fraction(f"{whole}.{decimals}" if decimals else whole)
    if result.denominator > MAX_DENOMINATOR:
        raise InputError(
            f'not an exact value (denominator above {MAX_DENOMINATOR}); write it as "p/q"',
            source=source,
            where=where,
        )
    return int(result) if result.denominator == 1 else result


def _given(value: Any, default: Any) -> Any:
    return default if value is UNSET else value


class _Index:
    """How references find players: by index, by ``id``, or by name (identity rule)."""

    def __init__(self, count: int, source: str):
        self.count = count
        self.source = source
        self.ids: dict[str, int] = {}
        self.names: dict[str, list[int]] = {}

    def find(self, reference: Any, where: str) -> int:
        n = self.count
        if not isinstance(reference, str):
            index = int(reference)
            if index >= n:
                raise InputError(
                    f"no player at index {shown(reference)} (players has {n})",
                    source=self.source,
                    where=where,
                )
            return index
        by_id = self.ids.get(reference)
        by_name = self.names.get(identity(reference), [])
        if by_id is not None:
            others = [j for j in by_name if j != by_id]
            if others:
                raise InputError(
                    f"{shown(reference)} is players[{by_id}]'s id and players[{others[0]}]'s "
                    "name: refer to the player by index",
                    source=self.source,
                    where=where,
                )
            return by_id
        if len(by_name) == 1:
            return by_name[0]
        if by_name:
            a, b = by_name[:2]
            raise InputError(
                f"players[{a}] and players[{b}] are both called {shown(reference)}: "
                "refer to them by id or index",
                source=self.source,
                where=where,
            )
        raise InputError(
            f"no player has the id or name {shown(reference)}", source=self.source, where=where
        )


def _round_of(entry: Any, rounds: int, source: str, where: str) -> int:
    """The entry's round, which the types made an integer ≥ 1; not after the last."""
    r = entry.round
    if r > rounds:
        raise InputError(
            f"round {r} is after the last round (rounds is {rounds})",
            source=source,
            where=f"{where}.round",
        )
    return r


def _lists(document: schema.Tournament) -> tuple[list[schema.RoundPlayer], ...]:
    return _given(document.byes, []), _given(document.absences, [])


def build(document: schema.Tournament, source: str) -> tuple[Tournament, list[str]]:
    """A typed document → (Tournament, warnings): its meaning (:func:`_meaning`)."""
    return _meaning(document, _Columns(document), source)


def _locate(document: schema.Tournament, source: str) -> NoReturn:
    """Raise the first problem of a document's entries in document order, at its JSON
    path: called only when :func:`_meaning` found one, to say which and where. It walks
    the entries one by one and decides nothing the columns did not."""
    rounds = document.rounds
    index = _Index(len(document.players), source)
    for i, entry in enumerate(document.players):
        where = f"players[{i}]"
        name = _text(entry.name, source, f"{where}.name")
        if not name.strip():
            raise InputError("a name cannot be blank", source=source, where=f"{where}.name")
        player_id = _given(entry.id, None)
        if player_id is not None:
            _text(player_id, source, f"{where}.id")
            if player_id in index.ids:
                raise InputError(
                    f"id {shown(player_id)} is also players[{index.ids[player_id]}]'s",
                    source=source,
                    where=f"{where}.id",
                )
            index.ids[player_id] = i
        index.names.setdefault(identity(name), []).append(i)
        rank = _given(entry.rank, None)
        if rank is not None:
            try:
                parse_rank(rank)
            except ValueError as error:
                raise InputError(str(error), source=source, where=f"{where}.rank") from None
        start = _given(entry.start_score, None)
        if start is not None:
            exact(start, source, f"{where}.start_score")
        for scheme, identifier in (entry.ids or {}).items():  # UNSET is false
            _text(identifier, source, f"{where}.ids.{scheme}")
        _text(_given(entry.club, ""), source, f"{where}.club")
        _text(_given(entry.country, ""), source, f"{where}.country")
    seen: dict[tuple[int, int], int] = {}
    for k, entry in enumerate(document.games):
        where = f"games[{k}]"
        r = _round_of(entry, rounds, source, where)
        black = index.find(entry.black, f"{where}.black")
        white = index.find(entry.white, f"{where}.white")
        if black == white:
            raise InputError(
                f"the same player as black ({shown(document.players[black].name)})",
                source=source,
                where=f"{where}.white",
            )
        seen[(r, black)] = seen[(r, white)] = k
    byes: dict[tuple[int, int], int] = {}
    for label, entries in zip(("byes", "absences"), _lists(document)):
        for k, entry in enumerate(entries):
            where = f"{label}[{k}]"
            r = _round_of(entry, rounds, source, where)
            p = index.find(entry.player, f"{where}.player")
            name = document.players[p].name
            if (r, p) in seen:
                raise InputError(
                    f"{name} has a game in round {r} (games[{seen[(r, p)]}])",
                    source=source,
                    where=f"{where}.player",
                )
            if (r, p) in byes and label == "absences":
                raise InputError(
                    f"{name} has the bye in round {r} (byes[{byes[(r, p)]}])",
                    source=source,
                    where=f"{where}.player",
                )
            if label == "byes":
                byes.setdefault((r, p), k)
    raise RuntimeError(f"{source}: the document's meaning was refused, but no entry is wrong")


def _settings(document: schema.Tournament) -> dict[str, Any]:
    return {} if document.settings is UNSET else msgspec.to_builtins(document.settings)


#: Settings found valid, by their encoded text: a host sends the same settings with
#: every request, and checking them is a pure function of them. Bounded.
_VALID_SETTINGS: dict[bytes | None, None] = {}
MAX_VALID_SETTINGS = 256


def _check_settings(document: schema.Tournament, settings: dict[str, Any], source: str) -> None:
    """The document's settings as config entries (:func:`resolve`), once per distinct
    settings; a problem at its path under ``settings``."""
    try:
        key = b"" if document.settings is UNSET else msgspec.json.encode(document.settings)
    except UnicodeEncodeError:  # a lone surrogate: checked, never kept
        key = None
    if key in _VALID_SETTINGS:
        return
    try:
        resolve([(source, settings)])
    except ConfigError as error:
        where = error.where or ""
        message = error.message.removeprefix(f"{where}: ") if where else error.message
        raise InputError(
            message, source=source, where=f"settings.{where}" if where else "settings"
        ) from None
    if key is not None:
        if len(_VALID_SETTINGS) >= MAX_VALID_SETTINGS:
            _VALID_SETTINGS.clear()
        _VALID_SETTINGS[key] = None


def _tournament(
    document: schema.Tournament,
    source: str,
    players: Sequence[Player],
    games: Sequence[Game],
    byes: frozenset[tuple[int, int]],
    absences: frozenset[tuple[int, int]],
    repeated: Sequence[tuple[int, int, int]] = (),
) -> Tournament:
    """The settings, the date and the name checked; the model built."""
    settings = _settings(document)
    _check_settings(document, settings, source)
    info = {} if document.info is UNSET else msgspec.structs.asdict(document.info)
    info = {
        key: _text(value, source, f"info.{key}")
        for key, value in info.items()
        if value is not UNSET
    }
    date = _given(document.date, "")
    if date:
        try:
            datetime.date.fromisoformat(date)
            if len(date) != 10:
                raise ValueError
        except ValueError:
            raise InputError(
                f"expected a date as YYYY-MM-DD, got {shown(date)}", source=source, where="date"
            ) from None
    try:
        return Tournament(
            name=_text(_given(document.name, ""), source, "name"),
            date=date,
            rounds=document.rounds,
            # tuples as they are: a reader's Players and Games keep their columns
            players=players if isinstance(players, tuple) else tuple(players),
            games=games if isinstance(games, tuple) else tuple(games),
            byes=byes,
            absences=absences,
            settings=settings,
            source=source,
            info=info,
            size=_given(document.board_size, None),
        )
    except ValueError as error:
        if repeated:  # the model refuses two games in one round: name them
            k, earlier, p = repeated[0]
            raise InputError(
                f"{players[p].name} has two games in round {games[k].round} "
                f"(games[{earlier}] and games[{k}])",
                source=source,
                where=f"games[{k}]",
            ) from None
        raise InputError(str(error), source=source) from None


# -- 3. meaning, column by column ---------------------------------------------------------

#: The members of each kind of entry, in the schema's order: the columns' order.
_PLAYER_MEMBERS = schema.Player.__struct_fields__
_GAME_MEMBERS = schema.Game.__struct_fields__
_ROUND_PLAYER_MEMBERS = schema.RoundPlayer.__struct_fields__
_REQUIRED = {
    f.name
    for entry in (schema.Player, schema.Game, schema.RoundPlayer)
    for f in msgspec.structs.fields(entry)
    if f.required
}
_VALUE = attrgetter("_value_")  # an Enum member's value, at C speed (its hash is Python's)
_RESULT_OF = {result.value: result for result in Result}
_NONE = {UNSET: None}
_EMPTY = {UNSET: ""}
_ZERO = {UNSET: 0}
_FALSE = {UNSET: False}
_TRUE = {UNSET: True}
_given_id = partial(is_not, UNSET)


def _or(column: list[Any] | None, absent: dict[Any, Any], n: int) -> list[Any]:
    """A column with each UNSET member as the model's default (``absent[UNSET]``)."""
    if column is None:
        return [absent[UNSET]] * n
    return list(map(absent.get, column, column))


def _id_maps(column: list[Any] | None) -> list[Any] | None:
    """Each player's ``ids`` as the model keeps them (None: nobody has any)."""
    if column is None or column.count(UNSET) == len(column):
        return None
    return [Ids(ids) if ids else NO_IDS for ids in column]


class _Ranks(dict):
    """Rank text → rank, each distinct text parsed once (a ValueError for a bad one);
    kept across documents (a host sends the same few ranks), at most
    :data:`MAX_RANKS` texts."""

    def __init__(self) -> None:
        super().__init__({UNSET: None, None: None})

    def __missing__(self, text: str) -> int:
        if len(self) > MAX_RANKS:
            self.clear()
            self.update({UNSET: None, None: None})
        rank = self[text] = parse_rank(text)
        return rank


MAX_RANKS = 4096
_RANKS = _Ranks()


def _struct_members(value: Any) -> int:
    """The members of every object in a decoded value (a Struct's given fields, a
    dict's keys), at every level."""
    if isinstance(value, msgspec.Struct):
        given = [v for v in map(partial(getattr, value), value.__struct_fields__) if v is not UNSET]
        return len(given) + sum(map(_struct_members, given))
    if isinstance(value, dict):
        return len(value) + sum(map(_struct_members, value.values()))
    if isinstance(value, list):
        return sum(map(_struct_members, value))
    return 0


class _Columns:
    """A typed document's entries as columns (at C speed), one per member in the order
    of :data:`_PLAYER_MEMBERS` and :data:`_GAME_MEMBERS`; None for an optional member no
    entry gives. :meth:`members` counts the members decoded."""

    def __init__(self, document: schema.Tournament):
        self.document = document
        self.given = 0  # members of the entries
        byes, absences = _lists(document)
        self.players = self._columns(document.players, _PLAYER_MEMBERS)
        self.games = self._columns(document.games, _GAME_MEMBERS)
        self.byes = self._columns(byes, _ROUND_PLAYER_MEMBERS)
        self.absences = self._columns(absences, _ROUND_PLAYER_MEMBERS)

    def _columns(self, entries: list[Any], names: tuple[str, ...]) -> list[Any]:
        found: list[Any] = []
        # each entry as a tuple in field order, turned into columns: both at C speed
        columns = list(zip(*map(astuple, entries))) or [()] * len(names)
        for name, column in zip(names, columns):
            unset = 0 if name in _REQUIRED else column.count(UNSET)  # C speed: UNSET is one
            self.given += len(column) - unset
            found.append(None if unset and unset == len(column) else column)
        return found

    def members(self) -> int:
        """How many members the decoded document has: a key given twice in one object
        was decoded once (msgspec keeps the last), so the text has more."""
        document = self.document
        count = self.given
        for name in document.__struct_fields__:
            value = getattr(document, name)
            if value is UNSET:
                continue
            count += 1
            if name not in ("players", "games", "byes", "absences"):
                count += _struct_members(value)
        ids = self.players[-1]
        if ids is not None:
            count += sum(map(len, filter(None, ids)))  # UNSET is false
        return count


def _all_indexes(column: list[Any]) -> bool:
    """Whether every reference of a column (an int or a str, by the schema) is an
    index: ``max`` of a column mixing them raises, at C speed."""
    try:
        return not column or type(max(column)) is int
    except TypeError:
        return False


def _references(column: list[Any], ints: bool, index: _Index | None, n: int) -> list[int] | None:
    """A column of references (``ints``: all indexes) as player indexes, or None (a
    problem: the slow way)."""
    if not column:
        return column
    if ints:
        return column if max(column) < n else None
    if index is None:
        return None
    table: dict[Any, int] = dict(zip(range(n), range(n)))
    for reference in {r for r in column if type(r) is str}:
        try:
            table[reference] = index.find(reference, "")
        except InputError:
            return None
    try:
        return list(map(table.__getitem__, column))
    except KeyError:  # an index past the last player
        return None


def _meaning(
    document: schema.Tournament, columns: _Columns, source: str
) -> tuple[Tournament, list[str]]:
    """A typed document's meaning, column by column (C-speed ``map``/``set``): players,
    references, rounds, ranks, exact start scores, byes and absences against games, and
    each warning (players who share a name, two games of a player in one round, a
    player listed twice for a round, two byes in one round), in document order. A
    problem is found here and said by :func:`_locate`, which names its entry."""
    names, ids, ranks, ratings, clubs, countries, smms, starts, id_maps = columns.players
    n = len(names)
    if any(map(str.isspace, names)):
        return _locate(document, source)
    if ids is None:
        ids = [UNSET] * n
    given_ids = ids if UNSET not in ids else list(filter(_given_id, ids))
    if len(set(given_ids)) != len(given_ids):
        return _locate(document, source)
    club_values, country_values = _or(clubs, _EMPTY, n), _or(countries, _EMPTY, n)
    id_values = [value for ids_of in id_maps or () if ids_of for value in ids_of.values()]
    if not _all_text(names, given_ids, club_values, country_values, id_values):
        return _locate(document, source)
    warnings: list[str] = []
    index: _Index | None = None
    references = (columns.games[1], columns.games[2], columns.byes[1], columns.absences[1])
    ints = list(map(_all_indexes, references))
    if len(given_ids) < n or not all(ints):  # names matter: to warn, or to find players by
        keys = list(map(identity, names))
        index = _Index(n, source)
        index.ids = {i: k for k, i in enumerate(ids) if i is not UNSET}
        for k, key in enumerate(keys):
            index.names.setdefault(key, []).append(k)
        if len(index.names) != n and len(given_ids) < n:
            warnings += _shared_names(index, ids, names, source)
    try:
        rank_values = [None] * n if ranks is None else list(map(_RANKS.__getitem__, ranks))
    except ValueError:
        return _locate(document, source)
    if starts is None or starts.count(UNSET) + starts.count(None) == n:
        start_values: list[Any] = [None] * n
    else:
        try:
            start_values = [
                None if s is UNSET or s is None else exact(s, source, "") for s in starts
            ]
        except InputError:
            return _locate(document, source)
    players = players_from_columns(
        names,
        rank_values,
        _or(ratings, _NONE, n),
        club_values,
        country_values,
        _or(smms, _ZERO, n),
        start_values,
        _or(ids, _NONE, n),
        _id_maps(id_maps),
        typed=True,  # the schema's types, ranks parsed, start scores exact
    )
    rounds = document.rounds
    g_round, g_black, g_white, g_result, g_handicap, g_komi, g_default, g_known = columns.games
    blacks = _references(g_black, ints[0], index, n)
    whites = _references(g_white, ints[1], index, n)
    if blacks is None or whites is None or (g_round and max(g_round) > rounds):
        return _locate(document, source)
    # (round, player) as one integer, round * n + player: a set of ints is cheap
    base = list(map(mul, g_round, repeat(n)))
    seen = set(map(add, base, blacks))
    seen.update(map(add, base, whites))
    repeated: list[tuple[int, int, int]] = []  # (game, earlier game, player)
    if len(seen) != 2 * len(g_round):  # a player twice in a round
        if any(map(eq, blacks, whites)):
            return _locate(document, source)
        repeated = _repeated(g_round, blacks, whites)
        warnings += [
            f"{source}: games[{k}]: {names[p]} has two games in round {g_round[k]} "
            f"(games[{earlier}] and games[{k}]); the later one counts for SOS-type values"
            for k, earlier, p in repeated
        ]
    marked, keys_of = [], []
    for label, (r_round, r_player), all_ints in zip(
        ("byes", "absences"), (columns.byes, columns.absences), ints[2:]
    ):
        players_of = _references(r_player, all_ints, index, n)
        if players_of is None or (r_round and max(r_round) > rounds):
            return _locate(document, source)
        packed = list(map(add, map(mul, r_round, repeat(n)), players_of))
        keys = set(packed)
        if not seen.isdisjoint(keys):
            return _locate(document, source)
        if len(keys) != len(packed):
            warnings += _listed_twice(label, packed, r_round, players_of, names, source)
        marked.append(frozenset(zip(r_round, players_of)))
        keys_of.append((keys, players_of))
    byes, absences = marked
    if not keys_of[0][0].isdisjoint(keys_of[1][0]):
        return _locate(document, source)  # a bye and an absence
    if len(set(columns.byes[0])) != len(byes):
        warnings += _two_byes(columns.byes[0], keys_of[0][1], names, source)
    games = games_from_columns(
        g_round,
        blacks,
        whites,
        list(map(_RESULT_OF.__getitem__, map(_VALUE, g_result))),
        _or(g_handicap, _ZERO, len(g_round)),
        _or(g_default, _FALSE, len(g_round)),
        _or(g_known, _TRUE, len(g_round)),
        _or(g_komi, _NONE, len(g_round)),
        typed=True,  # the schema's types; references made indexes
    )
    tournament = _tournament(document, source, players, games, byes, absences, repeated)
    return tournament, warnings


def _all_text(*columns: list[str]) -> bool:
    """Whether every string of these columns is text (no lone surrogate), at C speed."""
    try:
        for column in columns:
            "".join(column).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shared_names(index: _Index, ids: list[Any], names: list[str], source: str) -> list[str]:
    """A warning for each second player of a name (the identity rule) when the first or
    the second has no id: games can refer to them only by index."""
    seconds = [
        (same[0], same[1])
        for same in index.names.values()
        if len(same) > 1 and (ids[same[0]] is UNSET or ids[same[1]] is UNSET)
    ]
    return [
        f"{source}: players[{b}].name: players[{a}] and players[{b}] are both called "
        f"{shown(names[b])}: games refer to them by index (or give them ids)"
        for a, b in sorted(seconds, key=itemgetter(1))
    ]


def _repeated(
    rounds: list[int], blacks: list[int], whites: list[int]
) -> list[tuple[int, int, int]]:
    """(game, the player's earlier game of that round, player) for each game of a player
    who has another game in its round, in game order."""
    seen: dict[tuple[int, int], int] = {}
    repeated = []
    for k, (r, black, white) in enumerate(zip(rounds, blacks, whites)):
        for p in (black, white):
            if (r, p) in seen:
                repeated.append((k, seen[(r, p)], p))
            seen[(r, p)] = k
    return repeated


def _listed_twice(
    label: str,
    packed: list[int],
    rounds: list[int],
    players: list[int],
    names: list[str],
    source: str,
) -> list[str]:
    """A warning for each entry of ``label`` (byes, absences) that repeats an earlier one."""
    first: dict[int, int] = {}
    found = []
    for k, key in enumerate(packed):
        if key in first:
            found.append(
                f"{source}: {label}[{k}]: {names[players[k]]} is listed twice for round "
                f"{rounds[k]} ({label}[{first[key]}])"
            )
        first.setdefault(key, k)
    return found


def _two_byes(rounds: list[int], players: list[int], names: list[str], source: str) -> list[str]:
    """A warning for each bye given in a round whose first bye went to another player."""
    first: dict[int, int] = {}
    found = []
    for k, r in enumerate(rounds):
        earlier = first.setdefault(r, k)
        p, q = players[earlier], players[k]
        if p != q:
            found.append(
                f"{source}: byes[{k}]: round {r}: two players have the bye: {names[p]} "
                f"(byes[{earlier}]) and {names[q]} (byes[{k}]); each gets the bye's points"
            )
    return found


# -- reading ------------------------------------------------------------------------------


def _limits(options: Mapping[str, Any] | None, limits: Limits | None) -> Limits:
    return limits if limits is not None else Limits.from_options(options or {})


def _checked(
    data: bytes, marks: bytes, documents: Sequence[schema.Tournament]
) -> list[_Columns] | None:
    """The documents' columns when every member of the text was decoded, none lost to a
    key given twice (msgspec keeps the last). Each member has its colon; the text's
    colons are those plus any inside strings, so as many colons as members decoded
    proves none was lost; else the colons outside strings are counted."""
    columns = [_Columns(document) for document in documents]
    members = sum(c.members() for c in columns)
    if marks.count(b":") == members or _key_colons(data) == members:
        return columns
    return None


def parse(
    data: bytes,
    source: str,
    options: Mapping[str, Any] | None = None,
    *,
    limits: Limits | None = None,
) -> tuple[Tournament, list[str]]:
    """Bytes of one JSON tournament → (Tournament, warnings), every layer checked.
    ``limits``: the reader's options already checked (a service builds them once)."""
    limits = _limits(options, limits)
    document, marks = _typed(data, source, limits, _ONE)
    columns = None if document is None else _checked(data, marks, [document])
    if document is None or columns is None:  # the slow way locates the problem, if any
        document = validate(decode(data, source, limits), source)
        columns = [_Columns(document)]
    return _meaning(document, columns[0], source)


def parse_many(
    data: bytes,
    source: str,
    options: Mapping[str, Any] | None = None,
    *,
    limits: Limits | None = None,
) -> tuple[list[Tournament], list[str]]:
    """A tournament, or an array of tournaments (a history), → (tournaments, warnings).
    In an array, document ``i`` is ``source[i]`` in warnings, and a problem's path
    starts with ``[i]``."""
    limits = _limits(options, limits)
    many = _ARRAY.match(data) is not None
    typed, marks = _typed(data, source, limits, _MANY if many else _ONE)
    documents: list[Any] = []
    columns: list[_Columns] | None = None
    if typed is not None:
        documents = typed if many else [typed]
        columns = _checked(data, marks, documents)
    if columns is None:  # the slow way: the json module, then document by document
        value = decode(data, source, limits)
        many = isinstance(value, list)
        documents = value if many else [value]
    if not documents:
        raise InputError("an empty array: give a tournament or an array of tournaments")
    tournaments, warnings = [], []
    for i, document in enumerate(documents):
        prefix = f"[{i}]" if many else ""
        name = f"{source}{prefix}"
        try:
            if columns is None:
                tournament, notes = build(validate(document, name), name)
            else:
                tournament, notes = _meaning(document, columns[i], name)
        except InputError as error:
            where = error.where if error.where not in (None, "$") else ""
            joined = f"{prefix}.{where}" if prefix and where else (prefix or where)
            raise InputError(error.message, source=source, where=joined or None) from None
        tournaments.append(tournament)
        warnings += notes
    return tournaments, warnings


# -- writing ------------------------------------------------------------------------------


def _number(value: Any) -> int | float | str:
    """Exact values as JSON: integers, binary fractions as numbers, others as "p/q"."""
    if isinstance(value, bool):
        raise TypeError("not a number")
    if isinstance(value, int):
        return value
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return int(fraction)
    denominator = fraction.denominator
    if denominator & (denominator - 1) == 0 and denominator <= MAX_DENOMINATOR:
        return fraction.numerator / denominator
    return f"{fraction.numerator}/{denominator}"


def _json_ready(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def _unless(value: Any, absent: Any = None) -> Any:
    """UNSET for a value the document leaves out (``absent``, or empty)."""
    return UNSET if value == absent or (absent is None and value is None) else value


def to_document(tournament: Tournament) -> schema.Tournament:
    """The tournament as a JSON tournament document (:func:`parse` reads it back equal).
    Its ``settings`` are the tournament's own, as the reader recorded them."""
    players = tournament.players
    names = Counter(identity(p.name) for p in players)
    ids = {p.id for p in players if p.id is not None}

    def reference_of(player: Player, index: int) -> int | str:
        """id, else name, whichever finds exactly this player (else the index)."""
        if player.id is not None:
            others = names[identity(player.id)] - (identity(player.name) == identity(player.id))
            return player.id if others == 0 else index
        if names[identity(player.name)] == 1 and player.name not in ids:
            return player.name
        return index

    references = [reference_of(p, i) for i, p in enumerate(players)]
    reference = references.__getitem__

    def player_entry(player: Player) -> schema.Player:
        return schema.Player(
            name=player.name,
            id=_unless(player.id),
            rank=UNSET if player.rank is None else format_rank(player.rank),
            rating=_unless(player.rating),
            club=player.club or UNSET,
            country=player.country or UNSET,
            smms_correction=player.smms_correction or UNSET,
            start_score=UNSET if player.start_score is None else _number(player.start_score),
            ids=dict(player.ids) if player.ids else UNSET,
        )

    def game_entry(game: Game) -> schema.Game:
        return schema.Game(
            round=game.round,
            black=reference(game.black),
            white=reference(game.white),
            result=TEXTS[game.result],
            handicap=game.handicap or UNSET,
            komi=_unless(game.komi),
            by_default=True if game.by_default else UNSET,
            colours_known=UNSET if game.colours_known else False,
        )

    return schema.Tournament(
        format=FORMAT,
        version=VERSION,
        name=tournament.name,
        date=tournament.date or UNSET,
        rounds=tournament.rounds,
        players=[player_entry(p) for p in players],
        games=[game_entry(g) for g in tournament.games],
        byes=[schema.RoundPlayer(round=r, player=reference(p)) for r, p in sorted(tournament.byes)],
        absences=[
            schema.RoundPlayer(round=r, player=reference(p)) for r, p in sorted(tournament.absences)
        ],
        # the recorded settings, in their order (a Struct holds them as they are)
        settings=_json_ready(tournament.settings) if tournament.settings else UNSET,
        info=_info(tournament.info),
        board_size=_unless(tournament.size),
    )


def _info(info: Mapping[str, str]) -> schema.Info | UnsetType:
    """The event's facts (EGD h9 header names) as the document holds them; a key the
    format has no member for is left out (``sodos convert`` then refuses to write)."""
    known = {key: value for key, value in info.items() if key in schema.Info.__struct_fields__}
    return schema.Info(**known) if known else UNSET


def dumps(document: schema.Tournament) -> str:
    """A document as text: one player, game, bye or absence per line (diffable)."""
    items = [
        (key, getattr(document, name))
        for name, key in zip(document.__struct_fields__, document.__struct_encode_fields__)
        if getattr(document, name) is not UNSET
    ]
    line = codec.encode_line
    lines = ["{"]
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        head = f" {line(key)}: "
        if isinstance(value, list) and value:
            body = ",\n".join(f"  {line(v)}" for v in value)
            lines.append(f"{head}[\n{body}\n ]{comma}")
        else:
            lines.append(f"{head}{line(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- the reader plugin --------------------------------------------------------------------


def claims(path: Path, head: bytes) -> bool:
    """``.json`` files, and any file whose text starts with ``{`` (e.g. from stdin)."""
    if path.is_dir():
        return False
    if path.suffix.lower() == ".json":
        return True
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    if len(paths) != 1:
        raise InputError(f"give one JSON tournament per run, got {len(paths)} files")
    path = paths[0]
    source = str(path)
    limits = Limits.from_options(options)
    try:
        data = read_regular(path, limits.max_bytes, f"option {SECTION} max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    tournament, warnings = parse(data, source, limits=limits)
    return ReadResult(tournament, files=[FileReport(source, "ingested")], warnings=warnings)


def stdin(head: bytes) -> str | None:
    """Data from stdin that starts as JSON (an object or an array): ``.json``."""
    return ".json" if plain_head(head)[:1] in (b"{", b"[") else None


@hookimpl
def sodos_readers() -> list[Reader]:
    return [
        Reader(
            NAME,
            "JSON tournament (sodos schema; players, games, settings)",
            claims,
            read,
            stdin=stdin,
        )
    ]
