"""Go ranks as integers, the way OpenGotha counts them (docs/rules.md §1), read in every
common spelling servers and editors write (docs/rules.md §10.1).

``30k`` → −30, ``1k`` → −1, ``1d`` → 0, ``9d`` → 8. Professional ranks count from
``1p`` = 7d (the EGF rating scale places 1p at about 7d), capped at 9d, because
OpenGotha's scale stops at 9d. The start McMahon score then is
``clamp(rank, floor, bar) − zero + correction`` (see :mod:`sodos_plugin.engine.scores`).

Spellings (:func:`read_rank`; case and spaces do not matter):

* kyu: ``5k``, ``5 kyu``, ``5级`` / ``5級`` (Chinese, Japanese), ``5급`` (Korean);
* dan: ``3d``, ``3 dan``, ``3段``, ``3단``, ``初段`` (1 dan), ``三段`` (digits in kanji);
* professional: ``9p``, ``9 pro``, ``9d pro``, ``P9``, ``P9p``, ``P9段`` (Fox writes its
  professionals ``P9段`` … ``P1段``, Wbaduk ``P1`` … ``P9``, Tygem and KGS ``9p``);
* a trailing ``*``, ``?`` or ``+`` is a server's mark of rating certainty (NNGS ``14k*``,
  KGS ``13k?``, IGS ``11k+``), not part of the rank.

A number alone (``1805`` CGOS Elo), ``NR`` (not ranked) or a bare ``P`` is no rank.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["MAX_RANK", "MIN_RANK", "GoRank", "format_rank", "parse_rank", "rank_text", "read_rank"]

MIN_RANK = -30  # 30k
MAX_RANK = 8  # 9d

#: Units after the number → kind (lower case).
_UNITS = {
    "k": "k", "kyu": "k", "级": "k", "級": "k", "급": "k",
    "d": "d", "dan": "d", "段": "d", "단": "d",
    "p": "p", "pro": "p",
}  # fmt: skip
_KANJI = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_MARK = r"[*?+]?"
# "5k", "3 dan", "9d pro", "15级", "P9段", "P9p", "P9" (lower case, stripped)
_RANK = re.compile(r"(p?)\s*(\d{1,2})\s*(k|kyu|级|級|급|d|dan|段|단|p|pro)?(\s*pro)?\s*" + _MARK)
_KANJI_RANK = re.compile(r"([初一二三四五六七八九])\s*(段|級|级)\s*" + _MARK)
_EXAMPLES = "expected e.g. 5k, 3d, 1p"


class GoRank(NamedTuple):
    """A rank as written: its kind (``"k"`` kyu, ``"d"`` dan, ``"p"`` professional) and
    its grade (``5`` in 5k), checked in range (1..30 kyu, 1..9 dan or pro)."""

    kind: str
    grade: int

    @property
    def text(self) -> str:
        """The plain spelling: ``"5k"``, ``"3d"``, ``"9p"``."""
        return f"{self.grade}{self.kind}"


def read_rank(text: str) -> GoRank:
    """A rank in any spelling of the module documentation.

    :raises ValueError: for anything else (the caller names the file and field).
    """
    plain = text.strip().lower()
    match = _RANK.fullmatch(plain)
    if match is not None:
        prefix, number, unit, pro = match.groups()
        number = int(number)
        kind = _UNITS.get(unit or "")
        if prefix or pro:  # "P9", "P9p", "P9段", "9d pro": a professional
            if kind == "k" or (prefix and pro):
                raise ValueError(f"not a Go rank: {text!r} ({_EXAMPLES})")
            kind = "p"
        elif kind is None:  # a number alone: an Elo, a rating, a grade without unit
            raise ValueError(f"not a Go rank: {text!r} ({_EXAMPLES})")
    else:
        kanji = _KANJI_RANK.fullmatch(plain)
        if kanji is None:
            raise ValueError(f"not a Go rank: {text!r} ({_EXAMPLES})")
        number, kind = _KANJI[kanji.group(1)], _UNITS[kanji.group(2)]
    if kind == "k" and not 1 <= number <= 30:
        raise ValueError(f"kyu rank out of range 1k..30k: {text!r}")
    if kind == "d" and not 1 <= number <= 9:
        raise ValueError(f"dan rank out of range 1d..9d: {text!r}")
    if kind == "p" and not 1 <= number <= 9:
        raise ValueError(f"professional rank out of range 1p..9p: {text!r}")
    return GoRank(kind, number)


def parse_rank(text: str) -> int:
    """A rank (any spelling of :func:`read_rank`) on OpenGotha's integer scale:
    ``"3d"`` → 2, ``"5K"`` → −5, ``"1p"`` → 6 (7d), ``"P9段"`` → 8 (9d, the cap).

    :raises ValueError: for anything else (the caller names the file and field).
    """
    kind, grade = read_rank(text)
    if kind == "k":
        return -grade
    if kind == "d":
        return grade - 1
    return min(MAX_RANK, grade + 5)


def rank_text(text: str) -> str | None:
    """The plain spelling of a rank text (``"P9段"`` → ``"9p"``, ``"18级"`` → ``"18k"``,
    ``"14k*"`` → ``"14k"``), or None when it is no rank."""
    try:
        return read_rank(text).text
    except ValueError:
        return None


def format_rank(rank: int) -> str:
    """The inverse of :func:`parse_rank` for amateur ranks: −5 → ``"5k"``, 2 → ``"3d"``."""
    return f"{-rank}k" if rank < 0 else f"{rank + 1}d"
