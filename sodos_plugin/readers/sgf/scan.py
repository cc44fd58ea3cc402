"""Scan SGF bytes into the raw properties of each game's root node.

Contract: :func:`scan_roots` returns, for every game of a collection, the root
node's properties as a :data:`RawRoot` — ``{ident: value}`` where ``ident`` is the
PropIdent as sgfmill's ``sgf_grammar`` reads it (ASCII bytes, lower-case letters
dropped: ``PlayerBlack`` → ``PB``) and ``value`` is the raw value (no brackets,
escapes untouched) or, for a property with several values (a repeated ident adds
its values, as sgfmill merges them), the list of raw values — or raises
:class:`ValueError` with sgfmill's message when sgfmill cannot parse the data.
:func:`as_lists` gives the map in sgfmill's own form (every value a list).

Two paths, one answer:

* :func:`scan_fast` reads the root node only (it stops at the first node
  boundary), then proves the rest of the game is well formed with a check that
  runs at C speed: a plain move list (``;B[pd];W[dp]...)``, whitespace anywhere,
  or OGS's one-variation-per-move nesting) is checked with one ``translate`` and
  one comparison, any other linear game with one regular expression. Whatever it
  cannot prove (other variations, unusual tokens, errors) it does not judge: it
  returns ``None``.
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

__all__ = [
    "RawRoot",
    "as_lists",
    "from_lists",
    "scan_fast",
    "scan_full",
    "scan_roots",
    "scan_single",
    "TooManyGames",
]

RawRoot = dict[bytes, "bytes | list[bytes]"]

_VALUE = rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"
_WHITESPACE = b" \t\n\r\x0b\x0c"  # what \s matches in a bytes pattern
_LOWER = string.ascii_lowercase.encode()
# sgfmill's start of a game: "(" then ";" with optional whitespace between.
_START = re.compile(rb"\(\s*;")
# The root node's properties, then a node boundary (";", "(" or ")") must follow.
_ROOT = re.compile(rb"(?:\s*[A-Za-z]{1,64}(?:\s*" + _VALUE + rb")+)*\s*(?=[;()])", re.DOTALL)
# One property: its ident and its values, brackets included; and one value.
_PROP = re.compile(rb"([A-Za-z]{1,64})\s*(" + _VALUE + rb"(?:\s*" + _VALUE + rb")*)", re.DOTALL)
_ONE_VALUE = re.compile(rb"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)
_CLOSE_AS_OPEN = bytes.maketrans(b"]", b"[")


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


def _compile_simple_root() -> re.Pattern[bytes]:
    """A simple root: ``ID[value]`` properties (no ``\\``, ``[`` or ``]`` in a value), then
    whitespace up to a node boundary (``;``, ``(`` or ``)``, not consumed)."""
    possessive = rb"(?:\s*+[A-Z]{1,64}+\s*+\[[^\\\[\]]*+\])++\s*+(?=[;()])"
    try:  # Python >= 3.11
        return re.compile(possessive)
    except re.error:  # pragma: no cover - Python 3.10: the same language, backtracking
        return re.compile(rb"(?:\s*[A-Z]{1,64}\s*\[[^\\\[\]]*\])+\s*(?=[;()])")


_SIMPLE_ROOT = _compile_simple_root()


def _move_table() -> bytes:
    """Byte classes for :func:`_plain_moves`: letters → ``U``/``l``, ``;[]()`` kept, rest ``?``."""
    table = bytearray(b"?" * 256)
    for c in string.ascii_uppercase.encode():
        table[c] = ord("U")
    for c in _LOWER:
        table[c] = ord("l")
    for c in b";[]()":
        table[c] = c
    return bytes(table)


_MOVE_CLASSES = _move_table()
_PLAIN_SHAPES: dict[int, bytes] = {}
_BRACKET_PAIRS: dict[int, bytes] = {}


def _repeat(cache: dict[int, bytes], unit: bytes, k: int, end: bytes = b"") -> bytes:
    found = cache.get(k)
    if found is None:
        found = unit * k + end
        if len(cache) < 4096:
            cache[k] = found
    return found


def _plain_moves(tail: bytes) -> bool:
    """True when ``tail`` is ``;B[ab]`` nodes (upper-case ident, two lower-case letters)
    then ``)``, whitespace aside.

    Deleting whitespace changes no token outside values (each ident is one letter
    between ";" and "["), and values hold only letters, so sgfmill tokenises the
    original into the same nodes: valid, ending the game.
    """
    shape = tail.translate(_MOVE_CLASSES, _WHITESPACE)
    k, extra = divmod(len(shape) - 1, 6)
    if not extra and k >= 0 and shape == _repeat(_PLAIN_SHAPES, b";U[ll]", k, b")"):
        return True
    return _nested_moves(shape)


def _nested_moves(shape: bytes) -> bool:
    """OGS writes each move as a nested variation: ``;B[qd](;W[dp](;B[pp]))))``.

    In byte classes: ``;U[ll]`` × a, then ``(;U[ll]`` × k, then ``)`` × (k + 1) — a
    valid game for sgfmill (k nested one-node variations, then the game closes).
    """
    inner = shape.rstrip(b")")
    k = len(shape) - len(inner) - 1
    rest = len(inner) - 7 * k
    if k < 1 or rest < 0 or rest % 6:
        return False
    return inner == b";U[ll]" * (rest // 6) + b"(;U[ll]" * k


def _simple_root(data: bytes, pos: int) -> tuple[RawRoot, int] | None:
    """The root starting at ``pos`` when it is simple, and where it ends; else None.

    Simple: every property is an upper-case ident and one value with no backslash
    and no bracket inside (:data:`_SIMPLE_ROOT` proves it in one match, which also
    finds the node boundary), and no ident repeats. Then each ``]`` ends a value and
    each ``[`` starts one, so splitting at brackets yields exactly sgfmill's tokens:
    ident, value, ident, value ...
    """
    match = _SIMPLE_ROOT.match(data, pos)
    if match is None:
        return None
    boundary = match.end()
    pieces = data[pos:boundary].translate(_CLOSE_AS_OPEN).split(b"[")
    props = dict(zip(map(bytes.strip, pieces[0:-1:2]), pieces[1::2]))
    if len(props) != len(pieces) >> 1:
        return None  # an ident given twice: sgfmill merges the values (the general way)
    return props, boundary


def _general_root(body: bytes) -> RawRoot:
    """Properties of a root body that :data:`_ROOT` matched (any valid root)."""
    props: dict[bytes, list[bytes]] = {}
    for ident, values in _PROP.findall(body):
        key = ident.translate(None, _LOWER)
        props.setdefault(key, []).extend(_ONE_VALUE.findall(values))
    return {k: v[0] if len(v) == 1 else v for k, v in props.items()}


def as_lists(root: RawRoot) -> dict[str, list[bytes]]:
    """A root in sgfmill's form: ``{"PB": [b"value"], ...}``."""
    return {
        ident.decode("ascii"): [value] if isinstance(value, bytes) else list(value)
        for ident, value in root.items()
    }


def from_lists(props: dict[str, list[bytes]]) -> RawRoot:
    """sgfmill's property map → :data:`RawRoot`."""
    return {
        ident.encode("ascii"): values[0] if len(values) == 1 else list(values)
        for ident, values in props.items()
    }


def scan_single(data: bytes) -> RawRoot | None:
    """The root of the usual record, else ``None`` (then :func:`scan_fast` decides).

    The usual record: one game, a simple root (see :func:`_simple_root`), then a
    plain move list (see :func:`_plain_moves`) and nothing after the game's ``)``
    but whitespace. When it returns a root, :func:`scan_fast` returns ``[root]``.
    """
    start = _START.search(data)
    if start is None:
        return None
    simple = _simple_root(data, start.end())
    if simple is None:
        return None
    root, boundary = simple
    return root if _plain_moves(data[boundary:]) else None


class TooManyGames(ValueError):
    """A collection holds more games than allowed (raised as soon as the bound is passed)."""


def scan_fast(data: bytes, max_games: int | None = None) -> list[RawRoot] | None:
    """Root property maps of all games, or ``None`` when the fast scan cannot decide.

    :raises TooManyGames: more than ``max_games`` games (memory grows with the games:
        16 MiB of tiny games is 400 000 records).
    """
    roots: list[RawRoot] = []
    start = _START.search(data)
    if start is None:
        return None
    while start is not None:
        pos = start.end()
        simple = _simple_root(data, pos)
        if simple is not None:
            root, boundary = simple
        else:
            match = _ROOT.match(data, pos)
            if match is None:
                return None
            boundary = match.end()
            root = _general_root(data[pos:boundary])
        roots.append(root)
        if max_games is not None and len(roots) > max_games:
            raise TooManyGames(max_games)
        if len(roots) == 1 and _plain_moves(data[boundary:]):
            return roots  # one game, nothing after its ")" but whitespace
        tail = _TAIL.match(data, boundary)
        if tail is None:
            return None
        start = _START.search(data, tail.end())
    return roots


def scan_full(data: bytes) -> list[RawRoot]:
    """sgfmill's parse of the whole collection; :class:`ValueError` as sgfmill raises it."""
    return [from_lists(tree.sequence[0]) for tree in sgf_grammar.parse_sgf_collection(data)]


def scan_roots(data: bytes) -> tuple[list[RawRoot], bool]:
    """``(roots, fast)``: the fast scan when it decides, else sgfmill's full parse."""
    roots = scan_fast(data)
    if roots is not None:
        return roots, True
    return scan_full(data), False
