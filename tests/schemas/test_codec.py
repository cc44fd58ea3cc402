"""The one encoder: msgspec's output is the text the json module wrote before, byte for
byte (indented, one line, ASCII), with the text made safe to show; floats as ``repr``
writes them; what msgspec cannot encode goes to the json module, to the same text."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.schemas import codec
from sodos_plugin.util.textsafe import json_text

#: Characters that make encoders differ: escapes, unsafe text, what looks like a number.
PIECES = ["a", "e", "1", "0", ".", "-", '"', "\\", "\n", ":", " ", ",", "é", "\x1b", "\x7f",
          "\x85", "\u202e", "\u2028", "😀", "\ud800", "e-", "0.0000", "e5", "\t"]  # fmt: skip
TEXT = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1e-4, 1e-5, 9.9e-5, 1e16, 1e15, 1e-6, 5.999e-05, 0.1, 2.5]),
)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), FLOATS, TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(VALUES)
def test_every_form_is_the_json_modules_text(value):
    indented = json_text(json.dumps(value, ensure_ascii=False, indent=1))
    assert codec.encode(value) == indented.encode("utf-8")
    assert codec.encode_line(value) == json.dumps(value, ensure_ascii=False)
    assert codec.encode_ascii(value) == json.dumps(value).encode("ascii")


def test_floats_are_written_as_repr_writes_them():
    values = [1e-06, 5.999e-05, 1e16, -1.5e300, 0.0001, 123456789012.5, 2.5, -0.0]
    assert codec.encode(values).decode().split() == ["[", *(f"{v!r}," for v in values[:-1]),
                                                     repr(values[-1]), "]"]  # fmt: skip
    assert codec.encode_line({"epsilon": 1e-06}) == '{"epsilon": 1e-06}'


def test_numbers_of_numpy_are_written_as_numbers():
    np = pytest.importorskip("numpy")
    value = {"rating": np.float64(1712.3456789), "games": np.int64(3)}
    assert codec.encode(value) == b'{\n "rating": 1712.3456789,\n "games": 3\n}'
    assert codec.builtins(value) == {"rating": 1712.3456789, "games": 3}


def test_absent_members_are_left_out_in_their_order():
    class Entry(msgspec.Struct, kw_only=True):
        name: str
        id: str | msgspec.UnsetType = msgspec.UNSET
        rank: str | None = None

    assert codec.encode_line(Entry(name="Ann")) == '{"name": "Ann", "rank": null}'
    assert codec.encode_line(Entry(name="Ann", id="p1")) == (
        '{"name": "Ann", "id": "p1", "rank": null}'
    )


def test_a_lone_surrogate_is_written_escaped():
    assert codec.encode({"name": "A\ud800"}) == b'{\n "name": "A\\ud800"\n}'
    assert codec.encode_ascii({"error": "\ud800é"}) == b'{"error": "\\ud800\\u00e9"}'
