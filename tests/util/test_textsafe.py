"""textsafe: escaped controls, display widths and cuts."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodos_plugin.util.textsafe import display_width, fit, pad, printable


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Lee Changho", "Lee Changho"),
        ("Ann\x1b[2J", "Ann\\x1b[2J"),  # a terminal sequence
        ("Bob\nrejected: x.sgf: forged", "Bob\\nrejected: x.sgf: forged"),
        ("a\rb\tc\x07\x00\x7f", "a\\rb\\tc\\x07\\x00\\x7f"),
        ("C1\x85\x9b31m", "C1\\x85\\x9b31m"),  # NEL and CSI of the C1 set
        ("evil\u202egs.exe", "evil\\u202egs.exe"),  # right-to-left override
        ("\u2066iso\u2069 \u200eLRM", "\\u2066iso\\u2069 \\u200eLRM"),
        ("\u200b \ufeff \u00ad", "\\u200b \\ufeff \\xad"),
        ("line\u2028para\u2029", "line\\u2028para\\u2029"),
        ("tag\U000e0041", "tag\\U000e0041"),
        ("bytes\udcff", "bytes\\udcff"),  # a lone surrogate from surrogateescape
        # kept: no-break and ideographic spaces, joiners, marks, CJK, private use
        ("Jean\u00a0Dupont", "Jean\u00a0Dupont"),
        ("李\u3000昌镐", "李\u3000昌镐"),
        ("می\u200cخواهم", "می\u200cخواهم"),
        ("👩\u200d💻", "👩\u200d💻"),
        ("Zoe\u0301", "Zoe\u0301"),
        ("C:\\games\\r1.sgf", "C:\\games\\r1.sgf"),
    ],
)
def test_printable_escapes_exactly_the_dangerous_characters(raw, shown):
    assert printable(raw) == shown


ESCAPED = {"Cc", "Cf", "Cs", "Zl", "Zp"}


@given(st.text())
def test_printable_leaves_no_control_and_no_line_break(text):
    shown = printable(text)
    assert not any(unicodedata.category(c) in ESCAPED and c not in "\u200c\u200d" for c in shown)
    assert len(shown.splitlines()) <= 1
    assert printable(shown) == shown
    if text.isprintable():
        assert shown is text


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("", 0),
        ("Takemiya", 8),
        ("李昌镐", 6),  # Wide
        ("ＡＢＣ", 6),  # Fullwidth forms
        ("한국", 4),
        ("e\u0301", 1),  # combining acute
        ("\u1100\u1161\u11a8", 2),  # a Hangul syllable from conjoining jamo
        ("a\u200bb", 2),  # zero-width space
        ("Ω", 1),  # East Asian Ambiguous: 1
    ],
)
def test_display_width(text, width):
    assert display_width(text) == width


@pytest.mark.parametrize(
    ("text", "width", "cut"),
    [
        ("Schmidt Jonas", 20, "Schmidt Jonas"),
        ("Schmidt Jonas", 13, "Schmidt Jonas"),
        ("Schmidt Jonas", 12, "Schmidt Jon…"),
        ("李昌镐李昌镐", 5, "李昌…"),  # a wide character never half-shown
        ("李昌镐李昌镐", 6, "李昌…"),
        ("e\u0301e\u0301e\u0301", 2, "e\u0301…"),  # marks stay with their letter
        ("abc", 1, "…"),
        ("abc", 0, ""),
    ],
)
def test_fit(text, width, cut):
    assert fit(text, width) == cut


@given(st.text(), st.integers(min_value=0, max_value=40))
def test_fit_never_exceeds_the_width_and_keeps_a_prefix(text, width):
    cut = fit(text, width)
    assert display_width(cut) <= width
    if display_width(text) <= width:
        assert cut == text
    elif width:
        assert cut.endswith("…") and text.startswith(cut[:-1])


def test_pad_aligns_by_display_width():
    assert pad("李", 4) == "李  "
    assert pad("ab", 4, right=True) == "  ab"
    assert pad("abcdef", 4) == "abcdef"


def test_shown_and_quoted_cut_input_for_messages():
    from sodos_plugin.util.textsafe import quoted, shown

    assert quoted("Ann") == "'Ann'"
    assert shown("x" * 10_000_000, 8) == "xxxxxxx…"
    assert shown("a\nb" * 100, 10) == "a\\nba\\nba…"
    assert display_width(shown("李" * 1000, 9)) <= 9
    assert shown("y" * 60) == "y" * 60  # a cell that fits is whole
