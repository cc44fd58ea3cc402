"""JSON out: the one encoder of every document sodos writes (msgspec, at C speed).

Contract:

* :func:`encode` gives a document (a :mod:`msgspec` Struct of :mod:`sodos_plugin.schemas`,
  or plain dicts, lists, strings, numbers) as the text every JSON output of sodos has
  had since its format's version 1: ``json.dumps(document, ensure_ascii=False,
  indent=1)``, byte for byte, then made safe to show
  (:func:`sodos_plugin.util.textsafe.json_text`: C1 controls, DEL, bidi overrides, line
  separators, lone surrogates written as JSON escapes; the same values for a JSON
  reader). No newline at the end.
* :func:`encode_line` is one line with the json module's spaces (``{"a": 1, "b": [2]}``,
  ``ensure_ascii=False``, nothing escaped beyond JSON's own): the element lines of a
  JSON tournament (``sodos convert``). :func:`encode_ascii` is that line with every
  character beyond ASCII escaped (``json.dumps(document)``): the error answers.
* Numbers: integers as they are; floats as Python's ``repr`` writes them (``2.5``,
  ``1e-06``, ``5.999e-05``, ``1e+16``), which is what every value of the formats is
  checked against (exact fractions: halves, quarters; ratings: shortest decimals).
  msgspec writes the same digits (shortest round trip) but other exponents outside
  1e-4 ≤ |x| < 1e16; those few numbers are rewritten (:func:`_python_floats`).
* What msgspec cannot encode (a string with a lone surrogate, which UTF-8 cannot hold)
  is encoded by the json module instead, to the same text.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from sodos_plugin.util.textsafe import json_text


def _number(value: Any) -> Any:
    """A number of another type than ``int``/``float`` (numpy's ``float64``, ``int64``:
    rating systems compute with numpy) as the plain number the json module writes."""
    if isinstance(value, float):
        return float(value)
    if hasattr(value, "__index__"):
        return value.__index__()
    if hasattr(value, "__float__") and hasattr(value, "dtype"):  # numpy's float32
        return float(value)
    raise TypeError(f"cannot write a {type(value).__name__} as JSON")


_encoder = msgspec.json.Encoder(enc_hook=_number)
_encode = _encoder.encode
_format = msgspec.json.format

#: What starts a float msgspec writes otherwise than ``repr`` (an exponent, or a value
#: below 1e-4): ``e`` then a digit or ``-`` (msgspec writes no ``+`` and no ``E``), or
#: ``0.0000``. Looked for at C speed (a pattern with a literal first byte, a find);
#: most documents have none.
_EXPONENT = re.compile(rb"e[-0-9]")
_SMALL = b"0.0000"
_ODD = rb"-?(?:\d+(?:\.\d+)?e-?\d+|0\.0000\d*)"
#: A line of the indented layout whose value is such a float: every value is alone on
#: its line, after the indentation or after its key, and strings never hold a raw
#: newline, so a line that holds a string never matches.
_ODD_LINE = re.compile(rb' *(?:"(?:[^"\\]|\\.)*": )?(' + _ODD + rb"),?")
#: Strings and numbers of a one-line document, for the careful rewrite.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
_NOT_ASCII = re.compile(r"[^\x00-\x7e]")  # DEL too, as json.dumps escapes it


def _repr_float(token: bytes) -> bytes:
    return repr(float(token)).encode("ascii")


def _candidates(data: bytes) -> set[int]:
    """Where the lines start that may hold an odd float."""
    found = {data.rfind(b"\n", 0, m.start()) + 1 for m in _EXPONENT.finditer(data)}
    at = data.find(_SMALL)
    while at != -1:
        found.add(data.rfind(b"\n", 0, at) + 1)
        at = data.find(_SMALL, at + len(_SMALL))
    return found


def _python_floats(data: bytes) -> bytes:
    """The indented text with each odd float written as ``repr`` writes it."""
    lines = _candidates(data)
    if not lines:
        return data
    parts, done = [], 0
    for start in sorted(lines):
        end = data.find(b"\n", start)
        match = _ODD_LINE.fullmatch(data, start, len(data) if end == -1 else end)
        if match:
            parts += [data[done : match.start(1)], _repr_float(match[1])]
            done = match.end(1)
    parts.append(data[done:])
    return b"".join(parts)


def _python_floats_line(data: bytes) -> bytes:
    """The same for one line: numbers told from strings by a full scan (rare)."""
    if _SMALL not in data and not _EXPONENT.search(data):
        return data

    def token(m: re.Match) -> bytes:
        text = m[0]
        if text[:1] == b'"' or not (b"." in text or b"e" in text or b"E" in text):
            return text
        return _repr_float(text)

    return _TOKENS.sub(token, data)


def _safe(data: bytes) -> bytes:
    """:func:`json_text` on UTF-8 JSON text: ASCII text is safe but for DEL."""
    if data.isascii():
        return data.replace(b"\x7f", b"\\u007f") if b"\x7f" in data else data
    return json_text(data.decode("utf-8")).encode("utf-8")


def builtins(document: Any) -> Any:
    """The document as plain data: dicts, lists, strings, ints, floats, None (the
    ``as_dict()`` of the host API)."""
    return msgspec.to_builtins(document, enc_hook=_number)


def encode(document: Any) -> bytes:
    """The document, indented by one space a level, safe to show (module docstring)."""
    try:
        data = _format(_encode(document), indent=1)
    except UnicodeEncodeError:  # a lone surrogate: the json module keeps it, json_text escapes it
        text = json.dumps(builtins(document), ensure_ascii=False, indent=1)
        return json_text(text).encode("utf-8")
    return _safe(_python_floats(data))


def encode_text(document: Any) -> str:
    """:func:`encode` as text (for writers and streams)."""
    return encode(document).decode("utf-8")


def encode_line(document: Any) -> str:
    """One line, the json module's spaces, ``ensure_ascii=False`` (module docstring)."""
    try:
        data = _format(_encode(document), indent=0)
    except UnicodeEncodeError:
        return json.dumps(builtins(document), ensure_ascii=False)
    return _python_floats_line(data).decode("utf-8")


def encode_ascii(document: Any) -> bytes:
    """One line in ASCII, as ``json.dumps(document)`` writes it (module docstring)."""
    text = encode_line(document)
    if not text.isascii() or "\x7f" in text:
        text = _NOT_ASCII.sub(_escape, text)
    return text.encode("ascii")


def _escape(match: re.Match) -> str:
    code = ord(match[0])
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON spells characters beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
