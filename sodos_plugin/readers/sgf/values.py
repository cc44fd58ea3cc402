"""Decode the game-information values of a root node (SGF FF[4], REFERENCE.md §6).

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
from dataclasses import dataclass
from functools import lru_cache

from sgfmill import sgf_properties

from sodos_plugin.readers.sgf.scan import RawRoot

__all__ = ["TEXT_PROPERTIES", "GameInfo", "RecordError", "decode_root", "encoding_name"]

#: Game-info properties read as SimpleText (PB/PW players, BR/WR ranks, RE result,
#: RO round, EV event, DT date, GN game name — OGS writes the round there).
TEXT_PROPERTIES = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "GN")
_SPECIAL = b"\\\t\n\r\x0b\x0c"  # bytes that SimpleText decoding changes


class RecordError(ValueError):
    """A record that cannot be used; the message names the property."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The decoded game information of one root node (``None``: property absent)."""

    text: dict[str, str | None]
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


@lru_cache(maxsize=64)
def encoding_name(raw: bytes) -> str:
    """sgfmill's normalised name for a ``CA`` value; :class:`RecordError` if unknown."""
    text = raw.decode("ascii", "replace")
    try:
        return sgf_properties.normalise_charset_name(text)
    except (LookupError, UnicodeError):
        raise RecordError(f"CA[{text}]: unknown encoding") from None


def _size(raw: RawRoot) -> int:
    values = raw.get("SZ")
    if not values:
        return 19
    try:
        size = int(values[0])  # exactly sgfmill's conversion (Sgf_game.from_coarse_game_tree)
    except ValueError:
        shown = values[0].decode("ascii", "replace")
        raise RecordError(f"SZ[{shown}]: expected a board size 1..26") from None
    if not 1 <= size <= 26:
        raise RecordError(f"SZ[{size}]: board size outside 1..26")
    return size


def _simpletext(value: bytes, ctx: _Context) -> str:
    if len(value.translate(None, _SPECIAL)) == len(value):
        return value.decode(ctx.encoding)
    return sgf_properties.interpret_simpletext(value, ctx)


def _single(raw: RawRoot, ident: str) -> bytes | None:
    values = raw.get(ident)
    if values is None:
        return None
    if len(values) != 1:
        shown = ", ".join(v.decode("ascii", "replace") for v in values)
        raise RecordError(f"{ident} given {len(values)} times ({shown}): expected one value")
    return values[0]


def _decode_all(found: dict[str, bytes], ctx: _Context) -> dict[str, str]:
    return {ident: _simpletext(value, ctx) for ident, value in found.items()}


def decode_root(
    raw: RawRoot,
    *,
    forced: str | None = None,
    bom: bool = False,
    fallback: str = "ISO-8859-1",
) -> GameInfo:
    """Decode one root node's game information. :class:`RecordError` names the property."""
    size = _size(raw)
    ca = raw.get("CA")
    # A transcoded UTF-16 file is UTF-8 now, whatever its CA said (e.g. CA[UTF16LE]).
    declared = encoding_name(ca[0]) if ca and not forced else None
    found = {}
    for ident in TEXT_PROPERTIES:
        value = _single(raw, ident)
        if value is not None:
            found[ident] = value
    notes: list[str] = []
    encoding = forced or declared or ("UTF-8" if bom else None)
    if encoding is not None:
        ctx = _Context(size, encoding)
        try:
            text = _decode_all(found, ctx)
        except UnicodeDecodeError:
            bad = _first_undecodable(found, ctx)
            where = f"CA[{ca[0].decode('ascii', 'replace')}]" if ca and not forced else "BOM"
            raise RecordError(f"{bad} cannot be decoded as {encoding} ({where})") from None
    else:
        try:
            encoding = "UTF-8"
            text = _decode_all(found, _Context(size, encoding))
        except UnicodeDecodeError:
            encoding = encoding_name(fallback.encode("ascii", "replace"))
            ctx = _Context(size, encoding)
            try:
                text = _decode_all(found, ctx)
            except UnicodeDecodeError:
                bad = _first_undecodable(found, ctx)
                raise RecordError(
                    f"{bad} is neither UTF-8 nor {encoding} and there is no CA property"
                ) from None
            notes.append(f"no CA and not UTF-8: game information decoded as {encoding}")
    handicap = None
    value = _single(raw, "HA")
    if value is not None:
        try:
            handicap = sgf_properties.interpret_number(value)
        except ValueError:
            handicap = -1
        if not 0 <= handicap <= 9:
            raise RecordError(f"HA[{value.decode('ascii', 'replace')}]: expected a handicap 0..9")
    komi = None
    value = _single(raw, "KM")
    if value is not None:
        komi = value.decode("ascii", "replace").strip()
        try:
            sgf_properties.interpret_real(value)
        except ValueError:
            notes.append(f"KM[{komi}]: not a number (komi is not used for standings)")
    return GameInfo(
        {k: text.get(k) for k in TEXT_PROPERTIES}, handicap, komi, encoding, tuple(notes)
    )


def _first_undecodable(found: dict[str, bytes], ctx: _Context) -> str:
    for ident, value in found.items():
        try:
            _simpletext(value, ctx)
        except UnicodeDecodeError:
            return ident
    return "a value"  # pragma: no cover - only called after a failure


def check_codec(name: str) -> str:
    """Validate a configured fallback encoding name (``codecs`` lookup)."""
    return codecs.lookup(name).name
