"""The fast root scan agrees with sgfmill's full parse.

Differential tests: on hypothesis-generated SGF — valid records, records with
every kind of damage sgfmill reports, escapes, lower-case idents, repeated
properties, variations, collections, and records as Go servers write them (time
left and byo-yomi counts on moves, chat comments with escapes, handicap setup,
passes, any board size, OGS's nested moves), each maybe damaged by one edit —
:func:`scan_single` and :func:`scan_fast` either decline (``None``) or return
exactly sgfmill's root property maps, and a file's outcome (records or rejection
reason) is the same with the fast path on or off.
"""

from __future__ import annotations

import contextlib
import glob
import re

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import sgf, sgf_grammar

from sodos_plugin.readers.sgf import scan
from sodos_plugin.readers.sgf.ingest import ingest_bytes
from sodos_plugin.readers.sgf.scan import (
    _without_comments,
    as_lists,
    scan_fast,
    scan_full,
    scan_single,
)
from sodos_plugin.readers.sgf.values import decode_plain

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WS = st.sampled_from([b"", b"", b"", b" ", b"\n", b"\r\n", b"\t", b" \n "])
VALUE_PIECES = st.sampled_from(
    [b"a", b"pd", b"B+R", b"W+3.5", b" ", b"\n", b"\\\\", b"\\]", b"\\\n", b"]", b"[", b";",
     b"(", b")", b"\xc3\xa9", b"\xff", b"Ab", b"0"]
)  # fmt: skip
IDENTS = st.sampled_from(
    [b"B", b"W", b"PB", b"PW", b"RE", b"RO", b"EV", b"BR", b"WR", b"HA", b"KM", b"SZ", b"CA",
     b"GN", b"DT", b"C", b"AB", b"Pb", b"PlayerBlack", b"re", b"A" * 64, b"A" * 65]
)  # fmt: skip


@st.composite
def values(draw) -> bytes:
    return b"".join(draw(st.lists(VALUE_PIECES, max_size=4)))


@st.composite
def prop(draw) -> bytes:
    ident = draw(IDENTS)
    vals = draw(st.lists(values(), min_size=1, max_size=2))
    return ident + b"".join(draw(WS) + b"[" + v + b"]" for v in vals)


@st.composite
def node(draw) -> bytes:
    return b";" + b"".join(draw(WS) + p for p in draw(st.lists(prop(), max_size=4)))


def tree(depth: int = 2):
    children = st.just([]) if depth == 0 else st.lists(tree(depth - 1), max_size=2)
    return st.builds(
        lambda ws, nodes, kids: b"(" + ws + b"".join(nodes) + b"".join(kids) + b")",
        WS,
        st.lists(node(), min_size=1, max_size=3),
        children,
    )


@st.composite
def damaged(draw) -> bytes:
    """Generated trees, maybe a collection, maybe damaged by one edit."""
    games = draw(st.lists(tree(), min_size=1, max_size=2))
    data = draw(st.sampled_from([b"", b"junk "])) + draw(WS).join(games) + draw(WS)
    edit = draw(st.sampled_from(["none", "none", "delete", "insert", "truncate"]))
    if data and edit != "none":
        at = draw(st.integers(0, len(data) - 1))
        if edit == "delete":
            data = data[:at] + data[at + 1 :]
        elif edit == "insert":
            data = (
                data[:at]
                + draw(st.sampled_from([b"[", b"]", b"(", b")", b";", b"x", b"\\"]))
                + data[at:]
            )
        else:
            data = data[:at]
    return data


MOVE = st.builds(
    lambda ws1, c, ws2, a, b: ws1 + b";" + c + ws2 + b"[" + a + b + b"]",
    WS,
    st.sampled_from([b"B", b"W"]),
    WS,
    st.sampled_from([b"a", b"d", b"p", b"s", b"t"]),
    st.sampled_from([b"a", b"d", b"p", b"s", b"t"]),
)
ROOT_PROPS = st.fixed_dictionaries(
    {
        b"PB": st.sampled_from(
            # the last two: UTF-8 damaged upstream (a byte replaced by '?', a name cut short)
            [
                b"Alice",
                b"Bob Smith",
                b"Zo\xc3\xab",
                b"x\\]y",
                b"line\nbreak",
                b"\xe5\x91\xa8\xe7?\xbf\xe7\xbe\x8a",
                b"\xe4\xbd\xa0\xe8\x8b\xa5\xe6",
            ]
        ),  # fmt: skip
        b"PW": st.sampled_from([b"Carol", b"Dan", b"  Eve  "]),
        b"RE": st.sampled_from([b"B+R", b"W+3.5", b"0", b"Void", b"?", b"B+F", b"b+ resign"]),
        b"RO": st.sampled_from([b"1", b"2 (final)", b"round 3"]),
    },
    optional={
        b"SZ": st.sampled_from([b"19", b"9", b"37", b"x", b" 19 "]),
        b"CA": st.sampled_from([b"UTF-8", b"latin-1", b"bogus", b"utf8", b"", b"UTF-8", b"ascii"]),
        b"HA": st.sampled_from([b"0", b"2", b"1", b"12", b"x"]),
        b"BR": st.sampled_from([b"3d", b"12k ", b"NR"]),
        b"EV": st.sampled_from([b"Cup", b"Open"]),
    },
)


@st.composite
def records(draw) -> bytes:
    """Realistic single-game records: game info in the root, then a move list."""
    props = draw(ROOT_PROPS)
    root = b"".join(draw(WS) + k + b"[" + v + b"]" for k, v in props.items())
    moves = b"".join(draw(st.lists(MOVE, max_size=30)))
    nested = draw(st.lists(MOVE, max_size=10))  # OGS: one variation per move
    closing = draw(st.sampled_from([len(nested), len(nested), len(nested) + 1, len(nested) - 1]))
    nested_moves = b"".join(draw(WS) + b"(" + move for move in nested)
    tail = nested_moves + (draw(WS) + b")") * max(closing, 0)
    return b"(;" + root + moves + tail + draw(WS) + b")" + draw(WS)


# -- server-style records: what the short path must cover ------------------------------

SERVER_WS = st.sampled_from([b"", b"", b"", b"", b"\n", b"\r\n", b" ", b"  ", b"\t"])
COMMENT_TEXT = st.sampled_from(
    [b"gg", b"thx ", b"Wang [3k\\]: hi", b"\\\\", b"\\]", b"\\\\\\]", b"(;_;)", b"B+R?",
     b"\n", b"\r\n", b";", b"C[", b"\xc3\xa9", b"AB", b"x", b"\\\n"]
)  # fmt: skip
POINTS = st.sampled_from([b"pd", b"dp", b"aa", b"ss", b"tt", b"", b"ii", b"jj"])
NUMBER = st.sampled_from([b"1795.312", b"59.3", b"5", b"0", b"12", b"0.0", b"-1"])
#: what a server record does not usually hold; at most one per record, so that the
#: rest of the record is one the short path takes
HAZARDS = {
    "lower ident": b"Bl[3]",
    "65-letter ident": b"X" * 65 + b"[1]",
    "64-letter ident": b"X" * 64 + b"[1]",
    "3-letter ident": b"ABC[1]",
    "space before value": b"B [ab]",
    "space in ident": b"B L[3]",
    "label": b"LB[dd:A][pp:b c]",
    "ident without value": b"BL",
    "value without ident": b"[3]",
    "unescaped bracket": b"C[a [b] c]",
    "open bracket": b"C[a [b c]",
    "trailing backslash": b"C[a\\]",
    "escaped backslash": b"C[a\\\\]",
    "odd escape run": b"C[a\\\\\\]b]",
    "junk byte": b"7",
    "NUL": b"\x00",
    "uppercase in value": b"BL[B+R]",
    "space in value": b"BL[1 2]",
    "node name": b"N[Move \\] 3]",
}


@st.composite
def comment(draw) -> bytes:
    return b"C[" + b"".join(draw(st.lists(COMMENT_TEXT, max_size=5))) + b"]"


@st.composite
def move_node(draw) -> bytes:
    colour = draw(st.sampled_from([b"B", b"W"]))
    props = [colour + b"[" + draw(POINTS) + b"]"]
    extras = st.sampled_from(["time", "time", "byoyomi", "comment", "setup", "nothing"])
    for kind in draw(st.lists(extras, max_size=3)):
        if kind == "time":
            props.append(colour + b"L[" + draw(NUMBER) + b"]")
        elif kind == "byoyomi":
            props.append(b"O" + colour + b"[" + draw(NUMBER) + b"]")
        elif kind == "comment":
            props.append(draw(comment()))
        elif kind == "setup":
            ident = draw(st.sampled_from([b"AB", b"AW", b"AE"]))
            points = draw(st.lists(POINTS, min_size=1, max_size=3))
            props.append(ident + b"".join(draw(SERVER_WS) + b"[" + pt + b"]" for pt in points))
    return b";" + b"".join(draw(SERVER_WS) + p for p in props)


SERVER_ROOT = st.fixed_dictionaries(
    {
        b"PB": st.sampled_from([b"kale", b"Wang1Jan", b"\xe6\xb3\xa8", b"a b", b"x\\]y"]),
        b"PW": st.sampled_from([b"stakeout", b"OGSuser", b"  z  "]),
        b"RE": st.sampled_from([b"W+Resign", b"B+R", b"W+34.5", b"?", b"B+T", b"0"]),
    },
    optional={
        b"SZ": st.sampled_from([b"19", b"9", b"13", b"26", b"27", b"0", b"x", b"19 "]),
        b"CA": st.sampled_from([b"UTF-8", b"UTF-8", b"utf-8", b"GB2312", b"bogus"]),
        b"HA": st.sampled_from([b"0", b"2", b"9", b"12"]),
        b"KM": st.sampled_from([b"0.50", b"6.5", b"7.5"]),
        b"RO": st.sampled_from([b"3", b"2 (final)"]),
        b"EV": st.sampled_from([b"Server Cup", b"OGS: https://online-go.com/game/1"]),
        b"C": st.sampled_from([b"Game chats.\n", b"a;b(c)"]),
        b"AP": st.sampled_from([b"CGoban:3", b"foxwq"]),
    },
)


@st.composite
def server_records(draw) -> bytes:
    """One game as servers write it (linear or OGS-nested), then at most one hazard: a
    property that records rarely hold, a root oddity, or one edit of any byte."""
    props = list(draw(SERVER_ROOT).items())
    hazard = draw(st.sampled_from(["none"] * 4 + ["root", "move", "move", "structure", "edit"]))
    if hazard == "root":
        extra = draw(st.sampled_from(["handicap", "handicap spaced", "dup", "lower"]))
        value = {"handicap": b"dd][pp", "handicap spaced": b"dd]\n[pp] [jj", "dup": b"again"}
        ident = {"dup": b"AP", "lower": b"CoPyright"}.get(extra, b"AB")
        props.append((ident, value.get(extra, b"\n  (c) 2026\n")))
    root = b"".join(draw(SERVER_WS) + k + b"[" + v + b"]" for k, v in props)
    moves = draw(st.lists(move_node(), max_size=12))
    if hazard == "move" and moves:
        at = draw(st.integers(0, len(moves) - 1))
        moves[at] += draw(SERVER_WS) + HAZARDS[draw(st.sampled_from(sorted(HAZARDS)))]
    nested = draw(st.booleans())  # OGS: every move a nested variation
    closing = len(moves) + 1
    if hazard == "structure":
        closing += draw(st.sampled_from([-1, 1])) if nested else 0
    if nested:
        body = b"".join(draw(SERVER_WS) + b"(" + m for m in moves)
        body += b"".join(draw(SERVER_WS) + b")" for _ in range(closing))
    else:
        body = b"".join(draw(SERVER_WS) + m for m in moves) + draw(SERVER_WS) + b")"
    tail = draw(SERVER_WS)
    if hazard == "structure":
        tail += draw(st.sampled_from([b"junk", b"(;PB[a]PW[b]RE[B+R])", b")", b";B[aa])"]))
    data = b"(;" + root + body + tail
    if hazard == "edit":
        at = draw(st.integers(0, len(data) - 1))
        if draw(st.booleans()):
            data = data[:at] + data[at + 1 :]
        else:
            junk = draw(st.sampled_from([b"[", b"]", b"(", b")", b";", b"\\", b"x", b"7", b" "]))
            data = data[:at] + junk + data[at:]
    return data


def full_or_none(data: bytes):
    try:
        return scan_full(data)
    except ValueError:
        return None


def same_outcome(data: bytes) -> None:
    fast = ingest_bytes(data, "x.sgf")
    slow = ingest_bytes(data, "x.sgf", fast_path=False)
    assert fast._replace(fast=False) == slow._replace(fast=False)


def check(data: bytes) -> None:
    fast = scan_fast(data)
    full = full_or_none(data)
    single = scan_single(data)
    if single is not None:  # the usual-record path is a special case of the fast scan
        assert fast is not None and [as_lists(single)] == [as_lists(r) for r in fast]
    if fast is not None:
        assert full is not None, "fast path accepted bytes sgfmill rejects"
        assert [as_lists(r) for r in fast] == [as_lists(r) for r in full]
    same_outcome(data)


@pytest.mark.slow
@SETTINGS
@given(damaged())
def test_fast_scan_agrees_with_sgfmill_on_generated_trees(data: bytes) -> None:
    check(data)


@SETTINGS
@given(records())
def test_fast_scan_agrees_with_sgfmill_on_generated_records(data: bytes) -> None:
    check(data)


@pytest.mark.slow
@SETTINGS
@given(server_records())
def test_fast_scan_agrees_with_sgfmill_on_server_records(data: bytes) -> None:
    check(data)


@pytest.mark.slow
@SETTINGS
@given(records())
def test_values_agree_with_sgfmill_game(data: bytes) -> None:
    """Decoded names equal sgfmill's ``node.get``; SZ/CA errors are sgfmill's errors."""
    outcome = ingest_bytes(data, "x.sgf")
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError:
        assert outcome.error is not None  # sgfmill refuses the root (SZ, CA): so do we
        return
    if outcome.error is not None:
        assert not outcome.error.startswith(("SZ[", "CA["))  # sgfmill accepted those
        if "cannot be decoded" in outcome.error:  # sgfmill's get() fails on it too
            ident = outcome.error.split()[0]
            with pytest.raises(UnicodeDecodeError):
                game.get_root().get(ident)
        return
    (record,) = outcome.records
    root = game.get_root()
    if any("kept as \\xNN escapes" in note for note in record.notes):
        # damaged UTF-8 (docs/rules.md §9): sgfmill's SimpleText, each bad byte an escape
        raw = sgf_grammar.simpletext_value(root.get_raw("PB"))
        assert raw.decode("utf-8", "backslashreplace").strip() == record.black
        return
    if not root.has_property("CA"):  # our detection chose UTF-8 or Latin-1
        game = sgf.Sgf_game.from_bytes(data, override_encoding=record_encoding(data))
        root = game.get_root()
    assert root.get("PB").strip() == record.black
    assert root.get("PW").strip() == record.white
    assert root.get("RE") == record.result_text


def record_encoding(data: bytes) -> str:
    try:
        data.decode("utf-8")
        return "UTF-8"
    except UnicodeDecodeError:
        return "ISO-8859-1"


def test_fast_path_is_taken_for_plain_records() -> None:
    """The differential tests are not vacuous: usual records go the fast way."""
    data = b"(;FF[4]CA[UTF-8]PB[A b]PW[C]RE[B+R]RO[1]\n;B[pd];W[dp]\n;B[pp]\n)\n"
    assert scan_fast(data) is not None
    assert scan_single(data) == {
        b"FF": b"4",
        b"CA": b"UTF-8",
        b"PB": b"A b",
        b"PW": b"C",
        b"RE": b"B+R",
        b"RO": b"1",
    }
    assert decode_plain(scan_single(data)) == (
        ("A b", "C", None, None, "B+R", "1") + (None,) * 3,
        None,
    )
    assert ingest_bytes(data, "x").fast
    assert scan_single(data + data) is None  # two games: the general fast scan
    with_comment = b"(;PB[A]PW[B]RE[W+T];B[pd]C[nice \\] move];W[])"
    assert scan_fast(with_comment) is not None  # the regular-expression tier
    ogs = b"(;PB[A]PW[B]RE[W+T]\n;B[qd]\n(;W[dp]\n(;B[pp]\n\n)))"
    assert scan_fast(ogs) is not None  # one variation per move
    assert scan_fast(ogs[:-1]) is None and scan_fast(ogs[:-2] + b"))))") is None


#: One record of each server's style, as the short path must take them.
SERVER_STYLE = {
    "kgs": b"(;GM[1]\nFF[4]\nCA[UTF-8]\nSZ[19]\nHA[2]\nKM[0.50]\nPW[stakeout]\nWR[9d]\nPB[azlan]"
    b"\nBR[1d]\nRE[W+Resign]\nAB[pd]\n[dp]\n\n;W[pp]WL[1795.312];B[nq]BL[1790.1]"
    b"C[azlan [1d\\]: hi \\\\ (;_;)\n];W[dd]WL[59.3]OW[5]\n;B[];W[]C[gg])\n",
    "ogs": b"(;FF[4]\nCA[UTF-8]\nGN[Cup R:3]\nPB[bbb]\nPW[aaa]\nRE[B+R]\nSZ[9]\nKM[6.5]"
    b"\nC[Game chats will be available.\n]\n;B[ee]BL[599.1]\n(;W[cc]WL[598.0]\n(;B[gg]BL[590.5]"
    b"\n)))",
    "fox": b"(;GM[1]FF[4]  SZ[19]  GN[]  PB[whatiskale]  PW[\xe6\xb3\xa8]  BR[15\xe7\xba\xa7]"
    b"  RE[B+R]AP[GNU Go:3.8]AP[foxwq]  ;B[pd];W[dp];B[pp];W[tt])",
    "igs": b"(;\nGM[1]EV[IGS game]\nCoPyright[\n  (c) PANDANET\n]\nRE[W+34.5]\nPW[p1]WR[11k+]"
    b"\nPB[p2]BR[12k ]\nSZ[19]KM[6.500000]\n;B[pd]BL[588];W[dp]WL[577]\n)\n",
    "setup": b"(;PB[a]PW[b]RE[W+T]SZ[13]\r\n;AB[aa][bb]AW[cc];B[dd]\r\n;W[ee]\r\n)\r\n",
}


@pytest.mark.parametrize("name", sorted(SERVER_STYLE))
def test_server_records_take_the_short_path(name: str) -> None:
    data = SERVER_STYLE[name]
    root = scan_single(data)
    assert root is not None
    assert as_lists(root) == as_lists(scan_full(data)[0])
    outcome = ingest_bytes(data, "x.sgf")
    assert outcome.error is None and outcome.fast
    same_outcome(data)


EDITS = [b"", b"[", b"]", b"(", b")", b";", b"\\", b"x", b"7", b" ", b"B", b"\x00"]


@pytest.mark.parametrize("name", sorted(SERVER_STYLE))
def test_every_one_byte_edit_of_a_server_record_agrees(name: str) -> None:
    """Each byte deleted, and each of :data:`EDITS` inserted, at every position."""
    data = SERVER_STYLE[name]
    for at in range(len(data)):
        check(data[:at] + data[at + 1 :])
        for junk in EDITS[1:]:
            check(data[:at] + junk + data[at:])


@pytest.mark.parametrize("hazard", sorted(HAZARDS))
def test_every_hazard_in_every_node_agrees(hazard: str) -> None:
    for name in ("kgs", "ogs", "setup"):
        data = SERVER_STYLE[name]
        at = data.find(b";", 3)
        while at >= 0:
            for before in (b"", b"\n"):
                check(data[:at] + before + HAZARDS[hazard] + data[at:])
            at = data.find(b";", at + 1)


TOKEN_SOUP = st.sampled_from(
    [b";", b";", b"B", b"BL", b"C", b"[", b"]", b"[aa]", b"[1.5]", b"[]", b"(", b")", b" ",
     b"\n", b"x", b"7", b"\\", b"\\]", b"C[", b"[B]"]
)  # fmt: skip


@SETTINGS
@given(st.lists(TOKEN_SOUP, max_size=14), st.sampled_from([b")", b"))", b"", b")\n"]))
def test_token_soup_after_a_root_agrees(tokens: list[bytes], end: bytes) -> None:
    """Pieces of SGF in any order after a usual root: the short path's structural
    checks (brackets pairing, gaps, parentheses) against sgfmill, densely."""
    check(b"(;PB[a]PW[b]RE[B+R]" + b"".join(tokens) + end)


_SGFMILL_VALUE = sgf_grammar._tokenise_re  # sgfmill's own tokeniser: the oracle of value ends


def comments_removed_by_sgfmills_rules(tail: bytes) -> bytes | None:
    """What :func:`_without_comments` must give, with each end found by sgfmill's tokeniser."""
    pieces, start, at = [], 0, tail.find(b"C[")
    while at >= 0:
        match = _SGFMILL_VALUE.match(tail, at + 1)
        if match is None or match.lastgroup != "V":
            return None
        pieces.append(tail[start : at + 2])
        start = match.end() - 1
        at = tail.find(b"C[", match.end())
    return b"".join([*pieces, tail[start:]])


@SETTINGS
@given(st.lists(st.sampled_from([b"C[", b"\\", b"]", b"[", b"a", b"C", b";B[aa]", b"\n"])))
def test_comment_values_end_where_sgfmill_ends_them(pieces: list[bytes]) -> None:
    tail = b"".join(pieces)
    assert _without_comments(tail) == comments_removed_by_sgfmills_rules(tail)


@pytest.mark.parametrize(
    "data",
    [
        b"(;PB[a]PW[b]RE[B+R];B[ag]",  # truncated
        b"(;PB[a]PW[b]RE[B+R];B[ag];W[ah](;B[ai]);W[bd])",  # node after a variation
        b"(;PB[a]PW[b]RE[B+R];B;W[ah])",  # property without value
        b"(;PB[a]PW[b]RE[B+R];B[ag];())",  # empty sequence
        b"(;PB[a]PW[b]RE[B+R];B[ag]x)",  # junk
        b"(;PB[a]PW[b]RE[B+R];B[ag]) (;",  # a broken second game
        b"(;PB[a]PW[b]RE[B+R]" + b"A" * 65 + b"[x])",  # ident too long
        b"(;PB[a]PW[b]RE[B+R];B][[])",  # brackets in the wrong order, counts equal
        b"(;PB[a]PW[b]RE[B+R];B[aa]7;W[bb])",  # a byte between values
        b"(;PB[a]PW[b]RE[B+R];B L[3])",  # whitespace splits an ident
        b"(;PB[a]PW[b]RE[B+R];B[aa]C[x\\\\]y;W[bb])",  # an even backslash run ends it
    ],
)
def test_damage_after_the_root_is_never_accepted(data: bytes) -> None:
    assert scan_fast(data) is None
    assert full_or_none(data) is None
    assert ingest_bytes(data, "x").error is not None


def test_every_shared_file_agrees() -> None:
    folder = shared_path("sgf")
    paths = sorted(glob.glob(str(folder / "**" / "*.*"), recursive=True))
    assert len(paths) >= 30
    fast_count = 0
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        check(data)
        fast_count += scan_fast(data) is not None
    assert fast_count >= 15


@contextlib.contextmanager
def plain_forms():
    """The forms used where the engine fails :data:`~.scan.ENGINE_CASES` (or has no
    possessive quantifiers), whatever this interpreter is."""
    saved = scan._tail_end, scan._SIMPLE_ROOT
    scan._tail_end, scan._SIMPLE_ROOT = scan.tail_by_nodes, re.compile(scan._PLAIN_SIMPLE_ROOT)
    try:
        yield
    finally:
        scan._tail_end, scan._SIMPLE_ROOT = saved


@pytest.mark.parametrize("forms", ["chosen", "plain"])
@pytest.mark.parametrize("kind, data, end", scan.ENGINE_CASES)
def test_the_engine_cases_are_answered_right(forms, kind, data, end) -> None:
    """The forms this interpreter chose, and the plain ones, give every known answer
    (CPython 3.11.2's possessive repeats accept ``;B;W[ah])``)."""
    with plain_forms() if forms == "plain" else contextlib.nullcontext():
        if kind == "tail":
            assert scan._tail_end(data, 0) == end
        else:
            match = scan._SIMPLE_ROOT.match(data)
            assert (None if match is None else match.end()) == end


def test_an_engine_with_a_wrong_answer_gets_the_plain_forms(monkeypatch) -> None:
    assert scan._possessive_sound() is scan.POSSESSIVE
    kind, data, end = scan.ENGINE_CASES[3]
    monkeypatch.setattr(scan, "ENGINE_CASES", ((kind, data, None if end else 1),))
    assert scan._possessive_sound() is False


@pytest.mark.parametrize("forms", ["chosen", "plain"])
@pytest.mark.parametrize(
    "data",
    [
        b"(;PB[a]PW[b]RE[B+R];B;W[ah])",
        b"(;PB[a]PW[b]RE[B+R];B[ag]x)",
        b"(;PB[a]PWx;B[ag])",
        b"(;PB[a]PW[b];B[ag])\n(;PB[c]PW[d];B;W[ah])",  # a collection: the tail pattern
        b"(;PB[a]PW[b];B[ag]W)(;PB[c]PW[d];W[ah])",
        b"(;PB[c]PW[d]RE[W+1]Q;W[ah])(;PB[a]PW[b];B[ag])",
    ],
)
def test_damage_is_refused_by_either_form(forms, data: bytes) -> None:
    with plain_forms() if forms == "plain" else contextlib.nullcontext():
        assert scan_fast(data) is None
        assert scan_single(data) is None
    assert full_or_none(data) is None


@pytest.mark.slow
@SETTINGS
@given(damaged())
def test_the_plain_forms_agree_with_sgfmill(data: bytes) -> None:
    with plain_forms():
        check(data)


def test_a_long_collection_is_read_node_by_node_in_linear_time() -> None:
    """The node-by-node tail keeps no backtracking stack across nodes: 200 000 moves."""
    moves = b"".join(b";B[aa]BL[%d]C[x\\]y];W[bb]" % i for i in range(100_000))
    data = b"(;PB[a]PW[b]" + moves + b")(;PB[c]PW[d];B[cc])"
    with plain_forms():
        roots = scan_fast(data)
    assert roots is not None and [r[b"PB"] for r in roots] == [b"a", b"c"]
