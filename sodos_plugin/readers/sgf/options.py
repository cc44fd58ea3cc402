"""The SGF reader's options: ``[plugin."builtin.sgf"]`` in config, plus run options.

Keys (all optional):

``event``
    the event (``EV``) to read when the records hold several; records of other
    events are then reported as *excluded*.
``aliases``
    table ``"old account" = "player name"``: names joined into one player.
``bye_name``
    a pseudo-player name used in records for the pairing bye (e.g. ``"BYE"``): a
    record against it gives the other player the bye of that round.
``byes``
    table ``"3" = ["Name", ...]``: players who had the bye in round 3.
``rounds``
    number of rounds scheduled (default: the highest round found).
``fallback_encoding``
    codec for records without ``CA`` that are not UTF-8 (default ``ISO-8859-1``).
``max_file_bytes``, ``max_archive_members``, ``max_archive_bytes``
    limits on what is read (16 MiB per record or member; 100 000 members and 1 GiB
    uncompressed over all the archives of a run).
``max_games_per_file``, ``max_parse_tokens``
    limits on what one file may cost in memory: 10 000 games, and 500 000 tokens for
    a record that needs sgfmill's full parse (variations, unusual syntax).

Run options the host adds: ``skip_bad`` (the CLI decides what to do with rejected
files) and ``jobs`` (worker processes; default and at most: the number of cores). A
records folder's ``sodos.toml`` sets neither them nor the limits.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sodos_plugin.config.options import positive_integer
from sodos_plugin.errors import ConfigError
from sodos_plugin.readers.sgf.walk import Limits

__all__ = ["KEYS", "LIMIT_KEYS", "SECTION", "SgfOptions", "parse_options"]

SECTION = '[plugin."builtin.sgf"]'
#: The bounds: set by the user, never by a records folder.
LIMIT_KEYS = (
    "max_file_bytes",
    "max_archive_members",
    "max_archive_bytes",
    "max_games_per_file",
    "max_parse_tokens",
)
KEYS = (
    "event",
    "aliases",
    "bye_name",
    "byes",
    "rounds",
    "fallback_encoding",
    *LIMIT_KEYS,
)
RUN_KEYS = ("skip_bad", "jobs")
MAX_ROUNDS = 99


@dataclass(frozen=True)
class SgfOptions:
    event: str | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    bye_name: str | None = None
    byes: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    rounds: int | None = None
    fallback_encoding: str = "ISO-8859-1"
    limits: Limits = field(default_factory=Limits)
    jobs: int | None = None


def _fail(key: str, message: str, source: str) -> ConfigError:
    return ConfigError(message, source=source, where=key)  # the key named once


def _string(value: Any, key: str, source: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(key, f"expected a non-empty string, got {value!r}", source)
    return value.strip()


def parse_options(options: Mapping[str, Any], source: str = SECTION) -> SgfOptions:
    """Validate the reader's options; :class:`ConfigError` names the key."""
    unknown = sorted(set(options) - set(KEYS) - set(RUN_KEYS))
    if unknown:
        raise _fail(unknown[0], f"unknown key (known: {', '.join(KEYS)})", source)
    values: dict[str, Any] = {}
    if options.get("event") is not None:
        values["event"] = _string(options["event"], "event", source)
    if options.get("aliases") is not None:
        raw = options["aliases"]
        if not isinstance(raw, Mapping):
            raise _fail("aliases", 'expected a table of "old name" = "player name"', source)
        aliases = {}
        for old, new in raw.items():
            aliases[_string(old, "aliases", source)] = _string(new, f"aliases.{old}", source)
        values["aliases"] = aliases
    if options.get("bye_name") is not None:
        values["bye_name"] = _string(options["bye_name"], "bye_name", source)
    if options.get("byes") is not None:
        raw = options["byes"]
        if not isinstance(raw, Mapping):
            raise _fail("byes", 'expected a table like "3" = ["Name"]', source)
        byes = {}
        for key, names in raw.items():
            text = str(key).strip()
            if not text.isdigit() or not 1 <= int(text) <= MAX_ROUNDS:
                raise _fail(f"byes.{key}", f"expected a round number 1..{MAX_ROUNDS}", source)
            if isinstance(names, str):
                names = [names]
            if not isinstance(names, (list, tuple)):
                raise _fail(f"byes.{key}", "expected a list of player names", source)
            byes[int(text)] = tuple(_string(n, f"byes.{key}", source) for n in names)
        values["byes"] = byes
    if options.get("rounds") is not None:
        rounds = positive_integer(options["rounds"], "rounds", source)
        if rounds > MAX_ROUNDS:
            raise _fail("rounds", f"expected at most {MAX_ROUNDS}", source)
        values["rounds"] = rounds
    if options.get("fallback_encoding") is not None:
        name = _string(options["fallback_encoding"], "fallback_encoding", source)
        try:
            info = codecs.lookup(name)
        except (LookupError, ValueError):  # ValueError: a NUL in the name
            raise _fail("fallback_encoding", f"unknown encoding {name!r}", source) from None
        if not getattr(info, "_is_text_encoding", True):  # rot13, base64: bytes transforms
            raise _fail("fallback_encoding", f"{name!r} is not a text encoding", source)
        values["fallback_encoding"] = name
    limits = {}
    for key in LIMIT_KEYS:
        if options.get(key) is not None:
            limits[key] = positive_integer(options[key], key, source)
    jobs = options.get("jobs")
    if jobs is not None:
        jobs = positive_integer(jobs, "jobs", "")
    return SgfOptions(**values, limits=Limits(**limits), jobs=jobs)
