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
encoding; ``HA`` must be a number 0..9; a game-info property given twice (two
values) is contradictory.

Encoding (issue: *honour CA; when it is missing, detect UTF-8 before falling back*):

1. ``forced`` (the file was UTF-16 and has been transcoded to UTF-8) wins;
2. else ``CA`` is honoured; a value that is not valid in it is an error;
3. else, when the file began with a UTF-8 BOM, UTF-8;
4. else UTF-8 when every used value decodes as UTF-8, otherwise ``fallback``
   (default ISO-8859-1, sgfmill's own default), with a note when that decoded
   non-ASCII bytes (so a GBK file without ``CA`` is never read silently).
"""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import NamedTuple

from sgfmill import sgf_properties

from sodos_plugin.readers.sgf.scan import RawRoot

__all__ = [
    "TEXT_PROPERTIES",
    "GameInfo",
    "RecordError",
    "decode_plain",
    "decode_root",
    "encoding_name",
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


def _declared(values: bytes | list[bytes]) -> str:
    return encoding_name(_first(values))


def _simpletext(value: bytes, ctx: _Context) -> str:
    if len(value.translate(None, _SPECIAL)) == len(value):
        return value.decode(ctx.encoding)
    return sgf_properties.interpret_simpletext(value, ctx)


def _single(raw: RawRoot, ident: str) -> bytes:
    """The one value of ``ident``; two or more values are contradictory."""
    value = raw[ident.encode("ascii")]
    if isinstance(value, bytes):
        return value
    shown = ", ".join(v.decode("ascii", "replace") for v in value)
    raise RecordError(f"{ident} given {len(value)} times ({shown}): expected one value")


def _decode_all(
    values: list[bytes | None], encoding: str, size: int, joined: bytes = b""
) -> tuple[str | None, ...]:
    """Decode raw values (``None``: absent) as SimpleText in ``encoding``.

    ``joined`` (all values concatenated, when known) lets one check cover them all.
    """
    if joined and len(joined.translate(None, _SPECIAL)) == len(joined):  # no escapes, no breaks
        return tuple([None if v is None else v.decode(encoding) for v in values])
    ctx = _Context(size, encoding)
    return tuple([None if v is None else _simpletext(v, ctx) for v in values])


def decode_root(
    raw: RawRoot,
    *,
    forced: str | None = None,
    bom: bool = False,
    fallback: str = "ISO-8859-1",
) -> GameInfo:
    """Decode one root node's game information. :class:`RecordError` names the property."""
    sz = raw.get(b"SZ")
    size = 19 if sz is None or sz == b"19" else _size(sz)
    ca = raw.get(b"CA")
    # A transcoded UTF-16 file is UTF-8 now, whatever its CA said (e.g. CA[UTF16LE]).
    declared = None
    if ca is not None and not forced:  # CA[] is an unknown encoding, as for sgfmill
        declared = encoding_name(ca) if isinstance(ca, bytes) else _declared(ca)
    found = list(map(raw.get, _KEYS))
    ha = raw.get(b"HA")
    km = raw.get(b"KM")
    try:
        joined = b"".join(filter(None, found))  # absent (None) and empty values add nothing
    except TypeError:  # a list: some property has several values
        found = [None if v is None else _single(raw, i) for i, v in zip(TEXT_PROPERTIES, found)]
        joined = b"".join([v for v in found if v is not None])
    if ha is not None and not isinstance(ha, bytes):
        ha = _single(raw, "HA")
    if km is not None and not isinstance(km, bytes):
        km = _single(raw, "KM")
    notes: tuple[str, ...] = ()
    encoding = forced or declared or ("UTF-8" if bom else None)
    if encoding is not None:
        try:
            text = _decode_all(found, encoding, size, joined)
        except (UnicodeError, LookupError):  # UnicodeError: any codec's own failure
            bad = _first_undecodable(found, _Context(size, encoding))
            if forced:
                shown = "a UTF-16 file"
            else:
                shown = (
                    "BOM" if ca is None else f"CA[{_shown(_first(ca).decode('ascii', 'replace'))}]"
                )
            raise RecordError(f"{bad} cannot be decoded as {encoding} ({shown})") from None
    else:
        try:
            encoding = "UTF-8"
            text = _decode_all(found, encoding, size, joined)
        except UnicodeDecodeError:
            encoding = encoding_name(fallback.encode("ascii", "replace"))
            try:
                text = _decode_all(found, encoding, size)
            except (UnicodeError, LookupError):
                bad = _first_undecodable(found, _Context(size, encoding))
                raise RecordError(
                    f"{bad} is neither UTF-8 nor {encoding} and there is no CA property"
                ) from None
            notes = (f"no CA and not UTF-8: game information decoded as {encoding}",)
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
                raise RecordError(f"HA[{shown}]: expected a handicap 0..9")
    # Komi plays no part in standings: kept as text, not interpreted.
    komi = None if km is None else km.decode("ascii", "replace").strip()
    return GameInfo(text, handicap, komi, encoding, notes)


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
