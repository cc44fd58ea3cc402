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
  runs at C speed: the rest of a one-game file — moves with any properties (time
  left, comments, setup, passes), linear or OGS's one variation per move — by a
  few whole-buffer passes (:func:`_one_game_rest`), each game of a collection by
  one regular expression with possessive quantifiers where this interpreter's engine
  gives :data:`ENGINE_CASES` right, else one plain match per node (CPython 3.11.2,
  Debian 12's, accepts malformed records with the possessive forms). Whatever it
  cannot prove (other variations, unusual tokens, errors) it does not judge: it
  returns ``None``. :func:`scan_single` is
  its short path for the usual record (one game, a root without escapes).
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


# The rest of a game without variations, node by node: one node (``;`` and its
# properties), and the game's closing ")". Plain quantifiers, a match per node: linear
# on every engine (one pattern over all the nodes backtracks over a growing stack).
_NODE = re.compile(rb"\s*;(?:\s*[A-Za-z]{1,64}(?:\s*" + _VALUE + rb")+)*", re.DOTALL)
_CLOSE = re.compile(rb"\s*\)")
#: The same language in one pattern with possessive quantifiers (Python >= 3.11): about
#: twice as fast, used only where the engine passes :data:`ENGINE_CASES`.
_POSSESSIVE_TAIL = (
    rb"(?:\s*+;(?:\s*+[A-Za-z]{1,64}+(?:\s*+\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])++)*+)*+\s*+\)"
)
#: A simple root (see :func:`_simple_root`), plain and possessive.
_PLAIN_SIMPLE_ROOT = rb"(?:\s*[A-Za-z]{1,64}(?:\s*\[[^\\\[\]]*\])+)+\s*(?=[;()])"
_POSSESSIVE_SIMPLE_ROOT = rb"(?:\s*+[A-Za-z]{1,64}+(?:\s*+\[[^\\\[\]]*+\])++)++\s*+(?=[;()])"

#: Known answers, ``(pattern, data, end of the match or None)``: where a release's
#: engine gives another (CPython 3.11.0-3.11.4 let possessive repeats backtrack into
#: matches sgfmill rejects: gh-100061, gh-106052), the plain forms are used.
ENGINE_CASES: tuple[tuple[str, bytes, int | None], ...] = (
    ("tail", b";B;W[ah])", None),  # an ident without a value
    ("tail", b";B[ag]x)", None),  # a value-only byte outside a value
    ("tail", b";B[aa]CD;W[bb])", None),
    ("tail", b";B[aa];W[bb] )", 14),
    ("tail", b";B[a\\]b]C[x]BL[1][2] ; W[])(", 27),
    ("tail", b")", 1),
    ("root", b"PB[a]PWx;", None),
    ("root", b"PB[a]PW;", None),
    ("root", b"PB[a]PW[b]RE[B+R]x;", None),
    ("root", b"PB[a] PW[b][c] ;", 15),
    ("root", b"PB[a]PW[b]RE[B+R];B;W[ah])", 17),
)


def _possessive_sound() -> bool:
    """True when this engine compiles the possessive forms and gives every known answer."""
    try:
        patterns = {
            "tail": re.compile(_POSSESSIVE_TAIL, re.DOTALL),
            "root": re.compile(_POSSESSIVE_SIMPLE_ROOT),
        }
    except re.error:  # Python 3.10: no possessive quantifiers
        return False
    for kind, data, end in ENGINE_CASES:
        match = patterns[kind].match(data)
        if (None if match is None else match.end()) != end:
            return False
    return True


def tail_by_nodes(data: bytes, pos: int) -> int | None:
    """Where the game's closing ")" ends when every node from ``pos`` on is a node
    without variations, else None (one :data:`_NODE` match per node)."""
    node = _NODE.match
    while (match := node(data, pos)) is not None:
        pos = match.end()
    close = _CLOSE.match(data, pos)
    return None if close is None else close.end()


def _tail_by_pattern(pattern: re.Pattern[bytes]):
    def tail_end(data: bytes, pos: int) -> int | None:
        match = pattern(data, pos)
        return None if match is None else match.end()

    return tail_end


#: True when the possessive forms are used (this engine gives every known answer).
POSSESSIVE = _possessive_sound()
if POSSESSIVE:
    _tail_end = _tail_by_pattern(re.compile(_POSSESSIVE_TAIL, re.DOTALL).match)
    _SIMPLE_ROOT = re.compile(_POSSESSIVE_SIMPLE_ROOT)
else:
    _tail_end = tail_by_nodes
    _SIMPLE_ROOT = re.compile(_PLAIN_SIMPLE_ROOT)


def _simple_root(data: bytes, pos: int) -> tuple[RawRoot, int] | None:
    """The root starting at ``pos`` when it is simple, and where it ends; else None.

    Simple: no value holds a backslash or a bracket (:data:`_SIMPLE_ROOT` proves it in
    one match, which also finds the node boundary). Then each ``]`` ends a value and
    each ``[`` starts one, so splitting at brackets yields exactly sgfmill's tokens:
    ident, value, ident, value ... where an empty ident (whitespace only) is one more
    value of the property before (``AB[dd][pp]``).
    """
    match = _SIMPLE_ROOT.match(data, pos)
    if match is None:
        return None
    boundary = match.end()
    pieces = data[pos:boundary].translate(_CLOSE_AS_OPEN).split(b"[")
    idents = list(map(bytes.strip, pieces[0:-1:2]))
    props = dict(zip(idents, pieces[1::2]))
    if len(props) == len(idents) and b"" not in props and b"".join(idents).isupper():
        return props, boundary
    return _merged_root(idents, pieces[1::2]), boundary


def _merged_root(idents: list[bytes], values: list[bytes]) -> RawRoot:
    """sgfmill's map when values continue a property (an empty ident: ``AB[dd][pp]``),
    an ident repeats (its values are added) or has lower-case letters (dropped)."""
    if b"".join(idents).isupper():
        props: dict[bytes, bytes | list[bytes]] = dict(zip(idents, values))
        props.pop(b"", None)
        if len(props) == len(idents) - idents.count(b""):  # continuations only
            end, n = 0, len(idents)
            while True:
                try:
                    start = idents.index(b"", end)
                except ValueError:
                    return props
                end = start + 1
                while end < n and not idents[end]:
                    end += 1
                props[idents[start - 1]] = values[start - 1 : end]
    merged: dict[bytes, list[bytes]] = {}
    current: list[bytes] = []
    for ident, value in zip(idents, values):
        if ident:
            current = merged.setdefault(ident.translate(None, _LOWER), [])
        current.append(value)
    return {k: v[0] if len(v) == 1 else v for k, v in merged.items()}


# -- the rest of a one-game file, proved at C speed ------------------------------------
#
# A value's bytes play no part in whether sgfmill accepts a file, as long as each value
# ends where sgfmill ends it; only the text between values (the gaps: idents, ";", "(",
# ")", whitespace) decides. The check below never looks at one value at a time: a few
# whole-buffer passes (translate, count, find) prove, for the usual records, that
# brackets pair up, that the gaps hold only what sgfmill's grammar allows there, and
# that the game ends once. Anything else is left to the other paths (None/False).

#: Bytes sgfmill allows between values: ident letters, whitespace, ";()". Lower-case
#: letters are allowed in idents by sgfmill but are taken here as value bytes: a file
#: with a lower-case ident after its root is simply not proved this way.
_GAP_BYTES = string.ascii_uppercase.encode() + _WHITESPACE + b";()"
_VALUE_ONLY = bytes(c for c in range(256) if c not in _GAP_BYTES + b"[]\\")


def _classes(mapping: dict[bytes, bytes]) -> bytes:
    table = bytearray(range(256))
    for chars, cls in mapping.items():
        for c in chars:
            table[c] = cls[0]
    return bytes(table)


#: brackets kept, value-only bytes -> "q" (gap bytes deleted with :data:`_GAP_BYTES`)
_BRACKETS_AND_VALUE_BYTES = _classes({_VALUE_ONLY: b"q"})
#: ident letters -> "U", whitespace and ";()" -> "x", brackets kept (value-only deleted)
_GAP_CLASSES = _classes({string.ascii_uppercase.encode(): b"U", _WHITESPACE + b";()": b"x"})
_LONG_IDENT = b"U" * 65  # sgfmill's idents have at most 64 letters


def _without_comments(tail: bytes) -> bytes | None:
    """``tail`` with the contents of ``C[...]`` values (and of any value whose ident ends
    in ``C``) removed, their ends found as sgfmill finds them (``\\`` escapes the next
    byte); None when a value does not end.

    Why this is exact: removing a value's contents changes no other token, provided the
    ``[`` is where sgfmill starts a value. :func:`_one_game_rest` then proves that on the
    result (its brackets pair up with nothing inside the emptied values), and the bytes
    before each removed part are the same in both.
    """
    pieces = []
    start = 0
    at = tail.find(b"C")  # memchr: an upper-case C is rare outside comments
    while at >= 0:
        if not tail.startswith(b"[", at + 1):
            at = tail.find(b"C", at + 1)
            continue
        opening = at + 1
        end = tail.find(b"]", opening)
        while end > 0 and tail[end - 1] == 0x5C:  # a backslash before: count the run
            run = end - 1
            while tail[run - 1] == 0x5C:
                run -= 1
            if (end - run) % 2 == 0:
                break  # an even run escapes itself, not the bracket
            end = tail.find(b"]", end + 1)
        if end < 0:
            return None
        pieces.append(tail[start : opening + 1])
        start = end
        at = tail.find(b"C", end)
    if not pieces:
        return tail
    pieces.append(tail[start:])
    return b"".join(pieces)


def _one_game_rest(tail: bytes) -> bool:
    """True when ``tail`` (from the root's node boundary to the end of the data) is the
    rest of one game that sgfmill accepts, then whitespace only.

    The game: nodes without variations, or OGS's one variation per node
    (``;B[qd](;W[dp](;B[pp])))``), each node any properties (``B[pd]BL[1795.3]OB[5]``,
    comments ``C[...]`` with escapes, setup ``AB[aa][bb]``, passes ``B[]``).

    Proved in whole-buffer passes, on the tail with comments emptied
    (:func:`_without_comments`) and no other backslash. Value-only bytes are all but
    upper-case letters, whitespace and ``;()`` (the gap bytes):

    1. with value-only bytes deleted, every ``[`` is followed by ``]`` and every ``]``
       preceded by ``[``: brackets pair up and every gap byte lies outside the values;
    2. with gap bytes deleted, no value-only byte precedes a ``[`` or ends the tail:
       every value-only byte lies inside a value. So (1) is the tail's skeleton, every
       value emptied, with upper-case letters as ``U`` and the rest as ``x``;
    3. in the skeleton an ident is followed by its value (never ``Ux``, which would
       also be whitespace splitting an ident), a value follows an ident or a value
       (never ``x[``), no ident is longer than 64 letters;
    4. the parentheses (all in gaps now): ``)`` once, then whitespace to the end; or
       OGS's chain: k times ``(;``, then k + 1 ``)`` and whitespace.

    Conservative on purpose where real records never go (a space between an ident and
    its value, ``( ;``): those files take the other paths, with the same answer.
    """
    if b"C" in tail:
        tail = _without_comments(tail)  # type: ignore[assignment]
        if tail is None:
            return False
    if b"\\" in tail:
        return False
    gaps = tail.translate(_GAP_CLASSES, _VALUE_ONLY)
    values = gaps.count(b"[")
    if gaps.count(b"[]") != values or gaps.count(b"]") != values:
        return False  # brackets that do not pair up, or a gap byte inside a value
    if b"Ux" in gaps or b"x[" in gaps or _LONG_IDENT in gaps:
        return False
    shape = tail.translate(_BRACKETS_AND_VALUE_BYTES, _GAP_BYTES)
    if b"q[" in shape or shape[-1:] == b"q":
        return False  # a value-only byte in a gap
    body = tail.rstrip()
    if body[-1:] != b")":
        return False
    if body.find(b")") == len(body) - 1:
        return b"(" not in body
    inner = body.rstrip(b") \t\n\r\x0b\x0c")  # OGS: k one-node-deep variations, k + 1 ")"
    opens = inner.count(b"(")
    if b")" in inner or inner.count(b"(;") != opens:
        return False
    return body.count(b")") == opens + 1


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

    The usual record: one game, a simple root (see :func:`_simple_root`), then the
    rest of the game as :func:`_one_game_rest` proves it and nothing after the game's
    ``)`` but whitespace. When it returns a root, :func:`scan_fast` returns ``[root]``.
    """
    start = _START.search(data)
    if start is None:
        return None
    simple = _simple_root(data, start.end())
    if simple is None:
        return None
    root, boundary = simple
    return root if _one_game_rest(data[boundary:]) else None


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
        if len(roots) == 1 and _one_game_rest(data[boundary:]):
            return roots  # one game, nothing after its ")" but whitespace
        end = _tail_end(data, boundary)
        if end is None:
            return None
        start = _START.search(data, end)
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
