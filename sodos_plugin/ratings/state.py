"""A run's saved state: every player's full state where the run ended, written to a file
and read back so that a later run goes on from it (docs/ratings.md, "Going on").

Contract: :func:`write_state` writes a :class:`~sodos_hookspecs.SavedState` as strict
JSON (atomically: a failure leaves the old file); :func:`read_state` reads one back,
bounded (``limits.max_state_bytes``: reading costs 6 to 13 times the file in memory) and
checked key by key (an error names the file and the key): every player's numbers within
the limits of a start (docs/rules.md §10.1), every text encodable (no lone surrogate of
a ``\\ud800`` escape), no two players one by the identity rule (§8); the system's own
part is checked by the system (:attr:`~sodos_hookspecs.RatingSystem.check_state`, when
the run starts). :func:`check_continuation` refuses a run that would not give what one
run over everything gives: another system, other parameters, or games before the
state's last day (games of that day: each system checks that they come after its last
period).

The file::

    {"format": "sodos-rating-state", "version": 1, "sodos": "0.1.0",
     "system": "ogs", "provider": "builtin.glicko2", "last_day": "2024-05-10",
     "parameters": {...},
     "players": {"Ann": {"rating": 1612.5, "deviation": 61.2, "volatility": 0.0599,
                         "start": "rank 3d", "games": 40, "last_game": "2024-05-10"}},
     "system_state": {...}}

Numbers are written as Python's shortest ``repr``, which reads back to the same float:
a run from the file starts from exactly the numbers the saving run ended with.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from sodos_hookspecs import GameColumns, GameHistory, RatingState, SavedState

from sodos_plugin.config import settings
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import ConfigError, InputError, LimitError
from sodos_plugin.ratings.initial import MAX_DEVIATION, MAX_RATING, out_of_range
from sodos_plugin.util.inputfiles import FileRefused, TooLarge, read_regular

FORMAT = "sodos-rating-state"
VERSION = 1
#: The largest state file read unless ``limits.max_state_bytes`` says otherwise.
MAX_STATE_BYTES = settings.MAX_STATE_BYTES
LIMIT_KEY = "limits.max_state_bytes"
#: A ``\uD800``..``\uDFFF`` escape: the only way a surrogate gets into JSON read from
#: UTF-8 (a pair of them is one character; a lone one cannot be written back).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def as_data(state: SavedState, *, provider: str, version: str) -> dict[str, Any]:
    """The state as the file's JSON document."""
    players = {}
    for name, s in state.players.items():
        entry: dict[str, Any] = {"rating": s.rating}
        if s.deviation is not None:
            entry["deviation"] = s.deviation
        if s.volatility is not None:
            entry["volatility"] = s.volatility
        entry["start"] = state.starts.get(name, "")
        entry["games"] = state.games.get(name, 0)
        entry["last_game"] = state.last_games.get(name, "")
        players[name] = entry
    return {
        "format": FORMAT,
        "version": VERSION,
        "sodos": version,
        "system": state.system,
        "provider": provider,
        "last_day": state.last_day,
        "parameters": dict(state.parameters),
        "players": players,
        "system_state": dict(state.system_state),
    }


def write_state(state: SavedState, stream, *, provider: str, version: str) -> None:
    """The state as strict JSON (a non-finite number is refused, never written)."""
    try:
        text = json.dumps(
            as_data(state, provider=provider, version=version),
            ensure_ascii=False,
            allow_nan=False,
            separators=(",", ":"),
        )
    except ValueError as error:  # NaN or infinity: the system's numbers, checked before
        raise InputError(f"the state cannot be saved: {error}") from None
    stream.write(text + "\n")


def _fail(source: str, where: str, message: str) -> InputError:
    return InputError(message, source=source, where=where)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def read_state(path: Path | str, limit: int = MAX_STATE_BYTES) -> SavedState:
    """A saved state of at most ``limit`` bytes (``limits.max_state_bytes``), every key
    checked (:class:`InputError` names the file and key)."""
    path = Path(path)
    source = str(path)
    try:
        data = read_regular(path, limit)
    except TooLarge:
        raise LimitError(
            f"larger than {limit} bytes, the limit of a saved state", limit=LIMIT_KEY, source=source
        ) from None
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise InputError(f"not a saved state (JSON): {error}", source=source) from None
    except MemoryError:  # a limit raised beyond this machine's memory
        raise LimitError(
            f"{len(data)} bytes: not enough memory to read this saved state",
            limit=LIMIT_KEY,
            source=source,
        ) from None
    if _SURROGATE_ESCAPE.search(data):
        where = _lone_surrogate(document, "")
        if where is not None:
            raise _fail(
                source,
                where or "state",
                "a lone surrogate (a \\ud800..\\udfff escape without its pair) is not a "
                "character: the state cannot be read or written back",
            )
    del data
    return parse_state(document, source)


def beyond_limits(players: Mapping[str, RatingState]) -> str | None:
    """Why a state to be saved could not be read back (a player's numbers beyond the
    limits of a start, docs/rules.md §10.1), naming the player; ``None`` when none is
    (checked on all at once first: a server's million players)."""
    states = list(players.values())
    if states and set(map(type, states)) == {RatingState}:
        ratings, deviations, volatilities = zip(*states)
        deviations = [d for d in deviations if d is not None]
        volatilities = [v for v in volatilities if v is not None]
        try:
            inside = (
                -MAX_RATING <= min(ratings) <= max(ratings) <= MAX_RATING
                and (not deviations or 0 <= min(deviations) <= max(deviations) <= MAX_DEVIATION)
                and (
                    not volatilities or 0 < min(volatilities) <= max(volatilities) <= MAX_DEVIATION
                )
            )
        except TypeError:
            inside = False
        if inside:
            return None
    for name, state in players.items():
        why = out_of_range(state)
        if why is not None:
            return f"{name!r}: {why}"
    return None


def _lone_surrogate(value: Any, where: str) -> str | None:
    """The key of the first text holding a lone surrogate, else ``None``."""
    stack = [(value, where)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if not _encodable(value):
                return where
        elif isinstance(value, dict):
            for key, item in value.items():
                inner = f"{where}.{key}" if where else key
                if not _encodable(key):
                    return where or "state"
                stack.append((item, inner))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{k}]") for k, item in enumerate(value))
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_state(document: Any, source: str) -> SavedState:
    """A state document (as :func:`as_data` writes it) checked key by key."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _fail(source, "format", f'not a saved state (no "format": "{FORMAT}")')
    if document.get("version") != VERSION:
        raise _fail(
            source, "version", f"version {document.get('version')!r}: this sodos reads {VERSION}"
        )
    system = document.get("system")
    if not isinstance(system, str) or not system:
        raise _fail(source, "system", "expected the system's name")
    last_day = document.get("last_day")
    if not isinstance(last_day, str) or _day(last_day) is None:
        raise _fail(source, "last_day", f"expected a day YYYY-MM-DD, got {last_day!r}")
    parameters = document.get("parameters")
    if not isinstance(parameters, dict):
        raise _fail(source, "parameters", "expected an object")
    raw = document.get("players")
    if not isinstance(raw, dict):
        raise _fail(source, "players", "expected an object: name → state")
    players: dict[str, RatingState] = {}
    starts: dict[str, str] = {}
    games: dict[str, int] = {}
    last_games: dict[str, str] = {}
    identities: dict[str, str] = {}
    for name, entry in raw.items():
        where = f"players.{name}"
        if not name or not isinstance(entry, dict):
            raise _fail(source, where, "expected a player's state (an object)")
        numbers = []
        for key in ("rating", "deviation", "volatility"):
            value = entry.get(key)
            if value is None and key != "rating":
                numbers.append(None)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise _fail(source, f"{where}.{key}", f"expected a number, got {shown(value)}")
            if not math.isfinite(value):
                raise _fail(source, f"{where}.{key}", "not a finite number")
            numbers.append(float(value))
        state = RatingState(*numbers)
        why = out_of_range(state)
        if why is not None:  # the limits of a start: where a later run starts from
            raise _fail(source, where, why)
        key = identity_key(name)
        if key in identities:
            raise _fail(
                source,
                where,
                f"{name!r} and {identities[key]!r} are one player by the identity rule "
                "(docs/rules.md §8): a state holds each player once",
            )
        identities[key] = name
        players[name] = state
        start, count, last = entry.get("start", ""), entry.get("games", 0), entry.get("last_game")
        if not isinstance(start, str):
            raise _fail(source, f"{where}.start", "expected a text")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _fail(source, f"{where}.games", "expected a count of games")
        if last not in (None, "") and (not isinstance(last, str) or _day(last) is None):
            raise _fail(source, f"{where}.last_game", f"expected a day, got {last!r}")
        starts[name], games[name] = start, count
        if last:
            last_games[name] = last
    system_state = document.get("system_state", {})
    if not isinstance(system_state, dict):
        raise _fail(source, "system_state", "expected an object")
    return SavedState(
        system=system,
        last_day=last_day,
        players=players,
        starts=starts,
        games=games,
        last_games=last_games,
        system_state=system_state,
        parameters=parameters,
    )


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None


def is_day(value: Any) -> bool:
    """Whether ``value`` is a day as a state writes it (``"2024-05-10"``)."""
    return isinstance(value, str) and _day(value) is not None


def shown(value: Any, width: int = 60) -> str:
    """A value of a state for a message: its ``repr``, cut to ``width`` characters (a
    state's value may be a list of a million games)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int too long to show, a deep list
        return f"<a {type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."


def first_day(history: GameHistory) -> str | None:
    """The first day of the history's games (``None``: no game)."""
    games = history.games
    if not len(games):
        return None
    if isinstance(games, GameColumns):
        return min(games.columns["date"]) if games.order is None else games[0].date
    return min(g.date for g in games)


def check_continuation(
    state: SavedState, system: str, parameters: Mapping[str, Any], history: GameHistory
) -> None:
    """Refuse what would not give one run's result: another system, other parameters,
    games before the state's last day."""
    if state.system.lower() != system.lower():
        raise ConfigError(
            f"the saved state is of {state.system!r}, not {system!r}", where="state.system"
        )
    for key, value in parameters.items():
        if key not in state.parameters:
            raise ConfigError(
                f"the saved state has no value for {key!r} (saved by another version of "
                f"{system}?): rate the whole history again",
                where=f"state.parameters.{key}",
            )
        if state.parameters[key] != value:
            raise ConfigError(
                f"the saved state was made with {key} = {state.parameters[key]!r}, this run "
                f"has {value!r}: a run from it would not give what one run over everything "
                "gives (rate the whole history again, or keep the parameters)",
                where=f"state.parameters.{key}",
            )
    first = first_day(history)
    if first is not None and first < state.last_day:
        raise InputError(too_early(state.last_day, first), where="state.last_day")


def too_early(last: str, first: str, what: str = "day") -> str:
    """The message of games that do not come after a state's last period."""
    return (
        f"the saved state ends with the {what} {last}; these games start with {first}: a run "
        "from a saved state rates what comes after it only (rate the whole history again)"
    )
