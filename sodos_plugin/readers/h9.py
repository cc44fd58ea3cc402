"""EGD h9/h10 results reader (docs/rules.md §12).

Contract: ``read([path])`` returns a Tournament rebuilt from the **round tokens**; the
printed criterion columns are kept aside (:attr:`H9Row.printed`, for conformance
checks) and never used as results. Every criterion is recomputed by the engine.

Format, as scanned here:

* header lines start with ``;``: properties ``EV[name]``, ``DT[...]``, ``HA[h<n>]``
  (handicap reduction n — OpenGotha's ``hdCorrection``; it only shaped the pairing,
  the SOS correction uses each game's own handicap), ``KM[]``, ``CL[]``...;
* the column line ``; Pl Name Rk Co Club`` (any spelling from ``Pl`` to ``Club``:
  ``;Pl Name Rank Cou Club``, ``;# Pl rank Cntry club``) then criterion names run
  together (``MMS  SOSSOSOS``; ``score`` is read as NBW; round labels over the round
  tokens such as ``1`` or ``2nd`` are skipped): it is split into the known names of
  :data:`COLUMNS`, OpenGotha's short criterion names (``Rank`` included); a word that
  is not made of known names (``U20``, a category's place) is an ignored column, named
  in a warning; ``Pin``, the EGD's label of the ``|PIN``, is no column. Each name is
  read as the criterion OpenGotha means (docs/rules.md §12):
  ``SOS``, ``SOSOS``, ``SODOS``, ``SOS-1``... take the event's form (``SOSM`` in a
  McMahon file, one with an ``MMS`` column; ``SOSW`` in a Swiss), ``Rank`` is RANK, so
  that an event has the labels its OpenGotha XML gives. Value columns beyond the
  header (OpenGotha's trailing ``0``) are ignored;
* rows: place (blank for a tie), a name of any length, the rank (``3d``, ``12K``),
  country, club, the value columns and one token per round, in either order;
  then, in files the EGD keeps, ``|PIN``: the player's EGD PIN (``Player.ids["egd"]``,
  everything after the ``|``). ``XX`` as the country and ``xxxx`` as the club are
  OpenGotha's marks for "unknown" and read as unknown. Values may be ``2½``, ``2.5``,
  ``2.75``, ``2¼`` or, in ISO-8859-15 files, ``2`` followed by byte 0xBD/0xBC/0xBE
  (read as ½ ¼ ¾, their Latin-1 meaning, in value columns; OpenGotha prints SODOS in
  quarters); a ``Rating`` column gives the players' ratings. OpenGotha 3.4x-3.5x writes
  ½ ¼ ¾ as ``?`` (``33?``, ``198?``: not in its ISO-8859-15 output) and cuts a value to
  4 characters (``1188½`` → ``1188``): a ``?`` value is read as its whole part plus ½
  (exact for MMS, which counts halves: the only printed value used besides Rating),
  its column is kept in :attr:`H9Row.marked`, and a note says so. Such a token is a
  value where the header's values stand (among the first tokens after the club, all
  values, when values come first; among the last, when they come last), else a round
  token of unknown result;
* a criterion the column line names twice (OpenGotha 3.42's ``NBW  NBW``) ranks once,
  at its first place, with a note; both columns still take their place among the values;
* round tokens ``opp{+|-|=|?}[/{w|b}[h]]`` (``!`` instead of ``/`` marks a game won
  or lost by default); the opponent is the *row number* (1-based, rows in file order);
  ``0+`` free win (bye, 1 point), ``0=`` unplayed round worth ½ (read as an absence
  worth ½ in the main score, as OpenGotha exports its default absence), ``0-`` free
  round lost (not assigned, 0 points).

Start scores: h9 does not store them. When an ``MMS`` column is printed, each
player's start score is recovered as *printed MMS − points earned in the rounds*
(games, plus ½ per ``0=`` and 1 per ``0+``, their running total floored as with
OpenGotha's default round-down); with the Rating column (the players' ratings, which
RATING ranks by), it is the only printed value used. Without an MMS column the file is
read as a Swiss event and start scores are not needed.

Colours: a game whose tokens give no colour (``12+``, ``12+/?0``) has its colours
unknown (``Game.colours_known`` false; the earlier row is stored as ``black``, a side
only); one token's colour gives both. A handicap game needs both colours: the reader
refuses ``12+/?3`` (who gave the stones is unknown).

Encodings: UTF-8 when the bytes decode as UTF-8 (a BOM is skipped), else ISO-8859-15.
Only a regular file is read, within the ``max_bytes`` option (default 16 MiB; see
:mod:`sodos_plugin.util.inputfiles`). Handicaps are 0..9 as in the other readers; opponents
are row numbers of up to 7 digits (files of 10 000+ players).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin.config.options import positive_integer
from sodos_plugin.engine.model import (
    NO_IDS,
    Game,
    Ids,
    Player,
    Result,
    Tournament,
    iso_day,
)
from sodos_plugin.engine.ranks import parse_rank
from sodos_plugin.errors import InputError
from sodos_plugin.util.inputfiles import FileRefused, plain_head, read_regular
from sodos_plugin.util.textsafe import fit

NAME = "h9"
MAX_BYTES = 16 << 20
MAX_ROUNDS = 64

_WHOLE_FORMS = [f"{base}{form}" for base in ("SOS", "SOSOS", "SODOS", "CUSS") for form in "WM"]
_WHOLE_FORMS += [f"SOS{form}-{cut}" for form in "WM" for cut in "12"]
#: Header column names (upper-cased) → the criterion they name; ``{}`` is the event's
#: form, W or M (docs/rules.md §12). OpenGotha's short names
#: (``PlacementParameterSet.allPlacementCriteria``; its export cuts them to 5 letters:
#: ``Ratin``), older names (``SSOS``, ``SDOS``: pairgoth, old WAGC files), ``SODOMS``,
#: and the W and M names whole (``SODOSW``: a form that is not the event's).
COLUMNS: dict[str, str] = {
    "NBW": "NBW",
    "MMS": "MMS",
    "SOS": "SOS{}",
    "SOSOS": "SOSOS{}",
    "SSOS": "SOSOS{}",
    "SODOS": "SODOS{}",
    "SDOS": "SODOS{}",
    "SODOMS": "SODOSM",
    "CUSS": "CUSS{}",
    "SOS-1": "SOS{}-1",
    "SOS-2": "SOS{}-2",
    # a form the event does not have, written whole (sodos's h9 writer)
    **{name: name for name in _WHOLE_FORMS},
    "EXT": "EXT",
    "EXR": "EXR",
    "DC": "DC",
    "SDC": "SDC",
    "CAT": "CAT",
    "CPS": "CPS",
    "STS": "STS",
    "SOSTS": "SOSTS",
    "RANK": "RANK",
    "RATING": "RATING",
    "RATIN": "RATING",
    "NULL": "NULL",
    # Some EGD submissions label the main score "score" (WAGC 2018: the number of wins).
    "SCORE": "NBW",
}
#: Country and club OpenGotha writes when it knows none (``generateH9File``).
UNKNOWN_COUNTRY, UNKNOWN_CLUB = "XX", "xxxx"

# "; Pl Name Rk Co Club ..." (OpenGotha), ";Pl Name Rank Cou Club ...", ";# Pl rank Cntry club".
_COLUMN_LINE = re.compile(r"^;\W*Pl\b.*?\bclub\b(.*)$", re.IGNORECASE)
#: Opponents are row numbers of up to 7 digits; a handicap has one or two digits,
#: so that 12 is refused as outside 0..9 rather than read as another token.
_OPPONENT = "[0-9]{1,7}"
_SUFFIX_SOURCE = r"([-+=?])(?:([/!])([wbWB?])?([0-9]{1,2})?)?"
_ROUND = re.compile(rf"^({_OPPONENT}){_SUFFIX_SOURCE}$")
#: What follows the opponent number in a round token (``+/w2``, ``=``, ``-!b``).
_SUFFIX = re.compile(rf"^{_SUFFIX_SOURCE}$")
#: Printed values are small: 12 digits at most (a longer run of digits is no value);
#: a value has digits or a fraction glyph (``-``, ``.5`` are none).
_VALUE_SOURCE = r"(?=-?[0-9½¼¾œŒŸ])(-?)([0-9]{0,12})(?:([½¼¾œŒŸ])|\.([0-9]{1,4}))?"
_VALUE = re.compile(rf"^{_VALUE_SOURCE}$")
#: OpenGotha's value with a fraction it cannot print (``33?``); also a round token
#: (opponent 33, result unknown), told apart by where it stands (see _scan_row).
_MARKED = re.compile(r"^(-?)([0-9]{1,12})\?$")


def _ungrouped(source: str) -> str:
    """A pattern's source with its groups made non-capturing (``(`` → ``(?:``)."""
    return re.sub(r"\((?!\?)", "(?:", source)


# The bulk row scan (see _scan_columns): a value as _VALUE accepts it, a round token as
# _ROUND, from the same sources.
_VALUE_TOKEN = _ungrouped(_VALUE_SOURCE)
_ROUND_TOKEN = _OPPONENT + _ungrouped(_SUFFIX_SOURCE)
#: Every value or round token of a line of single-space-separated tokens, whole tokens
#: only: (value, "", "") or ("", opponent, rest of the round token).
_DATA_TOKENS = re.compile(
    rf"(?:^| )(?:({_VALUE_TOKEN})|({_OPPONENT})({_ungrouped(_SUFFIX_SOURCE)}))(?= |$)"
)
#: A run of value and round tokens separated by single spaces (linear: tokens hold no space).
_DATA_RUN = re.compile(rf"(?:(?:{_VALUE_TOKEN}|{_ROUND_TOKEN}) )*(?:{_VALUE_TOKEN}|{_ROUND_TOKEN})")


#: Fraction glyphs; ISO-8859-15 decodes bytes 0xBD/0xBC/0xBE (½ ¼ ¾ in Latin-1) as œ Œ Ÿ.
_GLYPHS = {"½": Fraction(1, 2), "œ": Fraction(1, 2), "¼": Fraction(1, 4), "Œ": Fraction(1, 4)}
_GLYPHS.update({"¾": Fraction(3, 4), "Ÿ": Fraction(3, 4)})
_RANK = re.compile(r"^[0-9]{1,2}[kdpKDP]$")
_ROUND_LABEL = re.compile(
    r"^(?:[0-9]{1,2}|[0-9]{1,2}(?:st|nd|rd|th)|r[0-9]{1,2}d?)$", re.IGNORECASE
)
_HA = re.compile(r"^\s*h\s*([0-9]{1,3})\s*$", re.IGNORECASE)
MAX_HANDICAP = 9
#: Value columns in the column line: real files print a handful.
MAX_COLUMNS = 100
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class RoundToken:
    """One round of one row: ``opponent`` is a row number (0 = no opponent)."""

    opponent: int
    outcome: str  # + - = ?
    by_default: bool = False
    colour: str = ""  # "w", "b" or "" (unknown)
    handicap: int = 0


@dataclass(slots=True)
class H9Row:
    """One result row. Its round tokens are kept as read (``opponents``: row numbers,
    ``suffixes``: the rest of each token, ``+/w2``); :attr:`rounds` interprets them."""

    line: int
    place: int | None
    name: str
    rank: int
    country: str
    club: str
    printed: dict[str, Fraction]
    opponents: list[int]
    suffixes: list[str]
    _rounds: list[RoundToken] | None = field(default=None, repr=False, compare=False)
    pin: str = ""  # the EGD PIN after "|", "" when the row has none
    #: columns whose value was written with OpenGotha's "?" (a fraction it could not print)
    marked: frozenset[str] = frozenset()

    @property
    def rounds(self) -> list[RoundToken]:
        if self._rounds is None:
            self._rounds = [_token(o, s) for o, s in zip(self.opponents, self.suffixes)]
        return self._rounds


@dataclass
class H9File:
    """The scanned file: header properties, columns and rows (printed values kept)."""

    source: str
    properties: dict[str, str]
    columns: list[str]  # header columns in order; unknown ones prefixed with "?"
    rows: list[H9Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: (line, tokens) of rows with values written with "?" (OpenGotha's ½ ¼ ¾)
    marked: list[tuple[int, list[str]]] = field(default_factory=list)

    @property
    def criteria(self) -> list[str]:
        """The criteria the columns name, in the event's form (M with an MMS column)."""
        return list(dict.fromkeys(_named(self.columns)))  # a criterion named twice ranks once


def _named(columns: list[str]) -> list[str]:
    """The criterion each known column names, in the event's form (M with an MMS column)."""
    form = "M" if "MMS" in columns else "W"
    return [COLUMNS[c].format(form) for c in columns if not c.startswith("?")]


def split_columns(text: str) -> list[str]:
    """``"MMS  SOSSOSOS Rank"`` → ``["MMS", "SOS", "SOSOS", "?Rank"]``.

    Each word is split into known names if it can be, preferring longer names
    first. The search is memoised by position and keeps, per position, only the
    first name of a split (the rest is read back by following the ends), so time and
    memory are linear in the length of the line. The split stops past
    :data:`MAX_COLUMNS` columns (the caller refuses such a header).
    """
    found: list[str] = []
    for match in _WORD.finditer(text):
        if len(found) > MAX_COLUMNS:
            break
        word = match.group()
        parts = _split_word(word.upper())
        if parts is None and _ROUND_LABEL.match(word):
            continue  # a round label over the round tokens ("1", "2nd"), not a value column
        if word.upper().lstrip("|") == "PIN":
            continue  # the label of the EGD PIN after "|", which is no value column
        found.extend(parts if parts is not None else [f"?{word}"])
    return found


#: Names by first letter, longest first.
_NAMES_BY_LETTER: dict[str, list[str]] = {}
for _name in sorted(COLUMNS, key=len, reverse=True):
    _NAMES_BY_LETTER.setdefault(_name[0], []).append(_name)
#: A word longer than this is not a run of criterion names (16 names of at most 6
#: letters): it is an ignored column without trying to split it.
MAX_COLUMN_WORD = 200


def _split_word(upper: str) -> list[str] | None:
    """``"SOSSOSOS"`` → ``["SOS", "SOSOS"]``; None when the word is not made of names."""
    n = len(upper)
    if n > MAX_COLUMN_WORD:
        return None
    # first[i]: the first name of a split of upper[i:] into names, or None (first[n]: "").
    first: list[str | None] = [None] * n + [""]
    for i in range(n - 1, -1, -1):
        for name in _NAMES_BY_LETTER.get(upper[i], ()):
            if upper.startswith(name, i) and first[i + len(name)] is not None:
                first[i] = name
                break
    if first[0] is None:
        return None
    parts: list[str] = []
    i = 0
    while i < n:
        name = first[i]
        assert name  # every position reached from 0 has a split
        parts.append(name)
        i += len(name)
    return parts


def properties(line: str) -> list[tuple[str, str]]:
    """``KEY[value]`` pairs of a header line, in one pass (linear in the line).

    A key is two ASCII capitals; a value runs to the first ``]``. (A regular
    expression such as ``[A-Z]{2}\\[[^\\]]*\\]`` rescans the rest of the line from every
    ``XX[`` that has no closing bracket: quadratic on ``EV[EV[EV[...``.)
    """
    found: list[tuple[str, str]] = []
    start = 0
    while True:
        bracket = line.find("[", start + 2)
        if bracket < 0:
            return found
        key = line[bracket - 2 : bracket]
        if not ("A" <= key[0] <= "Z" and "A" <= key[1] <= "Z"):
            start = bracket - 1  # the next "[" may close a key that starts here
            continue
        close = line.find("]", bracket + 1)
        if close < 0:
            return found  # no "]" after this one, so none after any later "["
        found.append((key, line[bracket + 1 : close]))
        start = close + 1


def decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-15")


def parse_value(token: str) -> Fraction | None:
    match = _VALUE.match(token)
    if not match:
        return None
    sign, whole, glyph, decimals = match.groups()
    value = Fraction(int(whole or "0"))
    if glyph:
        value += _GLYPHS[glyph]
    elif decimals:
        value += Fraction(int(decimals), 10 ** len(decimals))
    return -value if sign else value


def parse_round(token: str) -> RoundToken | None:
    match = _ROUND.match(token)
    if not match:
        return None
    return _token(int(match.group(1)), token[match.end(1) :])


def _pin(line: str) -> str:
    """The EGD PIN of a row: the words after its first ``|`` (``""`` when none)."""
    at = line.find("|")
    return "" if at < 0 else " ".join(line[at + 1 :].split())


def _token(opponent: int, suffix: str) -> RoundToken:
    """The round token of a row number and the rest of a token that matched _ROUND."""
    match = _SUFFIX.match(suffix)
    assert match, suffix
    outcome, kind, colour, handicap = match.groups()
    return RoundToken(
        opponent=opponent,
        outcome=outcome,
        by_default=kind == "!",
        colour=(colour or "").lower().replace("?", ""),
        handicap=int(handicap or 0),
    )


def scan(text: str, source: str) -> H9File:
    """Lines → header properties, columns and rows; values are not interpreted yet.

    :func:`_scan_columns` reads a file whose rows all have the usual shape, in bulk; any
    other file is read line by line, each row by :func:`_scan_row`, which decides every
    row and raises the first error where it stands."""
    scanned = _scan_columns(text, source)
    if scanned is not None:
        return scanned
    result = H9File(source=source, properties={}, columns=[])
    have_columns = False
    fraction_of: dict[str, Fraction] = {}  # printed values repeat: parsed once each
    # one object per distinct opponent number, suffix ("+/w0"), country and club: a
    # 100 000-row file has 900 000 round tokens
    shared: dict[Any, Any] = {}
    for number, line, header in _lines(text):
        if header:
            have_columns |= _header_line(line, number, result)
            continue
        if not have_columns:
            raise InputError(
                "result row before the column line '; Pl Name Rk Co Club ...'",
                source=source,
                where=f"line {number}",
            )
        result.rows.append(_scan_row(line, number, result, fraction_of, shared))
    if not have_columns:
        raise InputError("no column line '; Pl Name Rk Co Club ...' found", source=source)
    if not result.rows:
        raise InputError("no result rows", source=source)
    counts = {len(row.opponents) for row in result.rows}
    if result.marked:
        line, tokens = result.marked[0]
        result.notes.append(
            f"{source}: {len(result.marked)} row(s) print values with '?' (line {line}: "
            f"{' '.join(fit(t, 16) for t in tokens[:4])}): OpenGotha writes ½ ¼ ¾ as '?'; "
            "read as the whole part plus ½ (exact for MMS, which counts halves; the other "
            "printed values are recomputed, not used)"
        )
    if len(counts) != 1:
        first = result.rows[0]
        odd = next(r for r in result.rows if len(r.opponents) != len(first.opponents))
        raise InputError(
            f"{len(odd.opponents)} round tokens, but line {first.line} has {len(first.opponents)}",
            source=source,
            where=f"line {odd.line}",
        )
    return result


def _lines(text: str) -> Iterator[tuple[int, str, bool]]:
    """The file's lines that are not blank: (number, the line without its trailing
    blanks, whether it is a header line: one that starts with ``;``)."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.strip():
            yield number, line, line.lstrip().startswith(";")


def _header_line(line: str, number: int, result: H9File) -> bool:
    """Read a ``;`` line into ``result``; True when it is the column line."""
    match = _COLUMN_LINE.match(line.strip())
    if match:
        result.columns = split_columns(match.group(1))
        if len(result.columns) > MAX_COLUMNS:
            raise InputError(
                f"more than {MAX_COLUMNS} value columns in the column line",
                source=result.source,
                where=f"line {number}",
            )
        unknown = [fit(c[1:], 40) for c in result.columns if c.startswith("?")]
        if unknown:
            result.notes.append(
                f"{result.source}: ignored column(s) {', '.join(unknown)} (not a criterion)"
            )
        named = _named(result.columns)
        twice = sorted({c for c in named if named.count(c) > 1})
        if twice:
            result.notes.append(
                f"{result.source}: the column line names {', '.join(twice)} twice: "
                "ranked once, at its first place"
            )
        return True
    for key, value in properties(line):
        result.properties.setdefault(key, value)
    return False


#: Runs of round tokens, of values (single spaces), and a checked round token's parts.
_ROUNDS_RUN = re.compile(rf"(?:{_ROUND_TOKEN} )*{_ROUND_TOKEN}")
_VALUES_RUN = re.compile(rf"(?:{_VALUE_TOKEN} )*{_VALUE_TOKEN}")
_ROUND_PARTS = re.compile(r"([0-9]+)([^ ]+)")
#: Rows checked and taken apart at once by _scan_columns (bounds its memory).
_CHUNK = 4096


def _row_head(line: str, number: int, source: str) -> tuple[list[str], int | None]:
    """A row's tokens before its EGD PIN (the words after its first ``|``) without its
    place, and the place (None: blank, a tie); a place of more than 9 digits, or of
    digits other than 0-9, is refused."""
    tokens = line.split()
    if tokens and tokens[-1].startswith("|"):
        tokens.pop()  # EGD PIN
    elif "|" in line:
        tokens = line[: line.index("|")].split()
    place = None
    if tokens and tokens[0].isascii() and tokens[0].isdigit():
        if len(tokens[0]) > 9:
            raise InputError(
                f"place {tokens[0][:12]}... has more than 9 digits",
                source=source,
                where=f"line {number}",
            )
        place = int(tokens.pop(0))
    elif tokens and _foreign_number(tokens[0]):
        raise InputError(
            f"place {fit(tokens[0], 12)!r} is not written with the digits 0-9",
            source=source,
            where=f"line {number}",
        )
    return tokens, place


def _scan_columns(text: str, source: str) -> H9File | None:
    """The file as :func:`scan` reads it line by line, when every row has the shape of
    the first: place, name, rank, up to two words, then the same number of values and
    of round tokens, in the first row's order; else None (nothing is raised here but header errors
    met before any row, as the line-by-line reading raises them).

    Each row is split into words once; all round tokens of the file are then checked
    by one regular expression over their text and taken apart by one more, and so are
    the values. The rank is the only rank-like word after the first name word, among
    the three words before the values, and the words between it and the values are no
    value nor round token: :func:`_scan_row` then reads the same row. It is kept beside
    :func:`_scan_row` only for speed (benchmarks/README.md, "h9 and JSON readers, one
    form"); tests/readers/test_h9_rows.py checks that real files take it and pins both
    to what the reader read before.
    """
    result = H9File(source=source, properties={}, columns=[])
    have_columns = False
    lines: list[tuple[int, str]] = []
    for number, line, header in _lines(text):
        if header:
            if lines:  # a header line among the rows: read line by line
                return None
            have_columns |= _header_line(line, number, result)
            continue
        if not have_columns:
            return None
        lines.append((number, line))
    if not lines:
        return None
    # the first row gives the number of values and of rounds
    tokens = lines[0][1].split()
    if tokens and tokens[0].isascii() and tokens[0].isdigit():
        del tokens[0]  # the place
    found = _DATA_TOKENS.findall(" ".join(tokens))
    width = len(found)
    values_first = bool(found) and bool(found[0][0])  # else the round tokens come first
    lead = sum(1 for _ in itertools.takewhile(lambda f: bool(f[0]) == values_first, found))
    values = lead if values_first else width - lead
    rounds = width - values
    if (
        not rounds
        or rounds > MAX_ROUNDS
        or values < len(result.columns)
        or any(bool(f[0]) == values_first for f in found[lead:])
    ):
        return None
    rank_like = _RANK.match
    data = _DATA_RUN.fullmatch
    # per row: its values and its round tokens as one text each (a string per row, not
    # per token: a 100 000-row file holds 900 000 round tokens)
    value_texts: list[str] = []
    round_texts: list[str] = []
    rows: list[tuple] = []
    for number, line in lines:
        try:
            tokens, place = _row_head(line, number, source)
        except InputError:
            return None  # the row-by-row reading says it
        at = len(tokens) - width  # where the values start
        if at < 2:
            return None
        ranks = [i for i in range(1, at) if rank_like(tokens[i])]
        if len(ranks) != 1 or ranks[0] < at - 3:
            return None
        rank_at = ranks[0]
        extra = tokens[rank_at + 1 : at]
        if any(data(word) for word in extra):
            return None
        try:
            rank = parse_rank(tokens[rank_at])
        except ValueError:
            return None
        extra += ["", ""]
        country, club = map(_spaced, extra[:2])
        split = at + values if values_first else at + rounds
        value_texts.append(" ".join(tokens[at:split] if values_first else tokens[split:]))
        round_texts.append(" ".join(tokens[split:] if values_first else tokens[at:split]))
        rows.append((number, place, " ".join(tokens[:rank_at]), rank, country, club, _pin(line)))
    fraction_of: dict[str, Fraction] = {}
    # one object per distinct opponent number, suffix ("+/w0"), country and club: a
    # 100 000-row file has 900 000 round tokens
    shared: dict[Any, Any] = {}
    kept = [(k, column) for k, column in enumerate(result.columns) if column[0] != "?"]
    # checked and taken apart by chunks of rows, so that the parts of all tokens are
    # never alive at once
    for start in range(0, len(rows), _CHUNK):
        round_text = " ".join(round_texts[start : start + _CHUNK])
        if not _ROUNDS_RUN.fullmatch(round_text):
            return None
        parts = _ROUND_PARTS.findall(round_text)
        del round_text
        share = shared.setdefault  # one object per distinct number and suffix
        opponents = [share(number, number) for number in map(int, map(itemgetter(0), parts))]
        suffixes = [share(suffix, suffix) for _, suffix in parts]
        del parts
        fractions: list[Fraction] = []
        if values:
            value_text = " ".join(value_texts[start : start + _CHUNK])
            if not _VALUES_RUN.fullmatch(value_text):
                return None
            words = value_text.split(" ")
            for word in set(words).difference(fraction_of):
                fraction_of[word] = parse_value(word)  # type: ignore[assignment]
            fractions = list(map(fraction_of.__getitem__, words))
        for i, (number, place, name, rank, country, club, pin) in enumerate(
            rows[start : start + _CHUNK]
        ):
            v = i * values
            r = i * rounds
            printed = {column: fractions[v + k] for k, column in kept}
            country, club = share(country, country), share(club, club)
            result.rows.append(
                H9Row(
                    number,
                    place,
                    name,
                    rank,
                    country,
                    club,
                    printed,
                    opponents[r : r + rounds],
                    suffixes[r : r + rounds],
                    pin=pin,
                )
            )
    return result


def _spaced(word: str) -> str:
    """A country or club as read: writers join its words with ``_`` (EGD's way for spaces)."""
    return " ".join(word.split("_")) if "_" in word else word


def _foreign_number(token: str) -> bool:
    """A token of digits that are not all 0-9 (``²``, ``١``, ``１``): no place, and no
    name word either (str.isdigit accepts them; a CJK numeral such as 万 is a name)."""
    return not token.isascii() and token.isdigit()


#: Suffixes of round tokens met (``+/w0``): each matched :data:`_SUFFIX` once.
_SUFFIXES: set[str] = set()
_DIGITS = "0123456789"


def _classified(tokens: list[str], fraction_of: dict[str, Fraction]) -> list[Any]:
    """Each token as a value (its Fraction, as :func:`parse_value` reads it), a round
    token (opponent, suffix: as :func:`parse_round` reads it) or None (a word).

    The patterns decide; what they accepted is remembered (a value's text in
    ``fraction_of``, a suffix in :data:`_SUFFIXES`), so that a file's tokens, which repeat
    few values and suffixes, cost a dictionary look-up each."""
    found: list[Any] = []
    append = found.append
    known = _SUFFIXES
    for token in tokens:
        suffix = token.lstrip(_DIGITS)
        digits = len(token) - len(suffix)
        if 0 < digits <= 7 and (suffix in known or _suffix(suffix)):
            append((int(token[:digits]), suffix))
            continue
        value = fraction_of.get(token)
        if value is None:
            value = parse_value(token)
            if value is not None:
                fraction_of[token] = value
        append(value)
    return found


def _suffix(suffix: str) -> bool:
    """Whether ``suffix`` is what follows the opponent in a round token (remembered)."""
    if _SUFFIX.match(suffix) is None:
        return False
    if len(_SUFFIXES) < 65536:  # bounded: there are 5 332 suffixes
        _SUFFIXES.add(suffix)
    return True


def _scan_row(
    line: str,
    number: int,
    parsed: H9File,
    fraction_of: dict[str, Fraction],
    shared: dict[Any, Any],
) -> H9Row:
    """One result row (module docstring), or the InputError that says what is wrong.

    Each token is classified once (:func:`_classified`): value, round token or word.
    The rank is the first rank-like word after the first word after which at most two
    words (country, club) come before the values and rounds (a name may hold a
    rank-like word: ``Kim 3d Lee``); the words right after it are the country and the
    club; every later token is a value or a round token, in any order, but for
    OpenGotha's ``33?`` (:func:`_marked_values`).
    """
    where = f"line {number}"
    source = parsed.source
    tokens, place = _row_head(line, number, source)
    found = _classified(tokens, fraction_of)
    count = len(tokens)
    rank_at = None
    first_candidate = None
    for i in range(1, count):
        if found[i] is not None or not _RANK.match(tokens[i]):
            continue
        if first_candidate is None:
            first_candidate = i
        if _fits_after_rank(found[k] is not None for k in range(i + 1, count)):
            rank_at = i
            break
    if first_candidate is None:
        raise InputError("no rank (e.g. 5k, 3d) after the name", source=source, where=where)
    if rank_at is None:
        rank_at = first_candidate
    try:
        rank = parse_rank(tokens[rank_at])
    except ValueError as error:  # "93D" has the shape of a rank but no meaning (fuzzing)
        raise InputError(str(error), source=source, where=where) from None
    share = shared.setdefault
    extra = ["", ""]  # country, club: absent when blank in the file
    start = rank_at + 1
    for k in range(2):
        if start < count and found[start] is None:
            word = tokens[start]
            extra[k] = share(word, word) if "_" not in word else _spaced(word)
            start += 1
    rest = tokens[start:]
    columns = parsed.columns
    as_values = _marked_values(rest, len(columns)) if rest and columns and "?" in line else ()
    values: list[Fraction] = []
    marked: set[int] = set()  # positions among the values of "33?" values
    opponents: list[int] = []
    suffixes: list[str] = []
    for at in range(start, count):
        kind = found[at]
        if type(kind) is Fraction:
            values.append(kind)
        elif as_values and at - start in as_values:
            marked.add(len(values))
            values.append(_marked_value(tokens[at]))
        elif kind is not None:
            opponent, suffix = kind
            opponents.append(share(opponent, opponent))
            suffixes.append(share(suffix, suffix))
        else:
            raise InputError(
                f"{tokens[at]!r} is neither a value (3, 2½, 2.5) nor a round token "
                "(opp+/w2, 0=, 0-)",
                source=source,
                where=where,
            )
    if len(values) < len(columns):
        raise InputError(
            f"{len(values)} value columns for {len(columns)} in the header",
            source=source,
            where=where,
        )
    printed = {column: value for column, value in zip(columns, values) if column[0] != "?"}
    shown = frozenset(columns[k] for k in marked if k < len(columns) and columns[k][0] != "?")
    if marked:
        parsed.marked.append(
            (number, [rest[at] for at in sorted(as_values) if parse_value(rest[at]) is None])
        )
    if len(opponents) > MAX_ROUNDS:
        raise InputError(f"more than {MAX_ROUNDS} rounds", source=source, where=where)
    name = " ".join(tokens[:rank_at])
    return H9Row(
        number, place, name, rank, extra[0], extra[1], printed, opponents, suffixes,
        pin=_pin(line), marked=shown,
    )  # fmt: skip


def _fits_after_rank(data: Iterable[bool]) -> bool:
    """Whether the tokens after a rank-like word can follow the rank: at most two words
    (country, club) before the first value or round token. ``data``: for each token,
    whether it is a value or a round token."""
    words = 0
    for is_data in data:
        if is_data:
            break
        words += 1
    return words <= 2


def _marked_value(token: str) -> Fraction:
    """``33?`` → 33½: OpenGotha printed ½, ¼ or ¾ as ``?`` (module docstring)."""
    match = _MARKED.match(token)
    assert match, token
    value = int(match.group(2)) + Fraction(1, 2)
    return -value if match.group(1) else value


def _marked_values(rest: list[str], columns: int) -> set[int]:
    """Positions in ``rest`` (a row's tokens after the club) of ``33?`` tokens that
    stand among the ``columns`` values the header names: among the first ``columns``
    tokens, all values, when the values come first (the last token is no value), else
    among the last ``columns``, all values."""

    def value(token: str) -> bool:
        return parse_value(token) is not None or _MARKED.match(token) is not None

    found: set[int] = set()
    if parse_value(rest[-1]) is None:
        for at, token in enumerate(rest[:columns]):
            if not value(token):
                break
            found.add(at)
    else:
        for at in range(len(rest) - 1, max(len(rest) - columns, 0) - 1, -1):
            if not value(rest[at]):
                break
            found.add(at)
    return {at for at in found if parse_value(rest[at]) is None}


#: header properties kept as the event's information (Tournament.info)
INFO = ("TC", "CL", "PC", "DT", "KM", "TM", "CM")


def interpret(parsed: H9File) -> tuple[Tournament, list[str]]:
    """Rows → Tournament (games from the round tokens, checked from both sides:
    :func:`_games`)."""
    source = parsed.source
    rows = parsed.rows
    rounds = len(rows[0].opponents)
    system = "mcmahon" if "MMS" in parsed.columns else "swiss"
    games, byes, absences, starts = _games(parsed, system == "mcmahon")
    half = Fraction(1, 2)
    settings: dict[str, Any] = {
        "system": system,
        "scoring": {
            "bye": 1,
            "bye_mms": 1,
            "absent_nbw": str(half) if system == "swiss" else 0,
            "absent_mms": str(half),
            "round_down": True,
        },
    }
    criteria = parsed.criteria
    if criteria:
        settings["criteria"] = criteria
    ha = parsed.properties.get("HA")
    if ha is not None:
        match = _HA.match(ha)
        if not match:
            raise InputError(f"HA[{ha}]: expected h<n>, e.g. HA[h1]", source=source)
        settings["handicap"] = {"reduction": int(match.group(1))}
    rating_column = next((c for c in ("RATING", "RATIN") if c in parsed.columns), None)
    notes = list(parsed.notes)
    if "CAT" in parsed.columns:
        notes.append(
            f"{source}: CAT: h9 does not give the category limits: every player is in "
            "category 1 (set categories.lower_limits)"
        )
    players = tuple(
        Player(
            row.name, row.rank,
            None if rating_column is None else _rating(row.printed[rating_column]),
            _known(row.club, UNKNOWN_CLUB), _known(row.country, UNKNOWN_COUNTRY),
            0, None if starts is None else starts[i], None,
            Ids({"egd": row.pin}) if row.pin else NO_IDS,
        )
        for i, row in enumerate(rows)
    )  # fmt: skip
    try:
        tournament = Tournament(
            name=parsed.properties.get("EV", "").strip() or Path(source).stem,
            rounds=rounds,
            players=players,
            games=tuple(games),
            byes=frozenset(byes),
            absences=frozenset(absences),
            settings=settings,
            source=source,
            date=iso_day(parsed.properties.get("DT")),
            info={k: v.strip() for k, v in parsed.properties.items() if k in INFO and v.strip()},
        )
    except ValueError as error:
        raise InputError(str(error), source=source) from None
    return tournament, notes


def _known(word: str, unknown: str) -> str:
    """A country or club as read (``_`` already spaces), ``""`` for OpenGotha's mark of
    an unknown one; a writer's leading ``_`` (which keeps a club ``0`` from reading as a
    value) is dropped with the spaces around the words."""
    return "" if word == unknown else " ".join(word.split())


def _rating(value: Fraction) -> int | float:
    """A printed Rating column value as ``Player.rating``: an int, or the decimal."""
    return int(value) if value.denominator == 1 else float(value)


#: A round's points for the start score, in halves, by outcome (``+``, ``=``, ``-``, ``?``)
_HALVES = {"+": 2, "=": 1, "-": 0, "?": 0}


def _games(parsed: H9File, mcmahon: bool = False):
    """Games, byes, absences and (``mcmahon``) start scores from the round tokens, in
    file order; the first error is raised where it stands (line and round).

    Each game is built from its earlier row and checked from both sides. One loop over
    the round tokens: integers only, a game's outcome decided once per distinct pair of
    token suffixes (``+/w0``, ``-/b0``; :func:`_decide`), points counted in halves.
    A start score is the printed MMS minus the points of the rounds: games, plus the
    free rounds' running total floored (OpenGotha's round-down; module docstring).
    """
    source = parsed.source
    rows = parsed.rows
    n = len(rows)
    rounds = len(rows[0].opponents)
    opponents = [q for row in rows for q in row.opponents]
    suffixes = [s for row in rows for s in row.suffixes]
    games: list[Game] = []
    append = games.append
    byes: set[tuple[int, int]] = set()
    absences: set[tuple[int, int]] = set()
    decided: dict[tuple[str, str], tuple] = {}
    halves = _HALVES
    starts: list[Fraction] | None = [] if mcmahon else None
    index = list(range(n))  # games share one int object per player index
    i = 0
    for p in index:
        earned = free = 0  # in halves: points of games, of byes and absences
        number = p + 1
        for r in range(1, rounds + 1):
            q = opponents[i]
            suffix = suffixes[i]
            i += 1
            if not q:
                outcome = suffix[0]
                if outcome == "+":
                    byes.add((r, p))
                    free += 2
                elif outcome == "=":
                    absences.add((r, p))
                    free += 1
                elif outcome == "?":
                    raise InputError(
                        "'0?' is not a round token", source=source, where=_at(rows[p], r)
                    )
                continue
            earned += halves[suffix[0]]
            if q > n or q == number:
                raise InputError(
                    f"opponent {q} is not another row (1..{n})",
                    source=source,
                    where=_at(rows[p], r),
                )
            j = (q - 1) * rounds + r - 1
            if opponents[j] != number:
                raise InputError(
                    f"plays row {q}, whose round {r} token names row {opponents[j]}",
                    source=source,
                    where=_at(rows[p], r),
                )
            if q < number:
                continue  # the game was built from the earlier row
            key = (suffix, suffixes[j])
            decision = decided.get(key)
            if decision is None:
                decision = decided[key] = _decide(*key, source, _at(rows[p], r))
            swap, result, handicap, by_default, known = decision
            if swap:
                append(Game(r, index[q - 1], p, result, handicap, by_default, known))
            else:
                append(Game(r, p, index[q - 1], result, handicap, by_default, known))
        if starts is not None:
            starts.append(rows[p].printed["MMS"] - Fraction(earned + free // 2 * 2, 2))
    return games, byes, absences, starts


def _at(row: H9Row, r: int) -> str:
    return f"line {row.line}, round {r}"


#: A game's kind by the outcomes of its two tokens (earlier row's, later row's):
#: "p" the earlier row won, "q" the later one; else the result itself.
_KINDS = {
    ("+", "-"): "p",
    ("-", "+"): "q",
    ("=", "="): Result.JIGO,
    ("+", "+"): Result.BOTH_WIN,
    ("-", "-"): Result.BOTH_LOSE,
    ("?", "?"): Result.UNKNOWN,
}


def _decide(suffix: str, other: str, source: str, where: str) -> tuple:
    """(black is the later row, result, handicap, by default, colours known) of a game
    whose tokens end in ``suffix`` (earlier row) and ``other`` (later row); raises
    InputError at ``where`` when the two tokens do not make one game."""
    token, opposite = _token(1, suffix), _token(1, other)
    kind = _KINDS.get((token.outcome, opposite.outcome))
    if kind is None:
        raise InputError(
            f"result {token.outcome} does not match the opponent's {opposite.outcome}",
            source=source,
            where=where,
        )
    if token.handicap > MAX_HANDICAP:  # as the SGF and XML readers: HA 0..9
        raise InputError(
            f"handicap {token.handicap} outside 0..{MAX_HANDICAP}", source=source, where=where
        )
    if token.handicap != opposite.handicap or token.by_default != opposite.by_default:
        raise InputError(
            "handicap or by-default mark differs from the opponent's token",
            source=source,
            where=where,
        )
    colours = (token.colour, opposite.colour)
    if colours in (("w", "b"), ("w", ""), ("", "b")):
        later_is_black = True
    elif colours in (("b", "w"), ("b", ""), ("", "w"), ("", "")):
        later_is_black = False
    else:
        raise InputError(f"both players have colour {token.colour!r}", source=source, where=where)
    if token.handicap and "" in colours:
        raise InputError("a handicap game needs colours (/w or /b)", source=source, where=where)
    if kind == "p":
        result = Result.WHITE_WINS if later_is_black else Result.BLACK_WINS
    elif kind == "q":
        result = Result.BLACK_WINS if later_is_black else Result.WHITE_WINS
    else:
        result = kind
    known = colours != ("", "")
    return later_is_black, result, token.handicap, token.by_default, known


def claims(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return False
    if path.suffix.lower() in (".h9", ".h10"):
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b";"):
        return False
    return re.search(rb"(?im)^;\W*Pl\b.*\bclub\b", head) is not None


def read_path(path: Path, max_bytes: int = MAX_BYTES) -> tuple[Tournament, H9File, list[str]]:
    source = str(path)
    try:
        data = read_regular(path, max_bytes, "option [plugin.builtin.h9] max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    text = decode(data)
    del data  # (the file's bytes are not kept while it is read)
    parsed = scan(text, source)
    del text
    tournament, notes = interpret(parsed)
    return tournament, parsed, notes


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    if len(paths) != 1:
        raise InputError(f"give one h9 file per tournament, got {len(paths)}")
    max_bytes = positive_integer(
        options.get("max_bytes", MAX_BYTES), "max_bytes", "[plugin.builtin.h9]"
    )
    tournament, _, notes = read_path(paths[0], max_bytes)
    return ReadResult(tournament, files=[FileReport(str(paths[0]), "ingested")], warnings=notes)


def stdin(head: bytes) -> str | None:
    """Data from stdin whose lines start with ``;`` (the h9 header) and that is no other
    format's (XML, SGF, JSON, an archive): ``.h9``."""
    text = plain_head(head)
    sgf = text.startswith(b"(") and text[1:].lstrip()[:1] == b";"
    if sgf or head.startswith((b"PK\x03\x04", b"\x1f\x8b")) or text[:1] in (b"<", b"{", b"["):
        return None
    return ".h9" if text.startswith(b";") or b"\n;" in text[:4096] else None


@hookimpl
def sodos_readers() -> list[Reader]:
    return [
        Reader(
            NAME,
            "EGD h9/h10 results (round tokens; criteria recomputed)",
            claims,
            read,
            stdin=stdin,
        )
    ]
