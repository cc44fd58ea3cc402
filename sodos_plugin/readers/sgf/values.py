"""Decode the game-information values of a root node (SGF FF[4], docs/rules.md §9).

Contract: :func:`decode_root` turns a raw root property map (see :mod:`.scan`)
into a :class:`GameInfo` of decoded strings, or raises :class:`RecordError` whose
message names the property and what was expected.

Values are decoded with sgfmill's value functions (``sgf_properties``:
``interpret_simpletext``, ``interpret_number``, ``interpret_real``); a value with no
backslash and no whitespace other than spaces is its own SimpleText, so it is
decoded directly (the same bytes, the same answer, less work).

Checks mirror what ``sgfmill.sgf.Sgf_game`` does when it is built from the root,
with the same outcome: ``SZ`` must be an integer 1..26 and ``CA`` a known
encoding; ``HA`` must be a number 0..9 (or the komi again, which servers write there
by mistake: no handicap, noted). A game-info property given twice with two different
values is contradictory; given twice with one value (``GN[][]``, ``CA[UTF-8][UTF-8]``,
as Fox writes them), it is read once, noted.

Encoding (docs/rules.md §9):

1. ``forced`` (the file was UTF-16 and has been transcoded to UTF-8) wins;
2. else ``CA`` is honoured; a value that is not valid in it is an error;
3. else, when the file began with a UTF-8 BOM, UTF-8;
4. else UTF-8 when every used value decodes as UTF-8, otherwise ``fallback``
   (default ISO-8859-1, sgfmill's own default), with a note when that decoded
   non-ASCII bytes (so a GBK file without ``CA`` is never read silently);
5. UTF-8 whose bytes were damaged upstream (a character cut short, a byte replaced by
   ``?``): when the values read as UTF-8 (rules 1-4) are mostly UTF-8 — their valid
   multi-byte characters take at least as many bytes as the invalid bytes — or the
   record is Fox's (:func:`writer`: Fox writes UTF-8), each byte that is not valid UTF-8
   is kept as a ``\\xNN`` escape, noted, and the record is kept; otherwise rules 2-4
   apply as written (an error, or the fallback).

:func:`writer` tells records of a writer with its own conventions (Fox), and
:func:`komi` reads ``KM`` with them (docs/rules.md §10.1).
"""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import NamedTuple

from sgfmill import sgf_grammar, sgf_properties

from sodos_plugin.readers.sgf.scan import RawRoot

__all__ = [
    "FOX",
    "TEXT_PROPERTIES",
    "GameInfo",
    "RecordError",
    "decode_plain",
    "decode_root",
    "encoding_name",
    "komi",
    "no_jigo",
    "writer",
]

#: Game-info properties read as SimpleText (PB/PW players, BR/WR ranks, RE result,
#: RO round, EV event, DT date, GN game name — OGS writes the round there).
TEXT_PROPERTIES = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "GN")
_KEYS = tuple(ident.encode("ascii") for ident in TEXT_PROPERTIES)
_SPECIAL = b"\\\t\n\r\x0b\x0c"  # bytes that SimpleText decoding changes
#: SZ values that are a board size as sgfmill reads them, written plainly (decode_plain)
_PLAIN_SIZES = frozenset(str(n).encode() for n in range(1, 27))


class RecordError(ValueError):
    """A record that cannot be used; the message names the property."""


class GameInfo(NamedTuple):
    """The decoded game information of one root node.

    ``text`` holds the values of :data:`TEXT_PROPERTIES`, in that order (``None``: absent).
    """

    text: tuple[str | None, ...]
    handicap: int | None
    komi: str | None
    encoding: str
    notes: tuple[str, ...] = ()
    #: the writer whose conventions the record follows (:func:`writer`): FOX, or ""
    writer: str = ""


class _Context:
    """What sgfmill's interpret functions read: the board size and the encoding."""

    __slots__ = ("encoding", "size")

    def __init__(self, size: int, encoding: str):
        self.size = size
        self.encoding = encoding


#: Codecs Python knows that are no character set a record can be written in: byte
#: transforms (rot13, base64, zlib ... are refused as not text encodings), and these.
NOT_CHARSETS = frozenset({"undefined", "unicode-escape", "raw-unicode-escape", "idna", "punycode"})
_SHOWN = 40


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


@lru_cache(maxsize=64)
def encoding_name(raw: bytes) -> str:
    """sgfmill's normalised name for a ``CA`` value; :class:`RecordError` if it is not a
    character set Python can decode (unknown, a bytes transform like ``rot13``)."""
    text = raw.decode("ascii", "replace")
    try:
        info = codecs.lookup(text)
        name = sgf_properties.normalise_charset_name(text)
    except (LookupError, ValueError):  # ValueError: a NUL in the name (fuzzing)
        raise RecordError(f"CA[{_shown(text)}]: unknown encoding") from None
    if not getattr(info, "_is_text_encoding", True) or info.name in NOT_CHARSETS:
        raise RecordError(f"CA[{_shown(text)}]: {info.name} is not a character set") from None
    return name


def _first(value: bytes | list[bytes]) -> bytes:
    """The first raw value (what sgfmill reads for SZ and CA)."""
    return value if isinstance(value, bytes) else value[0]


def _size(values: bytes | list[bytes]) -> int:
    """Board size from the ``SZ`` values, checked as ``Sgf_game`` checks it."""
    value = _first(values)
    try:
        size = int(value)  # exactly sgfmill's conversion (Sgf_game.from_coarse_game_tree)
    except ValueError:
        shown = value.decode("ascii", "replace")
        raise RecordError(f"SZ[{shown}]: expected a board size 1..26") from None
    if not 1 <= size <= 26:
        raise RecordError(f"SZ[{size}]: board size outside 1..26")
    return size


def _simpletext(value: bytes, ctx: _Context, errors: str = "strict") -> str:
    if len(value.translate(None, _SPECIAL)) == len(value):
        return value.decode(ctx.encoding, errors)
    if errors == "strict":
        return sgf_properties.interpret_simpletext(value, ctx)
    return sgf_grammar.simpletext_value(value).decode(ctx.encoding, errors)


def _one(raw: RawRoot, ident: str, notes: list[str]) -> bytes:
    """The value of ``ident`` given several times: read once when the values say one
    thing (every value empty, or the same non-empty value), noted; two different values
    are contradictory."""
    values = raw[ident.encode("ascii")]
    if isinstance(values, bytes):
        return values
    said = {v for v in values if v.strip()}
    shown_raw = "".join(f"[{v.decode('ascii', 'replace')}]" for v in values)
    if len(said) <= 1:
        notes.append(f"{ident}{_shown(shown_raw)}: one value given {len(values)} times, read once")
        return next(iter(said), values[0])
    shown = ", ".join(v.decode("ascii", "replace") for v in values)
    raise RecordError(f"{ident} given {len(values)} times ({shown}): expected one value")


def _decode_all(
    values: list[bytes | None], encoding: str, size: int, joined: bytes = b"", errors="strict"
) -> tuple[str | None, ...]:
    """Decode raw values (``None``: absent) as SimpleText in ``encoding``.

    ``joined`` (all values concatenated, when known) lets one check cover them all.
    """
    if joined and len(joined.translate(None, _SPECIAL)) == len(joined):  # no escapes, no breaks
        return tuple([None if v is None else v.decode(encoding, errors) for v in values])
    ctx = _Context(size, encoding)
    return tuple([None if v is None else _simpletext(v, ctx, errors) for v in values])


def _damaged_utf8(
    found: list[bytes | None], size: int, utf8_writer: bool = False
) -> tuple[tuple[str | None, ...], str] | None:
    """The values as UTF-8 with each invalid byte kept as a ``\\xNN`` escape, and the
    note naming the properties, when their valid multi-byte characters take at least as
    many bytes as the invalid bytes, or the record's writer writes UTF-8 (``utf8_writer``:
    Fox); else None (rule 5 of the module documentation).

    Why a count: a legacy multi-byte text (GBK, Shift-JIS) read as UTF-8 makes a valid
    character by chance now and then (``½`` in GBK ``柯洁``), but far fewer bytes of
    them than invalid bytes; UTF-8 damaged upstream keeps most of its characters whole.
    """
    joined = b"".join(v for v in found if v)
    valid = invalid = 0
    for char in joined.decode("utf-8", "surrogateescape"):
        if char.isascii():
            continue
        if "\udc80" <= char <= "\udcff":  # one byte that is not valid UTF-8
            invalid += 1
        else:
            valid += len(char.encode("utf-8"))
    if not utf8_writer and (valid < invalid or not valid):
        return None  # nothing shows the bytes are UTF-8
    text = _decode_all(found, "utf-8", size, errors="backslashreplace")
    damaged = [
        ident
        for ident, value in zip(TEXT_PROPERTIES, found)
        if value is not None and not _valid_utf8(value)
    ]
    note = (
        f"{', '.join(damaged)}: bytes that are not valid UTF-8 (damaged upstream) kept as "
        "\\xNN escapes (docs/rules.md §9)"
    )
    return text, note


def _valid_utf8(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_root(
    raw: RawRoot,
    *,
    forced: str | None = None,
    bom: bool = False,
    fallback: str = "ISO-8859-1",
) -> GameInfo:
    """Decode one root node's game information. :class:`RecordError` names the property."""
    notes: list[str] = []
    sz = raw.get(b"SZ")
    if sz is not None and not isinstance(sz, bytes):
        sz = _first_of_repeated(raw, "SZ", notes)
    size = 19 if sz is None or sz == b"19" else _size(sz)
    ca = raw.get(b"CA")
    if ca is not None and not isinstance(ca, bytes):
        ca = _first_of_repeated(raw, "CA", notes)
    # A transcoded UTF-16 file is UTF-8 now, whatever its CA said (e.g. CA[UTF16LE]).
    declared = None
    if ca is not None and not forced:  # CA[] is an unknown encoding, as for sgfmill
        declared = encoding_name(ca)
    found = list(map(raw.get, _KEYS))
    ha = raw.get(b"HA")
    km = raw.get(b"KM")
    try:
        joined = b"".join(filter(None, found))  # absent (None) and empty values add nothing
    except TypeError:  # a list: some property has several values
        found = [None if v is None else _one(raw, i, notes) for i, v in zip(TEXT_PROPERTIES, found)]
        joined = b"".join([v for v in found if v is not None])
    if ha is not None and not isinstance(ha, bytes):
        ha = _one(raw, "HA", notes)
    if km is not None and not isinstance(km, bytes):
        km = _one(raw, "KM", notes)
    encoding = forced or declared or ("UTF-8" if bom else None)
    if encoding is not None:
        try:
            text = _decode_all(found, encoding, size, joined)
        except (UnicodeError, LookupError):  # UnicodeError: any codec's own failure
            damaged = None
            if encoding == "UTF-8":
                damaged = _damaged_utf8(found, size, writer(raw) == FOX)
            if damaged is None:
                bad = _first_undecodable(found, _Context(size, encoding))
                if forced:
                    shown = "a UTF-16 file"
                else:
                    shown = "BOM" if ca is None else f"CA[{_shown(ca.decode('ascii', 'replace'))}]"
                raise RecordError(f"{bad} cannot be decoded as {encoding} ({shown})") from None
            text, note = damaged
            notes.append(note)
    else:
        try:
            encoding = "UTF-8"
            text = _decode_all(found, encoding, size, joined)
        except UnicodeDecodeError:
            damaged = _damaged_utf8(found, size, writer(raw) == FOX)
            if damaged is not None:
                text, note = damaged
                notes.append(note)
            else:
                encoding = encoding_name(fallback.encode("ascii", "replace"))
                try:
                    text = _decode_all(found, encoding, size)
                except (UnicodeError, LookupError):
                    bad = _first_undecodable(found, _Context(size, encoding))
                    raise RecordError(
                        f"{bad} is neither UTF-8 nor {encoding} and there is no CA property"
                    ) from None
                notes.append(f"no CA and not UTF-8: game information decoded as {encoding}")
    handicap = None
    if ha is not None:
        if ha.isdigit() and len(ha) == 1:
            handicap = int(ha)
        else:
            try:
                handicap = sgf_properties.interpret_number(ha)
            except ValueError:
                handicap = -1
            if not 0 <= handicap <= 9:
                shown = ha.decode("ascii", "replace")
                if km is None or ha.strip() != km.strip():
                    raise RecordError(f"HA[{shown}]: expected a handicap 0..9")
                # HA[7.5] KM[7.5]: the komi written in HA too; a game with komi gives no stones
                handicap = 0
                notes.append(f"HA[{shown}] repeats KM[{shown}]: the komi, not stones; no handicap")
    # Komi plays no part in standings: kept as text, not interpreted.
    komi_text = None if km is None else km.decode("ascii", "replace").strip()
    return GameInfo(text, handicap, komi_text, encoding, tuple(notes), writer(raw))


def _first_of_repeated(raw: RawRoot, ident: str, notes: list[str]) -> bytes:
    """``SZ`` or ``CA`` given several times: the first value, as sgfmill reads it; noted."""
    values = raw[ident.encode("ascii")]
    shown = "".join(f"[{v.decode('ascii', 'replace')}]" for v in values)
    if len(set(values)) == 1:
        notes.append(f"{ident}{_shown(shown)}: one value given {len(values)} times, read once")
    else:
        notes.append(f"{ident}{_shown(shown)}: given {len(values)} times, the first is read")
    return values[0]


#: The writers whose records follow conventions of their own (docs/rules.md §9, §10.1).
FOX = "fox"


def writer(raw: RawRoot) -> str:
    """:data:`FOX` for a record of the Fox Go Server: its ``AP`` names ``foxwq``, or it has
    Fox's byo-yomi properties ``TC`` and ``TT`` (periods and seconds, beside ``TM``), which
    Fox writes and no other server does; else ``""``."""
    if b"TC" in raw and b"TT" in raw:
        return FOX
    ap = raw.get(b"AP")
    if ap is not None and any(b"foxwq" in v.lower() for v in _values(ap)):
        return FOX
    return ""


def _values(value: bytes | list[bytes]) -> list[bytes]:
    return [value] if isinstance(value, bytes) else value


#: A komi beyond this (in points) is written ×100 (Ogatak's rule, docs/rules.md §10.1).
KOMI_SCALED_ABOVE = 150


def komi(raw: RawRoot, handicap: int) -> float | None:
    """Komi in points from ``KM`` (docs/rules.md §10.1), None when unknown.

    A number is komi in points; above 150 in absolute value it is written ×100 (Fox:
    ``KM[650]`` is 6.5); a quarter (``3.75``, ``KM[375]``) is komi in stones of Chinese
    counting, ×2 in points (7.5). In a Fox record ``KM[0]`` with no handicap stones is
    unknown: Fox writes it for even games played with a komi. A value that is no number,
    beyond 150 points on both scales, or a KM given twice with two values, is unknown.
    """
    points = _points(raw)
    if points == 0 and handicap == 0 and writer(raw) == FOX:
        return None
    return points


def _points(raw: RawRoot) -> float | None:
    """KM in points as written (the scale and Chinese stones read), or None."""
    value = raw.get(b"KM")
    if value is None:
        return None
    if not isinstance(value, bytes):
        said = {v.strip() for v in value if v.strip()}
        if len(said) != 1:
            return None
        value = said.pop()
    try:
        points = float(value.decode("ascii", "replace").strip())
    except ValueError:
        return None
    if points != points or abs(points) == float("inf"):  # nan, inf: no komi
        return None
    if abs(points) > KOMI_SCALED_ABOVE:
        points /= 100
        if abs(points) > KOMI_SCALED_ABOVE:  # no komi on either scale
            return None
    if (points * 4) % 2 == 1:  # a quarter: stones of Chinese counting
        points *= 2
    return points + 0.0  # no -0.0: one zero komi


def no_jigo(raw: RawRoot, handicap: int) -> bool:
    """Whether a Fox record's komi makes a jigo impossible (docs/rules.md §9): a komi with
    a half point, or ``KM[0]`` without handicap stones (Fox writes it for games with a
    half-point komi: every counted score of them ends on a half point)."""
    if writer(raw) != FOX:
        return False
    points = _points(raw)
    if points is None:
        return False  # not said: the record is taken at its word
    return (points == 0 and handicap == 0) or points % 1 != 0


def decode_plain(raw: RawRoot) -> tuple[tuple[str | None, ...], int | None] | None:
    """``(text, handicap)`` as :func:`decode_root` gives them, for the plain root; else None.

    Plain: every value read is one value (``KM`` too), ``CA`` absent or ``UTF-8``, ``SZ`` absent or
    a board size 1..26 written plainly (``9``, ``19``), ``HA`` absent or one digit, and the
    values read are UTF-8 with no backslash or line break (so each is its own
    SimpleText). Then the encoding is UTF-8 by each rule of :func:`decode_root`
    (declared, BOM, or detected) and nothing is noted. Anything else, errors
    included, is left to :func:`decode_root`.
    """
    sz = raw.get(b"SZ")
    ca = raw.get(b"CA")
    ha = raw.get(b"HA")
    if sz is not None and (sz.__class__ is not bytes or sz not in _PLAIN_SIZES):
        return None  # (a list: SZ given twice)
    if ca is not None and ca != b"UTF-8":
        return None
    if ha is not None and not (len(ha) == 1 and ha.isdigit()):  # type: ignore[union-attr]
        return None
    km = raw.get(b"KM")
    if km is not None and km.__class__ is not bytes:
        return None  # KM given twice: decode_root says so
    found = list(map(raw.get, _KEYS))
    try:
        joined = b"".join(filter(None, found))  # type: ignore[arg-type]
    except TypeError:  # a list: some property read has several values
        return None
    if len(joined.translate(None, _SPECIAL)) != len(joined):
        return None
    try:
        text = tuple([None if v is None else v.decode() for v in found])  # type: ignore[union-attr]
    except UnicodeDecodeError:
        return None
    return text, None if ha is None else int(ha)


def _first_undecodable(found: list[bytes | None], ctx: _Context) -> str:
    for ident, value in zip(TEXT_PROPERTIES, found):
        if value is None:
            continue
        try:
            _simpletext(value, ctx)
        except (UnicodeError, LookupError):
            return ident
    return "a value"  # pragma: no cover - only called after a failure
