"""The event of an OpenGotha file as OpenGotha's h9 export describes it (docs/rules.md §12).

OpenGotha 3.51 (``ExternalDocument.generateH9File``, ``Tournament.egfClass`` and
``egfAdjustedTime``) writes the EGD header from the tournament's ``GeneralParameterSet``:

* ``DT[begin,end]`` from ``beginDate`` and ``endDate``;
* ``PC[,location]``: the EGD's place is ``country,city``; OpenGotha knows no country of
  the event and writes the comma;
* ``KM`` the ``komi`` attribute as written;
* ``TM`` the EGD's *adjusted time* in minutes (rounded down): the basic time plus
  45 moves of standard byo-yomi, or one Canadian period's time per move × 60 moves,
  or 120 Fischer increments;
* ``CL`` the EGD class that time gives (:data:`CLASS_LIMITS`), ``X`` when no class fits;
* ``CM`` the complementary time system in words (``Standard byo-yomi``).

Only what the file gives is written: no place without ``location``; ``TM``, ``CL`` and
``CM`` need ``basicTime`` and a ``complementaryTimeSystem`` OpenGotha knows (a missing
byo-yomi setting takes OpenGotha's default, as OpenGotha reads the file; an unreadable
number leaves them unknown).
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

#: ``complementaryTimeSystem`` → its name in the ``CM`` header (``generateH9File``)
TIME_SYSTEMS = {
    "SUDDENDEATH": "Sudden death",
    "STDBYOYOMI": "Standard byo-yomi",
    "CANBYOYOMI": "Canadian byo-yomi",
    "FISCHER": "Fischer",
}
#: OpenGotha's defaults for a time setting the file lacks (``GeneralParameterSet``)
TIME_DEFAULTS = {"stdByoYomiTime": 30, "nbMovesCanTime": 15, "canByoYomiTime": 300,
                 "fischerTime": 10}  # fmt: skip
#: ``Tournament.egfClass``: (class, least basic time, least adjusted time), in seconds,
#: best class first, by kind of time system; an Internet event (``bInternet``) is D at
#: best.
CLASS_LIMITS = {
    "byo-yomi": (("A", 3600, 4500), ("B", 2400, 3000), ("C", 1500, 1800)),
    "fischer": (("A", 2700, 4500), ("B", 1800, 3000), ("C", 1200, 1800)),
    "internet byo-yomi": (("D", 2400, 3000),),
    "internet fischer": (("D", 1800, 3000),),
}
_JAVA_INT = re.compile(r"[+-]?\d{1,10}")


def java_div(a: int, b: int) -> int:
    """Java's integer division: rounded toward zero (Python's ``//`` floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _number(general: Element, attribute: str) -> int | None:
    """An integer attribute as Java's ``parseInt`` reads it, its default when absent,
    None when unreadable."""
    text = general.get(attribute)
    if text is None:
        return TIME_DEFAULTS.get(attribute)
    text = text.strip()
    return int(text) if _JAVA_INT.fullmatch(text) else None


def adjusted_time(general: Element) -> int | None:
    """``Tournament.egfAdjustedTime`` in seconds, None when the file does not give it."""
    system = (general.get("complementaryTimeSystem") or "").strip()
    basic = _number(general, "basicTime") if general.get("basicTime") is not None else None
    if basic is None or system not in TIME_SYSTEMS:
        return None
    seconds = basic * 60
    if system == "STDBYOYOMI":
        byo_yomi = _number(general, "stdByoYomiTime")
        return None if byo_yomi is None else seconds + 45 * byo_yomi
    if system == "CANBYOYOMI":
        period, moves = _number(general, "canByoYomiTime"), _number(general, "nbMovesCanTime")
        if period is None or not moves:
            return None
        return seconds + java_div(60 * period, moves)
    if system == "FISCHER":
        increment = _number(general, "fischerTime")
        return None if increment is None else seconds + 120 * increment
    return seconds  # sudden death


def egf_class(general: Element, adjusted: int) -> str:
    """``Tournament.egfClass``: the best class whose basic and adjusted times are met."""
    system = general.get("complementaryTimeSystem", "").strip()
    kind = "fischer" if system == "FISCHER" else "byo-yomi"
    if (general.get("bInternet") or "").strip() == "true":
        kind = f"internet {kind}"
    basic = (_number(general, "basicTime") or 0) * 60
    for name, least_basic, least_adjusted in CLASS_LIMITS[kind]:
        if basic >= least_basic and adjusted >= least_adjusted:
            return name
    return "X"


def h9_header(general: Element) -> dict[str, str]:
    """What the file says about the event, under EGD h9 names (``Tournament.info``), as
    OpenGotha's h9 export writes it (module docstring)."""
    info: dict[str, str] = {}
    dates = [d.strip() for d in (general.get("beginDate"), general.get("endDate")) if d]
    dates = [d for d in dates if d]
    if dates:
        info["DT"] = ",".join(dates)
    location = (general.get("location") or "").strip()
    if location:
        info["PC"] = f",{location}"
    komi = (general.get("komi") or "").strip()
    if komi:
        info["KM"] = komi
    adjusted = adjusted_time(general)
    if adjusted is not None:
        info["CL"] = egf_class(general, adjusted)
        info["TM"] = str(java_div(adjusted, 60))
        info["CM"] = TIME_SYSTEMS[general.get("complementaryTimeSystem", "").strip()]
    return info
