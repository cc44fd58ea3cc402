"""The moves a record's fingerprint hashes (``history.moves``) are every match of the
move pattern, joined, whichever way they are found: on records of plain moves, of moves
spaced or broken by other properties, and on any text made of move pieces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.readers.sgf import history
from sodos_plugin.readers.sgf.history import _MOVE, moves
from tests.conftest import shared_path

ROOT = b"(;GM[1]FF[4]SZ[19]PB[Black]PW[White]KM[6.5]RE[B+R]"


def matches(data: bytes) -> bytes:
    """The definition: every match of the move pattern, joined."""
    return b"".join(_MOVE.findall(data))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (ROOT + b";B[pd];W[dp];B[pp])\n", b";B[pd];W[dp];B[pp]"),
        (ROOT + b"\n;B[pd];W[dp]\n;B[pp]\r\n;W[dd] )\n\n", b";B[pd];W[dp];B[pp];W[dd]"),
        (ROOT + b";B[pd]; W[dp];B[pp])", b";B[pd]; W[dp];B[pp]"),  # a space inside is kept
        (ROOT + b";B[pd];W [dp];B[pp])", b";B[pd];W [dp];B[pp]"),
        (ROOT + b";B[pd];W[d p];B[pp])", b";B[pd];B[pp]"),  # not a move: no match
        (ROOT + b";B[pd];W[];B[pp];W[tt])", b";B[pd];W[];B[pp];W[tt]"),  # passes
        (ROOT + b";B[pd];W[dp]\n;B[];W[])", b";B[pd];W[dp];B[];W[]"),  # at the end
        (ROOT + b";B[pd];W[dp];B[]; W[])", b";B[pd];W[dp];B[]; W[]"),
        (ROOT + b";B[];W[])", b";B[];W[]"),
        (ROOT + b";B[pd];W[dpq];B[pp])", b";B[pd];B[pp]"),  # three letters: no match
        (ROOT + b";B[pd]BL[10];W[dp]WL[9];B[pp])", b";B[pd];W[dp];B[pp]"),
        (ROOT + b";B[pd];W[dp]C[nice];B[pp])", b";B[pd];W[dp];B[pp]"),
        (ROOT + b";B[pd](;W[dp](;B[pp])))", b";B[pd];W[dp];B[pp]"),  # OGS's chain
        (ROOT + b"C[try ;B[aa] first];B[pd];W[dp])", b";B[aa];B[pd];W[dp]"),  # in a comment
        (b"(;GC[;B[aa]];B[pd];W[dp])", b";B[aa];B[pd];W[dp]"),
        (ROOT + b")", b""),
        (ROOT + b";B[pd];W[dp]", b";B[pd];W[dp]"),  # no closing parenthesis
        (ROOT + b";B[pd];W[dp])(;B[qq])", b";B[pd];W[dp];B[qq]"),  # a second game
        (ROOT + b";B[pd];W[dp]\x0b;B[pp])", b";B[pd];W[dp];B[pp]"),
    ],
)
def test_moves_are_the_matches_joined(data, expected):
    assert matches(data) == expected  # the case says what the definition gives
    assert moves(data) == expected


def test_moves_of_a_plain_record_skip_the_pattern(monkeypatch):
    """A record of plain moves is taken in whole-buffer passes: the move pattern runs
    on the root only (this is what makes it fast)."""
    scanned = []

    class Counting:
        def findall(self, data, start=0, end=None):
            scanned.append((start, len(data) if end is None else end))
            return _MOVE.findall(data, start, len(data) if end is None else end)

    monkeypatch.setattr(history, "_MOVE", Counting())
    data = ROOT + b"\n" + b"".join(b";B[pd];W[dp]\n" for _ in range(100)) + b")\n"
    assert moves(data) == b";B[pd];W[dp]" * 100
    assert scanned == [(0, len(ROOT) + 1)]


PIECES = [
    b";B[pd]", b";W[dp]", b";B[]", b";W[a]", b";B[abc]", b"; B[cd]", b";W [cd]",
    b";B[c d]", b"BL[12]", b"C[;B[qq]]", b"(", b")", b" ", b"\n", b"\t", b"\r\n",
    b"\x0b", b";", b"B", b"W", b"[", b"]", b"x", b"]]", b";B[pd];W[dp];B[pp]",
]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=30),
    st.lists(st.sampled_from([b")", b" ", b"\n", b"))"]), max_size=3),
)
def test_moves_equal_the_matches_on_any_text(body, end):
    data = ROOT + b"".join(body) + b"".join(end)
    assert moves(data) == matches(data)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["B", "W"]),
            st.text(alphabet="abcdefghijklmnopqrsAZ", min_size=0, max_size=2),
            st.sampled_from(["", "", "\n", " ", "\r\n  "]),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_moves_equal_the_matches_on_plain_games(game):
    data = ROOT + "".join(f"{gap};{colour}[{point}]" for colour, point, gap in game).encode()
    data += b")\n"
    assert moves(data) == matches(data)


def test_moves_equal_the_matches_on_the_shared_records():
    folder = shared_path()
    records = sorted(folder.rglob("*.sgf"))
    assert records
    for path in records:
        data = path.read_bytes()
        assert moves(data) == matches(data), path
