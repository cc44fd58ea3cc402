"""What is wrong with a decoded document, said as a person fixes it: the JSON path of
the bad value (``games[12].white``) and what was expected there.

Contract: documents are decoded by msgspec against their types
(:mod:`sodos_plugin.schemas.tournament`), at C speed. When that fails, :func:`problem`
turns msgspec's error (the path of the first bad value, in document order) and the
document (decoded by the json module, so that every value is at hand) into the message
sodos gives: the first check of that value that fails, in the order a JSON Schema
validator runs them (type, allowed values, range, length, items, members), worded from
the same types:

* ``expected an integer, got 1.5``; ``expected an integer or a string, got null``;
* ``expected one of "B+", "W+", ..., got "W+R"``; ``expected 1, got "1"``;
* ``expected a value in 1..64, got 0``; ``must not be empty``; ``longer than 200
  characters``; ``more than 64 items``;
* ``unknown field (did you mean name?)`` at the unknown key; ``missing (required)`` at
  the missing one; ``given twice in one object`` at a key given twice
  (:func:`first_duplicate`, found by :func:`object_pairs` when decoding).

:func:`integral_floats` makes ``2.0`` an integer where the types want one (JSON Schema
counts it as one; msgspec does not). Values in messages are shown by :func:`shown`:
short, JSON-like, control characters escaped.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

import msgspec
from msgspec import inspect as mi

from sodos_plugin.util.suggest import closest

__all__ = [
    "DuplicateKeys",
    "first_duplicate",
    "integral_floats",
    "json_path",
    "object_pairs",
    "problem",
    "shown",
]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH = re.compile(r" - at `\$(.*)`$")
_KEY_PATH = re.compile(r" - at `key` in `\$(.*)`$")
#: msgspec's step into a mapping's value (``[...]``: it does not say which key).
_SOME_KEY = object()
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[\.\.\.\]")

Path = list  # of str (keys) and int (indexes)


class DuplicateKeys(dict):
    """An object that had a key twice in the text (see :func:`object_pairs`)."""

    duplicate: str = ""


def object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads(object_pairs_hook=...)``: keeps a key given twice visible."""
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


def json_path(path: Path) -> str:
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


# -- the types, as msgspec describes them ---------------------------------------------


@cache
def type_info(kind: Any) -> mi.Type:
    return mi.type_info(kind)


def _bare(node: mi.Type) -> mi.Type:
    while isinstance(node, mi.Metadata):
        node = node.type
    return node


def _branches(node: mi.Type) -> tuple[mi.Type, ...]:
    node = _bare(node)
    if isinstance(node, mi.UnionType):
        return tuple(b for t in node.types for b in _branches(t))
    return (node,)


def json_kind(value: Any) -> str:
    """The JSON Schema type of a decoded value (integers are integers, 2.0 included)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if type(value) is int or (type(value) is float and value.is_integer()):
        return "integer"
    if type(value) is float:
        return "number"
    if type(value) is str:
        return "string"
    if type(value) is list:
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _values(node: mi.Type) -> tuple[Any, ...]:
    if isinstance(node, mi.EnumType):
        return tuple(member.value for member in node.cls)
    return tuple(node.values)


def _kinds(node: mi.Type) -> set[str]:
    """The JSON types a branch takes."""
    if isinstance(node, mi.IntType):
        return {"integer"}
    if isinstance(node, mi.FloatType):
        return {"integer", "number"}
    if isinstance(node, mi.StrType):
        return {"string"}
    if isinstance(node, mi.BoolType):
        return {"boolean"}
    if isinstance(node, mi.NoneType):
        return {"null"}
    if isinstance(node, (mi.LiteralType, mi.EnumType)):
        return {json_kind(v) for v in _values(node)}
    if isinstance(node, (mi.ListType, mi.TupleType, mi.VarTupleType)):
        return {"array"}
    if isinstance(node, (mi.StructType, mi.DictType)):
        return {"object"}
    return {"null", "boolean", "integer", "number", "string", "array", "object"}


_WORDS = {
    "null": "null",
    "boolean": "true or false",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}


def _word(node: mi.Type) -> list[str]:
    if isinstance(node, mi.FloatType):
        return ["a number"]
    return [_WORDS[kind] for kind in sorted(_kinds(node))]


def expected(node: mi.Type) -> str:
    """``an integer or a string``: what a value of ``node`` is, in words."""
    words: list[str] = []
    for branch in _branches(node):
        for word in _word(branch):
            if word not in words:
                words.append(word)
    if "a number" in words and "an integer" in words:  # every integer is a number
        words.remove("an integer")
    return " or ".join(words) or "another value"


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b and (isinstance(a, (int, float)) == isinstance(b, (int, float)))


# -- the first failing check of one value ---------------------------------------------


def _range(node: Any, value: Any) -> str | None:
    low = node.ge if node.ge is not None else node.gt
    high = node.le if node.le is not None else node.lt
    too_low = low is not None and (value < low if node.ge is not None else value <= low)
    too_high = high is not None and (value > high if node.le is not None else value >= high)
    if too_low or too_high or value != value:
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        return f"expected a value in {bounds}, got {shown(value)}"
    return None


def _length(node: Any, size: int, text: bool) -> str | None:
    low, high = node.min_length or 0, node.max_length
    if size < low:
        if text:
            return "must not be empty" if low == 1 else f"shorter than {low}"
        return f"needs at least {low} items"
    if high is not None and size > high:
        return f"longer than {high} characters" if text else f"more than {high} items"
    return None


def _unknown(key: str, known: list[str]) -> str:
    close = closest(key, known)
    hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(known)}"
    return f"unknown field ({hint})"


def explain(node: mi.Type, value: Any) -> tuple[Path, str] | None:
    """The first check of ``value`` against ``node`` that fails, as (the path below the
    value, the message), or None when the value fits (its members are not looked at:
    msgspec names the deepest bad value)."""
    node = _bare(node)
    got = shown(value)
    if isinstance(node, mi.UnionType):
        kind = json_kind(value)
        fitting = [b for b in _branches(node) if kind in _kinds(b)]
        if not fitting:
            return [], f"expected {expected(node)}, got {got}"
        found = [explain(b, value) for b in fitting]
        if any(f is None for f in found):
            return None
        return found[0]
    if isinstance(node, (mi.LiteralType, mi.EnumType)):
        allowed = _values(node)
        if any(_json_equal(value, v) for v in allowed):
            return None
        if len(allowed) == 1:
            return [], f"expected {shown(allowed[0])}, got {got}"
        return [], "expected one of " + ", ".join(shown(v) for v in allowed) + f", got {got}"
    kind = json_kind(value)
    if kind not in _kinds(node):
        return [], f"expected {expected(node)}, got {got}"
    if isinstance(node, (mi.IntType, mi.FloatType)):
        message = _range(node, value)
        return None if message is None else ([], message)
    if isinstance(node, mi.StrType):
        message = _length(node, len(value), True)
        return None if message is None else ([], message)
    if isinstance(node, mi.ListType):
        message = _length(node, len(value), False)
        return None if message is None else ([], message)
    if isinstance(node, mi.StructType):
        fields = {f.encode_name: f for f in node.fields}
        if node.forbid_unknown_fields:
            for key in value:
                if key not in fields:
                    return [key], _unknown(key, sorted(fields))
        for f in node.fields:
            if f.required and f.encode_name not in value:
                return [f.encode_name], "missing (required)"
    return None


# -- walking a document by its types ---------------------------------------------------


def _container(node: mi.Type, value: Any) -> mi.Type | None:
    """The branch of ``node`` that describes a container ``value`` (an object, an array)."""
    for branch in _branches(node):
        if isinstance(value, dict) and isinstance(branch, (mi.StructType, mi.DictType)):
            return branch
        if type(value) is list and isinstance(branch, mi.ListType):
            return branch
    return None


def _children(node: mi.Type, value: Any):
    """(step, child type, child value) of a container value, in document order."""
    branch = _container(node, value)
    if isinstance(branch, mi.StructType):
        fields = {f.encode_name: f.type for f in branch.fields}
        for key, child in value.items():
            if key in fields:
                yield key, fields[key], child
    elif isinstance(branch, mi.DictType):
        for key, child in value.items():
            yield key, branch.value_type, child
    elif isinstance(branch, mi.ListType):
        for index, child in enumerate(value):
            yield index, branch.item_type, child


def first_duplicate(kind: Any, value: Any) -> Path | None:
    """The path of the first key given twice in an object the types describe (document
    order, an object before its members), or None."""
    todo: list[tuple[Path, mi.Type, Any]] = [([], type_info(kind), value)]
    while todo:
        path, node, item = todo.pop()
        if type(item) is DuplicateKeys and _container(node, item) is not None:
            return [*path, item.duplicate]
        children = [([*path, step], t, child) for step, t, child in _children(node, item)]
        todo.extend(reversed(children))
    return None


def _wants_integer(node: mi.Type, number: int) -> bool:
    branches = _branches(node)
    if any(isinstance(b, mi.FloatType) for b in branches):
        return False
    return any(
        isinstance(b, mi.IntType) or (isinstance(b, mi.LiteralType) and number in b.values)
        for b in branches
    )


def integral_floats(kind: Any, value: Any) -> Any:
    """``value`` with each ``2.0`` where the types want an integer made ``2`` (in place)."""

    def walk(node: mi.Type, item: Any) -> Any:
        if type(item) is float:
            if item.is_integer() and _wants_integer(node, int(item)):
                return int(item)
            return item
        if isinstance(item, (dict, list)):
            for step, child_type, child in list(_children(node, item)):
                item[step] = walk(child_type, child)
        return item

    return walk(type_info(kind), value)


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """A copy of ``value`` with each lone surrogate of its strings (keys too) as U+FFFD:
    the same shape, which msgspec can put in words."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    return value


def _position(value: Any, path: Path) -> tuple[float, ...]:
    """Where ``path`` is in document order: each step's index among its siblings."""
    out: list[float] = []
    for step in path:
        if isinstance(value, dict) and step in value:
            out.append(list(value).index(step))
            value = value[step]
        elif type(value) is list and isinstance(step, int) and step < len(value):
            out.append(step)
            value = value[step]
        else:  # a missing member: after the present ones
            out.append(math.inf)
            break
    return tuple(out)


def _error_path(error: msgspec.ValidationError) -> Path:
    """The path msgspec names: a mapping's value as :data:`_SOME_KEY`; a bad key of a
    mapping ends the path with it too."""
    text = str(error)
    match = _PATH.search(text)
    key_match = None if match else _KEY_PATH.search(text)
    if not match and not key_match:
        return []
    steps: Path = []
    for key, index in _STEP.findall((match or key_match)[1]):
        steps.append(int(index) if index else key if key else _SOME_KEY)
    if key_match:
        steps.append(_SOME_KEY)
    return steps


def _fits(node: mi.Type, value: Any) -> bool:
    """Whether a mapping's key or value passes the checks :func:`explain` spells and a
    string's pattern."""
    bare = _bare(node)
    if isinstance(bare, mi.StrType) and bare.pattern and isinstance(value, str):
        return re.search(bare.pattern, value) is not None and explain(node, value) is None
    return explain(node, value) is None


def _bad_entry(branch: mi.DictType, item: dict, key_error: bool) -> Any:
    """The first key of a mapping whose key (or value) does not fit its type."""
    for key, child in item.items():
        if not _fits(
            branch.key_type if key_error else branch.value_type, key if key_error else child
        ):
            return key
    return next(iter(item), "")


def problem(kind: Any, value: Any, error: msgspec.ValidationError | None) -> tuple[Path, str]:
    """(path, message) of what is wrong with ``value`` (decoded by the json module, with
    :func:`object_pairs`) as a ``kind``: msgspec's ``error`` (None: it found nothing)
    or a key given twice, whichever a validator walking the document meets first."""
    duplicate = first_duplicate(kind, value)
    found: tuple[Path, str] | None = None
    if error is not None:
        path = _error_path(error)
        key_error = _KEY_PATH.search(str(error)) is not None
        node, item = type_info(kind), value
        for position, step in enumerate(path):
            branch = _container(node, item)
            if isinstance(branch, mi.StructType):
                fields = {f.encode_name: f.type for f in branch.fields}
                node = fields.get(step, mi.AnyType())
            elif isinstance(branch, mi.DictType):
                if step is _SOME_KEY:
                    last = key_error and position == len(path) - 1
                    step = path[position] = _bad_entry(branch, item, last)
                    if last:  # the key is wrong: said at its mapping, naming it
                        path.pop()
                        text = str(error).split(" - at `", 1)[0]
                        found = (path, f"key {shown(step)}: {text[:1].lower()}{text[1:]}")
                        break
                node = branch.value_type
            elif isinstance(branch, mi.ListType):
                node = branch.item_type
            else:
                break
            try:
                item = item[step]
            except (KeyError, IndexError, TypeError):
                break
        below = None if found is not None else explain(node, item)
        if found is None and below is None:  # msgspec's words, for a check not spelt here
            text = str(error).split(" - at `", 1)[0]
            found = (path, text[:1].lower() + text[1:])
        elif found is None and below is not None:
            found = ([*path, *below[0]], below[1])
    if duplicate is not None:
        if found is None:
            return duplicate, "given twice in one object"
        # the object with the duplicate is met when it is entered; a missing member when
        # its object is left (after every member): compare those points
        at = _position(value, found[0])  # a missing member is at infinity
        if _position(value, duplicate[:-1]) <= at:
            return duplicate, "given twice in one object"
    return found if found is not None else ([], "not a valid document")
