"""The fast root scan agrees with sgfmill's full parse (issue 4, "Fast path").

Differential tests: on hypothesis-generated SGF — valid records, records with
every kind of damage sgfmill reports, escapes, lower-case idents, repeated
properties, variations, collections — :func:`scan_fast` either declines (``None``)
or returns exactly sgfmill's root property maps, and a file's outcome (records or
rejection reason) is the same with the fast path on or off.
"""

from __future__ import annotations

import glob

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from sodos_plugin.readers.sgf.ingest import ingest_bytes
from sodos_plugin.readers.sgf.scan import as_lists, scan_fast, scan_full, scan_single
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
        b"PB": st.sampled_from([b"Alice", b"Bob Smith", b"Zo\xc3\xab", b"x\\]y", b"line\nbreak"]),
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


@SETTINGS
@given(damaged())
def test_fast_scan_agrees_with_sgfmill_on_generated_trees(data: bytes) -> None:
    check(data)


@SETTINGS
@given(records())
def test_fast_scan_agrees_with_sgfmill_on_generated_records(data: bytes) -> None:
    check(data)


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
