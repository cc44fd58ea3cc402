"""Scan SGF bytes into the raw property maps of each game's root node.

Contract: :func:`scan_roots` returns, for every game of a collection, the root
node's *raw property map* — ``{PropIdent: [raw value bytes, ...]}`` exactly as
sgfmill's ``sgf_grammar`` builds it (lower-case letters dropped from idents,
repeated idents merged, values without brackets, escapes untouched) — or raises
:class:`ValueError` with sgfmill's message when sgfmill cannot parse the data.

Two paths, one answer:

* :func:`scan_fast` reads the root node only (it stops at the first node
  boundary), then proves the rest of the game is well formed with a check that
  runs at C speed: a plain move list (``;B[pd];W[dp]...)``, whitespace anywhere)
  is checked with byte slices, any other linear game with one regular expression.
  Whatever it cannot prove (variations, unusual tokens, errors) it does not
  judge: it returns ``None``.
* :func:`scan_full` is sgfmill's own parser (``parse_sgf_collection``), used when
  the fast scan returns ``None``. It is also the oracle of the differential tests.

Every pattern mirrors sgfmill's tokeniser (``sgf_grammar._tokenise_re``):
``\\s`` is ASCII whitespace, a value is ``[`` ... first unescaped ``]``, an ident
is 1..64 ASCII letters.
"""

from __future__ import annotations

import re
import string

from sgfmill import sgf_grammar

__all__ = ["RawRoot", "scan_fast", "scan_full", "scan_roots"]

RawRoot = dict[str, list[bytes]]

_VALUE = rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"
# sgfmill's start of a game: "(" then ";" with optional whitespace between.
_START = re.compile(rb"\(\s*;")
# The root node's properties, then a node boundary (";", "(" or ")") must follow.
_ROOT = re.compile(rb"(?:\s*[A-Za-z]{1,64}(?:\s*" + _VALUE + rb")+)*\s*(?=[;()])", re.DOTALL)
_PROP = re.compile(rb"([A-Za-z]{1,64})((?:\s*" + _VALUE + rb")+)", re.DOTALL)
_VAL = re.compile(rb"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)


def _compile_tail() -> re.Pattern[bytes]:
    """Nodes without variations up to the game's closing ")" (possessive when available)."""
    possessive = (
        rb"(?:\s*+;(?:\s*+[A-Za-z]{1,64}+(?:\s*+\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])++)*+)*+\s*+\)"
    )
    try:  # Python >= 3.11: possessive quantifiers never backtrack
        return re.compile(possessive, re.DOTALL)
    except re.error:  # pragma: no cover - Python 3.10: the same language, backtracking
        plain = rb"(?:\s*;(?:\s*[A-Za-z]{1,64}(?:\s*" + _VALUE + rb")+)*)*\s*\)"
        return re.compile(plain, re.DOTALL)


_TAIL = _compile_tail()
_WHITESPACE = b" \t\n\r\x0b\x0c"  # what \s matches in a bytes pattern
_LOWER = string.ascii_lowercase.encode()


def _plain_moves(tail: bytes) -> bool:
    """True when ``tail`` is ``;X[ab]`` nodes then ``)``, whitespace aside.

    Deleting whitespace changes no token outside values (idents here are one
    letter between ";" and "["), and values hold no "]" or "\\", so sgfmill
    tokenises the original into the same nodes: valid, ending the game.
    """
    packed = tail.translate(None, _WHITESPACE)
    if not packed.endswith(b")"):
        return False
    units = packed[:-1]
    n = len(units)
    if n % 6:
        return False
    k = n // 6
    if k == 0:
        return True
    if units[0::6] != b";" * k or units[2::6] != b"[" * k or units[5::6] != b"]" * k:
        return False
    if not units[1::6].isalpha():
        return False
    inside = units[3::6] + units[4::6]
    return b"]" not in inside and b"\\" not in inside


def _root_map(body: bytes) -> RawRoot:
    props: RawRoot = {}
    for ident, values in _PROP.findall(body):
        key = ident.translate(None, _LOWER).decode("ascii")
        found = _VAL.findall(values)
        if key in props:
            props[key] += found
        else:
            props[key] = found
    return props


def scan_fast(data: bytes) -> list[RawRoot] | None:
    """Root property maps of all games, or ``None`` when the fast scan cannot decide."""
    roots: list[RawRoot] = []
    start = _START.search(data)
    if start is None:
        return None
    while start is not None:
        pos = start.end()
        root = _ROOT.match(data, pos)
        if root is None:
            return None
        boundary = root.end()
        roots.append(_root_map(data[pos:boundary]))
        if not roots[1:] and _plain_moves(data[boundary:]):
            return roots  # one game, nothing after its ")" but whitespace
        tail = _TAIL.match(data, boundary)
        if tail is None:
            return None
        start = _START.search(data, tail.end())
    return roots


def scan_full(data: bytes) -> list[RawRoot]:
    """sgfmill's parse of the whole collection; :class:`ValueError` as sgfmill raises it."""
    return [tree.sequence[0] for tree in sgf_grammar.parse_sgf_collection(data)]


def scan_roots(data: bytes) -> tuple[list[RawRoot], bool]:
    """``(roots, fast)``: the fast scan when it decides, else sgfmill's full parse."""
    roots = scan_fast(data)
    if roots is not None:
        return roots, True
    return scan_full(data), False
