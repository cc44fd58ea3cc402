"""What readers of dated games share (docs/rules.md §10.1): the day of a date text in
the layouts servers write, and the events a name and its days make."""

from __future__ import annotations

from datetime import date
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodos_plugin.readers.dated import Merged, first_day, group_events


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2019-10-10", "2019-10-10"),
        ("2017.06.21 19:43", "2017-06-21"),  # Wbaduk
        ("2018.04.27", "2018-04-27"),  # YuanYu tournament records
        ("2016/09/28", "2016-09-28"),
        ("2000-7-20", "2000-07-20"),  # KGS 2000, not zero-padded
        ("2000-9-4", "2000-09-04"),
        ("2000-9-14,2000-9-21", "2000-09-14"),  # a list: its first day
        ("2002-10-23,24", "2002-10-23"),
        ("2016-03-09 ~ 2016-03-15", "2016-03-09"),  # a range
        ("2016-12-31 10:18:13", "2016-12-31"),
        ("2017-04-04T09:59:32.868979037+00:00", "2017-04-04"),
        ("2017年6月21日", "2017-06-21"),
        (" 2019-10-10", "2019-10-10"),
    ],
)
def test_layouts(text: str, day: str) -> None:
    assert first_day(text) == day


@pytest.mark.parametrize(
    "text",
    ["", None, "2024-05", "2024", "21.06.2017", "06/21/2017", "2017-02-30", "2017-06.21",
     "2019-10-101", "yesterday", "20190101"],
)  # fmt: skip
def test_no_full_date(text) -> None:
    assert first_day(text) is None


@given(
    st.dates(min_value=date(1000, 1, 1)),
    st.sampled_from(["-", ".", "/"]),
    st.booleans(),
    st.sampled_from(["", " 19:43", "T09:59:32+00:00", ",2099-01-01", ",24", " ~ 2099-12-31"]),
)
def test_any_day_in_any_layout_reads_back(day: date, sep: str, padded: bool, tail: str) -> None:
    month, dom = (f"{day.month:02}", f"{day.day:02}") if padded else (day.month, day.day)
    assert first_day(f"{day.year:04}{sep}{month}{sep}{dom}{tail}") == day.isoformat()


def test_events_by_name_and_gap() -> None:
    names = ["Cup", "Cup", None, "Cup", "Open"]
    days = ["2024-05-04", "2024-05-10", "2024-05-05", "2024-05-19", "2024-05-04"]
    sources = ["a", "b", "c", "d", "e"]
    event_of, events = group_events(names, days, sources, 7)
    assert event_of == ["Cup (2024-05-04)", "Cup (2024-05-04)", "c", "Cup (2024-05-19)",
                        "Open (2024-05-04)"]  # fmt: skip
    assert sorted(events) == sorted(set(event_of))
    assert events["c"].date == "2024-05-05" and events["Cup (2024-05-04)"].source == "a"


def test_merged_mappings_are_dict_update_in_turn_without_a_copy() -> None:
    """Events of a table without event names are a mapping made when read (one per
    game): merged with others as dict.update would merge them, key order and last
    value alike, each part kept as given."""
    own = MappingProxyType({"t.csv:2": 1, "k": 2})
    parts = [{"a": 0, "k": 1}, own, {"a": 5, "z": 9}]
    merged = Merged(parts)
    expected: dict = {}
    for part in parts:
        expected.update(part)
    assert list(merged.items()) == list(expected.items()) and len(merged) == len(expected)
    assert list(merged) == list(expected) and list(merged.values()) == list(expected.values())
    assert merged["k"] == 2 and "t.csv:2" in merged and "q" not in merged
    assert merged.parts[1] is own
    merged["q"] = 3
    merged.update({"k": 7})
    expected.update({"q": 3, "k": 7})
    assert dict(merged.items()) == expected and list(merged) == list(expected)
    single = Merged()
    single.update({"a": 1})
    assert single.plain() == {"a": 1} and type(single.plain()) is dict
