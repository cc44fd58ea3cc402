"""JSON output: the shape other tools rely on (numbers as JSON numbers, 2.5 not "2½").

Strings keep every character of the input, and are safe to print on a terminal:
besides what JSON itself escapes (``"``, ``\\``, C0 controls), every character that
:func:`sodos_plugin.util.textsafe.printable` escapes for display (DEL, C1 controls such as
CSI, bidi overrides, line separators, lone surrogates) is written as a JSON escape
(``\\u009b``, :func:`sodos_plugin.util.textsafe.json_text`): the same string for a JSON
reader, no terminal sequence for a viewer.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any, TextIO

from sodos_hookspecs import Writer, hookimpl

from sodos_plugin.engine.standings import Standings
from sodos_plugin.util.textsafe import json_text

INDENT = 1


class _Unusual(Exception):
    """A value :func:`dumps` leaves to the json module (a subclass, a non-string key)."""


def _dumps(value: Any, depth: int) -> str:
    kind = value.__class__
    if kind is str:
        return encode_basestring(value)
    if kind is dict or kind is list or kind is tuple:
        if not value:
            return "{}" if kind is dict else "[]"
        inner = "\n" + " " * (INDENT * (depth + 1))
        if kind is dict:
            for key in value:
                if key.__class__ is not str:
                    raise _Unusual
            parts = [
                encode_basestring(k)
                + ": "
                + (
                    encode_basestring(v)
                    if v.__class__ is str
                    else int.__repr__(v)
                    if v.__class__ is int
                    else _dumps(v, depth + 1)
                )
                for k, v in value.items()
            ]
            opening, closing = "{", "}"
        else:
            parts = [_dumps(v, depth + 1) for v in value]
            opening, closing = "[", "]"
        return opening + inner + ("," + inner).join(parts) + "\n" + " " * (INDENT * depth) + closing
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise _Unusual


def dumps(document: Any) -> str:
    """``json.dumps(document, ensure_ascii=False, indent=1)``, the same text, built by
    joining each container's parts once (the json module's indenting encoder is pure
    Python and yields every token through nested generators: ~5x slower on 5 000
    players). Anything but plain dicts with string keys, lists, tuples, strings,
    integers, floats, booleans and None is left to the json module, whole."""
    try:
        return _dumps(document, 0)
    except (_Unusual, RecursionError):
        return json.dumps(document, ensure_ascii=False, indent=INDENT)


def write(standings: Standings, stream: TextIO) -> None:
    stream.write(json_text(dumps(standings.as_dict())))
    stream.write("\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("json", "JSON standings for programs", write)]
