"""Checks a decoded JSON document against the JSON Schema files this package ships.

Contract: :func:`compile_schema` turns a schema (the subset of JSON Schema 2020-12 our
schema files use) into a checker; ``checker(value)`` returns nothing for a valid
document and raises :class:`ShapeError` naming the first bad value by its JSON path
(``games[12].white``) and what was expected. It agrees with a full JSON Schema
validator on that subset (tests/readers/test_json_tournament.py proves it with ``jsonschema``);
a keyword outside the subset is refused when compiling, never ignored.

Supported: ``type``, ``properties``, ``required``, ``additionalProperties`` (false or a
schema), ``items``, ``minItems``/``maxItems``, ``enum``, ``const``, ``minimum``/``maximum``,
``minLength``/``maxLength``, ``anyOf``, ``$ref`` to ``#/$defs/...``; annotations
(``description``, ``title``, ``$id``, ...) are ignored.

Run-time cost: the schema is compiled once into closures; a valid document is walked
once, and a path is built only for the error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from sodos_plugin.util.suggest import closest

ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "$defs"})
KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "enum",
        "const",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "anyOf",
        "$ref",
    }
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ShapeError(ValueError):
    """A value that does not fit the schema: ``path`` (list of keys and indexes), ``message``."""

    def __init__(self, message: str, path: list[str | int] | None = None):
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = path or []

    @property
    def where(self) -> str:
        return json_path(self.path)


class DuplicateKeys(dict):
    """An object that had a key twice in the text (see :func:`object_pairs`)."""

    duplicate: str = ""


def object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads(object_pairs_hook=...)``: keeps a key given twice visible to the check."""
    result = dict(pairs)
    if len(result) != len(pairs):
        marked = DuplicateKeys(result)
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                marked.duplicate = key
                break
            seen.add(key)
        return marked
    return result


def json_path(path: list[str | int]) -> str:
    """``["games", 12, "white"]`` → ``games[12].white``; the document itself is ``$``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}" if text else part
        else:
            quoted = part.replace("\\", "\\\\").replace('"', '\\"')
            text += f'["{shown(quoted, 40)[1:-1]}"]'
    return text or "$"


def shown(value: Any, limit: int = 40) -> str:
    """A value for a message: JSON-like, short, control characters escaped."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value)  # repr escapes control and bidi characters
        text = '"' + text[1:-1].replace('"', '\\"') + '"' if text[0] == "'" else text
    elif isinstance(value, (int, float)):
        text = repr(value) if isinstance(value, float) or abs(value) < 10**30 else "a huge number"
    elif isinstance(value, list):
        text = f"an array of {len(value)}"
    elif isinstance(value, dict):
        text = "an object"
    else:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


_TYPE_TEST: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: v is True or v is False,
    "integer": lambda v: (type(v) is int) or (type(v) is float and v.is_integer()),
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: type(v) is str,
    "array": lambda v: type(v) is list,
    "object": lambda v: isinstance(v, dict),
}
_TYPE_WORDS = {
    "null": "null",
    "boolean": "true or false",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}


def json_type(value: Any) -> str:
    """The JSON Schema type of a decoded value (integers are integers, 2.0 included)."""
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPE_TEST[name](value):
            return name
    return type(value).__name__


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b and (isinstance(a, (int, float)) == isinstance(b, (int, float)))


Checker = Callable[[Any], None]


class _Compiler:
    def __init__(self, root: Mapping[str, Any]):
        self.root = root
        self.refs: dict[str, Checker] = {}

    def ref(self, pointer: str) -> Checker:
        if pointer in self.refs:
            return self.refs[pointer]
        if not pointer.startswith("#/$defs/"):
            raise ValueError(f"unsupported $ref {pointer!r} (only #/$defs/...)")
        target = self.root.get("$defs", {}).get(pointer[len("#/$defs/") :])
        if target is None:
            raise ValueError(f"$ref {pointer!r}: no such definition")
        holder: list[Checker] = []
        self.refs[pointer] = lambda value: holder[0](value)  # recursion-safe
        holder.append(self.compile(target))
        self.refs[pointer] = holder[0]
        return holder[0]

    def types_of(self, schema: Mapping[str, Any]) -> set[str] | None:
        """The JSON types a schema can accept (None: any), for anyOf's messages."""
        if "$ref" in schema:
            name = schema["$ref"][len("#/$defs/") :]
            return self.types_of(self.root["$defs"][name])
        if "type" in schema:
            kinds = schema["type"]
            found = {kinds} if isinstance(kinds, str) else set(kinds)
            # json_type says "integer" for 3 and 2.0: a number schema takes them too
            return found | ({"integer"} if "number" in found else set())
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else schema["enum"]
            return {json_type(v) for v in values}
        if "anyOf" in schema:
            found = set()
            for branch in schema["anyOf"]:
                kinds = self.types_of(branch)
                if kinds is None:
                    return None
                found |= kinds
            return found
        return None

    def compile(self, schema: Mapping[str, Any]) -> Checker:
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"unsupported schema keyword(s): {', '.join(sorted(unknown))}")
        if "$ref" in schema:
            return self.ref(schema["$ref"])
        checks: list[Checker] = []
        if "type" in schema:
            checks.append(self._type(schema["type"]))
        if "const" in schema:
            checks.append(self._enum([schema["const"]]))
        if "enum" in schema:
            checks.append(self._enum(list(schema["enum"])))
        if "minimum" in schema or "maximum" in schema:
            checks.append(self._range(schema.get("minimum"), schema.get("maximum")))
        if "minLength" in schema or "maxLength" in schema:
            checks.append(self._length(schema.get("minLength", 0), schema.get("maxLength")))
        if "anyOf" in schema:
            checks.append(self._any_of(schema["anyOf"]))
        if "items" in schema or "minItems" in schema or "maxItems" in schema:
            checks.append(self._array(schema))
        if {"properties", "required", "additionalProperties"} & set(schema):
            checks.append(self._object(schema))
        if len(checks) == 1:
            return checks[0]

        def check_all(value: Any) -> None:
            for check in checks:
                check(value)

        return check_all

    def _type(self, kinds: str | list[str]) -> Checker:
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        tests = [_TYPE_TEST[name] for name in names]
        expected = " or ".join(_TYPE_WORDS[name] for name in names)

        def check(value: Any) -> None:
            for test in tests:
                if test(value):
                    return
            raise ShapeError(f"expected {expected}, got {shown(value)}")

        return check

    def _enum(self, values: list[Any]) -> Checker:
        if len(values) == 1:
            expected = f"expected {shown(values[0])}"
        else:
            expected = "expected one of " + ", ".join(shown(v) for v in values)

        def check(value: Any) -> None:
            for allowed in values:
                if _json_equal(value, allowed):
                    return
            raise ShapeError(f"{expected}, got {shown(value)}")

        return check

    def _range(self, low: float | None, high: float | None) -> Checker:
        def check(value: Any) -> None:
            if type(value) not in (int, float):
                return
            if (low is not None and value < low) or (high is not None and value > high):
                bounds = f"{'' if low is None else low}..{'' if high is None else high}"
                raise ShapeError(f"expected a value in {bounds}, got {shown(value)}")

        return check

    def _length(self, low: int, high: int | None) -> Checker:
        def check(value: Any) -> None:
            if type(value) is not str:
                return
            if len(value) < low:
                raise ShapeError("must not be empty" if low == 1 else f"shorter than {low}")
            if high is not None and len(value) > high:
                raise ShapeError(f"longer than {high} characters")

        return check

    def _any_of(self, branches: list[Mapping[str, Any]]) -> Checker:
        compiled = [(self.types_of(b), self.compile(b)) for b in branches]
        words = []
        for kinds, _ in compiled:
            for kind in sorted(kinds or ()):
                if kind == "number" and "integer" in (kinds or ()):
                    continue
                if _TYPE_WORDS.get(kind) and _TYPE_WORDS[kind] not in words:
                    words.append(_TYPE_WORDS[kind])
        expected = " or ".join(words) or "another value"

        def check(value: Any) -> None:
            kind = json_type(value)
            fitting = []
            for kinds, branch in compiled:
                if kinds is not None and kind not in kinds:
                    continue
                try:
                    branch(value)
                    return
                except ShapeError as error:
                    fitting.append(error)
            if fitting:  # the value has a type a branch takes: that branch's reason
                raise fitting[0]
            raise ShapeError(f"expected {expected}, got {shown(value)}")

        return check

    def _array(self, schema: Mapping[str, Any]) -> Checker:
        item = self.compile(schema["items"]) if "items" in schema else None
        low, high = schema.get("minItems", 0), schema.get("maxItems")

        def check(value: Any) -> None:
            if type(value) is not list:
                return
            if len(value) < low:
                raise ShapeError(f"needs at least {low} items")
            if high is not None and len(value) > high:
                raise ShapeError(f"more than {high} items")
            if item is None:
                return
            for index, element in enumerate(value):
                try:
                    item(element)
                except ShapeError as error:
                    error.path.insert(0, index)
                    raise

        return check

    def _object(self, schema: Mapping[str, Any]) -> Checker:
        properties = {k: self.compile(v) for k, v in schema.get("properties", {}).items()}
        required = list(schema.get("required", ()))
        extra = schema.get("additionalProperties", True)
        other = None if extra is False or extra is True else self.compile(extra)
        known = sorted(properties)

        def unknown(key: str) -> ShapeError:
            close = closest(key, known)
            hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(known)}"
            return ShapeError(f"unknown field ({hint})", [key])

        def check(value: Any) -> None:
            if not isinstance(value, dict):
                return
            if type(value) is DuplicateKeys:
                raise ShapeError("given twice in one object", [value.duplicate])
            for key, element in value.items():
                check_one = properties.get(key)
                if check_one is None:
                    if extra is False:
                        raise unknown(key)
                    if other is None:
                        continue
                    check_one = other
                try:
                    check_one(element)
                except ShapeError as error:
                    error.path.insert(0, key)
                    raise
            for name in required:
                if name not in value:
                    raise ShapeError("missing (required)", [name])

        return check


def compile_schema(schema: Mapping[str, Any]) -> Checker:
    """A checker for ``schema`` (raises ValueError for a keyword outside the subset)."""
    return _Compiler(schema).compile(schema)
