"""Text from strangers, made safe to show: escaped controls, display widths, cuts.

Names, results, file and archive member names come from files strangers wrote. Shown
raw, an ESC starts a terminal sequence (colours, cursor moves, a rewritten title), a CR
or LF forges a line (``rejected: ...`` where there was none), a bidi override reverses
what follows. Every terminal, CSV and error output passes such text through
:func:`printable`; writers that align columns measure with :func:`display_width` and
cut with :func:`fit`.

Contract:

* :func:`printable` escapes, visibly, every character of the Unicode categories
  Cc (C0 controls, DEL, C1 controls), Cf (format: bidi embeddings, overrides,
  isolates and marks, zero-width space, soft hyphen, BOM, tags ...), Cs (lone
  surrogates, as undecodable bytes leave them) and Zl/Zp (line and paragraph
  separators). Kept as they are: ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER
  (spelling in Persian and Indic names, emoji sequences), every space of category Zs
  (no-break, ideographic), letters, marks, symbols, private-use characters. The escapes
  are Python's: ``\\t`` ``\\n`` ``\\r``, ``\\x1b``, ``\\u202e``, ``\\U000e0001``. A
  backslash is kept: a name spelled with a backslash reads the same as an escape, but
  can neither move the cursor nor start a line.
* :func:`display_width` counts terminal columns: East Asian Wide and Fullwidth
  characters 2, combining marks, enclosing marks, format characters and controls 0,
  every other character 1 (East Asian Ambiguous characters count 1, as most
  terminals outside CJK locales show them).
* :func:`json_text` makes JSON text (``json.dumps(..., ensure_ascii=False)``) safe to
  show the same way, with JSON escapes (``\\u001b``): the value a program reads is
  unchanged.
* :func:`fit` cuts text to a display width, ending with ``…`` when cut; it never
  splits a character from its combining marks.
* :func:`shown` and :func:`quoted` make a piece of input (a cell, a name, a header) fit
  for a message: escaped and cut to a few dozen columns, so that a warning never echoes
  a whole input line (a header of 10 million characters is shown as its first 60).

Fast paths: text whose characters are all printable (``str.isprintable``, C speed)
is returned as it is; ASCII text is measured by its length.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "ELLIPSIS",
    "display_width",
    "fit",
    "fit_middle",
    "json_text",
    "pad",
    "printable",
    "quoted",
    "shown",
    "unsafe",
]

#: The columns a piece of input takes in a message (:func:`shown`).
SHOWN_WIDTH = 60

ELLIPSIS = "…"

#: Categories escaped by :func:`printable` (see the module docstring).
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Format characters that are part of how names are spelled: kept.
KEPT = frozenset({"\u200c", "\u200d"})
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc", "Cs", "Zl", "Zp"})


def _escape(char: str) -> str:
    short = _SHORT.get(char)
    if short is not None:
        return short
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def unsafe(char: str) -> bool:
    """True for a character :func:`printable` escapes."""
    return char not in KEPT and unicodedata.category(char) in ESCAPED_CATEGORIES


def printable(text: str) -> str:
    """``text`` with every control, format and line-separator character escaped.

    >>> printable("Ann\\x1b[2J\\nrejected: x")
    'Ann\\\\x1b[2J\\\\nrejected: x'
    """
    if text.isprintable():  # the usual name: nothing to escape
        return text
    category = unicodedata.category
    return "".join(
        _escape(char) if char not in KEPT and category(char) in ESCAPED_CATEGORIES else char
        for char in text
    )


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON spells characters beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(text: str) -> str:
    """JSON text with the characters :func:`unsafe` escaped.

    Outside strings JSON text is ASCII without controls, so escaping any such
    character in place yields the same JSON value.
    """
    lines = text.split("\n")  # indent's newlines; line.isprintable() is the C fast path
    for number, line in enumerate(lines):
        if not line.isprintable():
            lines[number] = "".join(_json_escape(c) if unsafe(c) else c for c in line)
    return "\n".join(lines)


def _char_width(char: str) -> int:
    if unicodedata.category(char) in _ZERO_WIDTH_CATEGORIES:
        return 0
    # Hangul medial vowels and final consonants join the syllable before them.
    if "\u1160" <= char <= "\u11ff" or "\ud7b0" <= char <= "\ud7ff":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes (wide 2, combining 0, others 1)."""
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(map(_char_width, text))


def fit(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns, ``…`` marking the cut.

    >>> fit("Schmidt Jonas", 8)
    'Schmidt…'
    """
    if display_width(text) <= width:
        return text
    if width <= 0:
        return ""
    room = width - display_width(ELLIPSIS)
    used = 0
    end = len(text)
    for index, char in enumerate(text):
        w = _char_width(char)
        if used + w > room:
            end = index
            break
        used += w
    # marks after the last character kept have width 0: they stay with it
    return text[:end] + ELLIPSIS


def fit_middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns by removing its middle (``…``): the start and
    the end stay, e.g. a long path and the reason after it.

    >>> fit_middle("rejected: a/very/long/path.sgf: not SGF", 30)
    'rejected: a/ve…th.sgf: not SGF'
    """
    if display_width(text) <= width:
        return text
    if width <= 1:
        return fit(text, width)
    head = fit(text, (width + 1) // 2)  # ends with "…"
    room = width - display_width(head)
    used = 0
    start = len(text)
    for index in range(len(text) - 1, -1, -1):
        w = _char_width(text[index])
        if used + w > room:
            break
        used += w
        start = index
    return head + text[start:]


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (``str.ljust`` by display width)."""
    gap = width - display_width(text)
    if gap <= 0:
        return text
    return " " * gap + text if right else text + " " * gap


def shown(text: str, width: int = SHOWN_WIDTH) -> str:
    """A piece of input for a message: escaped (:func:`printable`) and cut to ``width``
    columns, ``…`` marking the cut. Only the start of a long text is looked at: the cost
    does not grow with the text.

    >>> shown("x" * 10_000_000, 8)
    'xxxxxxx…'
    """
    head = text[: width * 2 + 2]  # escapes and wide characters: never fewer columns than this
    text_shown = printable(head)
    if len(head) < len(text):  # cut here: the ellipsis says so
        if display_width(text_shown) < width:
            return text_shown + ELLIPSIS
        return fit(text_shown + ELLIPSIS, width)
    return fit(text_shown, width)


def quoted(text: str, width: int = SHOWN_WIDTH) -> str:
    """:func:`shown` between single quotes: ``'Ann'``, ``'xxxx…'``."""
    return f"'{shown(text, width)}'"
