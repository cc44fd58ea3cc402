"""The RE value space of docs/rules.md §9, case and space tolerant."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf.results import parse_result

B, W, J, U = Result.BLACK_WINS, Result.WHITE_WINS, Result.JIGO, Result.UNKNOWN


@pytest.mark.parametrize(
    ("text", "result", "how", "by_default"),
    [
        ("B+R", B, "resign", False),
        ("B+Resign", B, "resign", False),
        ("w+resign", W, "resign", False),
        ("W+T", W, "time", False),
        ("B+Time", B, "time", False),
        ("B+F", B, "forfeit", True),
        ("W+Forfeit", W, "forfeit", True),
        ("w+f", W, "forfeit", True),
        ("B+", B, "unspecified", False),
        ("W+", W, "unspecified", False),
        ("  B + R ", B, "resign", False),
        ("B+Illegal", B, "illegal", False),
        ("B+Offline", B, "other", False),
        # Fox: a win without a count (the loser left or ran out of time), docs/rules.md §9
        ("B+0.0", B, "unspecified", False),
        ("W+0.0", W, "unspecified", False),
        ("B+0", B, "unspecified", False),
        ("W+0.00", W, "unspecified", False),
        ("0", J, "jigo", False),
        ("Draw", J, "jigo", False),
        ("draw", J, "jigo", False),
        ("Jigo", J, "jigo", False),
        ("Void", U, "void", False),
        ("?", U, "unknown", False),
        ("", U, "unknown", False),
        ("something odd", U, "unrecognised", False),
        ("257手完, 黒中押し勝ち", B, "resign", False),
        ("白中押し勝ち", W, "resign", False),
        ("黑中盘胜", B, "resign", False),
        ("白 3目半勝ち", W, "score", False),
        ("黒不戦勝", B, "forfeit", True),
        ("持碁", J, "jigo", False),
        ("흑 불계승", B, "resign", False),
    ],
)
def test_value_space(text: str, result: Result, how: str, by_default: bool) -> None:
    parsed = parse_result(text)
    assert (parsed.result, parsed.how, parsed.by_default) == (result, how, by_default)
    assert parsed.scored == (result is not U)


@pytest.mark.parametrize(
    ("text", "margin"),
    [("B+3.5", Fraction(7, 2)), ("W+34.50", Fraction(69, 2)), ("B+ 12", Fraction(12)),
     ("W+0,5", Fraction(1, 2))],
)  # fmt: skip
def test_scores_are_exact(text: str, margin: Fraction) -> None:
    parsed = parse_result(text)
    assert parsed.how == "score" and parsed.margin == margin


def test_not_scored_results_carry_a_note() -> None:
    for text in ("?", "Void", "garbage", "B+Jigo"):
        parsed = parse_result(text)
        assert not parsed.scored and parsed.note.startswith("RE[")


def test_unknown_reason_is_still_the_winner_with_a_note() -> None:
    parsed = parse_result("W+Disqualification")
    assert parsed.result is W and not parsed.by_default and "not known" in parsed.note


def test_both_colours_in_east_asian_text_is_not_guessed() -> None:
    assert parse_result("黒白勝ち").result is U


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_never_raises_and_is_consistent(text: str) -> None:
    parsed = parse_result(text)
    assert isinstance(parsed.result, Result)
    assert parsed.by_default == (parsed.how == "forfeit")
    if parsed.how == "score":
        assert parsed.margin is not None and parsed.margin > 0
