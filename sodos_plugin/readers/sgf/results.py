"""Interpret an SGF ``RE`` value (docs/rules.md §9, SGF FF[4] ``RE``).

Contract: :func:`parse_result` maps any text to a :class:`ParsedResult`; it never
raises. A result whose ``how`` is ``"contradiction"`` says two incompatible things
(``B+Jigo``): the reader rejects the record with its note. The value space, case and
space tolerant:

* ``B+R``/``B+Resign``, ``B+T``/``B+Time``: played wins (resignation, time);
* ``B+F``/``B+Forfeit`` (also ``Default``, ``Def``, ``bye``): a win *by default*
  (:attr:`ParsedResult.by_default`), scored like a played win (docs/rules.md §1);
* ``B+<score>`` (``W+34.50``, ``B+ 3.5``, ``B+3.5 points``): a played win by that
  margin; ``B+0`` (``B+0.0``) is a win without a count, as Fox writes a game its loser
  left or lost on time (docs/rules.md §9);
* bare ``B+``: a played win, reason not given;
* spelled-out reasons are read word by word, filler words (``win``, ``by``, ``on``,
  ``over`` …) aside: ``B+forfeit win`` is a forfeit, ``W+Time Over`` a win on time,
  ``B+Illegal``, ``B+Offline``, ``B+Disconnect`` wins for a reason we know the name of;
  any other word after ``B+`` is still a win for that colour, with a note (the winner is
  explicit, the reason is not needed for scoring);
* a winner *and* a word for no winner — ``B+Jigo``, ``W+Draw``, ``B+Void``, ``B+?`` —
  is a contradiction;
* ``0``, ``Draw``, ``Jigo``: jigo; ``Void``: no result; ``?`` or empty: unknown — both
  are *not scored*;
* English sentences, first clause only (what follows is a comment, often the count):
  ``B``/``W``/``Black``/``White`` alone or with ``wins``/``won`` (``Black wins by
  resignation``, ``White wins on time``) is that colour's win; ``White resigns``,
  ``White forfeits``, ``White loses on time`` are Black's (``Black resigns. W 133.5 B
  81.0`` is White's win by resignation);
* East-Asian texts: 黒/黑/흑 (Black) or 白/백 (White) with 勝/胜/승 (win),
  中押し/中盘/불계 (resignation), 時間切れ/超时/시간 (time), 不戦/不战/부전 (default);
  持碁/和棋/和局/무승부 (jigo);
* anything else: not scored, with a note saying the text was not understood.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from sodos_plugin.engine.model import Result

__all__ = ["ParsedResult", "parse_result"]


class ParsedResult(NamedTuple):
    """One game's outcome read from ``RE``.

    :param result: the board outcome; ``Result.UNKNOWN`` when not scored.
    :param by_default: a forfeit (not played over the board).
    :param how: ``resign``, ``time``, ``forfeit``, ``score``, ``unspecified``,
        ``illegal``, ``other``, ``jigo``, ``void``, ``unknown``, ``unrecognised`` or
        ``contradiction`` (the record is rejected with the note).
    :param margin: the winning margin for ``score`` results.
    :param note: why a result is not scored, or what was unusual (for warnings).
    """

    result: Result
    by_default: bool = False
    how: str = "unknown"
    margin: Fraction | None = None
    note: str = ""

    @property
    def scored(self) -> bool:
        return self.result is not Result.UNKNOWN


_WIN = re.compile(r"^([bw])\s*\+\s*(.*)$", re.DOTALL)
_SCORE = re.compile(r"^(\d{1,4})(?:[.,](\d{1,6}))?$")
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_]+|\?")
_CLAUSE_END = re.compile(r"[.;,!](?=\s|$)")

#: Reason words after ``B+`` / ``W+`` (lower case) → ``how``.
REASONS: dict[str, str] = {
    "": "unspecified",
    "r": "resign",
    "res": "resign",
    "resign": "resign",
    "resigns": "resign",
    "resigned": "resign",
    "resignation": "resign",
    "t": "time",
    "time": "time",
    "timeout": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
    "forfeits": "forfeit",
    "forfeited": "forfeit",
    "default": "forfeit",
    "def": "forfeit",
    "bydefault": "forfeit",
    "by default": "forfeit",
    "bye": "forfeit",
    "walkover": "forfeit",
    "i": "illegal",
    "illegal": "illegal",
    "offline": "other",
    "disconnect": "other",
    "disconnected": "other",
    "abandoned": "other",
}
#: Words that say nothing about how a game was won ("forfeit win", "Time Over").
FILLER = frozenset(
    {"win", "wins", "won", "by", "on", "over", "out", "of", "the", "game", "a", "an"}
    | {"with", "after", "in", "lost", "loss", "lose", "loses", "move", "moves"}
    | {"point", "points", "pts", "moku"}
)
#: Words that say there is no winner: after ``B+`` they contradict it.
NO_WINNER: dict[str, str] = {
    "jigo": "jigo",
    "draw": "jigo",
    "drawn": "jigo",
    "tie": "jigo",
    "void": "void (no result)",
    "unknown": "unknown",
    "?": "unknown",
    "unfinished": "unknown",
}
_COLOURS = {"b": "b", "black": "b", "w": "w", "white": "w"}
#: Verbs after a colour: (the colour wins?, how) — ``White resigns`` is Black's win.
_VERBS: dict[str, tuple[bool, str]] = {
    "wins": (True, ""),
    "win": (True, ""),
    "won": (True, ""),
    "resigns": (False, "resign"),
    "resigned": (False, "resign"),
    "resign": (False, "resign"),
    "forfeits": (False, "forfeit"),
    "forfeited": (False, "forfeit"),
    "defaults": (False, "forfeit"),
    "loses": (False, ""),
    "lost": (False, ""),
    "lose": (False, ""),
}
_JIGO = {"0", "draw", "jigo", "jigo.", "tie", "持碁", "和棋", "和局", "무승부"}
_VOID = {"void", "no result", "noresult"}
_UNKNOWN = {"", "?", "unknown", "unfinished"}

_CJK_BLACK = ("黒", "黑", "흑")
_CJK_WHITE = ("白", "백")
_CJK_WIN = ("勝", "胜", "승")
_CJK_HOW = (
    (("不戦", "不战", "부전"), "forfeit"),
    (("中押", "中盘", "中盤", "불계"), "resign"),
    (("時間切", "超时", "시간"), "time"),
    (("反則", "犯规", "반칙"), "illegal"),
)
_CJK_DIGITS = re.compile(r"(\d+)")


def _win(colour: str, how: str, margin: Fraction | None = None, note: str = "") -> ParsedResult:
    result = Result.BLACK_WINS if colour == "b" else Result.WHITE_WINS
    return ParsedResult(result, how == "forfeit", how, margin, note)


def _contradiction(raw: str, why: str) -> ParsedResult:
    return ParsedResult(Result.UNKNOWN, how="contradiction", note=f"RE[{raw}]: {why}")


_NAMES = {"b": "Black", "w": "White"}


def _reason(raw: str, colour: str, words: list[str]) -> ParsedResult | None:
    """A win for ``colour`` whose reason is ``words``; None when a word is not known."""
    numbers = [w for w in words if w[0].isdigit()]
    if len(numbers) == 1 and all(w in FILLER for w in words if w is not numbers[0]):
        score = _SCORE.match(numbers[0])
        if score is None:
            return None
        margin = Fraction(f"{score.group(1)}.{score.group(2) or 0}")
        if margin == 0:  # Fox: a win the server gave without a count (time, left)
            return _win(colour, "unspecified")
        return _win(colour, "score", margin)
    hows = []
    for word in words:
        if word in NO_WINNER:
            return _contradiction(
                raw,
                f"says {_NAMES[colour]} won and says {NO_WINNER[word]}: contradictory",
            )
        if word in REASONS:
            hows.append(REASONS[word])
        elif word not in FILLER:
            return None
    if not hows:
        return _win(colour, "unspecified")
    # a forfeit flag is kept whatever else is said; else the first reason given
    return _win(colour, "forfeit" if "forfeit" in hows else hows[0])


def _sentence(raw: str) -> ParsedResult | None:
    """``Black wins by resignation``, ``White resigns.``, ``W``: or None."""
    clause = _CLAUSE_END.split(raw, 1)[0]
    words = [w.lower() for w in _TOKEN.findall(clause)]
    if not words or words[0] not in _COLOURS:
        return None
    colour = _COLOURS[words[0]]
    rest = words[1:]
    if any(w in _COLOURS for w in rest):
        return None  # both colours named: not guessed
    if not rest:
        return _win(colour, "unspecified")
    verb = _VERBS.get(rest[0])
    if verb is None:
        return None
    wins, how = verb
    winner = colour if wins else ("w" if colour == "b" else "b")
    parsed = _reason(raw, winner, rest[1:])
    if parsed is None or parsed.how == "contradiction":
        return parsed
    if how and parsed.how == "unspecified":
        return _win(winner, how)
    return parsed


def _cjk(text: str) -> ParsedResult | None:
    """Black/White + win in Japanese, Chinese or Korean, or None when not such a text."""
    if any(word in text for word in ("持碁", "和棋", "和局", "무승부")):
        return ParsedResult(Result.JIGO, how="jigo")
    if not any(mark in text for mark in _CJK_WIN):
        return None
    positions = [(text.find(c), "b") for c in _CJK_BLACK] + [
        (text.find(c), "w") for c in _CJK_WHITE
    ]
    found = sorted((pos, colour) for pos, colour in positions if pos >= 0)
    if not found or len({colour for _, colour in found}) != 1:
        return None  # no colour, or both colours named: do not guess
    colour = found[0][1]
    for words, how in _CJK_HOW:
        if any(word in text for word in words):
            return _win(colour, how)
    if "目" in text or "子" in text or "집" in text:
        return _win(colour, "score")  # margins in CJK counting are not converted
    return _win(colour, "unspecified")


@lru_cache(maxsize=4096)
def parse_result(text: str) -> ParsedResult:
    """Interpret the text of ``RE`` (already decoded). Never raises; cached (immutable)."""
    raw = " ".join(text.split())
    low = raw.lower()
    if low in _UNKNOWN:
        return ParsedResult(Result.UNKNOWN, how="unknown", note=f"RE[{raw}]: result unknown")
    if low in _VOID:
        return ParsedResult(Result.UNKNOWN, how="void", note=f"RE[{raw}]: void, no result")
    if low in _JIGO:
        return ParsedResult(Result.JIGO, how="jigo")
    match = _WIN.match(low)
    if match:
        colour, reason = match.group(1), match.group(2).strip()
        if reason in REASONS:
            return _win(colour, REASONS[reason])
        parsed = _reason(raw, colour, _TOKEN.findall(reason))
        if parsed is not None:
            return parsed
        return _win(
            colour, "other", note=f"RE[{raw}]: reason {reason!r} not known; counted as a win"
        )
    sentence = _sentence(raw)
    if sentence is not None:
        return sentence
    cjk = _cjk(raw)
    if cjk is not None:
        return cjk
    return ParsedResult(
        Result.UNKNOWN, how="unrecognised", note=f"RE[{raw}]: result not understood, not scored"
    )
