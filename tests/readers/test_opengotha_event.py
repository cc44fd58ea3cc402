"""The EGD header of an OpenGotha file, as OpenGotha 3.51's h9 export computes it
(docs/rules.md §12): adjusted time, class, time system, place and dates, and nothing
the file does not give."""

from __future__ import annotations

from xml.etree.ElementTree import Element

import pytest

from sodos_plugin.readers.opengotha_event import h9_header

TIMES = {"beginDate": "2020-08-18", "endDate": "2020-08-21"}


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        # Juvisy: 60 min + 45 × 30 s = 4 950 s
        ({"basicTime": "60", "complementaryTimeSystem": "STDBYOYOMI", "stdByoYomiTime": "30"},
         {"TM": "82", "CL": "A", "CM": "Standard byo-yomi"}),
        # OpenGotha's defaults (60 min, Canadian 300 s / 15 moves): 3 600 + 60 × 20 s,
        # the TM[80] CL[A] of its export of h9names.xml
        ({"basicTime": "60", "complementaryTimeSystem": "CANBYOYOMI"},
         {"TM": "80", "CL": "A", "CM": "Canadian byo-yomi"}),
        # Java's int division: 60 × 100 / 7 = 857 s
        ({"basicTime": "40", "complementaryTimeSystem": "CANBYOYOMI", "canByoYomiTime": "100",
          "nbMovesCanTime": "7"}, {"TM": "54", "CL": "B", "CM": "Canadian byo-yomi"}),
        # Fischer: 1 800 + 120 × 10 = 3 000 s: not A (2 700 / 4 500), B (1 800 / 3 000)
        ({"basicTime": "30", "complementaryTimeSystem": "FISCHER", "fischerTime": "10"},
         {"TM": "50", "CL": "B", "CM": "Fischer"}),
        # sudden death 40 min: C (1 500 / 1 800), not B (adjusted 2 400 < 3 000)
        ({"basicTime": "40", "complementaryTimeSystem": "SUDDENDEATH"},
         {"TM": "40", "CL": "C", "CM": "Sudden death"}),
        ({"basicTime": "20", "complementaryTimeSystem": "SUDDENDEATH"},
         {"TM": "20", "CL": "X", "CM": "Sudden death"}),
        # an Internet event is D at best
        ({"basicTime": "45", "complementaryTimeSystem": "STDBYOYOMI", "stdByoYomiTime": "30",
          "bInternet": "true"}, {"TM": "67", "CL": "D", "CM": "Standard byo-yomi"}),
        ({"basicTime": "20", "complementaryTimeSystem": "FISCHER", "fischerTime": "5",
          "bInternet": "true"}, {"TM": "30", "CL": "X", "CM": "Fischer"}),
        # not given, or not readable: unknown, never OpenGotha's defaults
        ({"complementaryTimeSystem": "STDBYOYOMI"}, {}),
        ({"basicTime": "60"}, {}),
        ({"basicTime": "60", "complementaryTimeSystem": "HOURGLASS"}, {}),
        ({"basicTime": "sixty", "complementaryTimeSystem": "SUDDENDEATH"}, {}),
        ({"basicTime": "60", "complementaryTimeSystem": "CANBYOYOMI", "nbMovesCanTime": "0"},
         {}),
    ],
)  # fmt: skip
def test_adjusted_time_class_and_time_system(attributes, expected):
    assert h9_header(Element("GeneralParameterSet", attributes)) == expected


def test_place_dates_and_komi_as_opengotha_writes_them():
    general = Element("GeneralParameterSet", {**TIMES, "location": " Izmény ", "komi": "6.5"})
    assert h9_header(general) == {"DT": "2020-08-18,2020-08-21", "PC": ",Izmény", "KM": "6.5"}
    one_day = Element("GeneralParameterSet", {"beginDate": "2020-09-15", "endDate": "2020-09-15"})
    assert h9_header(one_day) == {"DT": "2020-09-15,2020-09-15"}  # TournoiChinois's DT
    assert h9_header(Element("GeneralParameterSet", {"location": "  "})) == {}  # no place
