"""JSON tournament reader and writer: the format hosts in any language hand over.

Contract: :func:`parse` turns the bytes of one JSON tournament (``sodos schema`` prints
its JSON Schema, ``sodos_plugin/schemas/tournament.schema.json``) into a
:class:`~sodos_plugin.engine.model.Tournament` whose ``settings`` are the document's own
``settings``; every problem is an :class:`~sodos_plugin.errors.InputError` whose
``where`` is the JSON path of the bad value (``games[12].white``). :func:`to_document`
is the inverse: any Tournament (read from XML, h9, an SGF folder...) as a document
that :func:`parse` reads back to an equal Tournament (``sodos convert``).

Layers, each bounded before the next runs (the same limits for a file and for an HTTP
request, options of ``[plugin.builtin.json_tournament]``):

1. bytes: at most ``max_bytes``; at most ``max_values`` values (counted at C speed as
   commas and brackets, an upper bound) and at most ``max_depth`` levels of nesting
   (checked on the brackets outside strings), so that no document can make the
   decoder's memory or recursion large;
2. text: UTF-8 (a BOM is skipped); standard JSON only (``NaN``/``Infinity`` refused,
   a key given twice in one object refused);
3. shape: the schema, checked by :mod:`sodos_plugin.schemas.shape` (no third-party
   validator at run time);
4. meaning: player references, rounds within ``rounds``, ranks, exact start scores,
   byes and absences against games, and the settings through
   :func:`sodos_plugin.config.settings.resolve`.

Players are referred to by index (an integer from 0), by ``id``, or by name (the
project's identity rule: case, width and spacing do not matter). Players who share a
name are warned about (without ids, only their indexes can name them). Player and game
order are kept: they decide the order inside a tie and which of two games in one round
counts for SOS-type values.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin import schemas
from sodos_plugin.config.settings import resolve
from sodos_plugin.engine.identity import identity_key as identity
from sodos_plugin.engine.model import Game, Player, Result, Tournament
from sodos_plugin.engine.ranks import format_rank, parse_rank
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.schemas.shape import ShapeError, compile_schema, object_pairs, shown
from sodos_plugin.util.inputfiles import FileRefused, read_regular

NAME = "json"
FORMAT = "sodos-tournament"
VERSION = 1
PLUGIN = "builtin.json_tournament"
SECTION = f"[plugin.{PLUGIN}]"

#: Options the host adds for every reader (see Host.read), not from the config section.
RUN_OPTIONS = ("skip_bad", "jobs")
RESULTS: dict[str, Result] = {result.value: result for result in Result}


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
            value = options.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ConfigError(
                    f"{key} must be a positive integer, got {shown(value)}",
                    source=SECTION,
                    where=key,
                )
            values[key] = value
        return cls(**values)


# -- 1. bytes -----------------------------------------------------------------------------

_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_INNERMOST = re.compile(rb"\[\]|\{\}")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _check_bytes(data: bytes, source: str, limits: Limits) -> None:
    if len(data) > limits.max_bytes:
        raise InputError(
            f"document is {len(data)} bytes, above the limit of {limits.max_bytes} "
            f"(option {SECTION} max_bytes)",
            source=source,
        )
    values = data.count(b",") + data.count(b"[") + data.count(b"{") + 1
    if values > limits.max_values:
        raise InputError(
            f"more than {limits.max_values} values (option {SECTION} max_values)", source=source
        )
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


# -- 2. text ------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def decode(data: bytes, source: str, limits: Limits = Limits()) -> Any:
    """Bytes → decoded JSON value, within ``limits``; errors name line and column."""
    _check_bytes(data, source, limits)
    if data.startswith(b"\xef\xbb\xbf"):
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


# -- 3. shape -----------------------------------------------------------------------------


@cache
def _shape():
    return compile_schema(schemas.load("tournament"))


def check_shape(document: Any, source: str) -> None:
    """The schema's checks; raises InputError at the JSON path of the first bad value."""
    if isinstance(document, dict):
        version = document.get("version")
        if type(version) is int and version > VERSION:
            raise InputError(
                f"version {version} of the tournament format is newer than this sodos "
                f"reads ({VERSION}): upgrade sodos-plugin",
                source=source,
                where="version",
            )
    try:
        _shape()(document)
    except ShapeError as error:
        raise InputError(error.message, source=source, where=error.where) from None


# -- 4. meaning ---------------------------------------------------------------------------

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


class _Players:
    """The players and how references find them (index, id, or name)."""

    def __init__(self, entries: Sequence[Mapping[str, Any]], source: str):
        self.source = source
        self.players: list[Player] = []
        self.ids: dict[str, int] = {}
        self.names: dict[str, list[int]] = {}
        self.warnings: list[str] = []
        for i, entry in enumerate(entries):
            self.players.append(self._player(i, entry))

    def _player(self, i: int, entry: Mapping[str, Any]) -> Player:
        source, where = self.source, f"players[{i}]"
        name = _text(entry["name"], source, f"{where}.name")
        if not name.strip():
            raise InputError("a name cannot be blank", source=source, where=f"{where}.name")
        player_id = entry.get("id")
        if player_id is not None:
            _text(player_id, source, f"{where}.id")
            if player_id in self.ids:
                raise InputError(
                    f"id {shown(player_id)} is also players[{self.ids[player_id]}]'s",
                    source=source,
                    where=f"{where}.id",
                )
            self.ids[player_id] = i
        same = self.names.setdefault(identity(name), [])
        if len(same) == 1 and (player_id is None or self.players[same[0]].id is None):
            self.warnings.append(
                f"{source}: {where}.name: players[{same[0]}] and players[{i}] are both called "
                f"{shown(name)}: games refer to them by index (or give them ids)"
            )
        same.append(i)
        rank = entry.get("rank")
        if rank is not None:
            try:
                rank = parse_rank(rank)
            except ValueError as error:
                raise InputError(str(error), source=source, where=f"{where}.rank") from None
        start = entry.get("start_score")
        if start is not None:
            start = exact(start, source, f"{where}.start_score")
        return Player(
            name=name,
            rank=rank,
            rating=entry.get("rating"),
            club=_text(entry.get("club", ""), source, f"{where}.club"),
            country=_text(entry.get("country", ""), source, f"{where}.country"),
            smms_correction=int(entry.get("smms_correction", 0)),
            start_score=start,
            id=player_id,
        )

    def find(self, reference: Any, where: str) -> int:
        n = len(self.players)
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


def _round_of(entry: Mapping[str, Any], rounds: int, source: str, where: str) -> int:
    """The entry's round, which the shape check made an integer ≥ 1; not after the last."""
    r = int(entry["round"])
    if r > rounds:
        raise InputError(
            f"round {r} is after the last round (rounds is {rounds})",
            source=source,
            where=f"{where}.round",
        )
    return r


def build(document: Mapping[str, Any], source: str) -> tuple[Tournament, list[str]]:
    """A checked document → (Tournament, warnings). Call :func:`check_shape` first."""
    rounds = int(document["rounds"])
    roster = _Players(document["players"], source)
    warnings: list[str] = roster.warnings
    games: list[Game] = []
    seen: dict[tuple[int, int], int] = {}
    repeated: list[tuple[int, int, int]] = []  # (game, earlier game, player)
    for k, entry in enumerate(document["games"]):
        where = f"games[{k}]"
        r = _round_of(entry, rounds, source, where)
        black = roster.find(entry["black"], f"{where}.black")
        white = roster.find(entry["white"], f"{where}.white")
        if black == white:
            raise InputError(
                f"the same player as black ({shown(roster.players[black].name)})",
                source=source,
                where=f"{where}.white",
            )
        for p in (black, white):
            if (r, p) in seen:
                repeated.append((k, seen[(r, p)], p))
            seen[(r, p)] = k
        games.append(
            Game(
                r,
                black,
                white,
                RESULTS[entry["result"]],
                int(entry.get("handicap", 0)),
                bool(entry.get("by_default", False)),
            )
        )
    for k, earlier, p in repeated:
        warnings.append(
            f"{source}: games[{k}]: {roster.players[p].name} has two games in round "
            f"{games[k].round} (games[{earlier}] and games[{k}]); the later one counts "
            "for SOS-type values"
        )
    marked: dict[str, dict[tuple[int, int], int]] = {"byes": {}, "absences": {}}
    for label in ("byes", "absences"):
        for k, entry in enumerate(document.get(label, ())):
            where = f"{label}[{k}]"
            r = _round_of(entry, rounds, source, where)
            p = roster.find(entry["player"], f"{where}.player")
            name = roster.players[p].name
            if (r, p) in seen:
                raise InputError(
                    f"{name} has a game in round {r} (games[{seen[(r, p)]}])",
                    source=source,
                    where=f"{where}.player",
                )
            if (r, p) in marked["byes"] and label == "absences":
                raise InputError(
                    f"{name} has the bye in round {r} (byes[{marked['byes'][(r, p)]}])",
                    source=source,
                    where=f"{where}.player",
                )
            if (r, p) in marked[label]:
                warnings.append(
                    f"{source}: {where}: {name} is listed twice for round {r} "
                    f"({label}[{marked[label][(r, p)]}])"
                )
            marked[label].setdefault((r, p), k)
    settings = document.get("settings", {})
    try:
        resolve([(source, settings)])
    except ConfigError as error:
        key = error.where or ""
        message = error.message.removeprefix(f"{key}: ") if key else error.message
        raise InputError(
            message, source=source, where=f"settings.{key}" if key else "settings"
        ) from None
    date = document.get("date", "")
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
        tournament = Tournament(
            name=_text(document.get("name", ""), source, "name"),
            date=date,
            rounds=rounds,
            players=tuple(roster.players),
            games=tuple(games),
            byes=frozenset(marked["byes"]),
            absences=frozenset(marked["absences"]),
            settings=settings,
            source=source,
        )
    except ValueError as error:
        if repeated:  # the model refuses two games in one round: name them
            k, earlier, p = repeated[0]
            raise InputError(
                f"{roster.players[p].name} has two games in round {games[k].round} "
                f"(games[{earlier}] and games[{k}])",
                source=source,
                where=f"games[{k}]",
            ) from None
        raise InputError(str(error), source=source) from None
    return tournament, warnings


def parse(
    data: bytes, source: str, options: Mapping[str, Any] | None = None
) -> tuple[Tournament, list[str]]:
    """Bytes of one JSON tournament → (Tournament, warnings), every layer checked."""
    document = decode(data, source, Limits.from_options(options or {}))
    check_shape(document, source)
    return build(document, source)


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


def to_document(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a JSON tournament document (:func:`parse` reads it back equal)."""
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

    def player_entry(player: Player) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": player.name}
        if player.id is not None:
            entry["id"] = player.id
        if player.rank is not None:
            entry["rank"] = format_rank(player.rank)
        if player.rating is not None:
            entry["rating"] = player.rating
        if player.club:
            entry["club"] = player.club
        if player.country:
            entry["country"] = player.country
        if player.smms_correction:
            entry["smms_correction"] = player.smms_correction
        if player.start_score is not None:
            entry["start_score"] = _number(player.start_score)
        return entry

    def game_entry(game: Game) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "round": game.round,
            "black": reference(game.black),
            "white": reference(game.white),
            "result": game.result.value,
        }
        if game.handicap:
            entry["handicap"] = game.handicap
        if game.by_default:
            entry["by_default"] = True
        return entry

    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": tournament.name,
        **({"date": tournament.date} if tournament.date else {}),
        "rounds": tournament.rounds,
        "players": [player_entry(p) for p in players],
        "games": [game_entry(g) for g in tournament.games],
        "byes": [{"round": r, "player": reference(p)} for r, p in sorted(tournament.byes)],
        "absences": [{"round": r, "player": reference(p)} for r, p in sorted(tournament.absences)],
    }
    if tournament.settings:
        document["settings"] = _json_ready(tournament.settings)
    return document


def dumps(document: Mapping[str, Any]) -> str:
    """A document as text: one player, game, bye or absence per line (diffable)."""
    lines = ["{"]
    items = list(document.items())
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        head = f" {json.dumps(key)}: "
        if isinstance(value, list) and value:
            body = ",\n".join(f"  {json.dumps(v, ensure_ascii=False)}" for v in value)
            lines.append(f"{head}[\n{body}\n ]{comma}")
        else:
            lines.append(f"{head}{json.dumps(value, ensure_ascii=False)}{comma}")
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
    tournament, warnings = parse(data, source, options)
    return ReadResult(tournament, files=[FileReport(source, "ingested")], warnings=warnings)


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader(NAME, "JSON tournament (sodos schema; players, games, settings)", claims, read)]
