"""Attribute text as OpenGotha's XML import reads it (docs/rules.md §6).

Contract: :class:`Attributes` gives an element's attribute, or OpenGotha's import
default when it is missing (:data:`DEFAULTS`; :data:`DTD_DEFAULTS` for a file naming
``tournament.dtd``), and reads integers and booleans as Java does — an integer OpenGotha
cannot parse makes it fail the whole file, so it is an :class:`InputError` naming the
element and attribute here too. :func:`convert_kdp` is OpenGotha's rank conversion.
Warnings collect in :attr:`Attributes.warnings`, each prefixed by the file.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.errors import InputError

#: OpenGotha's rank scale (``Gotha.MIN_RANK``, ``MAX_RANK``) and its "unreadable" rank.
MIN_RANK, MAX_RANK, NO_RANK = -30, 8, -99

#: Attribute defaults of OpenGotha's import code (``extractNodeValue`` defaults).
DEFAULTS: dict[tuple[str, str], str] = {
    ("Tournament", "dataVersion"): "200",
    ("Player", "name"): "",
    ("Player", "firstName"): "",
    ("Player", "rank"): "30K",
    ("Player", "rating"): "-900",
    ("Player", "grade"): "",
    ("Player", "smmsCorrection"): "0",
    ("Player", "participating"): "1" * 20,
    ("Game", "roundNumber"): "1",
    ("Game", "tableNumber"): "1",
    ("Game", "whitePlayer"): "",
    ("Game", "blackPlayer"): "",
    ("Game", "handicap"): "0",
    ("Game", "result"): "RESULT_UNKNOWN",
    ("ByePlayer", "roundNumber"): "1",
    ("ByePlayer", "player"): "",
    ("GeneralParameterSet", "numberOfRounds"): "5",
    ("GeneralParameterSet", "numberOfCategories"): "1",
    ("GeneralParameterSet", "genMMFloor"): "20K",
    ("GeneralParameterSet", "genMMBar"): "4D",
    ("GeneralParameterSet", "genMMZero"): "30K",
    ("GeneralParameterSet", "genNBW2ValueAbsent"): "0",
    ("GeneralParameterSet", "genNBW2ValueBye"): "0",
    ("GeneralParameterSet", "genMMS2ValueAbsent"): "0",
    ("GeneralParameterSet", "genMMS2ValueBye"): "0",
    ("GeneralParameterSet", "genRoundDownNBWMMS"): "true",
    ("GeneralParameterSet", "genCountNotPlayedGamesAsHalfPoint"): "false",
    ("Category", "number"): "1",
    ("Category", "lowerLimit"): "30K",
    ("PlacementCriterion", "number"): "1",
    ("PlacementCriterion", "name"): "NULL",
    ("HandicapParameterSet", "hdCorrection"): "1",
}
#: Where OpenGotha's ``tournament.dtd`` gives another default: a file that names the DTD
#: gets these from the XML parser before OpenGotha's code sees the element.
DTD_DEFAULTS: dict[tuple[str, str], str] = {
    ("GeneralParameterSet", "genNBW2ValueBye"): "1",
    ("GeneralParameterSet", "genMMS2ValueAbsent"): "1",
    ("GeneralParameterSet", "genMMS2ValueBye"): "1",
    ("PlacementCriterion", "name"): "MMS",
    ("Player", "rating"): "-2950",
}
_JAVA_INT = re.compile(r"[+-]?\d+")
#: Java's String.trim() removes every character up to U+0020.
_TRIMMED = "".join(map(chr, range(33)))
_STANDARD_RANK = re.compile(r"(?:[1-9]|[12]\d|30)[kK]|[1-9][dDpP]")


class Attributes:
    """Attribute values with OpenGotha's defaults; errors name the element."""

    def __init__(self, source: str, dtd: bool):
        self.source = source
        self.dtd = dtd
        self.warnings: list[str] = []
        #: texts already read by :meth:`integer`, and their values (the same texts repeat)
        self.integers: dict[str, int] = {}

    def warn(self, text: str) -> None:
        self.warnings.append(f"{self.source}: {text}")

    def label(self, element: Element, skip: str = "") -> str:
        label = element.tag
        for key in ("name", "firstName", "roundNumber", "tableNumber", "player", "number"):
            if key in element.attrib and key != skip:
                label += f" {key}={element.attrib[key]!r}"
        return f"<{label}>"

    def fail(self, element: Element, attribute: str, message: str) -> InputError:
        return InputError(
            message, source=self.source, where=f"{self.label(element, attribute)} {attribute}"
        )

    def text(self, element: Element, attribute: str) -> str:
        value = element.get(attribute)
        if value is not None:
            return value
        key = (element.tag, attribute)
        if self.dtd and key in DTD_DEFAULTS:
            return DTD_DEFAULTS[key]
        return DEFAULTS[key]

    def integer(self, element: Element, attribute: str) -> int:
        """Java's ``Integer.parseInt`` (surrounding blanks allowed): OpenGotha fails the
        whole file on anything else, so it is an error here too."""
        raw = self.text(element, attribute)
        known = self.integers.get(raw)
        if known is not None:
            return known
        text = raw.strip()
        if not _JAVA_INT.fullmatch(text) or len(text) > 11:
            raise self.fail(element, attribute, f"expected an integer, got {raw!r}")
        value = int(text)
        if not -(2**31) <= value < 2**31:
            raise self.fail(element, attribute, f"expected an integer, got {raw!r}")
        self.integers[raw] = value
        return value

    def boolean(self, element: Element, attribute: str) -> bool:
        """Java's ``Boolean.parseBoolean``: ``true`` in any case, anything else false."""
        raw = self.text(element, attribute)
        if raw.lower() not in ("true", "false"):
            self.warn(
                f"{self.label(element)} {attribute}={raw!r} is not true or false: "
                "read as false, as OpenGotha does"
            )
        return raw.lower() == "true"

    def rank(self, element: Element, attribute: str) -> int:
        """``Player.convertKDPToInt``: OpenGotha's rank integer, −99 when unreadable."""
        return convert_kdp(self.text(element, attribute))


def java_int(text: str) -> int | None:
    return int(text) if _JAVA_INT.fullmatch(text) and len(text) <= 11 else None


def convert_kdp(text: str) -> int:
    """OpenGotha's ``Player.convertKDPToInt``: ``nk`` → −n, ``nd`` → n−1, 1–3p → 7D,
    4–6p → 8D, more → 9D, another last letter → kyu, all digits (2+) → kyu; clamped to
    30K…9D; unreadable (empty, one digit, ``1.5K``) → −99."""
    draft = text.strip(_TRIMMED) or " "
    last = draft[-1]
    number = java_int(draft[:-1])
    if number is None:
        return NO_RANK
    if "0" <= last <= "9":
        last = "k"
        number = java_int(draft)
        if number is None:  # pragma: no cover - digits before a digit parse
            return NO_RANK
    if last in "dD":
        rank = number - 1
    elif last in "pP":
        rank = 6 if number <= 3 else 7 if number <= 6 else 8
    else:
        rank = -number
    return min(MAX_RANK, max(MIN_RANK, rank))


def rank_note(text: str, rank: int) -> str | None:
    """Why a rank text deserves a warning (None when it is a plain Go rank)."""
    stripped = text.strip()
    if rank == NO_RANK:
        return None
    if _STANDARD_RANK.fullmatch(stripped):
        return None
    return (
        f"rank {text!r} is not a Go rank from 30K to 9D: OpenGotha reads it as {shown_rank(rank)}"
    )


def shown_rank(rank: int) -> str:
    return format_rank(rank).upper() if rank != NO_RANK else "-99 (below 30K)"
