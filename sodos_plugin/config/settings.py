"""Config entries: where they come from, what they mean, and their validation.

Layers, lowest precedence first (a later layer overrides an earlier one key by key):

1. built-in defaults (the EGF/OpenGotha defaults of docs/rules.md §1);
2. the settings a tournament file carries itself (OpenGotha XML parameters, h9 header);
3. the config file: ``sodos.toml``, or the ``[tool.sodos]`` table of a ``pyproject.toml``;
4. the mapping a host passes in;
5. ``-o key=value`` overrides from the command line.

Keys are dotted paths into TOML tables (``mcmahon.bar`` is ``bar`` in ``[mcmahon]``).
Every key is declared once, as a :class:`Key` in :data:`SCHEMA` (name, check, default,
meaning); :func:`resolve` checks each layer against the declarations and :class:`Settings`
gives each key at its own dotted path (``settings.mcmahon.bar``). An unknown key or a
wrong type is a :class:`~sodos_plugin.errors.ConfigError` naming the key and the layer it
came from.
Two open tables are checked later, once plugins are known: ``[plugin.<name>]`` (each
plugin's own section) and ``[prefer]`` (``CRITERION = "plugin name"``).
"""

from __future__ import annotations

import ipaddress
import math
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from sodos_plugin.config.options import shown as _shown
from sodos_plugin.engine.ranks import format_rank, parse_rank
from sodos_plugin.errors import ConfigError
from sodos_plugin.util.inputfiles import FileRefused, TooLarge, read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SYSTEMS = ("mcmahon", "swiss")
#: Programs whose printed numbers ``compat`` reproduces, defects included (docs/rules.md §7).
COMPATS = ("none", "opengotha")
#: Conventions for rounds without an opponent (docs/rules.md §4): sodos_plugin.engine.conventions.
VIRTUAL_OPPONENTS = ("egf", "half-point", "self", "dummy", "aga")
MAX_CONFIG_BYTES = 1 << 20
#: The default of ``limits.max_state_bytes``: reading a state costs 6 (players) to 13
#: (WHR's game list) times its bytes in memory (measured, benchmarks/README.md), so a
#: state of 64 MiB stays under 1 GiB (350 000 Glicko-2 players, 2.5 million WHR games).
MAX_STATE_BYTES = 64 << 20
#: OpenGotha offers up to 9 categories (8 lower limits).
MAX_CATEGORIES = 8
#: Scores in config are small exact fractions: at most this many points, this denominator.
MAX_POINTS = 1000
MAX_DENOMINATOR = 1024
#: tomllib's memory grows with the square of a dotted key's length (a.a.a...): lines
#: with more dots than this are refused before parsing.
MAX_DOTS_PER_LINE = 200
#: Tables nested deeper than this hold no known key (the deepest is two levels).
MAX_DEPTH = 4
_POINTS = re.compile(r"([+-]?)(\d{0,6})(?:\.(\d{1,6}))?|([+-]?\d{1,6})\s*/\s*(\d{1,6})")
_INT = re.compile(r"[+-]?\d{1,9}")


def _as_points(value: Any) -> Fraction:
    """A score in points: 1, 0.5, "1/2", "½". Floats must be exact halves/quarters.

    Never negative: a bye or an absence gives points or none.

    Bounded (|points| <= MAX_POINTS, denominator <= MAX_DENOMINATOR), so that no
    value (``"1e999999999"``, ``inf``) can make the exact arithmetic huge or fail.
    """
    expected = 'expected a number of points (1, 0.5, "1/2")'
    if isinstance(value, bool):
        raise TypeError(expected)
    if isinstance(value, (int, Fraction)):
        exact = Fraction(value) if abs(value) <= MAX_POINTS else None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(expected)
        exact = Fraction(value)
    elif isinstance(value, str):
        text = value.strip()
        text = "1/2" if text == "½" else text.replace("½", ".5")
        match = _POINTS.fullmatch(text)
        if not match or match.group(0) in ("", "+", "-"):
            raise TypeError(expected)
        if match.group(4) is not None:
            if int(match.group(5)) == 0:
                raise TypeError("a fraction of points cannot have denominator 0")
            exact = Fraction(int(match.group(4)), int(match.group(5)))
        else:
            exact = Fraction(text) if (match.group(2) or match.group(3)) else None
        if exact is None:
            raise TypeError(expected)
    else:
        raise TypeError(expected)
    if exact is not None and exact < 0:  # no rule (EGF, OpenGotha) takes points away
        raise TypeError("points cannot be negative")
    if exact is None or exact > MAX_POINTS:
        raise TypeError(f"points must be between 0 and {MAX_POINTS}")
    if exact.denominator > MAX_DENOMINATOR:
        raise TypeError(f"not an exact fraction of a point (denominator > {MAX_DENOMINATOR})")
    return exact


def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "on", "off", "yes", "no"):
        return value.lower() in ("true", "on", "yes")
    raise TypeError("expected true or false")


def _as_str(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    raise TypeError("expected a string")


def _choice(*choices: str) -> Callable[[Any], str]:
    def convert(value: Any) -> str:
        text = _as_str(value).lower()
        if text not in choices:
            raise TypeError(f"expected one of {', '.join(choices)}")
        return text

    return convert


def _as_rank(value: Any) -> int:
    try:
        return parse_rank(_as_str(value))
    except ValueError as error:
        raise TypeError(str(error)) from None


def _as_ranks(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or len(value) > MAX_CATEGORIES:
        raise TypeError(f"expected a list of at most {MAX_CATEGORIES} ranks")
    return tuple(_as_rank(v) for v in value)


def _as_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value)
    raise TypeError("expected a list of strings (or a comma-separated string)")


def _as_name(value: Any) -> str:
    text = _as_str(value)
    if not text:
        raise TypeError("expected a name")
    return text


def _as_int(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError("expected an integer")
    if isinstance(value, int) and abs(value) < 10**9:
        return value
    if isinstance(value, str) and _INT.fullmatch(value.strip()):
        return int(value)
    raise TypeError("expected an integer (at most 9 digits)")


def _as_seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected a number of seconds")
    # the range first: math.isfinite of an integer too large for a float would raise
    if not (0 < value <= 86400 and math.isfinite(value)):
        raise TypeError("expected seconds between 0 and 86400")
    return float(value)


def _as_count(value: Any) -> int:
    number = _as_int(value)
    if number <= 0:
        raise TypeError("expected a positive integer")
    return number


def _as_port(value: Any) -> int:
    number = _as_int(value)
    if not 0 <= number <= 65535:
        raise TypeError("expected a port number 0..65535 (0: any free port)")
    return number


#: Bounds of the service's sizes: more workers, waiting requests or connections than
#: these is a config error naming the key, not processes or threads without end.
MAX_CONCURRENCY = 64
MAX_WAITING = 1024
MAX_CONNECTIONS = 10_000
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def _at_most(limit: int, *, zero: bool = False) -> Callable[[Any], int]:
    def convert(value: Any) -> int:
        number = _as_int(value)
        if not (0 if zero else 1) <= number <= limit:
            low = "0" if zero else "1"
            raise TypeError(f"expected an integer {low}..{limit}")
        return number

    return convert


def check_host(text: str) -> str:
    """An address to bind: an IPv4 or IPv6 address or a host name (RFC 1123 labels).

    Raises ``ValueError`` saying what is wrong, so that ``999.1.1.1`` or ``""`` is one
    message naming the key or option, not a failure inside the server.
    """
    text = text.strip()
    if not text:
        raise ValueError("expected an address (127.0.0.1, ::1, 0.0.0.0) or a host name")
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        if ":" in bare:
            return str(ipaddress.IPv6Address(bare))
        if all(c.isdigit() or c == "." for c in bare):
            return str(ipaddress.IPv4Address(bare))
    except ValueError:
        raise ValueError("not an IP address") from None
    labels = bare.removesuffix(".").split(".")
    if len(bare) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
        raise ValueError("not an IP address or a host name")
    return bare.lower()


def _as_host(value: Any) -> str:
    try:
        return check_host(_as_str(value))
    except ValueError as error:
        raise TypeError(str(error)) from None


def _show_rank(value: int) -> str:
    return f'"{format_rank(value)}"'


def _show_ranks(value: tuple[int, ...]) -> str:
    return "[" + ", ".join(_show_rank(v) for v in value) + "]"


def _as_optional_str(value: Any) -> str | None:
    """A string; an empty one is no value (``roster = ""``: no roster)."""
    return _as_str(value) or None


def show_value(value: Any) -> str:
    """A value as it would be written in sodos.toml (``sodos config``)."""
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


#: ``get(key)``: a key's resolved value, for the keys whose default depends on another
Getter = Callable[[str], Any]


@dataclass(frozen=True)
class Key:
    """One config key, declared once: everything else (``Settings``, :func:`resolve`,
    ``sodos config``, docs/config.md's table) is made from these declarations.

    :param name: the dotted key (``scoring.bye`` is ``bye`` in ``[scoring]``); the
        settings give it at the same path (``settings.scoring.bye``).
    :param convert: the check: takes the raw value (TOML or a ``-o`` string), returns the
        value or raises ``TypeError`` saying what was expected (a ConfigError names the key
        and its layer).
    :param default: the value when no layer sets it (``None``: not set).
    :param help: what it means, one line (the key table of docs/config.md).
    :param show: how ``sodos config`` writes a value (default: :func:`show_value`).
    :param derive: ``derive(value, get)``: the value the run uses, from the key's own
        (``None`` when unset) and the others' (``scoring.bye_mms`` follows ``scoring.bye``).
    :param default_origin: ``default_origin(get)``: where a derived default comes from, for
        ``sodos config`` (``default: scoring.bye``).
    :param alias: the attribute the value had before settings were grouped by their keys
        (``bye_nbw``); reading it still works, with a DeprecationWarning.
    """

    name: str
    convert: Callable[[Any], Any]
    default: Any
    help: str
    show: Callable[[Any], str] = show_value
    derive: Callable[[Any, Getter], Any] | None = None
    default_origin: Callable[[Getter], str] | None = None
    alias: str | None = None


def declare(*keys: Key) -> dict[str, Key]:
    """The table of keys by name, in the order ``sodos config`` and the docs list them."""
    table: dict[str, Key] = {}
    for key in keys:
        if key.name in table:
            raise ValueError(f"config key {key.name!r} is declared twice")
        table[key.name] = key
    return table


#: Every config key. Adding one is one ``Key(...)`` line here: it is then validated,
#: resolved, in ``settings.<its dotted name>``, in ``sodos config`` and in docs/config.md.
SCHEMA: dict[str, Key] = declare(
    Key("system", _choice(*SYSTEMS), "mcmahon", "swiss or mcmahon: the main score and W/M forms"),
    Key(
        "criteria",
        _as_list,
        None,
        "ordered placement criteria; default: the system's preset",
        derive=lambda value, get: value or presets(get("system")),
        default_origin=lambda get: f"default: the {get('system')} preset",
    ),
    Key("plugins", _as_list, (), "extra plugin modules to import and register"),
    Key("disable", _as_list, (), "plugin names to block (built-ins included)"),
    Key(
        "mcmahon.bar",
        _as_rank,
        None,
        "McMahon bar: ranks above it start at the bar",
        show=_show_rank,
        alias="mcmahon_bar",
    ),
    Key(
        "mcmahon.floor",
        _as_rank,
        None,
        "McMahon floor: ranks below it start at the floor",
        show=_show_rank,
        alias="mcmahon_floor",
    ),
    Key(
        "mcmahon.zero",
        _as_rank,
        -30,
        "rank whose start score is 0 (default 30k)",
        show=_show_rank,
        alias="mcmahon_zero",
    ),
    Key(
        "scoring.bye",
        _as_points,
        Fraction(1),
        "points for the pairing bye (NBW and MMS)",
        alias="bye_nbw",
    ),
    Key(
        "scoring.bye_mms",
        _as_points,
        None,
        "MMS points for the bye if unlike NBW's",
        derive=lambda value, get: get("scoring.bye") if value is None else value,
        default_origin=lambda get: "default: scoring.bye",
        alias="bye_mms",
    ),
    Key(
        "scoring.absent_nbw",
        _as_points,
        Fraction(0),
        "NBW points for an absent round",
        alias="absent_nbw",
    ),
    Key(
        "scoring.absent_mms",
        _as_points,
        Fraction(1, 2),
        "MMS points for an absent round",
        alias="absent_mms",
    ),
    Key(
        "scoring.round_down",
        _as_bool,
        True,
        "floor the running total of bye/absence points",
        alias="round_down",
    ),
    Key(
        "unplayed.virtual_opponent",
        _choice(*VIRTUAL_OPPONENTS),
        "egf",
        "convention for rounds without an opponent",
        alias="virtual_opponent",
    ),
    Key(
        "handicap.sos_correction",
        _as_bool,
        True,
        "M-form SOS: opponent MMS +h as White, -h as Black",
        alias="sos_correction",
    ),
    Key(
        "handicap.reduction",
        _as_int,
        None,
        "handicap reduction (OpenGotha hdCorrection, h9 HA[h<n>]); pairing only, no effect here",
        alias="handicap_reduction",
    ),
    Key(
        "scoring.doubled",
        _as_bool,
        False,
        "every score doubled (win 2, jigo 1, bye 2...), as some events print",
        alias="doubled",
    ),
    Key("strict", _as_bool, False, "every warning is an error: exit 2, each listed (--strict)"),
    Key(
        "roster",
        _as_optional_str,
        None,
        "players file (CSV or tournament): a record name not in it is an error",
    ),
    Key(
        "categories.lower_limits",
        _as_ranks,
        (),
        "CAT: lowest rank of categories 1, 2... (OpenGotha Category lowerLimit); none: one",
        show=_show_ranks,
        alias="category_limits",
    ),
    Key(
        "compat",
        _choice(*COMPATS),
        "none",
        "opengotha: print OpenGotha 3.51's numbers, its defects included (docs/rules.md §7)",
    ),
    # sodos serve (docs/hosts.md): where it listens and what one stranger's request may cost
    Key("serve.host", _as_host, "127.0.0.1", "address sodos serve binds (default: loopback only)"),
    Key("serve.port", _as_port, 8000, "port of sodos serve (0: any free port, printed)"),
    Key("serve.max_request_bytes", _as_count, 4 << 20, "largest request body accepted (413)"),
    Key("serve.timeout", _as_seconds, 10.0, "seconds one request may compute (then 504)"),
    Key(
        "serve.concurrency",
        _at_most(MAX_CONCURRENCY),
        2,
        f"requests computed at once (worker processes, at most {MAX_CONCURRENCY})",
    ),
    Key("serve.queue_timeout", _as_seconds, 5.0, "seconds a request waits for a worker (503)"),
    Key(
        "serve.max_waiting",
        _at_most(MAX_WAITING, zero=True),
        8,
        "requests that may wait for a worker; one more is 503 at once",
    ),
    Key(
        "serve.max_connections",
        _at_most(MAX_CONNECTIONS),
        100,
        "open connections the server accepts",
    ),
    Key(
        "serve.request_timeout",
        _as_seconds,
        10.0,
        "seconds a client has to send a whole request, head and body (then it is closed)",
    ),
    Key(
        "serve.allowed_hosts",
        _as_list,
        (),
        'Host header names accepted besides the address bound (docs/hosts.md); "*": any',
    ),
    # sodos serve --store, Host.store (docs/ratings.md, "A server's live ratings")
    Key(
        "store.synchronous",
        _choice("full", "normal", "extra"),
        "full",
        "SQLite synchronous of a live store: full keeps every acknowledged game through a "
        "power loss; normal may lose the last ones (never the store)",
    ),
    Key(
        "store.busy_timeout",
        _as_seconds,
        10.0,
        "seconds a write waits for another process's (then an error)",
    ),
    Key("store.max_batch", _as_count, 100_000, "games one batch may add (POST /games)"),
    Key("store.max_leaderboard", _as_count, 1000, "players one leaderboard answer may list"),
    # how much work one tournament may cost, whatever reads it (docs/config.md)
    Key(
        "limits.max_players",
        _as_count,
        200_000,
        "players one tournament may have (standings, explain)",
        alias="max_players",
    ),
    Key(
        "limits.max_player_rounds",
        _as_count,
        2_000_000,
        "players x rounds one standings may compute (~150 bytes each)",
        alias="max_player_rounds",
    ),
    # game histories and ratings (docs/rules.md §10)
    Key(
        "cache.enabled",
        _as_bool,
        True,
        "game histories: keep what SGF ingest extracted in a SQLite cache",
        alias="cache_enabled",
    ),
    Key(
        "cache.path",
        _as_str,
        "",
        "the cache file (default: $XDG_CACHE_HOME/sodos/history.sqlite3)",
        alias="cache_path",
    ),
    Key(
        "ratings.default",
        _as_name,
        "egf",
        "the rating system of a run that names none (sodos ratings, Host.ratings, POST /ratings)",
        alias="default_rating",
    ),
    Key(
        "limits.max_state_bytes",
        _as_count,
        MAX_STATE_BYTES,
        "largest saved rating state read, bytes (reading takes 6 to 13 times as much memory)",
        alias="max_state_bytes",
    ),
    Key(
        "history.event_gap_days",
        _as_int,
        7,
        "game histories: games of one EV more than this many days apart are two events",
        alias="event_gap_days",
    ),
)

OPEN_TABLES = ("plugin", "prefer", "rating")


def presets(system: str) -> tuple[str, ...]:
    """Default criteria of a system (docs/rules.md §2, OpenGotha presets)."""
    return ("MMS", "SOSM", "SOSOSM") if system == "mcmahon" else ("NBW", "SOSW", "SOSOSW")


class Group(Mapping[str, Any]):
    """The keys under one table (``settings.scoring``, ``settings.serve``): each is an
    attribute (``settings.serve.timeout``) and the group a read-only mapping of them
    (``settings.serve["timeout"]``, ``dict(settings.serve)``)."""

    def __init__(self, name: str, items: Mapping[str, Any]):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_items", dict(items))
        self.__dict__.update(self._items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getattr__(self, attribute: str) -> Any:  # only for names that are not there
        raise AttributeError(f"no config key {self._name}.{attribute}")

    def __setattr__(self, attribute: str, value: Any) -> None:
        raise AttributeError("settings are read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Group, (self._name, self._items))

    def __repr__(self) -> str:
        return f"Group({self._name!r}, {self._items!r})"


#: Attributes of Settings that are not config keys; no key or table may take their name,
#: nor a key inside a table the name of a mapping's method.
RESERVED = frozenset(
    {"prefer", "plugin_sections", "rating_sections", "origins", "form", "value", "replace"}
)
RESERVED_IN_GROUPS = frozenset(name for name in dir(Mapping) if not name.startswith("_"))


def _tree(values: Mapping[str, Any]) -> dict[str, Any]:
    """Dotted keys → nested :class:`Group` s (``scoring.bye`` → ``tree["scoring"].bye``)."""
    nested: dict[str, Any] = {}
    for dotted, value in values.items():
        *tables, last = dotted.split(".")
        if tables[:1] and tables[0] in RESERVED or not tables and last in RESERVED:
            raise ValueError(f"config key {dotted!r} takes the name of a Settings attribute")
        if tables and last in RESERVED_IN_GROUPS:
            raise ValueError(f"config key {dotted!r} takes the name of a mapping method")
        node = nested
        for table in tables:
            node = node.setdefault(table, {})
            if not isinstance(node, dict):
                raise ValueError(f"config key {dotted!r} is inside a key, not a table")
        if isinstance(node.get(last), dict):
            raise ValueError(f"config key {dotted!r} is also a table")
        node[last] = value

    def groups(node: dict[str, Any], prefix: str) -> dict[str, Any]:
        return {
            name: Group(prefix + name, groups(value, f"{prefix}{name}."))
            if isinstance(value, dict)
            else value
            for name, value in node.items()
        }

    return groups(nested, "")


class Settings:
    """The validated configuration of one run, made from :data:`SCHEMA`; build it with
    :func:`resolve`.

    Every key is read at its dotted path: ``settings.system``, ``settings.scoring.bye``,
    ``settings.serve.timeout`` (a table is also a mapping: ``settings.serve["timeout"]``),
    or by name: ``settings.value("scoring.bye")``. The open tables are ``prefer``,
    ``plugin_sections`` (``[plugin.<name>]``) and ``rating_sections`` (``[rating.<system>]``,
    system names lower case, checked against each system's parameters when it is used);
    ``origins`` says which layer gave each key. Read-only.
    """

    prefer: Mapping[str, str]
    plugin_sections: Mapping[str, Mapping[str, Any]]
    rating_sections: Mapping[str, Mapping[str, Any]]
    origins: Mapping[str, str]

    def __init__(
        self,
        given: Mapping[str, Any] | None = None,
        *,
        prefer: Mapping[str, str] | None = None,
        plugin_sections: Mapping[str, Mapping[str, Any]] | None = None,
        rating_sections: Mapping[str, Mapping[str, Any]] | None = None,
        origins: Mapping[str, str] | None = None,
    ):
        """``given``: the converted values of the keys some layer set, by dotted name."""
        given = dict(given or {})
        values: dict[str, Any] = {}

        def get(name: str) -> Any:
            if name not in values:
                key = SCHEMA[name]
                value = given.get(name, key.default)
                values[name] = value if key.derive is None else key.derive(value, get)
            return values[name]

        for name in SCHEMA:
            get(name)
        setattr_ = object.__setattr__
        setattr_(self, "_given", given)
        setattr_(self, "_values", values)
        setattr_(self, "prefer", dict(prefer or {}))
        setattr_(self, "plugin_sections", dict(plugin_sections or {}))
        setattr_(self, "rating_sections", dict(rating_sections or {}))
        setattr_(self, "origins", dict(origins or {}))
        self.__dict__.update(_tree(values))

    def value(self, key: str) -> Any:
        """The value of a config key by its dotted name (``"scoring.bye"``)."""
        return self._values[key]

    def replace(self, changes: Mapping[str, Any]) -> Settings:
        """These settings with some keys' values changed (by dotted name, converted)."""
        unknown = set(changes) - set(SCHEMA)
        if unknown:
            raise KeyError(f"not config keys: {sorted(unknown)}")
        return Settings(
            {**self._given, **changes},
            prefer=self.prefer,
            plugin_sections=self.plugin_sections,
            rating_sections=self.rating_sections,
            origins=self.origins,
        )

    @property
    def form(self) -> str:
        """``"M"`` in a McMahon, ``"W"`` in a Swiss: which form SOS, SOSOS, SODOS take."""
        return "M" if self.system == "mcmahon" else "W"

    def __getattr__(self, attribute: str) -> Any:  # only for names that are not there
        if not attribute.startswith("_"):
            for key in SCHEMA.values():
                if key.alias == attribute:
                    warnings.warn(
                        f"settings.{attribute} is now settings.{key.name}",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    return self._values[key.name]
        raise AttributeError(f"{type(self).__name__!r} has no attribute {attribute!r}")

    def __setattr__(self, attribute: str, value: Any) -> None:
        raise AttributeError("settings are read-only")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def _state(self) -> tuple[Any, ...]:
        return (
            self._values,
            self.prefer,
            self.plugin_sections,
            self.rating_sections,
            self.origins,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (self._given, self.prefer, self.plugin_sections, self.rating_sections, self.origins),
        )

    def __repr__(self) -> str:
        return f"Settings({self._values!r})"


def _rebuild(given, prefer, plugin_sections, rating_sections, origins) -> Settings:
    return Settings(
        given,
        prefer=prefer,
        plugin_sections=plugin_sections,
        rating_sections=rating_sections,
        origins=origins,
    )


def flatten(
    data: Mapping[str, Any], source: str, prefix: str = "", depth: int = 0
) -> dict[str, Any]:
    """Nested tables to dotted keys; ``plugin`` and ``prefer`` stay whole.

    Below :data:`MAX_DEPTH` a table is kept whole (it can only be an unknown key).
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"expected a table, got {_shown(data)}", source=source)
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            raise ConfigError(f"config key {_shown(key)} is not a string", source=source)
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and dotted not in SCHEMA and depth < MAX_DEPTH:
            if not prefix and key in OPEN_TABLES:
                flat[dotted] = dict(value)
            else:
                flat.update(flatten(value, source, dotted + ".", depth + 1))
        else:
            flat[dotted] = value
    return flat


def _toml(text: str) -> dict[str, Any]:
    """``tomllib.loads`` with bounded cost; any failure is a ValueError with the reason."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.count(".") > MAX_DOTS_PER_LINE:
            raise ValueError(f"line {number} has more than {MAX_DOTS_PER_LINE} dots")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(str(error)) from None
    except RecursionError:
        raise ValueError("arrays or tables nested too deeply") from None
    except ValueError as error:  # e.g. an integer with thousands of digits
        raise ValueError(str(error).split(":")[0]) from None


def _tool_sodos(data: Mapping[str, Any]) -> Any:
    tool = data.get("tool", {})
    return tool.get("sodos", {}) if isinstance(tool, Mapping) else {}


def load_file(path: Path) -> dict[str, Any]:
    """Read a TOML config file; from a ``pyproject.toml`` take ``[tool.sodos]``."""
    try:  # a regular file only, bounded (sodos_plugin.util.inputfiles)
        data = read_regular(path, MAX_CONFIG_BYTES)
    except TooLarge:
        raise ConfigError(
            f"config file larger than {MAX_CONFIG_BYTES} bytes", source=str(path)
        ) from None
    except FileRefused as error:
        raise ConfigError(f"cannot read config: {error}", source=str(path)) from None
    return load_bytes(data, str(path), pyproject=path.name == "pyproject.toml")


def load_bytes(data: bytes, source: str, *, pyproject: bool = False) -> dict[str, Any]:
    """A config file's content (e.g. an archive's ``sodos.toml``) → its table."""
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"config file larger than {MAX_CONFIG_BYTES} bytes", source=source)
    try:
        table = _toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError("config is not UTF-8 text", source=source) from None
    except ValueError as error:
        raise ConfigError(f"not valid TOML: {error}", source=source) from None
    if pyproject:
        table = _tool_sodos(table)
        if not isinstance(table, dict):
            raise ConfigError("[tool.sodos] must be a table", source=source)
    return table


def find_config(directory: Path) -> Path | None:
    """The default config in ``directory``: ``sodos.toml``, else a pyproject with [tool.sodos]."""
    candidate = directory / "sodos.toml"
    if candidate.is_file():
        return candidate
    pyproject = directory / "pyproject.toml"
    if pyproject.is_file():
        try:  # FileRefused (too large, not regular) is a ValueError
            data = _toml(read_regular(pyproject, MAX_CONFIG_BYTES).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        tool = data.get("tool", {})
        if isinstance(tool, Mapping) and "sodos" in tool:
            return pyproject
    return None


def parse_override(text: str) -> dict[str, Any]:
    """``-o key=value``: the value is read as TOML when it parses, else as a string."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"override {_shown(text)} is not key=value", source="-o")
    try:
        value = _toml(f"v = {raw}")["v"]
    except (ValueError, KeyError):
        value = raw.strip()
    result: dict[str, Any] = {}
    node = result
    parts = key.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return result


def _builtin_sections(raw: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """``[plugin.builtin.sgf]`` (TOML nests it) and ``[plugin."builtin.sgf"]`` are one section."""
    found = []
    for name, section in raw.items():
        if name == "builtin" and isinstance(section, Mapping):
            found.extend((f"builtin.{sub}", value) for sub, value in section.items())
        else:
            found.append((name, section))
    return found


def _contradictions(get: Callable[[str], Any], origins: Mapping[str, str]) -> None:
    """Settings that cannot all hold are an error naming each key and where it came from."""

    def where(key: str) -> str:
        return origins.get(key, "default")

    bar, floor = get("mcmahon.bar"), get("mcmahon.floor")
    if bar is not None and floor is not None and bar < floor:
        raise ConfigError(
            f"mcmahon.bar {format_rank(bar)} ({where('mcmahon.bar')}) is below mcmahon.floor "
            f"{format_rank(floor)} ({where('mcmahon.floor')}): no rank can be above the bar "
            "and below the floor",
            where="mcmahon.bar",
        )
    seen: dict[str, str] = {}
    for name in get("criteria") or ():
        folded = name.strip().upper()
        if folded in seen:
            raise ConfigError(
                f"criteria: {name} is listed twice ({seen[folded]} and {name}, "
                f"{where('criteria')}): a criterion ranks once",
                where="criteria",
            )
        seen[folded] = name


def resolve(layers: list[tuple[str, Mapping[str, Any]]]) -> Settings:
    """Merge config layers (lowest precedence first) into validated :class:`Settings`.

    :param layers: ``(source name, mapping)`` pairs; the name appears in errors.
    """
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    prefer: dict[str, str] = {}
    sections: dict[str, dict[str, Any]] = {}
    rating: dict[str, dict[str, Any]] = {}
    for source, data in layers:
        for key, raw in flatten(data, source).items():
            if key in OPEN_TABLES and not isinstance(raw, Mapping):
                raise ConfigError(f"[{key}] must be a table", source=source, where=key)
            if key == "plugin":
                for name, section in _builtin_sections(raw):
                    if not isinstance(section, Mapping):
                        raise ConfigError(
                            f"[plugin.{name}] must be a table",
                            source=source,
                            where=f"plugin.{name}",
                        )
                    sections.setdefault(name, {}).update(section)
                continue
            if key == "rating":
                for name, section in raw.items():
                    if not isinstance(section, Mapping):
                        raise ConfigError(
                            f"[rating.{name}] must be a table",
                            source=source,
                            where=f"rating.{name}",
                        )
                    target = rating.setdefault(str(name).lower(), {})
                    for param, value in section.items():
                        target[param] = value
                        origins[f"rating.{str(name).lower()}.{param}"] = source
                continue
            if key == "prefer":
                for criterion, plugin in raw.items():
                    if not isinstance(plugin, str) or not isinstance(criterion, str):
                        raise ConfigError(
                            "expected a plugin name", source=source, where=f"prefer.{criterion}"
                        )
                    prefer[criterion] = plugin
                continue
            spec = SCHEMA.get(key)
            if spec is None:
                raise ConfigError(f"unknown config key {key!r}", source=source, where=key)
            try:
                values[key] = spec.convert(raw)
            except TypeError as error:
                raise ConfigError(
                    f"{key}: {error}, got {_shown(raw)}", source=source, where=key
                ) from None
            origins[key] = source

    def get(key: str) -> Any:
        return values.get(key, SCHEMA[key].default)

    _contradictions(get, origins)
    return Settings(
        values,
        prefer=prefer,
        plugin_sections=sections,
        rating_sections=rating,
        origins=origins,
    )
