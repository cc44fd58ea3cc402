"""Go ranks in every spelling servers write (docs/rules.md §1, §10.1): OpenGotha's
integers, professionals as professionals, and the plain spelling a history keeps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodos_plugin.engine.ranks import GoRank, format_rank, parse_rank, rank_text, read_rank


@pytest.mark.parametrize(
    ("text", "kind", "grade"),
    [
        ("3d", "d", 3),
        ("5K", "k", 5),
        ("1p", "p", 1),
        ("14k*", "k", 14),  # NNGS: the mark of an established rating
        ("13k?", "k", 13),  # KGS: uncertain
        ("11k+", "k", 11),  # IGS
        ("12k ", "k", 12),
        ("15级", "k", 15),  # Fox
        ("15級", "k", 15),
        ("9급", "k", 9),
        ("9段", "d", 9),  # Fox
        ("9단", "d", 9),
        ("九段", "d", 9),
        ("初段", "d", 1),
        ("9 Dan", "d", 9),  # Fox via YuanYu
        ("5 kyu", "k", 5),
        ("P9段", "p", 9),  # Fox professionals
        ("P1段", "p", 1),
        ("P9p", "p", 9),  # Fox, PC[Fox]
        ("P1", "p", 1),  # Wbaduk
        ("P9", "p", 9),
        ("9P", "p", 9),  # Tygem
        ("9d pro", "p", 9),
        ("1 pro", "p", 1),
    ],
)
def test_every_spelling(text: str, kind: str, grade: int) -> None:
    assert read_rank(text) == GoRank(kind, grade)
    assert rank_text(text) == f"{grade}{kind}"


@pytest.mark.parametrize(
    "text", ["NR", "1805*", "1680?", "P", "", "9", "P9k", "Pro 9", "1 2k", "9kpro", "3 stars"]
)
def test_no_rank(text: str) -> None:
    with pytest.raises(ValueError, match="not a Go rank"):
        parse_rank(text)
    assert rank_text(text) is None


@pytest.mark.parametrize(
    ("text", "why"),
    [("0k", "kyu"), ("31k", "kyu"), ("10段", "dan"), ("0d", "dan"), ("P10", "professional")],
)
def test_out_of_range(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=f"{why} rank out of range"):
        parse_rank(text)


def test_opengotha_integers_of_professionals_and_amateurs() -> None:
    """1p = 7d, capped at 9d (docs/rules.md §1), whatever the spelling."""
    assert [parse_rank(t) for t in ("30k", "1k", "1d", "9d")] == [-30, -1, 0, 8]
    assert [parse_rank(t) for t in ("1p", "P1", "P1段", "2p", "P9段", "P9")] == [6, 6, 6, 7, 8, 8]
    assert parse_rank("九段") == parse_rank("9d") == 8


SPELLINGS = {
    "k": ["{n}k", "{n}K", "{n} kyu", "{n}级", "{n}級", "{n}급", "{n}k*", "{n}k?"],
    "d": ["{n}d", "{n}D", "{n} dan", "{n}段", "{n}단", "{n}d+"],
    "p": ["{n}p", "{n}P", "P{n}", "P{n}段", "P{n}p", "{n}d pro"],
}


@given(st.sampled_from("kdp"), st.data())
def test_any_spelling_reads_as_its_plain_spelling(kind: str, data) -> None:
    grade = data.draw(st.integers(1, 30 if kind == "k" else 9))
    text = data.draw(st.sampled_from(SPELLINGS[kind])).format(n=grade)
    plain = rank_text(text)
    assert plain == f"{grade}{kind}"
    assert parse_rank(plain) == parse_rank(text)
    if kind != "p":
        assert format_rank(parse_rank(text)) == plain
